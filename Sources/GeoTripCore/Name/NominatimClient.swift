import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Asks a Nominatim-compatible service the way its operators ask to be used: an answer known
/// to the shared cache is never asked again; every request waits for its turn in the machine's
/// budget for that server; a User-Agent that names geotrip (and the person's contact).
///
/// Timeouts, connection errors, 429 and 5xx are tried again, at most `maximumTries` times in
/// all, after a capped exponential backoff with jitter, and never sooner than a `Retry-After`
/// asks (every try also waits its turn, so the rate's floor holds). Other answers are not
/// retried. Time comes from the injected `NamingClock`.
public struct NominatimClient: Sendable {
    /// The public OpenStreetMap Nominatim.
    public static let publicServer = "https://nominatim.openstreetmap.org"
    /// Three tries in all, the first wait half a second, no wait over 8 s.
    static let maximumTries = 3
    static let firstBackoff = 0.5
    static let maximumBackoff = 8.0

    public let settings: NamingSettings
    let http: HTTPClient
    let cache: NamingCache
    let clock: any NamingClock
    /// Seconds between two turns: 1/rate, never under 1 s for the public server.
    let interval: Double
    let timeout: TimeAmount
    /// `Basic …` for a service behind a password (`https://user:password@host/`), else nil.
    let authorization: String?
    /// What this run sent and noticed.
    public let tally = NamingTally()
    /// The process's own turns, taken once the shared cache fails (`turns`): made the first
    /// time they are needed.
    private static let ownTurns = NamingCache.inMemory()

    /// The HTTP client the naming uses: a connection that cannot be made (refused, no route)
    /// fails the request at once rather than being tried again until the request's deadline,
    /// which made a service that is not there look slow; this client's own tries (3, with
    /// backoff) still ride out a moment's trouble.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        // A connection for each request that may be in flight (8 by default): one that waited
        // inside the client for another's connection would leave with the others at once, past
        // its turn in the rate and with part of its time to answer gone.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maximumConcurrency
        // Redirects are followed by `send`, only within the server named: places are sent
        // to no other.
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The most requests in flight at once that `--concurrency` allows.
    public static let maximumConcurrency = 16

    /// Creates a client over a shared HTTP client. The rate is capped at 1 a second for the
    /// public server, the absolute maximum of its usage policy.
    public init(settings: NamingSettings, http: HTTPClient, cache: NamingCache, clock: any NamingClock = SystemNamingClock(),
                requestsPerSecond: Double = 1, timeoutSeconds: Int64 = 10) {
        self.settings = settings
        self.http = http
        self.cache = cache
        self.clock = clock
        let rate = Self.isPublicServer(settings.nominatimURL) ? min(requestsPerSecond, 1) : requestsPerSecond
        self.interval = 1 / max(rate, 0.001)
        self.timeout = .seconds(timeoutSeconds)
        // HTTP Basic authentication (RFC 7617), which is what such a URL asks for; the URL's
        // user part is not sent on its own (`url`).
        self.authorization = Self.credentials(settings.nominatimURL).map { "Basic " + Data($0.utf8).base64EncodedString() }
    }

    /// Whether `url` is OpenStreetMap's own server, whose policy caps the rate.
    static func isPublicServer(_ url: String) -> Bool {
        URL(string: url)?.host?.lowercased() == URL(string: publicServer)?.host
    }

    /// `geotrip/VERSION (+contact)`: the application, and how to reach the person running it.
    var userAgent: String { "geotrip/\(GeoTripVersion.current)" + (settings.contact.map { " (+\($0))" } ?? "") }

