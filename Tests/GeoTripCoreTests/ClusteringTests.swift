import Foundation
import Testing
@testable import GeoTripCore

/// Clustering on synthetic trips whose true visits are known because the test made them.
@Suite("Visits and places")
struct ClusteringTests {
    /// A trip generator: visits at known centres, photos scattered within `spread` metres.
    struct Trip {
        var photos: [ClusterPhoto] = []
        var truth: [(centre: Coordinate, ids: Set<Int64>)] = []
        var generator = SplitMix(seed: 7)
        var nextID: Int64 = 1
        let start = Date(timeIntervalSince1970: 1_749_546_000)  // 2025-06-10T09:00:00Z

        /// `count` photos around `centre` from `minute` on, one every `every` minutes.
        mutating func visit(_ centre: Coordinate, at minute: Double, count: Int, every: Double = 4, spread: Double = 40) {
            var ids = Set<Int64>()
            for index in 0..<count {
                let bearing = generator.uniform(0, 2 * .pi), distance = generator.uniform(0, spread)
                let c = Coordinate(latitude: centre.latitude + distance * cos(bearing) / 111_195,
                                   longitude: centre.longitude + distance * sin(bearing) / (111_195 * cos(centre.latitude * .pi / 180)))
                photos.append(ClusterPhoto(id: nextID, utc: start.addingTimeInterval((minute + Double(index) * every) * 60),
                                           coordinate: c, uncertaintyMeters: 10))
                ids.insert(nextID)
                nextID += 1
            }
            truth.append((centre, ids))
        }
    }

    static func offset(_ c: Coordinate, north: Double, east: Double) -> Coordinate {
        Coordinate(latitude: c.latitude + north / 111_195, longitude: c.longitude + east / (111_195 * cos(c.latitude * .pi / 180)))
    }

    /// A five-day trip: a hotel returned to every evening, sights, a long drive, shuffled order.
    static func fiveDayTrip() -> Trip {
        var trip = Trip()
        let hotel = Coordinate(latitude: 38.7110, longitude: -9.1370)
        var sights: [Coordinate] = []
        for index in 0..<12 { sights.append(offset(hotel, north: Double(index % 4) * 900 - 1200, east: Double(index / 4) * 1500 - 1500)) }
        for day in 0..<5 {
            let morning = Double(day) * 1440
            trip.visit(hotel, at: morning - 60, count: 3)                       // breakfast
            for stop in 0..<3 {
                trip.visit(sights[(day * 3 + stop) % sights.count], at: morning + 60 + Double(stop) * 150, count: 6)
            }
            trip.visit(hotel, at: morning + 660, count: 2)                      // back in the evening
        }
        // A long drive on day 6: one photo from the car every 20 minutes, 25 km apart.
        var road = offset(hotel, north: 5000, east: 0)
        for stop in 0..<6 {
            trip.visit(road, at: 5 * 1440 + Double(stop) * 20, count: 1)
            road = offset(road, north: 25_000, east: 0)
        }
        return trip
    }

    /// Fraction of true visits found (a cluster with exactly its photos, give or take one in
    /// ten) and fraction of clusters that match no true visit.
    static func score(_ visits: [VisitCluster], _ truth: [(centre: Coordinate, ids: Set<Int64>)]) -> (found: Double, spurious: Double) {
        func matches(_ cluster: VisitCluster, _ ids: Set<Int64>) -> Bool {
            let members = Set(cluster.photoIDs)
            let shared = Double(members.intersection(ids).count)
            return shared >= 0.9 * Double(ids.count) && shared >= 0.9 * Double(members.count)
        }
        let found = truth.filter { t in visits.contains { matches($0, t.ids) } }.count
        let spurious = visits.filter { v in !truth.contains { matches(v, $0.ids) } }.count
        return (Double(found) / Double(truth.count), Double(spurious) / Double(visits.count))
    }

