import Foundation

/// The fields of a jsonv2 `/reverse` answer (or one `/search` result) that geotrip uses; every
/// one may be absent, and a text of only spaces counts as absent (`nonBlank`): a name or
/// country sent empty never replaces the offline one. The fields geotrip does not use are not
/// read, so an odd value there (`place_rank: 30.5`) spoils nothing. Shapes from Nominatim's
/// "Place Output" documentation.
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
    var address: Address?
    /// Decimal degrees as text, as Nominatim sends them.
    var lat: String?
    var lon: String?
    /// `Unable to geocode`: the open sea, an answer with nothing there.
    var error: String?
    /// `[south, north, west, east]` as text, as Nominatim sends it.
    var boundingbox: [String]?

    enum CodingKeys: String, CodingKey {
        case name, category, type, address, error, lat, lon, boundingbox
        case displayName = "display_name"
    }

    /// Where the answer's object is, when it says so with a position: on the globe, and not
    /// 0,0 (what a service with nothing there may send, and never a position to geotrip).
    var coordinate: Coordinate? {
        guard let lat = lat.flatMap(Double.init), let lon = lon.flatMap(Double.init),
              (-90...90).contains(lat), (-180...180).contains(lon), !(lat == 0 && lon == 0) else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// The answer's `lat`, `lon` as it gives them, when they are no position on the globe
    /// (`nan`, `inf`, 91, a word): nil when they are one, or 0,0, or missing.
    var positionOffTheGlobe: String? {
        guard lat != nil || lon != nil else { return nil }
        let numbers = [lat, lon].map { $0.flatMap(Double.init) }
        if let lat = numbers[0], let lon = numbers[1], (-90...90).contains(lat), (-180...180).contains(lon) { return nil }
        return "\((lat ?? "none").prefix(32)),\((lon ?? "none").prefix(32))"
    }

    /// `[south, north, west, east]` as numbers, when the answer has four finite ones.
    var box: [Double]? {
        guard let box = boundingbox?.compactMap(Double.init), box.count == 4, box.allSatisfy(\.isFinite) else { return nil }
        return box
    }

    /// Whether the object's bounding box holds `point` (a vast area's middle can lie far from
    /// a point inside it); false without a box.
    func covers(_ point: Coordinate) -> Bool {
        guard let box else { return false }
        return (box[0]...max(box[0], box[1])).contains(point.latitude) && (box[2]...max(box[2], box[3])).contains(point.longitude)
    }

    /// The object's own name, when it has one.
    var ownName: String? { name.nonBlank }

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
        let a = address
        let display = (isSight ? ownName : nil)
            ?? a?.neighbourhood.nonBlank ?? a?.suburb.nonBlank ?? a?.quarter.nonBlank
            ?? a?.village.nonBlank ?? a?.town.nonBlank ?? a?.city.nonBlank ?? a?.municipality.nonBlank ?? ownName
        // A code that names no country (`XX`) takes its country's name with it: the offline
        // gazetteer's country stands.
        let code = Self.countryCode(a?.countryCode)
        return PlaceName(name: display.map(Self.bounded), admin1: Self.text(a?.state),
                         country: code == nil && a?.countryCode.nonBlank != nil ? nil : Self.text(a?.country), countryCode: code)
    }

    /// An ISO 3166-1 alpha-2 code (`pt` → `PT`), or nil for anything else a service sends (the
    /// offline gazetteer's code for the place stands then).
    static func countryCode(_ text: String?) -> String? {
        guard let text, text.utf8.count == 2, text.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        let code = text.uppercased()
        return countryCodes.contains(code) ? code : nil
    }

    /// ISO 3166-1's countries and territories, and `XK` (Kosovo, as OpenStreetMap names it).
    static let countryCodes: Set<String> = Set(Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 }).union(["XK"])

    /// Letters and symbols drawn as blank space that Unicode does not class as spaces (so
    /// `nonBlank` counts them as nothing shown): the Hangul fillers (U+115F, U+1160, U+3164,
    /// U+FFA0) and the blank Braille pattern (U+2800).
    static let showsNothing: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800]

    /// 300 characters: no place's name is longer (Bangkok's ceremonial one is 168), so a longer
    /// one is cut there with "…", and a service's runaway text does not fill every output.
    /// Counted in Unicode scalars, not in what a reader sees as characters: a letter with
    /// 200,000 combining marks after it is one character, and 400 KB.
    static let longestName = 300

    /// `text` as a name's part, when it is one (`nonBlank`, `bounded`).
    static func text(_ text: String?) -> String? { text.nonBlank.map(bounded) }

    static func bounded(_ text: String) -> String {
        // Control characters (an escape sequence) and bidirectional overrides belong in no
        // name, and would reach the journal's headings and a terminal's `cat` of them as they
        // are. A line break or tab is a space between words ("Line1\nLine2" is two words).
        var text = text
        if text.unicodeScalars.contains(where: \.reordersOrBreaksLines) {
            var kept = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x09...0x0D, 0x85, 0x2028, 0x2029:
                    if let last = kept.last, last != " " { kept.append(" ") }
                default:
                    if !scalar.reordersOrBreaksLines { kept.append(scalar) }
                }
            }
            text = String(kept)
        }
        // Spaces around a name are no part of it ("  indented" is no heading's text).
        if text.first?.isWhitespace == true || text.last?.isWhitespace == true { text = text.trimmingCharacters(in: .whitespaces) }
        guard text.unicodeScalars.count > longestName else { return text }
        // Cut between characters (a letter keeps its accents), unless the first is itself too
        // long: then between its scalars.
        var kept = "", scalars = 0
        for character in text {
            scalars += character.unicodeScalars.count
            guard scalars < longestName else { break }
            kept.append(character)
        }
        if kept.isEmpty { kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(longestName - 1))) }
        return kept + "…"
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
            // (The type is the container expected: `[Any]` for a list, a dictionary for an object.)
            return "it is JSON, but not " + (type is [Any].Type ? "the list of results" : "the object") + " Nominatim sends"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? notJSON : "the field '\(field)' is not what Nominatim sends"
        case .keyNotFound(let key, _)?:
            return "the field '\(key.stringValue)' is missing"
        default:
            return notJSON
        }
    }

    /// Why an answer that is no JSON at all (a web page) cannot be read.
    static let notJSON = "it is not JSON"
}

extension Optional<String> {
    /// The text, unless it is absent, empty, or only spaces, line breaks and characters that
    /// show nothing (a zero-width space, a control character).
    var nonBlank: String? {
        guard let self, !self.unicodeScalars.allSatisfy({
            $0.properties.isWhitespace || $0.properties.generalCategory == .format || $0.properties.generalCategory == .control
                || NominatimPlace.showsNothing.contains($0.value)
        }) else { return nil }
        return self
    }
}
