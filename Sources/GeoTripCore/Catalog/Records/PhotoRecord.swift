import GRDB

/// One file of the trip folder as the catalog keeps it. Skipped and unreadable files are kept
/// too, so that a rerun does not look at them again until they change.
struct PhotoRecord: Codable, FetchableRecord, MutablePersistableRecord, Sendable, Equatable {
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
    var latitude: Double?
    var longitude: Double?
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
    // Set by the resolution stage (`TripResolution`), nil until it runs.
    var utcTime: String? = nil
    var timeZone: String? = nil
    var timeSource: TimeSource? = nil
    var resolvedLatitude: Double? = nil
    var resolvedLongitude: Double? = nil
    var locationSource: LocationSource? = nil
    var uncertaintyMeters: Double? = nil

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let path = Column(CodingKeys.path)
        static let status = Column(CodingKeys.status)
        static let removedAt = Column(CodingKeys.removedAt)
        static let fingerprint = Column(CodingKeys.fingerprint)
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
            latitude: m.coordinate?.latitude, longitude: m.coordinate?.longitude, altitude: m.altitude,
            gpsTime: m.gpsTime?.iso8601, localTime: m.localTime?.iso8601, utcOffset: m.offset?.description,
            timeField: m.timeField, make: m.make, model: m.model, orientation: m.orientation,
            width: m.width, height: m.height,
            thumbnailOffset: m.thumbnail.map { Int64($0.offset) }, thumbnailLength: m.thumbnail.map { Int64($0.length) },
            diagnostics: m.diagnostics, readerVersion: MetadataReader.version, removedAt: nil)
    }
}

extension FileReading.Status: DatabaseValueConvertible {}
extension ImageFormat: DatabaseValueConvertible {}
extension CaptureTimeField: DatabaseValueConvertible {}
extension TimeSource: DatabaseValueConvertible {}
extension LocationSource: DatabaseValueConvertible {}