    @Test("a five-day trip with a returning hotel and a long drive: 95% of visits found, at most 5% spurious")
    func fiveDays() {
        var trip = Self.fiveDayTrip()
        trip.photos.shuffle(using: &trip.generator)  // file order is not time order
        let visits = VisitClustering.visits(trip.photos)
        let (found, spurious) = Self.score(visits, trip.truth)
        #expect(found >= 0.95, "found \(found)")
        #expect(spurious <= 0.05, "spurious \(spurious)")
        // The hotel's ten visits are one place; the sights are other places.
        let places = VisitClustering.places(visits)
        let hotelVisits = visits.indices.filter { GreatCircle.distance(visits[$0].centre, trip.truth[0].centre) < 100 }
        #expect(hotelVisits.count == 10)
        #expect(Set(hotelVisits.map { places[$0] }).count == 1)
        #expect(Set(places).count == 1 + 12 + 6)
    }

    @Test("a slow walking tour is not chained into one visit across the city")
    func walkingTour() {
        var trip = Trip()
        var here = Coordinate(latitude: 48.8566, longitude: 2.3522)
        for step in 0..<40 {  // 40 photos, 60 m and 3 minutes apart: 2.4 km in two hours
            trip.visit(here, at: Double(step) * 3, count: 1, spread: 0)
            here = Self.offset(here, north: 0, east: 60)
        }
        let visits = VisitClustering.visits(trip.photos)
        #expect(visits.count >= 4)
        for visit in visits {
            let span = visit.photoIDs.compactMap { id in trip.photos.first { $0.id == id } }
            let extent = span.map { GreatCircle.distance($0.coordinate, span[0].coordinate) }.max() ?? 0
            #expect(extent <= 2 * ClusteringOptions().visitRadius)
        }
    }

    @Test("two cameras interleaved at the same stops cluster as one stream")
    func interleavedCameras() {
        var trip = Trip()
        let a = Coordinate(latitude: 35.0394, longitude: 135.7292), b = Self.offset(a, north: 3000, east: 0)
        trip.visit(a, at: 0, count: 5, every: 6)
        trip.visit(a, at: 3, count: 5, every: 6)      // the second camera, between the first's shots
        trip.visit(b, at: 90, count: 4, every: 5)
        let visits = VisitClustering.visits(trip.photos.reversed())
        #expect(visits.count == 2)
        #expect(visits[0].photoIDs.count == 10)
    }

    @Test("an uncertain inferred position joins the visit but does not drag its centre")
    func uncertainPositions() {
        var trip = Trip()
        let centre = Coordinate(latitude: 38.6916, longitude: -9.2160)
        trip.visit(centre, at: 0, count: 6, spread: 5)
        var vague = ClusterPhoto(id: 99, utc: trip.start.addingTimeInterval(600), coordinate: Self.offset(centre, north: 300, east: 0),
                                 uncertaintyMeters: 400)
        trip.photos.append(vague)
        let visits = VisitClustering.visits(trip.photos)
        #expect(visits.count == 1)
        #expect(GreatCircle.distance(visits[0].centre, centre) < 10)
        // A sure position 300 m away after the last photo, with none back, is another visit.
        vague.uncertaintyMeters = 10
        vague.utc = trip.start.addingTimeInterval(30 * 60)
        trip.photos[trip.photos.count - 1] = vague
        #expect(VisitClustering.visits(trip.photos).count == 2)
    }

