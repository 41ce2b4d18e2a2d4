import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// One rule for a photo's local day, local times on the visit's own clock, and tzdata's names
/// for zones (issue 10).
@Suite("Local times and days")
struct LocalTimeTests {
    static func instant(_ text: String) -> Date { UTCTimestamp.date(text)! }

    @Test("a day runs from 04:00 to 04:00 by default: 01:30 belongs to the evening before", arguments: [
        ("2025-06-10T23:30:00Z", "+01:00", 240, "2025-06-10"),  // 00:30 on the 11th, local
        ("2025-06-10T23:30:00Z", "+01:00", 0, "2025-06-11"),    // the same with midnight days
        ("2025-06-11T00:29:00Z", "+02:00", 240, "2025-06-10"),  // 02:29 on the 11th
        ("2025-06-11T02:00:00Z", "+02:00", 240, "2025-06-11"),  // 04:00: a new day
        ("2025-06-10T12:00:00Z", "-10:00", 240, "2025-06-09"),  // 02:00 on the 10th
    ])
    func dayRule(utc: String, zone: String, dayStart: Int, expected: String) {
        let rule = LocalDayRule(dayStartMinutes: dayStart)
        #expect(rule.day(utc: Self.instant(utc), zone: zone, cameraTime: nil) == expected)
        // Worked out independently too: Foundation's formatter on the wall clock minus the day start.
        let local = Self.instant(utc).addingTimeInterval(Double(UTCOffset(parsing: zone)!.minutes * 60 - dayStart * 60))
        #expect(String(local.ISO8601Format().prefix(10)) == expected)
    }

