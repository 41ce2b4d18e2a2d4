import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// How places are named: offline (the default: nothing is ever sent anywhere) or by a
/// Nominatim-compatible service. Remembered for the trip.
public struct NamingSettings: Codable, Sendable, Equatable {
    /// `offline` or `nominatim`.
    public var geocoder: String = "offline"
    /// The service's base URL (its `/reverse` is asked).
    public var nominatimURL: String = NominatimPlaceNamer.publicServer
    /// BCP 47 language for `accept-language`.
    public var language: String = "en"
    /// An e-mail address or URL added to the User-Agent, as OpenStreetMap's policy asks.
    public var contact: String?
    /// `--rate` and `--concurrency` for this run (not remembered): at most this many requests
    /// a second (never more than 1 for the public server) and this many in flight.
    public var requestsPerSecond: Double = 1
    public var concurrency: Int = 2

    private enum CodingKeys: String, CodingKey { case geocoder, nominatimURL, language, contact }

    /// Creates settings.
    public init(geocoder: String = "offline", nominatimURL: String = NominatimPlaceNamer.publicServer, language: String = "en",
                contact: String? = nil) {
        self.geocoder = geocoder
        self.nominatimURL = nominatimURL
        self.language = language
        self.contact = contact
    }

    /// Whether the online namer is on.
    public var online: Bool { geocoder == "nominatim" }

    /// The language of the environment's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`: `ko_KR.UTF-8`
    /// gives `ko`), or `en`.
    public static var environmentLanguage: String {
        let environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[key], !value.isEmpty, value != "C", value != "POSIX", !value.hasPrefix("C.") else { continue }
            let language = value.prefix { $0.isLetter }
            if (2...3).contains(language.count) { return language.lowercased() }
        }
        return "en"
    }
}

/// Names places through a Nominatim-compatible `/reverse` (format jsonv2), concurrently but
/// never faster than the rate allows (1 request a second, the public OpenStreetMap server's
/// absolute maximum, whatever is asked for it).
///
/// The display name follows a stated rule: a named point of interest a traveller visits
/// (tourism, historic, leisure, natural, and amenities people go to) first, then the
/// neighbourhood, suburb or quarter, then the town; region (state) and country are kept apart,
/// as the offline names do. `{"error": "Unable to geocode"}` (open sea) is an answer: no name.
public struct NominatimPlaceNamer: PlaceNamer {
    /// The public OpenStreetMap Nominatim.
    public static let publicServer = "https://nominatim.openstreetmap.org"
    /// The `amenity` values that are places people visit (not benches and bins).
    static let visitedAmenities: Set<String> = [
        "arts_centre", "bar", "biergarten", "cafe", "cinema", "fast_food", "food_court", "ice_cream", "library", "marketplace",
        "monastery", "place_of_worship", "pub", "restaurant", "theatre", "townhall", "university", "fountain", "planetarium",
    ]
    /// The categories whose named objects are sights in themselves.
    static let sightCategories: Set<String> = ["tourism", "historic", "leisure", "natural"]

    public let settings: NamingSettings
    /// What the run should be told once (a slow service).
    public let notices = NamingNotices()
    let client: HTTPClient
    let limiter: RateLimiter
    /// At most this many requests in flight.
    let concurrency: Int
    let timeout: TimeAmount

    public var source: NameSource { .nominatim }

    /// Creates a namer over a shared HTTP client; `requestsPerSecond` is capped at 1 for the
    /// public server.
    public init(settings: NamingSettings, client: HTTPClient, requestsPerSecond: Double = 1, concurrency: Int = 2,
                timeoutSeconds: Int64 = 10) {
        self.settings = settings
        self.client = client
        let cap = settings.nominatimURL.hasPrefix(Self.publicServer) ? min(requestsPerSecond, 1) : requestsPerSecond
        self.limiter = RateLimiter(interval: .milliseconds(Int64(1000 / max(cap, 0.001))))
        self.concurrency = max(1, concurrency)
        self.timeout = .seconds(timeoutSeconds)
    }

    /// `geotrip/VERSION (+contact)`.
    var userAgent: String { "geotrip/0.1.0" + (settings.contact.map { " (+\($0))" } ?? "") }

    public func names(for places: [NamedFor]) async throws(GeoTripError) -> [PlaceName?] {
        do {
            return try await withThrowingTaskGroup(of: (Int, PlaceName?).self) { group in
                var results = [PlaceName?](repeating: nil, count: places.count)
                var next = 0
                func start() {
                    guard next < places.count else { return }
                    let index = next
                    next += 1
                    group.addTask { (index, try await self.name(places[index])) }
                }
                for _ in 0..<concurrency { start() }
                while let (index, name) = try await group.next() {
                    results[index] = name
                    start()
                }
                return results
            }
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw .namingUnavailable(server: settings.nominatimURL, reason: "\(error)")
        }
    }

