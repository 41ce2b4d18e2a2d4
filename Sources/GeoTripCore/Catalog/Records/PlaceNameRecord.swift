import GRDB

/// A place's name from one source in one language, with what it was made for.
struct PlaceNameRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "placeName"

    var placeId: String
    var source: NameSource
    /// BCP 47; "" for the gazetteer's single names.
    var language: String
    /// The place's revision and centre when the name was made.
    var revision: Int
    var latitude: Double
    var longitude: Double
    var name: String?
    var admin1: String?
    var country: String?
    var countryCode: String?
    /// ISO 8601.
    var namedAt: String

    enum Columns {
        static let placeId = Column(CodingKeys.placeId)
        static let source = Column(CodingKeys.source)
        static let language = Column(CodingKeys.language)
    }

    /// The stored name as the naming stage sees it.
    var stored: StoredPlaceName {
        StoredPlaceName(madeFor: NamedFor(placeID: placeId, revision: revision, centre: Coordinate(latitude: latitude, longitude: longitude)),
                        source: source, language: language,
                        name: PlaceName(name: name, admin1: admin1, country: country, countryCode: countryCode))
    }
}
