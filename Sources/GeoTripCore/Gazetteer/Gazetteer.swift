import Foundation

/// A populated place of the gazetteer.
public struct GazetteerPlace: Sendable, Equatable {
    public var name: String
    /// First-level division (state, region, prefecture), when known.
    public var admin1: String?
    public var country: String?
    /// ISO 3166-1 alpha-2.
    public var countryCode: String?
    /// IANA time zone.
    public var timeZone: String?
    public var population: Int
    public var coordinate: Coordinate
}

/// What the gazetteer says about a coordinate.
public struct PlaceAnswer: Sendable, Equatable {
    /// How the answer was reached.
    public enum Kind: String, Sendable {
        /// A place within `Gazetteer.placeReach` was chosen.
        case place
        /// No place is near; the region and country of the nearest place are given.
        case region
        /// Nothing within `Gazetteer.regionReach`: open sea (or deep wilderness); no country.
        case openSea = "open-sea"
    }

    public var kind: Kind
    /// The chosen place (nil for `region` and `openSea`).
    public var place: GazetteerPlace?
    /// The nearest place, whatever the kind.
    public var nearest: GazetteerPlace
    /// Metres to `place`, or to `nearest` when there is no place.
    public var distanceMeters: Double
    /// The zone for the coordinate: the nearest place's, or at sea the nautical zone of the
    /// longitude (`Etc/GMT-9` for 135° E).
    public var timeZone: String?

    /// The first-level division: the chosen place's, else the nearest place's; none at sea.
    public var admin1: String?
    /// The country, like `admin1`; on land far from any town of its own side of a border, the
    /// country the zone polygon names (Antarctica, for a point on its ice).
    public var country: String?
    /// ISO 3166-1 alpha-2 code of `country`.
    public var countryCode: String?

    /// An answer whose region is the place's (or the nearest place's; none at sea), unless
    /// `region` gives it.
    init(kind: Kind, place: GazetteerPlace?, nearest: GazetteerPlace, distanceMeters: Double, timeZone: String?,
         region: (admin1: String?, country: String?, countryCode: String?)? = nil) {
        self.kind = kind
        self.place = place
        self.nearest = nearest
        self.distanceMeters = distanceMeters
        self.timeZone = timeZone
        let named = place ?? nearest
        let given = region ?? (kind == .openSea ? (nil, nil, nil) : (named.admin1, named.country, named.countryCode))
        (admin1, country, countryCode) = given
    }
}

/// How to choose a place's name among the places near a coordinate.
public enum NamingRule: String, Sendable, CaseIterable {
    /// The place people would name (see `Gazetteer.choose`).
    case preferTowns = "prefer-towns"
    /// The nearest populated place, whatever its size.
    case nearest
}

/// The embedded offline gazetteer: GeoNames populated places (cities500, CC BY 4.0) with their
/// first-level divisions, countries and time zones, and the time zone index (timezone
/// polygons, ODbL 1.0). It names any coordinate, gives its time zone and finds places by name,
/// with no network.
public struct Gazetteer: Sendable {
    let file: GazetteerFile
    let columns: PlaceColumns
    let tree: PlaceTree
    /// The zone polygons; nil when the index could not be loaded (`zoneIndexProblem` says why),
    /// and zones then come from the nearest town, which can be wrong near a border.
    public let zoneIndex: ZoneIndex?
    /// Why `zoneIndex` is nil.
    public let zoneIndexProblem: GeoTripError?
    /// Which places are on a coordinate's side of a zone border (nil without the index).
    private let sides: BorderSides?
    /// Each gazetteer country's ISO code, by country index.
    private let countryCodes: [String]
    /// The names of countries, first-level divisions and zones, decoded once on load: every
    /// answer carries some, and decoding them per answer was a fifth of a batch `where`.
    private let countryNames: [String]
    private let admin1Names: [String]
    private let zoneNames: [String]

    /// Beyond this distance from every place, a coordinate gets its region, not a village's name.
    public static let placeReach = 50_000.0
    /// Without the zone index: beyond this distance from every place, a coordinate is taken to
    /// be at sea (no country). With it, the sea is where the polygons say (`Etc/GMT±N`).
    public static let regionReach = 200_000.0
    /// How far from the coordinate `preferTowns` looks for a more populous place.
    public static let choiceReach = 15_000.0
    /// How far naming looks for a place on the coordinate's side of a zone border before it
    /// settles for the nearest place whatever its side (the Sahara and Greenland's ice are land
    /// far from towns).
    public static let sideReach = 1_000_000.0

