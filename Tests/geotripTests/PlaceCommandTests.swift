import Foundation
import GeoTripCore
import GeoTripTestSupport
import Testing

/// `geotrip where` and `geotrip find`, end to end, and the gazetteer found however geotrip is run.
@Suite("where and find", .serialized)
struct PlaceCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("where --json gives the documented fields")
    func whereJSON() throws {
        let run = try CommandRun.geotrip(["where", "35.0394,135.7292", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let answer = try json(run.stdout)
        #expect(answer["name"] as? String == "Kyoto")
        #expect(answer["admin1"] as? String == "Kyoto")
        #expect(answer["country"] as? String == "Japan")
        #expect(answer["countryCode"] as? String == "JP")
        #expect(answer["timeZone"] as? String == "Asia/Tokyo")
        #expect((answer["population"] as? Int ?? 0) > 1_000_000)
        #expect((answer["distanceMeters"] as? Double ?? 1e9) < 10_000)
    }

    @Test("a negative latitude is a coordinate, not an option")
    func negativeLatitude() throws {
        let run = try CommandRun.geotrip(["where", "-33.8568,151.2153", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try json(run.stdout)["name"] as? String == "Sydney")
    }

    @Test("several coordinates are named each in turn; one written with a space after its comma is still one")
    func severalCoordinates() throws {
        let text = try CommandRun.geotrip(["where", "35.0394,135.7292", "-33.8568,151.2153"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.split(separator: "\n").map { $0.prefix(6) } == ["Kyoto,", "Sydney"])
        let json = try CommandRun.geotrip(["where", "--json", "35.0394,135.7292", "-33.8568,151.2153"])
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(answers.map { $0["name"] as? String } == ["Kyoto", "Sydney"])
        let spaced = try CommandRun.geotrip(["where", "35.0394,", "135.7292"])
        #expect(spaced.stdout.hasPrefix("Kyoto,") && spaced.stdout.split(separator: "\n").count == 1)
        #expect(try CommandRun.geotrip(["where", "35.0394,135.7292", "nowhere"]).status == 64)
    }

    @Test("a bad coordinate argument is one clear sentence and exit 64")
    func badArgument() throws {
        let run = try CommandRun.geotrip(["where", "91,0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("latitude 91 is out of range"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Usage: geotrip where"), "the command's own usage: \(run.stderr)")
        let empty = try CommandRun.geotrip(["find", " "])
        #expect(empty.status == 64 && empty.stderr.contains("Give the name of a place to find"), "stderr: \(empty.stderr)")
    }

    @Test("with no coordinate, where reads JSON Lines from stdin; bad lines get an error and the batch goes on")
    func batch() throws {
        let input = "48.8584,2.2945\n91,0\nabc\n\n-33.8568 151.2153\n0,-160\n"
        let running = try CommandRun.launch(["where"], stdin: Data(input.utf8))
        let run = running.wait()
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 6)
        let objects = try lines.map(json)
        #expect(objects[0]["name"] as? String == "Paris")
        #expect(objects[1]["line"] as? Int == 2 && (objects[1]["error"] as? String)?.contains("latitude") == true)
        #expect(objects[2]["input"] as? String == "abc" && objects[2]["error"] != nil)
        #expect(objects[3]["error"] as? String == "empty line: expected LAT,LON such as 35.0116,135.7681")
        #expect(objects[4]["name"] as? String == "Sydney")
        #expect(objects[5]["kind"] as? String == "open-sea" && objects[5]["country"] is NSNull)
        #expect(run.stderr.contains("3 of 6 lines"))
    }

    @Test("a batch of mixed good and bad lines gives, line by line, what JSONEncoder writes for each answer and error")
    func batchLinesMatchTheEncoder() throws {
        // Good lines in the common shape and in the shapes only the general parser reads;
        // bad lines with quotes, backslashes, control characters and non-ASCII to escape.
        let good = ["35.0116,135.7681", "-33.8568, 151.2153", "48.8584 2.2945", " +40.6892,-74.0445 ", "0,-160", "-0,-0",
                    "78.2232,15.6267", "-90,180", "35.6586,139.7454\r"]
        let bad: [(line: String, error: String)] = [
            ("", "empty line: expected LAT,LON such as 35.0116,135.7681"),
            ("91,0", "latitude 91 is out of range (-90 to 90)"),
            ("0,-180.5", "longitude -180.5 is out of range (-180 to 180)"),
            ("\"35\",\"135\"", "'\"35\",\"135\"' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)"),
            ("C:\\photos\tx", "'C:\\photos\tx' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)"),
            ("北緯35度,東経135度", "'北緯35度,東経135度' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)"),
            ("1e5,2", "'1e5,2' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)"),
            ("12345678901234567890123,0", "latitude 12345678901234567890123 is out of range (-90 to 90)"),
            ("\u{1}35,135", "'\u{1}35,135' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)"),
        ]
        var input: [String] = [], expected: [String] = []
        let gazetteer = try Gazetteer.load()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for index in 0..<max(good.count, bad.count) {
            if index < good.count {
                input.append(good[index])
                let point = try Coordinate(parsing: good[index].replacingOccurrences(of: "\r", with: ""))
                expected.append(String(decoding: try encoder.encode(gazetteer.describe(point)), as: UTF8.self))
            }
            if index < bad.count {
                input.append(bad[index].line)
                let error = ErrorLine(line: input.count, input: bad[index].line, error: bad[index].error)
                expected.append(String(decoding: try encoder.encode(error), as: UTF8.self))
            }
        }
        let run = try CommandRun.launch(["where"], stdin: Data((input.joined(separator: "\n") + "\n").utf8)).wait()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == expected.count + 1 && lines.last == "", "\(lines.count) lines")
        for (index, line) in zip(expected.indices, lines) {
            #expect(line == expected[index], "line \(index + 1)")
        }
        #expect(run.stderr == "geotrip: \(bad.count) of \(input.count) lines were not coordinates; their lines say why.\n")
    }

    /// The shape of a batch line that is not a coordinate, as the README documents it.
    struct ErrorLine: Encodable {
        var line: Int
        var input: String
        var error: String
    }

    @Test("find lists the most populous match first, with a country filter")
    func find() throws {
        let run = try CommandRun.geotrip(["find", "Kyoto, JP", "--json", "--limit", "3"])
        #expect(run.status == 0)
        let matches = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(matches.first?["name"] as? String == "Kyoto")
        #expect(matches.first?["countryCode"] as? String == "JP")
        #expect(matches.first?["match"] as? String == "exact")
        // Found by another of its names: said, in the list and in the JSON.
        let cologne = try CommandRun.geotrip(["find", "Cologne", "--limit", "1"])
        #expect(cologne.stdout.hasPrefix("Köln (found as \"Cologne\"), Nordrhein-Westfalen, Germany (DE): "), "\(cologne.stdout)")
        #expect(matches.first?["byOtherName"] as? Bool == false)
        let none = try CommandRun.geotrip(["find", "Xqzzyvv"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no place is named") && none.stderr.contains("Check the spelling"))
        // A hyphen for a space finds the place, and is no other name.
        let hyphen = try CommandRun.geotrip(["find", "Saint-Petersburg", "--limit", "1"])
        #expect(hyphen.stdout.hasPrefix("Saint Petersburg, Sankt-Peterburg, Russia (RU): "), "\(hyphen.stdout)")
        // A name in another script: found for a city (GeoNames lists "Москва" among Moscow's
        // names); a name in another script found nothing gets advice of its own.
        let moscow = try CommandRun.geotrip(["find", "Москва", "--limit", "1"])
        #expect(moscow.stdout.hasPrefix("Moscow (found as \"Москва\"), Moskva, Russia (RU): "), "\(moscow.stdout)")
        for query in ["Ъъъъщ", "가나다라마"] {
            let other = try CommandRun.geotrip(["find", query])
            #expect(other.status == 1 && other.stderr.contains("in other scripts only for places of 15,000 people or more")
                    && !other.stderr.contains("Check the spelling"), "\(other.stderr)")
        }
        #expect(!SearchKey.hasOtherScript("Hà Nội, Zürich, Łódź, Ærøskøbing") && SearchKey.hasOtherScript("Αθήνα"))
        // A name found with a region written in its own script: how to write the region.
        let region = try CommandRun.geotrip(["find", "Москва, Россия"])
        #expect(region.status == 1 && region.stderr.contains("\"Москва\" is found, but not in \"Россия\" as geotrip knows countries and regions")
                && region.stderr.contains("\"Москва, RU\" or \"Москва, Russia\""), "\(region.stderr)")
        // A query is echoed as the terminal rule says: no escape sequence reaches the terminal.
        let escaped = try CommandRun.geotrip(["find", "Par\u{1B}[31mis"])
        #expect(escaped.status == 1 && !escaped.stderr.contains("\u{1B}") && escaped.stderr.contains("%1B"), "\(escaped.stderr)")
    }

    @Test("an installed geotrip finds the gazetteer in ../share/geotrip; without it, a clear error")
    func installedLayout() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let bin = temp.url.appendingPathComponent("bin"), share = temp.url.appendingPathComponent("share/geotrip")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let installed = bin.appendingPathComponent("geotrip")
        try FileManager.default.copyItem(at: TestPaths.binary, to: installed)
        // Without the data: the source tree is still found (it is where this binary was built
        // from), so point the lookup at a missing file to see the message.
        let missing = try CommandRun.run(installed, ["where", "35,135"], environment: ["GEOTRIP_GAZETTEER": share.appendingPathComponent("gazetteer.bin").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("The place-name data (gazetteer.bin) is missing"), "stderr: \(missing.stderr)")
        // A damaged copy in share/ is reported by its path: proof that share/ is where it looked
        // (the build's source tree, its last resort, holds an intact copy).
        var bytes = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/GeoTripCore/Resources/gazetteer.bin"))
        bytes[2000] ^= 0xFF
        try bytes.write(to: share.appendingPathComponent("gazetteer.bin"))
        let damaged = try CommandRun.run(installed, ["where", "35,135"])
        #expect(damaged.stderr.contains("\(share.path)/gazetteer.bin is damaged"), "stderr: \(damaged.stderr)")
        bytes[2000] ^= 0xFF
        try bytes.write(to: share.appendingPathComponent("gazetteer.bin"))
        let found = try CommandRun.run(installed, ["where", "35.0394,135.7292"])
        #expect(found.status == 0)
        #expect(found.stdout.hasPrefix("Kyoto"))
    }

    @Test("a damaged gazetteer is a clear error, never a crash")
    func damagedGazetteer() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        var bytes = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/GeoTripCore/Resources/gazetteer.bin"))
        bytes[1000] ^= 0xFF
        let damaged = temp.url.appendingPathComponent("gazetteer.bin")
        try bytes.write(to: damaged)
        let run = try CommandRun.run(TestPaths.binary, ["where", "35,135"], environment: ["GEOTRIP_GAZETTEER": damaged.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("is damaged: its checksum does not match"), "stderr: \(run.stderr)")
    }

    @Test("in batch from a slow pipe, a line is answered before the next arrives, not after a block fills")
    func slowPipe() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = ["where"]
        let input = Pipe()
        let output = temp.url.appendingPathComponent("out.jsonl")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("48.8584,2.2945\n".utf8))
        // The answer comes while the pipe stays open (the writer may write again at any time).
        var answered = ""
        for _ in 0..<200 where !answered.contains("\n") {
            Thread.sleep(forTimeInterval: 0.05)
            answered = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        input.fileHandleForWriting.write(Data("52.08,23.70\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(answered.contains("\"name\":\"Paris\""), "before the pipe closed: \(answered)")
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("\"timeZone\":\"Europe/Minsk\"") == true && lines.last?.contains("\"countryCode\":\"BY\"") == true)
    }

    @Test("longitude 180 and -180 are one meridian: the same zone either way, in Fiji's waters and at Adak")
    func antimeridian() throws {
        let run = try CommandRun.launch(["where"], stdin: Data("-19.5,180\n-19.5,-180\n51.95,180\n51.95,-180\n".utf8)).wait()
        #expect(run.status == 0)
        let zones = run.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["timeZone"] as? String
        }
        #expect(zones.count == 4)
        #expect(zones[0] == zones[1] && zones[2] == zones[3], "\(zones)")
        #expect(zones[0] == "Pacific/Fiji", "\(zones)")
    }
}
