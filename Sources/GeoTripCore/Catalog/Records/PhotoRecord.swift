import Foundation
import GRDB

/// One file of the trip folder as the catalog keeps it. Skipped and unreadable files are kept
/// too, so that a rerun does not look at them again until they change.
struct PhotoRecord: FetchableRecord, MutablePersistableRecord, Sendable, Equatable {
    static let databaseTableName = "photo"

    /// Stable identity: survives moves and renames inside the folder, and later stages
    /// (visits, journal entries) hang on it.
    var id: Int64?
    /// Path relative to the trip folder, with `/` separators.
    var path: String
    var fileSize: Int64
    /// Modification time in nanoseconds since 1970, as `stat` gave it.
    var modifiedNanos: Int64
    var fingerprint: String
    var status: FileReading.Status
    var format: ImageFormat?
    var skipReason: String?
    /// The photo's own position (`positionSource` says from where).
    var latitude: Double?
    var longitude: Double?
    /// Where `latitude`/`longitude` came from: `exif`, `xmp` or `sidecar` (nil: `exif`, as in
    /// rows read before XMP was).
    var positionSource: LocationSource?
    var altitude: Double?
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    var gpsTime: String?
    /// `YYYY-MM-DDTHH:MM:SS[.fff]`, the camera's wall clock.
    var localTime: String?
    /// `+HH:MM`.
    var utcOffset: String?
    var timeField: CaptureTimeField?
    var make: String?
    var model: String?
    var orientation: Int?
    var width: Int?
    var height: Int?
    var thumbnailOffset: Int64?
    var thumbnailLength: Int64?
    /// Stored as a JSON array.
    var diagnostics: [String]
    /// `MetadataReader.version` that read the file.
    var readerVersion: Int
    /// When the file was found missing; nil while it is in the folder.
    var removedAt: String?
    /// `ScannedFile.sidecarStamp` of the XMP sidecars beside it when it was read.
    var sidecars: String? = nil
    // Set by the resolution stage (`TripResolution`), nil until it runs.
    var utcTime: String? = nil
    var timeZone: String? = nil
    var timeSource: TimeSource? = nil
    var resolvedLatitude: Double? = nil
    var resolvedLongitude: Double? = nil
    var locationSource: LocationSource? = nil
    var uncertaintyMeters: Double? = nil
    // Videos (v8): length, Apple's content identifier, and for a Live Photo's video the id of
    // its still (set by `Catalog.linkLivePhotos`, nil until it runs). Every row also keeps its
    // path's `LivePhotoPairing.stemKey` (v21), written from the path, never read back.
    var durationSeconds: Double? = nil
    var contentIdentifier: String? = nil
    var liveStillId: Int64? = nil
    /// `FileReading.pixelKey` (v23): names the photo's thumbnail.
    var pixelKey: Int64? = nil

