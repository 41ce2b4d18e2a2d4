import Foundation
import Synchronization
import GRDB

/// The SQLite catalog of one trip folder: photos now, visits, places and notes in later stages.
///
/// One value over a GRDB `DatabasePool` (WAL, so `geotrip photos` can read while an ingest
/// writes); it migrates on open and offers intention-named methods. Writes come from one place,
/// the ingest pipeline, in batched transactions, so a run killed at any moment leaves the last
/// committed batch and nothing half-written.
public struct Catalog: Sendable {
    /// Where the catalog file is.
    public let path: String
    let database: DatabasePool
    /// Held while the catalog is open for writing, so two runs never write it at once.
    let lock: CatalogLock?

    /// `PRAGMA application_id` of every catalog geotrip makes ("GTrp"), so another program's
    /// SQLite file is never taken for a catalog (sqlite.org/fileformat2.html#appid).
    static let applicationID: Int32 = 0x4754_7270

    /// How a command uses the catalog.
    public enum Access: Sendable {
        /// Ingest and tag: the run lock is taken, and the catalog is created or migrated.
        case exclusive
        /// Listing: nothing is written, so an archived catalog on a read-only disk lists too.
        case readOnly
    }

    /// Opens the catalog at `path`. With `.exclusive` it is created if missing, locked against
    /// other runs and migrated. Whatever the access, a file that is not geotrip's catalog (another
    /// program's SQLite database, a folder, a device) or one from a newer geotrip is refused
    /// before anything is written, lock file included.
    public static func open(at path: String, access: Access = .exclusive) throws(GeoTripError) -> Catalog {
        let identity = try CatalogIdentity.check(path)
        if access == .readOnly {
            // An older schema needs its migrations before it can be read; that is a write.
            if identity == .geotrip(current: true) { return try openReadOnly(path) }
            // Nothing written yet (an empty file): nothing to list, and nothing to create for it.
            if identity == .absent || identity == .empty { throw .catalogEmpty(path: path) }
        }
        try createFolder(for: path)
        try checkFolderWritable(path)
        let lock = try CatalogLock(catalogPath: path)
        try checkWritable(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "geotrip.catalog"
        configuration.prepareDatabase { db in
            // Statement journals in memory. Every insert or update of a photo row runs
            // triggers inside a transaction of many rows, so SQLite journals each statement to
            // undo it alone; once one journal passes 64 KiB, SQLite moves them to a file in
            // /var/tmp for the rest of the transaction, and a fresh ingest of 200,000 photos
            // made ten million small writes to such files (a third of its CPU time was the
            // kernel's). A statement's journal is a few pages.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            CatalogFunctions.add(to: db)
        }
        let database: DatabasePool
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            // The migration that marks the catalog (v5) runs for new and older catalogs alike.
            try CatalogMigrations.migrator.migrate(database)
        } catch {
            throw Self.classify(error, path: path)
        }
        return Catalog(path: path, database: database, lock: lock)
    }

    /// Gives up the run lock before the online naming phase, which holds none (see
    /// `CatalogLock`). The catalog stays open for that phase's guarded writes.
    func releaseLock() {
        lock?.release()
    }

    /// Takes the run lock again after the online naming phase, waiting for a `tag` or `rename`
    /// that took it meanwhile.
    func reacquireLock() async throws(GeoTripError) {
        try await lock?.reacquire(path: path)
    }

    /// Refuses a catalog whose folder cannot be written while a file it needs there is missing:
    /// the catalog itself, SQLite's -wal and -shm (made when they are not there), and the run's
    /// lock; SQLite said only "attempt to write a readonly database", the lock "Permission denied".
    static func checkFolderWritable(_ path: String) throws(GeoTripError) {
        let parent = (path as NSString).deletingLastPathComponent, folder = parent.isEmpty ? "." : parent
        let needed = [path, path + "-wal", path + "-shm", RealPath.ofFile(path) + CatalogLock.runSuffix]
        guard needed.contains(where: { !FileManager.default.fileExists(atPath: $0) }), access(folder, W_OK) != 0 else { return }
        throw .catalogUnwritable(path: path, reason: errno == EROFS ? "it is on a read-only disk"
                                 : "its folder \(folder) cannot be written, where SQLite keeps its own files (-wal, -shm) and geotrip its lock beside the catalog: "
                                 + "make it writable (`chmod u+w \(folder)`, as its owner)")
    }

