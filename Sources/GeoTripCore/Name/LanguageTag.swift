import Foundation

/// A language as geotrip keeps it: a BCP 47 tag in its usual case (`en`, `ko`, `pt-BR`,
/// `zh-Hant-TW`), the form the names stored per language, the shared cache and the
/// `Accept-Language` header all use, so the same language typed two ways is one language.
public enum LanguageTag {
    /// `text` as a tag, or nil when it is none: its language (before any `-` or `_`) must be an
    /// ISO 639 code Foundation knows. Tags are case-insensitive and a POSIX locale writes `_`
    /// between its parts, so `EN` is `en`, `pt_br` is `pt-BR`, `zh-hant-tw` is `zh-Hant-TW`.
    public static func canonical(_ text: String) -> String? {
        guard (2...35).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        let parts = text.split(separator: /[-_]/, omittingEmptySubsequences: false)
        guard let primary = parts.first?.lowercased(), primary.allSatisfy(\.isLetter),
              Locale.LanguageCode.isoLanguageCodes.contains(Locale.LanguageCode(primary)),
              parts.dropFirst().allSatisfy({ (1...8).contains($0.count) }) else { return nil }
        return ([primary] + parts.dropFirst().map { part in
            switch part.count {
            case 2 where part.allSatisfy(\.isLetter): part.uppercased()  // a region
            case 4 where part.allSatisfy(\.isLetter): part.prefix(1).uppercased() + part.dropFirst().lowercased()  // a script
            default: part.lowercased()
            }
        }).joined(separator: "-")
    }

    /// The language of a POSIX locale name (`language[_TERRITORY][.codeset][@modifier]`) with
    /// its region: `pt_BR.UTF-8` is `pt-BR`, `ko_KR.UTF-8` is `ko-KR`, `sr_RS@latin` is
    /// `sr-Latn-RS`, `de` is `de`. Nil for `C`, `POSIX` and what is no language.
    public static func ofPOSIXLocale(_ name: String) -> String? {
        guard !name.isEmpty, name != "C", name != "POSIX", !name.hasPrefix("C.") else { return nil }
        let modifierStart = name.firstIndex(of: "@")
        let modifier = modifierStart.map { name[name.index(after: $0)...].lowercased() }
        let base = name[..<(name.firstIndex { $0 == "." || $0 == "@" } ?? name.endIndex)]
        let parts = base.split(separator: "_", maxSplits: 1).map(String.init)
        guard let language = parts.first, (2...3).contains(language.count) else { return nil }
        var tag = [language]
        // The script modifiers glibc's locales use (sr_RS@latin, uz_UZ@cyrillic, ...).
        switch modifier {
        case "latin": tag.append("Latn")
        case "cyrillic": tag.append("Cyrl")
        case "devanagari": tag.append("Deva")
        default: break
        }
        if parts.count > 1, parts[1].count == 2 || parts[1].count == 3 { tag.append(parts[1]) }
        return canonical(tag.joined(separator: "-")) ?? canonical(language)
    }
}