    /// The body of `endpoint?query` (the language goes as `accept-language`), from the cache
    /// when it is there, else from the service; `read` decodes it, and only a body that reads
    /// is cached (and only when `keep` says so of what it read); with whether it came from the
    /// cache. Throws `namingUnavailable` when the service cannot be used, and what `read` throws
    /// for a body that does not read.
    func get<T>(_ endpoint: String, _ query: [(String, String)], keep: (T) -> Bool = { _ in true },
                read: (Data) throws(GeoTripError) -> T) async throws -> (value: T, fromCache: Bool) {
        let request = endpoint + "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        if let body = try? cache.answer(server: settings.cacheServer, request: request, language: settings.language, now: clock.now()) {
            if let value = try? read(body) {
                return (value, true)
            }
        }
        guard let url = Self.url(settings.nominatimURL, endpoint, query) else {
            throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: "it is not a URL")
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.headers.add(name: "User-Agent", value: userAgent)
        outgoing.headers.add(name: "Accept-Language", value: settings.language)
        if let authorization { outgoing.headers.add(name: "Authorization", value: authorization) }
        let body = try await send(outgoing)
        let value = try read(body)
        // A cache that cannot be written costs a request next time, nothing more.
        if keep(value) {
            try? cache.store(body, server: settings.cacheServer, request: request, language: settings.language, now: clock.now())
        }
        return (value, false)
    }

    /// `endpoint` under the service's URL with `query`, keeping the URL's own query (a key a
    /// hosted service asks for: `https://host/api?key=K` asks `https://host/api/reverse?key=K&…`).
    static func url(_ service: String, _ endpoint: String, _ query: [(String, String)]) -> String? {
        guard var components = URLComponents(string: service) else { return nil }
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + "/" + endpoint
        components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` is left as it is in a query, where a server reads it as a space ("C++ Bar").
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.url?.absoluteString
    }

    /// `user:password` of a URL that names them (percent-decoded), else nil.
    static func credentials(_ service: String) -> String? {
        guard let components = URLComponents(string: service), let user = components.user, !user.isEmpty else { return nil }
        return user + ":" + (components.password ?? "")
    }

    /// At most this many redirects for one request.
    static let maximumRedirects = 3

    /// Where a redirect from `from` to `location` goes, if it stays with the server named (the
    /// same host and port; `http` to `https` allowed); nil for another server.
    static func sameServer(_ from: String, _ location: String) -> String? {
        guard let base = URL(string: from), let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let host = target.host?.lowercased(), host == base.host?.lowercased(),
              let scheme = target.scheme?.lowercased(), scheme == "https" || scheme == base.scheme?.lowercased(),
              // The same port, or each scheme's own (http to https on the default ports).
              target.port == base.port
        else { return nil }
        return target.absoluteString
    }

    /// Why a server that asks to wait again once each wait is over is given up (`NamingTally.recordHold`).
    static let asksToWaitAgain = "it asks to be sent nothing for a while (Retry-After), and again once each wait is over"

    /// `Retry-After` in seconds: a number of seconds, or an HTTP date (RFC 9110) from `now`.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Double {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return 0 }
        if let seconds = Double(value) { return seconds.isFinite ? max(0, seconds) : 0 }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: value) else { return 0 }
        return max(0, date.timeIntervalSince(now))
    }

    /// Sends one request with the retry rule above; the body of a 200 answer.
    private func send(_ original: HTTPClientRequest) async throws -> Data {
        var request = original
        var tries = 0, redirects = 0
        while true {
            tries += 1
            try await waitForTurn()
            // Given up while this one waited its turn: nothing more is sent.
            if tally.givenUpWaiting {
                throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: Self.asksToWaitAgain)
            }
            var failure: String
            var retryAfter = 0.0
            let sentAt = clock.now()
            let started = tally.begin(at: sentAt)
            defer { tally.end(started, at: clock.now()) }
            do {
                // One deadline for the head and the body: a server that sends its head and
                // then nothing, or a byte a second, is as late as one that sends nothing.
                let deadline = NIODeadline.now() + timeout
                let response = try await http.execute(request, deadline: deadline)
                let body = try await Self.collect(response.body, by: deadline)
                if response.status == .ok {
                    tally.answered()
                    return Data(body.readableBytesView)
                }
                if (300..<400).contains(response.status.code), let location = response.headers.first(name: "Location") {
                    guard let next = Self.sameServer(request.url, location) else {
                        let host = URL(string: location, relativeTo: URL(string: request.url))?.host ?? location
                        throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: "it sends the requests on to another server (\(host)); "
                                                                 + "geotrip sends places only to the server named, so name that one with --nominatim-url if you trust it")
                    }
                    redirects += 1
                    guard redirects <= Self.maximumRedirects else {
                        throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: "it redirects more than \(Self.maximumRedirects) times")
                    }
                    request.url = next
                    tries -= 1  // a redirect is not a failed try
                    continue
                }
                failure = "it answered \(response.status.code) \(response.status.reasonPhrase)"
                guard response.status == .tooManyRequests || response.status.code >= 500 else {
                    throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: failure)
                }
                retryAfter = Self.retryAfter(response.headers.first(name: "Retry-After"), now: Date(timeIntervalSince1970: clock.now()))
                if retryAfter > 0 {
                    // Asked of the server, not of this request: every request to it waits.
                    let held = min(retryAfter, Self.maximumBackoff * 4)
                    tally.noteHold(held)
                    let until = clock.now() + held
                    turns { try $0.holdOff(server: settings.cacheServer, until: until, interval: interval) }
                    // Asked again by requests sent once the last wait was over, with no answer
                    // between: a server that only ever asks to wait (a rate-limiting proxy, one
                    // overloaded) is given up for the run after one wait, not after three for
                    // each place in flight. (The hold is kept for other runs all the same.)
                    if tally.recordHold(sentAt: sentAt, until: until) {
                        throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: Self.asksToWaitAgain)
                    }
                }
            } catch let error as GeoTripError {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = Self.words(error)
                if Self.neverConnected(error) { tally.unsend() }
                // An answer too large to be a place's is how the server answers, not a
                // passing fault: asking again would fetch it again.
                if error is NIOTooManyBytesError { throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: failure) }
            }
            guard tries < Self.maximumTries else {
                throw GeoTripError.namingUnavailable(server: settings.shownURL, reason: failure + " (\(tries) tries)")
            }
            // The request is over: waiting out a backoff or `Retry-After` is not a slow service.
            tally.end(started, at: clock.now())
            try await clock.sleep(until: clock.now() + Self.backoff(afterTry: tries, retryAfter: retryAfter, jitter: Double.random(in: 0.5...1)))
        }
    }

    /// The wait after try `tries` failed: 0.5 s, 1 s, 2 s... capped at 8 s, times `jitter`
    /// (0.5 to 1, so retrying clients spread out), and at least what `Retry-After` asked (itself
    /// capped at 32 s: a run does not stall on one header).
    static func backoff(afterTry tries: Int, retryAfter: Double, jitter: Double) -> Double {
        let exponential = min(maximumBackoff, firstBackoff * pow(2, Double(tries - 1))) * jitter
        return max(exponential, min(retryAfter, maximumBackoff * 4))
    }

    /// Waits for this request's turn in the machine's budget for the server, then until the
    /// last request sent is `interval` behind (see `NamingCache.recordSend`).
    /// A turn far off because of a hold another run was told of is said as that hold.
    private func waitForTurn() async throws {
        let now = clock.now(), turn = claimTurn(at: now)
        if turn - now > NamingTally.slowSeconds {
            let held = turns { try $0.heldUntil(server: settings.cacheServer, now: now) } - now
            if held > NamingTally.slowSeconds { tally.noteHold(held) }
        }
        try await clock.sleep(until: turn)
        while true {
            try Task.checkCancellation()
            let now = clock.now()
            guard let later = turns({ try $0.recordSend(server: settings.cacheServer, interval: interval, now: now) }) else { return }
            try await clock.sleep(until: later)
        }
    }

    /// This request's turn, claimed at `now` (`NamingCache.claimTurn`).
    func claimTurn(at now: Double) -> Double {
        turns { try $0.claimTurn(server: settings.cacheServer, interval: interval, now: now) }
    }

    /// `use` on the shared cache's turns; once they fail (a damaged file, a disk that stays
    /// busy), on this run's own for the rest of the run, said once (`NamingTally.cacheProblem`).
    /// Every request of the run then still waits its turn: without one, the few in flight at
    /// once would each wait an interval and go out together.
    private func turns<T>(_ use: (NamingCache) throws -> T) -> T {
        if tally.cacheProblem == nil {
            do {
                return try use(cache)
            } catch {
                tally.noteCacheProblem(Catalog.reason(of: error))
            }
        }
        // A cache in memory fails only when memory runs out (`NamingCache.inMemory`).
        return try! use(Self.ownTurns)
    }

    /// `body` whole, up to `largestAnswer`, unless `deadline` passes first: then
    /// `HTTPClientError.deadlineExceeded` at once, and the reading is cancelled.
    ///
    /// Not a task group: a group returns only once its reading child has ended, and a body
    /// read cancelled between two of its chunks went on waiting for the next, so a server
    /// that stalled mid-answer held the run until it closed the connection (on a loaded
    /// machine, a minute a try). The reading goes on apart until the cancellation reaches it
    /// or the client closes its connections.
    static func collect(_ body: HTTPClientResponse.Body, by deadline: NIODeadline) async throws -> ByteBuffer {
        let outcome = FirstOutcome<ByteBuffer>()
        let reading = Task {
            do { outcome.settle(.success(try await body.collect(upTo: largestAnswer))) } catch { outcome.settle(.failure(error)) }
        }
        let timer = Task {
            let left = deadline - NIODeadline.now()
            if left.nanoseconds > 0 {
                // Cancelled: the answer came first, and settled it.
                do { try await Task.sleep(for: .nanoseconds(left.nanoseconds)) } catch { return }
            }
            if outcome.settle(.failure(HTTPClientError.deadlineExceeded)) { reading.cancel() }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ByteBuffer, any Error>) in
                outcome.wait(with: continuation)
            }
        } onCancel: {
            reading.cancel()
            outcome.settle(.failure(CancellationError()))
        }
    }

    /// The largest answer read: 4 MiB (a place's answer is a few kilobytes).
    static let largestAnswer = 1 << 22

    /// Whether `error` came before a connection was made (refused, unreachable, or no answer
    /// to the connection itself): a request that never left.
    static func neverConnected(_ error: any Error) -> Bool {
        if (error as? HTTPClientError) == .connectTimeout { return true }
        guard let error = error as? IOError else { return false }
        return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
    }

    static func words(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .connectTimeout { return "it did not answer in time" }
        if error is NIOTooManyBytesError { return "its answer was larger than 4 MiB, which no place's answer is" }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            return "it closed the connection before its answer was complete"
        }
        // A system call's failure, said as the system says it ("Connection refused").
        if let error = error as? IOError { return "it could not be reached: \(String(cString: strerror(error.errnoCode)))" }
        return "it could not be reached (\(error))"
    }
}

/// What one run's online naming sent and noticed: requests sent, places named from the cache,
/// and requests in flight, so a service that has not answered for `slowSeconds` is noticed
/// while it is slow (and said once).
public final class NamingTally: Sendable {
    /// Over 3 s without an answer, the service is called slow (the travel-journal lesson).
    public static let slowSeconds = 3.0

    private struct Counts {
        var requests = 0
        var slowest = 0.0
        var slowSaid = false
        var nextToken = 0
        var inFlight: [Int: Double] = [:]
        var cachedPlaces: Set<String> = []
        var cacheProblem: String?
        var held = 0.0
        var holdSaid = false
        /// When the last wait a refusal asked for ends; nil since an answer came.
        var holdEnds: Double?
        /// Refusals asking to wait of requests sent once a wait was over, since an answer came.
        var refusedAfterWait = 0
        /// Whether the server asked to wait again and again (`recordHold`): every request in
        /// flight gives up then.
        var givenUpWaiting = false
    }

    private let counts = Mutex(Counts())

    /// Creates an empty tally.
    public init() {}

    /// Records a request sent at `moment`; `end` takes the token back.
    func begin(at moment: Double) -> Int {
        counts.withLock {
            $0.requests += 1
            $0.nextToken += 1
            $0.inFlight[$0.nextToken] = moment
            return $0.nextToken
        }
    }

    /// Records a refusal of a request sent at `sentAt` that asks every request to wait until
    /// `until`. True once `refusalsAfterWait` requests sent after the wait the last such
    /// refusal asked for was over have been refused so, with no answer between: the server
    /// asks to wait again and again. (Two, so one slow answer overtaken by a refusal does
    /// not give up a server that answers.)
    func recordHold(sentAt: Double, until: Double) -> Bool {
        counts.withLock { counts in
            if let ends = counts.holdEnds, sentAt >= ends { counts.refusedAfterWait += 1 }
            counts.holdEnds = max(counts.holdEnds ?? until, until)
            if counts.refusedAfterWait >= Self.refusalsAfterWait { counts.givenUpWaiting = true }
            return counts.givenUpWaiting
        }
    }

    /// Requests refused again after a wait, with no answer between, that give the server up.
    static let refusalsAfterWait = 2

    /// Records an answer: the server no longer only asks to wait.
    func answered() {
        counts.withLock {
            $0.holdEnds = nil
            $0.refusedAfterWait = 0
        }
    }

    /// Whether the server was given up for asking to wait again and again (`recordHold`).
    var givenUpWaiting: Bool { counts.withLock { $0.givenUpWaiting } }

    /// Takes back a request `begin` counted that never reached the server.
    func unsend() { counts.withLock { $0.requests -= 1 } }

    func end(_ token: Int, at moment: Double) {
        counts.withLock {
            if let start = $0.inFlight.removeValue(forKey: token) { $0.slowest = max($0.slowest, moment - start) }
        }
    }

    /// Why the shared cache's turns failed this run, the first time; nil while they work.
    public var cacheProblem: String? { counts.withLock { $0.cacheProblem } }

    func noteCacheProblem(_ reason: String) { counts.withLock { $0.cacheProblem = $0.cacheProblem ?? reason } }

    /// Records that a place's answers all came from the cache.
    func markCached(_ placeID: String) { counts.withLock { _ = $0.cachedPlaces.insert(placeID) } }

    /// The places whose answers all came from the cache.
    public var cachedPlaces: Set<String> { counts.withLock { $0.cachedPlaces } }

    /// HTTP requests sent, retries included (not those that found no server to take them).
    public var requests: Int { counts.withLock { $0.requests } }

    /// Records that the service asked every request to wait, and that they wait `seconds`
    /// (`Retry-After`, capped).
    func noteHold(_ seconds: Double) { counts.withLock { $0.held = max($0.held, seconds) } }

    /// The longest wait the service asked for, the first time one over `slowSeconds` was
    /// asked; nil before and after, so it is said once.
    func holdNotice() -> Double? {
        counts.withLock {
            guard $0.held > Self.slowSeconds, !$0.holdSaid else { return nil }
            $0.holdSaid = true
            return $0.held
        }
    }

    /// The seconds the slowest request has waited (finished or still in flight) at `moment`,
    /// the first time that is over `slowSeconds`; nil before and after, so it is said once.
    func slowNotice(at moment: Double) -> Double? {
        counts.withLock {
            let waited = max($0.slowest, $0.inFlight.values.map { moment - $0 }.max() ?? 0)
            guard waited > Self.slowSeconds, !$0.slowSaid else { return nil }
            $0.slowSaid = true
            return waited
        }
    }
}

/// The first of several outcomes to settle a continuation; the later ones are dropped. One
/// that settles before the continuation is given waits for it.
final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var result: Result<Value, any Error>?
        var resumed = false
    }
    private let state = Mutex(State())

    /// Gives the continuation, resumed at once if an outcome came first.
    func wait(with continuation: CheckedContinuation<Value, any Error>) {
        let settled: Result<Value, any Error>? = state.withLock { state in
            guard !state.resumed else { return nil }
            if let result = state.result {
                state.resumed = true
                return result
            }
            state.continuation = continuation
            return nil
        }
        if let settled { continuation.resume(with: settled) }
    }

    /// Settles with `result` unless another did; whether this one did.
    @discardableResult
    func settle(_ result: Result<Value, any Error>) -> Bool {
        let waiting: CheckedContinuation<Value, any Error>?? = state.withLock { state in
            guard !state.resumed, state.result == nil else { return nil }
            state.result = result
            guard let continuation = state.continuation else { return .some(nil) }
            state.resumed = true
            return .some(continuation)
        }
        guard let waiting else { return false }
        waiting?.resume(with: result)
        return true
    }
}
