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

    /// Inserts the place or replaces every column of the one with its id, as `upsert` does
    /// (see `VisitRecord.upsertSQL`).
    static let upsertSQL = """
        INSERT INTO place (id, revision, latitude, longitude, start) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, latitude = excluded.latitude,
            longitude = excluded.longitude, start = excluded.start
        """

    /// `upsertSQL`'s arguments.
    var upsertArguments: StatementArguments { [id, revision, latitude, longitude, start] }
}
