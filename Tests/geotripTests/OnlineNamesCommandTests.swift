import Foundation
import GeoTripTestSupport
import Testing

/// `--geocoder nominatim` against a real HTTP server on 127.0.0.1 (Fixtures/fake_nominatim.py,
/// answers shaped like Nominatim's jsonv2 output), never the network. Each run gets a cache
/// folder of its own (`CommandRun`) unless a test shares one on purpose.
@Suite("online place names", .serialized)
struct OnlineNamesCommandTests {
    static func places(_ trip: URL) throws -> [[String: Any]] {
        let run = try CommandRun.geotrip(["places", trip.path, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    static func summary(_ run: CommandRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "stderr: \(run.stderr)")
    }

    static func named(_ summary: [String: Any]) -> [String: Int] {
        (summary["named"] as? [String: Any])?.compactMapValues { $0 as? Int } ?? [:]
    }

    static func ingest(_ trip: URL, _ server: FakeNominatim, _ extra: [String] = [], environment: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.run(TestPaths.binary, ["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", "50", "--json"] + extra,
                           environment: environment)
    }

    /// Requests by the point they asked about.
    static func byPoint(_ requests: [[String: Any]]) -> [String: [[String: String]]] {
        Dictionary(grouping: requests.compactMap { $0["query"] as? [String: String] }) { "\($0["lat"] ?? ""),\($0["lon"] ?? "")" }
    }

    @Test("places get street-level names in the asked language by the stated rule, at most two requests each; a rerun asks nothing")
    func namesOnline() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        let run = try Self.ingest(trip, server, ["--lang", "en", "--contact", "tests@example.org"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let named = Self.named(try Self.summary(run))
        #expect(named["online"] == 11 && named["cached"] == 0 && named["stale"] == 0 && named["failed"] == 0)
        let requests = server.requests
        #expect(named["requests"] == requests.count)
        #expect(requests.allSatisfy { ($0["path"] as? String) == "/reverse" && ($0["language"] as? String) == "en"
                                     && ($0["userAgent"] as? String) == "geotrip/0.1.0 (+tests@example.org)" })
        #expect(requests.allSatisfy { ($0["query"] as? [String: String])?["format"] == "jsonv2" })
        // Eleven places, each asked once or twice: first for a POI, then (the café being
        // 400 m off) at address level; the tower's POI answer is enough.
        let points = Self.byPoint(requests)
        #expect(points.count == 11)
        #expect(points.values.allSatisfy { (1...2).contains($0.count) })
        #expect(points.values.allSatisfy { $0.first?["layer"] == "poi,natural,manmade" || $0.first?["zoom"] != "18" })
        #expect(points.values.filter { $0.count == 2 }.allSatisfy { $0[1]["layer"] == "address" })

        let visits = try Self.places(trip)
        #expect(visits.allSatisfy { $0["nameSource"] as? String == "nominatim" })
        // The sight by its name; elsewhere the suburb, never the far café or the street.
        #expect(visits.contains { $0["name"] as? String == "Belém Tower" })
        #expect(visits.filter { $0["countryCode"] as? String == "PT" && $0["name"] as? String != "Belém Tower" }
            .allSatisfy { $0["name"] as? String == "Baixa" })
        #expect(visits.filter { $0["countryCode"] as? String == "ES" }.allSatisfy { $0["name"] as? String == "Centro" })
        #expect(visits.filter { $0["countryCode"] as? String == "ES" }.allSatisfy { $0["country"] as? String == "Spain" })

        // Nothing new: no request at all. The settings were remembered.
        let again = try CommandRun.geotrip(["ingest", trip.path, "--rate", "50", "--json"])
        #expect(Self.named(try Self.summary(again))["requests"] == 0)
        #expect(server.requests.count == requests.count)

        // Another language asks again, for names in it, and Korean names are shown.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--lang", "ko", "--rate", "50"]).status == 0)
        #expect(server.requests.count == 2 * requests.count)
        #expect(server.requests.suffix(requests.count).allSatisfy { $0["language"] as? String == "ko" })
        let korean = try Self.places(trip)
        #expect(korean.contains { $0["name"] as? String == "벨렝 탑" })
        #expect(korean.filter { $0["countryCode"] as? String == "ES" }.allSatisfy { $0["name"] as? String == "센트로" && $0["country"] as? String == "스페인" })

        // Language tags are case-insensitive: EN is en, named already; nothing is asked.
        let count = server.requests.count
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--lang", "EN", "--rate", "50"]).status == 0)
        #expect(server.requests.count == count)
        #expect(try Self.places(trip).contains { $0["name"] as? String == "Belém Tower" })
    }

    @Test("the locale's region goes with its language (pt_BR.UTF-8 asks in pt-BR), and --lang pt_br is that language")
    func localeRegion() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        let run = try Self.ingest(trip, server, environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "pt_BR.UTF-8"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let sent = server.requests.count
        #expect(sent > 0 && server.requests.allSatisfy { $0["language"] as? String == "pt-BR" }, "\(server.requests.map { $0["language"] })")
        // A locale's way of writing it is the same language: its names are known, nothing is asked.
        let again = try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--lang", "pt_br", "--rate", "50"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.requests.count == sent)
    }

