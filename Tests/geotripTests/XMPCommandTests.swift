import Foundation
import GeoTripTestSupport
import GRDB
import Testing

/// XMP through the built binary: what `photos --json` says of a photo whose time and place are
/// only in XMP, and of one placed by another program's sidecar.
@Suite("XMP command")
struct XMPCommandTests {
    static let fixtures = TestPaths.fixtures.appendingPathComponent("xmp")

    /// A trip folder in `temp` holding copies of the XMP fixtures `names`, side by side.
    static func trip(in temp: TemporaryFolder, _ names: [String]) throws -> URL {
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: trip.appendingPathComponent((name as NSString).lastPathComponent))
        }
        return trip
    }

    @Test("photos --json: locationSource xmp and the XMP timeField for an XMP-only photo; sidecar for a Lightroom sidecar")
    func photosShowXMPSources() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.trip(in: temp, ["xmp-only.jpg", "sidecars/lightroom/IMG_1234.JPG", "sidecars/lightroom/IMG_1234.xmp"])
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--quiet"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        let run = try CommandRun.geotrip(["photos", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0) })

        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("exiftool.json"))) as? [[String: Any]])
        func record(_ path: String) -> [String: Any] { records.first { ($0["SourceFile"] as? String) == "./" + path } ?? [:] }

        let xmpOnly = try #require(byPath["xmp-only.jpg"])
        #expect(xmpOnly["locationSource"] as? String == "xmp")
        #expect(xmpOnly["timeField"] as? String == "XMP-exif:DateTimeOriginal")
        let latitude = (record("xmp-only.jpg")["XMP-exif:GPSLatitude"] as? NSNumber)?.doubleValue
        #expect(abs(((xmpOnly["latitude"] as? NSNumber)?.doubleValue ?? 0) - (latitude ?? 99)) < 1e-7)

        let lightroom = try #require(byPath["IMG_1234.JPG"])
        #expect(lightroom["locationSource"] as? String == "sidecar")
        #expect(lightroom["timeField"] as? String == "XMP-exif:DateTimeOriginal")
        let sidecarLatitude = (record("sidecars/lightroom/IMG_1234.xmp")["XMP-exif:GPSLatitude"] as? NSNumber)?.doubleValue
        #expect(abs(((lightroom["latitude"] as? NSNumber)?.doubleValue ?? 0) - (sidecarLatitude ?? 99)) < 1e-7)
        #expect(byPath.count == 2)  // the sidecar is not a photo
    }

    @Test("another program's damaged sidecar is the sidecar's problem, not the photo's, and --write-xmp never takes it for geotrip's own")
    func damagedForeignSidecar() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.trip(in: temp, ["sidecars/lightroom/IMG_1234.JPG"])
        // Lightroom's name for it, cut off in the middle of the XML.
        try Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF".utf8).write(to: trip.appendingPathComponent("IMG_1234.xmp"))
        let run = try CommandRun.geotrip(["ingest", trip.path, "--write-xmp", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let kinds = (summary["diagnosticKinds"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.contains("sidecar-unreadable") && !kinds.contains("damaged") && !kinds.contains("sidecar-failed"), "\(kinds)")
        #expect(!run.stdout.contains("photo that is gone"))
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent("IMG_1234.xmp").path))
    }

    @Test("geotrip's own sidecar: its rewrites never make the photo read again; a date another program adds to it is read; edited, it is left alone and said when its position is out of date")
    func ownSidecarEditedByAnotherProgram() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        func ingest(_ extra: [String] = []) throws -> [String: Any] {
            let run = try CommandRun.geotrip(["ingest", trip.path, "--json"] + extra)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        }
        func photo(_ path: String) throws -> [String: Any] {
            let photos = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
            return try #require(photos.first { $0["path"] as? String == path })
        }
        let undated = "2025-06-11 Sintra/DSCF1004.JPG"
        let sidecar = trip.appendingPathComponent(undated + ".xmp")
        _ = try ingest(["--write-xmp"])
        #expect(try photo(undated)["localTime"] is NSNull)
        // A tag gives the photo a position, and so a sidecar of geotrip's; tagging it elsewhere rewrites it.
        #expect(try CommandRun.geotrip(["tag", trip.path, undated, "--at", "38.7976,-9.3877"]).status == 0)
        _ = try ingest()  // the photo read again with its sidecar, whose size and time are kept
        #expect(try CommandRun.geotrip(["tag", trip.path, undated, "--at", "38.7930,-9.3900"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: sidecar.path))
        let quiet = try ingest()
        #expect(quiet["changed"] as? Int == 0 && quiet["new"] as? Int == 0, "geotrip's own rewrites are no edit: \(quiet["changed"] ?? "")")

        // The person gives the photo its time in that sidecar, with exiftool.
        let exiftool = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                          ["-q", "-overwrite_original", "-XMP-exif:DateTimeOriginal=2025:06:11 15:42:00", sidecar.path])
        #expect(exiftool.status == 0, "\(exiftool.stderr)")
        let edited = try ingest()
        #expect(edited["changed"] as? Int == 1)
        let read = try photo(undated)
        #expect(read["localTime"] as? String == "2025-06-11T15:42:00")
        #expect(read["locationSource"] as? String == "manual", "geotrip's position in its sidecar is never read back as the photo's")
        // Still saying the photo's position: nothing to say. Tagged elsewhere: left as it is, and said.
        let before = try Data(contentsOf: sidecar)
        let moved = try CommandRun.geotrip(["tag", trip.path, undated, "--at", "38.7100,-9.1400"])
        #expect(moved.status == 0)
        #expect(try Data(contentsOf: sidecar) == before, "the edited sidecar is left exactly as it is")
        let said = moved.stdout + moved.stderr
        #expect(said.contains("its XMP sidecar, geotrip's, was edited by another program since") && said.contains("no longer the photo's"), "\(said)")
        #expect(!said.contains("written by another program"))
        // Its position cleared: the sidecar stays as it is (the date is the person's), said too.
        let cleared = try CommandRun.geotrip(["tag", trip.path, undated, "--clear"])
        #expect(cleared.status == 0)
        #expect(try Data(contentsOf: sidecar) == before)
        let clearedSaid = cleared.stdout + cleared.stderr
        #expect(clearedSaid.contains("its XMP sidecar, geotrip's, was edited by another program since") && clearedSaid.contains("no longer the photo's"),
                "\(clearedSaid)")
    }

    @Test("a catalog that stamped geotrip's own sidecar by name only reads the photo again once, so a date another program added is read")
    func ownSidecarStampedByNameOnly() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let undated = "2025-06-11 Sintra/DSCF1004.JPG"
        let sidecar = trip.appendingPathComponent(undated + ".xmp")
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q", "--write-xmp"]).status == 0)
        #expect(try CommandRun.geotrip(["tag", trip.path, undated, "--at", "38.7976,-9.3877"]).status == 0)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: sidecar.path))
        // The catalog as a build before sizes were kept left it: `path geotrip`, and the
        // migration not yet run.
        let queue = try DatabaseQueue(path: trip.appendingPathComponent(".geotrip/catalog.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "UPDATE photo SET sidecars = ? WHERE path = ?", arguments: [undated + ".xmp geotrip", undated])
            #expect(db.changesCount == 1)
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v34-own-sidecar-stamps'")
        }
        try queue.close()
        // Since then, the person gave the photo its time in that sidecar, with exiftool.
        let exiftool = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                          ["-q", "-overwrite_original", "-XMP-exif:DateTimeOriginal=2025:06:11 15:42:00", sidecar.path])
        #expect(exiftool.status == 0, "\(exiftool.stderr)")
        let run = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(run.status == 0 && summary["new"] as? Int == 0)
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(photos.first { $0["path"] as? String == undated }?["localTime"] as? String == "2025-06-11T15:42:00")
        // Stamped whole now: the next run reads nothing.
        let quiet = try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(quiet?["changed"] as? Int == 0)
    }

    @Test("a PNG's XMP (iTXt) gives its time and place as exiftool reads them; a PNG with neither XMP nor eXIf is read from its sidecar, and one with nothing is skipped")
    func pngXMP() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        let screenshot = TestPaths.sampleImages.appendingPathComponent("screenshot.png")
        for name in ["tagged.png", "beside.png", "plain.png"] { try FileManager.default.copyItem(at: screenshot, to: trip.appendingPathComponent(name)) }
        let exiftool = URL(fileURLWithPath: "/usr/bin/exiftool")
        let wrote = try CommandRun.run(exiftool, ["-q", "-overwrite_original", "-XMP-exif:DateTimeOriginal=2025:06:12 18:30:00+02:00",
                                                  "-XMP-exif:GPSLatitude=37.38614", "-XMP-exif:GPSLongitude=-5.99256", trip.appendingPathComponent("tagged.png").path])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        // Lightroom's sidecar for the second.
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("sidecars/lightroom/IMG_1234.xmp"), to: trip.appendingPathComponent("beside.xmp"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0) })

        // exiftool's own reading of the file it wrote.
        let read = try CommandRun.run(exiftool, ["-j", "-n", "-XMP-exif:all", trip.appendingPathComponent("tagged.png").path])
        let truth = try #require((try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]])?.first)
        let tagged = try #require(byPath["tagged.png"])
        #expect(tagged["locationSource"] as? String == "xmp" && tagged["timeField"] as? String == "XMP-exif:DateTimeOriginal")
        #expect(abs((tagged["latitude"] as? Double ?? 0) - (truth["GPSLatitude"] as? Double ?? 99)) < 1e-7)
        #expect(abs((tagged["longitude"] as? Double ?? 0) - (truth["GPSLongitude"] as? Double ?? 99)) < 1e-7)
        #expect((truth["DateTimeOriginal"] as? String)?.hasPrefix("2025:06:12 18:30:00") == true)
        #expect(tagged["localTime"] as? String == "2025-06-12T18:30:00" && tagged["offset"] as? String == "+02:00")

        let beside = try #require(byPath["beside.png"])
        let record = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("exiftool.json"))) as? [[String: Any]])?
            .first { ($0["SourceFile"] as? String) == "./sidecars/lightroom/IMG_1234.xmp" })
        #expect(beside["locationSource"] as? String == "sidecar")
        #expect(abs((beside["latitude"] as? Double ?? 0) - ((record["XMP-exif:GPSLatitude"] as? NSNumber)?.doubleValue ?? 99)) < 1e-7)
        #expect(byPath["plain.png"] == nil, "a PNG with no time or place is no photo")
        let skipped = try CommandRun.geotrip(["photos", trip.path, "--skipped"]).stdout
        #expect(skipped.contains("plain.png: a PNG without an eXIf chunk, XMP or a sidecar"), "\(skipped)")
    }
}
