import Foundation
import Testing
@testable import GeoTripCore

/// `JSONArrayStream` against `JSONEncoder` encoding the whole array at once.
@Suite("Streamed JSON arrays")
struct JSONArrayStreamTests {
    struct Item: Encodable {
        var name: String
        var values: [Double]
        var nested: [String: String?]
        var path: String
    }

    static func streamed(_ items: [some Encodable]) throws -> Data {
        var output = Data()
        var stream = JSONArrayStream { output.append($0) }
        for item in items { try stream.append(item) }
        #expect(stream.finish() == items.count)
        return output
    }

    static func whole(_ items: [some Encodable]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(items) + Data([0x0A])
    }

    @Test("the same bytes as the encoder's whole array: empty, one element, many with nesting, line breaks in strings")
    func sameBytes() throws {
        let items = [
            Item(name: "a\nb \"quoted\" / é", values: [1, 2.5, -0.0, 1e-5], nested: ["x": "1", "y": nil], path: "2024/IMG_0001.JPG"),
            Item(name: "", values: [], nested: [:], path: "b"),
            Item(name: "日本", values: [3], nested: ["z": "\u{2028}"], path: "c/d"),
        ]
        #expect(try Self.streamed([Item]()) == Self.whole([Item]()))
        #expect(try Self.streamed(Array(items.prefix(1))) == Self.whole(Array(items.prefix(1))))
        #expect(try Self.streamed(items) == Self.whole(items))
        #expect(try Self.streamed([1, 2, 3]) == Self.whole([1, 2, 3]))
    }
}
