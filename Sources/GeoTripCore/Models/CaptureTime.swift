import Foundation

/// A calendar date and wall-clock time with no time zone: what a camera's clock showed.
/// It is kept as written, never converted, because without an offset it names no instant.
public struct LocalDateTime: Sendable, Hashable, Comparable, Codable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Milliseconds from the SubSecTime tag, when the camera wrote one.
    public var millisecond: Int?

    /// Creates a validated date-time, or returns nil when the fields name no real moment
    /// (February 30th, hour 25, month 0).
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              millisecond.map({ (0...999).contains($0) }) ?? true
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// 1970-01-01 00:00:00 to the millisecond: what a device whose clock was never set (zero
    /// seconds of Unix time, on a clock kept in UTC) writes. No photograph taken then has an
    /// EXIF or XMP time of its own.
    public var isUnixEpoch: Bool {
        year == 1970 && month == 1 && day == 1 && hour == 0 && minute == 0 && second == 0 && (millisecond ?? 0) == 0
    }

    /// Number of days in a month of the proleptic Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]`, the form `geotrip photos` prints.
    public var iso8601: String {
        // Written digit by digit into one buffer: the catalog stores and compares hundreds of
        // thousands of these per run, and joining small strings allocated for each piece.
        String(unsafeUninitializedCapacity: 23) { buffer in
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
            }
            func put(_ character: Unicode.Scalar) {
                buffer[at] = UInt8(ascii: character)
                at += 1
            }
            put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2)
            put("T"); put(hour, 2); put(":"); put(minute, 2); put(":"); put(second, 2)
            if let millisecond { put("."); put(millisecond, 3) }
            return at
        }
    }

    /// Parses the form `iso8601` writes (used to read the catalog back).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 || (bytes.count == 23 && bytes[19] == UInt8(ascii: ".")) else { return nil }
        func number(_ range: Range<Int>) -> Int? { ASCIIDigits.parse(bytes[range]) }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
              let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19) else { return nil }
        let ms = bytes.count == 23 ? number(20..<23) : nil
        if bytes.count == 23, ms == nil { return nil }
        self.init(year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: ms)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.sortKey < rhs.sortKey
    }

    /// Milliseconds since 0001-01-01 in a proleptic calendar that only needs to order values.
    private var sortKey: Int {
        let days = (year * 12 + month) * 31 + day
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + (millisecond ?? 0)
    }
}

/// An offset from UTC as cameras record it in OffsetTimeOriginal (`+09:00`).
public struct UTCOffset: Sendable, Hashable, Codable {
    /// Signed minutes east of UTC.
    public var minutes: Int

    /// Real-world offsets run from -12:00 (Baker Island) to +14:00 (Line Islands).
    public static let validRange = -12 * 60...14 * 60

    /// Creates an offset, or nil outside the real-world range.
    public init?(minutes: Int) {
        guard Self.validRange.contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// `+HH:MM` / `-HH:MM`.
    public var description: String {
        let sign = minutes < 0 ? "-" : "+"
        return sign + ASCIIDigits.padded(abs(minutes) / 60, 2) + ":" + ASCIIDigits.padded(abs(minutes) % 60, 2)
    }

    /// Parses `+HH:MM`, `-HH:MM` or `Z`.
    public init?(parsing text: String) {
        if text == "Z" {
            self.init(minutes: 0)
            return
        }
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes[3] == UInt8(ascii: ":"),
              let hours = ASCIIDigits.parse(bytes[1..<3]), let mins = ASCIIDigits.parse(bytes[4..<6]), mins < 60
        else { return nil }
        let total = hours * 60 + mins
        self.init(minutes: bytes[0] == UInt8(ascii: "-") ? -total : total)
    }
}

/// An instant in UTC with millisecond precision, as GPS receivers report it.
public struct UTCTimestamp: Sendable, Hashable, Comparable, Codable {
    /// The date and time of day in UTC.
    public var dateTime: LocalDateTime

    /// Wraps a date-time that is known to be UTC.
    public init(_ dateTime: LocalDateTime) { self.dateTime = dateTime }

    /// ISO 8601 with a `Z`, milliseconds only when present: `2025-06-10T08:15:00Z`.
    public var iso8601: String { dateTime.iso8601 + "Z" }

    /// Whether the stored `a` (`iso8601`'s form) is an earlier instant than `b`. As text they
    /// compare in time order but within one second: `…:00Z` is the whole second, before
    /// `…:00.500Z`, where `Z` sorts after `.` (milliseconds are always three digits).
    static func precedes(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        if x.count != y.count, x.count >= 20, y.count >= 20, x.prefix(19).elementsEqual(y.prefix(19)) { return x.count < y.count }
        return a < b
    }

    /// `precedes` as an SQL `ORDER BY` term for a column of such times.
    static func orderSQL(_ column: String) -> String { "substr(\(column), 1, 19), length(\(column)), \(column)" }

    /// Parses the form `iso8601` writes.
    public init?(iso8601 text: String) {
        guard text.hasSuffix("Z"), let dateTime = LocalDateTime(iso8601: String(text.dropLast())) else { return nil }
        self.dateTime = dateTime
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.dateTime < rhs.dateTime }
}

/// Parses runs of ASCII digits without allocating; EXIF dates are fixed-width ASCII.
enum ASCIIDigits {
    /// The value of a run of ASCII digits, or nil if any byte is not a digit, the run is
    /// empty, or the value does not fit in an Int (files are not to be trusted with lengths).
    static func parse<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int(byte - 0x30))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    /// `value` in decimal with leading zeros to `width` digits (String(format:) costs far more,
    /// and ingest formats several dates per photo).
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
