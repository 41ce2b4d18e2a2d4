import Foundation

/// JSON that can sit inside an HTML `<script>` element: whatever the strings hold, it cannot
/// end the element (`</script>`), open a comment (`<!--`), or break the script on engines that
/// take U+2028/U+2029 as line ends. Each of `<`, `>`, `&`, U+2028 and U+2029 is written as a
/// `\uXXXX` escape; in JSON they occur only inside strings, where the escape means the same
/// character, so the data parses unchanged.
enum ScriptJSON {
    /// `json` made safe for a script element (`JSONValue` writes the map's data). Byte by byte:
    /// what is replaced is ASCII (`<`, `>`, `&`) or the three-byte forms of U+2028 and U+2029,
    /// and a page's JSON is megabytes long.
    static func escape(_ json: String) -> String {
        let bytes = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): out += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): out += Array("\\u0026".utf8)
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                out += Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