    enum Columns {
        static let id = Column("id")
        static let path = Column("path")
        static let status = Column("status")
        static let removedAt = Column("removedAt")
        static let fingerprint = Column("fingerprint")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension PhotoRecord {
    /// A record for `file` holding what `reading` found.
    init(file: ScannedFile, reading: FileReading) {
        let m = reading.metadata
        self.init(
            id: nil, path: file.relativePath, fileSize: file.size, modifiedNanos: file.modifiedNanos,
            fingerprint: reading.fingerprint, status: reading.status, format: reading.format, skipReason: reading.skipReason,
            latitude: m.coordinate?.latitude, longitude: m.coordinate?.longitude, positionSource: m.positionSource, altitude: m.altitude,
            gpsTime: m.gpsTime?.iso8601, localTime: m.localTime?.iso8601, utcOffset: m.offset?.description,
            timeField: m.timeField, make: m.make, model: m.model, orientation: m.orientation,
            width: m.width, height: m.height,
            thumbnailOffset: m.thumbnail.map { Int64($0.offset) }, thumbnailLength: m.thumbnail.map { Int64($0.length) },
            diagnostics: m.diagnostics.map(\.message), readerVersion: MetadataReader.version, removedAt: nil,
            // Kept whatever the status, so a skipped file with a sidecar (a CR3 beside
            // Lightroom's IMG_1234.xmp) is not read again on every run.
            sidecars: file.sidecarStamp(geotrips: Dictionary(reading.geotripSidecars.map { (file.sidecars[$0].relativePath, true) }) { a, _ in a },
                                        unread: Set(reading.unreadSidecars.map { file.sidecars[$0].relativePath })))
        durationSeconds = m.durationSeconds
        contentIdentifier = m.contentIdentifier
        pixelKey = reading.pixelKey
    }
}

extension FileReading.Status: DatabaseValueConvertible {}
extension ImageFormat: DatabaseValueConvertible {}
extension CaptureTimeField: DatabaseValueConvertible {}
extension TimeSource: DatabaseValueConvertible {}
extension LocationSource: DatabaseValueConvertible {}

// Written by hand instead of GRDB's Codable bridge: an ingest writes every row and resolution
// reads them all, and going through Encoder/Decoder cost as much as reading the photos. The
// kinds (status, format, sources, time field) are decoded with `decode`, which throws on a
// value no case has (a hand edit, a damaged page) where a subscript would stop the process.
extension PhotoRecord {
    init(row: Row) throws {
        let diagnosticsJSON: String = row["diagnostics"]
        self.init(
            id: row["id"], path: row["path"], fileSize: row["fileSize"], modifiedNanos: row["modifiedNanos"],
            fingerprint: row["fingerprint"], status: try row.decode(forColumn: "status"), format: try row.decode(forColumn: "format"), skipReason: row["skipReason"],
            latitude: row["latitude"], longitude: row["longitude"], positionSource: try row.decode(forColumn: "positionSource"),
            altitude: row["altitude"], gpsTime: row["gpsTime"],
            localTime: row["localTime"], utcOffset: row["utcOffset"], timeField: try row.decode(forColumn: "timeField"), make: row["make"],
            model: row["model"], orientation: row["orientation"], width: row["width"], height: row["height"],
            thumbnailOffset: row["thumbnailOffset"], thumbnailLength: row["thumbnailLength"],
            diagnostics: diagnosticsJSON == "[]" ? [] : (try? JSONDecoder().decode([String].self, from: Data(diagnosticsJSON.utf8))) ?? [diagnosticsJSON],
            readerVersion: row["readerVersion"], removedAt: row["removedAt"], sidecars: row["sidecars"],
            utcTime: row["utcTime"], timeZone: row["timeZone"], timeSource: try row.decode(forColumn: "timeSource"),
            resolvedLatitude: row["resolvedLatitude"], resolvedLongitude: row["resolvedLongitude"],
            locationSource: try row.decode(forColumn: "locationSource"), uncertaintyMeters: row["uncertaintyMeters"],
            durationSeconds: row["durationSeconds"], contentIdentifier: row["contentIdentifier"], liveStillId: row["liveStillId"],
            pixelKey: row["pixelKey"])
    }

    func encode(to container: inout PersistenceContainer) throws {
        for (name, value) in zip(Self.columnNames, columnValues) { container[name] = value }
    }

    /// Every column, in the order of `columnValues`.
    static let columnNames = [
        "id", "path", "fileSize", "modifiedNanos", "fingerprint", "status", "format", "skipReason",
        "latitude", "longitude", "positionSource", "altitude", "gpsTime", "localTime", "utcOffset", "timeField",
        "make", "model", "orientation", "width", "height", "thumbnailOffset", "thumbnailLength",
        "diagnostics", "readerVersion", "removedAt", "sidecars",
        "utcTime", "timeZone", "timeSource", "resolvedLatitude", "resolvedLongitude", "locationSource", "uncertaintyMeters",
        "durationSeconds", "contentIdentifier", "liveStillId", "pixelKey", "stemKey",
    ]

