import Foundation

/// The one rule for a traveller's local day, used by `places`, the trip line and the journal.
///
/// A photo's local time is its resolved UTC instant in its resolved zone; only when no instant
/// is known does the camera's own wall clock stand in. A day runs from `dayStart` to `dayStart`
/// (04:00 by default), not midnight to midnight: the photos of a night out that ends at 01:30
/// belong to the evening it began, as a traveller remembers it.
public struct LocalDayRule: Sendable, Equatable, Codable {
    /// Minutes after midnight at which a new day begins (0 ..< 1440).
    public var dayStartMinutes: Int

    /// 04:00: late enough for a night out, early enough for a dawn departure.
    public static let defaultDayStart = 4 * 60

    /// Creates a rule. Valid starts are 0 ..< 1440 (`isValid`); `ClusteringOptions.outOfRange`
    /// refuses others, so one read back from a hand-edited catalog is never used.
    public init(dayStartMinutes: Int = LocalDayRule.defaultDayStart) {
        self.dayStartMinutes = dayStartMinutes
    }

    /// Whether the start is a time of day.
    public var isValid: Bool { (0..<1440).contains(dayStartMinutes) }

    /// Parses `HH:MM` (00:00 to 23:59).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        self.init(dayStartMinutes: hours * 60 + minutes)
    }

    /// `HH:MM`.
    public var dayStartText: String { ASCIIDigits.padded(dayStartMinutes / 60, 2) + ":" + ASCIIDigits.padded(dayStartMinutes % 60, 2) }

    /// The local day (`YYYY-MM-DD`) of a photo: its instant in its zone, else its camera time.
    public func day(utc: Date?, zone: String?, cameraTime: String?) -> String? {
        if let utc, let local = LocalClock.wallClock(utc, zone: zone) { return day(ofWallClock: local) }
        guard let cameraTime, let local = LocalDateTime(iso8601: cameraTime) else { return nil }
        // A camera time resolution refused as implausible (2098, 1800) makes no day either.
        let wall = local.readAsUTC
        guard wall >= PlausibleCaptureTime.earliest, wall <= PlausibleCaptureTime.latest(now: Date()) else { return nil }
        return day(ofWallClock: wall)
    }

    /// The day of a wall-clock time read as if it were UTC.
    func day(ofWallClock wall: Date) -> String? {
        wall.addingTimeInterval(-Double(dayStartMinutes) * 60).geotripISO8601.map { String($0.prefix(10)) }
    }
}

/// Wall-clock times of instants in a resolved zone (an IANA name or a fixed `±HH:MM`).
public enum LocalClock {
    /// Seconds east of UTC in `zone` at `instant`, or nil for an unknown zone.
    public static func offsetSeconds(_ zone: String, at instant: Date) -> Int? {
        if let fixed = UTCOffset(parsing: zone) { return fixed.minutes * 60 }
        return zones.timeZone(zone)?.secondsFromGMT(for: instant)
    }

    /// Foundation's zones by name: making one costs far more than asking it an offset, and a
    /// trip has a handful of zones for thousands of photos.
    private static let zones = ZoneCache()

    private final class ZoneCache: @unchecked Sendable {
        private let lock = NSLock()
        private var zones: [String: TimeZone?] = [:]

        func timeZone(_ identifier: String) -> TimeZone? {
            lock.withLock {
                if let cached = zones[identifier] { return cached }
                let zone = TimeZone(identifier: identifier)
                zones[identifier] = zone
                return zone
            }
        }
    }

