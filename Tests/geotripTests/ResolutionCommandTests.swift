import Foundation
import GeoTripTestSupport
import Testing

/// Time and location resolution through the built binary: tracks, tags, clock offsets, sidecars.
@Suite("Resolving times and places", .serialized)
struct ResolutionCommandTests {
    func photos(_ trip: URL) throws -> [String: [String: Any]] {
        let run = try CommandRun.geotrip(["photos", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return Dictionary(list.map { ($0["path"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// A GPX file as GPS loggers write it: a creator, metadata, times in Z, a vendor extension.
    static func loggerGPX(points: [(Double, Double, String)]) -> String {
        let trkpts = points.map { lat, lon, time in
            """
                  <trkpt lat="\(lat)" lon="\(lon)"><ele>12.0</ele><time>\(time)</time>
                    <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>92</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>
                  </trkpt>
            """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Garmin eTrex 32x" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <metadata><time>2025-06-10T08:00:00Z</time></metadata>
              <trk><name>Belém walk</name><trkseg>
            \(trkpts)
              </trkseg></trk>
            </gpx>
            """
    }

    @Test("a camera's clock offset under a name no photo has is said, with the cameras there are; the name in any case is taken")
    func clockOffsetForNoCamera() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let typo = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "Fuji XT30=+01:00:00"])
        #expect(typo.status == 0, "\(typo.stderr)")
        let output = typo.stdout + typo.stderr
        #expect(output.contains("--clock-offset \"Fuji XT30=+01:00:00\" corrects no photo"), "\(output)")
        #expect(output.contains("the cameras here: Apple iPhone 13, FUJIFILM X-T30"), "\(output)")
        let right = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "fujifilm x-t30=+01:00:00"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(!(right.stdout + right.stderr).contains("corrects no photo"))
    }

    @Test("a GPX track places the camera's photos, and outranks neighbours but never EXIF")
    func track() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // DSCF1001.JPG was taken at 10:07:15 Lisbon time (09:07:15Z): the log puts the walker
        // 200 m east of the tower then, on a straight line between two fixes a minute apart.
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        try Self.loggerGPX(points: [
            (38.6916, -9.2140, "2025-06-10T09:06:45Z"), (38.6916, -9.2120, "2025-06-10T09:07:45Z"),
            (38.7110, -9.1370, "2025-06-10T09:30:00Z"),
        ]).write(to: gpx, atomically: true, encoding: .utf8)
        let run = try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let all = try photos(trip)
        let fuji = try #require(all["2025-06-10 Lisboa/DSCF1001.JPG"])
        #expect(fuji["locationSource"] as? String == "track")
        #expect(abs((fuji["latitude"] as? Double ?? 0) - 38.6916) < 1e-6)
        #expect(abs((fuji["longitude"] as? Double ?? 0) - -9.2130) < 2e-5)  // halfway, 30 s of 60
        // The phone's own GPS at 09:05Z is not replaced by the track.
        #expect(all["2025-06-10 Lisboa/IMG_0004.JPG"]?["locationSource"] as? String == "exif")

        // The track is remembered: a rerun without --track keeps the track positions.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: trip.appendingPathComponent("2025-06-10 Lisboa/DSCF1001.JPG").path)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        #expect(try photos(trip)["2025-06-10 Lisboa/DSCF1001.JPG"]?["locationSource"] as? String == "track")
    }

    @Test("photos in a track's hours that it cannot place for want of a zone are counted, with --tz as the way out; with it, they are placed")
    func trackWithoutZone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // The camera without GPS or offset tags, alone: its 13:28:15 has no zone to be read in.
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("DSCF1008.JPG"), to: trip.appendingPathComponent("DSCF1008.JPG"))
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        try Self.loggerGPX(points: [(40.4168, -3.7038, "2025-06-13T11:20:00Z"), (40.4170, -3.7030, "2025-06-13T11:40:00Z")])
            .write(to: gpx, atomically: true, encoding: .utf8)
        let run = try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("the track logs cannot place 1 photo that may have been taken in their hours") && run.stdout.contains("give --tz ZONE"), "\(run.stdout)")
        #expect(try photos(trip)["DSCF1008.JPG"]?["locationSource"] as? String == nil)
        // 13:28:15 in Madrid is 11:28:15Z, inside the log: placed, and nothing more to say.
        let zoned = try CommandRun.geotrip(["ingest", trip.path, "--tz", "Europe/Madrid"])
        #expect(zoned.status == 0, "stderr: \(zoned.stderr)")
        #expect(!zoned.stdout.contains("cannot place"), "\(zoned.stdout)")
        #expect(try photos(trip)["DSCF1008.JPG"]?["locationSource"] as? String == "track")
    }

    @Test("an edited track file is read again; --tz does not stop the camera's photos being placed")
    func trackEditsAndAssumedZone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        try Self.loggerGPX(points: [(38.6916, -9.2140, "2025-06-10T09:06:45Z"), (38.6916, -9.2120, "2025-06-10T09:07:45Z")])
            .write(to: gpx, atomically: true, encoding: .utf8)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path, "--tz", "Europe/Lisbon", "-q"]).status == 0)
        let photo = "2025-06-10 Lisboa/DSCF1001.JPG"
        #expect(try photos(trip)[photo]?["locationSource"] as? String == "track")
        #expect(try photos(trip)["DSCF1008.JPG"]?["timeZone"] as? String == "Europe/Madrid")  // placed in Madrid despite --tz
        // The log is corrected on disk: the next run, with no option at all, reads it again.
        try Self.loggerGPX(points: [(38.7000, -9.2140, "2025-06-10T09:06:45Z"), (38.7000, -9.2120, "2025-06-10T09:07:45Z")])
            .write(to: gpx, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: gpx.path)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        #expect(abs((try photos(trip)[photo]?["latitude"] as? Double ?? 0) - 38.7) < 1e-6)
    }

    @Test("a track edited between two visits redraws the route on the map and in the GeoJSON, though no photo moved")
    func trackEditRedrawsRoute() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // Between v4 (left 07:31:22Z) and v7 (arrived 09:05:10Z), far in time from every photo
        // without GPS, so the log places none of them: only the leg between the two visits
        // depends on it.
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        func write(_ middle: (Double, Double)) throws {
            try Self.loggerGPX(points: [(38.7050, -9.1500, "2025-06-10T07:50:00Z"), (middle.0, middle.1, "2025-06-10T08:00:00Z"),
                                        (38.6980, -9.1900, "2025-06-10T08:10:00Z")])
                .write(to: gpx, atomically: true, encoding: .utf8)
        }
        func legPoints() throws -> [[Double]] {
            let data = try Data(contentsOf: trip.appendingPathComponent("geotrip/trip.geojson"))
            let features = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]])
            let leg = try #require(features.first { ($0["properties"] as? [String: Any])?["kind"] as? String == "track" })
            return try #require((leg["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        }
        func map() throws -> String { try String(contentsOf: trip.appendingPathComponent("geotrip/index.html"), encoding: .utf8) }

        try write((38.7300, -9.1700))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path, "-q"]).status == 0)
        let before = try photos(trip)
        #expect(try legPoints().contains([-9.17, 38.73]))
        #expect(try map().contains("38.73,-9.17"))

        // The log is corrected on disk: the detour went further north.
        try write((38.7600, -9.1600))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: gpx.path)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        let after = try photos(trip)
        for (path, photo) in before {
            #expect(photo["latitude"] as? Double == after[path]?["latitude"] as? Double, "\(path) moved")
        }
        #expect(try legPoints().contains([-9.16, 38.76]))
        #expect(try !legPoints().contains([-9.17, 38.73]))
        #expect(try map().contains("38.76,-9.16"))
        #expect(try !map().contains("38.73,-9.17"))
    }

    @Test("a fix at 0,0 and a glitch are dropped, counted by reason in the summary, and the photo at the glitch stays on the walk")
    func droppedTrackPoints() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // A walk due east along 38.6916° N, 0.0002° every 15 s from 09:05:00Z to 09:10:00Z. The
        // fix at 09:06:00Z is 0,0 (no fix yet), and the one at 09:07:15Z, the moment DSCF1001.JPG
        // was taken, is 2,200 km off in Mali.
        var fixes = (0...20).map { k in
            (38.6916, -9.2160 + 0.0002 * Double(k), "2025-06-10T09:\(String(format: "%02d:%02d", 5 + k * 15 / 60, k * 15 % 60))Z")
        }
        fixes[4] = (0, 0, fixes[4].2)
        fixes[9] = (16.77, -3.01, fixes[9].2)
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        try Self.loggerGPX(points: fixes).write(to: gpx, atomically: true, encoding: .utf8)

        let run = try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let resolution = try #require(summary["resolution"] as? [String: Any])
        #expect(resolution["trackPoints"] as? Int == 19)
        #expect(resolution["trackPointsDropped"] as? [String: Int] == ["untimed": 0, "invalid": 0, "nullIsland": 1, "tooFast": 1])

        // 09:07:15Z is 135 s into the walk: 9 steps east, between the fixes on either side of the glitch.
        let fuji = try #require(try photos(trip)["2025-06-10 Lisboa/DSCF1001.JPG"])
        #expect(fuji["locationSource"] as? String == "track")
        #expect(abs((fuji["latitude"] as? Double ?? 0) - 38.6916) < 1e-6)
        #expect(abs((fuji["longitude"] as? Double ?? 0) - -9.2142) < 1e-6)
        #expect((fuji["uncertaintyMeters"] as? Double ?? .infinity) < 30)

        // The text summary says the same in words.
        try FileManager.default.removeItem(at: trip.appendingPathComponent(".geotrip"))
        let text = try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path])
        #expect(text.stdout.contains("(19 track points; 2 dropped: 1 at 0,0, 1 too fast)"), "stdout: \(text.stdout)")
    }

    @Test("--track naming a named pipe or a device is refused at once, with what it is")
    func trackNotAFile() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let pipe = temp.url.appendingPathComponent("live.gpx")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let fromPipe = try CommandRun.geotrip(["ingest", trip.path, "--track", pipe.path])
        #expect(fromPipe.status == 64)
        #expect(fromPipe.stderr.contains("The track file \(pipe.path) cannot be read: it is a named pipe, not a file."), "stderr: \(fromPipe.stderr)")
        let device = try CommandRun.geotrip(["ingest", trip.path, "--track", "/dev/zero"])
        #expect(device.status == 64)
        #expect(device.stderr.contains("The track file /dev/zero cannot be read: it is a device, not a file."), "stderr: \(device.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trip.appendingPathComponent(".geotrip").path))  // nothing was run
    }

    @Test("a remembered track that has become a named pipe is reported, never waited on")
    func rememberedTrackBecomesPipe() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let gpx = temp.url.appendingPathComponent("walk.gpx")
        try Self.loggerGPX(points: [(38.6916, -9.2140, "2025-06-10T09:06:45Z"), (38.6916, -9.2120, "2025-06-10T09:07:45Z")])
            .write(to: gpx, atomically: true, encoding: .utf8)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--track", gpx.path, "-q"]).status == 0)

        try FileManager.default.removeItem(at: gpx)
        // Gone: said with the way out, which keeps every other log the trip remembers.
        let gone = try CommandRun.geotrip(["ingest", trip.path])
        #expect(gone.stdout.contains("The trip remembers its --track logs: give them all again with --track, this one at its new path, "
                                     + "or --track none to forget them all."), "stdout: \(gone.stdout)")
        try #require(mkfifo(gpx.path, 0o600) == 0)
        // A writer waits on the pipe with a whole GPX, so that no way of reading it can hang the
        // test: whatever opens the pipe meets the writer and could read a track and an end of file.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", #"printf '%s' "$0" > "$1""#,
                            Self.loggerGPX(points: [(1, 1, "2025-06-10T09:07:00Z")]), gpx.path]
        try writer.run()
        defer {
            // SIGKILL, not terminate(): Foundation's Process hands its children the test
            // runner's blocked signal mask, so a SIGTERM would wait forever.
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
        }
        let rerun = try CommandRun.geotrip(["ingest", trip.path])
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stdout.contains("The track file \(gpx.path) cannot be read: it is a named pipe, not a file."), "stdout: \(rerun.stdout)")
        #expect(!rerun.stdout.contains("The trip remembers its --track logs"), "advice for a log that is gone, not for one that is there")
        #expect(try photos(trip)["2025-06-10 Lisboa/DSCF1001.JPG"]?["locationSource"] as? String != "track")
    }

    @Test("with nothing to count, the summary says none rather than leaving the list empty")
    func summaryWithoutPositions() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // A Fuji photo with no date and no GPS: nothing can place it in time or on the map.
        let folder = temp.url.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("2025-06-11 Sintra/DSCF1004.JPG"),
                                         to: folder.appendingPathComponent("DSCF1004.JPG"))
        let run = try CommandRun.geotrip(["ingest", folder.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("  times: 1 none; positions: none\n"), "stdout: \(run.stdout)")
        #expect(!run.stdout.contains("track points"))
    }

    @Test("southern latitudes and negative offsets can be typed as option values")
    func negativeValues() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--tz", "-03:00", "--clock-offset", "-00:10:00", "-q"]).status == 0)
        let tagged = try CommandRun.geotrip(["tag", trip.path, "IMG_0032.JPG", "--at", "-33.9,18.4"])
        #expect(tagged.status == 0, "stderr: \(tagged.stderr)")
        #expect(try photos(trip)["IMG_0032.JPG"]?["latitude"] as? Double == -33.9)
    }

    @Test("manual tags by place name and by coordinates survive reruns; ambiguity is shown, not guessed")
    func manualTags() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let undated = "2025-06-11 Sintra/DSCF1004.JPG"  // no date, no GPS: nothing else can place it
        #expect(try photos(trip)[undated]?["locationSource"] is NSNull)

        // Pasted with its line break: the name is the same.
        let byName = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Sintra, PT\n"])
        #expect(byName.status == 0, "stderr: \(byName.stderr)")
        #expect(byName.stdout.contains("Sintra, Lisboa, Portugal (PT)"))
        var photo = try #require(try photos(trip)[undated])
        #expect(photo["locationSource"] as? String == "manual")
        #expect(abs((photo["latitude"] as? Double ?? 0) - 38.80097) < 1e-4)

        let ambiguous = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Santiago"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("names several places") && ambiguous.stderr.contains("Chile"), "stderr: \(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("such as \"Santiago, "), "stderr: \(ambiguous.stderr)")
        // Two towns labelled alike (both Lisbon, Ohio): told apart by where they are (GeoNames:
        // 39.86, -83.64 and 40.77, -80.77).
        let alike = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Lisbon, Ohio"])
        #expect(alike.status == 1 && alike.stderr.contains("(US) at 39.86") && alike.stderr.contains("(US) at 40.77"), "stderr: \(alike.stderr)")
        // No name tells them apart: the advice is the position, not a region.
        #expect(alike.stderr.contains("No name tells them apart: tag with --at") && !alike.stderr.contains("Add a region"), "stderr: \(alike.stderr)")
        // Places all in one country: the example names a region, and tags when followed.
        let oneCountry = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Springfield"])
        let example = try #require(oneCountry.stderr.range(of: ", such as \"").map { oneCountry.stderr[$0.upperBound...] }
            .flatMap { $0.split(separator: "\"").first.map(String.init) }, "\(oneCountry.stderr)")
        #expect(!example.hasSuffix(", US"), "\(oneCountry.stderr)")
        let followed = try CommandRun.geotrip(["tag", trip.path, undated, "--place", example])
        #expect(followed.status == 0 && followed.stdout.contains("Springfield, "), "\(example): \(followed.stderr)")
        // A place copied from the list, as it is written there, tags too.
        let listed = try #require(oneCountry.stderr.range(of: "names several places: ").map { oneCountry.stderr[$0.upperBound...] }
            .flatMap { $0.split(separator: ";").first.map(String.init) }, "\(oneCountry.stderr)")
        let copied = try CommandRun.geotrip(["tag", trip.path, undated, "--place", listed])
        #expect(copied.status == 0 && copied.stdout.contains(listed), "\(listed): \(copied.stderr)")
        // A name some places have as another name: the examples name the first place by its
        // own name and one of those called so, and each tags that place when followed; stray
        // commas stay out of them. "Roma" is first Rome, then Roma in Lesotho.
        func examples(_ stderr: String) -> [String] {
            guard let start = stderr.range(of: ", such as \""), let end = stderr.range(of: "\", or tag with") else { return [] }
            return stderr[start.upperBound..<end.lowerBound].components(separatedBy: "\" or \"")
        }
        for (query, expected) in [("Franklin", ["Columbus, ", "Franklin, "]), (",Franklin,", ["Columbus, ", "Franklin, "]),
                                  ("Roma", ["Rome, Lazio", "Roma, "])] {
            let other = try CommandRun.geotrip(["tag", trip.path, undated, "--place", query])
            let suggested = examples(other.stderr)
            #expect(suggested.count == 2 && zip(suggested, expected).allSatisfy { $0.hasPrefix($1) }, "\(other.stderr)")
            for example in suggested {
                let tagged = try CommandRun.geotrip(["tag", trip.path, undated, "--place", example])
                let town = String(example.prefix { $0 != "," })
                #expect(tagged.status == 0 && tagged.stdout.contains(town), "\(example): \(tagged.stdout) \(tagged.stderr)")
            }
        }
        #expect(try photos(trip)[undated]?["locationSource"] as? String == "manual")  // unchanged
        // A name found with a region geotrip does not know: how to write the region, as `find` says.
        let region = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Москва, Россия"])
        #expect(region.status == 1 && region.stderr.contains("\"Москва\" is found, but not in \"Россия\"")
                && region.stderr.contains("\"Москва, RU\" or \"Москва, Russia\"") && region.stderr.contains("--at LAT,LON"), "\(region.stderr)")
        // The start of a name is no place for tag --place: no region advice for it.
        let partial = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Sintr, Portugal"])
        #expect(partial.status == 1 && partial.stderr.contains("Check the spelling") && !partial.stderr.contains("is found, but"), "\(partial.stderr)")
        // Stray commas say nothing.
        let stray = try CommandRun.geotrip(["tag", trip.path, undated, "--place", ",Sintra,, PT, "])
        #expect(stray.status == 0 && stray.stdout.contains("Sintra, Lisboa, Portugal (PT)"), "\(stray.stderr)")

        // By coordinates, over a photo that has EXIF: the tag outranks it.
        let byCoordinates = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--at", "40.4138,-3.6921"])
        #expect(byCoordinates.status == 0)
        // Reruns, with the tagged files changed, keep both tags.
        for path in [undated, "IMG_0031.JPG"] {
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: trip.appendingPathComponent(path).path)
        }
        let rerun = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        #expect(rerun.stdout.contains("\"changed\" : 2"))
        photo = try #require(try photos(trip)["IMG_0031.JPG"])
        #expect(photo["locationSource"] as? String == "manual")
        #expect(photo["latitude"] as? Double == 40.4138)
        #expect(try photos(trip)[undated]?["locationSource"] as? String == "manual")

        // --clear gives the EXIF position back.
        let cleared = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--clear"])
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("Cleared the manual position of 1 photo."), "\(cleared.stdout)")
        #expect(try photos(trip)["IMG_0031.JPG"]?["locationSource"] as? String == "exif")
        // Again: nothing was there to clear, and it says so.
        let again = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--clear"])
        #expect(again.status == 0 && again.stdout.hasPrefix("This photo has no manual position: nothing to clear."), "\(again.stdout)")

        // 0,0 is "no fix" wherever it is read: not a position a tag can give.
        let nullIsland = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--at", "0,0"])
        #expect(nullIsland.status == 64 && nullIsland.stderr.contains("0,0 is what devices write"), "\(nullIsland.stderr)")
        #expect(try photos(trip)["IMG_0031.JPG"]?["locationSource"] as? String == "exif")

        // The sample's truncated photo is in the folder but could not be read: said so, not "not in the catalog".
        let unreadable = try CommandRun.geotrip(["tag", trip.path, "IMG_0099.JPG", "--at", "1,2"])
        #expect(unreadable.status == 1 && unreadable.stderr.contains("IMG_0099.JPG could not be read as a photo"), "\(unreadable.stderr)")

        let unknown = try CommandRun.geotrip(["tag", trip.path, "nope.jpg", "--at", "1,2"])
        #expect(unknown.status == 1 && unknown.stderr.contains("nope.jpg"))
    }

    @Test("a photo with only a GPS time, placed between its neighbours, takes their place's zone and day",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func gpsTimeOnlyPlaced() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("Kiritimati")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // Kiritimati (UTC+14): photos at 10:00 and 10:20 on 2 March, and one between them with
        // no camera time and no position, only its GPS time (1 March 20:10Z: 10:10 there).
        for (name, time) in [("A.JPG", "10:00:00"), ("C.JPG", "10:20:00")] {
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent(name), [
                "-DateTimeOriginal=2025:03:02 \(time)", "-OffsetTimeOriginal=+14:00",
                "-GPSLatitude=1.8721", "-GPSLatitudeRef=N", "-GPSLongitude=157.4278", "-GPSLongitudeRef=W"]))
        }
        #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent("B.JPG"), ["-GPSDateStamp=2025:03:01", "-GPSTimeStamp=20:10:00"]))
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status == 0, "\(run.stderr)")
        let between = try #require(try photos(trip)["B.JPG"])
        #expect(between["timeSource"] as? String == "gps" && between["locationSource"] as? String == "interpolated")
        #expect(between["timeZone"] as? String == "Pacific/Kiritimati", "\(between)")
        let visits = try #require(try JSONSerialization.jsonObject(with: Data(try CommandRun.geotrip(["places", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(visits.first { ($0["photos"] as? [String])?.contains("B.JPG") == true }?["localDate"] as? String == "2025-03-02")
    }

    @Test("a GPS camera whose clock stayed on another zone's time is said, with the --clock-offset that puts it right; given, its GPS times are used",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func cameraOnAnotherZone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("Tokyo")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // A day in Tokyo (UTC+09:00). The phone writes its offset; the Nikon's clock shows Paris
        // summer time (UTC+02:00) and writes no offset, but its GPS time is the true UTC.
        let spots = [(35.6586, 139.7454), (35.7148, 139.7967), (35.6764, 139.6993), (35.6595, 139.7005)]
        for (index, spot) in spots.enumerated() {
            let utcHour = index * 3, position = ["-GPSLatitude=\(spot.0)", "-GPSLatitudeRef=N", "-GPSLongitude=\(spot.1)", "-GPSLongitudeRef=E"]
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent("DSC_000\(index).JPG"), [
                "-Make=NIKON CORPORATION", "-Model=NIKON Z 6", "-DateTimeOriginal=2025:07:10 \(ASCIIText.two(utcHour + 2)):05:00",
                "-GPSDateStamp=2025:07:10", "-GPSTimeStamp=\(ASCIIText.two(utcHour)):05:00"] + position))
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent("IMG_000\(index).JPG"), [
                "-Make=Apple", "-Model=iPhone 15", "-DateTimeOriginal=2025:07:10 \(ASCIIText.two(utcHour + 9)):10:00", "-OffsetTimeOriginal=+09:00"]
                + position))
        }
        let first = try CommandRun.geotrip(["ingest", trip.path])
        #expect(first.status == 0, "\(first.stderr)")
        let advice = "--clock-offset \"NIKON CORPORATION NIKON Z 6=+07:00:00\""
        #expect(first.stdout.contains("the GPS times of 4 photos of NIKON CORPORATION NIKON Z 6 put its clock at UTC+02:00, while the places' clocks showed UTC+09:00")
                && first.stdout.contains(advice), "\(first.stdout)")
        // A correction given already is part of the one advised (a camera's own replaces it).
        let partly = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "NIKON CORPORATION NIKON Z 6=+01:00:00"])
        #expect(partly.stdout.contains("put its clock at UTC+03:00") && partly.stdout.contains(advice), "\(partly.stdout)")
        // As the advice says: each Nikon photo at its GPS time (exiftool wrote it), on Tokyo's clock.
        let fixed = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "NIKON CORPORATION NIKON Z 6=+07:00:00"])
        #expect(fixed.status == 0 && !fixed.stdout.contains("put its clock at"), "\(fixed.stdout)")
        let listed = try photos(trip)
        for index in spots.indices {
            let photo = try #require(listed["DSC_000\(index).JPG"])
            #expect(photo["utcTime"] as? String == "2025-07-10T\(ASCIIText.two(index * 3)):05:00Z" && photo["timeSource"] as? String == "gps", "\(photo)")
        }
    }

    @Test("a camera whose GPS times agreed at home is not said to be on another zone's time when a trip's photos are added; a fresh ingest says the same",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func cameraNoteLooksAtEveryPhoto() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: trip.appendingPathComponent("Paris"), withIntermediateDirectories: true)
        // In Paris in June the clock (UTC+02:00) and the GPS times agree; a month later in
        // Tokyo the clock still shows Paris time: fixes hours old, or a clock not set, alike.
        func nikon(_ name: String, clock: String, gps: String, at spot: (Double, Double)) throws {
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent(name), [
                "-Make=NIKON CORPORATION", "-Model=NIKON Z 6", "-DateTimeOriginal=\(clock)", "-GPSDateStamp=\(clock.prefix(10))", "-GPSTimeStamp=\(gps)",
                "-GPSLatitude=\(spot.0)", "-GPSLatitudeRef=N", "-GPSLongitude=\(spot.1)", "-GPSLongitudeRef=E"]))
        }
        for hour in [10, 13, 16] {
            try nikon("Paris/P\(hour).JPG", clock: "2025:06:10 \(hour):00:00", gps: "\(hour - 2):00:00", at: (48.8584, 2.2945))
        }
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        try FileManager.default.createDirectory(at: trip.appendingPathComponent("Tokyo"), withIntermediateDirectories: true)
        for hour in [2, 5, 8] {
            try nikon("Tokyo/T\(hour).JPG", clock: "2025:07:10 0\(hour):05:00", gps: "0\(hour - 2):05:00", at: (35.6586, 139.7454))
        }
        let added = try CommandRun.geotrip(["ingest", trip.path])
        #expect(added.status == 0 && !added.stdout.contains("put its clock at"), "\(added.stdout)")
        let fresh = temp.url.appendingPathComponent("fresh.sqlite")
        let whole = try CommandRun.geotrip(["ingest", trip.path, "--catalog", fresh.path, "--out", temp.url.appendingPathComponent("out").path])
        #expect(whole.status == 0 && !whole.stdout.contains("put its clock at"), "\(whole.stdout)")
    }

    @Test("--clock-offset for one camera moves that camera's times only")
    func clockOffset() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let before = try photos(trip)
        let fixed = try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--clock-offset", "Apple iPhone 13=-00:02:00"])
        #expect(fixed.status == 0, "stderr: \(fixed.stderr)")
        let after = try photos(trip)
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func instant(_ photo: [String: Any]?) -> Date? {
            (photo?["utcTime"] as? String).flatMap { format.date(from: $0.contains(".") ? $0 : $0.replacingOccurrences(of: "Z", with: ".000Z")) }
        }
        let phoneBefore = try #require(instant(before["IMG_0031.JPG"])), phoneAfter = try #require(instant(after["IMG_0031.JPG"]))
        #expect(phoneAfter.timeIntervalSince(phoneBefore) == -120)
        #expect(after["IMG_0031.JPG"]?["localTime"] as? String == before["IMG_0031.JPG"]?["localTime"] as? String)  // the original is untouched
        let bad = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "+1h"])
        #expect(bad.status == 64 && bad.stderr.contains("is not a clock offset"))
        // none forgets the remembered offsets, given alone.
        let mixed = try CommandRun.geotrip(["ingest", trip.path, "--clock-offset", "none", "--clock-offset", "+00:01:00"])
        #expect(mixed.status == 64 && mixed.stderr.contains("give it alone"), "\(mixed.stderr)")
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--clock-offset", "none", "--tz", "none"]).status == 0)
        let forgotten = try photos(trip)
        #expect(instant(forgotten["IMG_0031.JPG"]) == phoneBefore)
    }

    @Test("--write-xmp writes sidecars exiftool reads, for inferred positions only",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func sidecars() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let original = try Data(contentsOf: trip.appendingPathComponent("DSCF1008.JPG"))
        let run = try CommandRun.geotrip(["ingest", trip.path, "--write-xmp", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sidecar = trip.appendingPathComponent("DSCF1008.JPG.xmp")
        #expect(FileManager.default.fileExists(atPath: sidecar.path))
        #expect(!FileManager.default.fileExists(atPath: trip.appendingPathComponent("IMG_0031.JPG.xmp").path))  // EXIF: no sidecar
        #expect(try Data(contentsOf: trip.appendingPathComponent("DSCF1008.JPG")) == original)  // the photo is untouched

        let exiftool = Process()
        exiftool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        exiftool.arguments = ["-n", "-json", "-GPSLatitude", "-GPSLongitude", sidecar.path]
        let pipe = Pipe()
        exiftool.standardOutput = pipe
        try exiftool.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        exiftool.waitUntilExit()
        let read = try #require((try JSONSerialization.jsonObject(with: output) as? [[String: Any]])?.first)
        let photo = try #require(try photos(trip)["DSCF1008.JPG"])
        #expect(abs((read["GPSLatitude"] as? Double ?? 0) - (photo["latitude"] as? Double ?? 1)) < 1e-6)
        #expect(abs((read["GPSLongitude"] as? Double ?? 0) - (photo["longitude"] as? Double ?? 1)) < 1e-6)

        // Remembered: a tag made later updates the sidecar; a renamed photo takes its sidecar along.
        #expect(try CommandRun.geotrip(["tag", trip.path, "DSCF1008.JPG", "--at", "10,20"]).status == 0)
        #expect(try String(contentsOf: sidecar, encoding: .utf8).contains("manual"))
        try FileManager.default.moveItem(at: trip.appendingPathComponent("DSCF1008.JPG"), to: trip.appendingPathComponent("renamed.JPG"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sidecar.path))
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent("renamed.JPG.xmp").path))
        // Sidecars are not catalogued as files of the trip.
        let rerun = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        #expect(rerun.stdout.contains("\"new\" : 0"))

        // Turned off: no sidecar is made any more, but geotrip's own are kept in step with the
        // positions (a tag made later moves the one it has), never left saying the old one.
        let kept = trip.appendingPathComponent("renamed.JPG.xmp"), dropped = trip.appendingPathComponent("DSCF1009.JPG.xmp")
        #expect(FileManager.default.fileExists(atPath: dropped.path))
        try FileManager.default.removeItem(at: dropped)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q", "--no-write-xmp"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dropped.path), "no sidecar is made with --no-write-xmp")
        let before = try String(contentsOf: kept, encoding: .utf8)
        #expect(try CommandRun.geotrip(["tag", trip.path, "renamed.JPG", "--at", "30,40"]).status == 0)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        let after = try String(contentsOf: kept, encoding: .utf8)
        #expect(after != before && after.contains("manual"))
        #expect(!FileManager.default.fileExists(atPath: dropped.path))
    }

    @Test("a photo across the river from a town of another zone gets its polygon's zone; without the index, the stated fallback",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func borderZone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // Hekou, China (Asia/Shanghai, UTC+8), across the Red River from Lào Cai, Vietnam
        // (Asia/Bangkok, UTC+7), which is the nearest town. exiftool writes the position and a
        // camera time with no offset tag and no GPS time, so the zone of the position decides.
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        let photo = trip.appendingPathComponent("hekou.jpg")
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
        let exiftool = Process()
        exiftool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        exiftool.arguments = ["-q", "-overwrite_original", "-all=", "-DateTimeOriginal=2026:03:10 12:00:00",
                              "-GPSLatitude=22.55", "-GPSLatitudeRef=N", "-GPSLongitude=103.95", "-GPSLongitudeRef=E", photo.path]
        try exiftool.run()
        exiftool.waitUntilExit()
        #expect(exiftool.terminationStatus == 0)

        let run = try CommandRun.geotrip(["ingest", trip.path, "--quiet"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let placed = try #require(try photos(trip)["hekou.jpg"])
        #expect(placed["timeZone"] as? String == "Asia/Shanghai")
        #expect(placed["timeSource"] as? String == "location")
        #expect(placed["utcTime"] as? String == "2026-03-10T04:00:00Z")

        // Without the index (GEOTRIP_ZONES names no file) the run says so and takes the nearest
        // town's zone, an hour off here.
        let catalog = temp.url.appendingPathComponent("fallback.sqlite").path
        let fallback = try CommandRun.run(TestPaths.binary, ["ingest", trip.path, "--catalog", catalog, "--out", catalog + ".out", "--json"],
                                              environment: ["GEOTRIP_ZONES": temp.url.appendingPathComponent("none.bin").path])
        #expect(fallback.status == 0, "stderr: \(fallback.stderr)")
        #expect(fallback.stdout.contains("time zones come from the nearest town"))
        let listed = try CommandRun.geotrip(["photos", trip.path, "--catalog", catalog, "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(list.first?["timeZone"] as? String == "Asia/Bangkok")
        #expect(list.first?["utcTime"] as? String == "2026-03-10T05:00:00Z")
        let fallbackPlaces = try CommandRun.geotrip(["places", trip.path, "--catalog", catalog, "--json"]).stdout
        #expect(fallbackPlaces.contains("\"countryCode\" : \"VN\""), "\(fallbackPlaces)")

        // With the index back, the same catalog is resolved and named again though no photo
        // changed: the new zone, and the town on China's side of the river.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--catalog", catalog, "--quiet"]).status == 0)
        let again = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--catalog", catalog, "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(again.first?["timeZone"] as? String == "Asia/Shanghai")
        #expect(again.first?["utcTime"] as? String == "2026-03-10T04:00:00Z")
        let places = try CommandRun.geotrip(["places", trip.path, "--catalog", catalog, "--json"]).stdout
        #expect(places.contains("\"countryCode\" : \"CN\"") && !places.contains("\"VN\""), "\(places)")
    }
}

/// Two-digit numbers for the times the tests write.
enum ASCIIText {
    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