    /// Loads the place resource at `url` (or finds it: `Gazetteer.resourceURL()`) and the time
    /// zone index at `zones` (or finds it). A missing or damaged zone index is not an error:
    /// the gazetteer falls back to the nearest town's zone and says why in `zoneIndexProblem`.
    public static func load(from url: URL? = nil, zones: URL? = nil) throws(GeoTripError) -> Gazetteer {
        let resolved: URL
        if let url { resolved = url } else { resolved = try resourceURL() }
        let file = try GazetteerFile(url: resolved)
        do {
            return Gazetteer(file: file, zoneIndex: try ZoneIndex.load(from: zones), zoneIndexProblem: nil)
        } catch {
            return Gazetteer(file: file, zoneIndex: nil, zoneIndexProblem: error)
        }
    }

    init(file: GazetteerFile, zoneIndex: ZoneIndex?, zoneIndexProblem: GeoTripError?) {
        self.file = file
        columns = file.placeColumns()
        tree = PlaceTree(latitudeE5: columns.latitudeE5, longitudeE5: columns.longitudeE5, axes: columns.axis)
        self.zoneIndex = zoneIndex
        self.zoneIndexProblem = zoneIndexProblem
        let codes = (0..<file.countryCount).map { file.countryCode($0) }
        countryCodes = codes
        countryNames = (0..<file.countryCount).map { file.countryName($0) }
        admin1Names = (0..<file.admin1Count).map { Self.spokenOrder(file.admin1Name($0)) }
        zoneNames = (0..<file.zoneCount).map { file.zoneName($0) }
        let placeColumns = columns, names = zoneNames
        sides = zoneIndex.map { BorderSides(columns: placeColumns, zoneNames: names, countryCodes: codes, index: $0) }
    }

    /// A first-level division's name in the order people write it. ISO 3166-2, where the
    /// gazetteer's names come from, puts the generic word last in a few dozen of them
    /// ("Madrid, Comunidad de", "wallonne, Région", "Tatarstan, Respublika"), which read as two
    /// names in a journal's "Madrid, Madrid, Comunidad de, Spain": those are turned round. A
    /// comma before anything else ("San Andrés, Providencia y Santa Catalina") is a list, kept.
    static func spokenOrder(_ name: String) -> String {
        guard let comma = name.range(of: ", ", options: .backwards) else { return name }
        let head = name[..<comma.lowerBound], tail = name[comma.upperBound...]
        guard let word = tail.split(separator: " ").first, invertedWords.contains(String(word)) else { return name }
        return tail + " " + head
    }

    /// The generic words `spokenOrder` finds after the comma of an inverted name.
    private static let invertedWords: Set<String> = ["Comunidad", "Región", "Région", "Principado", "Hlavní", "Unitatea", "unitatea", "Respublika"]

    /// How names are made from the file (`spokenOrder`): offline names made with another are
    /// made again once.
    static let namesRevision = 2

    /// Number of places.
    public var count: Int { tree.count }

    // MARK: Reverse

