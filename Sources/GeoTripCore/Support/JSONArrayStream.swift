import Foundation

/// Writes a JSON array element by element, byte for byte as `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` writes the whole array, so a
/// listing of a million photos is printed as it is read instead of held and encoded at once.
/// `JSONArrayStreamTests` holds the two together.
public struct JSONArrayStream {
    private let write: (Data) -> Void
    private let encoder: JSONEncoder
    private var count = 0

    /// A stream that hands each piece of text to `write`.
    public init(write: @escaping (Data) -> Void) {
        self.write = write
        encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    }

    /// Writes one element: encoded alone, then indented one level as the array's encoder
    /// indents its elements.
    public mutating func append(_ element: some Encodable) throws {
        let encoded = try encoder.encode(element)
        var text = Data(count == 0 ? "[\n  ".utf8 : ",\n  ".utf8)
        text.reserveCapacity(encoded.count + encoded.count / 8)
        // Every line indented, except the blank line the encoder writes inside an empty array
        // or object.
        var lineStart = false
        for byte in encoded {
            if lineStart && byte != 0x0A { text.append(contentsOf: [0x20, 0x20]) }
            text.append(byte)
            lineStart = byte == 0x0A
        }
        write(text)
        count += 1
    }

    /// Ends the array (and the line), and says how many elements it holds.
    @discardableResult
    public func finish() -> Int {
        // The encoder writes an empty array as `[\n\n]`.
        write(Data((count == 0 ? "[\n\n]\n" : "\n]\n").utf8))
        return count
    }
}
