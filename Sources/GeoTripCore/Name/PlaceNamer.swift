import Foundation

/// Where a place's name came from. A manual name (`geotrip rename`) outranks an online
/// one, which outranks the offline gazetteer's.
public enum NameSource: String, Sendable, Codable, CaseIterable {
    case offline
    case nominatim
    case manual

    /// Higher wins when a place has names from several sources.
    var rank: Int {
        switch self {
        case .offline: return 0
        case .nominatim: return 1
        case .manual: return 2
        }
    }
}

/// A place's name as a namer gave it, with the region and country kept apart.
public struct PlaceName: Sendable, Equatable {
    public var name: String?
    public var admin1: String?
    public var country: String?
    public var countryCode: String?

    /// Creates a name.
    public init(name: String?, admin1: String?, country: String?, countryCode: String?) {
        self.name = name
        self.admin1 = admin1
        self.country = country
        self.countryCode = countryCode
    }
}

/// What a name was made for: the place's id, revision and centre at the time of asking, so a
/// name made for an old state of a place can be told apart (the online namer's stale-answer
/// guard stands on it).
public struct NamedFor: Sendable, Equatable {
    public var placeID: String
    public var revision: Int
    public var centre: Coordinate
    /// How far the place's visits reach from its centre: what zoom it is asked at.
    public var radiusMeters: Double

    /// Creates a request.
    public init(placeID: String, revision: Int, centre: Coordinate, radiusMeters: Double = 0) {
        self.placeID = placeID
        self.revision = revision
        self.centre = centre
        self.radiusMeters = radiusMeters
    }
}

/// A stored name with what it was made for.
public struct StoredPlaceName: Sendable, Equatable {
    public var madeFor: NamedFor
    public var source: NameSource
    public var language: String
    public var name: PlaceName
}

/// The naming stage's one seam: the offline gazetteer, or a Nominatim-compatible service.
/// Answers come back in the order of the requests: a name, nil where there is nothing to name
/// (the open sea), or that place's own failure (an answer that does not read). When the whole
/// namer fails (a service that cannot be reached), the answers already in are kept and every
/// place not answered has that failure (`namingUnavailable`); anything else is thrown.
public protocol PlaceNamer: Sendable {
    /// The source recorded with the names this namer gives.
    var source: NameSource { get }
    /// Names for `places`.
    func names(for places: [NamedFor]) async throws(GeoTripError) -> [Result<PlaceName?, GeoTripError>]
}

/// Names places from the embedded gazetteer, offline: the town a person would name, its region
/// and its country (`Gazetteer.describe`).
public struct OfflinePlaceNamer: PlaceNamer {
    public let gazetteer: Gazetteer
    public var source: NameSource { .offline }

    /// Creates a namer over a loaded gazetteer.
    public init(gazetteer: Gazetteer) {
        self.gazetteer = gazetteer
    }

    public func names(for places: [NamedFor]) async throws(GeoTripError) -> [Result<PlaceName?, GeoTripError>] {
        places.map { place in
            let answer = gazetteer.describe(place.centre)
            return .success(PlaceName(name: answer.place?.name, admin1: answer.admin1, country: answer.country, countryCode: answer.countryCode))
        }
    }
}
