import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The clustering stage as a pure function of photos, known identities and options, and the
/// naming seam beside it (issue 10).
@Suite("Cluster stage and naming seam")
struct ClusterStageTests {
    static let start = Date(timeIntervalSince1970: 1_749_546_000)  // 2025-06-10T09:00:00Z
    static let lisbon = Coordinate(latitude: 38.7110, longitude: -9.1370)

    /// Three stops of five photos, ten minutes apart, two hours between stops, 2 km apart.
    static func photos(skipping skipped: Set<Int64> = []) -> [ResolvedPhoto] {
        var photos: [ResolvedPhoto] = []
        for stop in 0..<3 {
            for shot in 0..<5 {
                let id = Int64(stop * 5 + shot + 1)
                guard !skipped.contains(id) else { continue }
                let centre = ClusteringTests.offset(lisbon, north: Double(stop) * 2000, east: Double(shot) * 5)
                photos.append(ResolvedPhoto(id: id, utc: start.addingTimeInterval(Double(stop) * 10_800 + Double(shot) * 600),
                                            zone: "Europe/Lisbon", cameraTime: nil, coordinate: centre, uncertaintyMeters: 10))
            }
        }
        return photos
    }

    /// What the catalog would know after storing `layout` (and what it knew before).
    static func known(after layout: TripLayout, before: KnownLayout = KnownLayout()) -> KnownLayout {
        var known = KnownLayout(lastRevisions: before.lastRevisions)
        var placeMembers: [String: Set<Int64>] = [:]
        for visit in layout.visits {
            known.visits.append(KnownCluster(id: visit.id, members: Set(visit.cluster.photoIDs), revision: visit.revision,
                                             start: visit.cluster.arrival, centre: visit.cluster.centre, end: visit.cluster.departure,
                                             placeID: visit.placeID))
            placeMembers[visit.placeID, default: []].formUnion(visit.cluster.photoIDs)
            known.lastRevisions[visit.id] = max(known.lastRevisions[visit.id] ?? 0, visit.revision)
        }
        for place in layout.places {
            known.places.append(KnownCluster(id: place.id, members: placeMembers[place.id] ?? [], revision: place.revision,
                                             start: place.start, centre: place.centre))
            known.lastRevisions[place.id] = max(known.lastRevisions[place.id] ?? 0, place.revision)
        }
        return known
    }

    @Test("nothing changed: the same ids and revisions")
    func unchanged() {
        let first = ClusterStage.layout(Self.photos(), known: KnownLayout(), options: ClusteringOptions())
        #expect(first.visits.map(\.id) == ["v1", "v6", "v11"])
        #expect(first.visits.allSatisfy { $0.revision == 1 })
        let second = ClusterStage.layout(Self.photos(), known: Self.known(after: first), options: ClusteringOptions())
        #expect(second == first)
    }

    @Test("a visit's photos are of its day, the day of its arrival: a night out past the day's start makes no day of its own")
    func nightOut() {
        // A bar in Lisbon from 23:30 to 04:30 (WEST, +01:00) on the night of 2025-06-10: a photo
        // every half hour, the day starting at 04:00; then a photo alone at 09:00 elsewhere.
        let arrival = Date(timeIntervalSince1970: 1_749_594_600)  // 2025-06-10T22:30:00Z
        var photos = (0..<11).map { index in
            ResolvedPhoto(id: Int64(index + 1), utc: arrival.addingTimeInterval(Double(index) * 1_800), zone: "Europe/Lisbon", cameraTime: nil,
                          coordinate: Self.lisbon, uncertaintyMeters: 10)
        }
        photos.append(ResolvedPhoto(id: 12, utc: arrival.addingTimeInterval(9.5 * 3_600), zone: "Europe/Lisbon", cameraTime: nil,
                                    coordinate: ClusteringTests.offset(Self.lisbon, north: 5_000, east: 0), uncertaintyMeters: 10))
        let layout = ClusterStage.layout(photos, known: KnownLayout(), options: ClusteringOptions())
        #expect(layout.visits.count == 2 && layout.visits.first?.cluster.photoIDs.count == 11)
        #expect(layout.visits.map(\.localDate) == ["2025-06-10", "2025-06-11"])
        #expect(layout.days == ["2025-06-10", "2025-06-11"])
        #expect((1...11).allSatisfy { layout.photoDays[Int64($0)] == "2025-06-10" } && layout.photoDays[12] == "2025-06-11")
        // The same night changed around its last photo: the days it gives are the full pass's.
        let known = Self.known(after: layout)
        let rework = ClusterStage.rework(photos, visits: known.visits.map { $0 }, changed: [11], options: ClusteringOptions())
        #expect(rework.photoDays.allSatisfy { $0.value == layout.photoDays[$0.key] }, "\(rework.photoDays)")
    }