    /// Refuses a catalog whose file cannot be written before SQLite opens it, and gives back
    /// their write permission to its `-wal` and `-shm` files when a run on a read-only catalog
    /// left them without it. SQLite makes those two with the catalog's own permissions, so a
    /// `geotrip places` on a catalog made read-only (an archive, `chmod a-w`), or a run refused
    /// on one, leaves them read-only; once the catalog is writable again they would refuse every
    /// run with "attempt to write a readonly database". Run under the run lock: no other
    /// geotrip run is writing them.
    static func checkWritable(_ path: String) throws(GeoTripError) {
        var catalog = stat()
        guard stat(path, &catalog) == 0, (catalog.st_mode & S_IFMT) == S_IFREG else { return }
        if access(path, W_OK) != 0 {
            throw .catalogUnwritable(path: path, reason: errno == EROFS ? "it is on a read-only disk"
                                     : errno == EACCES ? "its file is read-only: `chmod u+w \(path)` makes it writable" : String(cString: strerror(errno)))
        }
        let writable = catalog.st_mode & 0o222
        for companion in [path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(companion, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                  status.st_mode & writable != writable || access(companion, W_OK) != 0 else { continue }
            if chmod(companion, (status.st_mode | writable) & 0o7777) != 0 || access(companion, W_OK) != 0 {
                throw .catalogUnwritable(path: path, reason: "\(companion), SQLite's own file beside it, cannot be written (read-only, or another user's): "
                                         + "make it writable, or remove both \(path)-wal and \(path)-shm while no program has the catalog open")
            }
        }
    }

    /// A read-only pool. SQLite cannot open a WAL database read-only when its `-shm` file is
    /// missing and cannot be made (an archived catalog on a read-only disk); then the file is
    /// opened `immutable=1`, which is right there: nothing can write to such a disk.
    private static func openReadOnly(_ path: String) throws(GeoTripError) -> Catalog {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "geotrip.catalog"
        configuration.prepareDatabase { db in CatalogFunctions.add(to: db) }
        do {
            let database = try DatabasePool(path: path, configuration: configuration)
            // Opening is lazy: a first read shows whether the WAL index can be used.
            try database.read { _ = try $0.tableExists("photo") }
            return Catalog(path: path, database: database, lock: nil)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY {
            do {
                return Catalog(path: path, database: try DatabasePool(path: immutableURI(path), configuration: configuration), lock: nil)
            } catch {
                throw classify(error, path: path)
            }
        } catch {
            throw classify(error, path: path)
        }
    }

    /// `file:PATH?immutable=1`, the path percent-encoded (SQLite's URI filenames; Debian's
    /// libsqlite3 is built with SQLITE_USE_URI, which GRDB's open flags rely on here).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "/-._~")
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    /// Creates the folder the catalog at `path` lives in (`.geotrip/` by default).
    static func createFolder(for path: String) throws(GeoTripError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
        } catch {
            throw .catalogUnwritable(path: path, reason: Self.reason(of: error))
        }
    }

    static func classify(_ error: any Error, path: String) -> GeoTripError {
        if let error = error as? GeoTripError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .catalogDamaged(path: path, reason: "it is not a geotrip catalog, or it is damaged")
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_FULL:
                return .catalogUnwritable(path: path, reason: error.message ?? "\(error.resultCode)")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                // geotrip's own runs meet at the lock file first, so this is another program.
                return .catalogHeldByOtherProgram(path: path)
            case .SQLITE_CONSTRAINT:
                return .catalogRejected(path: path, reason: error.message ?? "a constraint failed")
            case .SQLITE_ERROR, .SQLITE_TOOBIG, .SQLITE_RANGE, .SQLITE_MISUSE:
                // A statement geotrip made that SQLite refused ("too many SQL variables", a
                // value too large): geotrip's bug, not the file's, which moving it aside would
                // not mend. A damaged file shows as SQLITE_CORRUPT or SQLITE_NOTADB above.
                return .catalogRejected(path: path, reason: error.message ?? "\(error.resultCode)")
            default:
                return .catalogDamaged(path: path, reason: error.message ?? "\(error.resultCode)")
            }
        }
        return .catalogDamaged(path: path, reason: reason(of: error))
    }

    static func reason(of error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        // A value no kind has (a hand edit, a damaged page): GRDB's own sentence names the
        // column and the value, where Foundation would say only "error 1".
        if error is RowDecodingError {
            let sentence = "\(error)"
            return "a row holds a value this geotrip does not know: " + (sentence.range(of: ", column index:").map { String(sentence[..<$0.lowerBound]) } ?? sentence)
        }
        return (error as NSError).localizedDescription
    }
}

// MARK: - What the ingest needs

/// The catalog's view of one file, enough to tell whether it changed and whose it is. A class:
/// every planned read holds an optional one, and at a million new files an optional struct
/// took its whole size (over 100 bytes) in each, with nothing in it.
final class CatalogedFile: Sendable {
    let id: Int64
    let path: String
    let fileSize: Int64
    let modifiedNanos: Int64
    let fingerprint: String
    let status: FileReading.Status
    let readerVersion: Int
    let removed: Bool
    /// `PhotoMetadata.captureSignature` of what was read.
    let captureSignature: String?
    /// `ScannedFile.sidecarStamp` of the sidecars seen when it was read.
    let sidecars: String?

    init(id: Int64, path: String, fileSize: Int64, modifiedNanos: Int64, fingerprint: String, status: FileReading.Status,
         readerVersion: Int, removed: Bool, captureSignature: String? = nil, sidecars: String? = nil) {
        self.id = id
        self.path = path
        self.fileSize = fileSize
        self.modifiedNanos = modifiedNanos
        self.fingerprint = fingerprint
        self.status = status
        self.readerVersion = readerVersion
        self.removed = removed
        self.captureSignature = captureSignature
        self.sidecars = sidecars
    }

    /// What the plan's first rule looks at.
    var stamp: CatalogedStamp {
        CatalogedStamp(path: path, fileSize: fileSize, modifiedNanos: modifiedNanos, unreadable: status == .unreadable,
                       readerVersion: readerVersion, removed: removed, sidecars: sidecars)
    }
}

/// What the catalog says of a file's last reading that tells whether it changed since (the
/// plan's first rule), without the rest of its row.
struct CatalogedStamp: Sendable {
    var path: String
    var fileSize: Int64
    var modifiedNanos: Int64
    /// Its reading failed: it is read again whatever its stamp.
    var unreadable: Bool
    var readerVersion: Int
    var removed: Bool
    /// `ScannedFile.sidecarStamp` of the sidecars seen when it was read.
    var sidecars: String?
}

/// Figures for the end-of-run summary, over the files now present in the folder.
struct CatalogCounts: Sendable, Equatable, Codable {
    var withGPS = 0
    var withoutGPS = 0
    var unreadable = 0
    var skipped = 0
    /// Videos read, among `withGPS` and `withoutGPS`, and those of them that are a Live Photo's.
    var videos = 0
    var livePhotoVideos = 0
}

