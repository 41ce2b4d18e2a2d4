import Foundation

/// Finds the data files geotrip carries (the gazetteer, the base map) wherever the binary was
/// built or installed. SwiftPM's own `Bundle.module` is not used: on Linux it traps when the
/// folder is missing.
enum ResourceLocator {
    /// The places tried for `name`, in order, and the first that exists (nil when none does):
    /// 1. the environment variable `override`, when set (and then only there);
    /// 2. SwiftPM's resource folder beside the executable (`swift run`, `.build/release`, tests);
    /// 3. `../share/geotrip/` beside the executable (`make install`);
    /// 4. the source tree this file was built from (a development checkout).
    static func find(_ name: String, override: String) -> (found: URL?, tried: [String]) {
        if let path = ProcessInfo.processInfo.environment[override], !path.isEmpty {
            return (FileManager.default.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil, [path])
        }
        var candidates: [URL] = []
        if let executable = executableURL() {
            let folder = executable.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("geotrip_GeoTripCore.resources/\(name)"))
            candidates.append(folder.appendingPathComponent("../share/geotrip/\(name)").standardizedFileURL)
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/\(name)"))
        let found = candidates.first { FileManager.default.fileExists(atPath: $0.path) }
        return (found, candidates.map(\.path))
    }

    /// The running executable, links resolved (`/proc/self/exe` on Linux).
    private static func executableURL() -> URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }

    /// Memory-maps the resource at `url`, or `name` where `find` finds it (`override` naming
    /// its environment variable); `missing` makes the error from the paths tried.
    static func map(_ name: String, at url: URL?, override: String,
                    missing: ([String]) -> GeoTripError) throws(GeoTripError) -> (data: Data, path: String) {
        let resolved: URL
        if let url {
            resolved = url
        } else {
            let search = find(name, override: override)
            guard let found = search.found else { throw missing(search.tried) }
            resolved = found
        }
        do {
            return (try Data(contentsOf: resolved, options: .alwaysMapped), resolved.path)
        } catch {
            throw missing([resolved.path])
        }
    }

    /// A file's size and modification time as "SIZE:SECONDS" (-1 for what cannot be read), so
    /// that a stored key changes when the file does: the zone index, a track log.
    static func stamp(_ path: String) -> String {
        let info = try? FileManager.default.attributesOfItem(atPath: path)
        return "\((info?[.size] as? NSNumber)?.intValue ?? -1):\((info?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1)"
    }
}