    @Test("thresholds changed: a split visit keeps its id in the larger part, with the next revision")
    func thresholdsChanged() {
        let first = ClusterStage.layout(Self.photos(), known: KnownLayout(), options: ClusteringOptions())
        // Shots are 10 minutes apart, so a 5-minute gap makes every photo a visit of its own.
        let split = ClusterStage.layout(Self.photos(), known: Self.known(after: first), options: ClusteringOptions(visitGap: 300))
        #expect(split.visits.count == 15)
        let heirs = split.visits.filter { ["v1", "v6", "v11"].contains($0.id) }
        #expect(heirs.count == 3)
        #expect(heirs.allSatisfy { $0.revision == 2 })
        #expect(split.visits.filter { !["v1", "v6", "v11"].contains($0.id) }.allSatisfy { $0.revision == 1 })
    }

    @Test("an id that disappears and comes back continues from its last revision")
    func returningID() throws {
        let first = ClusterStage.layout(Self.photos(), known: KnownLayout(), options: ClusteringOptions())
        let firstKnown = Self.known(after: first)
        // The first stop's photos leave the folder: v1 is retired.
        let without = ClusterStage.layout(Self.photos(skipping: [1, 2, 3, 4, 5]), known: firstKnown, options: ClusteringOptions())
        #expect(!without.visits.contains { $0.id == "v1" })
        let withoutKnown = Self.known(after: without, before: firstKnown)
        #expect(withoutKnown.lastRevisions["v1"] == 1)
        // They come back: v1 again, but never revision 1 again, which named the old state.
        let back = ClusterStage.layout(Self.photos(), known: withoutKnown, options: ClusteringOptions())
        let v1 = try #require(back.visits.first { $0.id == "v1" })
        #expect(v1.revision == 2)
        let place = back.places.first { $0.id == v1.placeID }
        #expect((place?.revision ?? 0) >= 2)
    }

    /// `layout` with `change` stored over it, as the catalog stores it.
    static func applying(_ change: LayoutChange, to layout: TripLayout) -> TripLayout {
        if change.isFull { return TripLayout(places: change.places, visits: change.visits, photoDays: change.photoDays.compactMapValues { $0 }) }
        let remade = Set(change.visits.map(\.id)), remadePlaces = Set(change.places.map(\.id))
        var result = TripLayout(photoDays: layout.photoDays)
        for (photo, day) in change.photoDays { result.photoDays[photo] = day }
        result.visits = layout.visits.filter { !remade.contains($0.id) && !change.retiredVisits.contains($0.id) }.map { visit in
            var visit = visit
            visit.placeID = change.movedVisits[visit.id] ?? visit.placeID
            return visit
        } + change.visits
        result.visits.sort { ($0.cluster.arrival, $0.id) < ($1.cluster.arrival, $1.id) }
        result.places = layout.places.filter { !remadePlaces.contains($0.id) && !change.retiredPlaces.contains($0.id) } + change.places
        return result
    }

    /// Visits as sets of photos, places as groups of those: what a layout is, ids and revisions aside.
    static func shape(_ layout: TripLayout) -> (visits: Set<Set<Int64>>, places: Set<Set<Set<Int64>>>) {
        var places: [String: Set<Set<Int64>>] = [:]
        for visit in layout.visits { places[visit.placeID, default: []].insert(Set(visit.cluster.photoIDs)) }
        return (Set(layout.visits.map { Set($0.cluster.photoIDs) }), Set(places.values))
    }