extension Catalog {
    /// Runs `body`, turning any database error into a `GeoTripError` that says what to do.
    func attempt<T>(_ body: () throws -> T) throws(GeoTripError) -> T {
        do {
            return try body()
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Records the size and time of geotrip's own sidecars as this run wrote them (or their
    /// removal) in their photos' sidecar stamps (`ScannedFile.sidecarStamp`): geotrip's own
    /// rewrites then never make a photo look edited, while another program's edit of one does.
    func restampOwnSidecars(_ changes: [SidecarSync.Restamp]) throws(GeoTripError) {
        guard !changes.isEmpty else { return }
        try attempt {
            try database.write { db in
                let find = try db.cachedStatement(sql: "SELECT id, sidecars FROM photo WHERE path = ? AND removedAt IS NULL")
                let update = try db.cachedStatement(sql: "UPDATE photo SET sidecars = ? WHERE id = ?")
                for change in changes {
                    guard let row = try Row.fetchOne(find, arguments: [change.photo]) else { continue }
                    let before: String? = row["sidecars"]
                    let after = ScannedFile.restamp(before, sidecar: change.sidecar, size: change.size, modifiedNanos: change.modifiedNanos)
                    if after != before { try update.execute(arguments: [after, row["id"]]) }
                }
            }
        }
    }

    /// `read` of `items`, in two halves at once (each half read on a reader of its own, the
    /// halves' results in order) when there are at least `threshold` of them, else whole in
    /// one: the catalog's reads of a library's many windows, runs or places wait otherwise
    /// while the other core is idle. The run lock keeps the catalog still between the reads.
    func inHalves<Item: Sendable, Value: Sendable>(_ items: [Item], from threshold: Int,
                                                   _ read: @Sendable ([Item]) throws(GeoTripError) -> Value) throws(GeoTripError) -> [Value] {
        guard items.count >= max(2, threshold) else { return [try read(items)] }
        let halves = [Array(items[..<(items.count / 2)]), Array(items[(items.count / 2)...])]
        let results = Mutex([Result<Value, GeoTripError>?](repeating: nil, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let result = Result { () throws(GeoTripError) in try read(halves[half]) }
            results.withLock { $0[half] = result }
        }
        var values: [Value] = []
        for result in results.withLock({ $0 }) { values.append(try result!.get()) }
        return values
    }

    /// The plan's pass over every row: the stamp first, the rest decoded only for rows that
    /// changed. No ORDER BY: the table's own order, with nothing to sort or hold.
    static let fileStreamSQL = """
        SELECT path, fileSize, modifiedNanos, status = 'unreadable', readerVersion, removedAt IS NOT NULL, sidecars,
               id, fingerprint, status, localTime, make, model
        FROM photo
        """

    /// Every row of the catalog, removed ones included, streamed past `settled`: a row it
    /// accepts from its stamp (a file seen unchanged) is dropped there and then, so an unchanged
    /// rerun holds no rows at all; the others come back whole. Only a row's stamp is decoded
    /// before `settled` is asked.
    func files(unlessSettled settled: (CatalogedStamp) -> Bool) throws(GeoTripError) -> [CatalogedFile] {
        try attempt {
            try database.read { db in
                var files: [CatalogedFile] = []
                let rows = try Row.fetchCursor(db, sql: Self.fileStreamSQL)
                while let row = try rows.next() {
                    let stamp = CatalogedStamp(path: row[0], fileSize: row[1], modifiedNanos: row[2], unreadable: row[3],
                                               readerVersion: row[4], removed: row[5], sidecars: row[6])
                    if settled(stamp) { continue }
                    files.append(CatalogedFile(
                        id: row[7], path: stamp.path, fileSize: stamp.fileSize, modifiedNanos: stamp.modifiedNanos, fingerprint: row[8],
                        status: row[9], readerVersion: stamp.readerVersion, removed: stamp.removed,
                        captureSignature: PhotoMetadata.captureSignature(localTime: row[10], make: row[11], model: row[12]),
                        sidecars: stamp.sidecars))
                }
                return files
            }
        }
    }

    /// Inserts new files and updates known ones whose path is free, in one transaction: one
    /// batch of the read stage. Live Photo links wait for the run's last transaction
    /// (`finish`): a batch keeps what it may re-pair (`LivePhotoSeeds`, in `livePhotoPending`),
    /// so a video read in one batch and its still in another are paired together, and a run
    /// stopped after its batches leaves them for the next run's last transaction.
    func save(new: [PhotoRecord], updated: [PhotoRecord]) throws(GeoTripError) {
        try write(new: new, updated: updated, removing: [], at: Date(), linking: false)
    }

    /// The last transaction of a run: marks files that left the folder as removed (their rows,
    /// and so their identity, stay in case they come back), moves the remaining rows into place
    /// and inserts new ones. Paths are first cleared for every updated row whose path changes,
    /// so rows can trade places (a swap of two file names) without breaking uniqueness in between. Pairs the
    /// Live Photos around everything the run changed (`Catalog+LivePhotos`).
    func finish(new: [PhotoRecord], updated: [PhotoRecord], removing removedIDs: [Int64], at time: Date) throws(GeoTripError) {
        try write(new: new, updated: updated, removing: removedIDs, at: time, linking: true)
    }

    private func write(new: [PhotoRecord], updated: [PhotoRecord], removing removedIDs: [Int64], at time: Date, linking: Bool) throws(GeoTripError) {
        let linksPending = try linking ? attempt {
            try database.read { db in
                try TripSettingRecord.value(db, SettingKey.livePhotoLinksStale) != nil
                    || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM livePhotoPending)") == true
            }
        } : false
        guard !new.isEmpty || !updated.isEmpty || !removedIDs.isEmpty || linksPending else { return }
        let stamp = time.geotripISO8601 ?? ""
        try attempt {
            try database.write { db in
                // A first read into an empty catalog pairs the whole folder once at its end (one
                // pass over the stills), rather than looking up every still's stem batch by batch
                // in the writer every other core waits on; so does a catalog an older version
                // left mid-run.
                var whole = try TripSettingRecord.value(db, SettingKey.livePhotoLinksStale) != nil
                if !whole, !linking, !new.isEmpty, try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo)")! {
                    try TripSettingRecord.set(db, SettingKey.livePhotoLinksStale, to: "1")
                    whole = true
                }
                // What a row about to change or go was, for the links (what it becomes cannot
                // say so).
                var seeds = whole ? LivePhotoSeeds() : try Self.livePhotoSeeds(db, formerly: updated.compactMap(\.id) + removedIDs)
                for chunk in removedIDs.chunked(500) {
                    try PhotoRecord.filter(chunk.contains(PhotoRecord.Columns.id))
                        .updateAll(db, PhotoRecord.Columns.removedAt.set(to: stamp))
                }
                // Only rows whose path changes: a file read again where it was keeps its path,
                // and an update that changes nothing the outputs show raises no change stamp.
                _ = try db.executeInGroups(updated, width: 2) { count in
                    "UPDATE photo SET path = char(0) || photo.id FROM (VALUES \(Database.valuesList(count, width: 2))) AS r "
                        + "WHERE photo.id = r.column1 AND photo.path IS NOT r.column2"
                } values: { record, values in
                    values.append(record.id.databaseValue)
                    values.append(record.path.databaseValue)
                }
                for record in updated { try record.update(in: db) }
                try PhotoRecord.insert(new, in: db)
                if !whole { seeds.formUnion(try Self.livePhotoSeeds(db, written: new + updated)) }
                if linking {
                    if whole {
                        try Self.linkLivePhotos(db)
                        try TripSettingRecord.deleteOne(db, key: SettingKey.livePhotoLinksStale)
                    } else {
                        seeds.formUnion(try Self.pendingLivePhotoSeeds(db))
                        try Self.linkLivePhotos(db, around: seeds)
                    }
                    try db.execute(sql: "DELETE FROM livePhotoPending")
                } else if !whole {
                    try Self.addPendingLivePhotoSeeds(db, seeds)
                }
                try Self.bumpGeneration(db)
            }
        }
    }