    /// The nearest populated place and its distance in metres.
    public func nearest(to coordinate: Coordinate) -> (place: GazetteerPlace, distanceMeters: Double) {
        let found = tree.nearest(to: GreatCircle.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude))
        return (place(found.index), GreatCircle.metres(chord: found.chordSquared.squareRoot()))
    }

    /// Index of the nearest place, for throughput measurements.
    public func nearestIndex(latitude: Double, longitude: Double) -> Int {
        tree.nearest(to: GreatCircle.unitVector(latitude: latitude, longitude: longitude)).index
    }

    /// The name a person would give `coordinate`, with its region, country and time zone.
    ///
    /// With the zone index, the zone is the polygon's, and naming keeps to the places on the
    /// coordinate's side of a border (`BorderSides`): a point in Belarus is named after a
    /// Belarusian town even when a Polish one is nearer. Without it, the nearest place decides.
    public func describe(_ coordinate: Coordinate, rule: NamingRule = .preferTowns) -> PlaceAnswer {
        let query = GreatCircle.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let zone = zoneIndex.map { $0.zoneNumber(at: coordinate) }
        // The nearest place on the coordinate's side of the border, else the nearest place.
        var anchor = (index: -1, chordSquared: Double.infinity)
        if let zoneIndex, let zone {
            if zoneIndex.zones[zone].isNautical {
                let nearest = tree.nearest(to: query)
                return PlaceAnswer(kind: .openSea, place: nil, nearest: place(nearest.index),
                                   distanceMeters: GreatCircle.metres(chord: nearest.chordSquared.squareRoot()),
                                   timeZone: zoneIndex.zones[zone].name)
            }
            let reach = GreatCircle.chord(metres: Self.sideReach)
            if sides!.hasPlaces(zone) {
                anchor = tree.nearest(to: query, withinChordSquared: reach * reach, accepting: OnSide(sides: sides!, zone: zone))
            }
            if anchor.index < 0 {
                anchor = tree.nearest(to: query)
                if GreatCircle.metres(chord: anchor.chordSquared.squareRoot()) > Self.placeReach {
                    // Land with no town of its own side for 1,000 km (Antarctica's ice): the
                    // region is the zone's country, not the nearest town's across the sea.
                    let codes = zoneIndex.zones[zone].countries
                    let country = codes.count == 1 ? countryIndex(code: codes[0]) : nil
                    return PlaceAnswer(kind: .region, place: nil, nearest: place(anchor.index),
                                       distanceMeters: GreatCircle.metres(chord: anchor.chordSquared.squareRoot()),
                                       timeZone: zoneIndex.zones[zone].name,
                                       region: (nil, country.map { countryNames[$0] }, country.map { countryCodes[$0] }))
                }
            }
        } else {
            anchor = tree.nearest(to: query)
        }
        // The places that compete for the name are those within 15 km in the anchor's own
        // country and first-level division: a bigger city across a border (Rome from St
        // Peter's, New York from Hoboken, Strasbourg from Kehl) is not where the photo was
        // taken. A zone border inside one division (Indiana's counties, the Navajo Nation in
        // Arizona) does not split them, and the nearest of them stands in for the anchor:
        // GeoNames' zones are not reliable there (it gives LeChee, in the Navajo Nation,
        // Arizona's zone), and the town you stand in is the better name.
        var anchorMetres = GreatCircle.metres(chord: anchor.chordSquared.squareRoot())
        let country = columns.country[anchor.index], admin1 = columns.admin1[anchor.index]
        var best = TownChoice()
        var nearestInRegion = (index: anchor.index, metres: anchorMetres)
        tree.forEach(within: query, chord: GreatCircle.chord(metres: Self.choiceReach)) { index, chordSquared in
            guard columns.country[index] == country, columns.admin1[index] == admin1 else { return }
            // 2 asin(c/2) = c + c³/24 + 3c⁵/640 + …: within 15 km (c < 0.0024) the terms left
            // out are below 1e-16 of the whole, and asin was a tenth of a batch `where`.
            let chord = chordSquared.squareRoot()
            let metres = GreatCircle.earthRadius * (chord + chord * chordSquared / 24)
            if metres < nearestInRegion.metres { nearestInRegion = (index, metres) }
            best.consider(index, metres: metres, population: Int(columns.population[index]))
        }
        if nearestInRegion.index != anchor.index {
            anchor.index = nearestInRegion.index
            anchorMetres = exactMetres(query, anchor.index)
        }
        let anchorPlace = place(anchor.index)
        let timeZone = zone.map { zoneIndex!.zones[$0].name } ?? anchorPlace.timeZone
        if zone == nil && anchorMetres > Self.regionReach {
            return PlaceAnswer(kind: .openSea, place: nil, nearest: anchorPlace, distanceMeters: anchorMetres,
                               timeZone: Self.nauticalZone(longitude: coordinate.longitude))
        }
        if anchorMetres > Self.placeReach {
            return PlaceAnswer(kind: .region, place: nil, nearest: anchorPlace, distanceMeters: anchorMetres,
                               timeZone: timeZone)
        }
        var chosen = (index: anchor.index, metres: anchorMetres)
        if rule == .preferTowns, let winner = best.index, winner != anchor.index {
            chosen = (winner, exactMetres(query, winner))
        }
        return PlaceAnswer(kind: .place, place: place(chosen.index), nearest: anchorPlace, distanceMeters: chosen.metres,
                           timeZone: timeZone)
    }

    /// Metres from `query` to place `index`, computed exactly as the tree's searches compute it.
    private func exactMetres(_ query: SIMD3<Double>, _ index: Int) -> Double {
        let v = tree.vector(index)
        let dx = query.x - v.x, dy = query.y - v.y, dz = query.z - v.z
        return GreatCircle.metres(chord: (dx * dx + dy * dy + dz * dz).squareRoot())
    }

    /// The gazetteer's index of the country with ISO code `code`.
    func countryIndex(code: String) -> Int? { countryCodes.firstIndex(of: code) }

    /// The rule `preferTowns` uses (`TownChoice`) on candidates given as (metres away,
    /// population): the index of the winner.
    static func choose(among candidates: [(metres: Double, population: Int)]) -> Int? {
        var choice = TownChoice()
        for (index, candidate) in candidates.enumerated() {
            choice.consider(index, metres: candidate.metres, population: candidate.population)
        }
        return choice.index
    }

    /// The IANA time zone for `coordinate`: the polygon's (at sea, the nautical `Etc/GMT±N`).
    /// Without the zone index, the nearest place's, which can be wrong near a border.
    public func timeZone(for coordinate: Coordinate) -> String? {
        if let zoneIndex { return zoneIndex.zones[zoneIndex.zoneNumber(at: coordinate)].name }
        // The nearest place's zone column only: no names are decoded (resolution asks this
        // for every photo).
        let found = tree.nearest(to: GreatCircle.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude))
        if GreatCircle.metres(chord: found.chordSquared.squareRoot()) > Self.regionReach {
            return Self.nauticalZone(longitude: coordinate.longitude)
        }
        let zone = columns.zone[found.index]
        return zone == 0xFFFF ? nil : zoneNames[Int(zone)]
    }

    /// Nautical time: whole hours from the longitude, as `Etc/GMT±N` (whose sign is inverted
    /// by POSIX convention: 135° E is `Etc/GMT-9`).
    static func nauticalZone(longitude: Double) -> String {
        let hours = Int((longitude / 15).rounded())
        if hours == 0 { return "Etc/GMT" }
        return hours > 0 ? "Etc/GMT-\(min(hours, 12))" : "Etc/GMT+\(min(-hours, 12))"
    }

    func place(_ index: Int) -> GazetteerPlace {
        let admin1 = columns.admin1[index], zone = columns.zone[index], country = columns.country[index]
        return GazetteerPlace(
            name: file.name(index),
            admin1: admin1 == 0xFFFF ? nil : admin1Names[Int(admin1)],
            country: country == 0xFF ? nil : countryNames[Int(country)],
            countryCode: country == 0xFF ? nil : countryCodes[Int(country)],
            timeZone: zone == 0xFFFF ? nil : zoneNames[Int(zone)],
            population: Int(columns.population[index]),
            coordinate: Coordinate(latitude: Double(columns.latitudeE5[index]) / 1e5,
                                   longitude: Double(columns.longitudeE5[index]) / 1e5))
    }
}