    @Test("without an instant the camera's wall clock decides, by the same day start")
    func cameraTimeFallback() {
        let rule = LocalDayRule()
        #expect(rule.day(utc: nil, zone: nil, cameraTime: "2025-06-11T01:30:00") == "2025-06-10")
        #expect(rule.day(utc: nil, zone: nil, cameraTime: "2025-06-11T04:00:00.500") == "2025-06-11")
        #expect(rule.day(utc: nil, zone: nil, cameraTime: nil) == nil)
        // A camera time that resolution refuses as implausible makes no day of the trip.
        #expect(rule.day(utc: nil, zone: nil, cameraTime: "2098-01-01T10:00:00") == nil)
        #expect(rule.day(utc: nil, zone: nil, cameraTime: "1800-01-01T10:00:00") == nil)
        #expect(LocalDayRule(parsing: "00:00")?.dayStartMinutes == 0)
        #expect(LocalDayRule(parsing: "23:59")?.dayStartText == "23:59")
        for bad in ["24:00", "4", "04:60", "-1:00", "04:00:00", "٠٤:٠٠"] { #expect(LocalDayRule(parsing: bad) == nil, "\(bad)") }
    }

    @Test("zones are named as tzdata names them, or by their offset", arguments: [
        ("Europe/Lisbon", "2025-06-10T09:00:00Z", "WEST"), ("Europe/Lisbon", "2025-01-10T09:00:00Z", "WET"),
        ("Europe/Madrid", "2025-06-10T09:00:00Z", "CEST"), ("Asia/Tokyo", "2025-06-10T09:00:00Z", "JST"),
        ("America/New_York", "2025-01-10T09:00:00Z", "EST"), ("Asia/Dubai", "2025-06-10T09:00:00Z", "+04"),
        ("Asia/Kolkata", "2025-06-10T09:00:00Z", "IST"), ("+05:45", "2025-06-10T09:00:00Z", "+05:45"),
        ("Not/AZone", "2025-06-10T09:00:00Z", "Not/AZone"), ("../../etc/passwd", "2025-06-10T09:00:00Z", "../../etc/passwd"),
    ])
    func abbreviations(zone: String, utc: String, expected: String) {
        #expect(LocalClock.abbreviation(zone, at: Self.instant(utc)) == expected)
    }

    @Test("a visit's times: its day when it began after midnight, the next day when it ended there, both zones across a change of the clocks",
          arguments: [
        // Lisbon's clocks went forward at 01:00 UTC on 2024-03-31: 00:30 WET, then 03:40 WEST.
        ("2024-03-31T00:30:00Z", "2024-03-31T02:40:00Z", "2024-03-30", "Europe/Lisbon", "00:30 (03-31) WET–03:40 WEST"),
        ("2024-01-01T02:30:00Z", "2024-01-01T02:40:00Z", "2023-12-31", "Europe/Lisbon", "02:30 (01-01)–02:40 WET"),
        ("2023-12-31T23:50:00Z", "2024-01-01T00:10:00Z", "2023-12-31", "Europe/Lisbon", "23:50–00:10 (01-01) WET"),
        ("2025-06-10T08:05:00Z", "2025-06-10T08:21:00Z", "2025-06-10", "Europe/Lisbon", "09:05–09:21 WEST"),
        // New York's went forward at 07:00 UTC on 2024-03-10 (02:00 EST became 03:00 EDT).
        ("2024-03-10T06:30:00Z", "2024-03-10T07:40:00Z", "2024-03-09", "America/New_York", "01:30 (03-10) EST–03:40 EDT"),
        // Lisbon's clocks went back at 01:00 UTC on 2024-10-27: 01:30 WEST and 01:30 WET are an hour apart.
        ("2024-10-27T00:30:00Z", "2024-10-27T01:30:00Z", "2024-10-26", "Europe/Lisbon", "01:30 (10-27) WEST–01:30 WET"),
        // A visit within one minute (one photo, or a burst) is its arrival alone.
        ("2025-06-11T07:47:10Z", "2025-06-11T07:47:50Z", "2025-06-11", "Europe/Lisbon", "08:47 WEST"),
        ("2024-01-01T02:30:00Z", "2024-01-01T02:30:00Z", "2023-12-31", "Europe/Lisbon", "02:30 (01-01) WET"),
        // No zone known: UTC, by the same rules.
        ("2025-06-11T07:47:10Z", "2025-06-11T07:47:50Z", "2025-06-11", "", "07:47 UTC"),
        ("2023-12-31T23:50:00Z", "2024-01-01T00:10:00Z", "2023-12-31", "", "23:50–00:10 (01-01) UTC"),
    ])
    func visitTimes(arrival: String, departure: String, day: String, zone: String, expected: String) {
        var visit = TripVisit(id: "v1", placeId: "p1", revision: 1, latitude: 38.7, longitude: -9.1, radiusMeters: 10,
                              arrival: arrival, departure: departure, localDate: day, timeZone: zone.isEmpty ? nil : zone,
                              localArrival: nil, localDeparture: nil, photoCount: 2, photos: [], name: nil, admin1: nil, country: nil,
                              countryCode: nil, nameSource: nil)
        visit.setLocalTimes()
        #expect(visit.localTimeSpan == expected)
        // The map's list of visits says the same (it shows no times without a zone).
        guard !zone.isEmpty else { return }
        let trip = Trip(visits: [visit], outside: [], days: [])
        let map = TripMapInput.from(trip: trip, route: TripRoute(visits: trip.visits, track: []), notes: [:], byPath: PhotosByPath(), thumbnails: [:],
                                    tripFolderLink: "", privacy: PrivacyZones(), language: "en", tiles: nil)
        #expect(map.visits.map(TripMapPage.timeSpan) == [expected])
    }

    @Test("every heading geotrip writes has its shape, in every zone tzdata knows, winter and summer, over midnight and a change of the clocks; a person's own does not")
    func headingsInEveryZone() {
        let spans = [("2025-01-15T10:00:00Z", "2025-01-15T10:00:30Z"), ("2025-07-15T21:30:00Z", "2025-07-16T03:40:00Z"),
                     ("2024-03-31T00:30:00Z", "2024-03-31T02:40:00Z"), ("2024-10-27T00:30:00Z", "2024-10-27T01:30:00Z")]
        var missed: [String] = []
        for zone in TimeZone.knownTimeZoneIdentifiers + [""] {
            for (arrival, departure) in spans {
                var visit = TripVisit(id: "v1", placeId: "p1", revision: 1, latitude: 0, longitude: 0, radiusMeters: 10,
                                      arrival: arrival, departure: departure, localDate: String(arrival.prefix(10)), timeZone: zone.isEmpty ? nil : zone,
                                      localArrival: nil, localDeparture: nil, photoCount: 1, photos: [], name: nil, admin1: nil, country: nil,
                                      countryCode: nil, nameSource: nil)
                visit.setLocalTimes()
                let heading = visit.localTimeSpan + " · Somewhere, Region, Country"
                if !JournalDocument.hasGeotripShape(heading) { missed.append(heading) }
            }
        }
        #expect(missed.isEmpty, "\(missed.count) headings geotrip writes not known as its own: \(missed.prefix(10))")
        for own in ["Lunch · with Ana", "22:41 — Bairro Alto · bars", "Day 3 · Sintra", "Breakfast by the river"] {
            #expect(!JournalDocument.hasGeotripShape(own), "\(own)")
        }
    }

    @Test("stored UTC times compare as the instants they are, milliseconds or none (the whole second first)")
    func timestampsInOrder() {
        var random = SplitMix(seed: 77)
        for _ in 0..<20_000 {
            // Pairs within a few seconds of each other, half of them with milliseconds.
            let base = 1_750_000_000.0 + Double(random.next() % 1_000_000)
            func instant() -> Double { base + Double(random.next() % 3) + (random.next() % 2 == 0 ? 0 : Double(random.next() % 1000) / 1000) }
            let (a, b) = (Date(timeIntervalSince1970: instant()), Date(timeIntervalSince1970: instant()))
            guard let x = a.geotripISO8601, let y = b.geotripISO8601 else { continue }
            #expect(UTCTimestamp.precedes(x, y) == (a < b), "\(x) \(y)")
        }
    }

    @Test("local times carry the zone's offset at that instant")
    func localISO8601() {
        #expect(LocalClock.iso8601(Self.instant("2025-06-10T23:41:00Z"), zone: "Europe/Lisbon") == "2025-06-11T00:41:00+01:00")
        #expect(LocalClock.iso8601(Self.instant("2025-01-10T23:41:00Z"), zone: "Europe/Lisbon") == "2025-01-10T23:41:00+00:00")
        #expect(LocalClock.iso8601(Self.instant("2025-06-10T12:00:00Z"), zone: "-03:30") == "2025-06-10T08:30:00-03:30")
    }

    @Test("clustering settings stored before the day rule existed still read, with 04:00")
    func oldSettingsDecode() throws {
        let old = #"{"placeRadius":150,"visitGap":7200,"visitRadius":250}"#
        let options = try JSONDecoder().decode(ClusteringOptions.self, from: Data(old.utf8))
        #expect(options.dayRule.dayStartMinutes == 240)
        #expect(options == ClusteringOptions())
    }

    @Test("--clock-offset moving a photo across the day start moves it in places, the trip line and the unplaced list alike")
    func oneRuleEverywhere() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // A photo at 03:30 local with GPS (in Madrid, at +02:00 in June), and one without GPS
        // a day later at 03:30.
        for (name, date, gps) in [("placed.jpg", "2025:06:10 03:30:00", true), ("unplaced.jpg", "2025:06:12 03:30:00", false)] {
            let photo = trip.appendingPathComponent(name)
            try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
            _ = try XMPSidecarTests.run(XMPSidecarTests.exiftool, ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)",
                                                                  "-OffsetTimeOriginal=+02:00"] + (gps ? [] : ["-GPS:all="]) + [photo.path])
        }
        func days(clockOffset: String?) async throws -> (visit: String?, trip: [String], unplaced: String?) {
            var options = IngestOptions(folder: trip.path)
            options.clockOffsets = clockOffset.map { [$0] } ?? []
            let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
            let catalog = try Catalog.open(at: options.catalogPath, access: .readOnly)
            let unplaced = try catalog.photosOutsideVisits(rule: LocalDayRule()).first { $0.path == "unplaced.jpg" }?.localDate
            return (try catalog.visits().first?.localDate, summary.trip?.days ?? [], unplaced)
        }
        let before = try await days(clockOffset: nil)
        #expect(before.visit == "2025-06-09")
        #expect(before.unplaced == "2025-06-11")
        #expect(before.trip == ["2025-06-09", "2025-06-11"])
        let after = try await days(clockOffset: "+01:00:00")
        #expect(after.visit == "2025-06-10")
        #expect(after.unplaced == "2025-06-12")
        #expect(after.trip == ["2025-06-10", "2025-06-12"])
    }

    @Test("--clock-offset moves the day of photos without a zone too, and one it makes implausible is undated")
    func correctedClockWithoutZone() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // Neither GPS nor an offset tag, and no --tz: nothing gives an instant, so each day is
        // the camera's clock's (the day starts at 04:00). An hour later, 03:30 is the day it
        // shows; 23:30 stays on its day.
        for (name, date) in [("early.jpg", "2025:06:12 03:30:00"), ("late.jpg", "2025:06:14 23:30:00")] {
            let photo = trip.appendingPathComponent(name)
            try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
            _ = try XMPSidecarTests.run(XMPSidecarTests.exiftool, ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)",
                                                                  "-OffsetTime*=", "-GPS:all=", photo.path])
        }
        var options = IngestOptions(folder: trip.path)
        func days(clockOffset: String?) async throws -> (trip: [String], outside: [String: String?], undated: [String]) {
            options.clockOffsets = clockOffset.map { [$0] } ?? []
            let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
            let catalog = try Catalog.open(at: options.catalogPath, access: .readOnly)
            let outside = Dictionary(uniqueKeysWithValues: try catalog.photosOutsideVisits(rule: LocalDayRule()).map { ($0.path, $0.localDate) })
            let undated = try catalog.undatedPhotos(rule: LocalDayRule(), now: Date()).map(\.photo.path).sorted()
            return (summary.trip?.days ?? [], outside, undated)
        }
        let before = try await days(clockOffset: nil)
        #expect(before.trip == ["2025-06-11", "2025-06-14"])
        #expect(before.outside == ["early.jpg": "2025-06-11", "late.jpg": "2025-06-14"])
        #expect(before.undated.isEmpty)
        let after = try await days(clockOffset: "+01:00:00")
        #expect(after.trip == ["2025-06-12", "2025-06-14"])
        #expect(after.outside == ["early.jpg": "2025-06-12", "late.jpg": "2025-06-14"])
        // The journal has a page for the day the corrected clock gives.
        let journal = trip.appendingPathComponent("geotrip/journal")
        #expect(FileManager.default.fileExists(atPath: journal.appendingPathComponent("2025-06-12.md").path))
        #expect(!FileManager.default.fileExists(atPath: journal.appendingPathComponent("2025-06-11.md").path))
        // A correction of a hundred years puts both past any plausible time: no day, and listed
        // on the undated page.
        let far = try await days(clockOffset: "+36525 00:00:00")
        #expect(far.trip.isEmpty)
        #expect(far.undated == ["early.jpg", "late.jpg"])
        // Back to none: the camera's clock again.
        #expect(try await days(clockOffset: "none").trip == ["2025-06-11", "2025-06-14"])
    }

    @Test("a library trip's window of time is wider by the largest clock correction, which moves the days of photos without a zone")
    func windowWidenedByCorrections() {
        let trip = Trip(visits: [], outside: [("a.jpg", "2025-06-10"), ("b.jpg", "2025-06-12")], days: [])
        #expect(ExportStage.window(of: trip) == MomentWindow(start: "2025-06-08", end: "2025-06-15"))
        // Three days and an hour back for one camera: four more days each side; a bad one counts for none.
        let corrections = ["+01:00:00", "Canon EOS=-3 01:00:00", "nonsense"]
        #expect(ExportStage.window(of: trip, clockCorrections: corrections) == MomentWindow(start: "2025-06-04", end: "2025-06-19"))
    }
}
