import Foundation

/// The fields of a jsonv2 `/reverse` answer (or one `/search` result) that geotrip uses; every
/// one may be absent. Shapes from Nominatim's "Place Output" documentation.
struct NominatimPlace: Decodable, Sendable {
    struct Address: Decodable, Sendable {
        var amenity, tourism, historic, road, neighbourhood, suburb, quarter, village, town, city, municipality, state, country: String?
        var countryCode: String?

        enum CodingKeys: String, CodingKey {
            case amenity, tourism, historic, road, neighbourhood, suburb, quarter, village, town, city, municipality, state, country
            case countryCode = "country_code"
        }
    }

    var name: String?
    var displayName: String?
    var category: String?
    var type: String?
    var addresstype: String?
    var placeRank: Int?
    var address: Address?
    /// Decimal degrees as text, as Nominatim sends them.
    var lat: String?
    var lon: String?
    /// `Unable to geocode`: the open sea, an answer with nothing there.
    var error: String?
    /// `[south, north, west, east]` as text, as Nominatim sends it.
    var boundingbox: [String]?

    enum CodingKeys: String, CodingKey {
        case name, category, type, addresstype, address, error, lat, lon, boundingbox
        case displayName = "display_name"
        case placeRank = "place_rank"
    }

    /// Where the answer's object is, when it says so with a position: on the globe, and not
    /// 0,0 (what a service with nothing there may send, and never a position to geotrip).
    var coordinate: Coordinate? {
        guard let lat = lat.flatMap(Double.init), let lon = lon.flatMap(Double.init),
              (-90...90).contains(lat), (-180...180).contains(lon), !(lat == 0 && lon == 0) else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// Whether the object's bounding box holds `point` (a vast area's middle can lie far from
    /// a point inside it); false without a box.
    func covers(_ point: Coordinate) -> Bool {
        guard let box = boundingbox?.compactMap(Double.init), box.count == 4 else { return false }
        return (box[0]...max(box[0], box[1])).contains(point.latitude) && (box[2]...max(box[2], box[3])).contains(point.longitude)
    }

    /// The object's own name, when it has a non-empty one.
    var ownName: String? { name.flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether the object is somewhere a traveller goes and names: see `NominatimPlace.sightCategories`.
    var isSight: Bool {
        let category = category ?? ""
        return Self.sightCategories.contains(category) || (category == "amenity" && Self.visitedAmenities.contains(type ?? ""))
    }

    /// The categories whose named objects are sights in themselves.
    static let sightCategories: Set<String> = ["tourism", "historic", "leisure", "natural"]
    /// The `amenity` values that are places people visit (not benches, bins or parking).
    static let visitedAmenities: Set<String> = [
        "arts_centre", "bar", "biergarten", "cafe", "cinema", "fast_food", "food_court", "ice_cream", "library", "marketplace",
        "monastery", "place_of_worship", "pub", "restaurant", "theatre", "townhall", "university", "fountain", "planetarium",
    ]

    /// The name by the stated rule: a named sight first, then the neighbourhood, suburb or
    /// quarter, then the village, town or city; the object's own name only when nothing else
    /// is known. Region and country are kept apart. Nil for the sea's error answer.
    var placeName: PlaceName? {
        if error != nil { return nil }
        let display = (isSight ? ownName : nil)
            ?? address?.neighbourhood ?? address?.suburb ?? address?.quarter
            ?? address?.village ?? address?.town ?? address?.city ?? address?.municipality ?? ownName
        return PlaceName(name: display, admin1: address?.state, country: address?.country, countryCode: address?.countryCode?.uppercased())
    }

    /// Decodes one answer, or says which field is wrong for `subject` (a place id or a query).
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, subject: String) throws(GeoTripError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .namingAnswerUnreadable(place: subject, reason: decodingProblem(error))
        }
    }

    static func decodingProblem(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(let type, let context)? where context.codingPath.isEmpty:
            // JSON, but not the shape: an object where the search's list of results goes.
            return "it is JSON, but not " + (type is any Collection.Type ? "the list of results" : "the object") + " Nominatim sends"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? "it is not JSON" : "the field '\(field)' is not what Nominatim sends"
        case .keyNotFound(let key, _)?:
            return "the field '\(key.stringValue)' is missing"
        default:
            return "it is not JSON"
        }
    }
}
