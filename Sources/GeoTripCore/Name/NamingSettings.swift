import Foundation

/// How places are named: offline (the default: nothing is ever sent anywhere) or by a
/// Nominatim-compatible service. Remembered for the trip.
public struct NamingSettings: Codable, Sendable, Equatable {
    /// `offline` or `nominatim`.
    public var geocoder: String = "offline"
    /// The service's base URL (its `/reverse` is asked).
    public var nominatimURL: String = NominatimClient.publicServer
    /// BCP 47 language for `accept-language`.
    public var language: String = "en"
    /// An e-mail address or URL added to the User-Agent, as OpenStreetMap's policy asks.
    public var contact: String?
    /// `--rate` and `--concurrency` for this run (not remembered): at most this many requests
    /// a second (never more than 1 for the public server) and this many in flight.
    public var requestsPerSecond: Double = 1
    public var concurrency: Int = 2
    /// `--timeout` for this run: seconds to wait for one answer.
    public var timeoutSeconds: Int = 10

    private enum CodingKeys: String, CodingKey { case geocoder, nominatimURL, language, contact }

    /// Creates settings.
    public init(geocoder: String = "offline", nominatimURL: String = NominatimClient.publicServer, language: String = "en",
                contact: String? = nil) {
        self.geocoder = geocoder
        self.nominatimURL = nominatimURL
        self.language = language
        self.contact = contact
    }

    /// Whether the online namer is on.
    public var online: Bool { geocoder == "nominatim" }

    /// The service's URL as messages show it: the values of its query (a hosted service's
    /// key) and the password of its user left out, `https://user:…@host/api?key=…`.
    public var shownURL: String {
        var url = nominatimURL
        // The password between `://user:` and the `@` that ends the authority.
        if let scheme = url.range(of: "://") {
            let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
            if let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = url[scheme.upperBound..<at].firstIndex(of: ":") {
                url.replaceSubrange(url.index(after: colon)..<at, with: "…")
            }
        }
        guard let mark = url.firstIndex(of: "?") else { return url }
        let names = url[url.index(after: mark)...].split(separator: "#").first?
            .split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" } ?? []
        return String(url[..<mark]) + "?" + names.map { $0 + "=…" }.joined(separator: "&")
    }

    /// The service as the shared cache knows it, for its answers and its turns: `shownURL`, so
    /// no key or password is written there (the cache lives in the home folder, which is backed
    /// up and synced). One server's answers are the same whatever key asked, and two keys of one
    /// server share its turns, which keeps to the slower rate if anything.
    var cacheServer: String { shownURL }

    /// The language of the environment's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`) with its
    /// region: `ko_KR.UTF-8` gives `ko-KR`, `pt_BR.UTF-8` gives `pt-BR` (a service without names
    /// for the region falls back to the language's); `en` when none is set.
    public static var environmentLanguage: String {
        let environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], let language = LanguageTag.ofPOSIXLocale(value) { return language }
        }
        return "en"
    }
}
