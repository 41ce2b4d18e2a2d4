#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads text lines from a file descriptor in bounded memory: a line longer than
/// `maximumLength` bytes is not collected but reported with its first bytes and its length, so
/// endless input without newlines (`/dev/zero`) or a 100 MB line costs no more memory than a
/// short one.
public struct BoundedLineReader {
    /// One line of input, without its line break (`\n` or `\r\n`).
    public enum Line: Equatable, Sendable {
        /// A line within the limit, decoded as UTF-8 (invalid bytes become U+FFFD).
        case text(String)
        /// A line over the limit: its first `BoundedLineReader.prefixLength` bytes and its full length.
        case tooLong(prefix: String, length: Int)
    }

    /// Why the input could not be read, as the system says it.
    public struct ReadError: Error, Equatable, CustomStringConvertible {
        /// The `errno` of the failed read.
        public var code: Int32
        /// strerror's words, such as "Is a directory".
        public var description: String { String(cString: strerror(code)) }
    }

    /// How many bytes of an overlong line are kept for its report.
    public static let prefixLength = 40

    /// The longest line returned as text, in bytes.
    public let maximumLength: Int
    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0, end = 0
    private var atEnd = false

    /// Reads from `descriptor`, which the caller keeps open and closes.
    public init(descriptor: Int32, maximumLength: Int = 1024) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
        buffer = [UInt8](repeating: 0, count: max(65_536, maximumLength * 2))
    }

    /// One line of input as bytes, for callers that read lines faster than they decode them.
    public enum RawLine {
        /// A line within the limit, without its line break (`\n` or `\r\n`): a slice of the
        /// reader's buffer, to be used before the next call.
        case bytes(ArraySlice<UInt8>)
        /// A line over the limit: its first `BoundedLineReader.prefixLength` bytes and its full length.
        case tooLong(prefix: [UInt8], length: Int)
    }

    /// The next line, or nil at the end of the input.
    public mutating func next() throws(ReadError) -> Line? {
        switch try nextBytes() {
        case nil: nil
        case .bytes(let bytes): .text(String(decoding: bytes, as: UTF8.self))
        case .tooLong(let prefix, let length): .tooLong(prefix: String(decoding: prefix, as: UTF8.self), length: length)
        }
    }

    /// Whether the next line is not yet buffered, so that `nextBytes` will call `read(2)`,
    /// which waits on a pipe until the writer writes.
    public var needsRead: Bool { !atEnd && !buffer[start..<end].contains(0x0A) }

    /// The next line as bytes, or nil at the end of the input.
    public mutating func nextBytes() throws(ReadError) -> RawLine? {
        var overlong: (prefix: [UInt8], length: Int)?
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                if let long = overlong { return Self.tooLong(long.prefix, long.length + line.count) }
                return line.count > maximumLength ? Self.tooLong(Array(line.prefix(Self.prefixLength)), line.count) : Self.text(line)
            }
            if atEnd {
                guard start < end || overlong != nil else { return nil }
                let line = buffer[start..<end]
                start = end
                if let long = overlong { return Self.tooLong(long.prefix, long.length + line.count) }
                return line.count > maximumLength ? Self.tooLong(Array(line.prefix(Self.prefixLength)), line.count) : Self.text(line)
            }
            // No line break in what is buffered: an overlong line is counted and dropped; a short
            // one is moved to the front to make room for more.
            if end - start > maximumLength || overlong != nil {
                let part = buffer[start..<end]
                overlong = (overlong?.prefix ?? Array(part.prefix(Self.prefixLength)), (overlong?.length ?? 0) + part.count)
                start = 0
                end = 0
            } else if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + end, $0.count - end) }
            if count > 0 {
                end += count
            } else if count == 0 {
                atEnd = true
            } else if errno != EINTR {
                throw ReadError(code: errno)
            }
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> RawLine {
        .bytes(bytes.last == 0x0D ? bytes.dropLast() : bytes)
    }

    private static func tooLong(_ prefix: [UInt8], _ length: Int) -> RawLine {
        .tooLong(prefix: prefix, length: length)
    }
}
