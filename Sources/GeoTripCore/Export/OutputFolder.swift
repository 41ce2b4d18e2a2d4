import CRename
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// geotrip's output folder (`DIR/geotrip/`, or `--out`): checking that it can be used, and
/// writing into it so that a reader never sees half a file and an unchanged file is never
/// touched.
///
/// Every file is written to a hidden temporary file beside it and renamed into place, and only
/// when its bytes differ from what is there, so an unchanged rerun leaves every modification
/// time as it was. A file that has been replaced by a symbolic link is never written through
/// (nor read through): it is left alone and reported.
public struct OutputFolder: Sendable {
    /// The folder, absolute.
    public let path: String
    /// Where each file this folder writes is noted with its size and time once written; the
    /// export shares one among its folders (`ExportStage`).
    var written: WrittenFiles?
    /// Called with the target's path between `store`'s last look at it and putting the new file
    /// in place: where a test saves the file, as a person's editor might at that moment.
    var beforeRename: (@Sendable (String) -> Void)?

    /// What writing one file did.
    enum Outcome: Equatable {
        case written
        case unchanged
        /// The path is a symbolic link (or not a regular file): left alone.
        case refused
        /// The file was saved by someone else while this one was being written (`store`'s
        /// `expecting`): left as they saved it, this one thrown away.
        case savedMeanwhile
    }

    /// The output folder for trip folder `folder`: `outputFolder` when given (relative to the
    /// current folder), else `folder/geotrip`; absolute and standardised.
    public init(folder: String, outputFolder: String?) {
        path = URL(fileURLWithPath: outputFolder ?? (folder as NSString).appendingPathComponent(FolderScanner.outputFolderName))
            .standardizedFileURL.path
    }

    /// `--out` as remembered for `folder`: the path given, absolute, or nil (the default
    /// folder) when it is the default folder itself, so the setting follows the trip folder
    /// if that is moved or renamed.
    public static func remembered(_ given: String, for folder: String) -> String? {
        let path = URL(fileURLWithPath: given).standardizedFileURL.path
        return path == OutputFolder(folder: folder, outputFolder: nil).path ? nil : path
    }

    /// Throws when the folder is the trip folder `folder` itself (geotrip's thumbnails would be
    /// read as photos), or is not geotrip's yet and holds photos or videos besides the trip's
    /// own (`photosNotOurs`): another trip's folder, whose runs would then find their own output
    /// folder inside this one, which no run may write (`checkOwner`); inside the trip folder,
    /// photos the scan would pass over, as it never enters the output folder. Or when it holds
    /// `.geotrip/catalog.sqlite`, another photo folder's catalog (not `catalog`, the run's own).
    /// A folder holding the trip folder and nothing else of the kind (`Italy/` for the trip
    /// `Italy/photos`) is the trip's own: the outputs go beside its photos.
    public func checkApart(from folder: String, catalog: String? = nil) throws(GeoTripError) {
        let own = RealPath.of(path), trip = RealPath.of(folder)
        if own == trip {
            throw .outputAmongPhotos(path: path, reason: "it is the trip folder itself, where geotrip's thumbnails would be read as photos")
        }
        let inside = own.hasPrefix(trip + "/")
        let holdsTrip = trip.hasPrefix(own == "/" ? "/" : own + "/")
        let photos = photosNotOurs(besides: holdsTrip ? String(trip.dropFirst(own == "/" ? 1 : own.count + 1)) : nil)
        guard let first = photos.min() else {
            // A photo folder geotrip keeps a catalog for, its photos gone or not yet copied.
            let catalogHere = IngestOptions.defaultCatalogPath(for: own)
            guard inside || FileManager.default.fileExists(atPath: own + "/" + Self.ownerFile) || !FileManager.default.fileExists(atPath: catalogHere)
                    || catalog.map({ RealPath.ofFile($0) == RealPath.ofFile(catalogHere) }) == true else {
                throw .outputAmongPhotos(path: path, reason: "it holds .geotrip/catalog.sqlite, the catalog of a photo folder; geotrip writes its journal and map only into a folder of their own")
            }
            return
        }
        let count = photos.count == 1 ? "a photo or video" : "\(photos.count) photos or videos"
        if inside {
            throw .outputAmongPhotos(path: path, reason: "it lies in the trip folder and holds \(count) (\(String(own.dropFirst(trip.count + 1)) + "/" + first)) that the scan would pass over, "
                                     + "as it never reads the output folder; geotrip does not write its journal among them")
        }
        throw .outputAmongPhotos(path: path, reason: "it holds \(count) (\(first)) that \(photos.count == 1 ? "is" : "are") not geotrip's"
                                 + (holdsTrip ? " nor the trip's" : "") + ", as another trip's folder does; "
                                 + "geotrip writes its journal and map only into a folder of their own")
    }

