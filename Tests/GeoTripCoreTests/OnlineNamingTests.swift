import AsyncHTTPClient
import Foundation
import GRDB
import GeoTripTestSupport
import Synchronization
import Testing
@testable import GeoTripCore

/// A clock that never sleeps: sleeping moves its time on, and each wait is recorded.
final class VirtualClock: NamingClock {
    private let state: Mutex<(now: Double, waits: [Double])>

    init(at start: Double = 1_000_000) {
        state = Mutex((start, []))
    }

    func now() -> Double { state.withLock { $0.now } }

    func sleep(until moment: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            if moment > $0.now {
                $0.waits.append(moment - $0.now)
                $0.now = moment
            }
        }
    }

    func advance(_ seconds: Double) { state.withLock { $0.now += seconds } }

    var waits: [Double] { state.withLock { $0.waits } }
}

/// The online namer's parts on an injected clock: the machine-wide turns, backoff, retries,
/// the zoom rule and the public server's cap. (The answer rule: `NominatimAnswerTests`.)
@Suite("online naming")
struct OnlineNamingTests {
    @Test("turns claimed through two handles on one cache file are an interval apart, and a clock set back does not stall")
    func turnsAcrossHandles() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let environment = ["XDG_CACHE_HOME": temp.url.path]
        let one = try NamingCache.shared(environment: environment), two = try NamingCache.shared(environment: environment)
        #expect(one.path == temp.url.path + "/geotrip/names.sqlite")
        // Given two processes asking at the same moments, when they claim turns in turn,
        // then every turn is at least the interval after the one before.
        var turns: [Double] = []
        for index in 0..<10 {
            let cache = index % 2 == 0 ? one : two
            turns.append(try cache.claimTurn(server: "http://a", interval: 0.5, now: 100 + Double(index) * 0.1))
        }
        #expect(zip(turns, turns.dropFirst()).allSatisfy { $1 - $0 >= 0.5 - 1e-9 })
        #expect(turns.first == 100)
        // Another server has its own budget.
        #expect(try one.claimTurn(server: "http://b", interval: 0.5, now: 100) == 100)
        // A turn 10 minutes or more ahead is a clock set back: not waited for.
        _ = try one.claimTurn(server: "http://c", interval: 2000, now: 100)
        #expect(try two.claimTurn(server: "http://c", interval: 1, now: 101) == 101)
    }

    @Test("a cache whose turns fail mid-run is said once, and the run's own turns keep the requests an interval apart")
    func damagedCacheTurns() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let cache = try NamingCache.shared(environment: ["XDG_CACHE_HOME": temp.url.path])
        // The file opened, then lost its table of turns (a damaged page reads as much).
        try DatabaseQueue(path: try #require(cache.path)).write { try $0.execute(sql: "DROP TABLE serverTurn") }
        let clock = VirtualClock()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? http.syncShutdown() }
        let client = NominatimClient(settings: NamingSettings(geocoder: "nominatim", nominatimURL: "http://127.0.0.1:9", language: "en"),
                                     http: http, cache: cache, clock: clock, requestsPerSecond: 2)
        // Given requests that ask for their turns at the same moment, when the shared turns
        // fail, then each still gets its own, half a second after the one before.
        let turns = (0..<5).map { _ in client.claimTurn(at: clock.now()) }
        #expect(zip(turns, turns.dropFirst()).allSatisfy { $1 - $0 >= 0.5 - 1e-9 }, "\(turns)")
        #expect(client.tally.cacheProblem?.contains("serverTurn") == true, "\(client.tally.cacheProblem ?? "nil")")
    }

    @Test("a server is given up for asking to wait only when two requests sent after a wait are refused so, no answer between")
    func refusedAfterWait() {
        let tally = NamingTally()
        // Four requests in flight at 0 to 0.3 s, all refused: one wait, until 2 s.
        for sent in [0.0, 0.1, 0.2, 0.3] { #expect(!tally.recordHold(sentAt: sent, until: 2 + sent / 10)) }
        // After it, one refused: not yet (an answer may be on its way).
        #expect(!tally.recordHold(sentAt: 2.1, until: 4.1))
        // An answer: the count starts again.
        tally.answered()
        #expect(!tally.recordHold(sentAt: 4.2, until: 6.2) && !tally.recordHold(sentAt: 6.3, until: 8.3))
        // A second refusal after a wait, no answer between: given up, and stays so.
        #expect(tally.recordHold(sentAt: 8.4, until: 10.4) && tally.givenUpWaiting)
        #expect(tally.recordHold(sentAt: 0, until: 1))
    }

    @Test("backoff doubles from half a second, is capped, spread by jitter, and honours Retry-After within reason")
    func backoff() {
        #expect(NominatimClient.backoff(afterTry: 1, retryAfter: 0, jitter: 1) == 0.5)
        #expect(NominatimClient.backoff(afterTry: 2, retryAfter: 0, jitter: 1) == 1)
        #expect(NominatimClient.backoff(afterTry: 2, retryAfter: 0, jitter: 0.5) == 0.5)
        #expect(NominatimClient.backoff(afterTry: 10, retryAfter: 0, jitter: 1) == 8)
        #expect(NominatimClient.backoff(afterTry: 1, retryAfter: 5, jitter: 1) == 5)
        #expect(NominatimClient.backoff(afterTry: 1, retryAfter: 3600, jitter: 1) == 32)
    }

    @Test("against a server that answers 503, three tries with backoff waits on the injected clock, each in its turn")
    func retriesOnInjectedClock() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "fail")
        let clock = VirtualClock()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let settings = NamingSettings(geocoder: "nominatim", nominatimURL: server.url, language: "en")
        let client = NominatimClient(settings: settings, http: http, cache: .inMemory(), clock: clock, requestsPerSecond: 0.25)
        let namer = NominatimPlaceNamer(client: client, concurrency: 1)
        let answers = try await namer.names(for: [NamedFor(placeID: "p1", revision: 1, centre: Coordinate(latitude: 40.4, longitude: -3.7), radiusMeters: 500)])
        guard case .failure(.namingUnavailable)? = answers.first else { Issue.record("\(answers)"); return }
        try await http.shutdown()
        #expect(server.requests.count == 3)
        #expect(client.tally.requests == 3)
        // Between tries: a backoff (0.25-0.5 s, then 0.5-1 s), then the wait for the next turn
        // (4 s apart at 0.25 a second), all on the virtual clock.
        let waits = clock.waits
        #expect(waits.count == 4, "\(waits)")
        #expect((0.25...0.5).contains(waits[0]) && (0.5...1).contains(waits[2]))
        #expect(abs(waits[0] + waits[1] - 4) < 1e-6 && abs(waits[2] + waits[3] - 4) < 1e-6)
    }

    @Test("a server that sends its head and then stalls runs out of time like one that sends nothing", .timeLimit(.minutes(10)))
    func stalledBody() async throws {
        let (answer, requests) = try await Self.nameMadrid(mode: "stall", timeoutSeconds: 1)
        guard case .failure(.namingUnavailable(_, let reason)) = answer else { Issue.record("\(answer)"); return }
        #expect(reason == "it did not answer in time (3 tries)")
        #expect(requests == 3)
    }

    /// A place in Madrid named by a fake server in `mode`, on a virtual clock: its answer, and
    /// how many requests the server had.
    static func nameMadrid(mode: String, timeoutSeconds: Int64 = 10) async throws -> (Result<PlaceName?, GeoTripError>, Int) {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: mode)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let settings = NamingSettings(geocoder: "nominatim", nominatimURL: server.url, language: "en")
        let client = NominatimClient(settings: settings, http: http, cache: .inMemory(), clock: VirtualClock(), requestsPerSecond: 100,
                                     timeoutSeconds: timeoutSeconds)
        let answers = try await NominatimPlaceNamer(client: client, concurrency: 1)
            .names(for: [NamedFor(placeID: "p1", revision: 1, centre: Coordinate(latitude: 40.4, longitude: -3.7), radiusMeters: 500)])
        try await http.shutdown()
        return (try #require(answers.first), server.requests.count)
    }

    @Test("a service behind a password (user:password@host) is sent them as HTTP Basic authentication (RFC 7617), not in the URL; the shared cache keeps neither it nor a key")
    func basicAuthentication() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "ok")
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let url = server.url.replacingOccurrences(of: "http://", with: "http://alice:s3cret@") + "?key=T0KEN"
        let cache = try NamingCache.shared(environment: ["XDG_CACHE_HOME": temp.url.appendingPathComponent("cache").path])
        let client = NominatimClient(settings: NamingSettings(geocoder: "nominatim", nominatimURL: url, language: "en"), http: http,
                                     cache: cache, clock: VirtualClock(), requestsPerSecond: 100)
        _ = try await NominatimPlaceNamer(client: client, concurrency: 1)
            .names(for: [NamedFor(placeID: "p1", revision: 1, centre: Coordinate(latitude: 40.4, longitude: -3.7), radiusMeters: 500)])
        try await http.shutdown()
        // base64("alice:s3cret"), as RFC 7617's example does it.
        #expect(!server.requests.isEmpty && server.requests.allSatisfy { $0["authorization"] as? String == "Basic YWxpY2U6czNjcmV0" })
        #expect(server.requests.allSatisfy { ($0["host"] as? String)?.contains("alice") == false })
        // The cache, in the home folder, knows the server by the URL messages show.
        let folder = temp.url.appendingPathComponent("cache/geotrip")
        let bytes = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .map { try Data(contentsOf: folder.appendingPathComponent($0)) }.reduce(Data(), +)
        #expect(bytes.range(of: Data("alice:…@127.0.0.1".utf8)) != nil, "the answer was cached under the server's shown URL")
        #expect(bytes.range(of: Data("s3cret".utf8)) == nil && bytes.range(of: Data("T0KEN".utf8)) == nil)
    }

    @Test("a Retry-After holds back every request to the server, in every process sharing the cache, not only the one refused")
    func retryAfterHoldsEveryone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let environment = ["XDG_CACHE_HOME": temp.url.path]
        let one = try NamingCache.shared(environment: environment), two = try NamingCache.shared(environment: environment)
        _ = try one.claimTurn(server: "http://a", interval: 0.5, now: 100)
        try one.holdOff(server: "http://a", until: 110, interval: 0.5)
        // A turn claimed now is not before the hold ends; a request whose turn came before it waits too.
        #expect(try two.claimTurn(server: "http://a", interval: 0.5, now: 101) == 110)
        #expect(try two.recordSend(server: "http://a", interval: 0.5, now: 102) == 110)
        #expect(try two.recordSend(server: "http://a", interval: 0.5, now: 110) == nil)
        // A shorter hold asked later does not shorten it; another server is not held.
        try two.holdOff(server: "http://a", until: 105, interval: 0.5)
        #expect(try one.claimTurn(server: "http://a", interval: 0.5, now: 103) >= 110)
        #expect(try one.claimTurn(server: "http://b", interval: 0.5, now: 103) == 103)
        // When the hold ends is kept apart from the turns, for a run waiting on it to say why.
        #expect(try two.heldUntil(server: "http://a", now: 103) == 110 && one.heldUntil(server: "http://b", now: 103) == 0)
        try one.holdOff(server: "http://d", until: 5000, interval: 0.5)
        #expect(try one.heldUntil(server: "http://d", now: 103) == 0, "a hold over ten minutes ahead is a clock set back")
    }

    @Test("a run whose turn waits on a hold another run was told of says that wait, once; a queue of its own turns or a short hold is not said")
    func holdFromAnotherRun() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "ok")
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let settings = NamingSettings(geocoder: "nominatim", nominatimURL: server.url, language: "en")
        func nameTwo(hold: Double?, queue: Double = 0) async throws -> (said: Double?, waits: [Double]) {
            let cache = try NamingCache.shared(environment: ["XDG_CACHE_HOME": temp.url.appendingPathComponent("cache-\(hold ?? -queue)").path])
            let clock = VirtualClock()
            // Another run, told to hold off (`Retry-After`), or with turns claimed ahead.
            if let hold { try cache.holdOff(server: settings.cacheServer, until: clock.now() + hold, interval: 0.01) }
            if queue > 0 { _ = try cache.claimTurn(server: settings.cacheServer, interval: queue, now: clock.now()) }
            let client = NominatimClient(settings: settings, http: http, cache: cache, clock: clock, requestsPerSecond: 100)
            _ = try await NominatimPlaceNamer(client: client, concurrency: 1).names(for: [
                NamedFor(placeID: "p1", revision: 1, centre: Coordinate(latitude: 40.4, longitude: -3.7), radiusMeters: 500),
                NamedFor(placeID: "p2", revision: 1, centre: Coordinate(latitude: 41.4, longitude: 2.17), radiusMeters: 500),
            ])
            return (client.tally.holdNotice(), clock.waits)
        }
        let held = try await nameTwo(hold: 6)
        #expect(held.said.map { abs($0 - 6) < 1e-6 } == true, "\(held)")
        #expect(held.waits.first.map { abs($0 - 6) < 1e-6 } == true, "it waited out the hold: \(held.waits)")
        let short = try await nameTwo(hold: 2)
        #expect(short.said == nil && short.waits.first.map { abs($0 - 2) < 1e-6 } == true, "\(short)")
        let queued = try await nameTwo(hold: nil, queue: 5)
        #expect(queued.said == nil && queued.waits.first.map { abs($0 - 5) < 1e-6 } == true, "\(queued)")
        try await http.shutdown()
    }

    @Test("sixteen requests in flight have sixteen connections: none waits inside the HTTP client for another's")
    func aConnectionEach() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let server = try FakeNominatim(in: temp, mode: "hold")
        let http = NominatimClient.makeHTTPClient()
        let client = NominatimClient(settings: NamingSettings(geocoder: "nominatim", nominatimURL: server.url, language: "en"), http: http,
                                     cache: .inMemory(), requestsPerSecond: 100, timeoutSeconds: 300)
        let places = (0..<NominatimClient.maximumConcurrency).map {
            NamedFor(placeID: "p\($0)", revision: 1, centre: Coordinate(latitude: 40 + Double($0) * 0.01, longitude: -3.7), radiusMeters: 500)
        }
        let naming = Task { try await NominatimPlaceNamer(client: client, concurrency: NominatimClient.maximumConcurrency).names(for: places) }
        // The server holds every answer: all sixteen arrive only if each went on a connection
        // of its own (the client's pool had 8 a host). Waited for without blocking a thread:
        // the requests are sent from the same pool of threads. (No request runs out of time
        // meanwhile, on however slow a machine: none is sent twice.)
        for _ in 0..<600 where server.requests.count < NominatimClient.maximumConcurrency {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(server.requests.count == NominatimClient.maximumConcurrency)
        try server.control("release")
        _ = try await naming.value
        try await http.shutdown()
    }

    @Test("runs making the shared cache at once all use it: none finds it damaged")
    func cacheMadeAtOnce() async throws {
        for _ in 0..<20 {
            let temp = try TemporaryFolder()
            defer { temp.remove() }
            let environment = ["XDG_CACHE_HOME": temp.url.path]
            let opened = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 { group.addTask { (try? NamingCache.shared(environment: environment)) != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(opened == 6)
        }
    }

    @Test("an answer about somewhere else whose bounding box holds a NaN is that place's error, not a crash")
    func notANumberBox() async throws {
        let (answer, _) = try await Self.nameMadrid(mode: "nanbox")
        guard case .failure(.namingAnswerUnreadable(_, let reason)) = answer else { Issue.record("\(answer)"); return }
        #expect(reason.hasPrefix("it is about a place 2,22"), "\(reason)")
    }

    @Test("the service's URL keeps its own query and path; redirects stay with its host; Retry-After in seconds or as an HTTP date")
    func urlsRedirectsAndRetryAfter() {
        #expect(NominatimClient.url("http://host/api?key=K", "reverse", [("lat", "1")]) == "http://host/api/reverse?key=K&lat=1")
        #expect(NominatimClient.url("http://host?key=abc", "search", [("q", "a b")]) == "http://host/search?key=abc&q=a%20b")
        #expect(NominatimClient.url("https://host/nominatim/", "reverse", [("a", "1")]) == "https://host/nominatim/reverse?a=1")
        #expect(NominatimClient.url("http://host", "search", [("q", "C++ Bar & Grill")]) == "http://host/search?q=C%2B%2B%20Bar%20%26%20Grill",
                "a + is not a space")
        // Messages show the URL without its query's values (a hosted service's key).
        #expect(NamingSettings(nominatimURL: "https://host/api?key=SECRET&x=1").shownURL == "https://host/api?key=…&x=…")
        #expect(NamingSettings(nominatimURL: "http://127.0.0.1:8080").shownURL == "http://127.0.0.1:8080")
        // Nor its password (the user's name is no secret).
        #expect(NamingSettings(nominatimURL: "https://alice:s3cret@host/api?key=K").shownURL == "https://alice:…@host/api?key=…")
        #expect(NamingSettings(nominatimURL: "https://alice@host/a@b").shownURL == "https://alice@host/a@b")
        #expect(NominatimClient.url("http://alice:s3cret@host/api", "reverse", [("a", "1")]) == "http://host/api/reverse?a=1")
        #expect(NominatimClient.credentials("http://alice:s3%40cret@host") == "alice:s3@cret" && NominatimClient.credentials("http://host") == nil)
        #expect(NominatimClient.sameServer("http://Host/a/reverse?x=1", "https://host/b/reverse?x=1") == "https://host/b/reverse?x=1")
        #expect(NominatimClient.sameServer("https://host/reverse", "/moved/reverse") == "https://host/moved/reverse")
        #expect(NominatimClient.sameServer("https://host/reverse", "http://host/reverse") == nil)  // never down to http
        #expect(NominatimClient.sameServer("http://host/reverse", "http://other/reverse") == nil)
        #expect(NominatimClient.sameServer("http://host:8080/reverse", "http://host:8443/reverse") == nil)
        #expect(NominatimClient.sameServer("http://host:8080/reverse", "/r") == "http://host:8080/r")
        let now = Date(timeIntervalSince1970: 1_764_400_000)  // 2025-11-29T07:06:40Z
        #expect(NominatimClient.retryAfter("5", now: now) == 5)
        #expect(NominatimClient.retryAfter("Sat, 29 Nov 2025 07:07:00 GMT", now: now) == 20)
        #expect(NominatimClient.retryAfter("Sat, 29 Nov 2025 07:00:00 GMT", now: now) == 0)
        #expect(NominatimClient.retryAfter("-3", now: now) == 0 && NominatimClient.retryAfter("soon", now: now) == 0 && NominatimClient.retryAfter(nil) == 0)
    }

    @Test("a name that fits several places is advised with two candidates' country codes or regions, as offline, and none made up when no label has one")
    func ambiguityAdvice() {
        let santiago = ["Santiago, Santiago Metropolitan, Chile (CL)", "Santiago, Spain (ES)", "Santiago, Chile (CL)", "Santiago, Cuba (CU)"]
        // Two answers in Chile: the countries only one answer is in come first.
        #expect(NominatimPlaceSearch.examples(query: "Santiago", labels: santiago) == ["Santiago, ES", "Santiago, CU"])
        #expect(NominatimPlaceSearch.examples(query: "Santiago", labels: ["Santiago, Santiago Metropolitan, Chile (CL)", "Santiago"]) == ["Santiago, CL"])
        #expect(NominatimPlaceSearch.examples(query: "Santiago", labels: ["Santiago", "Santiago, Spain (ES)"]) == [])
        // All in one country, or the country given already: regions only one of them is in.
        #expect(NominatimPlaceSearch.examples(query: "Centro", labels: ["Centro, Madrid, Spain (ES)", "Centro, Sevilla, Spain (ES)", "Centro, Madrid, Spain (ES)", "Centro, Málaga, Spain (ES)"])
                == ["Centro, Sevilla", "Centro, Málaga"])
        #expect(NominatimPlaceSearch.examples(query: ",Centro, ES", labels: ["Centro, Madrid, Spain (ES)", "Centro, Madrid, Spain (ES)"]) == [])
        let coded = GeoTripError.placeAmbiguous(query: "Santiago", candidates: santiago, examples: ["Santiago, CL"])
        #expect(coded.description.contains("such as \"Santiago, CL\","))
        let two = GeoTripError.placeAmbiguous(query: "Santiago", candidates: santiago, examples: ["Santiago, CL", "Santiago, ES"])
        #expect(two.description.contains("such as \"Santiago, CL\" or \"Santiago, ES\","))
        let belem = ["Belém, Lisbon", "Belém, Pará"]
        #expect(NominatimPlaceSearch.examples(query: "Belem", labels: belem) == [])
        let plain = GeoTripError.placeAmbiguous(query: "Belem", candidates: belem)
        #expect(plain.description.contains("Add a region or country to the name") && !plain.description.contains("such as"))
    }

    @Test("the zoom fits the place: building level under 100 m, then street, neighbourhood, town")
    func zoom() {
        #expect(NominatimPlaceNamer.zoom(forRadius: 0) == 18)
        #expect(NominatimPlaceNamer.zoom(forRadius: 99) == 18)
        #expect(NominatimPlaceNamer.zoom(forRadius: 100) == 17)
        #expect(NominatimPlaceNamer.zoom(forRadius: 1500) == 14)
        #expect(NominatimPlaceNamer.zoom(forRadius: 20_000) == 12)
    }

    @Test("the public server is never asked more than once a second, whatever the rate asked")
    func publicServerCap() throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? http.syncShutdown() }
        let settings = NamingSettings(geocoder: "nominatim", nominatimURL: NominatimClient.publicServer, language: "en")
        #expect(NominatimClient(settings: settings, http: http, cache: .inMemory(), requestsPerSecond: 50).interval == 1)
        let own = NamingSettings(geocoder: "nominatim", nominatimURL: "http://127.0.0.1:8080", language: "en")
        #expect(NominatimClient(settings: own, http: http, cache: .inMemory(), requestsPerSecond: 50).interval == 0.02)
    }

    @Test("the slow notice's time left: the rate's when the service keeps up with it, the service's own pace when slower")
    func slowNoticeTimeLeft() {
        // 120 places, one request a second allowed, 4 at once: answers in 2 s keep up with the rate.
        #expect(TripDerivation.slowSentence(waited: 2, queued: 120, interval: 1, concurrency: 4).hasSuffix("120 places queued, about 2 min at the current rate"))
        // Answers in 20 s, 4 at once: 5 s a place, 10 min.
        #expect(TripDerivation.slowSentence(waited: 20, queued: 120, interval: 1, concurrency: 4).hasSuffix("about 10 min at the current rate"))
        #expect(TripDerivation.slowSentence(waited: 3.4, queued: 1, interval: 1).hasPrefix("the place-name service is slow (3.4 s without an answer); 1 place queued, about 3 s"))
    }
}