    /// A library in miniature: 40 days over two months, each with a few stops drawn from 25 spots
    /// of one city (so places are visited again and again, some spots 100-200 m apart), photos
    /// seconds to an hour apart, a few without a position or time, from three cameras.
    static func library(_ random: inout SplitMix) -> [ResolvedPhoto] {
        let spots = (0..<25).map { index in
            ClusteringTests.offset(lisbon, north: random.uniform(-3000, 3000), east: Double(index % 5) * 150 + random.uniform(-40, 40))
        }
        var photos: [ResolvedPhoto] = []
        for day in 0..<40 {
            var time = start.addingTimeInterval(Double(day) * 86_400 * 1.5)
            for _ in 0..<Int(random.uniform(1, 6)) {
                let spot = spots[Int(random.uniform(0, Double(spots.count)))]
                for _ in 0..<Int(random.uniform(1, 12)) {
                    time += random.uniform(5, 3_600)
                    photos.append(randomPhoto(id: Int64(photos.count + 1), at: time, near: spot, &random))
                }
                time += random.uniform(600, 4 * 3_600)
            }
        }
        return photos
    }

    static func randomPhoto(id: Int64, at time: Date, near spot: Coordinate, _ random: inout SplitMix) -> ResolvedPhoto {
        let placed = random.uniform(0, 1) > 0.03
        let inferred = random.uniform(0, 1) < 0.1
        // One GPS fix in twenty jumps 300 m to 1.5 km for a moment: strays.
        let jump = !inferred && random.uniform(0, 1) < 0.05 ? random.uniform(300, 1_500) : 0
        return ResolvedPhoto(id: id, utc: random.uniform(0, 1) > 0.01 ? time : nil, zone: "Europe/Lisbon", cameraTime: nil,
                             coordinate: placed ? ClusteringTests.offset(spot, north: random.uniform(-60, 60) + jump, east: random.uniform(-60, 60)) : nil,
                             uncertaintyMeters: inferred ? random.uniform(100, 600) : 10, path: "IMG_\(id).JPG",
                             locationSource: inferred ? .interpolated : .exif)
    }

    /// One random change of the kind a rerun sees, and the ids it changed.
    static func randomChange(_ photos: inout [ResolvedPhoto], nextID: inout Int64, _ random: inout SplitMix) -> (kind: String, changed: Set<Int64>) {
        var changed = Set<Int64>()
        let kind = ["add a day", "add into a day", "remove", "remove a stop", "edit times", "move", "clock offset", "Live Photo"][Int(random.uniform(0, 8))]
        switch kind {
        case "add a day", "add into a day":
            let anchor = photos.compactMap(\.utc).randomElement(using: &random)!
            var time = kind == "add a day" ? anchor.addingTimeInterval(random.uniform(-20, 20) * 86_400) : anchor
            let spot = photos.compactMap(\.coordinate).randomElement(using: &random)!
            for _ in 0..<Int(random.uniform(1, 30)) {
                time += random.uniform(5, 1_800)
                photos.append(randomPhoto(id: nextID, at: time, near: spot, &random))
                changed.insert(nextID)
                nextID += 1
            }
        case "remove":
            for _ in 0..<Int(random.uniform(1, 20)) where !photos.isEmpty {
                changed.insert(photos.remove(at: Int(random.uniform(0, Double(photos.count)))).id)
            }
        case "remove a stop":
            // Every photo within an hour or so of one: a stop's folder deleted.
            guard let around = photos.compactMap(\.utc).randomElement(using: &random) else { break }
            let reach = random.uniform(0.5, 5) * 3_600
            photos.removeAll { photo in
                guard let utc = photo.utc, abs(utc.timeIntervalSince(around)) <= reach else { return false }
                changed.insert(photo.id)
                return true
            }
        case "edit times", "move":
            for _ in 0..<Int(random.uniform(1, 15)) {
                let index = Int(random.uniform(0, Double(photos.count)))
                if kind == "move", let here = photos[index].coordinate {
                    photos[index].coordinate = ClusteringTests.offset(here, north: random.uniform(-400, 400), east: random.uniform(-400, 400))
                } else {
                    photos[index].utc = photos[index].utc?.addingTimeInterval(random.uniform(-3, 3) * 3_600)
                }
                changed.insert(photos[index].id)
            }
        case "clock offset":
            // One camera's clock set right: every photo it took moves by the same hours.
            let camera = Int64(random.uniform(0, 3)), hours = [-2.0, -1, 1, 3][Int(random.uniform(0, 4))]
            for index in photos.indices where photos[index].id % 3 == camera && photos[index].utc != nil {
                photos[index].utc = photos[index].utc!.addingTimeInterval(hours * 3_600)
                changed.insert(photos[index].id)
            }
        default:
            // A Live Photo's video linked to (or unlinked from) its still: it leaves (or joins)
            // clustering and the days without its resolution changing; the catalog lists it
            // (a trigger on the link), so it is named.
            let index = Int(random.uniform(0, Double(photos.count)))
            photos[index].liveStillID = photos[index].liveStillID == nil ? photos[(index + 1) % photos.count].id : nil
            changed.insert(photos[index].id)
        }
        return (kind, changed)
    }