    /// One place's name: one request, after the rate limiter's turn.
    /// One place's name. Timeouts, connection errors, 429 and 5xx are tried again, at most
    /// `maximumTries` times in all, after a capped exponential backoff with jitter (and never
    /// sooner than a `Retry-After` asks, nor than the rate allows: every try waits its turn).
    /// Other answers are not retried.
    func name(_ place: NamedFor) async throws -> PlaceName? {
        var components = URLComponents(string: settings.nominatimURL + "/reverse")
        components?.queryItems = [
            URLQueryItem(name: "format", value: "jsonv2"),
            URLQueryItem(name: "lat", value: String(format: "%.6f", place.centre.latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.6f", place.centre.longitude)),
            URLQueryItem(name: "zoom", value: "18"),
            URLQueryItem(name: "addressdetails", value: "1"),
            URLQueryItem(name: "namedetails", value: "1"),
        ]
        guard let url = components?.url?.absoluteString else {
            throw GeoTripError.namingUnavailable(server: settings.nominatimURL, reason: "it is not a URL")
        }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept-Language", value: settings.language)
        var tries = 0
        while true {
            tries += 1
            try await limiter.wait()
            let started = ContinuousClock.now
            var failure: String
            var retryAfter: Double = 0
            let answer: (status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer)?
            do {
                let response = try await client.execute(request, timeout: timeout)
                answer = (response.status, response.headers, try await response.body.collect(upTo: 1 << 20))
                failure = ""
            } catch {
                answer = nil
                failure = Self.words(error)
            }
            notices.took((ContinuousClock.now - started).seconds)
            if let answer {
                if answer.status == .ok { return try Self.name(from: Data(answer.body.readableBytesView), place: place.placeID) }
                failure = "it answered \(answer.status.code) \(answer.status.reasonPhrase)"
                let retryable = answer.status == .tooManyRequests || answer.status.code >= 500
                guard retryable else { throw GeoTripError.namingUnavailable(server: settings.nominatimURL, reason: failure) }
                retryAfter = answer.headers.first(name: "Retry-After").flatMap(Double.init) ?? 0
            }
            guard tries < Self.maximumTries else {
                throw GeoTripError.namingUnavailable(server: settings.nominatimURL, reason: failure + " (\(tries) tries)")
            }
            let backoff = min(Self.maximumBackoff, Self.firstBackoff * pow(2, Double(tries - 1))) * Double.random(in: 0.5...1)
            try await Task.sleep(for: .milliseconds(Int64(max(backoff, min(retryAfter, Self.maximumBackoff * 4)) * 1000)))
        }
    }

    /// Three tries in all, the first wait half a second, no wait over 8 s.
    static let maximumTries = 3
    static let firstBackoff = 0.5
    static let maximumBackoff = 8.0

    /// The display name of a `/reverse` answer by the rule above; nil for the sea's error answer.
    static func name(from data: Data, place: String) throws(GeoTripError) -> PlaceName? {
        let answer: ReverseAnswer
        do {
            answer = try JSONDecoder().decode(ReverseAnswer.self, from: data)
        } catch {
            throw .namingAnswerUnreadable(place: place, reason: Self.decodingProblem(error))
        }
        if answer.error != nil { return nil }
        let address = answer.address
        let category = answer.category ?? ""
        let named = answer.name.flatMap { $0.isEmpty ? nil : $0 }
        let isSight = sightCategories.contains(category) || (category == "amenity" && visitedAmenities.contains(answer.type ?? ""))
        let display = (isSight ? named : nil)
            ?? address?.neighbourhood ?? address?.suburb ?? address?.quarter
            ?? address?.village ?? address?.town ?? address?.city ?? address?.municipality ?? named
        return PlaceName(name: display, admin1: address?.state, country: address?.country, countryCode: address?.countryCode?.uppercased())
    }

    static func decodingProblem(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return field.isEmpty ? "it is not JSON" : "the field '\(field)' is not what Nominatim sends"
        case .keyNotFound(let key, _)?:
            return "the field '\(key.stringValue)' is missing"
        default:
            return "it is not JSON"
        }
    }

    static func words(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .connectTimeout { return "it did not answer in time" }
        return "it could not be reached (\(error))"
    }
}

/// The fields of a jsonv2 `/reverse` answer geotrip uses; every one may be absent.
struct ReverseAnswer: Decodable {
    struct Address: Decodable {
        var amenity, tourism, historic, road, neighbourhood, suburb, quarter, village, town, city, municipality, state, country: String?
        var countryCode: String?

        enum CodingKeys: String, CodingKey {
            case amenity, tourism, historic, road, neighbourhood, suburb, quarter, village, town, city, municipality, state, country
            case countryCode = "country_code"
        }
    }

    var name: String?
    var displayName: String?
    var category: String?
    var type: String?
    var addresstype: String?
    var placeRank: Int?
    var address: Address?
    var error: String?

    enum CodingKeys: String, CodingKey {
        case name, category, type, addresstype, address, error
        case displayName = "display_name"
        case placeRank = "place_rank"
    }
}

/// Hands out turns at most one per `interval`: a token bucket with a burst of one. Waiting
/// callers sleep until their turn; nothing sleeps after a request.
actor RateLimiter {
    let interval: Duration
    private var next = ContinuousClock.now

    init(interval: Duration) {
        self.interval = interval
    }

    /// Waits for the caller's turn.
    func wait() async throws {
        let now = ContinuousClock.now
        let turn = max(next, now)
        next = turn + interval
        if turn > now { try await Task.sleep(until: turn, clock: .continuous) }
    }
}

/// What the online namer noticed that the person should hear once: a service slower than
/// `slowSeconds` a request.
public final class NamingNotices: @unchecked Sendable {
    /// Over 3 s a request, the service is called slow (the travel-journal lesson).
    public static let slowSeconds = 3.0
    private let lock = NSLock()
    private var slowest = 0.0

    /// Records one request's time.
    func took(_ seconds: Double) { lock.withLock { slowest = max(slowest, seconds) } }

    /// The slowest request's seconds, when it was over `slowSeconds`.
    public var slow: Double? { lock.withLock { slowest > Self.slowSeconds ? slowest : nil } }
}
