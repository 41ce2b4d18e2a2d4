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
                                             start: visit.cluster.arrival, centre: visit.cluster.centre))
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
        try again.saveLayout(layout, key: "test")
        #expect(try again.placesNamedForOlderRevisions() == [place.id])
        #expect(NameStage.needingNames(try again.currentPlaces(), existing: try again.placeNames(source: .offline)).isEmpty)
        // Moved 80 m: asked again.
        layout.places[0].centre = ClusteringTests.offset(place.centre, north: 80, east: 0)
        layout.places[0].revision += 1
        try again.saveLayout(layout, key: "test")
        #expect(NameStage.needingNames(try again.currentPlaces(), existing: try again.placeNames(source: .offline)).map(\.placeID) == [place.id])
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
