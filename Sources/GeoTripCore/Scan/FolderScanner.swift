#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

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
    /// a line a sidecar, `path size mtime`, or `path geotrip size mtime` for geotrip's own
    /// (listed in `geotrips`), whose size and time geotrip records again each time it rewrites
    /// it (`Catalog.restampOwnSidecars`), so its own rewrites do not make the photo look edited
    /// while another program's edit (a date added with exiftool) does; `path unread` for one
    /// that could not be read (in `unread`). Catalogs before that kept `path geotrip` alone
    /// (`geotrips` false for such a path): compared by name. Nil without any sidecar.
    func sidecarStamp(geotrips: [String: Bool], unread: Set<String> = []) -> String? {
        guard !sidecars.isEmpty else { return nil }
        return sidecars.map { sidecar in
            if let stamped = geotrips[sidecar.relativePath] {
                return stamped ? "\(sidecar.relativePath) geotrip \(sidecar.size) \(sidecar.modifiedNanos)" : "\(sidecar.relativePath) geotrip"
            }
            // Matches no scan: the photo is read again, and its sidecar with it.
            return unread.contains(sidecar.relativePath) ? "\(sidecar.relativePath) unread"
                : "\(sidecar.relativePath) \(sidecar.size) \(sidecar.modifiedNanos)"
        }.joined(separator: "\n")
    }

    /// `stat`'s modification time as the scan records it (nanoseconds, wrapping: only
    /// equality matters), for whatever must match a scan (`Catalog.restampOwnSidecars`).
    static func modifiedNanos(_ info: stat) -> Int64 {
        Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }

    /// The sidecars a stored stamp marks as geotrip's own, each with whether its size and time
    /// are recorded.
    static func geotripSidecars(inStamp stamp: String?) -> [String: Bool] {
        guard let stamp else { return [:] }
        var own: [String: Bool] = [:]
        for line in stamp.split(separator: "\n") {
            if line.hasSuffix(" geotrip") {
                own[String(line.dropLast(" geotrip".count))] = false
            } else if let mark = line.range(of: " geotrip ", options: .backwards),
                      line[mark.upperBound...].split(separator: " ").count == 2 {
                own[String(line[..<mark.lowerBound])] = true
            }
        }
        return own
    }

    /// `stamp` with geotrip's own sidecar `sidecar` recorded at `size` and `modifiedNanos`
    /// (nil: taken out, geotrip removed it). geotrip's own name comes first among a photo's
    /// sidecars (`sidecars`' order), so a line added goes first.
    static func restamp(_ stamp: String?, sidecar: String, size: Int64?, modifiedNanos: Int64?) -> String? {
        // Whatever the line said of that name before (geotrip's, or another program's sidecar
        // the person has since deleted) goes.
        var lines = (stamp ?? "").split(separator: "\n").map(String.init).filter { !$0.hasPrefix(sidecar + " ") }
        if let size, let modifiedNanos { lines.insert("\(sidecar) geotrip \(size) \(modifiedNanos)", at: 0) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
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
    /// Whether the listing names the symbolic links met (`Listing.links`): the export's listing
    /// of its own folder does; a library's scan, where they may be a million, does not.
    public var collectsLinks = false

    /// Whether `geotrip/` at the top is passed over though it is not in `excludedFolders`: an
    /// output folder left there earlier. False for the person's own folder of that name, which
    /// holds photos and is not geotrip's (`OutputFolder.photosNotOurs`): then it is read.
    public var skipsOutputFolderName = true

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
        /// The subfolders that could not be read (relative paths): what the catalog holds
        /// under them is kept as it is, not taken for gone (`ReadPlan`, `SidecarSync`).
        public var unreadFolders: [String] = []

        /// Whether `path` (relative) lies in one of `folders` (relative; "" is the whole tree).
        static func lies(_ path: String, inOneOf folders: [String]) -> Bool {
            folders.contains { $0.isEmpty || path.hasPrefix($0 + "/") }
        }
        /// XMP sidecars (`*.xmp`, any case), relative paths: not photos, but the sidecar stage
        /// looks among them for geotrip's own sidecars of photos that are gone, and each photo's
        /// `sidecars` are found among them.
        public var sidecars: [String] = []
        /// What `stat` said of each sidecar, by relative path.
        var sidecarStats: [String: ScannedSidecar] = [:]
        /// geotrip's own temporary sidecar files left by a killed run (`XMPSidecar.isOwnTemporaryFile`).
        public var leftoverTemporaryFiles: [String] = []
        /// The symbolic links met, relative paths, when the scanner `collectsLinks`: one to a
        /// file is listed as that file, one to anything else is not (the export never writes
        /// through either: `ExportStage.listing`).
        public var links: [String] = []
        /// Other trips' output folders inside this one (each holds `OutputFolder.ownerFile`),
        /// relative paths: passed over, as their thumbnails and pages are no photos.
        public var otherOutputFolders: [String] = []

        /// Files that may be reached by more than one path, by identity (`FolderContents.linked`).
        fileprivate var linked: [FileIdentity: [LinkedPath]] = [:]

        /// Takes in what a folder held besides its entries.
        fileprivate mutating func absorb(_ contents: FolderContents) {
            linked.merge(contents.linked) { $0 + $1 }
            otherOutputFolders += contents.otherOutputFolders
            problems += contents.problems
            for folder in contents.unreadFolders where !unreadFolders.contains(folder) { unreadFolders.append(folder) }
            sidecars += contents.sidecars
            sidecarStats.merge(contents.sidecarStats) { first, _ in first }
            leftoverTemporaryFiles += contents.leftoverTemporaryFiles
            links += contents.links
        }

        /// Appends a subtree's listing, which comes after everything already here.
        fileprivate mutating func absorb(_ subtree: Listing) {
            files += subtree.files
            linked.merge(subtree.linked) { $0 + $1 }
            otherOutputFolders += subtree.otherOutputFolders
            problems += subtree.problems
            for folder in subtree.unreadFolders where !unreadFolders.contains(folder) { unreadFolders.append(folder) }
            sidecars += subtree.sidecars
            sidecarStats.merge(subtree.sidecarStats) { first, _ in first }
            leftoverTemporaryFiles += subtree.leftoverTemporaryFiles
            links += subtree.links
        }
    }

    /// Everything under `root`: the files sorted by path, sidecars, leftovers and problems.
    ///
    /// The folders near the top are read first, level by level, until there are enough
    /// subtrees to share among the cores; those are walked whole in parallel and the pieces put
    /// together in path order. Each folder's entries are sorted on their own (a folder's name
    /// compared with a `/` after it), which gives the order of sorting every path at once
    /// without that sort's cost: a folder's subtree is one run of that order, and paths that
    /// share a prefix ending in `/` compare as what follows it.
    public func scan() throws(GeoTripError) -> Listing {
        try checkRoot()
        let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootDescriptor >= 0 else {
            throw .folderUnreadable(path: root, reason: String(cString: strerror(errno)))
        }
        defer { close(rootDescriptor) }
        // An exclusion with a dot component can never match: dot entries are skipped first.
        var walker = Walker(root: rootDescriptor, excludedFolders: excludedFolders,
                            excludedPaths: excludedPaths.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } },
                            collectsLinks: collectsLinks, skipsOutputFolderName: skipsOutputFolderName)
        walker.topContents[PathKey("")] = walker.read(Subfolder(relative: "", raw: nil))
        var level = walker.topContents[PathKey("")]!.subfolders
        let wanted = 8 * Self.cores
        while !level.isEmpty && level.count < wanted {
            var next: [Subfolder] = []
            for folder in level {
                let contents = walker.read(folder)
                next += contents.subfolders
                walker.topContents[PathKey(folder.relative)] = contents
            }
            level = next
        }
        let subtrees = walker.walkAll(level)
        var listing = Listing()
        walker.assemble("", subtrees: subtrees, into: &listing)
        listing.files = Self.withoutNameClashes(listing.files, problems: &listing.problems)
        Self.attachSidecars(&listing)
        Self.readOnce(&listing)
        return listing
    }

    /// The identity of a file on its file system (`st_dev`, `st_ino`).
    fileprivate struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// One path to a file that may have others.
    fileprivate struct LinkedPath: Sendable {
        var path: String
        /// Reached through a symbolic link.
        var isLink: Bool
    }

    /// Leaves one path to each photo reached by several (a hard link, or a symbolic link to a
    /// photo of the folder), among the files still listed: one with sidecars (whose position
    /// or time another program wrote) before one without, a name not through a symbolic link
    /// before one through it, then the first by path. The others are said, not read: one
    /// photo is one photo, on one day and one map.
    private static func readOnce(_ listing: inout Listing) {
        var others: [String: String] = [:]
        let candidates = listing.linked.values.filter { $0.count > 1 }
        listing.linked = [:]
        guard !candidates.isEmpty else { return }
        var listed: [String: Bool] = [:]  // path: has sidecars
        for file in listing.files { listed[file.relativePath] = !file.sidecars.isEmpty }
        for paths in candidates {
            let present = paths.filter { listed[$0.path] != nil && FileKind.namesMedia($0.path) }
            guard present.count > 1 else { continue }
            let ordered = present.sorted {
                (listed[$0.path]! ? 0 : 1, $0.isLink ? 1 : 0, $0.path) < (listed[$1.path]! ? 0 : 1, $1.isLink ? 1 : 0, $1.path)
            }
            for other in ordered.dropFirst() { others[other.path] = ordered[0].path }
        }
        guard !others.isEmpty else { return }
        listing.files.removeAll { others[$0.relativePath] != nil }
        for (path, kept) in others.sorted(by: { $0.key < $1.key }) {
            listing.problems.append("\(path): not read: it is the same file as \(kept) (a hard link, or a symbolic link to it), which is read once")
        }
    }

    /// The cores to walk on.
    private static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Throws unless `root` is an existing folder.
    public func checkRoot() throws(GeoTripError) {
        var info = stat()
        guard stat(root, &info) == 0 else {
            if errno == ENOENT { throw .folderMissing(path: root) }
            throw .folderUnreadable(path: root, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path: root) }
    }

    /// A folder inside the trip folder, to be read.
    fileprivate struct Subfolder: Sendable {
        /// Its path relative to the trip folder, without a trailing `/` ("" for the trip folder).
        var relative: String
        /// Its path's bytes, once a folder on the way has a name that is not UTF-8.
        var raw: [UInt8]?
    }

    /// Where an entry's name lies in its folder's name buffer.
    fileprivate struct NameRef: Sendable {
        var start: Int
        var count: Int
        /// A folder's name sorts as if a `/` followed it, as its paths do.
        var folder = false

        var asFolder: NameRef { NameRef(start: start, count: count, folder: true) }
    }

    /// One folder's own entries, in listing order, and what else it held.
    fileprivate struct FolderContents: Sendable {
        enum Entry: Sendable {
            case file(ScannedFile)
            case folder(Subfolder)
        }
        /// The entries, each with where its name lies in the folder's name buffer (for sorting).
        var entries: [(name: NameRef, entry: Entry)] = []
        var problems: [String] = []
        var unreadFolders: [String] = []
        var sidecars: [String] = []
        var sidecarStats: [String: ScannedSidecar] = [:]
        var leftoverTemporaryFiles: [String] = []
        var links: [String] = []
        var otherOutputFolders: [String] = []
        /// Files that may be reached by more than one path (hard links, symbolic links to a
        /// file): each path, by the file's identity.
        var linked: [FileIdentity: [LinkedPath]] = [:]

        var subfolders: [Subfolder] {
            entries.compactMap { if case .folder(let folder) = $0.entry { folder } else { nil } }
        }
    }

    /// The walk: folders opened from the trip folder's descriptor, each read on its own.
    private struct Walker: Sendable {
        let root: Int32
        let excludedFolders: Set<String>
        let excludedPaths: Set<String>
        let collectsLinks: Bool
        let skipsOutputFolderName: Bool
        /// The folders read before the parallel part, by relative path. Compared byte for byte,
        /// as every path is (`PathKey`): two folders whose names differ only in how an accent is
        /// written (composed, or a letter and a combining mark, as macOS writes it) are two.
        var topContents: [PathKey: FolderContents] = [:]

        init(root: Int32, excludedFolders: Set<String>, excludedPaths: Set<String>, collectsLinks: Bool, skipsOutputFolderName: Bool) {
            self.root = root
            self.excludedFolders = excludedFolders
            self.excludedPaths = excludedPaths
            self.collectsLinks = collectsLinks
            self.skipsOutputFolderName = skipsOutputFolderName
        }

        /// The subtrees under `folders`, each walked whole, on every core. `concurrentPerform`
        /// rather than a task group: the scan is synchronous (the export's listing calls it
        /// too), and its work is blocking system calls, which would hold the cooperative pool.
        func walkAll(_ folders: [Subfolder]) -> [PathKey: Listing] {
            let results = Mutex<[PathKey: Listing]>([:])
            DispatchQueue.concurrentPerform(iterations: folders.count) { index in
                var listing = Listing()
                walk(folders[index], into: &listing)
                results.withLock { $0[PathKey(folders[index].relative)] = listing }
            }
            return results.withLock { $0 }
        }

        /// `folder` and everything under it, in path order, on this thread.
        func walk(_ folder: Subfolder, into listing: inout Listing) {
            let contents = read(folder)
            listing.absorb(contents)
            for (_, entry) in contents.entries {
                switch entry {
                case .file(let file): listing.files.append(file)
                case .folder(let subfolder): walk(subfolder, into: &listing)
                }
            }
        }

        /// The listing of the folders read first, with the subtrees walked in parallel in their places.
        func assemble(_ relative: String, subtrees: [PathKey: Listing], into listing: inout Listing) {
            let contents = topContents[PathKey(relative)]!
            listing.absorb(contents)
            for (_, entry) in contents.entries {
                switch entry {
                case .file(let file):
                    listing.files.append(file)
                case .folder(let subfolder):
                    if topContents[PathKey(subfolder.relative)] != nil {
                        assemble(subfolder.relative, subtrees: subtrees, into: &listing)
                    } else if let subtree = subtrees[PathKey(subfolder.relative)] {
                        listing.absorb(subtree)
                    }
                }
            }
        }

        /// One folder's entries, sorted; a folder that cannot be opened is a problem, not an error.
        func read(_ folder: Subfolder) -> FolderContents {
            var contents = FolderContents()
            let descriptor: Int32
            if folder.relative.isEmpty {
                descriptor = dup(root)
            } else {
                let path = (folder.raw ?? Array(folder.relative.utf8)).map { CChar(bitPattern: $0) } + [0]
                descriptor = openat(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            }
            guard descriptor >= 0, let directory = fdopendir(descriptor) else {
                let reason = String(cString: strerror(errno))
                if descriptor >= 0 { close(descriptor) }
                contents.problems.append(folder.relative.isEmpty
                    ? ".: folder could not be read (\(reason)); its photos were not scanned"
                    : "\(folder.relative)/: folder could not be read (\(reason)); its photos were not scanned")
                contents.unreadFolders.append(folder.relative)
                return contents
            }
            defer { closedir(directory) }
            // The names first (one buffer, each name NUL-terminated), then the stats: a folder of
            // many files (a phone's camera roll, the export's thumbnails) is examined on every core.
            var nameBuffer: [UInt8] = []
            var entries: [(start: Int, count: Int, type: UInt8)] = []
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            errno = 0
            while let entry = readdir(directory) {
                let cName = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self)
                let count = strlen(cName)
                entries.append((nameBuffer.count, count, entry.pointee.d_type))
                nameBuffer.append(contentsOf: UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: count))
                nameBuffer.append(0)
                errno = 0
            }
            let listingError = errno
            // A folder holding geotrip's owner file is an output folder (`OutputFolder.ownerFile`),
            // another trip's inside this one, say: its thumbnails and pages are no photos.
            let ownerFile = Array(OutputFolder.ownerFile.utf8)
            // (Every name of every folder is looked at: the length and first byte first.)
            if !folder.relative.isEmpty, entries.contains(where: {
                $0.count == ownerFile.count && nameBuffer[$0.start] == UInt8(ascii: ".") && nameBuffer[$0.start..<$0.start + $0.count].elementsEqual(ownerFile)
            }) {
                var passed = FolderContents()
                passed.otherOutputFolders = [folder.relative]
                return passed
            }
            // A listing that failed part-way (a share that went away) is a folder not read
            // whole: what it did not list is not gone.
            if listingError != 0 {
                contents.problems.append("\(folder.relative.isEmpty ? "." : folder.relative + "/"): folder could not be read to its end "
                                         + "(\(String(cString: strerror(listingError)))); its other photos were not scanned")
                contents.unreadFolders.append(folder.relative)
            }
            let names = nameBuffer, found = entries
            let prefix = folder.relative.isEmpty ? "" : folder.relative + "/"
            let rawPrefix = folder.raw.map { $0 + [UInt8(ascii: "/")] }
            let folderDescriptor = dirfd(directory)
            @Sendable func examine(_ range: Range<Int>, into part: inout FolderContents) {
                names.withUnsafeBufferPointer { buffer in
                    for index in range {
                        let (start, count, type) = found[index]
                        let nameBytes = UnsafeBufferPointer(rebasing: buffer[start..<start + count])
                        let cName = UnsafeRawPointer(buffer.baseAddress! + start).assumingMemoryBound(to: CChar.self)
                        add(nameBytes, cName, NameRef(start: start, count: count), type: type, descriptor: folderDescriptor, prefix: prefix, rawPrefix: rawPrefix, to: &part)
                    }
                }
            }
            let chunk = 4096
            if found.count < 2 * chunk {
                examine(0..<found.count, into: &contents)
            } else {
                let parts = Mutex<[Int: FolderContents]>([:])
                DispatchQueue.concurrentPerform(iterations: (found.count + chunk - 1) / chunk) { part in
                    var contents = FolderContents()
                    examine(part * chunk..<min(found.count, (part + 1) * chunk), into: &contents)
                    parts.withLock { $0[part] = contents }
                }
                for (_, part) in parts.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
                    contents.entries += part.entries
                    contents.problems += part.problems
                    for folder in part.unreadFolders where !contents.unreadFolders.contains(folder) { contents.unreadFolders.append(folder) }
                    contents.links += part.links
                    contents.sidecars += part.sidecars
                    contents.sidecarStats.merge(part.sidecarStats) { first, _ in first }
                    contents.leftoverTemporaryFiles += part.leftoverTemporaryFiles
                    contents.linked.merge(part.linked) { $0 + $1 }
                }
            }
            let order = Self.order(contents.entries.map(\.name), names: names)
            contents.entries = order.map { contents.entries[$0] }
            Self.dropFolderNameClashes(&contents, names: names)
            return contents
        }

        /// A folder whose name is not UTF-8 is listed by its escaped spelling (`escaped`); when
        /// a sibling's real name is that spelling, the two would be walked as one folder and
        /// their photos catalogued twice. The escaped one gives way with a sentence, as a file
        /// does (`withoutNameClashes`).
        static func dropFolderNameClashes(_ contents: inout FolderContents, names: [UInt8]) {
            func isUTF8(_ ref: NameRef) -> Bool { String(validating: names[ref.start..<ref.start + ref.count], as: UTF8.self) != nil }
            func escapedFolder(_ item: (name: NameRef, entry: FolderContents.Entry)) -> Subfolder? {
                guard case .folder(let folder) = item.entry, folder.raw != nil, !isUTF8(item.name) else { return nil }
                return folder
            }
            // Only folders with a raw path are looked at closer: most folders have none, and the
            // scan of a library names every entry once.
            guard contents.entries.contains(where: { escapedFolder($0) != nil }) else { return }
            var real = Set<String>()
            for item in contents.entries where isUTF8(item.name) {
                switch item.entry {
                case .folder(let folder): real.insert(folder.relative)
                case .file(let file): real.insert(file.relativePath)
                }
            }
            var dropped: [String] = []
            contents.entries.removeAll { item in
                guard let folder = escapedFolder(item), real.contains(folder.relative) else { return false }
                dropped.append("\(folder.relative): this folder's name is not UTF-8 and its escaped form is another folder's name; rename it to read it")
                return true
            }
            contents.problems += dropped
        }

        /// The entries' order by name, a folder's name with a `/` after it: byte order when every
        /// name is ASCII (which is String order then, at a fraction of its cost: the export's
        /// thumbnail folder alone has one entry per photo), else String order (Unicode, as the
        /// listing promises), escaped names as they are spelt in the listing.
        static func order(_ refs: [NameRef], names: [UInt8]) -> [Int] {
            names.withUnsafeBufferPointer { buffer in
                guard buffer.allSatisfy({ $0 < 0x80 }) else {
                    let keys = refs.map { ref in
                        let bytes = UnsafeBufferPointer(rebasing: buffer[ref.start..<ref.start + ref.count])
                        return (String(validating: bytes, as: UTF8.self) ?? FolderScanner.escaped(Array(bytes))) + (ref.folder ? "/" : "")
                    }
                    return refs.indices.sorted { keys[$0] < keys[$1] }
                }
                let base = buffer.baseAddress!
                return refs.indices.sorted { a, b in
                    let x = refs[a], y = refs[b]
                    let shared = min(x.count, y.count)
                    let compared = shared == 0 ? 0 : memcmp(base + x.start, base + y.start, shared)
                    if compared != 0 { return compared < 0 }
                    // One name starts the other: the next byte decides, a folder's being `/`
                    // and a name's end coming before anything.
                    func next(_ ref: NameRef) -> Int {
                        ref.count > shared ? Int(base[ref.start + shared]) : ref.folder ? Int(UInt8(ascii: "/")) : -1
                    }
                    return next(x) < next(y)
                }
            }
        }

        /// Classifies one entry of a folder: skipped, a sidecar, a leftover, a file or a folder.
        private func add(_ nameBytes: UnsafeBufferPointer<UInt8>, _ cName: UnsafePointer<CChar>, _ ref: NameRef, type: UInt8, descriptor: Int32,
                         prefix: String, rawPrefix: [UInt8]?, to contents: inout FolderContents) {
            if nameBytes.first == UInt8(ascii: ".") {
                if rawPrefix == nil, nameBytes.suffix(4).elementsEqual(".tmp".utf8), let name = String(validating: nameBytes, as: UTF8.self),
                   XMPSidecar.isOwnTemporaryFile(named: name) {
                    contents.leftoverTemporaryFiles.append(prefix + name)
                }
                return
            }
            // XMP sidecars (geotrip's own or darktable's) describe photos; they are not photos. A
            // folder so named is a folder; anything else but a file (a FIFO, a device, a link to
            // nothing) is said, as one named like a photo is.
            if nameBytes.count > 4, nameBytes.suffix(4).map({ $0 | 0x20 }).elementsEqual(".xmp".utf8) {
                var info = stat()
                let examined = fstatat(descriptor, cName, &info, 0) == 0
                let failure = examined ? 0 : errno
                if !(examined && info.st_mode & S_IFMT == S_IFDIR) && type != UInt8(DT_DIR) {
                    if rawPrefix == nil, let name = String(validating: nameBytes, as: UTF8.self) {
                        contents.sidecars.append(prefix + name)
                        if examined, info.st_mode & S_IFMT == S_IFREG {
                            let modified = ScannedFile.modifiedNanos(info)
                            contents.sidecarStats[prefix + name] = ScannedSidecar(relativePath: prefix + name, size: Int64(info.st_size),
                                                                                  modifiedNanos: modified)
                        } else {
                            let kind = FileSystemKind(mode: info.st_mode).phrase
                            if !examined, failure == ENOENT, type == UInt8(DT_REG) {
                                // Gone since the folder was listed: nothing to read, nothing to say.
                            } else if examined || failure == ENOENT || failure == ELOOP {
                                let what = !examined ? (failure == ELOOP ? "a symbolic link that loops" : "a symbolic link to nothing")
                                    : type == UInt8(DT_LNK) ? "a link to \(kind)" : kind
                                contents.problems.append("\(prefix + name): not read: it is \(what), not a sidecar file")
                            } else {
                                contents.problems.append("\(prefix + name): could not be examined (\(String(cString: strerror(failure))))")
                            }
                        }
                    }
                    return
                }
            }
            let decoded = String(validating: nameBytes, as: UTF8.self)
            let name = decoded ?? FolderScanner.escaped(Array(nameBytes))
            if prefix.isEmpty && name == FolderScanner.outputFolderName && skipsOutputFolderName { return }
            let relative = prefix + name
            let rawRelative: [UInt8]? = (decoded == nil || rawPrefix != nil)
                ? (rawPrefix ?? Array(prefix.utf8)) + nameBytes : nil
            // readdir says a folder is one without a stat (a link is DT_LNK), on file systems
            // that fill in d_type; the others say DT_UNKNOWN and are asked.
            if type == UInt8(DT_DIR) {
                if !excludedFolders.contains(relative) {
                    contents.entries.append((ref.asFolder, .folder(Subfolder(relative: relative, raw: rawRelative))))
                }
                return
            }
            var info = stat()
            guard fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                let code = errno
                contents.problems.append("\(relative): could not be examined (\(String(cString: strerror(code))))")
                // A name seen that cannot be looked at (a folder readable but not searchable)
                // may be a photo that is there: not gone. One that went meanwhile is gone.
                if code != ENOENT { contents.unreadFolders.append(prefix.isEmpty ? "" : String(prefix.dropLast())) }
                return
            }
            var viaLink = false
            if info.st_mode & S_IFMT == S_IFLNK {
                if collectsLinks { contents.links.append(relative) }
                // Follow links to files; never links to folders.
                var target = stat()
                guard fstatat(descriptor, cName, &target, 0) == 0, target.st_mode & S_IFMT == S_IFREG else {
                    let code = errno
                    if FileKind.namesMedia(relative) {
                        let what = fstatat(descriptor, cName, &target, 0) == 0 ? "a link to \(FileSystemKind(mode: target.st_mode).phrase)"
                            : code == ELOOP ? "a symbolic link that loops" : "a symbolic link to nothing (\(String(cString: strerror(code)).lowercased()))"
                        contents.problems.append("\(relative): not read: it is \(what), not a photo file")
                    } else if !excludedFolders.contains(relative), fstatat(descriptor, cName, &target, 0) == 0, target.st_mode & S_IFMT == S_IFDIR {
                        // Said, or a trip reached through one is empty without a word.
                        contents.problems.append("\(relative): not scanned: it is a symbolic link to a folder, which geotrip does not follow "
                                                 + "(a loop, or another trip's photos, could be behind one); ingest that folder itself, or move it here")
                    }
                    return
                }
                info = target
                viaLink = true
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard !excludedFolders.contains(relative) else { return }
                contents.entries.append((ref.asFolder, .folder(Subfolder(relative: relative, raw: rawRelative))))
            case S_IFREG:
                guard excludedPaths.isEmpty || !excludedPaths.contains(relative) else { return }
                // One file by two names (a hard link, a symbolic link to a photo here) is read once (`readOnce`).
                if viaLink || info.st_nlink > 1 {
                    contents.linked[FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), default: []]
                        .append(LinkedPath(path: relative, isLink: viaLink))
                }
                let modified = ScannedFile.modifiedNanos(info)
                contents.entries.append((ref, .file(ScannedFile(relativePath: relative, size: Int64(info.st_size), modifiedNanos: modified,
                                                                 rawPath: rawRelative))))
            default:
                // Sockets, FIFOs, devices: not photos, and said so when named like one.
                if FileKind.namesMedia(relative) {
                    contents.problems.append("\(relative): not read: it is \(FileSystemKind(mode: info.st_mode).phrase), not a photo file")
                }
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

    /// The bytes of the file a catalogued path (relative to `folder`) names, when they are not
    /// the path's own: each name that is not UTF-8 is catalogued in its `%XX` spelling
    /// (`escaped`, name by name: a folder `été` in Latin-1 holding `p%.JPG` is `%E9t%E9/p%.JPG`).
    /// Name by name, one with a `%` that is not there as written is read as such a spelling
    /// when it is one exactly (never a `%2F` making a `/`, nor a `%00`) and the name it spells
    /// is there; nil when every name is as written, or one is neither. No system call for a
    /// path without a `%`.
    static func rawBytes(of relativePath: String, in folder: String) -> [UInt8]? {
        guard relativePath.utf8.contains(UInt8(ascii: "%")) else { return nil }
        func exists(_ path: [UInt8]) -> Bool { entryExists(Array(folder.utf8) + [UInt8(ascii: "/")] + path) }
        var resolved: [UInt8] = []
        var changed = false
        for name in relativePath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let spelled = Array(name)
            var candidate = resolved.isEmpty ? spelled : resolved + [UInt8(ascii: "/")] + spelled
            if spelled.contains(UInt8(ascii: "%")) && !exists(candidate) {
                // Only what the scanner spells so: a name that is not UTF-8, escaped exactly.
                guard let bytes = unescaped(spelled), String(validating: bytes, as: UTF8.self) == nil,
                      escaped(bytes) == String(decoding: spelled, as: UTF8.self) else { return nil }
                candidate = resolved.isEmpty ? bytes : resolved + [UInt8(ascii: "/")] + bytes
                guard exists(candidate) else { return nil }
                changed = true
            }
            resolved = candidate
        }
        return changed ? resolved : nil
    }

    /// Whether anything is at `path` (its bytes), a link as it is, unfollowed.
    static func entryExists(_ path: [UInt8]) -> Bool {
        var status = stat()
        return (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) == 0 }
        }
    }

    /// The bytes a name's `%XX` spelling stands for; nil when a `%` starts no two hex digits.
    private static func unescaped(_ spelled: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var at = 0
        while at < spelled.count {
            if spelled[at] == UInt8(ascii: "%") {
                guard at + 2 < spelled.count, let high = hexValue(spelled[at + 1]), let low = hexValue(spelled[at + 2]) else { return nil }
                bytes.append(high << 4 | low)
                at += 3
            } else {
                bytes.append(spelled[at])
                at += 1
            }
        }
        return bytes
    }

    /// The value of a hex digit as `escaped` writes them (upper case).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
                problems.append("\(file.relativePath): two files are shown by this name: the one really so named, which is read, and one "
                                + "whose name is not UTF-8 (each byte that is not shown as %XX), which is not; rename that one to read it")
                continue
            }
            kept.append(file)
        }
        if kept.count == files.count { return files }
        return kept.sorted { $0.relativePath < $1.relativePath }
    }
}
