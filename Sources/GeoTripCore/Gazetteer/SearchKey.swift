import Foundation

/// The folding that turns a place name into a search key, identical to the resource script's
/// (scripts/gazetteer-format.md): decompose (compatibility forms too: fullwidth letters), drop
/// combining marks and unseen format characters, write hyphens and dashes as spaces (so
/// "Saint-Petersburg" is "saint petersburg"), spell out the few Latin
/// letters that have no decomposition, lowercase, collapse spaces. "Sant Julià de Lòria",
/// "SANT JULIA DE LORIA" and "sant julia de loria" all become the same key.
public enum SearchKey {
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d",
        "þ": "th", "Þ": "th", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ı": "i",
    ]

    /// The folded form of `text`. Scalar by scalar, as the script's Python does: a space
    /// before a mark or a joiner (Odia, Persian names) is a grapheme with it, and split as
    /// Characters such a pair would not part the words.
    static func fold(_ text: String) -> String {
        var kept = ""
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .format: continue
            case .dashPunctuation: kept.unicodeScalars.append(" ")
            default: if let replacement = spelledOut[scalar] { kept += replacement } else { kept.unicodeScalars.append(scalar) }
            }
        }
        var folded = String.UnicodeScalarView()
        var space = false
        for scalar in kept.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                space = !folded.isEmpty
            } else {
                if space { folded.append(" ") }
                space = false
                folded.append(scalar)
            }
        }
        return String(folded)
    }

    /// Whether `text` holds a letter of a script other than Latin (Cyrillic, Hangul, Han…):
    /// the gazetteer keeps places' names in other scripts only for places of 15,000 people or
    /// more (scripts/make-gazetteer.py), so a smaller town is found by its Latin name.
    public static func hasOtherScript(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            // Latin: Basic Latin to Latin Extended-B, IPA and modifier letters, and Latin
            // Extended Additional (Vietnamese); a combining mark is no letter.
            scalar.properties.isAlphabetic && !(0...0x2FF).contains(scalar.value) && !(0x1E00...0x1EFF).contains(scalar.value)
                && scalar.properties.generalCategory != .nonspacingMark
        }
    }

    /// The advice after a search in another script (`hasOtherScript`) found nothing: such
    /// names are known only for the larger places.
    public static let otherScriptAdvice = "geotrip's own list of towns knows names in other scripts only for places of 15,000 people or more: "
        + "write the name in Latin letters, as a map in English does."
}
