import Foundation
import GeoTripTestSupport
import Synchronization
import Testing
@testable import GeoTripCore

/// A folder of three trips and the days at home between them (`LibraryFixture`, written by
/// exiftool): one journal and map per trip under `trips/`, the page of trips, home kept out,
/// notes that follow their trip when its folder changes, and reruns that write only the trips
/// that changed.
@Suite("Library export", .serialized, .enabled(if: LibraryFixture.canWrite, "exiftool writes the library"))
struct LibraryExportTests {
    struct Library {
        let temp: TemporaryFolder
        let folder: URL
        var out: URL { folder.appendingPathComponent("geotrip") }

        init() throws {
            temp = try TemporaryFolder()
            folder = temp.url.appendingPathComponent("Photos")
            try LibraryFixture.write(into: folder)
        }

        @discardableResult
        func ingest() async throws -> IngestSummary {
            try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
        }

        func tripFolder(_ number: Int) -> URL { out.appendingPathComponent("trips/" + LibraryFixture.trips[number - 1].0) }

        /// Writes `note` into the notes block of `day` in trip `number`'s journal, as a person
        /// would; returns the day file.
        @discardableResult
        func writeNote(_ note: String, trip number: Int, day: String) throws -> URL {
            let file = tripFolder(number).appendingPathComponent("journal/\(day).md")
            var text = try String(contentsOf: file, encoding: .utf8)
            let marker = try #require(text.range(of: "<!-- notes \(day) -->\n"))
            text.insert(contentsOf: note, at: marker.upperBound)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file
        }

        /// One more photo on a day of the schedule, at `spot`, in subfolder `folder`.
        func addPhoto(on date: String, at spot: (Double, Double), folder: String) throws {
            var more = LibraryFixture.schedule.first { $0.date == date }!
            more.spots = [spot]
            more.folder = folder
            try LibraryFixture.write(into: self.folder, days: [more])
        }