    @Test("a position that jumps for a moment is a stray in its visit; two photos away, one away for an hour, or one the next photos side with, are not")
    func strays() {
        var trip = Trip()
        let cafe = Coordinate(latitude: 37.5700, longitude: 126.9920)
        trip.visit(cafe, at: 0, count: 120, every: 2, spread: 30)  // four hours at one table
        // Strays (the photo's minute, metres north): 400 m, 2 km and 350 m off, each between two
        // of the visit's photos.
        let jumps: [(minute: Double, north: Double)] = [(31, 400), (91, 2000), (151, 350)]
        for (index, jump) in jumps.enumerated() {
            trip.photos.append(ClusterPhoto(id: 1000 + Int64(index), utc: trip.start.addingTimeInterval(jump.minute * 60),
                                            coordinate: Self.offset(cafe, north: jump.north, east: 0), uncertaintyMeters: 10))
        }
        let visits = VisitClustering.visits(trip.photos)
        #expect(visits.count == 1)
        #expect(visits.first?.photoIDs.count == 123)
        // The strays move neither the centre nor the radius.
        #expect(GreatCircle.distance(visits[0].centre, cafe) < 10)
        #expect(visits[0].radiusMeters <= 35)

        // Two photos in a row at one spot 2 km off, then back: a stop of its own (a quick look
        // across the border), between two visits at the café.
        var two = trip
        for index in 0..<2 {
            two.photos.append(ClusterPhoto(id: 2000 + Int64(index), utc: trip.start.addingTimeInterval((201 + Double(index) * 0.5) * 60),
                                           coordinate: Self.offset(cafe, north: 2000, east: 0), uncertaintyMeters: 10))
        }
        #expect(VisitClustering.visits(two.photos).map(\.photoIDs.count) == [104, 2, 19])

        // One photo 1 km off with nothing for 40 minutes either side: an outing, not a stray.
        var outing = Trip()
        outing.visit(cafe, at: 0, count: 10, every: 3)
        outing.visit(Self.offset(cafe, north: 1000, east: 0), at: 67, count: 1)
        outing.visit(cafe, at: 107, count: 10, every: 3)
        #expect(VisitClustering.visits(outing.photos).map(\.photoIDs.count) == [10, 1, 10])

        // Arriving at a museum 800 m on with a second camera still on the café's position for one
        // photo: the museum's first photo starts its visit, and the camera's is the stray, there.
        var arrival = Trip()
        let museum = Self.offset(cafe, north: 800, east: 0)
        arrival.visit(cafe, at: 0, count: 16, every: 2, spread: 10)              // 09:00-09:30
        arrival.visit(museum, at: 40, count: 1, spread: 0)                       // the phone, 09:40
        arrival.visit(cafe, at: 42, count: 1, spread: 0)                         // the camera, 09:42
        arrival.visit(museum, at: 45, count: 5, every: 2, spread: 10)            // 09:45 on
        #expect(VisitClustering.visits(arrival.photos).map(\.photoIDs.count) == [16, 7])
        #expect(VisitClustering.visits(arrival.photos).last.map { GreatCircle.distance($0.centre, museum) < 15 } == true)

        // A position the person gave (`geotrip tag`) never jumped: a photo tagged 800 m off is a
        // stop of its own, and the strays are named.
        var tagged = Trip()
        tagged.visit(cafe, at: 0, count: 6, every: 2, spread: 10)
        tagged.photos.append(ClusterPhoto(id: 500, utc: tagged.start.addingTimeInterval(13 * 60), coordinate: museum, uncertaintyMeters: 10,
                                          mayStray: false))
        tagged.visit(cafe, at: 16, count: 6, every: 2, spread: 10)
        #expect(VisitClustering.visits(tagged.photos).map(\.photoIDs.count) == [6, 1, 6])
        tagged.photos[6].mayStray = true
        #expect(VisitClustering.visits(tagged.photos).map(\.strayIDs) == [[500]])

        // The window: the photo back within reach at 30 minutes after the visit's last is in it,
        // at 31 it is not; with a visit gap of 20 minutes the window is 20.
        func window(returnAfter minutes: Double, gap: Double = 120) -> [Int] {
            var trip = Trip()
            trip.visit(cafe, at: 0, count: 5, every: 2, spread: 10)                         // 09:00-09:08
            trip.visit(museum, at: 8 + minutes / 2, count: 1, spread: 0)                    // the jump
            trip.visit(cafe, at: 8 + minutes, count: 5, every: 2, spread: 10)
            return VisitClustering.visits(trip.photos, options: ClusteringOptions(visitGap: gap * 60)).map(\.photoIDs.count)
        }
        #expect(window(returnAfter: 30) == [11])
        #expect(window(returnAfter: 31) == [5, 1, 5])
        #expect(window(returnAfter: 20, gap: 20) == [11])
        #expect(window(returnAfter: 22, gap: 20) == [5, 1, 5])
    }