    /// The photos changed since the last clustering.
    func photosPendingClustering() throws(GeoTripError) -> Set<Int64> {
        try attempt {
            try database.read { db in Set(try Int64.fetchAll(db, sql: "SELECT photoId FROM clusterPending")) }
        }
    }

    /// The stems and identifiers of the videos present and read: `photo_present_format`.
    static let presentVideosSQL = "SELECT stemKey, contentIdentifier FROM photo WHERE removedAt IS NULL AND status = 'read' AND format = 'video'"

    /// `ids` as a JSON array, for `json_each(?)`: one bound value for any number of ids.
    static func jsonList(_ ids: some Collection<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Links each Live Photo's video to its still (`LivePhotoPairing`) over every file present:
    /// the group around every video's stem and identifier (`linkLivePhotos(_:around:)`), which
    /// reads only the stills that share one with a video, through `photo_stem_key`.
    static func linkLivePhotos(_ db: Database) throws {
        var seeds = LivePhotoSeeds()
        let videos = try Row.fetchCursor(db, sql: presentVideosSQL)
        while let row = try videos.next() { seeds.add(stemKey: row[0], identifier: row[1]) }
        try linkLivePhotos(db, around: seeds)
    }

    // MARK: Trip settings and the resolution bookkeeping

    /// Keys of the `tripSetting` table.
    enum SettingKey {
        /// Bumped by every change to photos or tags; resolution runs when it differs from
        /// `resolvedGeneration`, so a run killed before resolving resolves next time.
        static let catalogGeneration = "catalogGeneration"
        static let resolvedGeneration = "resolvedGeneration"
        /// The latest plausible capture time up to which photos refused one as too late have
        /// been listed for resolution again (`listTimesPlausibleAgain`).
        static let plausibleUntil = "plausibleUntil"
        /// JSON of `ResolutionSettings`.
        static let resolution = "resolution"
        /// The settings and track files' sizes and times the last resolution used.
        static let resolvedInputs = "resolvedInputs"
        /// JSON of `ResolutionCounts`: the sources over the whole folder, as last resolved.
        static let resolvedCounts = "resolvedCounts"
        /// What the last clustering was computed from (thresholds, generation, inputs).
        static let clusteredFor = "clusteredFor"
        /// JSON of `ClusteringOptions`.
        static let clustering = "clustering"
        /// Raised by every clustering that changed a row of the layout (visits, places, their
        /// photos, the days): with the photos' change stamps, what the export renders from.
        static let layoutStamp = "layoutStamp"
        /// JSON of the `TripOverview` the last clustering produced.
        static let tripOverview = "tripOverview"
        /// The resolution (`resolvedGeneration|resolvedInputs`) the XMP sidecars last fully
        /// matched; when it differs, the sidecar stage has work left.
        static let sidecarsSynced = "sidecarsSynced"
        /// The zone index (`ZoneIndex.sourceKey`) the offline names were chosen with; when it
        /// differs, every place is named again (naming keeps to a border's side by zone).
        static let offlineNamesFor = "offlineNamesFor"
        /// JSON of `NamingSettings`.
        static let naming = "naming"
        /// JSON of `ExportSettings`.
        static let export = "export"
        /// JSON list of the `Coordinate`s of every home the folder has had as a library of trips
        /// (found or given; an older geotrip kept one): kept private whatever the folder is now
        /// (`ExportSettings.privacy(for:keptHomes:)`).
        static let keptHome = "keptHome"
        /// JSON list of the output folders used before the current one (`ExportSettings.outputFolder`,
        /// "" for the default), oldest first: the scan skips those inside the trip folder.
        static let earlierOutputFolders = "earlierOutputFolders"
        /// The output folder used before the current one, until an export has read the notes
        /// written there (`ExportStage`); "" for the default.
        static let notesLeftIn = "notesLeftIn"
        /// JSON list of the place ids whose manual names were said to have lost their place
        /// (`followManualNames`), so each is said once.
        static let manualNamesWaiting = "manualNamesWaiting"
        /// JSON of the dated journal backups the exports kept, with their size and time then
        /// (`ExportStage.recordBackups`), so one written in since is told.
        static let keptBackups = "keptBackups"
        /// JSON of what the last export found that stands until something changes
        /// (`StandingFacts`): an unchanged rerun says it again.
        static let standing = "standing"
        /// Present from a first read into an empty catalog (or left by a version before v21
        /// stopped mid-run) until the run's last transaction pairs the Live Photos whole
        /// (`Catalog.write`); other runs' batches keep their seeds in `livePhotoPending`.
        static let livePhotoLinksStale = "livePhotoLinksStale"
        /// What the outputs were last written from (`ExportStage.inputsKey`).
        static let exportedFor = "exportedFor"
        /// JSON list of the `Coordinate`s of the homes the last export that finished kept
        /// private: one hidden now that is not among them is a zone added
        /// (`ExportSummary.homesNewlyHidden`).
        static let homesHidden = "homesHidden"
        /// Each trip folder's last export (`ExportStage.ExportedTrip`), by folder.
        static let exportedTrips = "exportedTrips"
        /// JSON of the sorted cameras whose movie-header times the stored resolution read as
        /// local wall clocks (`VideoClock`): what the votes decided when it ran.
        static let videoClockCameras = "videoClockCameras"
        /// The photo folder the catalog is for, absolute with links resolved (`claim(folder:)`).
        static let photoFolder = "photoFolder"
        /// The folder the catalog last followed its folder from (`Catalog.rememberFolder`):
        /// the outputs of that folder, which was moved or copied, are this one's to take.
        static let formerPhotoFolder = "formerPhotoFolder"
        /// The catalog's own id (`identity`), which the output folder's owner file names.
        static let identity = "catalogIdentity"
    }

    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO tripSetting (key, value) VALUES (?, '1')
            ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
            """, arguments: [SettingKey.catalogGeneration])
    }

    /// One trip setting.
    func setting(_ key: String) throws(GeoTripError) -> String? {
        try attempt { try database.read { try TripSettingRecord.value($0, key) } }
    }

    /// The trip's remembered --tz, --clock-offset, --track and --write-xmp. `replacingZone`: a
    /// run given `--tz` (or `--tz none`), for which the remembered zone is not checked.
    func storedResolutionSettings(replacingZone: Bool = false) throws(GeoTripError) -> ResolutionSettings {
        let settings: ResolutionSettings = try storedJSON(SettingKey.resolution, options: Self.resolutionOptions) ?? ResolutionSettings()
        // A zone an older geotrip, a hand edit or another machine's time zone data stored is
        // checked like a given one.
        if !replacingZone, let zone = settings.assumedZone, AssumedZone(zone) == nil {
            throw .settingInvalid(catalog: path, option: "--tz", problem: "'\(zone)' is not a time zone")
        }
        return settings
    }

    /// Stores the run's resolution settings as the trip's remembered ones (when they differ).
    func remember(_ settings: ResolutionSettings) throws(GeoTripError) {
        let text: String
        do {
            text = String(decoding: try JSONEncoder.sorted.encode(settings), as: UTF8.self)
        } catch {
            throw .catalogRejected(path: path, reason: "the settings could not be stored: \(error)")
        }
        if try setting(SettingKey.resolution) != text { try setSetting(SettingKey.resolution, to: text) }
    }

    /// The trip's naming settings: each one given now, else the one remembered, else the default;
    /// what is given is remembered.
    func namingSettings(geocoder: String? = nil, nominatimURL: String? = nil, language: String? = nil,
                        contact: String? = nil) throws(GeoTripError) -> NamingSettings {
        let stored: NamingSettings = try storedJSON(SettingKey.naming, options: "--geocoder, --nominatim-url, --lang and --contact")
            ?? NamingSettings(language: NamingSettings.environmentLanguage)
        let settings = NamingSettings(geocoder: geocoder ?? stored.geocoder, nominatimURL: nominatimURL ?? stored.nominatimURL,
                                      language: language ?? stored.language, contact: contact ?? stored.contact)
        let storedText = try setting(SettingKey.naming)
        if settings != stored || storedText == nil {
            // (Rate and concurrency are the run's own, never stored: they compare equal here.)
            try setJSONSetting(SettingKey.naming, to: settings, what: "the naming settings")
        }
        return settings
    }

    /// The trip's remembered naming settings, without writing.
    func storedNamingSettings() throws(GeoTripError) -> NamingSettings {
        try storedJSON(SettingKey.naming, options: "--geocoder, --nominatim-url, --lang and --contact")
            ?? NamingSettings(language: NamingSettings.environmentLanguage)
    }

    /// The language the trip's names are shown in (`--lang`, remembered), without writing.
    func storedNamingLanguage() throws(GeoTripError) -> String {
        let stored: NamingSettings? = try storedJSON(SettingKey.naming, options: "--geocoder, --nominatim-url, --lang and --contact")
        return stored?.language ?? NamingSettings.environmentLanguage
    }

    /// The options whose values the `resolution` setting remembers.
    static let resolutionOptions = "--tz and --write-xmp (or --no-write-xmp), with any --clock-offset and --track the trip needs,"
    /// The options whose values the `clustering` setting remembers.
    static let clusteringOptionNames = "all of --visit-radius, --visit-gap, --place-radius and --day-starts"

    /// The trip's remembered clustering thresholds and day rule, without changing anything
    /// (for the listing commands, which open the catalog read-only).
    public func storedClusteringOptions() throws(GeoTripError) -> ClusteringOptions {
        try storedJSON(SettingKey.clustering, options: Self.clusteringOptionNames) ?? ClusteringOptions()
    }

    /// The trip's clustering thresholds: each one given now, else the one remembered, else the
    /// default. What is given is remembered; a remembered value out of range (from an older
    /// geotrip or a hand edit) that nothing given replaces is an error, never used.
    func clusteringOptions(visitRadius: Double? = nil, visitGap: TimeInterval? = nil,
                           placeRadius: Double? = nil, dayRule: LocalDayRule? = nil) throws(GeoTripError) -> ClusteringOptions {
        let stored: ClusteringOptions?
        do {
            stored = try storedClusteringOptions()
        } catch {
            // Every value given: what was remembered does not matter, even if it cannot be read.
            guard case .settingUnreadable = error, visitRadius != nil, visitGap != nil, placeRadius != nil, dayRule != nil else { throw error }
            stored = nil
        }
        let fallback = stored ?? ClusteringOptions()
        let options = ClusteringOptions(visitRadius: visitRadius ?? fallback.visitRadius, visitGap: visitGap ?? fallback.visitGap,
                                        placeRadius: placeRadius ?? fallback.placeRadius, dayRule: dayRule ?? fallback.dayRule)
        if let bad = options.outOfRange { throw .settingInvalid(catalog: path, option: bad.option, problem: bad.problem) }
        if options != stored {
            // Finite and in range, so encoding cannot fail; a failure would still be reported.
            do {
                try setSetting(SettingKey.clustering, to: String(decoding: try JSONEncoder.sorted.encode(options), as: UTF8.self))
            } catch {
                throw .catalogRejected(path: path, reason: "the clustering thresholds could not be stored: \(error)")
            }
        }
        return options
    }

    /// A setting stored as JSON; a value this geotrip cannot decode is refused, not silently
    /// replaced by defaults (that would re-resolve the trip with other settings).
    func storedJSON<T: Decodable>(_ key: String, options: String) throws(GeoTripError) -> T? {
        guard let text = try setting(key) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch {
            throw .settingUnreadable(catalog: path, key: key, options: options)
        }
    }

    /// Stores a value as a JSON trip setting; `what` names it if it cannot be encoded.
    func setJSONSetting<T: Encodable>(_ key: String, to value: T, what: String) throws(GeoTripError) {
        let text: String
        do {
            text = String(decoding: try JSONEncoder.sorted.encode(value), as: UTF8.self)
        } catch {
            throw .catalogRejected(path: path, reason: "\(what) could not be stored: \(error)")
        }
        try setSetting(key, to: text)
    }

    /// The setting `key` as JSON of `type`; nil when missing, and when it cannot be read (a
    /// derived record: what the next run works out again).
    func jsonSetting<T: Decodable>(_ key: String, as type: T.Type) throws(GeoTripError) -> T? {
        guard let stored = try setting(key) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(stored.utf8))
    }

    /// Stores one trip setting.
    func setSetting(_ key: String, to value: String) throws(GeoTripError) {
        try attempt {
            try database.write { try TripSettingRecord.set($0, key, to: value) }
        }
    }

    /// Forgets one trip setting.
    func removeSetting(_ key: String) throws(GeoTripError) {
        try attempt {
            try database.write { _ = try TripSettingRecord.deleteOne($0, key: key) }
        }
    }

    /// The files present, by kind: kept by triggers on every write of the photo table
    /// (`photoCounts`), so no run counts them.
    /// The cameras of the photos present, as `PhotoMetadata.camera` names them (one pass over
    /// the photos: asked only when a run is given a camera's clock offset).
    func cameras() throws(GeoTripError) -> Set<String> {
        try attempt {
            try database.read { db in
                Set(try Row.fetchAll(db, sql: "SELECT DISTINCT make, model FROM photo WHERE removedAt IS NULL AND status = 'read'")
                    .compactMap { PhotoMetadata(make: $0[0], model: $0[1]).camera })
            }
        }
    }

    func counts() throws(GeoTripError) -> CatalogCounts {
        try attempt {
            try database.read { db in
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT withGPS, withoutGPS, unreadable, skipped, videos, livePhotoVideos FROM photoCounts WHERE id = 1
                    """) else { return CatalogCounts() }
                return CatalogCounts(withGPS: row[0], withoutGPS: row[1], unreadable: row[2], skipped: row[3], videos: row[4], livePhotoVideos: row[5])
            }
        }
    }

    /// What each count adds up, for a photo row (`OLD` or `NEW`) present: each term is 0 or 1.
    /// The triggers of `v14-photo-counts` are written from these: a change to them needs a
    /// migration that writes the triggers again.
    static func countTerms(_ row: String) -> [(column: String, term: String)] {
        let read = "\(row).status IS 'read'"
        return [("withGPS", "\(read) AND \(row).latitude IS NOT NULL"), ("withoutGPS", "\(read) AND \(row).latitude IS NULL"),
                ("unreadable", "\(row).status IS 'unreadable'"), ("skipped", "\(row).status NOT IN ('read', 'unreadable')"),
                ("videos", "\(read) AND \(row).format IS 'video'"),
                ("livePhotoVideos", "\(read) AND \(row).format IS 'video' AND \(row).liveStillId IS NOT NULL")]
    }

    /// The files present, counted in one pass over the table (the triggers' starting point,
    /// and what tests check them against).
    static func countPhotos(_ db: Database) throws -> CatalogCounts {
        let terms = countTerms("photo")
        guard let row = try Row.fetchOne(db, sql: "SELECT \(terms.map { "total(\($0.term))" }.joined(separator: ", ")) FROM photo WHERE removedAt IS NULL")
        else { return CatalogCounts() }
        func count(_ index: Int) -> Int { Int(row[index] as Double) }
        return CatalogCounts(withGPS: count(0), withoutGPS: count(1), unreadable: count(2), skipped: count(3), videos: count(4), livePhotoVideos: count(5))
    }

    /// The photo at a path with a status (`read`, `unreadable`): `photo_present_path`.
    static let photoAtPathSQL = "SELECT id FROM photo WHERE path = ? AND removedAt IS NULL AND status = ?"

    /// `path`, and its spellings in the other Unicode normal forms when they differ in bytes:
    /// a name typed composed finds a file macOS wrote decomposed (the catalog compares paths
    /// byte for byte, and a terminal shows both alike). The path as given is tried first.
    static func spellings(of path: String) -> [String] {
        var forms = [path]
        for form in [path.precomposedStringWithCanonicalMapping, path.decomposedStringWithCanonicalMapping]
        where !forms.contains(where: { PathKey($0) == PathKey(form) }) {
            forms.append(form)
        }
        return forms
    }

    /// The photo read at `path`, or at another spelling of it (`spellings(of:)`); failing
    /// those, the one photo whose path is the same text in mixed spellings (a folder named
    /// decomposed holding a name typed composed), found among those of its file name.
    private static func photoID(at path: String, _ db: Database, status: String = "read") throws -> Int64? {
        for form in spellings(of: path) {
            if let id = try Int64.fetchOne(db, sql: photoAtPathSQL, arguments: [form, status]) { return id }
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var found = Set<Int64>()
        for form in spellings(of: name) {
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, path FROM photo WHERE (path = ?1 OR substr(path, -length(?1) - 1) = '/' || ?1) AND removedAt IS NULL AND status = ?2
                """, arguments: [form, status])
            // Swift's `==` on text is canonical equivalence: the same name, spelt either way.
            for row in rows where (row[1] as String) == path { found.insert(row[0]) }
        }
        return found.count == 1 ? found.first : nil
    }

    /// The positions of their own (read from the file: EXIF, QuickTime or XMP) of the photos
    /// at `paths`, each photo once, which a tag outranks.
    func ownPositions(paths: [String]) throws(GeoTripError) -> [Coordinate] {
        try attempt {
            try database.read { db in
                var seen = Set<Int64>()
                return try paths.compactMap { path -> Coordinate? in
                    guard let id = try Self.photoID(at: path, db), seen.insert(id).inserted,
                          let row = try Row.fetchOne(db, sql: "SELECT latitude, longitude FROM photo WHERE id = ? AND latitude IS NOT NULL", arguments: [id])
                    else { return nil }
                    return Coordinate(latitude: row[0], longitude: row[1])
                }
            }
        }
    }

    /// Tags photos with a position (or clears their tags with `location` nil), all or none:
    /// a path that is not a photo in the catalog changes nothing and is named in the error.
    /// Returns how many photos were tagged or had a tag cleared (a photo named twice, in both
    /// Unicode spellings, is one).
    @discardableResult
    func tag(paths: [String], with location: (coordinate: Coordinate, place: String?, uncertaintyMeters: Double)?, at time: Date) throws(GeoTripError) -> Int {
        let stamp = time.geotripISO8601 ?? ""
        return try attempt {
            try database.write { db in
                var ids: [Int64] = []
                var unknown: [String] = []
                for path in paths {
                    if let id = try Self.photoID(at: path, db) {
                        // One photo named in both spellings is tagged once.
                        if !ids.contains(id) { ids.append(id) }
                    } else {
                        unknown.append(path)
                    }
                }
                if !unknown.isEmpty {
                    let unreadable = try unknown.filter { try Self.photoID(at: $0, db, status: "unreadable") != nil }
                    let missing = unknown.filter { !unreadable.contains($0) }
                    // The photos of the same file name elsewhere in the folder (a name given
                    // without its subfolder), a few of each.
                    var alike: [String] = []
                    for path in missing.prefix(3) {
                        let name = path.split(separator: "/").last.map(String.init) ?? path
                        alike += try String.fetchAll(db, sql: """
                            SELECT path FROM photo WHERE (path = ?1 OR substr(path, -length(?1) - 1) = '/' || ?1)
                            AND removedAt IS NULL AND status = 'read' ORDER BY path LIMIT 3
                            """, arguments: [name])
                    }
                    throw unreadable.count == unknown.count ? GeoTripError.unreadablePhotos(paths: unreadable)
                        : GeoTripError.notInCatalog(paths: missing, alike: alike)
                }
                var changed = 0
                for id in ids {
                    if let location {
                        try ManualTagRecord(photoId: id, latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                                            place: location.place, uncertaintyMeters: location.uncertaintyMeters, taggedAt: stamp).upsert(db)
                        changed += 1
                    } else if try ManualTagRecord.deleteOne(db, key: id) {
                        changed += 1
                    }
                }
                if changed > 0 { try Self.bumpGeneration(db) }
                return changed
            }
        }
    }

    /// What the outputs keep private of `visits` beside `zones`: the visits as they are shared
    /// (`shared(visits:leavingOut:)`: one whose every photo lies inside the zones is private),
    /// and the zones around those placed only from a hidden neighbour, each with the visit it
    /// hides (`neighbourZones`). The export's layout, `trips` and the online names' queue all
    /// ask this, so nothing the outputs hide is sent anywhere.
    func keptPrivate(_ zones: PrivacyZones, among visits: [TripVisit]) throws(GeoTripError)
        -> (shared: [TripVisit], neighbourZones: [(visit: String, zone: PrivacyZones.Zone)]) {
        let shared = try shared(visits: visits, leavingOut: zones)
        return (shared, try neighbourZones(zones, in: shared))
    }

    /// The zones around the visits of `visits` placed only from a hidden neighbour
    /// (`PrivacyZones.neighbourZones`), each with the visit it hides.
    func neighbourZones(_ zones: PrivacyZones, in visits: [TripVisit]) throws(GeoTripError) -> [(visit: String, zone: PrivacyZones.Zone)] {
        try zones.neighbourZones(of: visits) { ids throws(GeoTripError) in try visitsPlacedByNeighbours(ids) }
    }

    /// Of the visits `ids`, those whose every photo was placed by its neighbours in time
    /// (`interpolated`), strays aside (`VisitCluster.strayIDs`: a visit of neighbours' positions
    /// is no less one for a phone's bad fix that joined it): read through
    /// `visitPhoto_on_visitId`, a visit at a time.
    func visitsPlacedByNeighbours(_ ids: [String]) throws(GeoTripError) -> Set<String> {
        try attempt {
            try database.read { db in
                var placed = Set<String>()
                for id in ids {
                    let row = try Row.fetchOne(db, sql: """
                        SELECT count(*), sum(p.locationSource = 'interpolated') FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId
                        WHERE vp.visitId = ? AND NOT vp.stray
                        """, arguments: [id])
                    if let row, let count: Int = row[0], count > 0, let interpolated: Int = row[1], interpolated == count { placed.insert(id) }
                }
                return placed
            }
        }
    }

    /// The place of the visit `id`, when there is one.
    func placeOfVisit(_ id: String) throws(GeoTripError) -> String? {
        try attempt { try database.read { db in try String.fetchOne(db, sql: "SELECT placeId FROM visit WHERE id = ?", arguments: [id]) } }
    }

    /// How many of the photos at `paths` are in no visit: without a time to place them in
    /// one (a tag gives a position, not a time).
    func photosInNoVisit(paths: [String]) throws(GeoTripError) -> Int {
        try attempt {
            try database.read { db in
                var count = 0
                for path in paths {
                    count += try Int.fetchOne(db, sql: """
                        SELECT count(*) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
                        WHERE p.path = ? AND p.removedAt IS NULL AND p.status = 'read' AND vp.photoId IS NULL AND p.liveStillId IS NULL
                        """, arguments: [path]) ?? 0
                }
                return count
            }
        }
    }

    /// The photos present (read or unreadable), by path: `photo_present_path` gives the order.
    static var presentPhotosByPath: QueryInterfaceRequest<PhotoRecord> {
        PhotoRecord.filter(PhotoRecord.Columns.removedAt == nil && PhotoRecord.Columns.status != FileReading.Status.skipped)
            .order(PhotoRecord.Columns.path)
    }

    /// The photos present in the folder (read or unreadable; skipped files are not photos),
    /// ordered by path.
    public func photos() throws(GeoTripError) -> [CatalogPhoto] {
        var photos: [CatalogPhoto] = []
        try forEachPhoto { photos.append($0) }
        return photos
    }

    /// Calls `body` with each photo present (read or unreadable), by path, as it is read: a
    /// library's listing is printed without holding the catalog in memory. An error `body`
    /// throws stops the reading and is passed on.
    public func forEachPhoto(_ body: (CatalogPhoto) throws -> Void) throws(GeoTripError) {
        try streaming { db in
            // The stills of Live Photos' videos, by the video's id (a few rows).
            var stills: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: Self.livePhotoStillsSQL) { stills[row[0]] = row[1] }
            let records = try Self.presentPhotosByPath.fetchCursor(db)
            while let record = try records.next() {
                var photo = CatalogPhoto(record)
                photo.livePhotoStill = record.id.flatMap { stills[$0] }
                try body(photo)
            }
        }
    }

    /// `body` in one read, its rows handed on as they come: the catalog's errors said as the
    /// catalog's, a `GeoTripError` of the body's as it is.
    private func streaming(_ body: (Database) throws -> Void) throws(GeoTripError) {
        do {
            try database.read(body)
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// A file of the folder that is no photo geotrip reads (`geotrip photos --skipped`).
    public struct SkippedFile: Sendable, Equatable, Encodable {
        public var path: String
        /// Why it was not read as a photo ("not an image format geotrip reads").
        public var reason: String?
        public var fileSize: Int64
    }

    /// Calls `body` with each file present that was skipped, by path: the rows are read as
    /// they are printed.
    public func forEachSkippedFile(_ body: (SkippedFile) throws -> Void) throws(GeoTripError) {
        try streaming { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT path, skipReason, fileSize FROM photo WHERE removedAt IS NULL AND status = 'skipped' ORDER BY path
                """)
            while let row = try rows.next() { try body(SkippedFile(path: row[0], reason: row[1], fileSize: row[2])) }
        }
    }

    /// Each present Live Photo video's id and its still's path.
    static let livePhotoStillsSQL = """
        SELECT v.id, s.path FROM photo v JOIN photo s ON s.id = v.liveStillId
        WHERE v.liveStillId IS NOT NULL AND v.removedAt IS NULL AND s.removedAt IS NULL
        """
}

extension Array {
    /// The array in consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

/// The SQL functions of geotrip's own that the catalog's queries use, added to every
/// connection.
enum CatalogFunctions {
    /// `geotrip_metres(lat1, lon1, lat2, lon2)`: metres between two points on a great circle
    /// (`GreatCircle.distance`); NULL when a value is missing.
    static let metres = DatabaseFunction("geotrip_metres", argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return GreatCircle.distance(Coordinate(latitude: numbers[0], longitude: numbers[1]), Coordinate(latitude: numbers[2], longitude: numbers[3]))
    }

    static func add(to db: Database) {
        db.add(function: metres)
    }
}
