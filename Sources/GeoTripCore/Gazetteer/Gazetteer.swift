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

    public var admin1: String? { kind == .openSea ? nil : (place ?? nearest).admin1 }
    public var country: String? { kind == .openSea ? nil : (place ?? nearest).country }
    public var countryCode: String? { kind == .openSea ? nil : (place ?? nearest).countryCode }
}

/// How to choose a place's name among the places near a coordinate.
public enum NamingRule: String, Sendable, CaseIterable {
    /// The place people would name (see `Gazetteer.choose`).
    case preferTowns = "prefer-towns"
    /// The nearest populated place, whatever its size.
    case nearest
}

/// The embedded offline gazetteer: GeoNames populated places (cities500, CC BY 4.0) with their
/// first-level divisions, countries and time zones. It names any coordinate, gives its time
/// zone and finds places by name, with no network.
public struct Gazetteer: Sendable {
    let file: GazetteerFile
    let columns: PlaceColumns
    let tree: PlaceTree

    /// Beyond this distance from every place, a coordinate gets its region, not a village's name.
    public static let placeReach = 50_000.0
    /// Beyond this distance from every place, a coordinate is taken to be at sea: no country.
    public static let regionReach = 200_000.0
    /// How far from the coordinate `preferTowns` looks for a more populous place.
    public static let choiceReach = 15_000.0

    /// Loads the resource at `url`, or finds it (`Gazetteer.resourceURL()`).
    public static func load(from url: URL? = nil) throws(GeoTripError) -> Gazetteer {
        let resolved: URL
        if let url { resolved = url } else { resolved = try resourceURL() }
        return Gazetteer(file: try GazetteerFile(url: resolved))
    }

    init(file: GazetteerFile) {
        self.file = file
        columns = file.placeColumns()
        tree = PlaceTree(latitudeE5: columns.latitudeE5, longitudeE5: columns.longitudeE5, axes: columns.axis)
    }

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
    public func describe(_ coordinate: Coordinate, rule: NamingRule = .preferTowns) -> PlaceAnswer {
        let query = GreatCircle.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
        let nearest = tree.nearest(to: query)
        let nearestMetres = GreatCircle.metres(chord: nearest.chordSquared.squareRoot())
        let nearestPlace = place(nearest.index)
        if nearestMetres > Self.regionReach {
            return PlaceAnswer(kind: .openSea, place: nil, nearest: nearestPlace, distanceMeters: nearestMetres,
                               timeZone: Self.nauticalZone(longitude: coordinate.longitude))
        }
        if nearestMetres > Self.placeReach {
            return PlaceAnswer(kind: .region, place: nil, nearest: nearestPlace, distanceMeters: nearestMetres,
                               timeZone: nearestPlace.timeZone)
        }
        var chosen = (index: nearest.index, metres: nearestMetres)
        if rule == .preferTowns {
            // Only places in the nearest place's own country and first-level division compete:
            // a bigger city across a border (Rome from St Peter's, New York from Hoboken,
            // Strasbourg from Kehl) is not where the photo was taken.
            let country = columns.country[nearest.index], admin1 = columns.admin1[nearest.index]
            let candidates = tree.within(query, chord: GreatCircle.chord(metres: Self.choiceReach), limit: Int.max)
                .filter { columns.country[$0.index] == country && columns.admin1[$0.index] == admin1 }
                .map { (index: $0.index, metres: GreatCircle.metres(chord: $0.chordSquared.squareRoot()),
                        population: Int(columns.population[$0.index])) }
            if let best = Self.choose(among: candidates.map { ($0.metres, $0.population) }) {
                chosen = (candidates[best].index, candidates[best].metres)
            }
        }
        return PlaceAnswer(kind: .place, place: place(chosen.index), nearest: nearestPlace, distanceMeters: chosen.metres,
                           timeZone: nearestPlace.timeZone)
    }

    /// The rule `preferTowns` uses, on the candidates within `choiceReach` in the nearest
    /// place's country and first-level division, given as (metres away, population):
    /// the candidate with the largest `max(population, 100) / (km + 1)²` wins.
    ///
    /// This is a gravity model: a place's pull grows with its population and falls with the
    /// square of the distance, with 1 km added so that being a few hundred metres from a
    /// hamlet's centre does not outweigh being in the town next to it. A town of 20,000 3 km
    /// away beats a hamlet of 600 200 m away (1,250 vs 417); a village of 800 you stand in
    /// beats a city of 50,000 15 km away (473 vs 195); a city of 3 million 6 km away beats
    /// its own district of 50,000 1 km away (61,000 vs 12,500). Unknown populations (0) count
    /// as 100. Ties go to the nearer place.
    static func choose(among candidates: [(metres: Double, population: Int)]) -> Int? {
        var best: (index: Int, score: Double)?
        for (index, candidate) in candidates.enumerated() {
            let kilometres = candidate.metres / 1000
            let score = Double(max(candidate.population, 100)) / ((kilometres + 1) * (kilometres + 1))
            if best == nil || score > best!.score || (score == best!.score && candidate.metres < candidates[best!.index].metres) {
                best = (index, score)
            }
        }
        return best?.index
    }

    /// The IANA time zone for `coordinate`: the nearest place's. Approximate near zone borders,
    /// where the nearest place can lie across the border; at sea, the nautical zone.
    public func timeZone(for coordinate: Coordinate) -> String? {
        // The nearest place's zone column only: no names are decoded (resolution asks this
        // for every photo).
        let found = tree.nearest(to: GreatCircle.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude))
        if GreatCircle.metres(chord: found.chordSquared.squareRoot()) > Self.regionReach {
            return Self.nauticalZone(longitude: coordinate.longitude)
        }
        let zone = columns.zone[found.index]
        return zone == 0xFFFF ? nil : file.zoneName(Int(zone))
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
            admin1: admin1 == 0xFFFF ? nil : file.admin1Name(Int(admin1)),
            country: country == 0xFF ? nil : file.countryName(Int(country)),
            countryCode: country == 0xFF ? nil : file.countryCode(Int(country)),
            timeZone: zone == 0xFFFF ? nil : file.zoneName(Int(zone)),
            population: Int(columns.population[index]),
            coordinate: Coordinate(latitude: Double(columns.latitudeE5[index]) / 1e5,
                                   longitude: Double(columns.longitudeE5[index]) / 1e5))
    }
}