    @Test("a service that has no name for a place (a self-hosted extract of another country) leaves its offline name and country")
    func noNameKeepsOfflineName() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "portugal")
        let offline = try CommandRun.geotrip(["ingest", trip.path, "--quiet"])
        #expect(offline.status == 0, "\(offline.stderr)")
        let before = try Self.places(trip).filter { $0["countryCode"] as? String == "ES" }
        #expect(!before.isEmpty && before.allSatisfy { $0["name"] is String })

        let run = try Self.ingest(trip, server, ["--lang", "en"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // The trip is still in two countries.
        let summary = try Self.summary(run)
        #expect((summary["trip"] as? [String: Any])?["countries"] as? [String] == ["ES", "PT"], "\(summary)")
        let after = try Self.places(trip)
        // Spain's places show the gazetteer's names, as before; Portugal's the service's.
        let spain = after.filter { $0["countryCode"] as? String == "ES" }
        #expect(spain.map { $0["name"] as? String } == before.map { $0["name"] as? String })
        #expect(spain.allSatisfy { $0["nameSource"] as? String == "offline" })
        #expect(after.filter { $0["countryCode"] as? String == "PT" }.allSatisfy { $0["nameSource"] as? String == "nominatim" })
        #expect(after.allSatisfy { $0["countryCode"] is String })
        // Counted apart: named online are the places with a name from the service.
        let places = { (code: String) in Set(after.filter { $0["countryCode"] as? String == code }.compactMap { $0["placeId"] as? String }).count }
        let named = Self.named(summary)
        #expect(named["nameless"] == places("ES") && named["online"] == places("PT"), "\(named)")
        // The journal names them too: Madrid's day is in Spain, under Madrid's offline name.
        let madrid = try String(contentsOf: trip.appendingPathComponent("geotrip/journal/2025-06-13.md"), encoding: .utf8)
        #expect(madrid.contains("places:\n- Madrid\ncountries:\n- Spain\n"), "\(madrid.prefix(200))")
        #expect(!madrid.contains("Unnamed place"))
    }

    @Test("the shared cache: the same places in another trip are named with no request")
    func sharedCache() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let cache = ["XDG_CACHE_HOME": temp.url.appendingPathComponent("cache").path]
        let server = try FakeNominatim(in: temp)
        let first = try Self.ingest(try temp.copySampleImages(to: "first"), server, environment: cache)
        let asked = server.requests.count
        #expect(Self.named(try Self.summary(first))["online"] == 11)
        #expect(FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("cache/geotrip/names.sqlite").path))

        let second = try Self.ingest(try temp.copySampleImages(to: "second"), server, environment: cache)
        let named = Self.named(try Self.summary(second))
        #expect(named["cached"] == 11 && named["online"] == 0 && named["requests"] == 0)
        #expect(server.requests.count == asked)

        // The summary says the offline names apart: each of the 11 new places was named offline
        // before the cache named it, and that is not 11 places more.
        let third = try CommandRun.run(TestPaths.binary, ["ingest", try temp.copySampleImages(to: "third").path, "--geocoder", "nominatim",
                                                          "--nominatim-url", server.url, "--rate", "50"], environment: cache)
        #expect(third.status == 0, "stderr: \(third.stderr)")
        #expect(third.stdout.split(separator: "\n").contains("  names: 0 online, 11 from the cache, 0 manual (11 named offline first); 0 requests sent"),
                "stdout: \(third.stdout)")
    }

    @Test("no two requests closer than 0.9/R as the server saw them, also with two trips named at once")
    func rateAcrossProcesses() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let cache = ["XDG_CACHE_HOME": temp.url.appendingPathComponent("cache").path]
        let server = try FakeNominatim(in: temp)
        // At 1 a second (the public server's rate) the tolerance of 100 ms absorbs a busy
        // machine's scheduling of client and server (the whole suite runs in parallel); the
        // moments of sending are kept apart to the millisecond (`NamingCache.recordSend`).
        let rate = 1.0
        let arguments = { (trip: URL) in
            ["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", String(rate), "--concurrency", "4", "--quiet"]
        }
        // Two small trips (the Lisbon day's folder, three places); the second's photos are the
        // first's, moved 5 km north so nothing is shared.
        let first = temp.url.appendingPathComponent("first"), second = temp.url.appendingPathComponent("second")
        for trip in [first, second] {
            try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("2025-06-10 Lisboa"), to: trip.appendingPathComponent("Lisboa"))
        }
        let moved = try CommandRun.geotrip(["ingest", second.path, "--quiet"])
        #expect(moved.status == 0)
        // Tags outrank the photos' own positions.
        let places = try Self.places(second)
        for visit in places {
            let photos = visit["photos"] as? [String] ?? []
            guard let lat = visit["latitude"] as? Double, let lon = visit["longitude"] as? Double, !photos.isEmpty else { continue }
            #expect(try CommandRun.geotrip(["tag", second.path] + photos + ["--at", String(format: "%.5f,%.5f", lat + 0.045, lon)]).status == 0)
        }
        let one = try CommandRun.launch(arguments(first), environment: cache)
        let two = try CommandRun.launch(arguments(second), environment: cache)
        #expect(one.wait().status == 0)
        #expect(two.wait().status == 0)
        let times = server.requests.compactMap { $0["t"] as? Double }.sorted()
        #expect(times.count >= 8)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 >= 0.9 / rate }, "closest requests \(gaps.min() ?? 0) s apart")
    }

    @Test("a second run of the same trip while the first asks for its names leaves them to it, says so, and asks nothing")
    func oneNamingRunAtATime() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        let arguments = ["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", "4", "--json"]
        let first = try CommandRun.launch(arguments)
        // The second starts once the first is asking (it has given the run lock up by then).
        let deadline = Date().addingTimeInterval(60)
        while server.requests.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!server.requests.isEmpty)
        let second = try CommandRun.run(TestPaths.binary, arguments)
        let one = first.wait()
        #expect(one.status == 0 && second.status == 0, "\(one.stderr)\n\(second.stderr)")
        let problems = (try Self.summary(second)["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(problems.contains { $0.contains("is asking the place-name service for this catalog's names now: this run leaves") }, "\(problems)")
        #expect(Self.named(try Self.summary(second))["requests"] == 0)
        // Every place was asked about by the first run alone: at most twice (a POI, then an
        // address), never the same question twice.
        let questions = server.requests.compactMap { $0["query"] as? [String: String] }.map { "\($0["lat"] ?? ""),\($0["lon"] ?? ""),\($0["layer"] ?? "")" }
        #expect(Set(questions).count == questions.count, "\(questions.count) requests, \(Set(questions).count) questions")
        #expect(Self.named(try Self.summary(one))["requests"] == questions.count)
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "nominatim" })
    }

    @Test("a service that fails is said once; places keep their last good names, online ones included")
    func serviceDown() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "fail")
        let run = try Self.ingest(trip, server)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try Self.summary(run)
        let kinds = try #require(summary["diagnosticKinds"] as? [[String: Any]])
        #expect(kinds.first { $0["kind"] as? String == "naming" }?["count"] as? Int == 1)
        #expect((summary["diagnostics"] as? [[String: Any]])?.contains { ($0["message"] as? String)?.contains("answered 503") == true } == true)
        #expect(Self.named(summary)["failed"] == 11)
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" && $0["name"] != nil })
        // It stopped after the first places' tries (3 each, 2 in flight), not one per place.
        #expect(server.requests.count <= 6)

        // Named online, then a place moves 200 m while the service is down: it keeps its
        // online name, and is asked about again once the service is back.
        try server.control("mode?m=ok")
        #expect(try Self.ingest(trip, server).status == 0)
        let lisbon = try #require(try Self.places(trip).first { $0["name"] as? String == "Baixa" })
        let id = try #require(lisbon["placeId"] as? String)
        let photos = try Self.places(trip).filter { $0["placeId"] as? String == id }.flatMap { $0["photos"] as? [String] ?? [] }
        let lat = try #require(lisbon["latitude"] as? Double), lon = try #require(lisbon["longitude"] as? Double)
        #expect(try CommandRun.geotrip(["tag", trip.path] + photos + ["--at", String(format: "%.6f,%.6f", lat + 0.0018, lon)]).status == 0)
        try server.control("mode?m=fail")
        #expect(try Self.ingest(trip, server).status == 0)
        let after = try Self.places(trip).filter { $0["placeId"] as? String == id }
        #expect(!after.isEmpty && after.allSatisfy { $0["name"] as? String == "Baixa" && $0["nameSource"] as? String == "nominatim" })
        // Moved across the river to Almada (some 3 km), the service still down: "Baixa" would
        // name the wrong town, so the gazetteer's name for the spot shows until it answers.
        #expect(try CommandRun.geotrip(["tag", trip.path] + photos + ["--at", "38.6790,-9.1565"]).status == 0)
        #expect(try Self.ingest(trip, server).status == 0)
        let across = try Self.places(trip).filter { ($0["photos"] as? [String])?.contains(photos[0]) == true }
        #expect(!across.isEmpty && across.allSatisfy { $0["name"] as? String == "Almada" && $0["nameSource"] as? String == "offline" }, "\(across)")
        try server.control("mode?m=ok")
        let before = server.requests.count
        let back = try Self.ingest(trip, server)
        #expect(Self.named(try Self.summary(back))["online"] == 1)
        #expect(server.requests.count > before)
    }

    @Test("a place whose online name no longer shows (moved 5 km whole in an outage) counts among those shown in another language")
    func movedNameCountsAsOtherLanguage() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "ok")
        func otherLanguages(_ run: CommandRun) throws -> Int? { (try Self.summary(run)["export"] as? [String: Any])?["namesInOtherLanguages"] as? Int }
        let korean = try Self.ingest(trip, server, ["--lang", "ko"])
        #expect(try otherLanguages(korean) == 0 && Self.named(try Self.summary(korean))["online"] == 11)
        // The service down, one place's photos tagged across the river: its Korean name is made
        // for where it was, so the gazetteer's (not Korean) shows, and is counted as that.
        // (A place of one visit, moved whole, keeps its id and its names.)
        let visits = try Self.places(trip)
        let tower = try #require(visits.first { $0["name"] as? String == "벨렝 탑" })
        #expect(visits.filter { $0["placeId"] as? String == tower["placeId"] as? String }.count == 1)
        let photos = try #require(tower["photos"] as? [String])
        try server.control("mode?m=fail")
        #expect(try CommandRun.geotrip(["tag", trip.path] + photos + ["--at", "38.6790,-9.1565"]).status == 0)
        #expect(try Self.places(trip).contains { $0["placeId"] as? String == tower["placeId"] as? String
                                                 && $0["name"] as? String == "Almada" && $0["nameSource"] as? String == "offline" })
        // (`tag` wrote the outputs: `export` writes them again, and counts.)
        let moved = try CommandRun.geotrip(["export", trip.path, "--json"])
        #expect(try Self.summary(moved)["namesInOtherLanguages"] as? Int == 1 && Self.summary(moved)["namesOnline"] as? Bool == true, "\(moved.stdout)")
        // Offline, no name in Korean will come: the summary says what would bring them.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "offline"]).status == 0)
        let offline = try CommandRun.geotrip(["export", trip.path])
        #expect(offline.stdout.contains("1 place shown with the best name known, none being in 'ko': "
                                        + "names in it are asked for online only, with --geocoder nominatim"), "\(offline.stdout)")
    }

    @Test("a redirect to another server is not followed, and said; one within the server is followed")
    func redirects() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "redirect")
        let run = try Self.ingest(trip, server)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try Self.summary(run)
        let messages = (summary["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("another server (localhost)") }, "\(messages)")
        #expect(!server.requests.isEmpty && server.requests.allSatisfy { !(($0["host"] as? String) ?? "").hasPrefix("localhost") })
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" })
        // The search is sent on within the same server, and answered.
        let tagged = try CommandRun.geotrip(["tag", trip.path, "2025-06-11 Sintra/DSCF1004.JPG", "--place", "Torre de Belém"])
        #expect(tagged.status == 0 && tagged.stdout.contains("Belém Tower"), "\(tagged.stdout) \(tagged.stderr)")
        #expect(server.requests.contains { $0["path"] as? String == "/moved/search" })
    }

    @Test("a cache folder that cannot be used is said in words, once, and the places are still named and searched")
    func unusableCache() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        // A file where the cache's folder goes.
        let home = temp.url.appendingPathComponent("cachehome")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: home.appendingPathComponent("geotrip"))
        let run = try Self.ingest(trip, server, environment: ["XDG_CACHE_HOME": home.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try Self.summary(run)
        let messages = (summary["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.filter { $0.contains("is a file, not a folder") }.count == 1, "\(messages)")
        #expect(!messages.contains { $0.contains("NSCocoaErrorDomain") })
        #expect(Self.named(summary)["online"] == 11)
        // A search by name with the same cache folder: found, and the cache said once.
        let tagged = try CommandRun.run(TestPaths.binary, ["tag", trip.path, "2025-06-11 Sintra/DSCF1004.JPG", "--place", "Torre de Belém"],
                                        environment: ["XDG_CACHE_HOME": home.path])
        #expect(tagged.status == 0 && tagged.stdout.contains("Belém Tower"), "\(tagged.stdout) \(tagged.stderr)")
        #expect(tagged.stderr.components(separatedBy: "is a file, not a folder").count == 2, "\(tagged.stderr)")
        // XDG_CACHE_HOME itself a file: said as that, with the way out.
        let file = temp.url.appendingPathComponent("notafolder")
        try Data("x".utf8).write(to: file)
        let named = try Self.ingest(trip, server, ["--lang", "ko"], environment: ["XDG_CACHE_HOME": file.path])
        let said = (try Self.summary(named)["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(said.contains { $0.contains("\(file.path) is a file, not a folder") && $0.contains("Make it a folder, or let XDG_CACHE_HOME name one") }, "\(said)")
        #expect(!said.contains { $0.contains("NSCocoaErrorDomain") })
    }

    @Test("answers that came in before the service went down are kept and counted")
    func outageMidRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "fail4")
        let run = try Self.ingest(trip, server, ["--concurrency", "1"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let named = Self.named(try Self.summary(run))
        // Four good answers name between two and four places (one or two requests each).
        let online = try #require(named["online"])
        #expect((2...4).contains(online), "\(named)")
        #expect(online + (named["failed"] ?? 0) == 11, "\(named)")
        #expect(try Self.places(trip).filter { $0["nameSource"] as? String == "nominatim" }.map { $0["placeId"] as? String ?? "" }
            .reduce(into: Set<String>()) { $0.insert($1) }.count == online)
    }

    @Test("a service nothing listens for is said once as refused, in the system's words, and never as slow")
    func serviceNotListening() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // A port just freed: nothing listens there.
        let socket = freePort()
        let run = try CommandRun.run(TestPaths.binary, ["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url",
                                                        "http://127.0.0.1:\(socket)", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let messages = (try Self.summary(run)["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.filter { $0.contains("cannot be used now") }.count == 1)
        #expect(messages.contains { $0.contains("it could not be reached: Connection refused (3 tries)") }, "\(messages)")
        #expect(!messages.contains { $0.contains("slow") }, "\(messages)")
        // Nothing reached it, so nothing was sent.
        #expect(Self.named(try Self.summary(run))["requests"] == 0)
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("429 with Retry-After: 0, 503 and dropped connections are tried again; tries are bounded")
    func retries() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for mode in ["flaky", "throttle", "drop"] {
            let server = try FakeNominatim(in: temp, mode: mode)
            let trip = try temp.copySampleImages(to: mode)
            let run = try Self.ingest(trip, server)
            #expect(run.status == 0, "\(mode): \(run.stderr)")
            let named = Self.named(try Self.summary(run))
            #expect(named["online"] == 11, "\(mode)")
            // Each distinct request failed once and then succeeded: exactly two tries each.
            let tries = Dictionary(grouping: server.requests.compactMap { ($0["query"] as? [String: String]).map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&") } }) { $0 }
            #expect(tries.values.allSatisfy { $0.count == 2 }, "\(mode): \(tries.mapValues(\.count).filter { $0.value != 2 })")
            #expect(named["requests"] == server.requests.count, "\(mode)")
        }
    }

    @Test("an answer that does not read is that place's problem, named with its field; the others are named")
    func malformedAnswers() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for (mode, words) in [("malformed", "it is not JSON"), ("wrongtype", "the field 'address' is not what Nominatim sends"),
                              ("elsewhere", "km from the one asked about")] {
            let server = try FakeNominatim(in: temp, mode: mode)
            let trip = try temp.copySampleImages(to: mode)
            let run = try Self.ingest(trip, server)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let summary = try Self.summary(run)
            let spanish = try Self.places(trip).filter { $0["countryCode"] as? String == "ES" }
            #expect(!spanish.isEmpty && spanish.allSatisfy { $0["nameSource"] as? String == "offline" })
            #expect(Self.named(summary)["failed"] == Set(spanish.compactMap { $0["placeId"] as? String }).count)
            let messages = (summary["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            #expect(messages.contains { $0.contains(words) && $0.contains("place p") }, "\(messages)")
            #expect(try Self.places(trip).filter { $0["countryCode"] as? String == "PT" }.allSatisfy { $0["nameSource"] as? String == "nominatim" })
            // In the text summary: the places' own sentences, not "files".
            let text = try CommandRun.geotrip(["ingest", trip.path, "--rate", "50"])
            if mode == "malformed" {
                // Asked again alone, the places answered with web pages come three in a row: the
                // service cannot be used now (a sign-in page answers so), said once.
                #expect(text.stdout.contains("cannot be used now: its answers are not JSON (3 in a row"), "\(text.stdout)")
                // It comes first, and the places' own sentences, alike, make one line.
                let lines = text.stdout.split(separator: "\n").map(String.init)
                let service = lines.firstIndex { $0.contains("cannot be used now") }, place = lines.firstIndex { $0.contains("cannot be read: it is not JSON") }
                #expect(service != nil && (place == nil || service! < place!), "\(text.stdout)")
                #expect(lines.filter { $0.contains("cannot be read: it is not JSON") }.count <= 1 && !text.stdout.contains("… and"), "\(text.stdout)")
            } else {
                #expect(text.stdout.contains(": The place-name service's answer for place p") && text.stdout.contains(words), "\(text.stdout)")
                // The same fault of every place of Spain is one line, its places after it.
                #expect(text.stdout.split(separator: "\n").filter { $0.contains(words) }.count == 1 && text.stdout.contains(" The same for "),
                        "\(text.stdout)")
            }
            #expect(!text.stdout.contains("files: place names"), "\(text.stdout)")
        }
    }

    @Test("a service answering every request with a web page (a network's sign-in page) cannot be used: three answers, said once, not one per place")
    func signInPage() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "portal")
        let trip = try temp.copySampleImages()
        let run = try Self.ingest(trip, server, ["--concurrency", "1"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // 11 places; three answers that are not JSON in a row end the asking.
        #expect(server.requests.count == 3, "\(server.requests.count)")
        let messages = (try Self.summary(run)["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.filter { $0.contains("cannot be used now: its answers are not JSON (3 in a row") }.count == 1, "\(messages)")
        // Said once: not also as each place's unreadable answer.
        #expect(!messages.contains { $0.contains("cannot be read: it is not JSON") }, "\(messages)")
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" })
    }

    @Test("an answer over 4 MiB is not asked for again: the service is unusable for the run, said once")
    func answerTooLarge() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "bloated")
        let trip = try temp.copySampleImages()
        let run = try Self.ingest(trip, server, ["--concurrency", "1"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // One request: such an answer is no passing fault (it was tried three times).
        #expect(server.requests.count == 1, "\(server.requests.count)")
        let messages = (try Self.summary(run)["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.filter { $0.contains("its answer was larger than 4 MiB") }.count == 1, "\(messages)")
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" })
    }

    @Test("waiting out a Retry-After is not a slow service; a wait over 3 s asked is said once, as asked")
    func retryAfterIsNotSlow() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "wait4")
        let run = try Self.ingest(try temp.copySampleImages(), server)
        let summary = try Self.summary(run)
        #expect(Self.named(summary)["online"] == 11)
        let said = (summary["diagnostics"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "naming-slow" }.compactMap { $0["message"] as? String }
        #expect(said.count == 1 && said[0].hasPrefix("the place-name service asked to be sent nothing for a while (Retry-After): waiting 4 s; "), "\(said)")
        // It did wait: the second request about the first point came 4 s after the first, and
        // so did every other (two places are asked at once): none went while the server had
        // asked to wait, but one sent before its answer came.
        let times = server.requests.compactMap { $0["t"] as? Double }
        #expect(times.count >= 2 && times.max()! - times.min()! >= 3.9)
        let during = times.filter { $0 > times.min()! + 0.5 && $0 < times.min()! + 3.9 }
        #expect(during.isEmpty, "\(during.count) requests while the server had asked to wait")
    }

    @Test("a server that asks to wait again once its wait is over is given up for the run, whatever the concurrency")
    func waitsAgainAndAgain() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "waitever")
        let trip = try temp.copySampleImages()
        let run = try Self.ingest(trip, server, ["--concurrency", "8"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try Self.summary(run)
        let messages = (summary["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("cannot be used now") && $0.contains("Retry-After), and again once each wait is over") }, "\(messages)")
        // The requests in flight before the first refusal, and one after the wait: not three
        // tries for each place in flight, each waiting its turn behind the others' waits (24).
        #expect(server.requests.count <= 9, "\(server.requests.count) requests")
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" })
    }

    @Test("an online name with a country code alone takes the offline country's name and region, in places --json and the GeoJSON")
    func countryCodeAlone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "codeonly")
        let trip = try temp.copySampleImages()
        #expect(try Self.ingest(trip, server).status == 0)
        let places = try Self.places(trip)
        #expect(places.contains { $0["nameSource"] as? String == "nominatim" }, "online names: the case tests something")
        for place in places {
            #expect(place["country"] as? String != nil && place["admin1"] as? String != nil, "\(place)")
        }
        let geojson = try String(contentsOf: trip.appendingPathComponent("geotrip/trip.geojson"), encoding: .utf8)
        #expect(!geojson.contains("\"country\":null") && geojson.contains("\"country\":\"Portugal\""), "\(geojson.prefix(600))")
    }

    @Test("an answer about a vast area whose middle is far off, but whose box holds the place, names it")
    func vastArea() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "vast")
        let trip = try temp.copySampleImages()
        let run = try Self.ingest(trip, server)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let named = Self.named(try Self.summary(run))
        #expect(named["online"] == 11 && named["failed"] == 0, "\(named)")
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "nominatim" })
    }

    @Test("a slow service is said once")
    func slowness() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let slow = try FakeNominatim(in: temp, mode: "slow")
        let run = try Self.ingest(try temp.copySampleImages(), slow)
        let summary = try Self.summary(run)
        #expect(Self.named(summary)["online"] == 11)
        let kinds = try #require(summary["diagnosticKinds"] as? [[String: Any]])
        #expect(kinds.first { $0["kind"] as? String == "naming-slow" }?["count"] as? Int == 1)
        #expect((summary["diagnostics"] as? [[String: Any]])?.contains { ($0["message"] as? String)?.contains("queued") == true } == true)
        // Said as it happens on standard error too, once, though it is not a terminal.
        #expect(run.stderr.components(separatedBy: "queued").count == 2 && run.stderr.hasPrefix("geotrip: "), "stderr: \(run.stderr)")
    }

    @Test("while names are in flight, rename and tag work from another terminal and win over the answers")
    func guardWhileInFlight() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        let before = try Self.places(trip)
        let ids = Array(Set(before.compactMap { $0["placeId"] as? String })).sorted()
        let renamed = try #require(ids.first), moved = try #require(ids.last)

        let server = try FakeNominatim(in: temp, mode: "hold")
        let naming = try CommandRun.launch(["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", "50",
                                            "--timeout", "120", "--json"])
        #expect(server.waitForRequests(1), "the ingest never asked")
        // The ingest is waiting on the network, holding no lock.
        let rename = try CommandRun.geotrip(["rename", trip.path, renamed, "Our picnic"])
        #expect(rename.status == 0, "stderr: \(rename.stderr)")
        let visit = try #require(before.first { $0["placeId"] as? String == moved })
        let photos = before.filter { $0["placeId"] as? String == moved }.flatMap { $0["photos"] as? [String] ?? [] }
        let lat = try #require(visit["latitude"] as? Double), lon = try #require(visit["longitude"] as? Double)
        let tag = try CommandRun.geotrip(["tag", trip.path] + photos + ["--at", String(format: "%.6f,%.6f", lat + 0.01, lon)])
        #expect(tag.status == 0, "stderr: \(tag.stderr)")
        try server.control("release")
        let run = naming.wait()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let named = Self.named(try Self.summary(run))
        #expect((named["stale"] ?? 0) >= 1)

        let after = try Self.places(trip)
        #expect(after.filter { $0["placeId"] as? String == renamed }.allSatisfy { $0["name"] as? String == "Our picnic" && $0["nameSource"] as? String == "manual" })
        // No request about the renamed place after the rename was ever stored; the moved
        // place was asked about where it is now.
        let movedNow = after.filter { photos.contains(($0["photos"] as? [String])?.first ?? "") }
        #expect(!movedNow.isEmpty && movedNow.allSatisfy { $0["nameSource"] as? String == "nominatim" })
        let askedAt = server.requests.compactMap { ($0["query"] as? [String: String])?["lat"].flatMap(Double.init) }
        #expect(askedAt.contains { abs($0 - (lat + 0.01)) < 0.001 })
        // And a rerun has nothing left to ask, the renamed place included.
        let count = server.requests.count
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--rate", "50"]).status == 0)
        #expect(server.requests.count == count)
    }

    @Test("rename says the name the place shows: an online one in another language, kept through a refresh that failed")
    func renameSaysTheNameShown() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        #expect(try Self.ingest(trip, server, ["--lang", "en"]).status == 0)
        try server.control("mode?m=fail")
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--lang", "de", "--rate", "50"]).status == 0)
        let place = try #require(try Self.places(trip).first { $0["nameSource"] as? String == "nominatim" })
        let shown = try #require(place["name"] as? String), id = try #require(place["placeId"] as? String)
        let renamed = try CommandRun.geotrip(["rename", trip.path, id, "Mine"])
        #expect(renamed.status == 0 && renamed.stdout.contains("(was \(shown))."), "\(renamed.stdout)")
        let cleared = try CommandRun.geotrip(["rename", trip.path, id, "--clear"])
        #expect(cleared.status == 0 && cleared.stdout.contains("named automatically again: \(shown)."), "\(cleared.stdout)")
    }

    @Test("tag --place searches the online service by a sight's name; ambiguity is shown; an outage falls back to the gazetteer")
    func tagByOnlineSearch() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        #expect(try Self.ingest(trip, server).status == 0)
        let undated = "2025-06-11 Sintra/DSCF1004.JPG"  // no date, no GPS: nothing else can place it
        let tagged = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Torre de Belém"])
        #expect(tagged.status == 0, "stderr: \(tagged.stderr)")
        #expect(tagged.stdout.contains("Belém Tower, Lisbon, Portugal (PT)"), "stdout: \(tagged.stdout)")
        #expect(server.requests.contains { $0["path"] as? String == "/search" && ($0["query"] as? [String: String])?["q"] == "Torre de Belém" })
        let listed = try CommandRun.geotrip(["photos", trip.path, "--json"])
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let photo = try #require(photos.first { $0["path"] as? String == undated })
        #expect(photo["locationSource"] as? String == "manual")
        #expect(abs((photo["latitude"] as? Double ?? 0) - 38.6916) < 1e-4)

        // A result at 0,0 or off the globe is no place; the photo keeps its tag.
        for query in ["Null Island", "Off the globe"] {
            let nowhere = try CommandRun.geotrip(["tag", trip.path, undated, "--place", query])
            #expect(nowhere.status == 1 && nowhere.stderr.contains("No place is named"), "\(query): \(nowhere.stderr)")
        }
        #expect(try CommandRun.geotrip(["photos", trip.path, "--json"]).stdout.contains("38.6916"))
        // Nothing found is not kept: asked again, it is asked again.
        for _ in 0..<2 {
            let nowhere = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Nowhere at all"])
            #expect(nowhere.status == 1 && nowhere.stderr.contains("No place is named \"Nowhere at all\" by the place-name service at ")
                    && nowhere.stderr.contains(", nor in geotrip's own list of towns"), "\(nowhere.stderr)")
        }
        #expect(server.requests.filter { ($0["query"] as? [String: String])?["q"] == "Nowhere at all" }.count == 2)
        // A town the service does not know (a regional service's data), but geotrip's own list
        // does, in another script too: found there, and said so.
        for (query, found) in [("Sintra", "Sintra, Lisboa, Portugal (PT)"), ("서울", "Seoul")] {
            let town = try CommandRun.geotrip(["tag", trip.path, undated, "--place", query])
            #expect(town.status == 0 && town.stdout.contains(found) && town.stdout.contains("from geotrip's own list of towns (")
                    && town.stdout.contains(" found no place of that name)."), "\(query): \(town.stdout) \(town.stderr)")
        }
        #expect(try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Torre de Belém"]).status == 0)

        let ambiguous = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Centro"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("Madrid") && ambiguous.stderr.contains("Sevilla"), "stderr: \(ambiguous.stderr)")
        // Both in Spain: a region narrows them, not the country.
        #expect(ambiguous.stderr.contains("such as \"Centro, Madrid\" or \"Centro, Sevilla\","), "stderr: \(ambiguous.stderr)")
        // Named alike to the last word, they are told apart by where they are.
        let alike = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Same"])
        #expect(alike.status == 1 && alike.stderr.contains(" at 38.7000,-9.1400; ") && alike.stderr.contains(" at 38.7500,-9.2000."), "\(alike.stderr)")

        // A network's sign-in page answering in the service's place: the gazetteer, as in an outage.
        try server.control("mode?m=portal")
        let portal = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Sintra, PT"])
        #expect(portal.status == 0 && portal.stdout.contains("Sintra, Lisboa, Portugal (PT), from geotrip's own list of towns"), "\(portal.stdout) \(portal.stderr)")
        try server.control("mode?m=fail")
        let offline = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Sintra, PT"])
        #expect(offline.status == 0 && offline.stdout.contains("Sintra, Lisboa, Portugal (PT), from geotrip's own list of towns"),
                "stdout: \(offline.stdout) stderr: \(offline.stderr)")
        // A sight the towns do not hold: the service's outage is said, not a spelling mistake.
        let sight = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Torre de Belém"])
        #expect(sight.status == 1 && sight.stderr.contains("cannot be used now") && !sight.stderr.contains("Check the spelling"), "\(sight.stderr)")
        // A search answered with an object, not a list: said as such, with /search's advice.
        try server.control("mode?m=searchobj")
        let object = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "Torre de Belém"])
        #expect(object.status == 1 && object.stderr.contains("it is JSON, but not the list of results Nominatim sends")
                && object.stderr.contains("/search"), "\(object.stderr)")

        // A name's control characters are no part of it, and none reaches the terminal; a + in
        // the query is one.
        try server.control("mode?m=ok")
        let hostile = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "C++ Bar"])
        #expect(hostile.status == 0, "stderr: \(hostile.stderr)")
        #expect(!hostile.stdout.contains("\u{1B}") && !hostile.stdout.contains("\u{07}") && hostile.stdout.contains("Evil]0;PWNED[2J FAKE"), "\(hostile.stdout)")
        #expect(server.requests.contains { ($0["query"] as? [String: String])?["q"] == "C++ Bar" })
        // No name names nothing: not sent, and refused as offline.
        let asked = server.requests.count
        let blank = try CommandRun.geotrip(["tag", trip.path, undated, "--place", "  "])
        #expect(blank.status == 64 && server.requests.count == asked, "\(blank.stderr)")
    }

    @Test("a run stopped while names are in flight (Ctrl-C, kill -9) loses nothing; the next run carries on")
    func stoppedWhileNaming() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp, mode: "hold")
        for signal in [SIGINT, SIGKILL] {
            let naming = try CommandRun.launch(["ingest", trip.path, "--geocoder", "nominatim", "--nominatim-url", server.url, "--rate", "50",
                                                "--timeout", "120", "--quiet"])
            #expect(server.waitForRequests(server.requests.count + 1), "the ingest never asked")
            naming.send(signal)
            let run = naming.wait()
            // Ctrl-C cancels the requests in flight and exits as interrupted; kill -9 just ends it.
            #expect(run.status == (signal == SIGINT ? 130 : 0) || signal == SIGKILL, "status \(run.status) stderr: \(run.stderr)")
            #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "offline" })
        }
        try server.control("mode?m=ok")
        let run = try Self.ingest(trip, server)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(Self.named(try Self.summary(run))["online"] == 11)
        #expect(try Self.places(trip).allSatisfy { $0["nameSource"] as? String == "nominatim" })
    }

    @Test("no request is ever sent about a place inside a --hide-near zone")
    func privacyZones() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        let run = try Self.ingest(trip, server, ["--hide-near", "38.6916,-9.2160,1000"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = server.requests.compactMap { $0["query"] as? [String: String] }
            .compactMap { q in q["lat"].flatMap(Double.init).flatMap { lat in q["lon"].flatMap(Double.init).map { (lat, $0) } } }
        #expect(!asked.isEmpty)
        // Nothing within 1 km of the tower (on the sphere, haversine).
        func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let radians = Double.pi / 180, dLat = (b.0 - a.0) * radians, dLon = (b.1 - a.1) * radians
            let h = pow(sin(dLat / 2), 2) + cos(a.0 * radians) * cos(b.0 * radians) * pow(sin(dLon / 2), 2)
            return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
        }
        #expect(asked.allSatisfy { metres($0, (38.6916, -9.2160)) > 1000 }, "\(asked)")
        // The tower is the one place inside; it keeps its offline name.
        #expect(Self.named(try Self.summary(run))["online"] == 10)
        #expect(try Self.places(trip).filter { $0["nameSource"] as? String == "offline" }.count == 1)
    }

    @Test("a visit whose every photo lies inside two zones, its centre between them, is private: never sent, and on its zone's clock in the journal")
    func privateBetweenTwoZones() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let server = try FakeNominatim(in: temp)
        // Belém's photos (the tower, 2025-06-10 10:05–10:21 WEST) split between two small zones
        // whose edges leave the visit's centre outside both (helper-69's case).
        let zones = ["--hide-near", "38.69140,-9.21625,22", "--hide-near", "38.69186,-9.21601,10"]
        let run = try Self.ingest(trip, server, zones)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let belem = try #require(try Self.places(trip).first { ($0["photos"] as? [String])?.contains("2025-06-10 Lisboa/IMG_0004.JPG") == true })
        #expect(belem["nameSource"] as? String == "offline", "\(belem)")
        let asked = server.requests.compactMap { $0["query"] as? [String: String] }.compactMap { $0["lat"].flatMap(Double.init) }
        #expect(!asked.isEmpty && !asked.contains { abs($0 - 38.6916) < 0.002 }, "\(asked)")
        let page = try String(contentsOf: trip.appendingPathComponent("geotrip/journal/2025-06-10.md"), encoding: .utf8)
        #expect(page.contains("## 10:05–10:21 WEST · Private place"), "\(page)")
    }

    @Test("what the outputs keep private is what is never sent: a visit placed only from one private between two zones, and a place's name kept private beside its zone")
    func keptPrivateIsNeverSent() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp)
        // Metres east of F, on its parallel.
        let f = (latitude: 38.7100, longitude: -9.1400)
        func east(_ metres: Double) -> (latitude: Double, longitude: Double) { (f.latitude, f.longitude + metres / (111_195 * cos(f.latitude * .pi / 180))) }
        // 08:00–08:18 a walk between two 50 m zones 200 m apart (every photo inside one, the
        // centre between them); three photos without a position at 08:30–08:32, placed from it
        // and the next stop; the next stop 3 km east at 08:45 (helper-70's case).
        let trip = temp.url.appendingPathComponent("between")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        var shots: [(String, (latitude: Double, longitude: Double)?)] = (0..<10).map { (String(format: "08:%02d", $0 * 2), east($0 % 2 == 0 ? 0 : 200)) }
        shots += (0..<3).map { (String(format: "08:%02d", 30 + $0), nil) } + (0..<4).map { (String(format: "08:%02d", 45 + 2 * $0), east(3_000)) }
        for (index, (time, at)) in shots.enumerated() {
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent(String(format: "P%03d.jpg", index)), dateTime: "2025:06:10 \(time):00", offset: "+01:00", at: at))
        }
        let zones = ["--hide-near", "\(f.latitude),\(f.longitude),50", "--hide-near", "\(east(200).latitude),\(east(200).longitude),50"]
        let run = try Self.ingest(trip, server, zones + ["--no-thumbnails"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = server.requests.compactMap { $0["query"] as? [String: String] }.compactMap { $0["lon"].flatMap(Double.init) }
        #expect(!asked.isEmpty && asked.allSatisfy { abs($0 - east(3_000).longitude) < 0.002 }, "\(asked)")
        let page = try String(contentsOf: trip.appendingPathComponent("geotrip/journal/2025-06-10.md"), encoding: .utf8)
        #expect(page.components(separatedBy: "· Private place").count == 3, "\(page)")

        // A place whose centre lies inside an 80 m zone, though a visit of it is shown 240 m
        // away (its photos at the zone hidden): the name given to the place is shown nowhere.
        let flat = temp.url.appendingPathComponent("flat")
        try FileManager.default.createDirectory(at: flat, withIntermediateDirectories: true)
        var index = 0
        for (day, hour, count, metres) in [(10, 8, 6, 0.0), (10, 9, 6, -240.0), (11, 8, 4, 0.0), (12, 8, 4, 0.0), (12, 11, 2, -50_000.0)] {
            for minute in 0..<count {
                #expect(try ExiftoolPhoto.write(to: flat.appendingPathComponent(String(format: "F%03d.jpg", index)),
                                                dateTime: String(format: "2025:06:%02d %02d:%02d:00", day, hour, minute * 2), offset: "+01:00", at: east(metres)))
                index += 1
            }
        }
        #expect(try CommandRun.geotrip(["ingest", flat.path, "--quiet", "--no-thumbnails", "--hide-near", "\(f.latitude),\(f.longitude),80"]).status == 0)
        let visits = try Self.places(flat)
        let shown = try #require(visits.first { ($0["photos"] as? [String])?.contains("F006.jpg") == true })
        let place = try #require(shown["placeId"] as? String)
        #expect(try CommandRun.geotrip(["rename", flat.path, place, "--", "Our flat (secret)"]).status == 0)
        for file in ["journal/2025-06-10.md", "index.html", "trip.geojson"] {
            let text = try String(contentsOf: flat.appendingPathComponent("geotrip/" + file), encoding: .utf8)
            #expect(!text.contains("secret"), "\(file)")
        }
    }

    @Test("nothing is sent anywhere by default, and the options are checked")
    func offlineByDefault() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let run = try CommandRun.geotrip(["ingest", trip.path, "--json"])
        let named = Self.named(try Self.summary(run))
        #expect(named["online"] == 0 && named["requests"] == 0 && named["offline"] == 11)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--geocoder", "bing"]).status == 64)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--nominatim-url", "ftp://x"]).status == 64)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--contact", "me\r\nX-Evil: 1"]).status == 64)
    }
}
