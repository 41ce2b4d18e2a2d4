import GRDB

/// A position the person gave a photo with `geotrip tag`; nothing geotrip infers replaces it.
struct ManualTagRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "manualTag"

    var photoId: Int64
    var latitude: Double
    var longitude: Double
    /// The place name it was tagged by, when it was (`--place`).
    var place: String?
    var uncertaintyMeters: Double
    /// ISO 8601.
    var taggedAt: String

    enum Columns {
        static let photoId = Column(CodingKeys.photoId)
    }
}
