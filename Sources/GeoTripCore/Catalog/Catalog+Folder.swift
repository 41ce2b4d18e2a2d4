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
/// places and visits with them. So a catalog remembers its folder (resolved, absolute), and a
/// run on another folder is refused while that folder is still there and the one given lacks
/// most of the catalog's photos. A folder moved (the one remembered is gone), reached through
/// another name (the same folder by device and inode), or copied with its photos, is followed.
extension Catalog {
    /// How many of the catalog's photos are looked for in a folder it is not remembered for.
    static let folderSample = 64

    /// Makes sure the catalog is `folder`'s before a run writes to it, and remembers `folder`.
    /// Returns the folder it was remembered for when that differs (the catalog follows a folder
    /// moved or copied), nil otherwise; throws `.catalogOfAnotherFolder` when it is another's.
    /// A catalog from before geotrip remembered its folder takes `folder` without a look.
    /// `lookAtPhotos` false (the default catalog, inside the folder: the folder moved or was
    /// copied with it) follows `folder` without looking.
    @discardableResult
    func claim(folder: String, lookAtPhotos: Bool) throws(GeoTripError) -> String? {
        let here = ExportStage.resolved(folder)
        let remembered = try setting(SettingKey.photoFolder)
        if remembered == here { return nil }
        if let remembered, lookAtPhotos, Self.isOtherFolder(remembered, than: here) {
            let sample = try photoSample()
            let present = sample.filter { Self.exists(here + "/" + $0) }.count
            // Most of them in the folder given: a copy the catalog now follows.
            if present * 2 < sample.count {
                throw .catalogOfAnotherFolder(path: self.path, owner: remembered, folder: folder,
                                              missing: sample.count - present, sampled: sample.count)
            }
        }
        try setSetting(SettingKey.photoFolder, to: here)
        return remembered
    }

    /// Up to `folderSample` paths of the photos present, spread over the catalog by id.
    private func photoSample() throws(GeoTripError) -> [String] {
        try attempt {
            try database.read { db in
                let highest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM photo") ?? 0
                let step = max(1, highest / Int64(Self.folderSample))
                return try String.fetchAll(db, sql: "SELECT path FROM photo WHERE removedAt IS NULL AND id % ? = 0 LIMIT ?",
                                           arguments: [step, Self.folderSample])
            }
        }
    }

    /// Whether `remembered` is still there as a folder, and not `here` under another name.
    static func isOtherFolder(_ remembered: String, than here: String) -> Bool {
        var old = stat(), new = stat()
        guard stat(remembered, &old) == 0, old.st_mode & S_IFMT == S_IFDIR else { return false }
        guard stat(here, &new) == 0 else { return true }
        return old.st_dev != new.st_dev || old.st_ino != new.st_ino
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
