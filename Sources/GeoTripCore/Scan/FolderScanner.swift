#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file found in the trip folder, with what `stat` says about it.
public struct ScannedFile: Sendable, Hashable {
    /// Path relative to the trip folder, `/`-separated. A name that is not valid UTF-8 (zips
    /// made on old Windows systems have them) shows each byte above 0x7F as `%XX`.
    public var relativePath: String
    public var size: Int64
    /// Modification time in nanoseconds since 1970 (wrapping: only equality matters).
    public var modifiedNanos: Int64
    /// The path's bytes as the file system has them, when they differ from `relativePath`.
    var rawPath: [UInt8]? = nil
    /// XMP sidecars beside it that may be another program's, in the order they are read:
    /// darktable's `IMG_1234.JPG.xmp` (geotrip's own name too), then Lightroom's `IMG_1234.xmp`.
    public var sidecars: [ScannedSidecar] = []

    /// The bytes to open the file with.
    var pathBytes: [UInt8] { rawPath ?? Array(relativePath.utf8) }

    /// What the catalog keeps of the sidecars to tell, on the next run, whether they changed:
    /// a line a sidecar, `path size mtime`, or `path geotrip` for geotrip's own (listed in
    /// `geotrips`), whose rewrites by geotrip must not make the photo look edited. Nil without any.
    func sidecarStamp(geotrips: Set<String>) -> String? {
        guard !sidecars.isEmpty else { return nil }
        return sidecars.map { sidecar in
            geotrips.contains(sidecar.relativePath) ? "\(sidecar.relativePath) geotrip"
                : "\(sidecar.relativePath) \(sidecar.size) \(sidecar.modifiedNanos)"
        }.joined(separator: "\n")
    }

    /// The sidecars a stored stamp marks as geotrip's own.
    static func geotripSidecars(inStamp stamp: String?) -> Set<String> {
        guard let stamp else { return [] }
        return Set(stamp.split(separator: "\n").compactMap { line in
            line.hasSuffix(" geotrip") ? String(line.dropLast(" geotrip".count)) : nil
        })
    }
}

/// An XMP sidecar beside a photo, with what `stat` says about it.
public struct ScannedSidecar: Sendable, Hashable {
    /// Path relative to the trip folder (always UTF-8: other names are not matched to photos).
    public var relativePath: String
    public var size: Int64
    /// Modification time in nanoseconds since 1970 (wrapping: only equality matters).
    public var modifiedNanos: Int64
}

/// Lists the files of a trip folder, recursively, with their size and modification time.
///
/// It skips dot files and dot folders (`.geotrip/`, `.git/`, macOS `._*` and `.DS_Store`),
/// geotrip's own output folder `geotrip/` at the top, the catalog's files wherever `--catalog`
/// put them, and symbolic links to folders (which could loop). It uses `readdir` and `fstatat`
/// directly: FileManager's enumerator costs several times more per file, and this walk is most
/// of what an unchanged rerun does.
public struct FolderScanner: Sendable {
    /// The trip folder.
    public var root: String
    /// Relative paths never listed (the catalog and its WAL files when they sit inside the folder).
    public var excludedPaths: Set<String>
    /// Relative folders never entered (geotrip's output folder when `--out` puts it inside the trip folder).
    public var excludedFolders: Set<String> = []

    /// The name of geotrip's output folder at the top of a trip folder.
    public static let outputFolderName = "geotrip"

    /// Creates a scanner for `root`.
    public init(root: String, excludedPaths: Set<String> = []) {
        self.root = root
        self.excludedPaths = excludedPaths
    }

    /// What a scan found.
    public struct Listing: Sendable {
        /// The files that may be photos, sorted by path.
        public var files: [ScannedFile] = []
        /// One sentence per subfolder that could not be read.
        public var problems: [String] = []
        /// XMP sidecars (`*.xmp`, any case), relative paths: not photos, but the sidecar stage
        /// looks among them for geotrip's own sidecars of photos that are gone, and each photo's
        /// `sidecars` are found among them.
        public var sidecars: [String] = []
        /// What `stat` said of each sidecar, by relative path.
        var sidecarStats: [String: ScannedSidecar] = [:]
        /// geotrip's own temporary sidecar files left by a killed run (`XMPSidecar.isOwnTemporaryFile`).
        public var leftoverTemporaryFiles: [String] = []
    }

    /// Everything under `root`: the files sorted by path, sidecars, leftovers and problems.
    public func scan() throws(GeoTripError) -> Listing {
        try checkRoot()
        guard let top = opendir(root) else {
            throw .folderUnreadable(path: root, reason: String(cString: strerror(errno)))
        }
        var listing = Listing()
        walk(top, prefix: "", rawPrefix: nil, into: &listing)
        // Unicode order (NFC and NFD spellings of one name sort together, in either order).
        listing.files.sort { $0.relativePath < $1.relativePath }
        listing.files = Self.withoutNameClashes(listing.files, problems: &listing.problems)
        Self.attachSidecars(&listing)
        return listing
    }

    /// Throws unless `root` is an existing folder.
    public func checkRoot() throws(GeoTripError) {
        var info = stat()
        guard stat(root, &info) == 0 else {
            if errno == ENOENT { throw .folderMissing(path: root) }
            throw .folderUnreadable(path: root, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path: root) }
    }

