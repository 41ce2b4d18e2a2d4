import Foundation

/// A place found by name, and how well the name matched.
public struct PlaceMatch: Sendable, Equatable {
    /// `exact`: a name or alternate name equals the query; `prefix`: one starts with it.
    public enum Quality: String, Sendable { case exact, prefix }
    public var place: GazetteerPlace
    public var quality: Quality
    /// Whether it was found by one of its other names (`Toledo` finds Cuba's Mantilla), not
    /// by the name it is shown with: a list of matches says so, or it reads as a mistake.
    public var byOtherName = false

    /// `label`, with ` (found as "QUERY")` after the place's name when it was found by another
    /// of its names (the gazetteer keeps them folded, so the query's own spelling is shown), or
    /// ` (found by another name starting "QUERY")` when one starts with the query (in square
    /// brackets after a name that ends in round ones).
    public func label(_ label: String, query: String) -> String {
        guard byOtherName, label.hasPrefix(place.name) else { return label }
        let name = Gazetteer.name(in: query).replacingOccurrences(of: "\"", with: "'")
        let said = quality == .exact ? "found as \"\(name)\"" : "found by another name starting \"\(name)\""
        // Square brackets after a name that ends in round ones: "Frankfurt (Oder) [found as …]".
        return place.name + (place.name.hasSuffix(")") ? " [\(said)]" : " (\(said))") + label.dropFirst(place.name.count)
    }
}