    @Test("an incremental recluster equals a full one on randomised changes, and reworks only around them")
    func incrementalEqualsFull() {
        var random = SplitMix(seed: 15)
        for library in 0..<6 {
            var photos = Self.library(&random)
            var nextID = Int64(photos.count + 1)
            var layout = ClusterStage.layout(photos, known: KnownLayout(), options: ClusteringOptions())
            var known = Self.known(after: layout)
            var reworked = 0, total = 0, strays = 0
            for round in 0..<25 {
                let (kind, changed) = Self.randomChange(&photos, nextID: &nextID, &random)
                let change = ClusterStage.change(photos, known: known, changed: changed, options: ClusteringOptions())
                layout = Self.applying(change, to: layout)
                let full = ClusterStage.layout(photos, known: KnownLayout(), options: ClusteringOptions())
                let (incremental, expected) = (Self.shape(layout), Self.shape(full))
                #expect(incremental.visits == expected.visits, "library \(library), round \(round) (\(kind)): visits differ")
                #expect(incremental.places == expected.places, "library \(library), round \(round) (\(kind)): places differ")
                #expect(layout.days == full.days)
                #expect(layout.photoDays == full.photoDays, "library \(library), round \(round) (\(kind)): photo days differ")
                // Every visit as a full recompute makes it: centre, times, day, zone.
                let fullVisits = Dictionary(uniqueKeysWithValues: full.visits.map { (Set($0.cluster.photoIDs), $0) })
                for visit in layout.visits {
                    let twin = fullVisits[Set(visit.cluster.photoIDs)]
                    #expect(twin?.cluster == visit.cluster && twin?.localDate == visit.localDate && twin?.timeZone == visit.timeZone)
                }
                // Ids stay unique, and every visit's place exists.
                #expect(Set(layout.visits.map(\.id)).count == layout.visits.count)
                #expect(Set(layout.places.map(\.id)).count == layout.places.count)
                #expect(Set(layout.visits.map(\.placeID)) == Set(layout.places.map(\.id)))
                reworked += change.visits.count
                total += layout.visits.count
                strays += layout.visits.map(\.cluster.strayIDs.count).reduce(0, +)
                known = Self.known(after: layout, before: known)
            }
            // A change reworks the visits around it, not the library's (the clock-offset
            // changes move a third of all photos, so this is an average over all kinds).
            #expect(Double(reworked) < 0.5 * Double(total), "library \(library): \(reworked) of \(total) visits reworked")
            #expect(strays > 0, "library \(library): the changes made no stray to check")
        }
    }

