/// The folding that turns a place name into a search key, identical to the resource script's
/// (scripts/gazetteer-format.md): decompose, drop combining marks, spell out the few Latin
/// letters that have no decomposition, lowercase, collapse spaces. "Sant Julià de Lòria",
/// "SANT JULIA DE LORIA" and "sant julia de loria" all become the same key.
public enum SearchKey {
    private static let spelledOut: [Character: String] = [
        "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d",
        "þ": "th", "Þ": "th", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ı": "i",
    ]

    /// The folded form of `text`.
    static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMappingScalars where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        var result = ""
        for character in String(scalars) {
            if let replacement = spelledOut[character] { result += replacement } else { result.append(character) }
        }
        return result.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether `text` holds a letter of a script other than Latin (Cyrillic, Hangul, Han…):
    /// the gazetteer keeps places' other names in Latin letters only (scripts/make-gazetteer.py),
    /// so such a name is found only by a service online.
    public static func hasOtherScript(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            // Latin: Basic Latin to Latin Extended-B, IPA and modifier letters, and Latin
            // Extended Additional (Vietnamese); a combining mark is no letter.
            scalar.properties.isAlphabetic && !(0...0x2FF).contains(scalar.value) && !(0x1E00...0x1EFF).contains(scalar.value)
                && scalar.properties.generalCategory != .nonspacingMark
        }
    }

    /// The advice after a search for `text` found nothing: `advice`, unless the name is in
    /// another script (`hasOtherScript`), which no spelling finds offline.
    public static func advice(_ text: String, else advice: String) -> String {
        hasOtherScript(text)
            ? "geotrip's own list of towns knows names in Latin letters only: write it as an English map does (Moscow, not Москва)."
            : advice
    }
}

import Foundation

extension String {
    /// The string's scalars after canonical decomposition (NFD).
    fileprivate var decomposedStringWithCanonicalMappingScalars: String.UnicodeScalarView {
        decomposedStringWithCanonicalMapping.unicodeScalars
    }
}