    /// The instant's wall clock in `zone`, read as if it were UTC; nil without a known zone.
    static func wallClock(_ instant: Date, zone: String?) -> Date? {
        guard let zone, let seconds = offsetSeconds(zone, at: instant) else { return nil }
        return instant.addingTimeInterval(TimeInterval(seconds))
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`: the instant as the clock in `zone` showed it.
    public static func iso8601(_ instant: Date, zone: String) -> String? {
        guard let seconds = offsetSeconds(zone, at: instant),
              let wall = instant.addingTimeInterval(TimeInterval(seconds)).geotripISO8601
        else { return nil }
        let offset = UTCOffset(minutes: seconds / 60)?.description ?? "+00:00"
        return String(wall.prefix(19)) + offset
    }

    /// What a traveller's watch called the zone at `instant`: tzdata's abbreviation (`WEST`,
    /// `CEST`, `JST`, `EDT`, or `+04` where tzdata invents none), else the offset (`+05:45`).
    public static func abbreviation(_ zone: String, at instant: Date) -> String {
        if let named = ZoneAbbreviations.shared.abbreviation(zone, at: instant), !named.isEmpty { return named }
        guard let seconds = offsetSeconds(zone, at: instant), let offset = UTCOffset(minutes: seconds / 60) else { return zone }
        return offset.description
    }
}

/// tzdata's own abbreviations, read from the system's compiled zone files (TZif, RFC 8536):
/// Foundation on Linux names every zone "GMT+1", which is no traveller's word for Lisbon in
/// summer. Files are read once per zone and kept; a missing or unreadable file gives nil.
final class ZoneAbbreviations: @unchecked Sendable {
    static let shared = ZoneAbbreviations()
    private let lock = NSLock()
    private var zones: [String: TZif?] = [:]

    /// Where tzdata's compiled files are.
    static let folder = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"

    func abbreviation(_ zone: String, at instant: Date) -> String? {
        // Only names that look like IANA zones, so no path can be read through them.
        guard !zone.isEmpty, !zone.contains(".."), !zone.hasPrefix("/"),
              zone.allSatisfy({ $0.isLetter || $0.isNumber || "/_-+".contains($0) })
        else { return nil }
        let file = lock.withLock { () -> TZif? in
            if let cached = zones[zone] { return cached }
            let loaded = TZif(data: FileManager.default.contents(atPath: Self.folder + "/" + zone))
            zones[zone] = loaded
            return loaded
        }
        guard let file, let offset = LocalClock.offsetSeconds(zone, at: instant) else { return nil }
        return file.abbreviation(at: Int64(instant.timeIntervalSince1970.rounded(.down)), offset: offset)
    }

    /// The parts of a TZif file that name the local time type in force at an instant.
    struct TZif {
        var transitions: [Int64] = []
        var typeOfTransition: [Int] = []
        var types: [(offset: Int32, abbreviationIndex: Int)] = []
        var abbreviations: [UInt8] = []

        /// Parses version 2+ files from their 64-bit block, version 1 from the 32-bit one.
        init?(data: Data?) {
            guard let data, data.count >= 44, data.prefix(4).elementsEqual("TZif".utf8) else { return nil }
            let bytes = [UInt8](data)
            func count(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
            func counts(_ header: Int) -> (isutc: Int, isstd: Int, leap: Int, time: Int, type: Int, chars: Int) {
                (count(header + 20), count(header + 24), count(header + 28), count(header + 32), count(header + 36), count(header + 40))
            }
            var header = 0
            var timeSize = 4
            let first = counts(0)
            if bytes[4] >= UInt8(ascii: "2") {
                // Skip the version 1 block to the version 2 header.
                header = 44 + first.time * 4 + first.time + first.type * 6 + first.chars + first.leap * 8 + first.isstd + first.isutc
                timeSize = 8
                guard bytes.count >= header + 44, bytes[header..<header + 4].elementsEqual("TZif".utf8) else { return nil }
            }
            let c = counts(header)
            var at = header + 44
            guard bytes.count >= at + c.time * (timeSize + 1) + c.type * 6 + c.chars, c.type > 0 else { return nil }
            for _ in 0..<c.time {
                var value: Int64 = 0
                for byte in bytes[at..<at + timeSize] { value = value << 8 | Int64(byte) }
                if timeSize == 4 { value = Int64(Int32(truncatingIfNeeded: value)) }
                transitions.append(value)
                at += timeSize
            }
            for _ in 0..<c.time {
                typeOfTransition.append(Int(bytes[at]))
                at += 1
            }
            for _ in 0..<c.type {
                let offset = Int32(bitPattern: UInt32(count(at)))
                types.append((offset, Int(bytes[at + 5])))
                at += 6
            }
            abbreviations = Array(bytes[at..<at + c.chars])
            guard typeOfTransition.allSatisfy({ $0 < types.count }), types.allSatisfy({ $0.abbreviationIndex < abbreviations.count })
            else { return nil }
        }

        /// The abbreviation in force at `time` (seconds since 1970), whose UTC offset is
        /// `offset` (from Foundation, which applies the file's footer rules): the latest local
        /// time type at or before `time` with that offset. Files built "slim" stop their
        /// transitions where the rules become regular, so the type is matched by its offset,
        /// not taken from the last transition alone.
        func abbreviation(at time: Int64, offset: Int) -> String? {
            let last = transitions.lastIndex(where: { $0 <= time })
            var candidates = (last.map { Array(typeOfTransition[...$0].reversed()) } ?? []) + Array(typeOfTransition.reversed())
            candidates.append(contentsOf: types.indices)
            guard let type = candidates.first(where: { Int(types[$0].offset) == offset }) else { return nil }
            let start = types[type].abbreviationIndex
            let end = abbreviations[start...].firstIndex(of: 0) ?? abbreviations.count
            return String(decoding: abbreviations[start..<end], as: UTF8.self)
        }
    }
}