    @Test("the place rule depends on the set of visits, not their order")
    func placesOrderIndependent() {
        var random = SplitMix(seed: 7)
        let visits = VisitClustering.visits(Self.library(&random).compactMap { photo in
            photo.utc.flatMap { utc in photo.coordinate.map { ClusterPhoto(id: photo.id, utc: utc, coordinate: $0, uncertaintyMeters: photo.uncertaintyMeters) } }
        })
        func groups(_ visits: [VisitCluster]) -> Set<Set<Int64>> {
            let places = VisitClustering.places(visits)
            var members: [Int: Set<Int64>] = [:]
            for (index, place) in places.enumerated() { members[place, default: []].insert(visits[index].photoIDs[0]) }
            return Set(members.values)
        }
        let expected = groups(visits)
        #expect(expected.count > 10 && expected.count < visits.count)
        for _ in 0..<5 { #expect(groups(visits.shuffled(using: &random)) == expected) }
    }

    @Test("a catalog clustered by older rules is clustered again, and the run says so; other options and reruns do not say it")
    func newerRulesSaid() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let first = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        #expect(!first.reclusteredByNewRules, "a fresh catalog has no older rules")
        var options = IngestOptions(folder: trip.path)
        options.visitGap = 90 * 60
        #expect(try await !IngestPipeline(options: options).run(progress: SilentProgress()).reclusteredByNewRules, "options the person gave")
        // As an older geotrip left it: its rules' name in front of the same options.
        do {
            let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path))
            defer { catalog.releaseLock() }
            let key = try #require(try catalog.setting(Catalog.SettingKey.clusteredFor))
            try catalog.setSetting(Catalog.SettingKey.clusteredFor, to: "places1" + key.drop { $0 != "|" })
        }
        #expect(try await IngestPipeline(options: options).run(progress: SilentProgress()).reclusteredByNewRules)
        #expect(try await !IngestPipeline(options: options).run(progress: SilentProgress()).reclusteredByNewRules, "said once")
    }

    @Test("a name survives a recluster; one made for an older revision is detected; a move over 50 m asks again")
    func namingSeam() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        // Read-only, so the run lock is free for the next ingest.
        let named = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly).placeNames(source: .offline)
        #expect(named.count == 11)
        #expect(named.values.allSatisfy { $0.name.countryCode != nil })

        // Recluster with another gap: the places stay, and so do their names, not asked again.
        var options = IngestOptions(folder: trip.path)
        options.visitGap = 90 * 60
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let again = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path))
        let renamed = try again.placeNames(source: .offline)
        for (id, name) in named where try again.currentPlaces().contains(where: { $0.placeID == id }) {
            #expect(renamed[id] == name, "\(id) was named again")
        }

        // A place moved 20 m with a new revision keeps its name, which is now detectably older.
        var layout = TripLayout()
        let known = try again.knownLayout()
        let place = try #require(known.places.first)
        let moved20 = ClusteringTests.offset(place.centre, north: 20, east: 0)
        layout.places = [TripLayout.Place(id: place.id, revision: place.revision + 1, centre: moved20, start: place.start)]
        try again.saveLayout(LayoutChange(replacingWith: layout), key: "test")
        #expect(try again.placesNamedForOlderRevisions() == [place.id])
        #expect(NameStage.needingNames(try again.currentPlaces(), existing: try again.placeNames(source: .offline)).isEmpty)
        #expect(try again.placesNeedingNames(source: .offline).isEmpty)
        // No online names at all: every place, as `currentPlaces` gives it (its visits' reach included).
        #expect(try again.placesNeedingNames(source: .nominatim, language: "en") == again.currentPlaces())
        // Moved 80 m: asked again.
        layout.places[0].centre = ClusteringTests.offset(place.centre, north: 80, east: 0)
        layout.places[0].revision += 1
        try again.saveLayout(LayoutChange(replacingWith: layout), key: "test")
        #expect(NameStage.needingNames(try again.currentPlaces(), existing: try again.placeNames(source: .offline)).map(\.placeID) == [place.id])
        // Found by SQL among the places whose name was made elsewhere, with the same reach.
        #expect(try again.placesNeedingNames(source: .offline) == NameStage.needingNames(try again.currentPlaces(), existing: try again.placeNames(source: .offline)))
        // Retired places keep their names for when they come back.
        #expect(try again.placeNames(source: .offline).count == renamed.count)
    }
}

/// The one `Trip` value every view renders from.
@Suite("Trip model")
struct TripModelTests {
    static func visit(_ id: String, place: String, day: String, at lat: Double, _ lon: Double, country: String) -> TripVisit {
        TripVisit(id: id, placeId: place, revision: 1, latitude: lat, longitude: lon, radiusMeters: 10, arrival: day + "T10:00:00Z",
                  departure: day + "T11:00:00Z", localDate: day, timeZone: nil, localArrival: nil, localDeparture: nil, photoCount: 1,
                  photos: ["\(id).jpg"], name: "N\(place)", admin1: nil, country: nil, countryCode: country, nameSource: "offline")
    }

