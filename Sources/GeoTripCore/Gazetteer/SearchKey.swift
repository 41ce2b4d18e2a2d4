/// The folding that turns a place name into a search key, identical to the resource script's
/// (scripts/gazetteer-format.md): decompose, drop combining marks, spell out the few Latin
/// letters that have no decomposition, lowercase, collapse spaces. "Sant Julià de Lòria",
/// "SANT JULIA DE LORIA" and "sant julia de loria" all become the same key.
enum SearchKey {
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
}

import Foundation

extension String {
    /// The string's scalars after canonical decomposition (NFD).
    fileprivate var decomposedStringWithCanonicalMappingScalars: String.UnicodeScalarView {
        decomposedStringWithCanonicalMapping.unicodeScalars
    }
}
