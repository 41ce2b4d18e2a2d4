import Foundation

/// Paths with their symbolic links resolved, as every check of "the same folder" or "inside
/// the folder" compares them: a folder named through a link is still itself.
enum RealPath {
    /// `path` absolute, with symbolic links resolved when it exists; else absolute and
    /// standardised as written.
    static func of(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real)
    }

    /// `path` with the links of the folder holding it resolved and its own name kept: a file
    /// named there, whether or not it exists or is itself a link.
    static func inFolder(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return (of(url.deletingLastPathComponent().path) as NSString).appendingPathComponent(url.lastPathComponent)
    }

    /// A file's path with every link resolved: its own when it exists, else `inFolder`.
    static func ofFile(_ path: String) -> String {
        FileManager.default.fileExists(atPath: path) ? of(path) : inFolder(path)
    }
}
