import AsyncHTTPClient
import Foundation

/// `geotrip tag --place` through Nominatim's `/search`, when the trip names places online: so a
/// photo can be placed by the name of a sight ("Torre de Belém"), not only of a town. Same
/// budget, cache and User-Agent as the naming stage (`NominatimClient`).
public struct NominatimPlaceSearch: Sendable {
    /// 1 km: results this close to the best one are the same place (a sight and its tram stop).
    static let samePlace = 1000.0

    /// A place found by name.
    public struct Found: Sendable, Equatable {
        /// `Torre de Belém, Lisboa, Portugal (PT)`.
        public var label: String
        public var coordinate: Coordinate
        /// Half the diagonal of the object's bounding box, at least 50 m.
        public var uncertaintyMeters: Double
    }

    let client: NominatimClient

    /// Creates a search over a client.
    public init(client: NominatimClient) {
        self.client = client
    }

    /// The one place `query` names: the best result, when every other result lies within
    /// `samePlace` of it; otherwise the candidates are shown, never guessed. Throws
    /// `placeNotFound`, `placeAmbiguous`, or `namingUnavailable` when the service cannot be used.
    public func find(_ query: String) async throws -> Found {
        // Nothing found is not kept: a service still loading its data, or failing quietly,
        // would otherwise answer "no such place" for 180 days.
        let answer = try await client.get("search", [("format", "jsonv2"), ("q", query), ("limit", "5"), ("addressdetails", "1")],
                                          keep: { !$0.isEmpty }) {
            (data) throws(GeoTripError) in try NominatimPlace.decode([SearchResult].self, from: data, subject: "the search for \"\(query)\"")
        }
        // A result without a name is no place to tag with ("Tagged at ?"); a server that
        // ignores `limit` is read for the five asked.
        let results = Array(answer.value.filter { $0.place.coordinate != nil && $0.hasName }.prefix(5))
        guard let best = results.first, let centre = best.place.coordinate else { throw GeoTripError.placeNotFound(query: query, advice: nil) }
        let elsewhere = results.filter { GreatCircle.distance($0.place.coordinate!, centre) > Self.samePlace }
        guard elsewhere.isEmpty else {
            // Labels alike (two streets of one name in one town) are told apart by full name,
            // and full names alike by where they are.
            let labels = results.map(\.label)
            var candidates = Set(labels).count == labels.count ? labels : results.map { $0.place.displayName ?? $0.label }
            if Set(candidates).count < candidates.count {
                candidates = zip(candidates, results).map { candidate, result in
                    let at = result.place.coordinate!
                    return candidate + String(format: " at %.4f,%.4f", at.latitude, at.longitude)
                }
            }
            throw GeoTripError.placeAmbiguous(query: query, candidates: candidates,
                                              examples: Self.examples(query: query, labels: labels))
        }
        return Found(label: best.label, coordinate: centre, uncertaintyMeters: best.uncertaintyMeters ?? 50)
    }

    /// Up to two queries that may narrow the service's answers `labels` for `query`, as the
    /// offline search advises two (`PhotoTagger.narrowings`): regions only one answer is in
    /// (`Centro, Madrid`), when the query names a country already or the answers are all in one;
    /// else two of the answers' country codes, those only one answer is in first; none when
    /// the labels tell neither. A guess
    /// from the labels: the service, not geotrip, will answer it.
    static func examples(query: String, labels: [String]) -> [String] {
        func code(_ label: String) -> String? {
            guard label.hasSuffix(")"), let last = label.split(separator: "(").last else { return nil }
            let code = String(last.dropLast())
            return code.count == 2 && code.allSatisfy(\.isUppercase) ? code : nil
        }
        func region(_ label: String) -> String? {
            let parts = label.components(separatedBy: ", ")
            return parts.count >= 3 ? parts[parts.count - 2] : nil
        }
        let name = Gazetteer.name(in: query)
        let codes = labels.map(code)
        let narrowing: [String]
        if Gazetteer.tidied(query).contains(",") || Set(codes).count == 1 && codes.first! != nil {
            let regions = labels.map(region)
            narrowing = regions.compactMap { $0 }.filter { region in regions.filter { $0 == region }.count == 1 }
        } else {
            // In the service's order, when its best answer has a country: those only one answer
            // is in first (they narrow to it), then the others.
            let known = codes.first.flatMap { $0 } == nil ? [] : codes.compactMap { $0 }
            narrowing = known.filter { code in known.filter { $0 == code }.count == 1 } + known.filter { code in known.filter { $0 == code }.count > 1 }
        }
        var seen: Set<String> = []
        return narrowing.filter { seen.insert($0).inserted }.prefix(2).map { "\(name), \($0)" }
    }

    /// One `/search` result: a place with its bounding box.
    struct SearchResult: Decodable {
        var place: NominatimPlace
        init(from decoder: any Decoder) throws {
            place = try NominatimPlace(from: decoder)
        }

        /// Whether it has a name of its own or a full name to take one from.
        var hasName: Bool { place.ownName != nil || place.displayName.nonBlank != nil }

        /// The place's name, the first words of its full name when it has none, and its country.
        var label: String {
            let a = place.address
            let name = place.ownName ?? place.displayName.nonBlank?.split(separator: ",").first.map(String.init) ?? "?"
            let within = [a?.city.nonBlank ?? a?.town.nonBlank ?? a?.village.nonBlank, a?.country.nonBlank].compactMap { $0 }
                .filter { $0 != name }
            // Bounded as the names are (no control characters, at most 300 characters a part).
            return ([name] + within).map(NominatimPlace.bounded).joined(separator: ", ")
                + (NominatimPlace.countryCode(a?.countryCode).map { " (\($0))" } ?? "")
        }

        var uncertaintyMeters: Double? {
            guard let box = place.box else { return nil }
            let diagonal = GreatCircle.distance(Coordinate(latitude: box[0], longitude: box[2]), Coordinate(latitude: box[1], longitude: box[3]))
            return min(20_000, max(50, diagonal / 2))
        }
    }
}
