import Foundation

extension Gazetteer {
    /// The resource's file name.
    public static let resourceName = "gazetteer.bin"

    /// Where the resource is, tried in order:
    /// 1. `GEOTRIP_GAZETTEER`, when set (and then only there);
    /// 2. SwiftPM's resource folder beside the executable (`swift run`, `.build/release`, tests);
    /// 3. `../share/geotrip/` beside the executable (`make install`);
    /// 4. the source tree this file was built from (a development checkout).
    /// SwiftPM's own `Bundle.module` is not used: on Linux it traps when the folder is missing.
    public static func resourceURL() throws(GeoTripError) -> URL {
        if let path = ProcessInfo.processInfo.environment["GEOTRIP_GAZETTEER"], !path.isEmpty {
            guard FileManager.default.fileExists(atPath: path) else { throw .gazetteerMissing(tried: [path]) }
            return URL(fileURLWithPath: path)
        }
        var candidates: [URL] = []
        if let executable = executableURL() {
            let folder = executable.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("geotrip_GeoTripCore.resources/\(resourceName)"))
            candidates.append(folder.appendingPathComponent("../share/geotrip/\(resourceName)").standardizedFileURL)
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/\(resourceName)"))
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) { return found }
        throw .gazetteerMissing(tried: candidates.map(\.path))
    }

    /// The running executable, links resolved (`/proc/self/exe` on Linux).
    private static func executableURL() -> URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }
}

/// The gazetteer of one run: loaded when a stage first needs it (an unchanged rerun never
/// does), then handed to every stage that does. Used from the run's own task only.
final class RunGazetteer: @unchecked Sendable {
    private var loaded: Gazetteer?

    /// The gazetteer, loading it on first use.
    func get() throws(GeoTripError) -> Gazetteer {
        if let loaded { return loaded }
        let gazetteer = try Gazetteer.load()
        loaded = gazetteer
        return gazetteer
    }
}
