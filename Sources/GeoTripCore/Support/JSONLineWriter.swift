/// Writes flat JSON objects, one a line, into a reusable byte buffer, byte for byte as
/// Foundation's `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes them on Linux
/// (swift-foundation), but without its per-value boxing: `geotrip where` spent most of a batch
/// in the encoder, not in the lookup.
///
/// What the encoder does, and so what this does (`JSONLineWriterTests` holds the two together):
/// - strings: `"` and `\` escaped; U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`;
///   the other controls below U+0020 as `\u00XX` with lowercase hex; everything else, `/` and
///   DEL and U+2028 included, as its UTF-8 bytes (RFC 8259 section 7 requires no more);
/// - doubles: Swift's shortest round-trip `description` with a trailing `.0` cut (`100000`,
///   `-0`, `1e-05`, `1e+16`); integers in decimal; nil as `null`.
///
/// Keys are written in the order given: callers give them sorted by their UTF-8 bytes, as
/// `.sortedKeys` orders them.
public struct JSONLineWriter {
    /// What has been written since the last `removeAll()`.
    public private(set) var bytes: [UInt8] = []
    private var firstField = true

    /// An empty writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 1 << 17) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its memory, after its bytes have been written out.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// `{`
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        firstField = true
    }

    /// `}` and the line break that ends a JSON Lines record.
    public mutating func endObjectLine() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(0x0A)
    }

    /// `"key":"value"`, or `"key":null`.
    public mutating func field(_ key: StaticString, _ value: String?) {
        name(key)
        if let value { string(value) } else { null() }
    }

    /// `"key":number`, or `"key":null`. The number must be finite (`JSONEncoder` throws on
    /// NaN and infinities; no caller has one).
    public mutating func field(_ key: StaticString, _ value: Double?) {
        name(key)
        if let value { number(value) } else { null() }
    }

    /// `"key":integer`, or `"key":null`.
    public mutating func field(_ key: StaticString, _ value: Int?) {
        name(key)
        if let value { integer(value) } else { null() }
    }

    private mutating func name(_ key: StaticString) {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
        bytes.append(UInt8(ascii: "\""))
        // Keys are the caller's ASCII identifiers: nothing in them needs escaping.
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func null() {
        let null: StaticString = "null"
        bytes.append(contentsOf: UnsafeBufferPointer(start: null.utf8Start, count: null.utf8CodeUnitCount))
    }

    private mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var clean = 0  // start of the run of bytes that need no escape
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                clean = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSON has no \(value)")
        // Short descriptions (all coordinates and distances) are small strings: no allocation.
        var text = value.description
        text.withUTF8 { utf8 in
            let whole = utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: whole ? UnsafeBufferPointer(rebasing: utf8.dropLast(2)) : utf8)
        }
    }

    private mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: Int's 20 digits fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }
}