    /// The photos and videos in the folder (links resolved), relative to it, outside folders
    /// named `thumbs` and the trip folder inside it (`trip`, relative), when it is not yet geotrip's (no `ownerFile`): none for a folder geotrip
    /// wrote, or a missing one. Looks at no more than `limit` names.
    func photosNotOurs(besides trip: String? = nil, limit: Int = 20_000) -> [String] {
        let own = RealPath.of(path)
        guard !FileManager.default.fileExists(atPath: own + "/" + Self.ownerFile), let names = FileManager.default.enumerator(atPath: own) else { return [] }
        var photos: [String] = [], looked = 0
        while let name = names.nextObject() as? String, looked < limit {
            looked += 1
            let last = (name as NSString).lastPathComponent
            if last.hasPrefix(".") || last == "thumbs" || name == trip {
                names.skipDescendants()
            } else if FileKind.namesMedia(name) {
                photos.append(name)
            }
        }
        return photos
    }

    /// The photos and videos (by name) at the folder's top and in its journal, relative to
    /// it: what a person copied into geotrip's own folder afterwards, which the scan passes
    /// over. One listing of each of the two, never of the thumbnails or the trips' folders.
    func mediaCopiedIn() -> [String] {
        [("", path), (ExportStage.journalFolder + "/", url(ExportStage.journalFolder).path)].flatMap { prefix, folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(FileKind.namesMedia).sorted().map { prefix + $0 }
        }
    }

