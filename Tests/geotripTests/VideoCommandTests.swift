import Foundation
import GeoTripTestSupport
import Testing

/// A phone's folder of photos, videos and a Live Photo through the built binary: the videos are
/// listed, placed, timed and clustered, and the Live Photo's video stays with its still.
@Suite("Videos in a trip", .serialized)
struct VideoCommandTests {
    static let videos = TestPaths.fixtures.appendingPathComponent("videos")

    /// The sample trip with the video fixtures dropped in as a phone and a camera leave them.
    static func phoneFolder(in temp: TemporaryFolder) throws -> URL {
        let trip = try temp.copySampleImages()
        for (fixture, name) in [("video-iphone.mov", "IMG_0100.MOV"), ("video-android.mp4", "2025-06-10 Lisboa/VID_20250610_110500.mp4"),
                                ("video-camera-local.mp4", "2025-06-10 Lisboa/MVI_0001.MP4"), ("video-loci.3gp", "2025-06-11 Sintra/VID_0002.3gp")] {
            try FileManager.default.copyItem(at: videos.appendingPathComponent(fixture), to: trip.appendingPathComponent(name))
        }
        return trip
    }

    static func json(_ run: CommandRun) throws -> Any {
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// exiftool's record of a fixture's duration.
    static func duration(_ fixture: String) throws -> Double {
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: videos.appendingPathComponent("exiftool.json"))) as? [[String: Any]])
        return try #require(records.first { $0["SourceFile"] as? String == fixture }?["QuickTime:Duration"] as? Double)
    }

    @Test("videos are listed, placed, timed and clustered; the Live Photo's video stays with its still")
    func phoneTrip() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.phoneFolder(in: temp)
        let ingest = try CommandRun.geotrip(["ingest", trip.path])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        // Four videos, one of them a Live Photo's: photos and videos add up to those with and
        // without GPS.
        let counts = try #require(ingest.stdout.split(separator: "\n").first { $0.contains(" videos (1 of a Live Photo): ") })
        let numbers = counts.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.count >= 5 && numbers[1] == 4 && numbers[0] + numbers[1] == numbers[3] + numbers[4], "\(counts)")

        let list = try #require(try Self.json(CommandRun.geotrip(["photos", trip.path, "--json"])) as? [[String: Any]])
        let photos = Dictionary(list.map { ($0["path"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        for (path, fixture) in [("IMG_0100.MOV", "video-iphone.mov"), ("2025-06-10 Lisboa/VID_20250610_110500.mp4", "video-android.mp4"),
                                ("2025-06-10 Lisboa/MVI_0001.MP4", "video-camera-local.mp4"), ("2025-06-11 Sintra/VID_0002.3gp", "video-loci.3gp")] {
            let video = try #require(photos[path], "\(path) is not listed")
            #expect(video["format"] as? String == "video")
            #expect(video["durationSeconds"] as? Double == (try Self.duration(fixture)))
            #expect(video["latitude"] as? Double != nil, "\(path) has no position")
            #expect(video["utcTime"] as? String != nil, "\(path) has no time")
        }
        // Apple's creation date with its offset.
        let iphone = try #require(photos["IMG_0100.MOV"])
        #expect(iphone["timeField"] as? String == "QuickTime:CreationDate")
        #expect(iphone["utcTime"] as? String == "2025-06-13T11:45:30Z")
        #expect(iphone["locationSource"] as? String == "quicktime")
        #expect(iphone["livePhotoStill"] as? String == "IMG_0100.HEIC")
        // The phone's mvhd is UTC, as the specification says.
        let android = try #require(photos["2025-06-10 Lisboa/VID_20250610_110500.mp4"])
        #expect(android["timeField"] as? String == "QuickTime:CreateDate")
        #expect(android["timeSource"] as? String == "mvhd-utc")
        #expect(android["utcTime"] as? String == "2025-06-10T10:05:00Z")
        #expect(android["timeZone"] as? String == "Europe/Lisbon")
        // Its mvhd recorded no wall clock: it is listed on Lisbon's, as the photos beside it.
        #expect(android["localTime"] as? String == "2025-06-10T11:05:00")
        // The camera's mvhd is its Lisbon wall clock: 08:20 there is 07:20Z, among the morning's
        // photos (read as UTC it would fall in a gap an hour later); placed between them.
        let camera = try #require(photos["2025-06-10 Lisboa/MVI_0001.MP4"])
        #expect(camera["timeSource"] as? String != "mvhd-utc")
        #expect(camera["utcTime"] as? String == "2025-06-10T07:20:00Z")
        #expect(camera["locationSource"] as? String == "interpolated")
        // Read as UTC first (before its camera's verdict), it had no position and no zone; that
        // reading is not what the run says of it.
        #expect(!ingest.stdout.contains("MVI_0001.MP4: its movie header gives the time in UTC"), "\(ingest.stdout)")
        #expect((camera["diagnostics"] as? [Any])?.isEmpty == true, "\(camera)")

        let visits = try #require(try Self.json(CommandRun.geotrip(["places", trip.path, "--json"])) as? [[String: Any]])
        func visit(of path: String) -> [String: Any]? { visits.first { ($0["photos"] as? [String])?.contains(path) == true } }
        // The text says each visit's videos apart from its photos, as the journal does.
        let text = try CommandRun.geotrip(["places", trip.path]).stdout
        let clipVisit = try #require(visit(of: "2025-06-10 Lisboa/VID_20250610_110500.mp4"))
        let stills = (clipVisit["photoCount"] as? Int ?? 0) - 1
        #expect(text.contains("(\(stills) photo\(stills == 1 ? "" : "s"), 1 video, \(clipVisit["id"] as? String ?? "?"), "), "\(text)")
        // Each video joins the visit of the photos taken there and then.
        #expect(visit(of: "2025-06-10 Lisboa/VID_20250610_110500.mp4")?["id"] as? String == visit(of: "2025-06-10 Lisboa/IMG_0010.JPG")?["id"] as? String)
        #expect(visit(of: "2025-06-10 Lisboa/MVI_0001.MP4")?["id"] as? String == visit(of: "2025-06-10 Lisboa/IMG_0003.JPG")?["id"] as? String)
        #expect(visit(of: "2025-06-11 Sintra/VID_0002.3gp")?["id"] as? String == visit(of: "2025-06-11 Sintra/IMG_0018.JPG")?["id"] as? String)
        // The Live Photo is one moment: its still is in a visit, its video in none, and the
        // visit counts one photo for the pair.
        let still = try #require(visit(of: "IMG_0100.HEIC"))
        #expect(visit(of: "IMG_0100.MOV") == nil)
        #expect(still["photoCount"] as? Int == (still["photos"] as? [String])?.count)
        #expect(visits.allSatisfy { ($0["photos"] as? [String])?.contains("IMG_0100.MOV") == false })
    }

    @Test("a video read as UTC that nothing places takes the trip's --tz; without one its day is reckoned in UTC, and that is said")
    func videoWithoutZone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // A phone clip whose mvhd says 2024-03-10 15:45:00 (UTC) and whose only position, 0,0, is refused.
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.videos.appendingPathComponent("video-null-island.mp4"), to: trip.appendingPathComponent("VID_1.mp4"))
        func clip() throws -> [String: Any] {
            try #require((try Self.json(CommandRun.geotrip(["photos", trip.path, "--json"])) as? [[String: Any]])?.first)
        }
        let plain = try Self.json(CommandRun.geotrip(["ingest", trip.path, "--json"])) as? [String: Any]
        let said = (plain?["diagnostics"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "zone-unknown" }
        #expect(said.count == 1 && (said.first?["message"] as? String)?.contains("its day is reckoned from its UTC time, 2024-03-10 15:45 UTC") == true, "\(said)")
        #expect(try clip()["timeSource"] as? String == "mvhd-utc" && clip()["timeZone"] as? String == nil)
        // Kiritimati is UTC+14: the clip was filmed at 05:45 on the 11th there.
        let zoned = try Self.json(CommandRun.geotrip(["ingest", trip.path, "--tz", "Pacific/Kiritimati", "--json"])) as? [String: Any]
        #expect((zoned?["diagnostics"] as? [[String: Any]] ?? []).allSatisfy { $0["kind"] as? String != "zone-unknown" })
        let video = try clip()
        #expect(video["timeZone"] as? String == "Pacific/Kiritimati" && video["utcTime"] as? String == "2024-03-10T15:45:00Z")
        #expect(video["localTime"] as? String == "2024-03-11T05:45:00")
        let pages = try FileManager.default.contentsOfDirectory(atPath: trip.appendingPathComponent("geotrip/journal").path)
        #expect(pages.contains("2024-03-11.md") && !pages.contains("2024-03-10.md"), "\(pages)")
    }

    /// A length as the journal and the map print it, from exiftool's seconds: `m:ss`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + String(whole % 60)
    }

    @Test("the journal and trip.geojson show each video with its length, and the Live Photo with its still")
    func exports() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.phoneFolder(in: temp)
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--photos", "--no-thumbnails"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        let output = trip.appendingPathComponent("geotrip")
        let lisbon = try String(contentsOf: output.appendingPathComponent("journal/2025-06-10.md"), encoding: .utf8)
        let android = try Self.clock(Self.duration("video-android.mp4"))
        #expect(lisbon.contains("[VID\\_20250610\\_110500.mp4](../../2025-06-10%20Lisboa/VID_20250610_110500.mp4) (video, \(android))"),
                "\(lisbon)")
        #expect(lisbon.contains(", 1 video · "), "a visit's count names its video apart")
        let tokyo = try String(contentsOf: output.appendingPathComponent("journal/2025-06-13.md"), encoding: .utf8)
        #expect(tokyo.contains("](../../IMG_0100.HEIC) · [Live Photo](../../IMG_0100.MOV)"), "\(tokyo)")
        #expect(tokyo.components(separatedBy: "IMG_0100.MOV").count == 2, "the Live Photo's video is not a photo of its own")

        let geojson = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("trip.geojson"))) as? [String: Any])
        let points = (geojson["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }.filter { $0["path"] != nil }
        let videos = points.filter { $0["kind"] as? String == "video" }
        #expect(Set(videos.compactMap { $0["path"] as? String }) == ["2025-06-10 Lisboa/VID_20250610_110500.mp4", "2025-06-10 Lisboa/MVI_0001.MP4",
                                                                     "2025-06-11 Sintra/VID_0002.3gp"])
        for video in videos {
            let fixture = ["VID_20250610_110500.mp4": "video-android.mp4", "MVI_0001.MP4": "video-camera-local.mp4", "VID_0002.3gp": "video-loci.3gp"]
            let name = try #require(((video["path"] as? String) as NSString?)?.lastPathComponent)
            #expect(video["durationSeconds"] as? Double == (try Self.duration(try #require(fixture[name]))))
        }
        #expect(points.first { $0["path"] as? String == "IMG_0100.HEIC" }?["livePhotoVideo"] as? String == "IMG_0100.MOV")
        #expect(!points.contains { $0["path"] as? String == "IMG_0100.MOV" })
    }

    @Test("the Live Photo link follows the files: a renamed still leaves a video of its own, listed with its length")
    func rereadAndRelink() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.phoneFolder(in: temp)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        // The still renamed: the video is a video of its own now.
        try FileManager.default.moveItem(at: trip.appendingPathComponent("IMG_0100.HEIC"), to: trip.appendingPathComponent("IMG_0100-edited.HEIC"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let list = try #require(try Self.json(CommandRun.geotrip(["photos", trip.path, "--json"])) as? [[String: Any]])
        let video = try #require(list.first { $0["path"] as? String == "IMG_0100.MOV" })
        #expect(video["livePhotoStill"] is NSNull)
        let text = try CommandRun.geotrip(["photos", trip.path])
        #expect(text.stdout.contains("IMG_0100.MOV  (video, 1.4 s)"), "\(text.stdout)")
    }
}