        /// Photos `NAME.jpg` in subfolder `folder`, written by exiftool: each at `time` (`HH:MM`)
        /// on `date` (`YYYY:MM:DD`, offset +00:00), at its spot or without GPS (nil).
        func writePhotos(in folder: String, on date: String, _ photos: [(name: String, time: String, spot: (Double, Double)?)]) throws {
            let subfolder = self.folder.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
            for (name, time, spot) in photos {
                #expect(try ExiftoolPhoto.write(to: subfolder.appendingPathComponent(name + ".jpg"), dateTime: "\(date) \(time):00", offset: "+00:00",
                                                at: spot.map { (latitude: $0.0, longitude: $0.1) }))
            }
        }

        /// Photos in Lisbon on 2024-01-14: the first trip starts a day earlier, so its folder
        /// becomes `trips/2024-01-14`.
        func addLisbonDayBefore() throws {
            var earlier = LibraryFixture.schedule.first { $0.date == "2024-01-15" }!
            earlier.date = "2024-01-14"
            earlier.folder = "earlier"
            try LibraryFixture.write(into: folder, days: [earlier])
        }

        /// `geotrip export` of the library as its catalog remembers it: every trip and page
        /// rendered, through `thumbnails` (the maker by default), telling `progress`.
        @discardableResult
        func exportEverything(thumbnails: (any ThumbnailProvider)? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ExportSummary {
            let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: folder.path))
            defer { catalog.releaseLock() }
            var stage = ExportStage(catalog: catalog, folder: folder.path, thumbnails: thumbnails ?? MadeThumbnails(tripFolder: folder.path))
            stage.progress = progress
            return try await stage.run(settings: try catalog.storedExportSettings(), language: try catalog.storedNamingLanguage(), checkEverything: true)
        }

        /// The first thumbnail the page of `day` in trip `number` links (`thumbs/…`, relative to
        /// the trip's folder).
        func linkedThumbnail(trip number: Int, day: String) throws -> String {
            let page = try String(contentsOf: tripFolder(number).appendingPathComponent("journal/\(day).md"), encoding: .utf8)
            return try #require(page.range(of: #"thumbs/[0-9]+-[0-9a-f]{8}\.jpg"#, options: .regularExpression).map { String(page[$0]) })
        }

        /// The notes the catalog keeps, by owner.
        func storedNotes() throws -> [String: String] {
            try Catalog.open(at: IngestOptions.defaultCatalogPath(for: folder.path), access: .readOnly).journalNotes().mapValues(\.text)
        }

        func files(under url: URL) -> [String] {
            (FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []).sorted()
        }

        func modified(_ url: URL) throws -> Date {
            try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        }
    }

    @Test("each trip gets its own journal, map and GeoJSON; home days are in none; the page of trips links them all")
    func tripsAndIndex() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        let summary = try await library.ingest()
        #expect(summary.export?.trips == 3)

        let tripFolders = try FileManager.default.contentsOfDirectory(atPath: library.out.appendingPathComponent("trips").path).sorted()
        #expect(tripFolders == LibraryFixture.trips.map(\.0))
        // No notes wait for a place: the library has no journal folder of its own. The hidden
        // file names the photo folder the outputs are of.
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.out.path).sorted() == [OutputFolder.ownerFile, "index.html", "trips"])
        for (number, (first, _)) in LibraryFixture.trips.enumerated() {
            let planned = LibraryFixture.schedule.filter { $0.trip == number + 1 }.map { $0.date + ".md" }
            let journal = library.tripFolder(number + 1).appendingPathComponent("journal")
            #expect(try FileManager.default.contentsOfDirectory(atPath: journal.path).sorted() == planned, "trip \(first)")
            for name in ["index.html", "trip.geojson"] {
                #expect(FileManager.default.fileExists(atPath: library.tripFolder(number + 1).appendingPathComponent(name).path))
            }
            // Each trip's map leads back to the page of trips.
            let map = try String(contentsOf: library.tripFolder(number + 1).appendingPathComponent("index.html"), encoding: .utf8)
            #expect(map.contains("<p class=\"up\"><a href=\"../../index.html\">← All trips</a></p>"))
            // Each trip's GeoJSON has its own visits only (RFC 7946 points, [lon, lat]).
            let geoJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: library.tripFolder(number + 1).appendingPathComponent("trip.geojson")))
            let features = try #require((geoJSON as? [String: Any])?["features"] as? [[String: Any]])
            let points = features.compactMap { ($0["geometry"] as? [String: Any]).flatMap { $0["type"] as? String == "Point" ? $0["coordinates"] as? [Double] : nil } }
            let spots = LibraryFixture.schedule.filter { $0.trip == number + 1 }.flatMap(\.spots)
            #expect(!points.isEmpty)
            for point in points {
                #expect(spots.contains { abs($0.0 - point[1]) < 0.01 && abs($0.1 - point[0]) < 0.01 }, "a visit of another trip in trip \(number + 1): \(point)")
            }
        }
        // The single trip's files are not written for a library, and no home day has a page.
        let all = library.files(under: library.out)
        #expect(!all.contains("trip.geojson"))
        for day in LibraryFixture.schedule where day.trip == nil {
            #expect(!all.contains { $0.hasSuffix(day.date + ".md") }, "home day \(day.date) has a journal page")
        }
        // The page of trips: newest first, each linking its map and journal, with a cover.
        let page = try String(contentsOf: library.out.appendingPathComponent("index.html"), encoding: .utf8)
        let links = page.components(separatedBy: "<h2><a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links == LibraryFixture.trips.reversed().map { "trips/\($0.0)/index.html" })
        // Each journal link opens a page that is there (its first day's), not a bare folder.
        let journals = page.components(separatedBy: " · <a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(journals.count == 3 && journals.allSatisfy { $0.hasSuffix(".md") }, "\(journals)")
        for journal in journals { #expect(FileManager.default.fileExists(atPath: library.out.appendingPathComponent(journal).path), "\(journal)") }
        let covers = page.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(covers.count == 3)
        for cover in covers { #expect(FileManager.default.fileExists(atPath: library.out.appendingPathComponent(cover).path), "\(cover)") }
        #expect(page.contains("Portugal") && page.contains("Japan"))
        #expect(page.contains("3 trips, 2024, 8 days away"))
    }

    @Test("home is a privacy zone: the house is in no trip's map, GeoJSON or journal; --no-hide-home shows it")
    func homeIsPrivate() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        // A first trip day that begins at the house: its photo there is the trip's, and hidden.
        var leaving = LibraryFixture.schedule.first { $0.date == "2024-01-15" }!
        leaving.spots = [LibraryFixture.house]
        leaving.offset = "+01:00"
        leaving.folder = "leaving"
        try LibraryFixture.write(into: library.folder, days: [leaving])
        try await library.ingest()
        let house = String(format: "%.4f", LibraryFixture.house.0)
        for file in library.files(under: library.tripFolder(1)) where file.hasSuffix(".md") || file.hasSuffix(".geojson") || file.hasSuffix(".html") {
            let text = try String(contentsOf: library.tripFolder(1).appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains(house), "\(file) shows the house")
        }
        var options = IngestOptions(folder: library.folder.path)
        options.hideHome = false
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let geoJSON = try String(contentsOf: library.tripFolder(1).appendingPathComponent("trip.geojson"), encoding: .utf8)
        #expect(geoJSON.contains(house))
    }

    @Test("an unchanged rerun writes nothing; a photo added to one trip rewrites that trip's files only")
    func onlyChangedTrips() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let again = try await library.ingest()
        #expect(again.export?.written == 0)
        let firstMap = library.tripFolder(1).appendingPathComponent("index.html")
        let before = try library.modified(firstMap)
        // Another photo on Kyoto's last day.
        try library.addPhoto(on: "2024-02-21", at: (35.0116, 135.7681), folder: "more")
        let added = try await library.ingest()
        #expect(added.export?.trips == 3)
        #expect(try library.modified(firstMap) == before, "trip 1 was written again")
        let kyoto = try String(contentsOf: library.tripFolder(2).appendingPathComponent("journal/2024-02-21.md"), encoding: .utf8)
        #expect(kyoto.contains("more/2024-02-21-0.jpg"))
        // Written: Kyoto's day page, its GeoJSON and map, and the page of trips; nothing else.
        #expect(added.export?.written == 4)
    }

    @Test("a library trip shows a photo without a zone that one camera's clock correction moves into it from days before")
    func correctedClockInLibraryTrip() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        // A camera with neither GPS nor offsets, its clock three days slow: 2024-02-17 is the
        // Kyoto trip's first day, 2024-02-20, outside the trip's window by its own clock.
        let photo = library.folder.appendingPathComponent("scanner/slow.jpg")
        try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0032.JPG"), to: photo)
        let written = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                         ["-q", "-overwrite_original", "-GPS:all=", "-OffsetTime*=", "-Make=TestCam", "-Model=Slow",
                                          "-DateTimeOriginal=2024:02:17 12:00:00", photo.path])
        #expect(written.status == 0)
        var options = IngestOptions(folder: library.folder.path)
        options.clockOffsets = ["TestCam Slow=+3 00:00:00"]
        let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
        #expect(summary.export?.trips == 3)
        let kyoto = try String(contentsOf: library.tripFolder(2).appendingPathComponent("journal/2024-02-20.md"), encoding: .utf8)
        #expect(kyoto.contains("slow.jpg"), "\(kyoto)")
        let undated = library.out.appendingPathComponent("journal/undated-photos.md")
        #expect(!((try? String(contentsOf: undated, encoding: .utf8))?.contains("slow.jpg") ?? false))
    }

    @Test("a new trip's morning at the house, with a camera placed from it, is hidden in that trip and writes no other trip again")
    func departureMorningWritesNoOtherTrip() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let earlierMaps = [1, 2].map { library.tripFolder($0).appendingPathComponent("index.html") }
        let before = try earlierMaps.map { try library.modified($0) }
        // The last trip's first morning: the phone at the house at 07:00 and 5 km away at 07:40;
        // a camera without GPS between, at 07:15 and 07:25, placed on the line between them.
        try library.writePhotos(in: "leaving", on: "2024:03:11", [("phone-1", "07:00", LibraryFixture.house), ("camera-1", "07:15", nil),
                                                                  ("camera-2", "07:25", nil), ("phone-2", "07:40", (52.4100, 4.9300))])
        let summary = try await library.ingest()
        // The camera's visits are hidden in the trip (run back to 07:00, their line gives the house).
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path), access: .readOnly)
        let placed = try catalog.photos().filter { $0.path.hasPrefix("leaving/camera") }
        #expect(placed.count == 2 && placed.allSatisfy { $0.locationSource == .interpolated }, "\(placed)")
        let geoJSON = try String(contentsOf: library.tripFolder(3).appendingPathComponent("trip.geojson"), encoding: .utf8)
        for photo in placed {
            let coordinate = try #require(photo.coordinate)
            #expect(!geoJSON.contains(String(format: "%.4f", coordinate.latitude)), "\(coordinate) in the trip's GeoJSON")
        }
        #expect(!geoJSON.contains(String(format: "%.4f", LibraryFixture.house.0)))
        // The other trips' outputs are as they were: not written again.
        #expect(try earlierMaps.map { try library.modified($0) } == before)
        #expect(summary.export?.trips == 3)
    }

    @Test("a camera placed from the house just before the day starts (a day at home) is hidden in the trip that follows")
    func placedFromHouseOnTheDayBefore() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        // The phone at the house at 03:50, a day at home (days start at 04:00); the camera
        // without GPS at 04:10, on the last trip's first day, placed on the line to the phone's
        // 04:35 photo 5 km away: run back to 03:50, the line gives the house.
        try library.writePhotos(in: "night", on: "2024:03:11", [("phone-1", "03:50", LibraryFixture.house), ("camera-1", "04:10", nil),
                                                                ("phone-2", "04:35", (52.4100, 4.9300))])
        let summary = try await library.ingest()
        #expect(summary.export?.trips == 3)
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path), access: .readOnly)
        let camera = try #require(try catalog.photos().first { $0.path == "night/camera-1.jpg" })
        #expect(camera.locationSource == .interpolated)
        let coordinate = try #require(camera.coordinate)
        let trip = library.tripFolder(3)
        for file in ["trip.geojson", "index.html", "journal/2024-03-11.md"] {
            let text = try String(contentsOf: trip.appendingPathComponent(file), encoding: .utf8)
            // Neither its position nor a link to it (a hidden visit's photos are not listed).
            #expect(!text.contains(String(format: "%.4f", coordinate.latitude)) && !text.contains("camera-1"), "\(coordinate) in \(file)")
        }
    }

    @Test("a trip that leaves from the house is not named after it on the page of trips, and the house is not on its map")
    func tripNotNamedAfterHome() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        // The morning of the first Lisbon day at the house, named by its owner.
        try library.addPhoto(on: "2024-01-15", at: LibraryFixture.house, folder: "leaving")
        try await library.ingest()
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path))
        let house = try #require(try catalog.visits().first { $0.localDate == "2024-01-15"
            && GreatCircle.distance($0.centre, Coordinate(latitude: LibraryFixture.house.0, longitude: LibraryFixture.house.1)) < 50 })
        catalog.releaseLock()
        _ = try await PlaceRenamer(folder: library.folder.path, catalogPath: IngestOptions.defaultCatalogPath(for: library.folder.path))
            .rename(house.placeId, to: "Our flat, Kastanienallee 12")
        let index = try String(contentsOf: library.out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("Lisbon") && !index.contains("Kastanienallee"), "\(index)")
        // Nor does home lend it a country or a place: the page counts what the trip's map does.
        #expect(!index.contains("Netherlands") && index.contains("Portugal"), "\(index)")
        let trips = try TripSplitting.split(catalog.trip()).trips
        #expect(trips.first?.trip.visits.contains { $0.placeId == house.placeId } == true)  // it is the trip's visit, kept private
        let map = try String(contentsOf: library.tripFolder(1).appendingPathComponent("trip.geojson"), encoding: .utf8)
        #expect(!map.contains(String(format: "%.4f", LibraryFixture.house.0)))
        // Its distance leaves the ways to and from the house (1,860 km each) out, on the page
        // of trips as on its map (whose legs are all on the ground): the great circles between
        // consecutive visits neither of which is the house, added here on their own.
        let visits = try #require(trips.first).trip.visits
        let metres = zip(visits, visits.dropFirst()).filter { $0.placeId != house.placeId && $1.placeId != house.placeId }
            .map { GreatCircle.distance($0.centre, $1.centre) }.reduce(0, +)
        #expect(metres > 1_000 && metres < 200_000, "\(metres)")
        let shown = "\(Int((metres / 1000).rounded())) km"
        #expect(index.contains("· \(shown)</p>"), "\(shown) in \(index)")
        let tripMap = try String(contentsOf: library.tripFolder(1).appendingPathComponent("index.html"), encoding: .utf8)
        #expect(tripMap.contains(">\(shown)<"), "\(shown) on the trip's map")
        let places = Set(visits.filter { $0.placeId != house.placeId }.map(\.placeId)).count
        #expect(places > 0 && index.contains("\(places) places"), "\(places) places in \(index)")
    }

    @Test("a night added at home, a few metres from the house, writes no trip again: home's zone stays where it was")
    func homeNightWritesNothing() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        // A home day after the last trip, its night 10 m from the house: the house's spot (the
        // mean of its nights) moves by a metre.
        var night = LibraryFixture.schedule.first { $0.date == "2024-04-05" }!
        night.date = "2024-04-10"
        night.spots = [LibraryFixture.cafe, (LibraryFixture.house.0 + 0.00009, LibraryFixture.house.1)]
        night.folder = "home-more"
        try LibraryFixture.write(into: library.folder, days: [night])
        let added = try await library.ingest()
        #expect(added.export?.trips == 3)
        #expect(added.export?.written == 0, "\(String(describing: added.export))")
    }

    @Test("a library that shrinks to one trip keeps its home private, also when its catalog kept none (an older build's); --no-hide-home shows it",
          arguments: [false, true])
    func shrunkKeepsHomePrivate(olderCatalog: Bool) async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        if olderCatalog {
            let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path))
            try catalog.removeSetting(Catalog.SettingKey.keptHome)
            catalog.releaseLock()
        }
        // January's photos go (home days and the first trip): 2024-02-15 to 2024-04-05 is 51
        // days, one trip, with the house on its home days.
        for name in try FileManager.default.contentsOfDirectory(atPath: library.folder.appendingPathComponent("home").path)
        where name.hasPrefix("2024-01-") {
            try FileManager.default.removeItem(at: library.folder.appendingPathComponent("home/" + name))
        }
        try FileManager.default.removeItem(at: library.folder.appendingPathComponent("2024-01 Lisboa"))
        let shrunk = try await library.ingest()
        #expect(shrunk.export?.trips == 0, "one trip")
        let house = String(format: "%.4f", LibraryFixture.house.0)
        func shown() throws -> [String] {
            try library.files(under: library.out).filter { $0.hasSuffix(".md") || $0.hasSuffix(".geojson") || $0.hasSuffix(".html") }
                .filter { try String(contentsOf: library.out.appendingPathComponent($0), encoding: .utf8).contains(house) }
        }
        #expect(FileManager.default.fileExists(atPath: library.out.appendingPathComponent("trip.geojson").path))
        #expect(try shown().isEmpty, "files that show the house")
        var options = IngestOptions(folder: library.folder.path)
        options.hideHome = false
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        #expect(try shown().contains("trip.geojson"))
    }

    @Test("export --forget-old-homes stops hiding a place kept as an earlier home, keeps today's home private, and forgets nothing in a folder with no home now")
    func forgetOldHomes() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        // A place in Lisbon taken for a home once (say, by a wrong clock offset), kept since.
        let hotel = Coordinate(latitude: 38.6916, longitude: -9.2160)
        let catalogPath = IngestOptions.defaultCatalogPath(for: library.folder.path)
        do {
            let catalog = try Catalog.open(at: catalogPath)
            defer { catalog.releaseLock() }
            try catalog.keepHomes(try catalog.keptHomes() + [hotel])
            let earlier = try catalog.earlierHomes(than: try catalog.library(photoPaths: false).library)
            #expect(earlier == [hotel])
        }
        let house = String(format: "%.4f", LibraryFixture.house.0), shownHotel = String(format: "%.4f", hotel.latitude)
        func files(showing text: String) throws -> [String] {
            try library.files(under: library.out).filter { $0.hasSuffix(".md") || $0.hasSuffix(".geojson") || $0.hasSuffix(".html") }
                .filter { try String(contentsOf: library.out.appendingPathComponent($0), encoding: .utf8).contains(text) }
        }
        let hidden = try await library.exportEverything()
        #expect(hidden.forgottenHomes.isEmpty)
        #expect(try files(showing: shownHotel).isEmpty)

        var exporter = TripExport(folder: library.folder.path, catalogPath: catalogPath)
        exporter.forgetOldHomes = true
        let forgetting = try await exporter.run()
        #expect(forgetting.forgottenHomes == [hotel] && forgetting.forgettingFollowed && !hidden.forgettingFollowed)
        // Asked again, there is nothing left to forget, which the summary says.
        let again = try await exporter.run()
        #expect(again.forgottenHomes.isEmpty && again.forgettingFollowed)
        #expect(try files(showing: shownHotel).contains("trips/\(LibraryFixture.trips[0].0)/trip.geojson"))
        #expect(try files(showing: house).isEmpty, "files that show the house")
        let kept = try Catalog.open(at: catalogPath, access: .readOnly).keptHomes()
        #expect(kept.count == 1 && kept.allSatisfy { GreatCircle.distance($0, Coordinate(latitude: LibraryFixture.house.0, longitude: LibraryFixture.house.1)) < 50 })

        // Shrunk to one trip (no home now): asked to forget, it forgets nothing, and says why.
        for name in try FileManager.default.contentsOfDirectory(atPath: library.folder.appendingPathComponent("home").path)
        where name.hasPrefix("2024-01-") {
            try FileManager.default.removeItem(at: library.folder.appendingPathComponent("home/" + name))
        }
        try FileManager.default.removeItem(at: library.folder.appendingPathComponent("2024-01 Lisboa"))
        try await library.ingest()
        let refused = try await exporter.run()
        #expect(refused.forgottenHomes.isEmpty && !refused.forgettingFollowed)
        #expect(refused.problems.contains { $0.message.contains("--forget-old-homes was not followed") })
        #expect(try files(showing: house).isEmpty, "files that show the house")
        // The setting changed by hand into something unreadable: nothing forgotten, the house
        // found again from the nights, and said.
        do {
            let catalog = try Catalog.open(at: catalogPath)
            defer { catalog.releaseLock() }
            try catalog.setSetting(Catalog.SettingKey.keptHome, to: "[not json")
        }
        let unreadable = try await exporter.run()
        #expect(unreadable.problems.contains { $0.message.contains("cannot be read") && $0.message.contains("(--forget-old-homes was not followed)") })
        #expect(try files(showing: house).isEmpty, "files that show the house")
    }

    /// Cancels the run, as Ctrl-C does, once the export has written its first trip.
    final class StopAfterFirstTrip: IngestProgressReporting {
        let run = Mutex<Task<IngestSummary, any Error>?>(nil)
        func report(_ progress: IngestProgress) {
            if progress.stage == .export && progress.done > 0 { run.withLock { $0?.cancel() } }
        }
        func finish() {}
    }

    @Test("a run stopped in the export (Ctrl-C) begins no other trip and says it was interrupted; the next writes the rest, as a full render would, and not what was written")
    func stoppedInExport() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        let stopper = StopAfterFirstTrip()
        let stopped = Task { try await IngestPipeline(options: IngestOptions(folder: library.folder.path)).run(progress: stopper) }
        stopper.run.withLock { $0 = stopped }
        await #expect {
            try await stopped.value
        } throws: { error in
            guard case GeoTripError.interrupted(.afterReading(let present)) = error else { return false }
            return present > 0
        }
        // Two trips at most were begun (two at once); the third was not, and the page of trips,
        // written last, is not there.
        let written = (1...3).filter { FileManager.default.fileExists(atPath: library.tripFolder($0).appendingPathComponent("index.html").path) }
        #expect(!written.isEmpty && written.count < 3)
        #expect(!FileManager.default.fileExists(atPath: library.out.appendingPathComponent("index.html").path))
        let maps = try written.map { try library.modified(library.tripFolder($0).appendingPathComponent("index.html")) }

        let resumed = try await library.ingest()
        let export = try #require(resumed.export)
        #expect(export.trips == 3)
        #expect(FileManager.default.fileExists(atPath: library.out.appendingPathComponent("index.html").path))
        // The trips written before the stop are not written again.
        #expect(try written.map { try library.modified(library.tripFolder($0).appendingPathComponent("index.html")) } == maps)
        #expect(export.unchanged > 0)
        // Every file is what a full render writes.
        let full = try await library.exportEverything()
        #expect(full.written == 0)
        #expect(full.thumbnails == 0)
    }

    /// Cancels the run, as Ctrl-C does, as its export begins writing (its notes gathered and saved).
    final class StopAtExport: IngestProgressReporting {
        let run = Mutex<Task<IngestSummary, any Error>?>(nil)
        func report(_ progress: IngestProgress) {
            if progress.stage == .export && progress.total != nil { run.withLock { $0?.cancel() } }
        }
        func finish() {}
    }

    @Test("a run stopped after its notes went with their photos to other visits, before it wrote their pages, leaves pages that are no edit: no backup, no note lost")
    func stoppedAfterNotesMoved() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let journal = trip.appendingPathComponent("geotrip/journal")
        func ingest(visitGap: TimeInterval? = nil, progress: some IngestProgressReporting = SilentProgress()) async throws -> IngestSummary {
            var options = IngestOptions(folder: trip.path)
            (options.visitGap, options.makeThumbnails) = (visitGap, false)
            return try await IngestPipeline(options: options).run(progress: progress)
        }
        try await ingest()
        // A note in every visit's block, taken in by a run.
        let days = try FileManager.default.contentsOfDirectory(atPath: journal.path).filter { $0.hasPrefix("2025-") && $0.hasSuffix(".md") }.sorted()
        var written: [String] = []
        for day in days {
            var text = try String(contentsOf: journal.appendingPathComponent(day), encoding: .utf8)
            for id in text.components(separatedBy: "<!-- notes ").dropFirst().compactMap({ $0.components(separatedBy: " -->").first }) where id.hasPrefix("v") {
                let marker = try #require(text.range(of: "<!-- notes \(id) -->\n"))
                text.insert(contentsOf: "NOTE \(id)\n", at: marker.upperBound)
                written.append("NOTE \(id)\n")
            }
            try text.write(to: journal.appendingPathComponent(day), atomically: true, encoding: .utf8)
        }
        try await ingest()
        let catalogPath = IngestOptions.defaultCatalogPath(for: trip.path)
        func owners() throws -> [String: String] {
            try Catalog.open(at: catalogPath, access: .readOnly).journalNotes().filter { $0.value.hasWords }.mapValues(\.text)
        }
        let before = try owners()
        let pages = try days.map { try Data(contentsOf: journal.appendingPathComponent($0)) }
        // Visits made again with a 20-minute gap, stopped as the export begins writing.
        let stopper = StopAtExport()
        let stopped = Task { try await ingest(visitGap: 20 * 60, progress: stopper) }
        stopper.run.withLock { $0 = stopped }
        await #expect(throws: (any Error).self) { try await stopped.value }
        // The notes moved with their photos in the catalog; the pages are as they were.
        #expect(try owners() != before && Set(try owners().values) == Set(before.values))
        #expect(try days.map { try Data(contentsOf: journal.appendingPathComponent($0)) } == pages)
        // `geotrip export`, which renders every page, judges them by the same record.
        let catalog = try Catalog.open(at: catalogPath)
        let exported = try await ExportStage(catalog: catalog, folder: trip.path)
            .run(settings: try catalog.storedExportSettings(), language: try catalog.storedNamingLanguage(), checkEverything: true)
        catalog.releaseLock()
        #expect(exported.backups.isEmpty, "\(exported.backups)")
        let resumed = try await ingest()
        #expect(resumed.export?.backups.isEmpty == true, "\(resumed.export?.backups ?? [])")
        let all = try days.map { try String(contentsOf: journal.appendingPathComponent($0), encoding: .utf8) }.joined()
        for note in written { #expect(all.components(separatedBy: note).count == 2, "\(note)") }
    }

    @Test("a rerun renders only the day pages whose values or files changed, and leaves what a full render writes")
    func onlyChangedDays() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        let first = try await library.ingest()
        let pages = try #require(first.export?.dayPagesRendered)
        #expect(pages >= 8, "every day of the three trips")
        let journal = library.tripFolder(3).appendingPathComponent("journal")
        func page(_ day: String) -> URL { journal.appendingPathComponent("\(day).md") }
        // Another photo on the second day in Lisbon: that day's page alone is rendered.
        try library.addPhoto(on: "2024-03-12", at: (38.7071, -9.1355), folder: "more")
        let added = try await library.ingest()
        #expect(added.export?.dayPagesRendered == 1)
        // The trips not written count every document of theirs as unchanged, as a run with
        // nothing to do counts them: the same folder, the same total.
        let still = try #require(try await library.ingest().export)
        #expect(still.written == 0 && (added.export.map { $0.written + $0.unchanged }) == still.unchanged)
        #expect(try String(contentsOf: page("2024-03-12"), encoding: .utf8).contains("more/2024-03-12-0.jpg"))
        // Only that day's photos were read: the map's other days, the cover and the other days'
        // thumbnails are as a full render makes them (none made again, none written).
        let whole = try await library.exportEverything()
        #expect(whole.written == 0)
        #expect(whole.thumbnails == 0)
        // One page deleted, another edited outside its notes: both are rendered again, the
        // first as it was, the second after a backup of the person's file.
        let deletedText = try String(contentsOf: page("2024-03-11"), encoding: .utf8)
        try FileManager.default.removeItem(at: page("2024-03-11"))
        let edited = try String(contentsOf: page("2024-03-13"), encoding: .utf8)
        try (edited + "A line of my own.\n").write(to: page("2024-03-13"), atomically: true, encoding: .utf8)
        let repaired = try await library.ingest()
        #expect(repaired.export?.dayPagesRendered == 2)
        #expect(try String(contentsOf: page("2024-03-11"), encoding: .utf8) == deletedText)
        #expect(try String(contentsOf: page("2024-03-13"), encoding: .utf8) == edited)
        #expect(repaired.export?.backups.count == 1)
        // A note written in a page: that page is rendered with it, and no other.
        try library.writeNote("Fado in Alfama.\n", trip: 3, day: "2024-03-11")
        let noted = try await library.ingest()
        #expect(noted.export?.dayPagesRendered == 1)
        #expect(try String(contentsOf: page("2024-03-11"), encoding: .utf8).contains("<!-- notes 2024-03-11 -->\nFado in Alfama.\n"))
        // Every file is what a full render writes: rendering every page changes nothing.
        let full = try await library.exportEverything()
        #expect(full.dayPagesRendered == pages)
        #expect(full.written == 0)
    }

    @Test("a thumbnail deleted by hand on a day not rendered again is made again when its trip is written")
    func deletedThumbnailOfUnrenderedDay() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let trip = library.tripFolder(1), thumbs = library.tripFolder(1).appendingPathComponent("thumbs")
        // A thumbnail the first day's page links, deleted.
        let linked = try library.linkedThumbnail(trip: 1, day: "2024-01-15")
        let victim = trip.appendingPathComponent(linked)
        try FileManager.default.removeItem(at: victim)
        // Another photo on the last day: only that day is rendered.
        try library.addPhoto(on: "2024-01-17", at: (38.7339, -9.1334), folder: "more")
        let rerun = try await library.ingest()
        #expect(rerun.export?.dayPagesRendered == 1)
        #expect(FileManager.default.fileExists(atPath: victim.path), "the first day's page links \(linked)")
        #expect((rerun.export?.thumbnails ?? 0) == 2, "the added photo's and the deleted one's")
        let whole = try await library.exportEverything()
        #expect(whole.written == 0 && whole.thumbnails == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: thumbs.path).count > 2)
    }

    @Test("a thumbnail deleted by hand is made again by the next run, with nothing else changed, and its trip's pages stay")
    func deletedThumbnailAlone() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let trip = library.tripFolder(2)
        let linked = try library.linkedThumbnail(trip: 2, day: "2024-02-20")
        try FileManager.default.removeItem(at: trip.appendingPathComponent(linked))
        let rerun = try await library.ingest()
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent(linked).path))
        #expect(rerun.export?.thumbnails == 1)
        #expect(rerun.export?.written == 0 && rerun.export?.dayPagesRendered == 0)
        // And the run after that has nothing to do.
        let again = try await library.ingest()
        #expect(again.export?.thumbnails == 0 && again.export?.written == 0)
        let whole = try await library.exportEverything()
        #expect(whole.written == 0 && whole.thumbnails == 0)
    }

    @Test("without thumbnails, a changed trip is written once and said so; the thumbnails made before go")
    func withoutThumbnails() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        var options = IngestOptions(folder: library.folder.path)
        options.makeThumbnails = false
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        for number in 1...3 {
            #expect(!FileManager.default.fileExists(atPath: library.tripFolder(number).appendingPathComponent("thumbs").path))
        }
        // Another photo on Kyoto's last day: its page, the trip's GeoJSON and map, and the page
        // of trips are written, once.
        try library.addPhoto(on: "2024-02-21", at: (35.0116, 135.7681), folder: "more")
        let added = try await library.ingest()
        #expect(added.export?.written == 4)
        #expect(added.export?.dayPagesRendered == 1)
        let whole = try await library.exportEverything(thumbnails: NoThumbnails())
        #expect(whole.written == 0)
    }

    @Test("a changed trip whose files are as written loses a day: its page goes unread, the others stay, as a full render leaves them")
    func dayGoneFromUnreadJournal() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let journal = library.tripFolder(3).appendingPathComponent("journal")
        let gone = journal.appendingPathComponent("2024-03-13.md"), stays = journal.appendingPathComponent("2024-03-12.md")
        #expect(FileManager.default.fileExists(atPath: gone.path))
        let kept = try String(contentsOf: stays, encoding: .utf8)
        let photos = library.folder.appendingPathComponent("2024-03 Lisboa")
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) where name.hasPrefix("2024-03-13") {
            try FileManager.default.removeItem(at: photos.appendingPathComponent(name))
        }
        let shrunk = try await library.ingest()
        #expect(!FileManager.default.fileExists(atPath: gone.path), "the page of a day the trip no longer has")
        #expect(shrunk.export?.removed == 1)
        #expect(shrunk.export?.dayPagesRendered == 0)
        #expect(try String(contentsOf: stays, encoding: .utf8) == kept)
        // Every file is what a full render writes.
        let full = try await library.exportEverything()
        #expect(full.written == 0)
        #expect(full.removed == 0)
    }

    @Test("a link among a changed trip's journal files is refused on every run that writes the trip, its files read back or not")
    func linkRefusedWhenUnread() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let journal = library.tripFolder(3).appendingPathComponent("journal")
        let outside = library.temp.url.appendingPathComponent("elsewhere.md")
        try "not geotrip's\n".write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: journal.appendingPathComponent("2024-03-30.md"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: journal.appendingPathComponent("unplaced-notes.md"), withDestinationURL: outside)
        // The folder changed: read back, and the links refused.
        try library.addPhoto(on: "2024-03-12", at: (38.7071, -9.1355), folder: "more")
        let links: Set<String> = ["trips/2024-03-11/journal/2024-03-30.md", "trips/2024-03-11/journal/unplaced-notes.md"]
        let first = try await library.ingest()
        let refusedFirst = Set(first.export?.refused ?? [])
        #expect(links.isSubset(of: refusedFirst))
        // The folder as that run left it, the trip changed again: not read back, and the links
        // refused all the same; neither they nor what they point at are touched.
        try library.addPhoto(on: "2024-03-13", at: (38.7223, -9.1393), folder: "more-2")
        let second = try await library.ingest()
        let refusedSecond = Set(second.export?.refused ?? [])
        #expect(links.isSubset(of: refusedSecond))
        #expect(try String(contentsOf: outside, encoding: .utf8) == "not geotrip's\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: journal.appendingPathComponent("2024-03-30.md").path) == outside.path)
    }

    @Test("a day page of a library trip replaced by a link is refused, and said, on every run; nothing is written through it")
    func linkedPageInLibraryTrip() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let journal = library.tripFolder(1).appendingPathComponent("journal")
        let day = try #require(try FileManager.default.contentsOfDirectory(atPath: journal.path).sorted().first { $0.hasSuffix(".md") && $0.count == 13 })
        let page = journal.appendingPathComponent(day)
        let elsewhere = library.temp.url.appendingPathComponent("mine.md")
        try "mine\n".write(to: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: page)
        try FileManager.default.createSymbolicLink(at: page, withDestinationURL: elsewhere)
        for _ in 0..<3 {
            let refused = try await library.ingest().export?.refused ?? []
            #expect(refused.contains { $0.hasSuffix("journal/" + day) }, "\(refused)")
        }
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "mine\n")
    }

    @Test("a note saved in a trip's page while the export runs is read back by the next run, not taken as the export's own")
    func noteSavedWhileExporting() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let page = library.tripFolder(3).appendingPathComponent("journal/2024-03-12.md")
        // An export that renders every trip; as the last trip is written, before the export
        // takes its listings, a person saves a note in a page of a trip it wrote.
        try await library.exportEverything { done, total in
            guard done == total, done > 0 else { return }
            _ = try? library.writeNote("Saved while geotrip wrote.\n", trip: 3, day: "2024-03-12")
        }
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Saved while geotrip wrote."))
        // A photo added to that day: the page is rendered again, with the note.
        try library.addPhoto(on: "2024-03-12", at: (38.7071, -9.1355), folder: "more")
        try await library.ingest()
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.contains("more/2024-03-12-0.jpg"))
        #expect(text.contains("<!-- notes 2024-03-12 -->\nSaved while geotrip wrote.\n"))
        #expect(try library.storedNotes()["2024-03-12"] == "Saved while geotrip wrote.\n")
    }

    /// Thumbnails for no photo; as the trip in `folder` is written, a person saves `note` in
    /// its page of `day`, after the export gathered the notes and before it writes the page.
    struct SavingANote: ThumbnailProvider {
        let library: Library
        let folder: URL
        let day: String
        let note: String

        func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool) async throws(GeoTripError) -> Thumbnails {
            if URL(fileURLWithPath: outputFolder).standardizedFileURL.path == folder.standardizedFileURL.path {
                _ = try? library.writeNote(note, trip: 3, day: day)
            }
            return Thumbnails()
        }
    }

    @Test("a page a person saves while the export is writing its trip is left as saved, and the next run takes the note in")
    func pageSavedBeforeItIsWritten() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let page = library.tripFolder(3).appendingPathComponent("journal/2024-03-12.md")
        let note = "Pastel de nata at Manteigaria.\n"
        // Every page rendered: this one's text, without thumbnails and without the note, differs from the file.
        try await library.exportEverything(thumbnails: SavingANote(library: library, folder: library.tripFolder(3), day: "2024-03-12", note: note))
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<!-- notes 2024-03-12 -->\n" + note))
        try await library.ingest()
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<!-- notes 2024-03-12 -->\n" + note))
        #expect(try library.storedNotes()["2024-03-12"] == note)
    }

    @Test("a note follows its trip when the trip's folder changes, and the old folder goes")
    func notesFollowTheTrip() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        try library.writeNote("Pastéis de nata in Belém. 맛있다.\n", trip: 1, day: "2024-01-16")
        let oldFolder = library.tripFolder(1)
        // A photo in Lisbon the day before: the trip now starts on 2024-01-14.
        try library.addLisbonDayBefore()
        try await library.ingest()
        let moved = library.out.appendingPathComponent("trips/2024-01-14/journal/2024-01-16.md")
        let kept = try String(contentsOf: moved, encoding: .utf8)
        #expect(kept.contains("<!-- notes 2024-01-16 -->\nPastéis de nata in Belém. 맛있다.\n<!-- end notes 2024-01-16 -->"))
        #expect(!FileManager.default.fileExists(atPath: oldFolder.path), "the old trip folder is still there")
        // And it stays through another run.
        try await library.ingest()
        #expect(try String(contentsOf: moved, encoding: .utf8) == kept)
    }

    @Test("a person's own files in a trip's folder that goes keep the folder and are said once; geotrip's files there go")
    func ownFilesInAFormerTrip() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let oldFolder = library.tripFolder(1)
        try "# packing list\n".write(to: oldFolder.appendingPathComponent("journal/packing.md"), atomically: true, encoding: .utf8)
        try "tickets\n".write(to: oldFolder.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        try library.addLisbonDayBefore()
        let moved = try await library.ingest()
        let old = "trips/" + oldFolder.lastPathComponent
        #expect(moved.export?.leftInFormerTrips == [old + "/README.txt", old + "/journal/packing.md"], "\(moved.export?.leftInFormerTrips ?? [])")
        let left = try FileManager.default.subpathsOfDirectory(atPath: oldFolder.path).sorted()
        #expect(left == ["README.txt", "journal", "journal/packing.md"], "only the person's files stay: \(left)")
        #expect(try await library.ingest().export?.leftInFormerTrips == [], "said once")
    }

    @Test("a note stays through runs that change other trips (its trip's files are not read back) and one that renders its trip again")
    func notesOfUnchangedTrips() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let day = try library.writeNote("Tram 28 up to the castle.\n", trip: 1, day: "2024-01-16")
        let note = "<!-- notes 2024-01-16 -->\nTram 28 up to the castle.\n<!-- end notes 2024-01-16 -->"
        // Kyoto changes twice: the first run reads the note (its file changed) and renders its
        // trip with it; the second leaves Lisbon's folder alone.
        try library.addPhoto(on: "2024-02-21", at: (35.0116, 135.7681), folder: "kyoto-1")
        try await library.ingest()
        let written = try String(contentsOf: day, encoding: .utf8)
        #expect(written.contains(note))
        try library.addPhoto(on: "2024-02-20", at: (35.0117, 135.7682), folder: "kyoto-2")
        let second = try await library.ingest()
        #expect(second.export?.written == 4, "only Kyoto's day page, GeoJSON, map and the page of trips")
        #expect(try String(contentsOf: day, encoding: .utf8) == written)
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path), access: .readOnly)
        let stored = try catalog.journalNotes()
        #expect(stored["2024-01-16"]?.text == "Tram 28 up to the castle.\n")
        // A photo added to that Lisbon day renders the trip again, from a journal read then.
        try library.addPhoto(on: "2024-01-16", at: (38.7223, -9.1393), folder: "lisbon-more")
        try await library.ingest()
        let again = try String(contentsOf: day, encoding: .utf8)
        #expect(again.contains(note))
        #expect(again.contains("lisbon-more/2024-01-16-0.jpg"))
    }

    @Test("a typo put right in a note, the page's size and time kept (touch -r, a sync tool), is read: the trip's folder is weighed by its pages' change times too")
    func editKeepingSizeAndTime() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let day = try library.writeNote("Tram 82 up to the castle.\n", trip: 1, day: "2024-01-16")
        try await library.ingest()
        var before = stat()
        #expect(lstat(day.path, &before) == 0)
        let text = try String(contentsOf: day, encoding: .utf8)
        try text.replacingOccurrences(of: "Tram 82", with: "Tram 28").write(to: day, atomically: false, encoding: .utf8)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, day.path, &times, AT_SYMLINK_NOFOLLOW) == 0)
        var after = stat()
        #expect(lstat(day.path, &after) == 0 && after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec
                && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec, "size and time as they were")
        let run = try await library.ingest()
        #expect(run.export?.backups == [], "no edit outside the notes")
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path), access: .readOnly)
        #expect(try catalog.journalNotes()["2024-01-16"]?.text == "Tram 28 up to the castle.\n")
        #expect(try String(contentsOf: library.tripFolder(1).appendingPathComponent("index.html"), encoding: .utf8).contains("Tram 28 up to the castle."))
    }

    @Test("a page an editor saves with CRLF line endings, a word changed or none, is no edit outside the notes: no backup, the note kept without the \\r")
    func pageSavedWithCRLF() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let day = try library.writeNote("Belem tower\n", trip: 1, day: "2024-01-16")
        try await library.ingest()
        let journal = library.tripFolder(1).appendingPathComponent("journal")
        func backups() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: journal.path).filter { $0.contains(".edited-") } }
        // Saved again with CRLF, each time with something else (a photo added) to write.
        for (round, note) in ["Belem tower\n", "Belem tower at noon\n"].enumerated() {
            let text = try String(contentsOf: day, encoding: .utf8).replacingOccurrences(of: "Belem tower\n", with: note)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: day, atomically: true, encoding: .utf8)
            try library.addPhoto(on: "2024-01-16", at: (38.7223 + Double(round) / 1000, -9.1393), folder: "more-\(round)")
            let summary = try await library.ingest()
            #expect(summary.export?.backups.isEmpty == true, "\(summary.export?.backups ?? [])")
            #expect(try backups().isEmpty)
            #expect(try library.storedNotes()["2024-01-16"] == note)
            let written = try String(contentsOf: day, encoding: .utf8)
            #expect(written.contains("<!-- notes 2024-01-16 -->\n\(note)<!-- end notes 2024-01-16 -->\n") && !written.contains("\r"))
        }
    }

    @Test("a Markdown line break (two blanks added at a line's end of a note) is the person's edit and stays; blanks an editor strips are not")
    func lineBreakAdded() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let day = try library.writeNote("Tram 28\nup to the castle.\n", trip: 1, day: "2024-01-16")
        try library.addPhoto(on: "2024-01-16", at: (38.7223, -9.1393), folder: "lisbon-more")
        try await library.ingest()
        #expect(try library.storedNotes()["2024-01-16"] == "Tram 28\nup to the castle.\n")
        // The person adds a line break: the block's hash is the one geotrip wrote (blanks at a
        // line's end do not count in it), yet the blanks are theirs.
        var text = try String(contentsOf: day, encoding: .utf8)
        text = text.replacingOccurrences(of: "Tram 28\nup", with: "Tram 28  \nup")
        try text.write(to: day, atomically: true, encoding: .utf8)
        try library.addPhoto(on: "2024-01-16", at: (38.7224, -9.1394), folder: "lisbon-again")
        try await library.ingest()
        #expect(try library.storedNotes()["2024-01-16"] == "Tram 28  \nup to the castle.\n")
        #expect(try String(contentsOf: day, encoding: .utf8).contains("<!-- notes 2024-01-16 -->\nTram 28  \nup to the castle.\n<!-- end notes"))
    }

    @Test("a note on a day that becomes a day at home (home moved there) waits on the page of unplaced notes, and goes back with its trip")
    func notesOfDaysAtHome() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let file = try library.writeNote("Tram 28 up to the castle.\n", trip: 1, day: "2024-01-16")
        let block = "<!-- notes 2024-01-16 -->\nTram 28 up to the castle.\n<!-- end notes 2024-01-16 -->"
        // And one on the day's first visit, where the new home will be.
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: library.folder.path))
        let visit = try #require(try catalog.visits().first { $0.localDate == "2024-01-16" })
        catalog.releaseLock()
        var text = try String(contentsOf: file, encoding: .utf8)
        text.insert(contentsOf: "The flat's view.\n", at: try #require(text.range(of: "<!-- notes \(visit.id) -->\n")).upperBound)
        try text.write(to: file, atomically: true, encoding: .utf8)
        try await library.ingest()  // the notes taken in, the visit's with its place's name
        // Home is Lisbon now: its days are days at home, in no trip's journal.
        var options = IngestOptions(folder: library.folder.path)
        options.home = .some(visit.centre)
        let moved = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let unplaced = library.out.appendingPathComponent("journal/unplaced-notes.md")
        let waiting = try String(contentsOf: unplaced, encoding: .utf8)
        #expect(waiting.contains(block) && waiting.contains("<!-- notes \(visit.id) -->\nThe flat's view.\n"))
        // The visit at home is named no more, as a day's page calls it "Private place".
        #expect(waiting.contains("## Visit \(visit.id), 2024-01-16\n") && !waiting.contains("Lisbon"), "\(waiting)")
        #expect(moved.export?.unplacedNotes == 2)
        let journals = library.files(under: library.out).filter { $0.hasSuffix("/2024-01-16.md") }
        #expect(journals.isEmpty, "\(journals)")
        // Home found again: the note is back in its day's page, and the page of notes is gone.
        options.home = .some(nil)
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let page = library.tripFolder(1).appendingPathComponent("journal/2024-01-16.md")
        #expect(try String(contentsOf: page, encoding: .utf8).contains(block))
        #expect(!FileManager.default.fileExists(atPath: unplaced.path))
        #expect(try library.storedNotes()["2024-01-16"] == "Tram 28 up to the castle.\n")
        #expect(try library.storedNotes()[visit.id] == "The flat's view.\n")
    }

    @Test("what a run stopped while writing left (a page's or a thumbnail's temporary file) goes when the trip is written again")
    func leftoversOfAStoppedRun() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        let trip = library.tripFolder(2)
        let thumbs = trip.appendingPathComponent(ThumbnailMaker.folderName)
        let thumbnail = try #require(try FileManager.default.contentsOfDirectory(atPath: thumbs.path).first { ThumbnailMaker.isThumbnailName($0) })
        let left = [trip.appendingPathComponent(".index.html.geotrip-W2lx6f"), thumbs.appendingPathComponent("." + thumbnail + ".tmp"),
                    library.out.appendingPathComponent(".index.html.geotrip-Qa81zz")]
        for file in left { try Data().write(to: file) }
        try await library.exportEverything()
        for file in left { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)") }
        #expect(FileManager.default.fileExists(atPath: thumbs.appendingPathComponent(thumbnail).path))
    }

    @Test("a save a stopped run had taken out of its page (killed between an exchange's two swaps) is put back, or kept beside an edited page; geotrip's own leftovers go")
    func saveLeftByAStoppedRun() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        // Trip 1: the run was killed with the person's save under its hidden name and its own
        // page in place (a new file, as the exchange put it).
        let journal = library.tripFolder(1).appendingPathComponent("journal")
        let page = journal.appendingPathComponent("2024-01-16.md")
        let asWritten = try String(contentsOf: page, encoding: .utf8)
        let saved = asWritten.replacingOccurrences(of: "<!-- notes 2024-01-16 -->\n", with: "<!-- notes 2024-01-16 -->\nFado in Alfama.\n")
        #expect(saved != asWritten)
        let taken = journal.appendingPathComponent(".2024-01-16.md.geotrip-Ab12Cd")
        try saved.write(to: taken, atomically: false, encoding: .utf8)
        try asWritten.write(to: page, atomically: true, encoding: .utf8)
        // Geotrip's own page never put in place, and a file made to rename a page aside: theirs
        // to remove.
        let own = journal.appendingPathComponent(".2024-01-15.md.geotrip-Zz99Yy")
        try Data(try Data(contentsOf: journal.appendingPathComponent("2024-01-15.md"))).write(to: own)
        let aside = journal.appendingPathComponent(".2024-01-17.md.retiring-Qq11Ww")
        try Data().write(to: aside)
        // A save edited outside its blocks only (a heading changed): a save all the same.
        let outside = try String(contentsOf: journal.appendingPathComponent("2024-01-15.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n## ", with: "\n## Arrival: ")
        try outside.write(to: journal.appendingPathComponent(".2024-01-15.md.retiring-Hh45Jk"), atomically: false, encoding: .utf8)
        // Hidden files of the person's own that look like leftovers, but not of a page geotrip writes.
        let theirs = [journal.appendingPathComponent(".README.md.geotrip-qwerty"), journal.appendingPathComponent(".ideas.geotrip-backup")]
        for file in theirs { try saved.write(to: file, atomically: false, encoding: .utf8) }
        // Trip 2: the same, but the person has written in the page since: both are kept.
        let other = try library.writeNote("Gion at dusk.\n", trip: 2, day: "2024-02-20")
        let otherJournal = other.deletingLastPathComponent()
        let otherSave = try String(contentsOf: other, encoding: .utf8).replacingOccurrences(of: "Gion at dusk.\n", with: "Kiyomizu in the rain.\n")
        try otherSave.write(to: otherJournal.appendingPathComponent(".2024-02-20.md.geotrip-Cd34Ef"), atomically: false, encoding: .utf8)

        let summary = try await library.ingest()
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<!-- notes 2024-01-16 -->\nFado in Alfama.\n"))
        let notes = try library.storedNotes()
        #expect(notes["2024-01-16"] == "Fado in Alfama.\n")
        #expect(notes["2024-02-20"] == "Gion at dusk.\n")
        #expect(try String(contentsOf: journal.appendingPathComponent("2024-01-17.md"), encoding: .utf8).contains("<!-- notes 2024-01-17 -->"))
        for file in [taken, own, aside] { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)") }
        for file in theirs { #expect(try String(contentsOf: file, encoding: .utf8) == saved, "\(file.lastPathComponent)") }
        // The page put back was edited outside its blocks: left as saved (after this run's first
        // look), then kept as a backup by the next run before it is written again.
        #expect(try String(contentsOf: journal.appendingPathComponent("2024-01-15.md"), encoding: .utf8) == outside)
        try await library.ingest()
        let firstDay = try FileManager.default.contentsOfDirectory(atPath: journal.path).filter { $0.hasPrefix("2024-01-15.edited-") }
        #expect(firstDay.count == 1)
        if let backup = firstDay.first {
            #expect(try String(contentsOf: journal.appendingPathComponent(backup), encoding: .utf8) == outside)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: otherJournal.path).filter { $0.hasPrefix("2024-02-20.edited-") }
        #expect(kept.count == 1)
        if let backup = kept.first {
            #expect(try String(contentsOf: otherJournal.appendingPathComponent(backup), encoding: .utf8) == otherSave)
            // The summary says where each save went: two pages put back, one backup.
            let rescued = Set((summary.export?.rescued ?? []).map { ($0 as NSString).lastPathComponent })
            #expect(rescued == ["2024-01-16.md", "2024-01-15.md", backup], "\(summary.export?.rescued ?? [])")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: otherJournal.path).allSatisfy { !$0.hasPrefix(".") })

        // A leftover found while nothing else changed: the run that finds it reads it.
        let settled = try await library.ingest()
        #expect(settled.export?.written == 0)
        let lastDay = journal.appendingPathComponent("2024-01-17.md")
        let late = try String(contentsOf: lastDay, encoding: .utf8)
            .replacingOccurrences(of: "<!-- notes 2024-01-17 -->\n", with: "<!-- notes 2024-01-17 -->\nPasteis de nata.\n")
        try late.write(to: journal.appendingPathComponent(".2024-01-17.md.geotrip-Lm67No"), atomically: false, encoding: .utf8)
        let found = try await library.ingest()
        #expect(found.export?.rescued.map { ($0 as NSString).lastPathComponent } == ["2024-01-17.md"])
        #expect(try library.storedNotes()["2024-01-17"] == "Pasteis de nata.\n")
    }

    @Test("a note saved into a trip's old folder after the trip moved (an editor left open) goes to the new folder, wherever it was written first, and no page is kept as a backup")
    func noteSavedIntoOldFolder() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        try library.writeNote("First words.\n", trip: 1, day: "2024-01-16")
        try await library.ingest()
        let oldPage = library.tripFolder(1).appendingPathComponent("journal/2024-01-16.md")
        let buffer = try String(contentsOf: oldPage, encoding: .utf8)  // what the editor holds
        // The trip now starts a day earlier: its folder is trips/2024-01-14.
        try library.addLisbonDayBefore()
        try await library.ingest()
        #expect(!FileManager.default.fileExists(atPath: oldPage.path))
        // The editor saves the page where it was, with a note.
        try FileManager.default.createDirectory(at: oldPage.deletingLastPathComponent(), withIntermediateDirectories: true)
        let marker = try #require(buffer.range(of: "<!-- notes 2024-01-16 -->\nFirst words.\n"))
        var saved = buffer
        saved.replaceSubrange(marker, with: "<!-- notes 2024-01-16 -->\nWritten in the old tab.\n")
        try saved.write(to: oldPage, atomically: true, encoding: .utf8)
        // `geotrip export` reads every folder back: the new one's page holds the day's block
        // too, as written before the edit; the saved copy is the newer.
        let summary = try await library.exportEverything()
        // The new folder's page held the words the person wrote over in the old tab, as geotrip
        // wrote them: no edit of anybody's, so no backup of it.
        #expect(summary.backups.isEmpty, "\(summary.backups)")
        let newJournal = library.out.appendingPathComponent("trips/2024-01-14/journal").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: newJournal).allSatisfy { !$0.contains(".edited-") })
        let newPage = library.out.appendingPathComponent("trips/2024-01-14/journal/2024-01-16.md")
        #expect(try String(contentsOf: newPage, encoding: .utf8).contains("<!-- notes 2024-01-16 -->\nWritten in the old tab.\n<!-- end notes 2024-01-16 -->"))
        #expect(try library.storedNotes()["2024-01-16"] == "Written in the old tab.\n")
        #expect(!FileManager.default.fileExists(atPath: oldPage.path), "its note moved: the old page goes")
    }

    /// The Lisbon trip alone, a folder that is one trip, exported into output folders in turn
    /// (`--out`), with its day 2024-01-16's page and its notes block.
    struct LisbonTrip {
        let temp: TemporaryFolder
        let folder: URL

        init() throws {
            temp = try TemporaryFolder()
            folder = temp.url.appendingPathComponent("Photos")
            try LibraryFixture.write(into: folder, days: LibraryFixture.schedule.filter { $0.trip == 1 })
        }

        /// `ingest`, writing into `out` (nil: the one remembered).
        @discardableResult
        func ingest(out: String?) async throws -> IngestSummary {
            var options = IngestOptions(folder: folder.path)
            options.outputFolder = out
            return try await IngestPipeline(options: options).run(progress: SilentProgress())
        }

        func page(_ out: String) -> URL { URL(fileURLWithPath: out).appendingPathComponent("journal/2024-01-16.md") }

        /// Puts `note` in the day's block of the page in `out`, where it held `old`.
        func write(_ note: String, in out: String, replacing old: String = "") throws {
            var text = try String(contentsOf: page(out), encoding: .utf8)
            let range = try #require(text.range(of: "<!-- notes 2024-01-16 -->\n" + old))
            text.replaceSubrange(range, with: "<!-- notes 2024-01-16 -->\n" + note)
            try text.write(to: page(out), atomically: true, encoding: .utf8)
        }

        func storedNotes() throws -> [String: JournalNote] {
            try Catalog.open(at: IngestOptions.defaultCatalogPath(for: folder.path), access: .readOnly).journalNotes()
        }
    }

    @Test("the run after one that took a note in has nothing to do: the outputs are recorded as written from the notes they hold")
    func noteTakenInOnce() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let out = trip.folder.appendingPathComponent("geotrip").path
        try await trip.ingest(out: nil)
        try trip.write("A long walk by the river.\n", in: out)
        let takenIn = try await trip.ingest(out: nil)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "A long walk by the river.\n")
        #expect((takenIn.export?.dayPagesRendered ?? 0) > 0)
        func recorded() throws -> String? {
            try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.folder.path), access: .readOnly).setting(Catalog.SettingKey.exportedFor)
        }
        let before = try recorded()
        let next = try await trip.ingest(out: nil)
        #expect(next.export?.dayPagesRendered == 0 && next.export?.written == 0, "\(String(describing: next.export))")
        // Nothing to do, not the journal read again to find so: what was recorded stands.
        #expect(try recorded() == before)
        #expect(try String(contentsOf: trip.page(out), encoding: .utf8).contains("A long walk by the river.\n"))
    }

    @Test("a note written just before --out changes is carried to the new folder; the folder left behind, inside the trip, is never scanned as photos")
    func outputFolderChanged() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let inside = trip.folder.appendingPathComponent("shared/out").path, elsewhere = trip.temp.url.appendingPathComponent("elsewhere").path
        try await trip.ingest(out: inside)
        let photos = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.folder.path), access: .readOnly).photos().count
        try trip.write("Tapas at nine.\n", in: inside)
        // Straight to another folder: the note written in the first comes along.
        try await trip.ingest(out: elsewhere)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Tapas at nine.\n")
        #expect(try String(contentsOf: trip.page(elsewhere), encoding: .utf8).contains("<!-- notes 2024-01-16 -->\nTapas at nine.\n"))
        // The first folder, with its thumbnails, stays where it was, and is no photos of the trip.
        #expect(FileManager.default.fileExists(atPath: inside + "/" + ThumbnailMaker.folderName))
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.folder.path), access: .readOnly)
        #expect(try catalog.photos().count == photos)
        #expect(try catalog.photos().allSatisfy { !$0.path.hasPrefix("shared/") })
        // Read once: an edit made there later is the old folder's own.
        try trip.write("Later, in the old tab.\n", in: inside, replacing: "Tapas at nine.\n")
        try await trip.ingest(out: nil)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Tapas at nine.\n")
    }

    @Test("an edit left in the folder --out moved away from, outranked by a later edit of the note in the folder gone back to, is kept beside the journal")
    func editLeftBehindOutranked() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let first = trip.folder.appendingPathComponent("geotrip").path, second = trip.temp.url.appendingPathComponent("elsewhere").path
        try await trip.ingest(out: nil)
        try await trip.ingest(out: second)
        // Written in the second folder, then (ten seconds later, by the files' times) in the
        // first, which the next run goes back to.
        try trip.write("Written in the second.\n", in: second)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-10)], ofItemAtPath: trip.page(second).path)
        try trip.write("Written in the first.\n", in: first)
        let summary = try await trip.ingest(out: first)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Written in the first.\n")
        // The second folder is written no more, so no backup of its page is made: the words
        // outranked there are kept in the first's journal, and the summary says where.
        let kept = try #require(summary.export?.replacedNotes)
        #expect(summary.export?.replacedNoteCount == 1)
        let page = try String(contentsOfFile: first + "/" + kept, encoding: .utf8)
        #expect(page.contains("## 2024-01-16 (2024-01-16)\n\nWritten in the second.\n"), "\(page)")
        #expect(!page.contains("Written in the first."))
        // Kept once: the folder left is read no more, and an export of everything keeps
        // nothing again.
        let catalogPath = IngestOptions.defaultCatalogPath(for: trip.folder.path)
        #expect(try Catalog.open(at: catalogPath, access: .readOnly).setting(Catalog.SettingKey.notesLeftIn) == nil)
        let catalog = try Catalog.open(at: catalogPath)
        let again = try await ExportStage(catalog: catalog, folder: trip.folder.path)
            .run(settings: try catalog.storedExportSettings(), language: try catalog.storedNamingLanguage(), checkEverything: true)
        catalog.releaseLock()
        #expect(again.replacedNotes == nil && again.dayPagesRendered > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: first + "/journal").filter { $0.hasPrefix("replaced-notes-") }.count == 1)
    }

    @Test("an output folder used again after another holds an older state of the notes: the catalog's newer notes win, nothing is lost")
    func outputFolderUsedAgain() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let first = trip.folder.appendingPathComponent("geotrip").path, second = trip.temp.url.appendingPathComponent("elsewhere").path
        try await trip.ingest(out: nil)
        try trip.write("Old words.\n", in: first)
        try await trip.ingest(out: nil)
        // Another output folder, where the note is rewritten; then the first folder again.
        try await trip.ingest(out: second)
        try trip.write("New words.\n", in: second, replacing: "Old words.\n")
        try await trip.ingest(out: nil)  // the second folder is remembered: its edit is read
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "New words.\n")
        try await trip.ingest(out: first)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "New words.\n")
        #expect(try String(contentsOf: trip.page(first), encoding: .utf8).contains("<!-- notes 2024-01-16 -->\nNew words.\n<!-- end notes"))
        // The older words the first folder held are kept beside it, not lost.
        let backups = try FileManager.default.contentsOfDirectory(atPath: first + "/journal").filter { $0.hasPrefix("2024-01-16.edited-") }
        #expect(backups.count == 1)
        let backup = try String(contentsOfFile: first + "/journal/" + (backups.first ?? ""), encoding: .utf8)
        #expect(backup.contains("Old words."))

        // The day's note rewritten in the first folder; then the second folder again, its older
        // copy of the day's note beside a visit's note written there now, which makes the file
        // newer: the visit's counts, the day's stays the catalog's (each block is judged alone).
        try trip.write("Newest words.\n", in: first, replacing: "New words.\n")
        try await trip.ingest(out: first)
        var text = try String(contentsOf: trip.page(second), encoding: .utf8)
        #expect(text.contains("<!-- notes 2024-01-16 -->\nNew words.\n"))
        let visitMarker = try #require(text.range(of: #"<!-- notes v[0-9]+ -->\n"#, options: .regularExpression))
        let visit = String(text[visitMarker].dropFirst("<!-- notes ".count).dropLast(" -->\n".count))
        text.insert(contentsOf: "A visit's words.\n", at: visitMarker.upperBound)
        try text.write(to: trip.page(second), atomically: true, encoding: .utf8)
        try await trip.ingest(out: second)
        var notes = try trip.storedNotes()
        #expect(notes["2024-01-16"]?.text == "Newest words.\n" && notes[visit]?.text == "A visit's words.\n")
        // The day's note deleted there; the first folder, which still holds it as written, used
        // again does not bring it back.
        try trip.write("", in: second, replacing: "Newest words.\n")
        try await trip.ingest(out: second)
        try await trip.ingest(out: first)
        notes = try trip.storedNotes()
        #expect((notes["2024-01-16"]?.text ?? "") == "" && notes[visit]?.text == "A visit's words.\n")
        #expect(try String(contentsOf: trip.page(first), encoding: .utf8).contains("<!-- notes 2024-01-16 -->\n<!-- end notes 2024-01-16 -->"))
    }

    @Test("a page put back from an older copy counts as the latest edit, and the note it replaces is kept beside the journal")
    func olderCopyPutBack() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let out = trip.folder.appendingPathComponent("geotrip").path
        try await trip.ingest(out: nil)
        try trip.write("First.\n", in: out)
        try await trip.ingest(out: nil)
        // A copy of the page is taken with an edit not yet taken in (a sync tool, another machine).
        try trip.write("Second.\n", in: out, replacing: "First.\n")
        let copy = trip.temp.url.appendingPathComponent("copy.md")
        try FileManager.default.copyItem(at: trip.page(out), to: copy)
        try await trip.ingest(out: nil)
        try trip.write("Third.\n", in: out, replacing: "Second.\n")
        try await trip.ingest(out: nil)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Third.\n")
        // The copy put back (a new file time): its block is an edit over an older copy.
        try FileManager.default.removeItem(at: trip.page(out))
        try FileManager.default.copyItem(at: copy, to: trip.page(out))
        let summary = try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Second.\n")
        let kept = try #require(summary.export?.replacedNotes)
        #expect(kept.hasPrefix("journal/replaced-notes-") && summary.export?.replacedNoteCount == 1)
        #expect(summary.export?.backups.isEmpty == true, "a replaced note is not an edited page")
        #expect(try String(contentsOfFile: out + "/" + kept, encoding: .utf8).contains("## 2024-01-16 (2024-01-16)\n\nThird.\n"))
        // An ordinary edit keeps nothing aside.
        try trip.write("Fourth.\n", in: out, replacing: "Second.\n")
        let next = try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        #expect(next.export?.backups.isEmpty == true && next.export?.replacedNotes == nil)
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Fourth.\n")
        // A copy without geotrip's last line (its record of the notes) may be any older copy:
        // its edit counts, and the note it replaces is kept too.
        var page = try String(contentsOf: trip.page(out), encoding: .utf8)
        page = page.components(separatedBy: "\n").filter { !$0.hasPrefix("<!-- geotrip · ") }.joined(separator: "\n")
        page = page.replacingOccurrences(of: "<!-- notes 2024-01-16 -->\nFourth.\n", with: "<!-- notes 2024-01-16 -->\nOlder edit.\n")
        try page.write(to: trip.page(out), atomically: true, encoding: .utf8)
        let last = try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Older edit.\n")
        let keptAgain = try #require(last.export?.replacedNotes)
        #expect(try String(contentsOfFile: out + "/" + keptAgain, encoding: .utf8).contains("Fourth.\n"))

        // A copy of the page as an earlier build wrote it (its last line intact, without the
        // record of the notes), taken before a note was written, put back with a new time
        // (`cp`, `git checkout`): it may be any older copy, so the note written since is kept.
        try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        try trip.write("Fifth.\n", in: out, replacing: "Older edit.\n")
        try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        #expect(try trip.storedNotes()["2024-01-16"]?.text == "Fifth.\n")
        var older = try String(contentsOf: trip.page(out), encoding: .utf8)
            .replacingOccurrences(of: "<!-- notes 2024-01-16 -->\nFifth.\n", with: "<!-- notes 2024-01-16 -->\n")
        older = older.replacingOccurrences(of: #" · notes( [^ ]+=[0-9a-f]{8})*"#, with: "", options: .regularExpression)
        #expect(JournalDocument(text: older).isIntact && JournalDocument(text: older).writtenNotes == nil)
        try FileManager.default.removeItem(at: trip.page(out))
        try older.write(to: trip.page(out), atomically: true, encoding: .utf8)
        let restored = try await IngestPipeline(options: IngestOptions(folder: trip.folder.path)).run(progress: SilentProgress())
        let keptOnRestore = try #require(restored.export?.replacedNotes, "the note written since the copy is kept")
        #expect(try String(contentsOfFile: out + "/" + keptOnRestore, encoding: .utf8).contains("Fifth.\n"))
    }

    @Test("a deleted note stays deleted when its day goes and comes back, though another output folder holds it as written")
    func deletedNoteStaysDeleted() async throws {
        let trip = try LisbonTrip()
        defer { trip.temp.remove() }
        let (folder, temp) = (trip.folder, trip.temp)
        let first = folder.appendingPathComponent("geotrip").path, second = temp.url.appendingPathComponent("second").path
        try await trip.ingest(out: nil)
        try trip.write("Soon deleted.\n", in: first, replacing: "")
        try await trip.ingest(out: nil)
        try await trip.ingest(out: second)
        try trip.write("", in: second, replacing: "Soon deleted.\n")
        try await trip.ingest(out: second)
        // The day goes (its photos moved out of the folder), then the first folder, which still
        // holds the note as written, is used again; then the day comes back.
        let aside = temp.url.appendingPathComponent("aside")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        let dayPhotos = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("2024-01 Lisboa").path)
            .filter { $0.hasPrefix("2024-01-16") }
        for name in dayPhotos { try FileManager.default.moveItem(at: folder.appendingPathComponent("2024-01 Lisboa/" + name), to: aside.appendingPathComponent(name)) }
        try await trip.ingest(out: second)
        try await trip.ingest(out: first)
        let unplaced = URL(fileURLWithPath: first).appendingPathComponent("journal/unplaced-notes.md")
        #expect(!((try? String(contentsOf: unplaced, encoding: .utf8)) ?? "").contains("Soon deleted."))
        for name in dayPhotos { try FileManager.default.moveItem(at: aside.appendingPathComponent(name), to: folder.appendingPathComponent("2024-01 Lisboa/" + name)) }
        try await trip.ingest(out: first)
        #expect(try String(contentsOf: trip.page(first), encoding: .utf8).contains("<!-- notes 2024-01-16 -->\n<!-- end notes 2024-01-16 -->"))
        #expect((try trip.storedNotes()["2024-01-16"]?.text ?? "") == "")
    }

    @Test("a folder that was one trip grew into a library and shrank back: the notes move with it, and the old shape's folders go")
    func tripBecomesLibrary() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        // First only the Lisbon trip: one trip, exported as before.
        try LibraryFixture.write(into: folder, days: LibraryFixture.schedule.filter { $0.trip == 1 })
        _ = try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
        let single = folder.appendingPathComponent("geotrip/journal/2024-01-15.md")
        // One trip: its map has no page of trips to lead back to.
        #expect(!(try String(contentsOf: folder.appendingPathComponent("geotrip/index.html"), encoding: .utf8)).contains("class=\"up\""))
        var text = try String(contentsOf: single, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- notes 2024-01-15 -->\n"))
        text.insert(contentsOf: "First day.\n", at: marker.upperBound)
        try text.write(to: single, atomically: true, encoding: .utf8)
        // Then the rest of the library.
        try LibraryFixture.write(into: folder, days: LibraryFixture.schedule.filter { $0.trip != 1 })
        let summary = try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
        #expect(summary.export?.trips == 3)
        #expect(!FileManager.default.fileExists(atPath: single.path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("geotrip/trip.geojson").path))
        let moved = try String(contentsOf: folder.appendingPathComponent("geotrip/trips/2024-01-15/journal/2024-01-15.md"), encoding: .utf8)
        #expect(moved.contains("<!-- notes 2024-01-15 -->\nFirst day.\n<!-- end notes 2024-01-15 -->"))
        // The single trip's thumbnails went, and their folder with them.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("geotrip/thumbs").path))

        // And back to one trip: the trips' folders go, `trips/` with them, and the note comes
        // back to the output folder's own journal.
        for day in LibraryFixture.schedule where day.trip != 1 {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(day.folder))
        }
        let again = try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
        #expect(again.export?.trips == 0, "one trip, not a library")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("geotrip/trips").path))
        #expect(try String(contentsOf: single, encoding: .utf8).contains("<!-- notes 2024-01-15 -->\nFirst day.\n<!-- end notes 2024-01-15 -->"))
    }

    /// Opens the page of trips in a 390 px frame and reports what a person would see.
    static let probe = #"""
