import GRDB

/// A place as clustering left it (its names are in `PlaceNameRecord`).
struct PlaceRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "place"

    var id: String
    var revision: Int
    var latitude: Double
    var longitude: Double
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`: its first visit's arrival.
    var start: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let revision = Column(CodingKeys.revision)
    }
}
