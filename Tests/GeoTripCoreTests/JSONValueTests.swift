import Foundation
import Testing
@testable import GeoTripCore

/// `JSONValue` writes what `JSONEncoder` (sorted keys, slashes as they are) writes for the same
/// value, byte for byte: the export's documents did not change when they stopped going through
/// `Encodable`, and a rerun after an upgrade rewrites nothing for this reason alone.
@Suite("JSON values")
struct JSONValueTests {
    static func encoderText(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every control character, the characters JSON escapes, slashes, the script-breaking ones
    /// and text from other scripts.
    static let characters: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["\"", "\\", "/", "<", ">", "&", "\u{7F}", "\u{2028}", "\u{2029}", "é", "한", "🙂", "a", "Z", "0", " ", "_"]

    static func string(_ random: inout SplitMix) -> String {
        String((0..<Int.random(in: 0...12, using: &random)).map { _ in characters.randomElement(using: &random)! })
    }

    static func number(_ random: inout SplitMix) -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &random))
        case 1: return (Double.random(in: -180...180, using: &random) * 1e5).rounded() / 1e5
        case 2: return Double.random(in: -1...1, using: &random) * pow(10, Double(Int.random(in: -30...30, using: &random)))
        case 3: return [0.0, -0.0, 1e16, 1e21, 1e-7, 0.1 + 0.2, .leastNonzeroMagnitude, .greatestFiniteMagnitude].randomElement(using: &random)!
        case 4: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)  // any finite bit pattern
        default: return Double(Int.random(in: 0...100, using: &random)) / 8
        }
    }

    static func value(_ random: inout SplitMix, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 6 : 9), using: &random) {
        case 0: return .string(string(&random))
        case 1: return .number(number(&random))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .numbers((0..<Int.random(in: 0...5, using: &random)).map { _ in number(&random) })
        case 6, 7:
            var keys = Set<String>()
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                keys.insert(["id", "photos", "photoCount", "lat", "lon", "a_", "aa", "B", "b", "é", "visit"].randomElement(using: &random)!
                            + (Bool.random(using: &random) ? "" : string(&random).filter { $0.isLetter }))
            }
            return .object(keys.shuffled(using: &random).map { ($0, value(&random, depth: depth + 1)) })
        default: return .array((0..<Int.random(in: 0...5, using: &random)).map { _ in value(&random, depth: depth + 1) })
        }
    }

    @Test("random values are written as JSONEncoder writes them")
    func sameAsJSONEncoder() throws {
        var random = SplitMix(seed: 20261124)
        for _ in 0..<2_000 {
            let value = Self.value(&random, depth: 0)
            let text = value.text
            #expect(text == (try Self.encoderText(value)))
        }
    }

    @Test("escapes are RFC 8259's, and what JSONDecoder reads back is the value written")
    func escapes() throws {
        let every = String(Self.characters)
        let text = JSONValue.object([("s", .string(every)), ("n", .numbers([1, 0.5, -0.0, 1e-5]))]).text
        #expect(text.hasPrefix(#"{"n":[1,0.5,-0,1e-05],"s":"\u0000\u0001"#))
        #expect(text.contains(#"\b\t\n\u000b\f\r\u000e"#))
        let read = try JSONDecoder().decode([String: String].self, from: Data(JSONValue.object([("s", .string(every))]).text.utf8))
        #expect(read["s"] == every)
        #expect(JSONValue.number(.nan).text == "null" && JSONValue.number(.infinity).text == "null")
    }
}
