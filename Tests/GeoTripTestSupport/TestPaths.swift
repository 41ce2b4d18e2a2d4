import Foundation

/// Where the shared test material is, found from this file's path so tests run from any folder.
public enum TestPaths {
    /// The package's top folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The sample trip.
    public static let sampleImages = packageRoot.appendingPathComponent("SampleImages")
    /// What `make demo` leaves in the sample trip (its catalog and its outputs), which
    /// `TemporaryFolder.copySampleImages` leaves out of a copy.
    public static let demoLeftovers = [".geotrip", "geotrip"]
    /// The sample trip's files a scan sees, relative to it: no dot names, nothing a demo left.
    public static let sampleFiles: [String] = {
        (try? FileManager.default.subpathsOfDirectory(atPath: sampleImages.path))?.filter { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: sampleImages.appendingPathComponent(path).path, isDirectory: &isFolder)
            let parts = path.split(separator: "/")
            return !isFolder.boolValue && !parts.contains { $0.hasPrefix(".") } && !demoLeftovers.contains(String(parts[0]))
        } ?? []
    }()
    /// Single-case fixtures (bad values, formats), with their README and expected.json.
    public static let fixtures = packageRoot.appendingPathComponent("Tests/GeoTripCoreTests/Fixtures")
    /// The geotrip binary `swift build` made (debug unless GEOTRIP_BINARY names another).
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GEOTRIP_BINARY"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug/geotrip")
    }
}

/// A fresh folder under the system's temporary folder, removed by `remove()`.
public struct TemporaryFolder: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// Creates an empty folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("geotrip-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies the sample trip (without any catalog or output a demo run left in it) into `subfolder`.
    @discardableResult
    public func copySampleImages(to subfolder: String = "trip") throws -> URL {
        let destination = url.appendingPathComponent(subfolder)
        try FileManager.default.copyItem(at: TestPaths.sampleImages, to: destination)
        for leftover in TestPaths.demoLeftovers {
            try? FileManager.default.removeItem(at: destination.appendingPathComponent(leftover))
        }
        return destination
    }
}
