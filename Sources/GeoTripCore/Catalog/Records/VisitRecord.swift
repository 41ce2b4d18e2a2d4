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
    /// How many photos `visitPhoto` gives it (`Catalog.saveLayout` keeps the two in step).
    var photoCount: Int
    /// Its centre's point on the unit sphere, by which the visits near a place are found
    /// (`visit_position`; derived from the centre, never set apart from it).
    private(set) var unitX: Double
    private(set) var unitY: Double
    private(set) var unitZ: Double

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let arrival = Column(CodingKeys.arrival)
    }

    /// Decoded by column name directly: through `Decodable`, reading a million photos' 426,000
    /// visits for clustering took seconds.
    init(row: Row) throws {
        id = row["id"]
        placeId = row["placeId"]
        revision = row["revision"]
        latitude = row["latitude"]
        longitude = row["longitude"]
        radiusMeters = row["radiusMeters"]
        arrival = row["arrival"]
        departure = row["departure"]
        localDate = row["localDate"]
        timeZone = row["timeZone"]
        photoCount = row["photoCount"]
        (unitX, unitY, unitZ) = Self.unit(latitude, longitude)
    }

    /// Creates a record.
    init(id: String, placeId: String, revision: Int, latitude: Double, longitude: Double, radiusMeters: Double, arrival: String,
         departure: String, localDate: String, timeZone: String?, photoCount: Int) {
        self.id = id
        self.placeId = placeId
        self.revision = revision
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMeters = radiusMeters
        self.arrival = arrival
        self.departure = departure
        self.localDate = localDate
        self.timeZone = timeZone
        self.photoCount = photoCount
        (unitX, unitY, unitZ) = Self.unit(latitude, longitude)
    }

    /// Inserts the visit or replaces every column of the one with its id: what `upsert` does,
    /// as one cached statement. Through `upsert`, which reads the row back, storing a day's
    /// few hundred visits took tens of milliseconds.
    static let upsertSQL = """
        INSERT INTO visit (id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone, unitX, unitY, unitZ,
            photoCount)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET placeId = excluded.placeId, revision = excluded.revision, latitude = excluded.latitude,
            longitude = excluded.longitude, radiusMeters = excluded.radiusMeters, arrival = excluded.arrival,
            departure = excluded.departure, localDate = excluded.localDate, timeZone = excluded.timeZone,
            unitX = excluded.unitX, unitY = excluded.unitY, unitZ = excluded.unitZ, photoCount = excluded.photoCount
        """

    /// `upsertSQL`'s arguments.
    var upsertArguments: StatementArguments {
        [id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone, unitX, unitY, unitZ, photoCount]
    }

    /// A centre's point on the unit sphere.
    static func unit(_ latitude: Double, _ longitude: Double) -> (Double, Double, Double) {
        let v = GreatCircle.unitVector(latitude: latitude, longitude: longitude)
        return (v.x, v.y, v.z)
    }
}