    /// Throws unless the folder can be used: it exists as a folder geotrip can write, or it is
    /// missing and the nearest folder above it can be written. Nothing is created.
    public func check() throws(GeoTripError) {
        var candidate = path
        var info = stat()
        while true {
            if stat(candidate, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    let what = FileSystemKind(mode: info.st_mode).phrase
                    throw .outputUnusable(path: path, reason: candidate == path ? "it is \(what), not a folder" : "\(candidate) is \(what), not a folder")
                }
                guard access(candidate, W_OK | X_OK) == 0 else {
                    throw .outputUnusable(path: path, reason: candidate == path ? "it cannot be written (\(String(cString: strerror(errno))))"
                                          : "it is missing and \(candidate) cannot be written (\(String(cString: strerror(errno))))")
                }
                return
            }
            // Missing, or a file on the way (ENOTDIR): look further up for what is there.
            guard errno == ENOENT || errno == ENOTDIR, candidate != "/" else {
                throw .outputUnusable(path: path, reason: String(cString: strerror(errno)))
            }
            candidate = (candidate as NSString).deletingLastPathComponent
        }
    }

    /// The hidden file naming the photo folder (absolute, links resolved) whose journal and map
    /// the folder holds: two folders' runs never write into one output folder, where each would
    /// retire the other's trips and take the other's notes for its own.
    public static let ownerFile = ".geotrip-folder"

    /// What the owner file holds (JSON, so that any path reads back as it was written): the
    /// photo folder, and the catalog writing the journal (its path, links resolved, and its
    /// `Catalog.identity`; absent in files an older geotrip wrote).
    private struct Owner: Codable, Equatable {
        var folder: String
        var catalog: String?
        var catalogIdentity: String?
    }

    /// The catalog a run writes the outputs from: its path and its `Catalog.identity`.
    struct Writer: Sendable {
        var path: String
        var identity: String
    }

    /// Throws `.outputOfAnotherFolder` when the folder holds the outputs of another photo
    /// folder than `photoFolder` (or the same under another name). They are `photoFolder`'s
    /// to take only as the outputs of the folder its catalog followed from (`former`: moved,
    /// or copied) when that folder is gone, or, inside `photoFolder`, copied along with it;
    /// or when the folder they name is gone and they are inside `photoFolder` (the folder
    /// moved, its catalog made anew). Without the file (a new folder, or outputs of a geotrip
    /// before it), or with one geotrip cannot read as its own, the folder is taken as it is;
    /// one that is not a file (a folder, a link) stops the run.
    ///
    /// With `writer`, also throws `.outputOfAnotherCatalog` when another catalog file writes
    /// the journal there and is still there (the same id at the path recorded): a second
    /// catalog for the folder (`--catalog`), or a copy of the catalog used beside it. Each
    /// numbers its visits its own way, and notes are kept by visit. A catalog moved, or made
    /// again, takes the folder over; so does the copy of a folder copied with its catalog.
    func checkOwner(photoFolder: String, former: String?, writer: Writer? = nil) throws(GeoTripError) {
        // Inside another output folder (a library's trip folder, its journal): never, whatever
        // catalog or folder asks; the one around it is written whole by its own runs.
        var parent = (RealPath.of(path) as NSString).deletingLastPathComponent
        while parent.count > 1 {
            var info = stat()
            if lstat((parent as NSString).appendingPathComponent(Self.ownerFile), &info) == 0 {
                let owner = (try? OutputFolder(folder: "", outputFolder: parent).owner())?.map { " of \($0.folder)" } ?? ""
                throw .outputInsideOutput(path: path, parent: parent, owner: owner)
            }
            parent = (parent as NSString).deletingLastPathComponent
        }
        guard let owner = try owner() else { return }
        let here = RealPath.of(photoFolder)
        let sameFolder = owner.folder == here || Catalog.isSameFolder(owner.folder, here)
        if !sameFolder {
            let inside = RealPath.of(path).hasPrefix(here + "/"), there = Catalog.isFolder(owner.folder)
            guard there ? (inside && owner.folder == former) : (inside || owner.folder == former) else {
                throw .outputOfAnotherFolder(path: path, owner: owner.folder, ownerThere: there, folder: photoFolder)
            }
        }
        // The same file under another path (a folder moved and a link left in its place) is
        // this catalog.
        if let writer, let catalog = owner.catalog, let identity = owner.catalogIdentity, catalog != writer.path,
           !Catalog.isSameFolder(catalog, writer.path), identity != writer.identity || sameFolder, Catalog.identity(at: catalog) == identity {
            throw .outputOfAnotherCatalog(path: path, catalog: catalog, given: writer.path)
        }
    }

    /// Whether `checkOwner` lets `photoFolder`'s run use the folder (nothing thrown).
    func isUsable(by photoFolder: String, former: String?) -> Bool {
        do {
            try checkOwner(photoFolder: photoFolder, former: former)
            return true
        } catch {
            return false
        }
    }

    /// `checkOwner`, then names `photoFolder` and `writer` in the owner file when it names
    /// others or none.
    func claim(for photoFolder: String, former: String?, writer: Writer) throws(GeoTripError) {
        try checkOwner(photoFolder: photoFolder, former: former, writer: writer)
        let owner = Owner(folder: RealPath.of(photoFolder), catalog: writer.path, catalogIdentity: writer.identity)
        guard try self.owner() != owner else { return }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder.sorted.encode(owner)) + [UInt8(ascii: "\n")]
        } catch {
            throw .outputUnusable(path: path, reason: "\(Self.ownerFile) could not be written (\(error))")
        }
        if try store(bytes, at: Self.ownerFile) == .refused {
            throw .outputUnusable(path: path, reason: "\(Self.ownerFile) in it is not a file, and geotrip keeps there the name of the photo folder whose outputs these are; remove it")
        }
    }

    /// What the owner file says; nil without one, or with one that does not read as geotrip's.
    /// Throws when the name is taken by something that is not a file.
    private func owner() throws(GeoTripError) -> Owner? {
        var info = stat()
        guard lstat(url(Self.ownerFile).path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= 65_536 else {
            let what = info.st_mode & S_IFMT == S_IFREG ? "a file of \(info.st_size) bytes" : FileSystemKind(mode: info.st_mode).phrase
            throw .outputUnusable(path: path, reason: "\(Self.ownerFile) in it is \(what), not the file in which geotrip keeps the name of "
                                  + "the photo folder whose outputs these are; remove it")
        }
        guard case .success(let bytes?) = contents(of: Self.ownerFile),
              let owner = try? JSONDecoder().decode(Owner.self, from: Data(bytes)), owner.folder.hasPrefix("/") else { return nil }
        return owner
    }

    /// Creates the folder and `subfolder` inside it, when missing.
    func create(_ subfolder: String) throws(GeoTripError) {
        do {
            try FileManager.default.createDirectory(atPath: url(subfolder).path, withIntermediateDirectories: true)
        } catch {
            throw .outputUnusable(path: path, reason: Catalog.reason(of: error))
        }
    }

    /// The absolute URL of a path relative to the folder.
    func url(_ relative: String) -> URL {
        URL(fileURLWithPath: path).appendingPathComponent(relative)
    }

    /// The largest journal page (`.md`) read back: geotrip's are a few hundred kilobytes at
    /// most, so a larger one is not a page to read, and is left alone. (A map page or GeoJSON
    /// of a huge trip with `--photos` may be larger, and is compared and rewritten as any.)
    static let readLimit = 256 << 20

    /// The bytes of the regular file at `relative`; nil when there is none, and `.refused` when
    /// the name is taken by a symbolic link or something else that is not a regular file, or
    /// by a file larger than `readLimit`.
    func contents(of relative: String) -> Result<[UInt8]?, RefusedPath> {
        Self.contents(atPath: url(relative).path, relative: relative)
    }

    /// `contents(of:)` of the file at the absolute `full`, refused as `relative`.
    private static func contents(atPath full: String, relative: String) -> Result<[UInt8]?, RefusedPath> {
        var info = stat()
        guard lstat(full, &info) == 0 else { return .success(nil) }
        guard info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= readLimit || !relative.hasSuffix(".md") else {
            return .failure(RefusedPath(path: relative))
        }
        // O_NOFOLLOW: a link swapped in since the lstat is not followed either.
        let descriptor = open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(RefusedPath(path: relative)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return .success(bytes)
    }

    /// A path geotrip will not read or write through.
    struct RefusedPath: Error, Equatable {
        var path: String
    }

    /// Writes `bytes` to `relative` when they differ from what is there: to a temporary file
    /// beside it, then renamed into place.
    ///
    /// With `expecting` (the file's stamp as the caller last saw it, nil for no file), the file
    /// is looked at again just before the rename, after the slow write and flush: one saved
    /// meanwhile (a person's editor) is left as it is, and this write thrown away.
    func store(_ bytes: [UInt8], at relative: String, expecting: FileStamp?? = nil) throws(GeoTripError) -> Outcome {
        let existing: [UInt8]?
        switch contents(of: relative) {
        case .failure: return .refused
        case .success(let found): existing = found
        }
        if existing == bytes { return .unchanged }
        let target = url(relative)
        guard let (descriptor, temporary) = Self.hiddenFile(beside: target, marked: "geotrip") else {
            throw .outputUnusable(path: path, reason: "\(relative) cannot be written (\(String(cString: strerror(errno))))")
        }
        var failure: Int32 = 0
        // A file replaced keeps its permissions (a page the person made read-only stays so);
        // a new one is readable by all, as editors make them.
        var before = stat()
        fchmod(descriptor, existing != nil && lstat(target.path, &before) == 0 ? before.st_mode & 0o777 : 0o644)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { failure = errno; break }
            offset += count
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        // The size and time the file has once written: renaming it keeps both, and anything
        // written to it afterwards (a person's editor) changes the time.
        var info = stat()
        let stamp = failure == 0 && fstat(descriptor, &info) == 0 ? FileStamp(info) : nil
        close(descriptor)
        // The last look, kept: the file taken out by the exchange must be this very one (its
        // inode, and the bytes read above, which a save with its old time put back changes).
        var seen = stat()
        let looked = lstat(target.path, &seen) == 0 ? seen : nil
        if failure == 0, let expecting, looked.map(FileStamp.init) != expecting {
            unlink(temporary)
            return .savedMeanwhile
        }
        beforeRename?(target.path)
        if failure == 0, expecting != nil {
            // `looked` is the file expected: the look above found it so (or found none).
            switch exchange(temporary, relative, expecting: looked, holding: existing, ours: stamp) {
            case .put:
                if let stamp { written?.note(target.path, stamp) }
                return .written
            case .savedMeanwhile:
                unlink(temporary)
                return .savedMeanwhile
            case .failed(let code): failure = code
            case .unsupported: break
            }
        }
        // rename(2) replaces a link that appeared meanwhile rather than writing through it.
        if failure == 0 && rename(temporary, target.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .outputUnusable(path: path, reason: "\(relative) cannot be written (\(String(cString: strerror(failure))))")
        }
        // A file whose stamp could not be read is not noted: taken for another's, to be read back.
        if let stamp { written?.note(target.path, stamp) }
        return .written
    }

    /// A new, empty, hidden file beside `target` (`.NAME.MARK-XXXXXX`), open, and its path; nil
    /// (with `errno`) when none can be made.
    private static func hiddenFile(beside target: URL, marked mark: String) -> (descriptor: Int32, path: String)? {
        var template = Array((target.deletingLastPathComponent().path + "/." + target.lastPathComponent + "." + mark + "-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The dated backup name beside `relative` (`2025-06-10.md`: `2025-06-10.edited-20250701-093000.md`).
    private func backupName(of relative: String, at time: Date) -> String {
        let name = relative as NSString
        return unusedName(name.deletingPathExtension + ".edited-", at: time, extension: name.pathExtension)
    }

    /// renameat2's flags: swap the two names at once; rename only if the new name is free.
    private static let renameExchange = UInt32(2), renameNoReplace = UInt32(1)

    /// What `exchange` did.
    enum Exchange: Equatable {
        case put, unsupported
        /// `kept`: the dated backup made of what came back from the swap back, if any.
        case savedMeanwhile(kept: String?)
        case failed(Int32)
    }

    /// Puts `temporary` at `relative`, whose file should be `expecting` as `store` last looked
    /// at it (nil: no file), so that a save landing after `store`'s last look is never overwritten: with no
    /// file expected, only if none appeared (RENAME_NOREPLACE); otherwise the two are swapped
    /// at once (RENAME_EXCHANGE) and the file taken out looked at (its inode, size, time and
    /// bytes: the rename itself moves its change time). When it is not the one expected, a
    /// person saved it in that moment: it is swapped back, and should what comes
    /// back not be `ours` (`temporary`'s stamp; a second save meanwhile), that is kept as a
    /// dated backup rather than removed. `unsupported` where the kernel or the file system
    /// has no such rename: the caller renames as before. Whatever is left at `temporary`
    /// (a rename refused) is the caller's.
    private func exchange(_ temporary: String, _ relative: String, expecting: stat?, holding: [UInt8]?, ours: FileStamp?) -> Exchange {
        let target = url(relative).path
        guard let expecting else {
            if geotrip_renameat2(temporary, target, Self.renameNoReplace) == 0 { return .put }
            let code = errno
            if code == ENOSYS || code == EINVAL { return .unsupported }
            return code == EEXIST ? .savedMeanwhile(kept: nil) : .failed(code)
        }
        guard geotrip_renameat2(temporary, target, Self.renameExchange) == 0 else {
            let code = errno
            if code == ENOSYS || code == EINVAL { return .unsupported }
            // Removed in that moment: left removed, as a save is left as saved.
            return code == ENOENT ? .savedMeanwhile(kept: nil) : .failed(code)
        }
        var info = stat()
        if lstat(temporary, &info) == 0, info.st_dev == expecting.st_dev, info.st_ino == expecting.st_ino,
           FileStamp(info) == FileStamp(expecting), (try? Self.contents(atPath: temporary, relative: relative).get()) == holding {
            unlink(temporary)
            return .put
        }
        // Saved in that moment: the person's file goes back in place.
        if geotrip_renameat2(temporary, target, Self.renameExchange) == 0, lstat(temporary, &info) == 0, let ours, FileStamp(info) == ours {
            unlink(temporary)
            return .savedMeanwhile(kept: nil)
        }
        let backup = backupName(of: relative, at: Date())
        return .savedMeanwhile(kept: rename(temporary, url(backup).path) == 0 ? backup : nil)
    }

    /// Whether the file system under `folder` swaps two names at once (what `exchange` needs;
    /// tmpfs, ext4, XFS and Btrfs do): tried on two files made for it, then removed.
    static func swapsNames(in folder: String) -> Bool {
        let first = folder + "/.geotrip-swap-a", second = folder + "/.geotrip-swap-b"
        defer { unlink(first); unlink(second) }
        guard FileManager.default.createFile(atPath: first, contents: Data()),
              FileManager.default.createFile(atPath: second, contents: Data()) else { return false }
        return geotrip_renameat2(first, second, Self.renameExchange) == 0
    }

    /// Renames the file at `relative` to a dated backup beside it (`2025-06-10.md` becomes
    /// `2025-06-10.edited-20250701-093000.md`), and returns the backup's relative path.
    func keepBackup(of relative: String, at time: Date) throws(GeoTripError) -> String {
        let backup = backupName(of: relative, at: time)
        guard rename(url(relative).path, url(backup).path) == 0 else {
            throw .outputUnusable(path: path, reason: "\(relative) could not be kept as \(backup) (\(String(cString: strerror(errno))))")
        }
        return backup
    }

    /// `prefix` + `YYYYMMDD-HHMMSS` of `time` + `.extension`, with `-2`, `-3`… before the
    /// extension when that name is taken: a dated name for a file kept aside.
    func unusedName(_ prefix: String, at time: Date, extension: String) -> String {
        let stamp = (time.geotripISO8601 ?? "").prefix(19).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
            .replacingOccurrences(of: "T", with: "-")
        var name = "\(prefix)\(stamp).\(`extension`)"
        var counter = 2
        while exists(name) {
            name = "\(prefix)\(stamp)-\(counter).\(`extension`)"
            counter += 1
        }
        return name
    }

    /// Removes the regular file at `relative` (never a link's target).
    func remove(_ relative: String) throws(GeoTripError) {
        guard unlink(url(relative).path) == 0 || errno == ENOENT else {
            throw .outputUnusable(path: path, reason: "\(relative) could not be removed (\(String(cString: strerror(errno))))")
        }
    }

    /// Removes the regular file at `relative` if it is still the one `expecting` stamps, and
    /// returns whether it did. The file is first renamed aside (a hidden `.NAME.retiring-XXXXXX`
    /// beside it, which the journal's cleanup judges as a possible save, should the run be
    /// killed there: `names(in:pages:holdsSave:rescued:)`), then looked at:
    /// one saved in the moment before is put back (or kept as a dated backup, should its name
    /// have been taken again meanwhile), so a page is never removed over a save, however late.
    func remove(_ relative: String, expecting: FileStamp) throws(GeoTripError) -> Bool {
        let target = url(relative)
        var looked = stat()
        guard lstat(target.path, &looked) == 0, FileStamp(looked) == expecting else { return false }
        guard let (descriptor, aside) = Self.hiddenFile(beside: target, marked: "retiring") else {
            throw .outputUnusable(path: path, reason: "\(relative) could not be removed (\(String(cString: strerror(errno))))")
        }
        close(descriptor)
        beforeRename?(target.path)
        guard rename(target.path, aside) == 0 else {
            let code = errno
            unlink(aside)
            if code == ENOENT { return false }  // removed meanwhile
            throw .outputUnusable(path: path, reason: "\(relative) could not be removed (\(String(cString: strerror(code))))")
        }
        var info = stat()
        if lstat(aside, &info) == 0, info.st_dev == looked.st_dev, info.st_ino == looked.st_ino, FileStamp(info) == expecting {
            unlink(aside)
            return true
        }
        // Saved in that moment: back in place; should a file have taken the name since, kept
        // beside it as a dated backup.
        if geotrip_renameat2(aside, target.path, Self.renameNoReplace) != 0 {
            if errno == EEXIST {
                _ = rename(aside, url(backupName(of: relative, at: Date())).path)
            } else {
                _ = rename(aside, target.path)
            }
        }
        return false
    }

    /// The names in `subfolder`, with the hidden files a run killed while writing there left
    /// (`.NAME.geotrip-XXXXXX`) for the files geotrip writes there (`pages`) taken away.
    func names(in subfolder: String, pages: (String) -> Bool) -> [String] {
        var rescued: [String] = []
        return names(in: subfolder, pages: pages, holdsSave: nil, rescued: &rescued)
    }

    /// `names(in:pages:)` for a folder of pages a person writes in (a journal's).
    ///
    /// A leftover is mostly geotrip's own page, half written or never put in place, and is
    /// removed. But a run killed between an exchange's two swaps (`exchange`), or just after
    /// renaming a page aside (`remove(_:expecting:)`, `.NAME.retiring-XXXXXX`), leaves there the
    /// file a person saved in that moment. `holdsSave`, given a file's bytes, says whether it
    /// may be such a save (anything but a page as geotrip wrote it): such a leftover is put back
    /// under NAME when NAME is free or holds no save of its own, else kept beside it as a dated
    /// backup; where it went is added to `rescued`. A leftover that cannot be read is left as
    /// it is, as is any hidden file of another name.
    func names(in subfolder: String, pages: (String) -> Bool, holdsSave: (([UInt8]) -> Bool)?, rescued: inout [String]) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(subfolder).path)) ?? []
        let folder = subfolder.isEmpty ? "" : subfolder + "/"
        for name in names where name.hasPrefix(".") {
            guard let page = Self.leftoverPage(name, marks: holdsSave == nil ? [".geotrip-"] : [".geotrip-", ".retiring-"]), pages(page)
            else { continue }
            let leftover = url(folder + name).path
            guard let holdsSave else {
                unlink(leftover)
                continue
            }
            switch Self.contents(atPath: leftover, relative: folder + name) {
            case .success(let bytes?) where holdsSave(bytes):
                if let put = rescue(leftover, as: folder + page, holdsSave: holdsSave) { rescued.append(put) }
            case .success(.some): unlink(leftover)
            case .success(nil), .failure: break  // gone meanwhile; or not a file geotrip can read
            }
        }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The page a run's leftover hidden file was made for (`.2025-06-10.md.geotrip-Ab12Cd`:
    /// `2025-06-10.md`), by the `marks` given; nil for any other name.
    static func leftoverPage(_ name: String, marks: [String] = [".geotrip-", ".retiring-"]) -> String? {
        for mark in marks {
            guard let range = name.range(of: mark, options: .backwards), name.hasPrefix("."),
                  name.distance(from: range.upperBound, to: name.endIndex) == 6, range.lowerBound > name.index(after: name.startIndex)
            else { continue }
            return String(name[name.index(after: name.startIndex)..<range.lowerBound])
        }
        return nil
    }

    /// Puts the file at `leftover` (a person's save a killed run left hidden) at `relative`: in
    /// place of the file there only if that holds no save (`holdsSave`) and is still the file
    /// looked at now (`exchange`, which keeps a save landing meanwhile, and this one as a
    /// backup); else, or where names cannot be swapped, beside it as a dated backup. Returns
    /// where it went (relative), nil if nowhere (a rename refused).
    private func rescue(_ leftover: String, as relative: String, holdsSave: ([UInt8]) -> Bool) -> String? {
        var seen = stat()
        let looked = lstat(url(relative).path, &seen) == 0 ? seen : nil
        let holding = looked == nil ? nil : try? contents(of: relative).get()
        if looked == nil || holding.map({ !holdsSave($0) }) == true {
            switch exchange(leftover, relative, expecting: looked, holding: holding, ours: nil) {
            case .put: return relative
            case .savedMeanwhile(let kept?): return kept  // a save landed meanwhile and went back: this one beside it
            case .savedMeanwhile(nil), .unsupported, .failed: break
            }
        }
        // Whatever is left there (this save, its rename refused) is kept beside it.
        guard access(leftover, F_OK) == 0 else { return nil }
        let backup = backupName(of: relative, at: Date())
        return rename(leftover, url(backup).path) == 0 ? backup : nil
    }

    /// The size and time of whatever has the name `relative` (a link's own); nil when nothing has.
    func stamp(of relative: String) -> FileStamp? {
        var info = stat()
        guard lstat(url(relative).path, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// Whether anything (a link included) has the name `relative`.
    private func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(url(relative).path, &info) == 0
    }

    /// The path from folder `from` to file `to` (both absolute), `/`-separated, with `..` where
    /// needed: links between the output and the photos stay valid when both are moved together.
    static func relativePath(from: String, to: String) -> String {
        let a = from.split(separator: "/"), b = to.split(separator: "/")
        var common = 0
        while common < a.count && common < b.count - 1 && a[common] == b[common] { common += 1 }
        return (Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)).joined(separator: "/")
    }
}

/// A file's size and modification time (nanoseconds since 1970), as `FolderScanner` reads them.
struct FileStamp: Hashable, Sendable {
    var size: Int64
    var modifiedNanos: Int64

    init(size: Int64, modifiedNanos: Int64) {
        self.size = size
        self.modifiedNanos = modifiedNanos
    }

    /// The stamp of what `stat` or `fstat` told.
    init(_ info: stat) {
        // Clamped, not wrapped: a time past 2262 (or before 1678) would otherwise read as one
        // centuries away on the other side, and journal files are weighed by their times.
        let seconds = min(max(Int64(info.st_mtim.tv_sec), -9_223_372_035), 9_223_372_035)
        self.init(size: Int64(info.st_size), modifiedNanos: seconds * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

/// The files one export wrote, by absolute path, each with the stamp it had once written:
/// what tells the export's own writes from a person's edits made while it ran.
final class WrittenFiles: Sendable {
    private let stamps = Mutex<[String: FileStamp]>([:])

    func note(_ path: String, _ stamp: FileStamp) { stamps.withLock { $0[path] = stamp } }

    /// The stamp `path` had once this export wrote it; nil when it did not write it.
    func stamp(of path: String) -> FileStamp? { stamps.withLock { $0[path] } }
}