    @Test("nearby visits are one place anywhere: Tokyo, Sydney, across the antimeridian, near the pole", arguments: [
        (35.6800, 139.77, 35.6805, 139.77),
        (-33.857, 151.215, -33.857, 151.216),
        (-16.0, 179.9995, -16.0, -179.9995),
        (89.9, 0.0, 89.9, 0.5),
    ] as [(Double, Double, Double, Double)])
    func placesEverywhere(lat1: Double, lon1: Double, lat2: Double, lon2: Double) {
        var trip = Trip()
        trip.visit(Coordinate(latitude: lat1, longitude: lon1), at: 0, count: 2, spread: 0)
        trip.visit(Coordinate(latitude: lat2, longitude: lon2), at: 600, count: 2, spread: 0)
        let visits = VisitClustering.visits(trip.photos)
        #expect(visits.count == 2)
        #expect(Set(VisitClustering.places(visits)).count == 1)
    }

    @Test("visits 140 m apart in a row do not chain into one place across the city")
    func noChaining() {
        var trip = Trip()
        var here = Coordinate(latitude: 41.39, longitude: 2.17)
        for index in 0..<12 {
            trip.visit(here, at: Double(index) * 180, count: 2, spread: 0)
            here = Self.offset(here, north: 0, east: 140)
        }
        let visits = VisitClustering.visits(trip.photos)
        let places = VisitClustering.places(visits)
        #expect(visits.count == 12)
        #expect(Set(places).count >= 6)
        for place in Set(places) {
            let members = visits.indices.filter { places[$0] == place }.map { visits[$0].centre }
            let extent = members.flatMap { a in members.map { GreatCircle.distance(a, $0) } }.max() ?? 0
            #expect(extent <= 2 * ClusteringOptions().placeRadius)
        }
    }

    @Test("100,000 photos cluster in one pass (the timing is in make bench, not here)")
    func scale() {
        var trip = Trip()
        for index in 0..<2_000 {
            trip.visit(Self.offset(Coordinate(latitude: 40, longitude: -3), north: Double(index % 50) * 800, east: Double(index / 50) * 800),
                       at: Double(index) * 180, count: 50, every: 2)
        }
        let visits = VisitClustering.visits(trip.photos)
        #expect(visits.count == 2_000)
        #expect(Set(VisitClustering.places(visits)).count == 2_000)
    }
}

@Suite("Stable visit identities")
struct StableIdentityTests {
    let here = Coordinate(latitude: 1, longitude: 1)
    let start = Date(timeIntervalSince1970: 0)

    func known(_ id: String, _ members: [Int64], revision: Int = 1, start minutes: Double = 0) -> KnownCluster {
        KnownCluster(id: id, members: Set(members), revision: revision, start: start.addingTimeInterval(minutes * 60), centre: here)
    }

    @Test("a visit that grows keeps its id with a new revision; an unchanged one keeps both")
    func growing() {
        let ids = StableIdentity.assign(prefix: "v", clusters: [([1, 2, 3, 4], here), ([10, 11], here)],
                                        known: [known("v1", [1, 2, 3], revision: 4), known("v10", [10, 11], revision: 2)])
        #expect(ids[0] == ("v1", 5))
        #expect(ids[1] == ("v10", 2))
    }

    @Test("a split keeps the id on the larger part; a merge keeps the older id")
    func splitAndMerge() {
        let split = StableIdentity.assign(prefix: "v", clusters: [([1, 2], here), ([3, 4, 5], here)], known: [known("v1", [1, 2, 3, 4, 5])])
        #expect(split[1].id == "v1")
        #expect(split[0].id == "v1-2")  // the earliest photo's id is taken: a suffix keeps it unique
        let merge = StableIdentity.assign(prefix: "v", clusters: [([1, 2, 3, 4, 5, 6], here)],
                                          known: [known("v4", [4, 5, 6], start: 10), known("v1", [1, 2, 3], start: 0)])
        #expect(merge[0].id == "v1")
    }

    @Test("adding a day's photos does not renumber other days' visits")
    func addingADay() {
        let before = [known("v1", [1, 2]), known("v5", [5, 6])]
        let ids = StableIdentity.assign(prefix: "v", clusters: [([1, 2], here), ([3, 4], here), ([5, 6], here)], known: before)
        #expect(ids.map(\.id) == ["v1", "v3", "v5"])
    }
}