extension Gazetteer {
    /// Places named `query`, for tagging a photo by place name: case- and accent-insensitive,
    /// alternate names included (`Lisbon` finds Lisboa). `"Kyoto, JP"` or `"Paris, Texas"`
    /// narrows by country code, country or first-level division. Exact matches come first,
    /// then names that start with the query; the most populous first within each.
    ///
    /// A name with several regions after it, as geotrip's lists write places (`Springfield,
    /// Missouri, United States (US)`, copied from the list an ambiguous name gives), narrows by
    /// each.
    public func search(_ query: String, limit: Int = 10) -> [PlaceMatch] {
        let query = Self.tidied(query)
        if let comma = query.lastIndex(of: ",") {
            let qualified = search(name: String(query[..<comma]), qualifiers: [SearchKey.fold(String(query[query.index(after: comma)...]))], limit: limit)
            // Some names hold a comma themselves ("Olinda, CDP"): try the whole text as a name.
            if !qualified.isEmpty { return qualified }
            let parts = query.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count >= 3 {
                // A part's country code in brackets (`United States (US)`) is no part of its name.
                let regions = parts.dropFirst().map { part in
                    SearchKey.fold(part.replacingOccurrences(of: #"\s*\([A-Za-z]{2}\)$"#, with: "", options: .regularExpression))
                }
                let labelled = search(name: parts[0], qualifiers: regions, limit: limit)
                if !labelled.isEmpty { return labelled }
            }
        }
        return search(name: query, qualifiers: [], limit: limit)
    }

    /// When `query` (which found nothing) is a name and a region whose name alone is a
    /// place's (not the start of one: `tag --place` takes whole names only): why, and how to
    /// write the region (the country or region as geotrip knows it, in English, or a country
    /// code, with the first place's as the example).
    public func qualifierAdvice(_ query: String) -> String? {
        let query = Self.tidied(query)
        guard let comma = query.lastIndex(of: ","),
              let first = search(name: String(query[..<comma]), qualifiers: [], limit: 1).first, first.quality == .exact else { return nil }
        let name = query[..<comma].trimmingCharacters(in: .whitespaces), region = query[query.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        let example = [first.place.countryCode, first.place.country].compactMap { $0 }.map { "\"\(name), \($0)\"" }.joined(separator: " or ")
        return "\"\(name)\" is found, but not in \"\(region)\" as geotrip knows countries and regions (their names in English, or a country code"
            + (example.isEmpty ? ")." : ": \(example)).")
    }

    /// `query` without its empty parts between commas (`Paris,,FR`, `Paris, FR, `, `,Paris`):
    /// a stray comma says nothing, and the part after the last comma is taken for a region. A
    /// query with no empty part is left as written (a name may hold a comma: `Olinda, CDP`).
    static func tidied(_ query: String) -> String {
        let parts = query.split(separator: ",", omittingEmptySubsequences: false)
        // Empty as a search key: blanks, and the unseen characters copied text carries.
        func isEmpty(_ part: Substring) -> Bool { SearchKey.fold(String(part)).isEmpty }
        guard parts.count > 1, parts.contains(where: isEmpty) else { return query }
        return parts.filter { !isEmpty($0) }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    /// The name a query asks for: its first part (`tidied`), before any region (`Springfield`
    /// of `,Springfield,, Missouri`).
    static func name(in query: String) -> String {
        let whole = tidied(query)
        return whole.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? whole
    }

    /// Common names for countries that are not their GeoNames names.
    private static let countryAliases: [String: String] = [
        "uk": "gb", "england": "gb", "scotland": "gb", "wales": "gb", "usa": "us", "u.s.a.": "us", "u.s.": "us",
        "america": "us", "uae": "ae", "holland": "nl", "south korea": "kr", "korea": "kr", "russia": "ru",
    ]

    /// US state codes, as people write them after a town ("Springfield, IL"): the resource
    /// holds first-level divisions by name only.
    private static let usStates: [String: String] = [
        "al": "alabama", "ak": "alaska", "az": "arizona", "ar": "arkansas", "ca": "california", "co": "colorado",
        "ct": "connecticut", "de": "delaware", "dc": "washington, d.c.", "fl": "florida", "ga": "georgia", "hi": "hawaii",
        "id": "idaho", "il": "illinois", "in": "indiana", "ia": "iowa", "ks": "kansas", "ky": "kentucky", "la": "louisiana",
        "me": "maine", "md": "maryland", "ma": "massachusetts", "mi": "michigan", "mn": "minnesota", "ms": "mississippi",
        "mo": "missouri", "mt": "montana", "ne": "nebraska", "nv": "nevada", "nh": "new hampshire", "nj": "new jersey",
        "nm": "new mexico", "ny": "new york", "nc": "north carolina", "nd": "north dakota", "oh": "ohio", "ok": "oklahoma",
        "or": "oregon", "pa": "pennsylvania", "ri": "rhode island", "sc": "south carolina", "sd": "south dakota",
        "tn": "tennessee", "tx": "texas", "ut": "utah", "vt": "vermont", "va": "virginia", "wa": "washington",
        "wv": "west virginia", "wi": "wisconsin", "wy": "wyoming",
    ]

    /// Places named `name` that are in every one of `qualifiers` (folded: a country code, a
    /// country, a first-level division or a US state code each).
    private func search(name: String, qualifiers: [String], limit: Int) -> [PlaceMatch] {
        let qualifiers = qualifiers.filter { !$0.isEmpty }.map { Self.countryAliases[$0] ?? $0 }
        let key = Array(SearchKey.fold(name).utf8)
        guard !key.isEmpty else { return [] }

        var quality: [Int: PlaceMatch.Quality] = [:]
        file.data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var position = file.keysOffset
            let end = file.keysOffset + file.keysLength
            while position + 5 <= end {
                let index = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
                let length = Int(raw[position + 4])
                let start = position + 5
                position = start + length
                guard position <= end, index < count, length >= key.count else { continue }
                let matches = key.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress! + start, key.count) == 0 }
                guard matches else { continue }
                if length == key.count {
                    quality[index] = .exact
                } else if key.count >= 3, quality[index] == nil {
                    quality[index] = .prefix
                }
            }
        }
        var found = quality.map { (index: $0.key, quality: $0.value) }
        if !qualifiers.isEmpty {
            found = found.filter { candidate in
                let place = place(candidate.index)
                return qualifiers.allSatisfy { qualifier in
                    place.countryCode.map { $0.lowercased() == qualifier } == true
                        || place.country.map(SearchKey.fold) == qualifier
                        || place.admin1.map(SearchKey.fold) == qualifier
                        || (place.countryCode == "US" && Self.usStates[qualifier].map { place.admin1.map(SearchKey.fold) == $0 } == true)
                }
            }
        }
        found.sort { a, b in
            if a.quality != b.quality { return a.quality == .exact }
            let (pa, pb) = (columns.population[a.index], columns.population[b.index])
            return pa != pb ? pa > pb : a.index < b.index
        }
        let folded = String(decoding: key, as: UTF8.self)
        return found.prefix(limit).map { candidate in
            let place = place(candidate.index), own = SearchKey.fold(place.name)
            let byOther = candidate.quality == .exact ? own != folded : !own.hasPrefix(folded)
            return PlaceMatch(place: place, quality: candidate.quality, byOtherName: byOther)
        }
    }
}
