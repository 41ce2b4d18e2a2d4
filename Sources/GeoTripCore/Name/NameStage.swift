import Foundation

/// The naming stage: a name from the namer for every place that has none from its source yet,
/// or whose centre has moved more than `movedFarEnough` since its name was made. A place that
/// moved less keeps its name, even across revisions (the travel-journal lesson: re-geocode only
/// when a place really moved).
public enum NameStage {
    /// 50 m: less than a building's width from where the name was asked for.
    public static let movedFarEnough = 50.0

    /// The places among `places` that need a name, given the names `existing` (by place id).
    public static func needingNames(_ places: [NamedFor], existing: [String: StoredPlaceName]) -> [NamedFor] {
        places.filter { place in
            guard let name = existing[place.placeID] else { return true }
            return GreatCircle.distance(name.madeFor.centre, place.centre) > movedFarEnough
        }
    }

    /// Names for `places` from `namer`, paired with what they were made for.
    public static func run(_ places: [NamedFor], namer: some PlaceNamer) async throws(GeoTripError) -> [(NamedFor, Result<PlaceName?, GeoTripError>)] {
        guard !places.isEmpty else { return [] }
        let names = try await namer.names(for: places)
        return Array(zip(places, names))
    }
}