<!DOCTYPE html><meta charset="utf-8"><title>probe</title>
<iframe id="f" src="geotrip/index.html" style="width:390px;height:844px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  r.trips = doc.querySelectorAll('li.trip').length;
  r.covers = doc.querySelectorAll('li.trip img').length;
  r.brokenCovers = Array.prototype.filter.call(doc.querySelectorAll('li.trip img'), function (img) { return img.complete && img.naturalWidth === 0; }).length;
  r.titles = Array.prototype.map.call(doc.querySelectorAll('li.trip h2'), function (h) { return h.textContent; });
  r.scrollWidth = doc.documentElement.scrollWidth;
  r.clientWidth = doc.documentElement.clientWidth;
  document.getElementById('result').textContent = JSON.stringify(r);
});
</script>
"""#

    struct ProbeResult: Decodable {
        var trips: Int
        var covers: Int
        var brokenCovers: Int
        var titles: [String]
        var scrollWidth: Int
        var clientWidth: Int
    }

    @Test("the page of trips in a browser: three trips with their covers loaded, no sideways scroll at 390 px, a place's long name wrapped",
          .enabled(if: TripMapBrowserTests.chromium != nil, TripMapBrowserTests.skipMessage))
    func pageInBrowser() async throws {
        let library = try Library()
        defer { library.temp.remove() }
        try await library.ingest()
        // A place of the Kyoto trip named with a word wider than a phone's screen.
        let catalogPath = IngestOptions.defaultCatalogPath(for: library.folder.path)
        let kyoto = try Catalog.open(at: catalogPath, access: .readOnly).currentPlaces().first { $0.centre.latitude > 34 && $0.centre.latitude < 36 }
        let long = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"
        _ = try await PlaceRenamer(folder: library.folder.path, catalogPath: catalogPath).rename(try #require(kyoto?.placeID), to: long)
        let probe = library.folder.appendingPathComponent("probe.html")
        try Self.probe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try TripMapBrowserTests.chromium(probe, ["--allow-file-access-from-files", "--window-size=800,1000", "--dump-dom"])
        let result: ProbeResult = try TripMapBrowserTests.result(of: run)
        #expect(TripMapBrowserTests.consoleLines(run).isEmpty)
        #expect(result.trips == 3)
        #expect(result.covers == 3 && result.brokenCovers == 0)
        #expect(result.titles.count == 3 && result.titles.allSatisfy { !$0.isEmpty && !$0.hasPrefix("#") })
        #expect(result.titles.contains { $0.contains(long) })
        #expect(result.scrollWidth <= result.clientWidth)
    }
}
