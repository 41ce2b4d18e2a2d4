import Foundation

/// JSON that can sit inside an HTML `<script>` element: whatever the strings hold, it cannot
/// end the element (`</script>`), open a comment (`<!--`), or break the script on engines that
/// take U+2028/U+2029 as line ends. Each of `<`, `>`, `&`, U+2028 and U+2029 is written as a
/// `\uXXXX` escape; in JSON they occur only inside strings, where the escape means the same
/// character, so the data parses unchanged.
enum ScriptJSON {
    /// `value` encoded with sorted keys (stable output: an unchanged trip writes an unchanged page).
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        return escape(json)
    }

    /// The escaping alone, for JSON made elsewhere.
    static func escape(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