    @Test("days hold their visits and unplaced photos, days with only unplaced photos included; places, countries, distance")
    func build() {
        let visits = [Self.visit("v1", place: "p1", day: "2025-06-10", at: 38.7, -9.1, country: "PT"),
                      Self.visit("v2", place: "p2", day: "2025-06-10", at: 38.8, -9.1, country: "PT"),
                      Self.visit("v3", place: "p1", day: "2025-06-12", at: 38.7, -9.1, country: "PT"),
                      Self.visit("v4", place: "p4", day: "2025-06-13", at: 40.4, -3.7, country: "ES")]
        let trip = Trip(visits: visits, outside: [("a.jpg", "2025-06-11"), ("b.jpg", nil), ("c.jpg", "2025-06-10")],
                        days: ["2025-06-10", "2025-06-11", "2025-06-12", "2025-06-13"])
        #expect(trip.days.map(\.date) == ["2025-06-10", "2025-06-11", "2025-06-12", "2025-06-13"])
        #expect(trip.days[0].visits.map(\.id) == ["v1", "v2"])
        #expect(trip.days[0].unplacedPhotos == ["c.jpg"])
        #expect(trip.days[1].visits.isEmpty && trip.days[1].unplacedPhotos == ["a.jpg"])
        #expect(trip.undatedPhotos == ["b.jpg"])
        #expect(trip.places.map(\.id) == ["p1", "p2", "p4"])
        #expect(trip.places[0].visitIDs == ["v1", "v3"])
        #expect(trip.countries == ["ES", "PT"])
        // Haversine on the mean Earth radius (6371.0088 km), worked out apart: 0.1° of latitude
        // there and back, then to Madrid, 522.2206 km in all.
        #expect(abs(trip.distanceKilometres - 522.2206) < 0.01)
        #expect(trip.overview.places == 3 && trip.overview.visits == 4)
    }
}

/// The pipeline as a list of named stages (issue 10).
@Suite("Pipeline stages")
struct PipelineStageTests {
    /// Records every progress report.
    final class Recorder: IngestProgressReporting, @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [IngestProgress] = []
        func report(_ progress: IngestProgress) { lock.withLock { reports.append(progress) } }
        func finish() {}
        /// The last report of `stage`.
        func last(_ stage: IngestStage) -> IngestProgress? { lock.withLock { reports.last { $0.stage == stage } } }
        /// Each stage once, in the order it started, with its number and the total.
        var stages: [String] {
            lock.withLock {
                var seen: [String] = []
                for report in reports where !seen.contains(where: { $0.hasPrefix("\(report.stage.rawValue) ") }) {
                    seen.append("\(report.stage.rawValue) \(report.number)/\(report.count)")
                }
                return seen
            }
        }
    }

    @Test("stages run in data order and are numbered out of the run's real total", arguments: [false, true])
    func numbering(writeXMP: Bool) async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        var options = IngestOptions(folder: trip.path)
        options.writeXMP = writeXMP
        let recorder = Recorder()
        _ = try await IngestPipeline(options: options).run(progress: recorder)
        #expect(recorder.stages == (writeXMP
            ? ["scan 1/8", "plan 2/8", "read 3/8", "resolve 4/8", "sidecars 5/8", "cluster 6/8", "name 7/8", "export 8/8"]
            : ["scan 1/7", "plan 2/7", "read 3/7", "resolve 4/7", "cluster 5/7", "name 6/7", "export 7/7"]))
        #expect(IngestProgress(stage: .read, number: 3, count: 6, done: 1234, total: 10_000).line(elapsed: 0)
                == "[3/6] read  1,234/10,000")
        // Resolution and clustering count the photos they work through, to the last.
        let resolved = try #require(recorder.last(.resolve)), clustered = try #require(recorder.last(.cluster))
        #expect(resolved.total == clustered.total && (resolved.total ?? 0) > 30)
        #expect(resolved.done == resolved.total && clustered.done == clustered.total)
        #expect(IngestProgress(stage: .resolve, number: 4, count: 7, done: 500, total: 1_000).line(elapsed: 1)
                == "[4/7] resolve  500/1,000  500 photos/s  ETA 1 s")
    }

    @Test("a run error names the stage it came from")
    func errorsNameTheirStage() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let (trip, path) = try await HardeningTests.ingestedSample(in: temp)
        // A clock offset an older geotrip could have stored, which resolution refuses to use.
        try await HardeningTests.storeSetting(path, "resolution", #"{"clockOffsets":["+99999 00:00:00"],"tracks":[],"writeXMP":false}"#)
        try await HardeningTests.storeSetting(path, "resolvedInputs", "x")
        do {
            _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
            Issue.record("the run should have stopped")
        } catch let error as GeoTripError {
            guard case .stageFailed(let stage, let number, let count, let underlying) = error else {
                Issue.record("not tagged with its stage: \(error)")
                return
            }
            #expect((stage, number, count) == ("resolve", 4, 7))
            #expect(error.description.hasPrefix("[4/7] resolve: The catalog at \(path) remembers an invalid --clock-offset"))
            if case .settingInvalid = underlying {} else { Issue.record("\(underlying)") }
        }
    }
}
