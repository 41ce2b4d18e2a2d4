// The clustering part of `make bench` (scripts/bench.py runs it): visits, places and stable
// identities for synthetic trips of 25,000, 50,000 and 100,000 photos, to show the time and
// that it grows roughly linearly. Prints one JSON object.
import Foundation
import GeoTripCore

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A long trip: stops on a 2 km grid around Madrid, 50 photos each within 40 m, one stop every
/// three hours; a fixed generator, so every run clusters the same photos.
func syntheticTrip(_ count: Int) -> [ClusterPhoto] {
    var state: UInt64 = 2026
    func random() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    let start = Date(timeIntervalSince1970: 1_749_546_000)
    return (0..<count).map { index in
        let stop = index / 50
        let latitude = 40.4 + Double(stop % 100) * 0.018 + (random() - 0.5) * 0.0007
        let longitude = -3.7 + Double(stop / 100) * 0.024 + (random() - 0.5) * 0.0009
        return ClusterPhoto(id: Int64(index + 1), utc: start.addingTimeInterval(Double(stop) * 10_800 + Double(index % 50) * 60),
                            coordinate: Coordinate(latitude: latitude, longitude: longitude), uncertaintyMeters: 10)
    }
}

let clock = ContinuousClock()
var results: [String: Double] = [:]
for count in [25_000, 50_000, 100_000] {
    let photos = syntheticTrip(count).shuffled()
    var best = Double.infinity
    var visitCount = 0, placeCount = 0
    for _ in 0..<3 {
        let start = clock.now
        let visits = VisitClustering.visits(photos)
        let places = VisitClustering.places(visits)
        let ids = StableIdentity.assign(prefix: "v", clusters: visits.map { ($0.photoIDs, $0.centre) }, known: [])
        // A rerun: the same clustering matched against the first one's identities.
        let known = zip(visits, ids).map { KnownCluster(id: $1.id, members: Set($0.photoIDs), revision: $1.revision, start: $0.arrival, centre: $0.centre) }
        _ = StableIdentity.assign(prefix: "v", clusters: visits.map { ($0.photoIDs, $0.centre) }, known: known)
        best = min(best, seconds(clock.now - start))
        visitCount = visits.count
        placeCount = Set(places).count
    }
    results["seconds\(count)"] = best
    results["visits\(count)"] = Double(visitCount)
    results["places\(count)"] = Double(placeCount)
}
let json = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
