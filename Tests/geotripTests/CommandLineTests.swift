import Foundation
import GRDB
import GeoTripTestSupport
import Testing

/// The built `geotrip` binary, end to end, on a copy of the sample trip.
@Suite("geotrip command line", .serialized)
struct CommandLineTests {
    @Test("ingest --json prints one summary object with every documented field")
    func ingestJSON() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        for key in ["scanned", "new", "changed", "unchanged", "removed", "moved", "withGPS", "withoutGPS", "skipped", "errors"] {
            #expect(object[key] is NSNumber, "\(key) missing")
            // An integer in the JSON text itself, not 3.0.
            #expect(run.stdout.range(of: "\"\(key)\" : [0-9]+[,\n]", options: .regularExpression) != nil, "\(key) should be an integer")
        }
        #expect(object["seconds"] is NSNumber)
        #expect(object["new"] as? Int == object["scanned"] as? Int)
        #expect(object["errors"] as? Int == 1)
        // Diagnostics counted by kind, problems first: the truncated IMG_0099.JPG.
        let kinds = try #require(object["diagnosticKinds"] as? [[String: Any]])
        #expect(kinds.first?["kind"] as? String == "damaged")
        #expect(kinds.first?["severity"] as? String == "problem")
        #expect(kinds.first?["count"] as? Int == 1)
        #expect(kinds.first?["examples"] as? [String] == ["IMG_0099.JPG"])
        // stderr is not a terminal here: no progress animation, nothing at all.
        #expect(run.stderr.isEmpty, "stderr: \(run.stderr)")
    }

    @Test("a photo taken away and put back is counted as back, with its tag kept; a new one is not")
    func photoPutBack() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        #expect(try CommandRun.geotrip(["tag", trip.path, "IMG_0033.JPG", "--at", "38.7,-9.1"]).status == 0)
        let photo = trip.appendingPathComponent("IMG_0033.JPG"), aside = temp.url.appendingPathComponent("IMG_0033.JPG")
        try FileManager.default.moveItem(at: photo, to: aside)
        #expect(try CommandRun.geotrip(["ingest", trip.path]).stdout.contains("  0 new, 0 changed, 57 unchanged, 0 moved, 1 removed"))
        try FileManager.default.moveItem(at: aside, to: photo)
        // A copy of another photo under a new name is new.
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent("copy.jpg"))
        let back = try CommandRun.geotrip(["ingest", trip.path])
        #expect(back.stdout.contains("  2 new (1 back), 0 changed, 57 unchanged, 0 moved, 0 removed"), "\(back.stdout)")
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(try CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(photos.first { $0["path"] as? String == "IMG_0033.JPG" }?["locationSource"] as? String == "manual")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(try CommandRun.geotrip(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any])
        #expect(again["returned"] as? Int == 0 && again["new"] as? Int == 0)
    }

    @Test("photos --json agrees with exiftool on every sample photo")
    func photosAgreeWithExiftool() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let run = try CommandRun.geotrip(["photos", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let truth = try ExiftoolRecord.load(TestPaths.sampleImages.appendingPathComponent("exiftool.json"))
        let byPath = Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0) })

        let expectedPhotos = truth.values.filter(\.hasExif)
        #expect(expectedPhotos.count >= 40)
        for record in expectedPhotos {
            let photo = try #require(byPath[record.path], "\(record.path) missing from photos --json")
            func number(_ key: String) -> Double? { (photo[key] as? NSNumber)?.doubleValue }
            func text(_ key: String) -> String? { photo[key] as? String }
            // Positions from the photo's own GPS match exiftool; the others are inferred (and
            // checked against the trip's ground truth below).
            if record.latitude != nil || text("locationSource") == "exif" {
                #expect(text("locationSource") == "exif", "\(record.path) locationSource")
                #expect(close(number("latitude"), record.latitude), "\(record.path) latitude")
                #expect(close(number("longitude"), record.longitude), "\(record.path) longitude")
            }
            #expect(close(number("altitude"), record.altitude), "\(record.path) altitude")
            #expect(text("localTime") == record.localTime, "\(record.path) localTime")
            #expect(text("offset") == record.offset, "\(record.path) offset")
            #expect(text("gpsTime") == record.gpsTime, "\(record.path) gpsTime")
            let camera = [record.make, record.model].compactMap { $0 }.joined(separator: " ")
            #expect(text("camera") == (camera.isEmpty ? nil : camera), "\(record.path) camera")
            #expect(photo["diagnostics"] is [String])
        }
        // Photos placed by their neighbours are at their stop: within 150 m of the stop centre
        // the sample script recorded (SampleImages/ground-truth.json).
        let groundTruth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("ground-truth.json"))) as? [String: Any])
        let files = try #require(groundTruth["files"] as? [[String: Any]])
        var inferred = 0
        for file in files {
            guard let path = file["path"] as? String, let photo = byPath[path], photo["locationSource"] as? String == "interpolated",
                  let centre = file["stopCentre"] as? [String: Double], let latitude = photo["latitude"] as? Double,
                  let longitude = photo["longitude"] as? Double else { continue }
            inferred += 1
            let metres = Self.metres(latitude, longitude, centre["lat"]!, centre["lon"]!)
            #expect(metres < 150, "\(path) was placed \(Int(metres)) m from its stop")
            #expect(photo["timeSource"] as? String == "location")
            #expect((photo["uncertaintyMeters"] as? Double ?? 0) > 0)
        }
        #expect(inferred >= 6, "the camera without GPS should be placed by its neighbours")

        // Every key is present, null when absent.
        for photo in photos {
            for key in ["path", "latitude", "longitude", "altitude", "localTime", "offset", "gpsTime", "camera", "locationSource", "diagnostics",
                        "utcTime", "timeZone", "timeSource", "uncertaintyMeters"] {
                #expect(photo.keys.contains(key), "\(photo["path"] ?? "?") lacks \(key)")
            }
        }
        // The truncated file is listed with its diagnostic; non-images are not photos.
        #expect((byPath["IMG_0099.JPG"]?["diagnostics"] as? [String])?.isEmpty == false)
        #expect(byPath["notes.txt"] == nil)
    }

    @Test("every file of the folder is a photo or a file skipped, said with why, never both; the summary points to the list")
    func skippedFiles() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let ingest = try CommandRun.geotrip(["ingest", trip.path])
        #expect(ingest.stdout.contains("`geotrip photos \(trip.path) --skipped` lists the "), "\(ingest.stdout)")
        // The folder's own files, as the file system has them (geotrip's folders aside).
        var files: Set<String> = []
        let walker = try #require(FileManager.default.enumerator(atPath: trip.path))
        while let path = walker.nextObject() as? String {
            guard !path.hasPrefix("geotrip") && !path.hasPrefix(".geotrip") else { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: trip.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue { files.insert(path) }
        }
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        let skipped = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--skipped", "--json"]).stdout.utf8))
                                   as? [[String: Any]])
        let photoPaths = Set(photos.compactMap { $0["path"] as? String }), skippedPaths = Set(skipped.compactMap { $0["path"] as? String })
        #expect(photoPaths.isDisjoint(with: skippedPaths) && photoPaths.union(skippedPaths) == files, "\(files.subtracting(photoPaths))")
        #expect(skippedPaths.contains("notes.txt") && skipped.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
        #expect(ingest.stdout.contains("\(skipped.count) skipped"))
        let text = try CommandRun.geotrip(["photos", trip.path, "--skipped"]).stdout
        #expect(text.contains("notes.txt: not an image format geotrip reads\n"), "\(text)")
    }

    @Test("two clock offsets for one camera, in any case, or two for every camera, are refused with both named")
    func clockOffsetsThatDisagree() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for offsets in [["FUJIFILM X-T30=-05:00:00", "fujifilm x-t30=+05:00:00"], ["+01:00:00", "-01:00:00"]] {
            let run = try CommandRun.geotrip(["ingest", temp.path] + offsets.flatMap { ["--clock-offset", $0] })
            #expect(run.status == 64 && run.stderr.contains("'\(offsets[0])' and '\(offsets[1])' both correct"), "\(run.stderr)")
        }
        // One for a camera and one for the others is what the option is for.
        #expect(try CommandRun.geotrip(["ingest", temp.path, "--clock-offset", "FUJIFILM X-T30=-05:00:00", "--clock-offset", "+01:00:00", "--quiet"]).status == 0)
    }

    @Test("a mistyped command is answered with the one meant; a word far from every command is left to the parser")
    func mistypedCommand() throws {
        for (typed, meant) in [("inget", "ingest"), ("place", "places"), ("Trips", "trips"), ("expotr", "export")] {
            let run = try CommandRun.geotrip([typed, "DIR"])
            #expect(run.status == 64)
            #expect(run.stderr.contains("'\(typed)' is not a command. Did you mean '\(meant)'?"), "\(run.stderr)")
        }
        let far = try CommandRun.geotrip(["holiday", "DIR"])
        #expect(far.status == 64 && !far.stderr.contains("Did you mean"))
        #expect(try CommandRun.geotrip(["--version"]).status == 0)
    }

    @Test("a missing folder is one clear sentence and a non-zero exit")
    func missingFolder() throws {
        let run = try CommandRun.geotrip(["ingest", "/nonexistent/trip"])
        #expect(run.status != 0)
        #expect(run.stderr == "geotrip: The folder /nonexistent/trip does not exist. Check the path and try again.\n")
        #expect(run.stdout.isEmpty)
    }

    @Test("an unwritable catalog location says to pass --catalog")
    func unwritableCatalog() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let blocker = temp.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let run = try CommandRun.geotrip(["ingest", trip.path, "--catalog", blocker.path + "/catalog.sqlite"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("cannot be written"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("--catalog"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("photos before any ingest says to run ingest first")
    func photosWithoutCatalog() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["photos", trip.path, "--json"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("Run `geotrip ingest \(trip.path)` first."), "stderr: \(run.stderr)")
        // A catalog named with --catalog is named again in the command to run.
        let elsewhere = temp.url.appendingPathComponent("missing.sqlite").path
        let trips = try CommandRun.geotrip(["trips", trip.path, "--catalog", elsewhere])
        #expect(trips.status != 0)
        #expect(trips.stderr.contains("Run `geotrip ingest \(trip.path) --catalog \(elsewhere)` first."), "stderr: \(trips.stderr)")
    }

    @Test("a catalog row with a kind no case has (a hand edit, a damaged page) is one sentence and exit 1, never a crash",
          arguments: ["timeField", "format", "timeSource", "locationSource"])
    func unknownKindInCatalog(column: String) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let queue = try DatabaseQueue(path: trip.appendingPathComponent(".geotrip/catalog.sqlite").path)
        try queue.write { try $0.execute(sql: "UPDATE photo SET \(column) = 'bogus' WHERE \(column) IS NOT NULL") }
        try queue.close()
        for arguments in [["photos", trip.path], ["photos", trip.path, "--json"]] {
            let run = try CommandRun.geotrip(arguments)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("a row holds a value this geotrip does not know") && run.stderr.contains("\"bogus\""), "\(run.stderr)")
        }
    }

    @Test("--catalog keeps the catalog outside a read-only photo folder")
    func catalogElsewhere() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let catalog = temp.url.appendingPathComponent("elsewhere/trip.sqlite").path
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--catalog", catalog, "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: catalog))
        #expect(!FileManager.default.fileExists(atPath: trip.appendingPathComponent(".geotrip").path))
        let run = try CommandRun.geotrip(["photos", trip.path, "--catalog", catalog, "--json"])
        #expect(run.status == 0)
    }

    @Test("a second run while the catalog is held says so clearly")
    func busyCatalog() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        // Hold the lock from another process, as a concurrent run would.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // --no-fork: flock becomes `sleep` itself, so terminating it releases the lock and
        // leaves no child holding the test's output open.
        holder.arguments = ["--no-fork", trip.appendingPathComponent(".geotrip/catalog.sqlite.lock").path, "sleep", "30"]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { holder.terminate() }
        usleep(300_000)
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("is in use by another geotrip run") && run.stderr.contains("Wait for it to finish, or stop it, and run this again."),
                "stderr: \(run.stderr)")
        // Not another catalog: one folder has one journal, which one catalog writes.
        #expect(!run.stderr.contains("--catalog"))
    }

    @Test("a run killed with -9 leaves a consistent catalog, and the next run finishes the job")
    func killedRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.makeLargeTrip(in: temp, copies: 60)
        let total = Self.fileCount(trip)
        let catalog = trip.appendingPathComponent(".geotrip/catalog.sqlite").path

        // One file per transaction makes the run long enough that the kill lands inside it.
        let running = try CommandRun.launch(["ingest", trip.path, "--batch-size", "1"])
        // Wait until some batches are committed, then kill without warning.
        Self.waitForCommittedRows(catalog)
        running.send(SIGKILL)
        _ = running.wait()

        let afterKill = try Self.photoRows(catalog)
        #expect(afterKill > 0)
        #expect(afterKill < total, "the run finished before the kill; the test proved nothing")
        #expect(try Self.integrityCheck(catalog) == "ok")

        let rerun = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
        let summary = object.compactMapValues { $0 as? Int }
        #expect(summary["new"]! + summary["unchanged"]! == summary["scanned"]!)
        #expect(summary["unchanged"]! >= afterKill)
        #expect(try Self.photoRows(catalog) == summary["scanned"]!)
        #expect(summary["withGPS"]! + summary["withoutGPS"]! + summary["errors"]! + summary["skipped"]! == total)
    }

    @Test("Ctrl-C, SIGTERM and SIGHUP stop after the current batch with exit 128 + the signal, and the next run finishes",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func interruptedRun(signal: Int32, status: Int32) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.makeLargeTrip(in: temp, copies: 60)
        let total = Self.fileCount(trip)
        let catalog = trip.appendingPathComponent(".geotrip/catalog.sqlite").path
        let running = try CommandRun.launch(["ingest", trip.path, "--batch-size", "1"])
        Self.waitForCommittedRows(catalog)
        running.send(signal)
        let run = running.wait()
        #expect(run.status == status, "stderr: \(run.stderr)")
        let saved = try Self.photoRows(catalog)
        #expect(saved > 0 && saved < total)
        // A first run: the photos it says it read are the catalog's rows.
        let said = saved == 1 ? "keeps the photo this run read" : "keeps the \(saved) photos this run read"
        #expect(run.stderr.contains("Interrupted while reading. The catalog is consistent and \(said)"), "stderr: \(run.stderr)")
        #expect(try Self.integrityCheck(catalog) == "ok")

        let rerun = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        #expect(rerun.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
        #expect(summary["unchanged"] as? Int ?? 0 >= saved)
        #expect(try Self.photoRows(catalog) == summary["scanned"] as? Int)
    }

    @Test("Ctrl-C during `geotrip export` stops it with exit 130 and a sentence, and the next export finishes")
    func interruptedExport() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.makeLargeTrip(in: temp, copies: 60)
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--no-thumbnails", "--quiet"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        // Making 3,000 thumbnails is the long part of this export: stop it once some are made.
        let thumbs = trip.appendingPathComponent("geotrip/thumbs")
        let running = try CommandRun.launch(["export", trip.path, "--thumbnails"])
        var waited = 0
        while Self.fileCount(thumbs) == 0 && waited < 400 {
            usleep(10_000)
            waited += 1
        }
        running.send(SIGINT)
        let run = running.wait()
        #expect(run.status == 130, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Interrupted. The catalog is consistent and the trips written so far are kept"), "stderr: \(run.stderr)")
        let made = Self.fileCount(thumbs)

        let rerun = try CommandRun.geotrip(["export", trip.path, "--json"])
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
        let all = Self.fileCount(thumbs)
        #expect(made > 0 && made < all, "\(made) of \(all) thumbnails before the signal: the test proved nothing")
        #expect(summary["thumbnails"] as? Int == all - made)
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent("geotrip/index.html").path))
    }

    /// The sample trip copied `copies` times into numbered subfolders.
    static func makeLargeTrip(in temp: TemporaryFolder, copies: Int) throws -> URL {
        let trip = temp.url.appendingPathComponent("large")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // Without what `make demo` leaves in SampleImages (its catalog and outputs, whose
        // thumbnails the scan passes over now that they name their photo folder).
        for index in 0..<copies { _ = try temp.copySampleImages(to: String(format: "large/part-%03d", index)) }
        return trip
    }

    /// Waits (up to 4 s) until a running ingest has committed some rows to `catalog`.
    static func waitForCommittedRows(_ catalog: String) {
        for _ in 0..<400 {
            if ((try? photoRows(catalog)) ?? 0) > 0 { return }
            usleep(10_000)
        }
    }

    /// Files in `folder`, dot folders aside.
    static func fileCount(_ folder: URL) -> Int {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return paths.filter { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            return !isFolder.boolValue && !path.split(separator: "/").contains { $0.hasPrefix(".") }
        }.count
    }

    static func photoRows(_ catalog: String) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: catalog, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo WHERE removedAt IS NULL") ?? 0 }
    }

    static func integrityCheck(_ catalog: String) throws -> String? {
        let queue = try DatabaseQueue(path: catalog)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
    }

    /// Haversine metres, for checking inferred positions.
    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }

    func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return abs(a - b) < 1e-7
        default: return false
        }
    }
}
