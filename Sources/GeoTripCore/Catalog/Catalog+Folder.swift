import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which photo folder a catalog belongs to.
///
/// A catalog holds one folder's photos by their paths inside it. Given with `--catalog` for
/// another folder, a run would take the first folder's photos out of it as removed, and its
/// places and visits with them (and `tag`, `rename` and `export` would write that folder's
/// journal into the other's output folder). So a catalog remembers its folder (resolved,
/// absolute), and a run on another folder looks for a sample of the catalog's files there:
/// when most are there with their sizes, the folder is the one remembered moved, or a copy of
/// it, and the catalog follows it; otherwise the run is refused, whether the folder remembered
/// is still there or not (a disk not mounted is not a folder moved). The catalog inside the
/// folder (`DIR/.geotrip/`), given or not, moves and copies with it, and always follows.
extension Catalog {
    /// How many of the catalog's files are looked for in a folder it is not remembered for.
    static let folderSample = 64

    /// What `checkFolder` found.
    private struct FolderCheck: Sendable {
        /// The folder given, absolute with links resolved.
        var here: String
        /// The folder the catalog was remembered for, when another (nil: this one, or none
        /// remembered, by a catalog from before geotrip remembered its folder).
        var followedFrom: String?
        /// Whether the catalog must be told its folder (`rememberFolder`).
        var isNew: Bool
    }

    /// Checks, without writing, that the catalog is `folder`'s: remembered for it, or for the
    /// same folder under another name, or the catalog inside it, or more than half of a sample
    /// of its files are in it with their sizes (a catalog from before geotrip remembered its
    /// folder is looked at the same way). Throws `.catalogOfAnotherFolder` otherwise.
    private func checkFolder(_ folder: String) throws(GeoTripError) -> FolderCheck {
        let here = RealPath.of(folder)
        let remembered = try setting(SettingKey.photoFolder)
        if remembered == here { return FolderCheck(here: here, followedFrom: nil, isNew: false) }
        let check = FolderCheck(here: here, followedFrom: remembered, isNew: true)
        if RealPath.ofFile(path) == here + "/" + Self.defaultCatalogName || remembered.map({ Self.isSameFolder($0, here) }) == true { return check }
        let sample = try fileSample()
        // A catalog from before, or one that holds nothing: nothing to tell it by.
        if remembered == nil && sample.isEmpty { return check }
        let present = sample.filter { Self.holds(here, $0.path, size: $0.size) }.count
        // More than half of them there: the folder remembered, moved, or a copy of it.
        if present * 2 > sample.count { return check }
        throw .catalogOfAnotherFolder(path: path, owner: remembered, ownerThere: remembered.map(Self.isFolder) ?? false, folder: folder,
                                      missing: sample.count - present, sampled: sample.count)
    }

    /// Stores `check`'s folder as the catalog's, when it is not already, and the folder it
    /// followed from (whose outputs it may then take: `OutputFolder.checkOwner`).
    private func rememberFolder(_ check: FolderCheck) throws(GeoTripError) {
        guard check.isNew else { return }
        try setSetting(SettingKey.photoFolder, to: check.here)
        if let former = check.followedFrom { try setSetting(SettingKey.formerPhotoFolder, to: former) }
    }

    /// The folder the catalog last followed its folder from, if any (`rememberFolder`).
    func formerFolder() throws(GeoTripError) -> String? {
        try setting(SettingKey.formerPhotoFolder)
    }

    /// What every command that writes does first, before it writes anything: `checkFolder`;
    /// then the output folder the run will write (`outputFolder`, as remembered, when given;
    /// else the one remembered, `.some(nil)` being the default) checked for another folder's
    /// outputs (`OutputFolder.checkOwner`); then `rememberFolder`. Returns the folder the
    /// catalog followed from, if another.
    @discardableResult
    func claim(folder: String, outputFolder given: String?? = nil) throws(GeoTripError) -> String? {
        let check = try checkFolder(folder)
        var former = check.followedFrom
        if former == nil { former = try formerFolder() }
        // Remembered settings that cannot be read are said by `exportSettings`, which every
        // command that exports calls next.
        let output: String?? = given ?? (try? storedExportSettings()).map(\.outputFolder)
        if let output { try OutputFolder(folder: folder, outputFolder: output).checkOwner(photoFolder: folder, former: former, writer: try writer()) }
        try rememberFolder(check)
        return check.followedFrom
    }

    /// The catalog as the output folder's owner file names the one writing it.
    func writer() throws(GeoTripError) -> OutputFolder.Writer {
        OutputFolder.Writer(path: RealPath.ofFile(path), identity: try identity())
    }

    /// The `identity` of the catalog file at `path`, read without changing it; nil when there
    /// is none there, or it cannot be read as a catalog, or it has none yet.
    static func identity(at path: String) -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        guard FileManager.default.fileExists(atPath: path), let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        return try? queue.read { db in try TripSettingRecord.value(db, SettingKey.identity) }
    }

    /// The sentence a command says once when the catalog followed its folder to `folder`
    /// from `former`.
    public static func followedWords(from former: String, to folder: String) -> String {
        "it was the catalog of \(former), moved or copied here: it follows \(folder) now"
    }

    /// `.geotrip/catalog.sqlite`, the catalog's place inside its folder (`IngestOptions.defaultCatalogPath`).
    static let defaultCatalogName = ".geotrip/catalog.sqlite"

    /// Up to `folderSample` files present in the catalog (paths and sizes), every n-th of them
    /// in id order. (Only a run in a folder the catalog is not remembered for reads them all.)
    private func fileSample() throws(GeoTripError) -> [(path: String, size: Int64)] {
        try attempt {
            try database.read { db in
                let present = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE removedAt IS NULL") ?? 0
                let step = max(1, present / Self.folderSample)
                return try Row.fetchAll(db, sql: """
                    SELECT path, fileSize FROM (SELECT path, fileSize, row_number() OVER (ORDER BY id) AS n FROM photo WHERE removedAt IS NULL)
                    WHERE (n - 1) % ? = 0 LIMIT ?
                    """, arguments: [step, Self.folderSample]).map { ($0[0], $0[1]) }
            }
        }
    }

    /// Whether `folder` holds a file of `size` bytes at the catalogued `relative` path (names
    /// that are not UTF-8 looked for by their bytes: `FolderScanner.rawBytes`).
    private static func holds(_ folder: String, _ relative: String, size: Int64) -> Bool {
        let bytes = FolderScanner.rawBytes(of: relative, in: folder).map { Array(folder.utf8) + [UInt8(ascii: "/")] + $0 }
            ?? Array((folder + "/" + relative).utf8)
        var info = stat()
        let found = (bytes + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
        }
        return found && Int64(info.st_size) == size
    }

    /// Whether `path` is a folder now.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether `remembered` and `here` are one folder now (by device and inode).
    /// (Files too: the same file under two paths.)
    static func isSameFolder(_ remembered: String, _ here: String) -> Bool {
        var old = stat(), new = stat()
        guard stat(remembered, &old) == 0, stat(here, &new) == 0 else { return false }
        return old.st_dev == new.st_dev && old.st_ino == new.st_ino
    }
}
