import Foundation
import GeoTripTestSupport
import Testing

/// `--geocoder nominatim` against a real HTTP server on 127.0.0.1 (Fixtures/fake_nominatim.py,
/// answers shaped like Nominatim's jsonv2 output), never the network.
@Suite("online place names", .serialized)
struct OnlineNamesCommandTests {
    /// A running fake Nominatim: its URL and the log of what it was asked.
    final class FakeNominatim {
        let process = Process()
        let log: URL
        let url: String

        init(in temp: TemporaryFolder, mode: String = "ok") throws {
            log = temp.url.appendingPathComponent("requests-\(mode).jsonl")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/geotripTests/Fixtures/fake_nominatim.py").path, log.path, mode]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // The first line is the port it listens on.
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
            url = "http://127.0.0.1:" + String(decoding: line, as: UTF8.self)
        }

        /// Each request the server received.
        var requests: [[String: Any]] {
            (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            } ?? []
        }

        deinit {
            // SIGKILL: the test runner's children start with SIGTERM blocked.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func places(_ trip: URL) throws -> [[String: Any]] {
        let run = try CommandRun.geotrip(["places", trip.path, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test("places are named by the service in the asked language, by the stated rule, once; a rerun asks nothing")
    func namesOnline() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        let run = try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--lang", "en",
                                          "--contact", "tests@example.org", "--rate", "50", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["namedOnline"] as? Int == 11)
        let requests = server.requests
        #expect(requests.count == 11)
        #expect(requests.allSatisfy { ($0["path"] as? String) == "/reverse" && ($0["language"] as? String) == "en"
                                     && ($0["userAgent"] as? String) == "geotrip/0.1.0 (+tests@example.org)" })
        #expect(requests.allSatisfy { ($0["query"] as? [String: String])?["format"] == "jsonv2" })

        let visits = try Self.places(trip)
        #expect(visits.allSatisfy { $0["nameSource"] as? String == "nominatim" })
        // The sight by its name; elsewhere the suburb, not the street the answer names.
        #expect(visits.contains { $0["name"] as? String == "Belém Tower" })
        #expect(visits.filter { $0["countryCode"] as? String == "PT" && $0["name"] as? String != "Belém Tower" }
            .allSatisfy { $0["name"] as? String == "Baixa" })
        #expect(visits.filter { $0["countryCode"] as? String == "ES" }.allSatisfy { $0["name"] as? String == "Centro" })

        // Nothing new: no request at all. The settings were remembered.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--rate", "50"]).status == 0)
        #expect(server.requests.count == 11)

        // Another language asks again, for names in it.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--lang", "ko", "--rate", "50"]).status == 0)
        #expect(server.requests.count == 22)
        #expect(server.requests.suffix(11).allSatisfy { $0["language"] as? String == "ko" })
        #expect(try Self.places(trip).contains { $0["name"] as? String == "벨렝 탑" })
    }

    @Test("a service that fails is said once, and places keep their offline names")
    func serviceDown() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "fail")
        let run = try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", "50", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let kinds = try #require(summary["diagnosticKinds"] as? [[String: Any]])
        #expect(kinds.first { $0["kind"] as? String == "naming" }?["count"] as? Int == 1)
        #expect((summary["diagnostics"] as? [[String: Any]])?.contains { ($0["message"] as? String)?.contains("answered 503") == true } == true)
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" && $0["name"] != nil })
        // It stopped after the first place's tries (3 each, 2 in flight) rather than asking
        // about every place.
        #expect(server.requests.count <= 6)
    }

    @Test("a 503 is tried again, and a slow service is said once")
    func retriesAndSlowness() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let flaky = try FakeNominatim(in: temp, mode: "flaky")
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", flaky.url, "--rate", "50", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["namedOnline"] as? Int == 11)
        #expect(flaky.requests.count == 22)  // each place: a 503, then its answer

        let slow = try FakeNominatim(in: temp, mode: "slow")
        let other = try temp.copySampleImages(to: "other")
        let slowRun = try CommandRun.geotrip(["ingest", other.path, "--geocoder", "nominatim", "--nominatim-url", slow.url, "--rate", "50", "--json"])
        let slowSummary = try #require(try JSONSerialization.jsonObject(with: Data(slowRun.stdout.utf8)) as? [String: Any])
        #expect(slowSummary["namedOnline"] as? Int == 11)
        let kinds = try #require(slowSummary["diagnosticKinds"] as? [[String: Any]])
        #expect(kinds.first { $0["kind"] as? String == "naming-slow" }?["count"] as? Int == 1)
    }

    @Test("nothing is sent anywhere by default")
    func offlineByDefault() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["namedOnline"] as? Int == 0)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "bing"]).status == 64)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--nominatim-url", "ftp://x"]).status == 64)
    }
}