    /// `rawPrefix` is set once a folder on the way has a name that is not UTF-8.
    private func walk(_ directory: OpaquePointer, prefix: String, rawPrefix: [UInt8]?, into listing: inout Listing) {
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if nameBytes.first == UInt8(ascii: ".") {
                if rawPrefix == nil, nameBytes.suffix(4).elementsEqual(".tmp".utf8), let name = String(validating: nameBytes, as: UTF8.self),
                   XMPSidecar.isOwnTemporaryFile(named: name) {
                    listing.leftoverTemporaryFiles.append(prefix + name)
                }
                continue
            }
            // XMP sidecars (geotrip's own or darktable's) describe photos; they are not photos.
            if nameBytes.count > 4, nameBytes.suffix(4).map({ $0 | 0x20 }).elementsEqual(".xmp".utf8) {
                if rawPrefix == nil, let name = String(validating: nameBytes, as: UTF8.self) {
                    listing.sidecars.append(prefix + name)
                    var info = stat()
                    let cName = nameBytes.map { CChar(bitPattern: $0) } + [0]
                    if fstatat(descriptor, cName, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG {
                        let modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
                        listing.sidecarStats[prefix + name] = ScannedSidecar(relativePath: prefix + name, size: Int64(info.st_size),
                                                                             modifiedNanos: modified)
                    }
                }
                continue
            }
            let decoded = String(validating: nameBytes, as: UTF8.self)
            let name = decoded ?? Self.escaped(nameBytes)
            if prefix.isEmpty && name == Self.outputFolderName { continue }
            let relative = prefix + name
            let rawRelative: [UInt8]? = (decoded == nil || rawPrefix != nil)
                ? (rawPrefix ?? Array(prefix.utf8)) + nameBytes : nil
            let cName = nameBytes.map { CChar(bitPattern: $0) } + [0]
            var info = stat()
            guard fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                listing.problems.append("\(relative): could not be examined (\(String(cString: strerror(errno))))")
                continue
            }
            if info.st_mode & S_IFMT == S_IFLNK {
                // Follow links to files; never links to folders.
                guard fstatat(descriptor, cName, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard !excludedFolders.contains(relative) else { continue }
                let child = openat(descriptor, cName, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard child >= 0, let handle = fdopendir(child) else {
                    listing.problems.append("\(relative)/: folder could not be read (\(String(cString: strerror(errno)))); its photos were not scanned")
                    continue
                }
                walk(handle, prefix: relative + "/", rawPrefix: rawRelative.map { $0 + [UInt8(ascii: "/")] }, into: &listing)
            case S_IFREG:
                guard !excludedPaths.contains(relative) else { continue }
                let modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
                listing.files.append(ScannedFile(relativePath: relative, size: Int64(info.st_size), modifiedNanos: modified,
                                         rawPath: rawRelative))
            default:
                continue  // sockets, FIFOs, devices: not photos
            }
        }
    }

    /// Gives each file the sidecars beside it: `NAME.EXT.xmp`, then `NAME.xmp`, the names
    /// compared without case (`img_0001.xmp` is `IMG_0001.JPG`'s: copies through other systems
    /// and programs change the case of names). Only folders with sidecars cost anything.
    private static func attachSidecars(_ listing: inout Listing) {
        guard !listing.sidecarStats.isEmpty else { return }
        // By the path without its `.xmp`, which is the photo's path or its path without extension.
        var byBase: [String: [ScannedSidecar]] = [:]
        // A sidecar lies in its photo's folder, spelled the same: only files of those folders
        // are looked up (a library with a few sidecars costs no lowercasing of every path).
        var folders = Set<Substring>()
        func folder(_ path: String) -> Substring { path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        for sidecar in listing.sidecarStats.values.sorted(by: { $0.relativePath < $1.relativePath }) {
            byBase[sidecar.relativePath.dropLast(4).lowercased(), default: []].append(sidecar)
            folders.insert(folder(sidecar.relativePath))
        }
        for index in listing.files.indices where listing.files[index].rawPath == nil && folders.contains(folder(listing.files[index].relativePath)) {
            let path = listing.files[index].relativePath.lowercased()
            var found = byBase[path] ?? []
            if let dot = path.lastIndex(of: "."), !path[dot...].contains("/"), dot != path.startIndex {
                found += byBase[String(path[..<dot])] ?? []
            }
            listing.files[index].sidecars = found
        }
    }

    /// A file name that is not UTF-8, with each byte above 0x7F, and `%` itself, written `%XX`.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 0x80 && $0 != UInt8(ascii: "%") ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    /// An escaped name can still spell another file's real name (`caf%E9.jpg` is a legal
    /// name). Such a file is left out with a sentence rather than given the other's identity.
    private static func withoutNameClashes(_ files: [ScannedFile], problems: inout [String]) -> [ScannedFile] {
        guard files.contains(where: { $0.rawPath != nil }) else { return files }
        var seen = Set<PathKey>(minimumCapacity: files.count)
        var kept: [ScannedFile] = []
        kept.reserveCapacity(files.count)
        // Real names first, so an escaped name is the one that gives way.
        for file in files.filter({ $0.rawPath == nil }) + files.filter({ $0.rawPath != nil }) {
            guard seen.insert(PathKey(file.relativePath)).inserted else {
                problems.append("\(file.relativePath): this name is not UTF-8 and its escaped form is another file's name; rename it to read it")
                continue
            }
            kept.append(file)
        }
        if kept.count == files.count { return files }
        return kept.sorted { $0.relativePath < $1.relativePath }
    }
}
