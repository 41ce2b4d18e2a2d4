import Foundation

/// A JSON value that writes itself byte for byte as `JSONEncoder` writes the same value with
/// `.sortedKeys` and `.withoutEscapingSlashes`: members in the byte order of their keys, a
/// whole `Double` without `.0`, `"` and `\` escaped, control characters as `\n`-style or
/// lowercase `\u00xx` escapes, everything else (slashes, U+2028) as it is.
///
/// The export's documents (`trip.geojson`, the map page's data) are written with it rather
/// than through `Encodable`: on Linux, `JSONEncoder` wraps and unwraps every value on its way
/// and took a fifth of a library trip's export; no faster encoder is among the packages
/// geotrip can depend on. `JSONValueTests` holds it to `JSONEncoder`'s bytes.
indirect enum JSONValue: Sendable {
    case string(String)
    case number(Double)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// A list of numbers, kept unboxed: a route's coordinates are most of a map's data.
    case numbers([Double])
    /// Members in any order; written sorted by key.
    case object([(String, JSONValue)])

    /// A string, or `null` for nil.
    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The value's text.
    var text: String {
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's text to `out`.
    func write(into out: inout [UInt8]) {
        switch self {
        case .string(let text): Self.write(text, into: &out)
        case .number(let value): Self.write(value, into: &out)
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .numbers(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(value, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            for (index, (key, value)) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A number as `JSONEncoder` writes it: Swift's shortest form that reads back the same
    /// (`1e-05`, `1.2345678901234568e+17`), without `.0` when it is whole. JSON has no
    /// infinity or NaN, which no document here holds: they are written `null`.
    private static func write(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else { return out.append(contentsOf: "null".utf8) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A string in quotes with RFC 8259's escapes (section 7), as `JSONEncoder` chooses them.
    private static func write(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (names, paths, dates) need no escape: copied whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            return out.append(UInt8(ascii: "\""))
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: Encodable {
    /// The same value through `Encodable`, for holding the writer to `JSONEncoder`.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var c = encoder.singleValueContainer(); try c.encode(text)
        case .number(let value):
            var c = encoder.singleValueContainer(); try c.encode(value)
        case .integer(let value):
            var c = encoder.singleValueContainer(); try c.encode(value)
        case .bool(let value):
            var c = encoder.singleValueContainer(); try c.encode(value)
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .array(let values):
            var c = encoder.unkeyedContainer()
            for value in values { try c.encode(value) }
        case .numbers(let values):
            var c = encoder.unkeyedContainer()
            for value in values { try c.encode(value) }
        case .object(let members):
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try c.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