    /// The record's values, in the order of `columnNames`: `insert(in:)` binds them by
    /// position, and `encode(to:)` names them for GRDB's own persistence.
    var columnValues: [(any DatabaseValueConvertible)?] {
        [
            id, path, fileSize, modifiedNanos, fingerprint, status, format, skipReason,
            latitude, longitude, positionSource, altitude, gpsTime, localTime, utcOffset, timeField,
            make, model, orientation, width, height, thumbnailOffset, thumbnailLength,
            Self.json(diagnostics), readerVersion, removedAt, sidecars,
            utcTime, timeZone, timeSource, resolvedLatitude, resolvedLongitude, locationSource, uncertaintyMeters,
            durationSeconds, contentIdentifier, liveStillId, pixelKey, LivePhotoPairing.stemKey(path),
        ]
    }

    /// Inserts the records as new rows, a group of rows per statement (`executeInGroups`). A
    /// fresh ingest inserts every photo, and GRDB's `insert` (a dictionary of columns per
    /// record, the statement looked up by its text) was four fifths of the writer's time.
    static func insert(_ records: [PhotoRecord], in db: Database) throws {
        _ = try db.executeInGroups(records, width: columnNames.count) { count in
            "INSERT INTO photo (" + columnNames.joined(separator: ", ") + ") VALUES " + Database.valuesList(count, width: columnNames.count)
        } values: { record, values in
            for value in record.columnValues { values.append(value?.databaseValue ?? .null) }
        }
    }

    /// Writes a reading of the file over its row: the columns whose value differs, alone. A
    /// rerun after a reader change reads every photo again and updates them all, and SQLite
    /// rewrites the entry of every index on a column an UPDATE sets, to the same value or not:
    /// a row written whole put a dozen index pages in the log for each file read again.
    /// Throws GRDB's `recordNotFound`, as its `update` does, when no row has the record's id.
    ///
    /// What later stages derived for the row stays when the reading gives them nothing new to
    /// work from: the resolution's result when every column it reads (`resolutionInputs`) is as
    /// stored, and a video's Live Photo link (the pairing at the end of the run decides it
    /// again for every file read: `Catalog.write`; any other reading has none, as the pairing
    /// skips what is not a present video). A photo whose metadata another program edited (a
    /// rating, keywords), its time and place untouched, is then read again and nothing after
    /// the read has work: its row raises no pending resolution or clustering, and no change
    /// stamp (`v24-output-stamps`).
    func update(in db: Database) throws {
        guard let id else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: ["id": .null]) }
        guard let stored = try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM photo WHERE id = ?"), arguments: [id]) else {
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: ["id": id.databaseValue])
        }
        let reading = Dictionary(uniqueKeysWithValues: zip(Self.columnNames, columnValues.map { $0?.databaseValue ?? .null }))
        let inputsAsStored = Self.resolutionInputs.allSatisfy { reading[$0] == stored[$0] }
        let keepsLink = status == .read && format == .video
        let changed = Self.columnNames.dropFirst().filter { column in
            if inputsAsStored && Self.resolutionResults.contains(column) { return false }
            if keepsLink && column == "liveStillId" { return false }
            return reading[column] != stored[column]
        }
        guard !changed.isEmpty else { return }
        let sql = "UPDATE photo SET " + changed.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(changed.map { reading[$0]! } + [id.databaseValue]))
    }

    /// The columns the resolution reads of a photo's own row (the triggers of `v12-resolve-pending`
    /// watch the same, with the results).
    static let resolutionInputs = ["localTime", "utcOffset", "gpsTime", "make", "model", "latitude", "longitude", "positionSource",
                                   "format", "timeField", "removedAt", "status"]
    /// The columns the resolution writes.
    static let resolutionResults = ["utcTime", "timeZone", "timeSource", "resolvedLatitude", "resolvedLongitude", "locationSource",
                                    "uncertaintyMeters"]

    /// A JSON array of strings, escaped by hand (most photos have none, and JSONEncoder is slow).
    static func json(_ strings: [String]) -> String {
        guard !strings.isEmpty else { return "[]" }
        let data = (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension PhotoRecord {
    /// The position the photo's own GPS tags (or its XMP, or a sidecar: `positionSource`) gave.
    var exifCoordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
