import Foundation
import GRDB
import GeoTripTestSupport
import Testing

/// The command-line side of the hostile-user findings (issue 9): option ranges, names printed
/// to a terminal, read-only catalogs, `where` on odd input, tag paths.
@Suite("hardening, end to end")
struct HardeningCommandTests {
    @Test("numeric options out of range are refused at parse time with exit 64, naming the range", arguments: [
        (["--place-radius", "1e-13"], "--place-radius must be from 1 to 100000 metres"),
        (["--place-radius", "1e-300"], "--place-radius must be from 1 to 100000 metres"),
        (["--visit-radius", "nan"], "--visit-radius must be from 1 to 100000 metres"),
        (["--visit-gap", "1e308"], "--visit-gap must be from 1 to 43200 minutes"),
        (["--clock-offset", "+106751991167301 00:00:00"], "a clock offset can be at most 100 years"),
        (["--clock-offset", "+106751991167300 00:00:00"], "a clock offset can be at most 100 years"),
        // A negative number is the option's value, refused by its range, not "Missing value".
        (["--timeout", "-1"], "--timeout must be from 1 to 600 seconds; -1 is not."),
        // As typed, not as Double prints it (`0.0`); an empty language quoted, not a gap.
        (["--rate", "0"], "--rate must be from 0.01 to 100 requests a second; 0 is not."),
        (["--rate", "0.001"], "--rate must be from 0.01 to 100 requests a second; 0.001 is not."),
        (["--lang", ""], "--lang '' is not a language code"),
        (["--visit-radius", "-5"], "--visit-radius must be from 1 to 100000 metres"),
        // Tile options the map could not follow: a placeholder Leaflet does not fill (every tile
        // would fail), a credit with no tiles (it was passed over in silence).
        (["--tiles", "https://t.example.org/{z}/{x}/{y}.png?key={apikey}", "--tiles-attribution", "X"], "the map cannot fill {apikey}"),
        (["--tiles-attribution", "New credit"], "--tiles-attribution goes with --tiles"),
        (["--tiles", "none", "--tiles-attribution", "X"], "--tiles none forgets the tile layer with its credit"),
    ])
    func optionRanges(arguments: [String], message: String) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["ingest", trip.path] + arguments)
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        // Refused before anything was made or remembered.
        #expect(!FileManager.default.fileExists(atPath: trip.appendingPathComponent(".geotrip").path))
    }

    @Test("tag says when a tag outranks a photo's own GPS and how far it moves it; finds a name typed in the other normal form; refuses an empty place")
    func tagOverOwnPosition() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // A photo macOS named decomposed ("Café.jpg" as an e and a combining accent).
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0032.JPG"), to: trip.appendingPathComponent("Cafe\u{301}.jpg"))
        try FileManager.default.createDirectory(at: trip.appendingPathComponent("Di\u{301}a"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0033.JPG"), to: trip.appendingPathComponent("Di\u{301}a/Caf\u{E9}.jpg"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        // IMG_0031.JPG's own position, as exiftool reads it, and the distance to the tag (haversine).
        let own = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("exiftool.json")))
            as? [[String: Any]]).first { $0["SourceFile"] as? String == "IMG_0031.JPG" }
        let latitude = try #require(own?["Composite:GPSLatitude"] as? Double), longitude = try #require(own?["Composite:GPSLongitude"] as? Double)
        let (p1, p2) = (latitude * .pi / 180, 38.7 * .pi / 180)
        let h = pow(sin((p2 - p1) / 2), 2) + cos(p1) * cos(p2) * pow(sin((-9.1 - longitude) * .pi / 180 / 2), 2)
        let kilometres = Int((2 * 6_371.0088 * asin(h.squareRoot())).rounded())
        let tagged = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--at", "38.7,-9.1"])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        #expect(tagged.stdout.contains("It has a position of its own, \(kilometres) km from the tag, which the tag outranks "
                                       + "(`geotrip tag '\(trip.path)' 'IMG_0031.JPG' --clear` goes back to it)."), "\(tagged.stdout)")
        // Typed composed, as a keyboard writes it: the decomposed file is found; named in both
        // spellings, it is tagged once.
        let composed = try CommandRun.geotrip(["tag", trip.path, "Caf\u{E9}.jpg", "--at", "38.7,-9.1"])
        #expect(composed.status == 0 && composed.stdout.hasPrefix("Tagged 1 photo at 38.70000, -9.10000."), "\(composed.stdout) \(composed.stderr)")
        let both = try CommandRun.geotrip(["tag", trip.path, "Caf\u{E9}.jpg", "Cafe\u{301}.jpg", "--at", "38.71,-9.1"])
        #expect(both.status == 0 && both.stdout.hasPrefix("Tagged 1 photo at 38.71000, -9.10000."), "\(both.stdout) \(both.stderr)")
        // Spellings mixed in one path (a folder named decomposed, a file composed), typed composed.
        let mixed = try CommandRun.geotrip(["tag", trip.path, "D\u{ED}a/Caf\u{E9}.jpg", "--at", "38.72,-9.1"])
        #expect(mixed.status == 0 && mixed.stdout.hasPrefix("Tagged 1 photo at 38.72000, -9.10000."), "\(mixed.stdout) \(mixed.stderr)")
        let empty = try CommandRun.geotrip(["tag", trip.path, "IMG_0031.JPG", "--place", "  "])
        #expect(empty.status == 64 && empty.stderr.contains("--place is empty"), "\(empty.stderr)")
    }

    @Test("photos copied into geotrip's own output folder afterwards are said, not passed over in silence")
    func photosCopiedIntoTheOutputs() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        for name in ["geotrip/copy.jpg", "geotrip/journal/clip.mov"] {
            try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent(name))
        }
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((run.stdout + run.stderr).contains("geotrip/: 2 photos or videos here are not read (the first, copy.jpg): "
                                                   + "this is geotrip's own folder of outputs"), "\(run.stdout) \(run.stderr)")
        // Its own thumbnails are no such photos.
        #expect(!(run.stdout + run.stderr).contains("thumbs/"), "\(run.stdout)")
    }

    @Test("a tile template with rows counted from the south ({-y}) and subdomains is taken and put on the map page")
    func tilesFromTheSouth() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let template = "https://{s}.tiles.example.org/{z}/{x}/{-y}{r}.png"
        let run = try CommandRun.geotrip(["ingest", trip.path, "--tiles", template, "--tiles-attribution", "© Example"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let page = try String(contentsOf: trip.appendingPathComponent("geotrip/index.html"), encoding: .utf8)
        #expect(page.contains(template.replacingOccurrences(of: "/", with: "\\/")) || page.contains(template), "the template is on the page")
    }

    @Test("several names the scan left out are told by their own sentences, not the folder's path again and again")
    func scanProblemsTold() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // Four Latin-1 names whose escaped spellings are real names beside them: each left out.
        var script = "cd '\(trip.path)'"
        for index in 1...4 { script += " && touch 'x\(index)%E9.jpg' \"$(printf 'x\(index)\\351.jpg')\"" }
        #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script]).status == 0)
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for index in 1...3 {
            #expect(lines.contains { $0.hasPrefix("  ") && $0.contains("x\(index)%E9.jpg: two files are shown by this name: the one really so named, which is read, and one whose name is not UTF-8") },
                    "\(run.stdout)")
        }
        #expect(lines.contains("  … and 1 more that could not be scanned"), "\(run.stdout)")
        #expect(!run.stdout.contains("could not be scanned ("), "\(run.stdout)")
    }

    @Test("control characters in file names are escaped in text output and kept exact in JSON")
    func controlCharactersInNames() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let name = "evil\u{1B}]0;pwned\u{07}\u{1B}[31mred\nrow\u{202E}GPJ.JPG"
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent(name))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)

        let text = try CommandRun.geotrip(["photos", trip.path])
        #expect(text.status == 0)
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let row = try #require(text.stdout.split(separator: "\n").first { $0.contains("pwned") })
        #expect(row.hasSuffix("evil%1B]0;pwned%07%1B[31mred%0Arow%E2%80%AEGPJ.JPG"))
        // One row per photo: the newline did not split it.
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("row.JPG") })

        let json = try CommandRun.geotrip(["photos", trip.path, "--json"])
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(photos.contains { $0["path"] as? String == name })
    }

    /// Removes `temp` after a test that took permissions away inside it.
    static func removeLocked(_ temp: TemporaryFolder) {
        _ = try? CommandRun.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+rwx", temp.path])
        temp.remove()
    }

    /// geotrip run as the user `nobody` when the tests run as root (for whom permissions do
    /// not bite), else as the tests' own user.
    static func asNobody(_ arguments: [String]) throws -> CommandRun {
        if getuid() != 0 { return try CommandRun.geotrip(arguments) }
        return try CommandRun.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                  ["--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.binary.path] + arguments)
    }

    @Test("photos and places list a catalog on a read-only disk, WAL mode and no -shm file included")
    func readOnlyCatalog() throws {
        let temp = try TemporaryFolder()
        defer { Self.removeLocked(temp) }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let catalog = trip.appendingPathComponent(".geotrip/catalog.sqlite").path
        let expected = try CommandRun.geotrip(["places", trip.path]).stdout
        let queue = try DatabaseQueue(path: catalog, configuration: { var c = Configuration(); c.readonly = true; return c }())
        #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try queue.close()
        // As a catalog copied to a disc or archived without its WAL index would be.
        try? FileManager.default.removeItem(atPath: catalog + "-shm")

        // Nothing under the trip can be written. Root writes anyway, so the commands run as
        // nobody when the tests run as root.
        #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "a-w,a+rX", temp.path]).status == 0)
        let photos = try Self.asNobody(["photos", trip.path, "--json"])
        #expect(photos.status == 0, "stderr: \(photos.stderr)")
        #expect(photos.stdout.contains("IMG_0031.JPG"))
        let places = try Self.asNobody(["places", trip.path])
        #expect(places.status == 0, "stderr: \(places.stderr)")
        #expect(places.stdout == expected)
        #expect(!FileManager.default.fileExists(atPath: catalog + "-shm"))
        // A command that writes still says it cannot.
        let ingest = try Self.asNobody(["ingest", trip.path])
        #expect(ingest.status != 0)
        #expect(ingest.stderr.contains("cannot be written"), "stderr: \(ingest.stderr)")
    }

    @Test("a catalog made read-only and writable again takes the next run: the -wal and -shm a listing left read-only are given back their write permission")
    func catalogWritableAgain() throws {
        let temp = try TemporaryFolder()
        defer { Self.removeLocked(temp) }
        let trip = try temp.copySampleImages()
        if getuid() == 0 { #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", temp.path]).status == 0) }
        #expect(try Self.asNobody(["ingest", trip.path, "--quiet"]).status == 0)
        let catalog = trip.appendingPathComponent(".geotrip/catalog.sqlite").path
        func mode(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int }

        // Its folder read-only, the run that made it having closed it (and SQLite its own files
        // beside it): SQLite could not make them again.
        let folder = trip.appendingPathComponent(".geotrip").path
        #expect(!FileManager.default.fileExists(atPath: catalog + "-wal"))
        #expect(chmod(folder, 0o555) == 0)
        let folderRefused = try Self.asNobody(["ingest", trip.path])
        #expect(folderRefused.status != 0)
        #expect(folderRefused.stderr.contains("its folder \(folder) cannot be written") && folderRefused.stderr.contains("chmod u+w \(folder)"),
                "stderr: \(folderRefused.stderr)")
        #expect(!folderRefused.stderr.contains("mv "), "nothing moves out of that folder: \(folderRefused.stderr)")
        // Without the lock file (a copied .geotrip): the same.
        #expect(chmod(folder, 0o755) == 0)
        #expect(unlink(catalog + ".lock") == 0)
        #expect(chmod(folder, 0o555) == 0)
        #expect(try Self.asNobody(["ingest", trip.path]).stderr.contains("its folder \(folder) cannot be written"))
        #expect(chmod(folder, 0o755) == 0)

        #expect(chmod(catalog, 0o444) == 0)
        // A listing makes SQLite's -wal and -shm with the catalog's permissions.
        #expect(try Self.asNobody(["places", trip.path]).status == 0)
        #expect(try mode(catalog + "-shm") == 0o444)
        let refused = try Self.asNobody(["ingest", trip.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("its file is read-only: `chmod u+w \(catalog)` makes it writable"), "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("`mv \(catalog) NEW.sqlite`"), "stderr: \(refused.stderr)")

        #expect(chmod(catalog, 0o644) == 0)
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent("IMG_9031.JPG"))
        if getuid() == 0 { #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chown"), ["65534:65534", trip.appendingPathComponent("IMG_9031.JPG").path]).status == 0) }
        let again = try Self.asNobody(["ingest", trip.path, "--json"])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.contains("\"new\" : 1") || again.stdout.contains("\"new\":1"), "stdout: \(again.stdout.prefix(600))")
        for companion in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: catalog + companion) {
            #expect(try mode(catalog + companion) == 0o644)
        }
    }

    @Test("a folder that cannot be read keeps its photos and their day; a sidecar that could not be written is written by the next run")
    func unreadableFolderAndFailedSidecar() throws {
        let temp = try TemporaryFolder()
        defer { Self.removeLocked(temp) }
        let trip = try temp.copySampleImages()
        // Permissions bite only a user who is not root: as root, the trip is given to nobody
        // and the commands run as nobody.
        if getuid() == 0 { #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", temp.path]).status == 0) }
        func run(_ arguments: [String]) throws -> CommandRun { try Self.asNobody(arguments) }
        func chmod(_ mode: String, _ folder: String) throws {
            #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chmod"), [mode, trip.appendingPathComponent(folder).path]).status == 0)
        }
        func listing(_ folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: trip.appendingPathComponent(folder).path).sorted()
        }
        #expect(try run(["ingest", trip.path, "--write-xmp", "--quiet"]).status == 0)
        let pages = try listing("geotrip/journal"), thumbnails = try listing("geotrip/thumbs")

        // Given a folder of the trip that cannot be read, when the trip is ingested again,
        // then its photos are neither gone nor changed, and their day stays in the journal.
        try chmod("000", "Sevilla – día 3")
        let unread = try run(["ingest", trip.path, "--json"])
        try chmod("755", "Sevilla – día 3")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(unread.stdout.utf8)) as? [String: Any], "\(unread.stderr)")
        #expect(summary["removed"] as? Int == 0 && summary["new"] as? Int == 0, "\(summary)")
        #expect((summary["diagnostics"] as? [[String: Any]])?.contains { ($0["message"] as? String)?.contains("Sevilla – día 3/: folder could not be read") == true } == true)
        #expect(try listing("geotrip/journal") == pages && listing("geotrip/thumbs") == thumbnails)
        #expect(!(summary["diagnostics"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "sidecar-failed" }, "no sidecar tried there")
        // Nor one whose names can be listed but not looked at (read, not search, permission).
        try chmod("644", "Sevilla – día 3")
        let unsearchable = try JSONSerialization.jsonObject(with: Data(try run(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        try chmod("755", "Sevilla – día 3")
        #expect(unsearchable?["removed"] as? Int == 0, "\(String(describing: unsearchable))")
        #expect(try listing("geotrip/journal") == pages)
        // Also one of more than 8,192 names, whose entries are looked at on both cores.
        let crowded = trip.appendingPathComponent("Sevilla – día 3")
        for index in 0..<8_200 { FileManager.default.createFile(atPath: crowded.appendingPathComponent("note-\(index).txt").path, contents: nil) }
        if getuid() == 0 { #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", crowded.path]).status == 0) }
        try chmod("644", "Sevilla – día 3")
        let crowdedRun = try JSONSerialization.jsonObject(with: Data(try run(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        try chmod("755", "Sevilla – día 3")
        #expect(crowdedRun?["removed"] as? Int == 0, "\(String(describing: crowdedRun))")
        for index in 0..<8_200 { try FileManager.default.removeItem(at: crowded.appendingPathComponent("note-\(index).txt")) }
        #expect(try listing("geotrip/journal") == pages)

        // A photo moved out of a folder that cannot be read keeps its identity and its tag,
        // with no second copy of it while the folder stays unread; and a folder never readable
        // (lost+found at a drive's root) keeps no photo deleted elsewhere.
        func photos() throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: Data(try run(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        }
        #expect(try run(["tag", trip.path, "2025-06-11 Sintra/IMG_0021.JPG", "--at", "38.8,-9.2"]).status == 0)
        let count = try photos().count
        try FileManager.default.moveItem(at: trip.appendingPathComponent("2025-06-11 Sintra/IMG_0021.JPG"), to: trip.appendingPathComponent("IMG_0021.JPG"))
        try chmod("000", "2025-06-11 Sintra")
        try FileManager.default.createDirectory(at: trip.appendingPathComponent("lost+found"), withIntermediateDirectories: false)
        try chmod("000", "lost+found")
        let movedOut = try JSONSerialization.jsonObject(with: Data(try run(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(movedOut?["removed"] as? Int == 0 && movedOut?["moved"] as? Int == 1, "\(String(describing: movedOut))")
        #expect(try listing("geotrip/journal") == pages)
        var moved = try photos()
        #expect(moved.count == count && moved.first { $0["path"] as? String == "IMG_0021.JPG" }?["locationSource"] as? String == "manual")
        try chmod("755", "2025-06-11 Sintra")
        try FileManager.default.removeItem(at: trip.appendingPathComponent("2025-06-11 Sintra/IMG_0022.JPG"))
        let readable = try JSONSerialization.jsonObject(with: Data(try run(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(readable?["removed"] as? Int == 1, "the deleted photo goes, lost+found unread or not: \(String(describing: readable))")
        moved = try photos()
        #expect(moved.count == count - 1 && moved.first { $0["path"] as? String == "IMG_0021.JPG" }?["locationSource"] as? String == "manual")
        try chmod("755", "lost+found")
        try FileManager.default.moveItem(at: trip.appendingPathComponent("IMG_0021.JPG"), to: trip.appendingPathComponent("2025-06-11 Sintra/IMG_0021.JPG"))
        #expect(try run(["ingest", trip.path, "--quiet"]).status == 0)

        // Given the camera's photos placed anew (its clock corrected) while their folder cannot
        // be written, when the folder is writable again, then the next run writes their sidecars.
        try chmod("555", "2025-06-10 Lisboa")
        let failed = try run(["ingest", trip.path, "--clock-offset", "FUJIFILM X-T30=+00:02:00", "--json"])
        try chmod("755", "2025-06-10 Lisboa")
        #expect(failed.stdout.contains("sidecar-failed"), "\(failed.stdout)")
        #expect(try run(["ingest", trip.path, "--quiet"]).status == 0)
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(try run(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        let camera = try #require(photos.first { $0["path"] as? String == "2025-06-10 Lisboa/DSCF1001.JPG" })
        let latitude = try #require(camera["latitude"] as? Double)
        let sidecar = try String(contentsOf: trip.appendingPathComponent("2025-06-10 Lisboa/DSCF1001.JPG.xmp"), encoding: .utf8)
        // exif:GPSLatitude="38,41.497890N": degrees, then minutes.
        let written = try #require(sidecar.range(of: #"GPSLatitude="(\d+),([\d.]+)N""#, options: .regularExpression).map { String(sidecar[$0]) })
        let parts = written.dropFirst("GPSLatitude=\"".count).dropLast(2).split(separator: ",")
        let degrees = try #require(Double(parts[0])) + (try #require(Double(parts[1]))) / 60
        #expect(abs(degrees - latitude) < 1e-5, "the sidecar says \(written), the catalog \(latitude)")
    }

    @Test("a sidecar that could not be read is read again on the next run, once it can be; a photo's own sidecar is never said to be of a photo gone")
    func unreadableSidecarIsReadAgain() throws {
        let temp = try TemporaryFolder()
        defer { Self.removeLocked(temp) }
        let trip = temp.url.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent("sc.JPG"), dateTime: "2025:09:01 10:06:00", offset: "+09:00", at: nil))
        // Lightroom's name and its way of writing a position (exiftool reads it as 35.6586 N, 139.7454 E).
        let sidecar = trip.appendingPathComponent("sc.xmp")
        try """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="35,39.516N" exif:GPSLongitude="139,44.724E"/>\
            </rdf:RDF></x:xmpmeta>
            """.write(to: sidecar, atomically: true, encoding: .utf8)
        if getuid() == 0 { #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "65534:65534", temp.path]).status == 0) }
        // chmod leaves the sidecar's size and modification time as they were.
        #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chmod"), ["000", sidecar.path]).status == 0)
        let locked = try Self.asNobody(["ingest", trip.path])
        #expect(locked.stdout.contains("sc.JPG: its XMP sidecar sc.xmp could not be read"), "\(locked.stdout)")
        #expect(!locked.stdout.contains("of a photo that is gone"), "\(locked.stdout)")
        // Still locked: looked at again, but nothing changed, so nothing is written.
        let still = try JSONSerialization.jsonObject(with: Data(try Self.asNobody(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(still?["unchanged"] as? Int == 1 && still?["changed"] as? Int == 0, "\(String(describing: still))")
        #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/chmod"), ["644", sidecar.path]).status == 0)
        let opened = try Self.asNobody(["ingest", trip.path, "--quiet"])
        #expect(opened.status == 0, "\(opened.stderr)")
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(try Self.asNobody(["photos", trip.path, "--json"]).stdout.utf8)) as? [[String: Any]])
        let latitude = try #require(photos.first?["latitude"] as? Double), longitude = try #require(photos.first?["longitude"] as? Double)
        #expect(abs(latitude - 35.6586) < 1e-6 && abs(longitude - 139.7454) < 1e-6)
        #expect((photos.first?["diagnostics"] as? [Any])?.isEmpty == true, "the old sentence is gone: \(photos)")
        // Read, it is not read again.
        let json = try JSONSerialization.jsonObject(with: Data(try Self.asNobody(["ingest", trip.path, "--json"]).stdout.utf8)) as? [String: Any]
        #expect(json?["unchanged"] as? Int == 1, "\(String(describing: json))")
    }

    @Test("where says when standard input cannot be read, and quotes only the start of an overlong line")
    func whereOnOddInput() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["where"]
        let descriptor = open(temp.path, O_RDONLY)
        process.standardInput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("standard input cannot be read (it is a folder)"), "stderr: \(message)")

        let long = String(repeating: "9", count: 3_000_000)
        let run = try CommandRun.launch(["where"], stdin: Data("38.7,-9.1\n\(long)\n-33.86,151.21\n".utf8)).wait()
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(run.stdout.utf8.count < 2_000, "the long line was echoed")
        #expect(lines[1].contains("\"line\":2") && lines[1].contains("3000000 bytes long"))
        #expect(lines[2].contains("\"countryCode\":\"AU\""))
    }

    /// Whether the file system keeps a composed and a decomposed name apart, as Linux's do
    /// (APFS takes them for one name).
    static let keepsBothSpellings: Bool = {
        guard let temp = try? TemporaryFolder() else { return false }
        defer { temp.remove() }
        for name in ["caf\u{E9}", "cafe\u{301}"] { FileManager.default.createFile(atPath: temp.url.appendingPathComponent(name).path, contents: nil) }
        return (try? FileManager.default.contentsOfDirectory(atPath: temp.url.path).count) == 2
    }()

    @Test("folders and photos whose names differ only in NFC and NFD are each read once, each with its own thumbnail",
          .enabled(if: keepsBothSpellings, "the file system keeps both spellings of a name apart"))
    func namesInBothNormalForms() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        // "Día" composed, and as macOS writes it (a letter and a combining accent): two folders,
        // as a sync between two systems can leave them. Swift's `==` takes them for one.
        let composed = "D\u{ED}a", decomposed = "Di\u{301}a"
        let files = FileManager.default
        let sources = ["IMG_0031.JPG", "IMG_0032.JPG", "IMG_0033.JPG", "IMG_0034.JPG"].map { TestPaths.sampleImages.appendingPathComponent($0) }
        let paths = [decomposed + "/a.jpg", composed + "/b.jpg", composed + "/caf\u{E9}.jpg", composed + "/cafe\u{301}.jpg"]
        for (source, path) in zip(sources, paths) {
            let url = trip.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(at: source, to: url)
        }
        #expect(try files.contentsOfDirectory(atPath: trip.path).count == 2, "the file system keeps both folders")
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("4 files scanned"), "\(run.stdout)")
        let listed = try CommandRun.geotrip(["photos", trip.path, "--json"])
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        // Byte for byte: a Set of Strings would take the two spellings for one.
        #expect(Set(photos.compactMap { ($0["path"] as? String).map { Array($0.utf8) } }) == Set(paths.map { Array($0.utf8) }))
        // Each photo's line in the journal shows its own thumbnail.
        let journal = trip.appendingPathComponent("geotrip/journal")
        let page = try files.contentsOfDirectory(atPath: journal.path).filter { $0.hasSuffix(".md") }
            .map { try String(contentsOf: journal.appendingPathComponent($0), encoding: .utf8) }.joined()
        let thumbnails = page.matches(of: /\(\.\.\/thumbs\/([^)]+)\)/).map { String($0.output.1) }
        #expect(thumbnails.count == 4 && Set(thumbnails).count == 4, "\(page)")
    }

    @Test("a trip of dated photos none of which has a position says so, not '0 visits at 0 places in 0 countries ()'")
    func tripWithoutPositions() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // A camera without GPS, alone: nothing to place it by.
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("2025-06-10 Lisboa/DSCF1001.JPG"),
                                         to: trip.appendingPathComponent("DSCF1001.JPG"))
        let run = try CommandRun.geotrip(["ingest", trip.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("  trip: 1 day (2025-06-10 to 2025-06-10), no photo with a position"), "\(run.stdout)")
    }

    @Test("tag takes ./NAME relative to the folder when run from elsewhere")
    func tagFromOutside() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        try FileManager.default.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent("-rf.jpg"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        // The current folder is temp, which holds no -rf.jpg.
        let run = try CommandRun.launch(["tag", trip.path, "./-rf.jpg", "--at", "38.7,-9.1"], in: temp.url).wait()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("Tagged 1 photo"))
        // The same photo named twice (overlapping globs, ./ and not) is tagged once.
        let twice = try CommandRun.launch(["tag", trip.path, "./-rf.jpg", trip.path + "/-rf.jpg", "./-rf.jpg", "--at", "38.71,-9.1"], in: trip).wait()
        #expect(twice.status == 0, "stderr: \(twice.stderr)")
        #expect(twice.stdout.contains("Tagged 1 photo at"), "\(twice.stdout)")
        let cleared = try CommandRun.launch(["tag", trip.path, "./-rf.jpg", trip.path + "/-rf.jpg", "--clear"], in: trip).wait()
        #expect(cleared.stdout.contains("Cleared the manual position of 1 photo."), "\(cleared.stdout)")
        let none = try CommandRun.launch(["tag", trip.path, "./-rf.jpg", "IMG_0031.JPG", "--clear"], in: trip).wait()
        #expect(none.stdout.contains("None of these photos has a manual position: nothing to clear."), "\(none.stdout)")
    }
}