/// The rule `preferTowns` uses, on the candidates within `choiceReach` in the anchor's
/// country and first-level division, offered one at a time: the candidate with the largest
/// `max(population, 100) / (km + 1)²` wins.
///
/// This is a gravity model: a place's pull grows with its population and falls with the
/// square of the distance, with 1 km added so that being a few hundred metres from a hamlet's
/// centre does not outweigh being in the town next to it. A town of 20,000 3 km away beats a
/// hamlet of 600 200 m away (1,250 vs 417); a village of 800 you stand in beats a city of
/// 50,000 15 km away (473 vs 195); a city of 3 million 6 km away beats its own district of
/// 50,000 1 km away (61,000 vs 12,500). Unknown populations (0) count as 100. Ties go to the
/// nearer place, then to the first offered.
struct TownChoice {
    /// The winner so far, nil before any candidate.
    private(set) var index: Int?
    private var metres = Double.infinity
    private var pull = -1.0

    /// Offers candidate `index`, `metres` away with `population` people.
    mutating func consider(_ index: Int, metres: Double, population: Int) {
        let kilometres = metres / 1000
        let pull = Double(max(population, 100)) / ((kilometres + 1) * (kilometres + 1))
        if pull > self.pull || (pull == self.pull && metres < self.metres) {
            (self.index, self.metres, self.pull) = (index, metres, pull)
        }
    }
}
