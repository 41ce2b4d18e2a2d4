import Foundation
import GeoTripTestSupport
import Testing

/// `geotrip trips` and `places --trip N` on a folder of three trips (`LibraryFixture`, written by
/// exiftool), and on the sample trip, which is one trip.
@Suite("trips and places --trip", .serialized, .enabled(if: LibraryFixture.canWrite, "exiftool writes the library"))
struct LibraryCommandTests {
    @Test("trips lists the schedule's trips; places --trip N lists one trip's visits; a wrong N says what there is")
    func tripsAndPlaces() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        // A scan with no date (the sample's camera photo): no trip takes it, and the library's
        // own journal lists it.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Scans"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("2025-06-11 Sintra/DSCF1004.JPG"),
                                         to: folder.appendingPathComponent("Scans/scan 1.jpg"))
        // A photo without a position in Kyoto, three hours from the others (none to place it by):
        // on its day's page, and counted with the trip's photos everywhere.
        #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("2024-02 Kyoto/no-gps.jpg"), dateTime: "2024:02:20 13:00:00",
                                        offset: "+09:00", at: nil))
        // A phone clip in Kyoto: the trip's video, said apart from its photos.
        let clip = folder.appendingPathComponent("2024-02 Kyoto/clip.mov")
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("videos/video-iphone.mov"), to: clip)
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                   ["-q", "-overwrite_original", "-Keys:CreationDate=2024:02:20 12:00:00+09:00",
                                    "-Keys:GPSCoordinates=35.0394, 135.7292, 0", clip.path]).status == 0)
        // A photo at the house on the morning the third trip leaves: on that trip's first day,
        // inside home's privacy zone, so counted nowhere the trip is shown.
        #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("home/2024-03-11-early.jpg"), dateTime: "2024:03:11 06:30:00",
                                        offset: "+01:00", at: LibraryFixture.house))
        // Then a walk east from 450 m (inside the zone's 500 m) to 650 m: one visit, its centre
        // outside, of which the first photo is counted nowhere either.
        for (minute, metres) in [(40, 450.0), (50, 600.0), (60, 650.0)] {
            let east = LibraryFixture.house.1 + metres / (111_195 * cos(LibraryFixture.house.0 * .pi / 180))
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("home/2024-03-11-walk-\(minute).jpg"),
                                            dateTime: String(format: "2024:03:11 %02d:%02d:00", 6 + minute / 60, minute % 60), offset: "+01:00",
                                            at: (LibraryFixture.house.0, east)))
        }
        // And a phone clip at 06:45, 430 m east: inside the zone too, no video of the trip's.
        let walkClip = folder.appendingPathComponent("home/2024-03-11-walk-45.mov")
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("videos/video-iphone.mov"), to: walkClip)
        let clipEast = LibraryFixture.house.1 + 430 / (111_195 * cos(LibraryFixture.house.0 * .pi / 180))
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                   ["-q", "-overwrite_original", "-Keys:CreationDate=2024:03:11 06:45:00+01:00",
                                    "-Keys:GPSCoordinates=\(LibraryFixture.house.0), \(clipEast), 0", walkClip.path]).status == 0)
        let ingest = try CommandRun.geotrip(["ingest", folder.path])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.contains("export: 3 trips in trips/"))
        // The summary speaks of the library, not of one trip with every way home in its distance.
        #expect(ingest.stdout.contains("  library: \(LibraryFixture.schedule.first!.date) to \(LibraryFixture.schedule.last!.date), 3 trips (`geotrip trips` lists them), "),
                "\(ingest.stdout)")
        #expect(!ingest.stdout.contains("  trip: "))
        let journal = folder.appendingPathComponent("geotrip/journal")
        let undated = try String(contentsOf: journal.appendingPathComponent("undated-photos.md"), encoding: .utf8)
        let links = undated.components(separatedBy: "\n").filter { $0.hasPrefix("- [") }
        #expect(links == ["- [Scans/scan 1.jpg](../../Scans/scan%201.jpg)"], "\(undated)")
        // The link, read from the journal folder, is the scan.
        let target = try #require(links.first?.split(separator: "(").last?.dropLast().removingPercentEncoding)
        #expect(journal.appendingPathComponent(target).standardizedFileURL.path == folder.appendingPathComponent("Scans/scan 1.jpg").path)

        let listed = try CommandRun.geotrip(["trips", folder.path, "--json"])
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(trips.map { [$0["firstDay"] as? String ?? "", $0["lastDay"] as? String ?? ""] } == LibraryFixture.trips.map { [$0.0, $0.1] })
        // The walk is in Amsterdam, on the third trip's first day.
        #expect(trips.map { $0["countries"] as? [String] ?? [] } == [["PT"], ["JP"], ["NL", "PT"]])
        let photoCounts = (1...3).map { n in LibraryFixture.schedule.filter { $0.trip == n }.map(\.spots.count).reduce(0, +) + [0, 1, 2][n - 1] }
        #expect(trips.map { $0["photos"] as? Int ?? 0 } == photoCounts)
        #expect(trips.map { $0["videos"] as? Int ?? -1 } == [0, 1, 0])
        #expect(try String(contentsOf: folder.appendingPathComponent("geotrip/trips/2024-02-20/journal/2024-02-20.md"), encoding: .utf8)
            .contains("no-gps.jpg"))
        // Every thumbnail of a trip is one its journal or map shows: the photo without a
        // position, listed by name, has none.
        for (first, _) in LibraryFixture.trips {
            let tripFolder = folder.appendingPathComponent("geotrip/trips/\(first)")
            let pages = try ([tripFolder.appendingPathComponent("index.html")]
                + FileManager.default.contentsOfDirectory(at: tripFolder.appendingPathComponent("journal"), includingPropertiesForKeys: nil))
                .map { try String(contentsOf: $0, encoding: .utf8) }.joined()
            let thumbnails = try FileManager.default.contentsOfDirectory(atPath: tripFolder.appendingPathComponent("thumbs").path)
            #expect(!thumbnails.isEmpty)
            for name in thumbnails { #expect(pages.contains("thumbs/" + name), "\(first): thumbs/\(name) is shown nowhere") }
        }
        #expect(trips.map { $0["folder"] as? String ?? "" } == LibraryFixture.trips.map { "trips/" + $0.0 })

        let text = try CommandRun.geotrip(["trips", folder.path])
        #expect(text.stdout.contains("Home: 52.370, 4.895 (the place of most nights"))
        #expect(text.stdout.contains("   2  2024-02-20 to 2024-02-21 (2 days)"))
        // Each trip's distance as the page of trips gives it.
        func kilometres(_ text: String) -> [String] {
            text.matches(of: /([0-9][0-9,]*) km/).map { String($0.output.1) }.sorted()
        }
        let index = try String(contentsOf: folder.appendingPathComponent("geotrip/index.html"), encoding: .utf8)
        #expect(kilometres(text.stdout).count == 3)
        #expect(kilometres(text.stdout) == kilometres(index))
        // And its photos, the one without a position too (newest trip first on the page), and
        // its video apart.
        #expect(index.matches(of: /([0-9]+) photos/).map { Int($0.output.1)! } == photoCounts.reversed(), "\(index)")
        #expect(index.contains("\(photoCounts[1]) photos, 1 video · "), "\(index)")
        #expect(text.stdout.contains("\(photoCounts[1]) photos, 1 video, "), "\(text.stdout)")
        #expect(text.stdout.contains(" \(photoCounts[2]) photos, "), "\(text.stdout)")
        // The house's photo is the third trip's (its journal keeps the visit, unnamed); the
        // walk's visit begins at 06:50, not at the photo inside the zone.
        let leaving = try String(contentsOf: folder.appendingPathComponent("geotrip/trips/2024-03-11/journal/2024-03-11.md"), encoding: .utf8)
        #expect(leaving.contains("Private place") && leaving.contains("06:50–07:00") && !leaving.contains("walk-40") && !leaving.contains("walk-45"),
                "\(leaving)")

        let kyoto = try CommandRun.geotrip(["places", folder.path, "--trip", "2", "--json"])
        #expect(kyoto.status == 0, "\(kyoto.stderr)")
        let visits = try #require(try JSONSerialization.jsonObject(with: Data(kyoto.stdout.utf8)) as? [[String: Any]])
        #expect(!visits.isEmpty)
        #expect(visits.allSatisfy { ($0["countryCode"] as? String) == "JP" })
        #expect(Set(visits.compactMap { $0["localDate"] as? String }) == ["2024-02-20", "2024-02-21"])

        let wrong = try CommandRun.geotrip(["places", folder.path, "--trip", "9"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("the folder has trips 1 to 3"))
        // A value that starts with a minus is the option's value, not another option.
        let negative = try CommandRun.geotrip(["places", folder.path, "--trip", "-1"])
        #expect(negative.status != 0)
        #expect(negative.stderr.contains("the folder has trips 1 to 3"), "\(negative.stderr)")

        // Home given elsewhere is remembered and said; a home that is not a point is refused.
        let given = try CommandRun.geotrip(["export", folder.path, "--home", "40.7128,-74.0060"])
        #expect(given.status == 0, "\(given.stderr)")
        let all = try CommandRun.geotrip(["trips", folder.path])
        #expect(all.stdout.contains("Home: 40.713, -74.006 (--home)"))
        // Amsterdam's days (a café and the house) are trips now, and trips says how to make them
        // days at home again: one trip for each of the schedule's days there.
        let amsterdamDays = LibraryFixture.schedule.filter { $0.trip == nil }.count
        #expect(all.stdout.contains("\(amsterdamDays) trips are days within 50 km of 52.370, 4.895, a home of earlier runs: "
            + "if you lived there, `geotrip export \(folder.path) --home auto` finds each home over the years"), "\(all.stdout)")
        // South and west of the equator and Greenwich, as given, without `=`.
        let south = try CommandRun.geotrip(["export", folder.path, "--home", "-33.9249,18.4241"])
        #expect(south.status == 0, "\(south.stderr)")
        #expect(try CommandRun.geotrip(["trips", folder.path]).stdout.contains("Home: -33.925, 18.424 (--home)"))
        let nowhere = try CommandRun.geotrip(["export", folder.path, "--home", "0,0"])
        #expect(nowhere.status == 64 && nowhere.stderr.contains("no fix"), "\(nowhere.stderr)")
        let bad = try CommandRun.geotrip(["export", folder.path, "--home", "north"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--home north is not LAT,LON"))
    }

    @Test("a home photographed on few nights, a hotel's nights found as home, makes one-day trips at the house: trips says how to make it home")
    func tripsAtTheHouse() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        let hotel = (48.2082, 16.3738)
        var days: [LibraryFixture.Day] = []
        // Four business weeks at one Vienna hotel, 20 nights over three months...
        for month in 1...4 {
            for day in 10...14 {
                days.append(LibraryFixture.Day(date: String(format: "2024-%02d-%02d", month, day), trip: nil, spots: [hotel], offset: "+01:00", folder: "vienna"))
            }
        }
        // ...and five photographed days at the house in Amsterdam, between them.
        for date in ["2024-01-01", "2024-01-20", "2024-02-25", "2024-03-25", "2024-04-25"] {
            days.append(LibraryFixture.Day(date: date, trip: nil, spots: [LibraryFixture.house], offset: "+01:00", folder: "home"))
        }
        try LibraryFixture.write(into: folder, days: days.sorted { $0.date < $1.date })
        // The ingest that shows the house on five trips' maps says so, and every run after.
        let shown = "  5 trips are days at one spot alone, 52.3702,4.8952, shown on their maps: if that is your home"
        let ingest = try CommandRun.geotrip(["ingest", folder.path])
        #expect(ingest.status == 0 && ingest.stdout.contains(shown), "\(ingest.stdout)")
        #expect(try CommandRun.geotrip(["ingest", folder.path]).stdout.contains(shown))
        let text = try CommandRun.geotrip(["trips", folder.path]).stdout
        let advice = try #require(text.split(separator: "\n").first { $0.contains("trips are days at one spot alone") }, "\(text)")
        #expect(advice.hasPrefix("5 trips are days at one spot alone, 52.3702,4.8952: if that is your home"), "\(advice)")
        // Followed, the house is home and its days are no trips; the hotel, found as home first,
        // stays private (its days days at home) until forgotten, as the advice says; then its
        // weeks are trips.
        let command = try #require(advice.firstMatch(of: /`geotrip export [^`]* --home ([0-9.,-]+)`/), "\(advice)")
        #expect(advice.contains("; 48.208, 16.374, found as home by its nights, then stays private, and its days days at home, until "
                                + "`geotrip export \(folder.path) --forget-old-homes`"), "\(advice)")
        #expect(try CommandRun.geotrip(["export", folder.path, "--home", String(command.output.1)]).status == 0)
        let given = try CommandRun.geotrip(["trips", folder.path])
        #expect(given.stdout.contains("is one trip: each of its 25 days with a placed photo is a day at home: within 50 km of --home, "
                                      + "or only at a home kept private from earlier runs"), "\(given.stdout)")
        #expect(!(try CommandRun.geotrip(["ingest", folder.path]).stdout.contains("trips are days at one spot alone")))
        #expect(try CommandRun.geotrip(["export", folder.path, "--forget-old-homes"]).status == 0)
        let after = try CommandRun.geotrip(["trips", folder.path, "--json"])
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
        #expect(trips.map { $0["firstDay"] as? String ?? "" } == ["2024-01-10", "2024-02-10", "2024-03-10", "2024-04-10"], "\(after.stdout)")
    }

    @Test("a trip's distance in trips and on the page of trips is its map's: along a --track log where there is one")
    func distanceAlongTrack() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        // On the first day of the first trip, between its two photos (10:00 in Belém, 16:00 in
        // the old town), the log goes south over the river to Setúbal and back: some 60 km
        // where the visits are 7 km apart.
        let points = [(38.6916, -9.2160, "10:30"), (38.60, -9.05, "11:30"), (38.5244, -8.8882, "12:30"), (38.60, -9.00, "14:00"),
                      (38.7139, -9.1334, "15:30")]
        let track = temp.url.appendingPathComponent("day.gpx")
        try ("""
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            """ + points.map { #"<trkpt lat="\#($0.0)" lon="\#($0.1)"><time>2024-01-15T\#($0.2):00Z</time></trkpt>"# }.joined()
            + "</trkseg></trk></gpx>\n").write(to: track, atomically: true, encoding: .utf8)
        let ingest = try CommandRun.geotrip(["ingest", folder.path, "--track", track.path])
        #expect(ingest.status == 0, "\(ingest.stderr)")

        let listed = try CommandRun.geotrip(["trips", folder.path, "--json"])
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let distances = trips.map { $0["distanceKilometres"] as? Double ?? -1 }
        // The visits of the first trip, from visit to visit: Belém, the old town; the old town,
        // Belém (the next morning) and so on; the log adds its detour.
        // Great circles on a sphere of the Earth's mean radius (haversine).
        func kilometres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let radians = Double.pi / 180
            let h = pow(sin((b.0 - a.0) * radians / 2), 2) + cos(a.0 * radians) * cos(b.0 * radians) * pow(sin((b.1 - a.1) * radians / 2), 2)
            return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
        }
        func along(_ spots: [(Double, Double)]) -> Double { zip(spots, spots.dropFirst()).map { kilometres($0, $1) }.reduce(0, +) }
        let spots = LibraryFixture.schedule.filter { $0.trip == 1 }.flatMap(\.spots)
        let centres = along(spots)
        let detour = along(points.map { ($0.0, $0.1) }) - kilometres(spots[0], spots[1])
        #expect(detour > 50)
        #expect(abs(distances[0] - (centres + detour)) < 1, "\(distances) against \(centres) + \(detour)")
        // The others, without a log, from visit to visit.
        #expect(abs(distances[1] - along(LibraryFixture.schedule.filter { $0.trip == 2 }.flatMap(\.spots))) < 0.1)
        // The page of trips and the trip's map say the same.
        let index = try String(contentsOf: folder.appendingPathComponent("geotrip/index.html"), encoding: .utf8)
        #expect(index.contains("4 places · 6 photos · \(Int(distances[0].rounded())) km</p>"), "\(index)")
        let map = try String(contentsOf: folder.appendingPathComponent("geotrip/trips/2024-01-15/index.html"), encoding: .utf8)
        #expect(map.contains("\(Int(distances[0].rounded())) km"))
        let text = try CommandRun.geotrip(["trips", folder.path]).stdout
        #expect(text.contains("6 photos, \(Int(distances[0].rounded())) km  trips/2024-01-15"), "\(text)")
    }

    @Test("a folder of trips alone (no photo at home) has no home: every trip keeps all its days, and trips says why there is none")
    func tripsAlone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Travel")
        // Lisbon's six nights (two trips 58 days apart) are the most near one spot: once, they
        // made Lisbon home, and both Lisbon trips vanished from the journal and the map.
        // Kyoto two months later, so the folder spans 98 days.
        let days = LibraryFixture.schedule.filter { $0.trip != nil }.map { day in
            var day = day
            if day.trip == 2 { day.date = day.date.replacingOccurrences(of: "2024-02-", with: "2024-04-") }
            return day
        }.sorted { $0.date < $1.date }
        try LibraryFixture.write(into: folder, days: days)
        let trips = (1...3).map { number in days.filter { $0.trip == number }.map(\.date) }
        let ingest = try CommandRun.geotrip(["ingest", folder.path])
        #expect(ingest.status == 0 && ingest.stdout.contains("export: 3 trips in trips/"), "\(ingest.stdout) \(ingest.stderr)")
        let text = try CommandRun.geotrip(["trips", folder.path]).stdout
        #expect(text.contains("No home found (no place's nights span more than 60 days"), "\(text)")
        #expect(!text.contains("Home:"))
        for dates in trips {
            let journal = folder.appendingPathComponent("geotrip/trips/\(dates[0])/journal")
            let pages = try FileManager.default.contentsOfDirectory(atPath: journal.path).filter { $0.hasPrefix("20") }.sorted()
            #expect(pages == dates.map { $0 + ".md" }, "\(dates[0]): \(pages)")
        }
        // No visit of Lisbon is hidden as a home's.
        let page = try String(contentsOf: folder.appendingPathComponent("geotrip/trips/2024-03-11/journal/2024-03-13.md"), encoding: .utf8)
        #expect(page.contains("## ") && !page.contains("Private place"), "\(page)")
    }

    @Test("days of photos without a position that no trip takes are said, on every run, so their photos do not go unseen")
    func daysInNoTrip() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        // A camera without GPS on two days between trips: no trip takes a day without a placed photo.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Camera"), withIntermediateDirectories: true)
        for (name, date) in [("a.jpg", "2024:02:01 12:00:00"), ("b.jpg", "2024:02:02 12:00:00")] {
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("Camera/\(name)"), dateTime: date, offset: "+01:00", at: nil))
        }
        let said = "  2 days with photos, none of them with a position, are in no trip, so their photos are on no page and no map: 2024-02-01, 2024-02-02"
        let first = try CommandRun.geotrip(["ingest", folder.path])
        #expect(first.status == 0 && first.stdout.contains(said), "\(first.stdout)")
        let again = try CommandRun.geotrip(["ingest", folder.path, "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        #expect(export?["daysInNoTrip"] as? [String] == ["2024-02-01", "2024-02-02"], "\(export ?? [:])")
        #expect(export?["written"] as? Int == 0, "said by a rerun that writes nothing")
    }

    @Test("a heading written over in a page whose trip moved to another folder is said, with the command that gives the place that name")
    func headingInARetiredPage() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--quiet"]).status == 0)
        // Kyoto's first day: its first visit's heading written over.
        let page = folder.appendingPathComponent("geotrip/trips/2024-02-20/journal/2024-02-20.md")
        var lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix("## ") && $0.contains(" · ") })
        lines[index] = String(lines[index][..<lines[index].range(of: " · ")!.upperBound]) + "Tea at Ippodo"
        try lines.joined(separator: "\n").write(to: page, atomically: true, encoding: .utf8)
        // A photo the evening before: the trip begins a day earlier, in trips/2024-02-19.
        #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("2024-02 Kyoto/eve.jpg"), dateTime: "2024:02:19 20:00:00",
                                        offset: "+09:00", at: (35.0394, 135.7292)))
        let run = try CommandRun.geotrip(["ingest", folder.path, "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        let headings = export?["headingsWrittenOver"] as? [[String: Any]] ?? []
        #expect(headings.count == 1 && headings.first?["heading"] as? String == "Tea at Ippodo", "\(headings)")
        #expect((headings.first?["renameCommand"] as? String)?.hasSuffix("-- 'Tea at Ippodo'") == true, "\(headings)")
        #expect((headings.first?["backup"] as? String)?.hasPrefix("trips/2024-02-20/journal/2024-02-20.edited-") == true, "\(headings)")
        // The trip's folder moved with its first day: said, as links to the old one stop working.
        let moved = export?["tripFoldersMoved"] as? [[String: Any]] ?? []
        #expect(moved.count == 1 && moved.first?["from"] as? String == "trips/2024-02-20" && moved.first?["to"] as? [String] == ["trips/2024-02-19"],
                "\(moved)")
    }

    @Test("a trip split in two by a day at home added between is said: the days that went to the new folder, with their notes")
    func tripSplitSaid() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        // Lisbon goes on two more days, after a day without photos: one trip, 2024-01-15 to 2024-01-20.
        for (name, date) in [("late1.jpg", "2024:01:19 12:00:00"), ("late2.jpg", "2024:01:20 12:00:00")] {
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("2024-01 Lisboa/\(name)"), dateTime: date, offset: "+00:00", at: (38.7139, -9.1334)))
        }
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--quiet"]).status == 0)
        let trips = folder.appendingPathComponent("geotrip/trips")
        #expect(FileManager.default.fileExists(atPath: trips.appendingPathComponent("2024-01-15/journal/2024-01-20.md").path))
        // Photos at the house on the day between: the trip was two.
        for (name, date) in [("home1.jpg", "2024:01:18 09:00:00"), ("home2.jpg", "2024:01:18 21:00:00")] {
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent("home/\(name)"), dateTime: date, offset: "+01:00", at: LibraryFixture.house))
        }
        let run = try CommandRun.geotrip(["ingest", folder.path, "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        let moved = export?["tripFoldersMoved"] as? [[String: Any]] ?? []
        #expect(moved.count == 1 && moved.first?["from"] as? String == "trips/2024-01-15" && moved.first?["to"] as? [String] == ["trips/2024-01-19"]
                && moved.first?["daysMoved"] as? [String] == ["2024-01-19", "2024-01-20"], "\(moved)")
        #expect(FileManager.default.fileExists(atPath: trips.appendingPathComponent("2024-01-19/journal/2024-01-20.md").path))
        // Said once, on the run that split it.
        #expect(!(try CommandRun.geotrip(["ingest", folder.path])).stdout.contains("split in two"))
    }

    @Test("a trip folder the person renamed is said: its notes go to the trip's own folder, its pages go, the person's files stay")
    func renamedTripFolder() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Photos")
        try LibraryFixture.write(into: folder)
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--quiet"]).status == 0)
        let trips = folder.appendingPathComponent("geotrip/trips")
        let page = trips.appendingPathComponent("2024-02-20/journal/2024-02-20.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        try text.replacingOccurrences(of: "<!-- notes 2024-02-20 -->\n", with: "<!-- notes 2024-02-20 -->\nTemples all day.\n")
            .write(to: page, atomically: true, encoding: .utf8)
        try "passport, yen\n".write(to: trips.appendingPathComponent("2024-02-20/packing.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.moveItem(at: trips.appendingPathComponent("2024-02-20"), to: trips.appendingPathComponent("Kyoto 2024"))
        let run = try CommandRun.geotrip(["ingest", folder.path])
        #expect(run.stdout.contains("trips/Kyoto 2024 is no folder geotrip writes (a trip's folder is named by its first day): "
                                    + "its trip is written again in trips/2024-02-20, with the notes written in it"), "\(run.stdout)")
        let again = try String(contentsOf: page, encoding: .utf8)
        #expect(again.contains("<!-- notes 2024-02-20 -->\nTemples all day.\n"))
        let left = try FileManager.default.contentsOfDirectory(atPath: trips.appendingPathComponent("Kyoto 2024").path)
        #expect(left == ["packing.txt"], "only the person's own file stays: \(left)")
        // In --json too, on the run that found it.
        try FileManager.default.moveItem(at: trips.appendingPathComponent("2024-02-20/journal"), to: trips.appendingPathComponent("Kyoto 2024/journal"))
        let json = try CommandRun.geotrip(["ingest", folder.path, "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        let moved = export?["tripFoldersMoved"] as? [[String: Any]] ?? []
        #expect(moved.count == 1 && moved.first?["from"] as? String == "trips/Kyoto 2024" && moved.first?["renamed"] as? Bool == true
                && moved.first?["to"] as? [String] == ["trips/2024-02-20"], "\(moved)")
    }

    @Test("the sample trip with one photo of a camera whose clock reset is a library, said on every run with the photo")
    func strayDateSaid() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try temp.copySampleImages()
        let stray = folder.appendingPathComponent("IMG_5000.JPG")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("2025-06-10 Lisboa/IMG_0001.JPG"), to: stray)
        // Its position kept: the hotel's nights then span 25 years, and it is found as home.
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-q", "-overwrite_original", "-AllDates=2000:01:01 12:05:00", stray.path]).status == 0)
        let run = try CommandRun.geotrip(["ingest", folder.path])
        #expect(run.stdout.contains("library: "), "a library: the case tests something: \(run.stdout)")
        #expect(run.stdout.contains("the folder is a library of trips only because of 1 photo dated far from the other "), "\(run.stdout)")
        #expect(run.stdout.contains("(2000-01-01, IMG_5000.JPG)"), "\(run.stdout)")
        let again = try CommandRun.geotrip(["ingest", folder.path, "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        let strays = export?["libraryOnlyBy"] as? [String: Any]
        #expect(strays?["days"] as? [String] == ["2000-01-01"] && strays?["paths"] as? [String] == ["IMG_5000.JPG"] && strays?["photos"] as? Int == 1,
                "\(export ?? [:])")
        #expect(export?["written"] as? Int == 0, "said by a rerun that writes nothing")
        // Gone, it is not said.
        try FileManager.default.removeItem(at: stray)
        let fixed = try CommandRun.geotrip(["ingest", folder.path])
        #expect(!fixed.stdout.contains("library") && !fixed.stdout.contains("dated far"), "\(fixed.stdout)")
    }

    @Test("the sample trip is one trip: trips says so, places --trip explains, the outputs are where they were")
    func sampleIsOneTrip() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", folder.path]).status == 0)
        #expect(try CommandRun.geotrip(["trips", folder.path]).stdout.contains("is one trip: its photos span 60 days or fewer and no home is set"))
        let json = try CommandRun.geotrip(["trips", folder.path, "--json"]).stdout
        #expect(json == "[]\n", "\(json)")
        let places = try CommandRun.geotrip(["places", folder.path, "--trip", "1"])
        #expect(places.status != 0)
        #expect(places.stderr.contains("is one trip, not a library of trips"))
        for name in ["index.html", "trip.geojson", "journal/2025-06-10.md"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("geotrip/" + name).path))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("geotrip/trips").path))
        // Asked to forget earlier homes, it says there is none.
        let forgetting = try CommandRun.geotrip(["export", folder.path, "--forget-old-homes"])
        #expect(forgetting.status == 0 && forgetting.stdout.contains("--forget-old-homes: no place is kept private as an earlier home"), "\(forgetting.stdout)")
        // With a home once given and now found again (none, in one trip): the option is not
        // followed, and the export says why.
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--home", "38.7110483,-9.137098", "--quiet"]).status == 0)
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--home", "auto", "--quiet"]).status == 0)
        let refused = try CommandRun.geotrip(["export", folder.path, "--forget-old-homes"])
        #expect(refused.status == 0 && refused.stderr.contains("--forget-old-homes was not followed: the folder has no home now"), "\(refused.stderr)")
        // With a home given, only a folder without a dated photo is one trip, and says so.
        let empty = temp.url.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(try CommandRun.geotrip(["ingest", empty.path, "--home", "52,4"]).status == 0)
        #expect(try CommandRun.geotrip(["trips", empty.path]).stdout.contains("is one trip: it has no photo with a date and a position yet"))
        #expect(try CommandRun.geotrip(["places", empty.path, "--trip", "1"]).stderr.contains("not a library of trips: it has no photo with a date and a position yet. Leave --trip out."))
    }
}
