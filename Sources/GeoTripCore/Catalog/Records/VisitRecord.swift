import GRDB

/// A visit as clustering left it; its photos are in `visitPhoto`.
struct VisitRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "visit"

    var id: String
    var placeId: String
    var revision: Int
    var latitude: Double
    var longitude: Double
    var radiusMeters: Double
    /// UTC, `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    var arrival: String
    var departure: String
    /// The traveller's day of its arrival (`LocalDayRule`).
    var localDate: String
    /// The zone of its first photo with one.
    var timeZone: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let arrival = Column(CodingKeys.arrival)
    }
}
