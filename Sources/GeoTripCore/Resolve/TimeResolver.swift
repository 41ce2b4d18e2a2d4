import Foundation

/// Which rule decided a photo's UTC instant.
public enum TimeSource: String, Sendable, Codable, CaseIterable {
    /// OffsetTimeOriginal (or the offset tag of the time field used).
    case offsetTag = "offset-tag"
    /// GPSDateStamp + GPSTimeStamp, agreeing with the camera time to a whole real offset.
    case gps
    /// The IANA zone of the photo's position, with its daylight-saving rules.
    case location
    /// The zone the person gave for the trip (`--tz`).
    case assumed
    /// Nothing to go on: the camera's wall-clock time is kept, floating.
    case none
    /// A video's `mvhd` time read as UTC, as the QuickTime specification defines it (and phones
    /// write it); chosen per camera over the local reading (`VideoClock`).
    case movieHeaderUTC = "mvhd-utc"
}

/// A correction for a camera clock that was set wrong: `+1:00:00`, `-0 22:00:00` (days),
/// or for one camera only, `"FUJIFILM X-T30=+01:00:00"`.
public struct ClockCorrection: Sendable, Equatable, CustomStringConvertible {
    /// "Make Model" as `PhotoMetadata.camera` spells it; nil for every camera.
    public var camera: String?
    /// Seconds to add to the camera's clock.
    public var seconds: Int

    /// The camera it corrects as compared: names match in any case (`fujifilm x-t30` is
    /// `FUJIFILM X-T30`); "" for every camera.
    public var cameraKey: String { camera?.lowercased() ?? "" }

    /// Whether it is `camera`'s own correction.
    func isOwn(of camera: String?) -> Bool { self.camera != nil && cameraKey == camera?.lowercased() }

    /// Parses `±[D ]HH:MM:SS`, optionally after `CAMERA=`.
    public init(parsing text: String) throws(ClockCorrectionError) {
        var value = Substring(text)
        if let equals = text.lastIndex(of: "=") {
            camera = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
            value = text[text.index(after: equals)...]
            if camera!.isEmpty { throw ClockCorrectionError(text: text) }
        }
        value = value.drop(while: { $0 == " " })
        guard let sign = value.first, sign == "+" || sign == "-" else { throw ClockCorrectionError(text: text) }
        var days = 0
        var clock = value.dropFirst()
        // A day part given (`+0 22:00:00`) holds the hours of a day; without one, hours run to
        // 99 (`+30:00:00`).
        let dayGiven = clock.contains(" ")
        if let space = clock.firstIndex(of: " ") {
            // Any number of digits parses (so a huge value is "out of range", not "malformed"),
            // but only as far as the range check needs: Int never overflows here.
            let digits = clock[..<space]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
                throw ClockCorrectionError(text: text)
            }
            let significant = digits.drop(while: { $0 == "0" })
            guard significant.count <= 7, let parsedDays = Int(significant.isEmpty ? "0" : significant),
                  parsedDays * 86_400 <= Self.maximumSeconds
            else { throw ClockCorrectionError(text: text, outOfRange: true) }
            days = parsedDays
            clock = clock[clock.index(after: space)...]
        }
        // Digits only: Int would take a sign too ("++01:00:00").
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
            .map { $0.count <= 4 && $0.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int($0) : nil }
        guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2],
              (0...23).contains(h) || (!dayGiven && (0...99).contains(h)), (0...59).contains(m), (0...59).contains(s)
        else { throw ClockCorrectionError(text: text) }
        let total = ((days * 24 + h) * 60 + m) * 60 + s
        guard total <= Self.maximumSeconds else { throw ClockCorrectionError(text: text, outOfRange: true) }
        seconds = sign == "-" ? -total : total
    }

    /// The largest correction accepted: 100 years of 365.25 days. A camera clock can be wrong
    /// by years (a reset to its factory date), never by centuries, and the bound keeps every
    /// corrected time a date the calendar arithmetic can represent.
    public static let maximumSeconds = 3_155_760_000

    public var description: String {
        let sign = seconds < 0 ? "-" : "+"
        let total = abs(seconds)
        let clock = sign + ASCIIDigits.padded(total / 3600, 2) + ":" + ASCIIDigits.padded(total / 60 % 60, 2) + ":" + ASCIIDigits.padded(total % 60, 2)
        return camera.map { "\($0)=\(clock)" } ?? clock
    }
}

/// A clock correction that could not be read.
public struct ClockCorrectionError: Error, CustomStringConvertible, Equatable {
    /// The offset as given.
    public var text: String
    /// Well formed, but more than `ClockCorrection.maximumSeconds`.
    public var outOfRange = false

    public var description: String {
        if outOfRange {
            return "'\(text)' is out of range: a clock offset can be at most 100 years (±36525 00:00:00)"
        }
        return "'\(text)' is not a clock offset: use ±HH:MM:SS, ±D HH:MM:SS, or \"MAKE MODEL=±HH:MM:SS\" for one camera"
    }
}

/// A zone the person names for the whole trip: an IANA name or a fixed `±HH:MM`.
public struct AssumedZone: Sendable, Equatable, CustomStringConvertible {
    public var identifier: String

    /// Accepts IANA names Foundation knows (`Europe/Lisbon`) and `±HH:MM`.
    public init?(_ text: String) {
        if UTCOffset(parsing: text) != nil || TimeZone(identifier: text) != nil { identifier = text } else { return nil }
    }

    public var description: String { identifier }
}

/// A photo's time, resolved.
public struct ResolvedTime: Sendable, Equatable {
    /// The instant, when a rule could decide it.
    public var utc: Date?
    /// IANA name, or `±HH:MM` when only the offset is known.
    public var zone: String?
    public var source: TimeSource
}

/// Resolves each photo's UTC instant and zone by the first rule that applies:
/// offset tag, GPS time, position's zone, the trip's assumed zone, else none.
///
/// Pure: the zone of a position comes through `zoneAt`, so tests need no gazetteer.
public struct TimeResolver: Sendable {
    /// The largest gap between the camera's clock and the GPS time, after removing a whole
    /// offset, for the GPS time to count: receivers and cameras agree to seconds, and a fix
    /// that is stale by more (it happens, by minutes to days) must not decide the zone.
    public static let gpsTolerance: TimeInterval = 300

    public var corrections: [ClockCorrection]
    public var assumedZone: AssumedZone?
    public var zoneAt: @Sendable (Coordinate) -> String?
    private var zones: [String: TimeZone] = [:]

    /// Creates a resolver.
    public init(corrections: [ClockCorrection] = [], assumedZone: AssumedZone? = nil, zoneAt: @escaping @Sendable (Coordinate) -> String?) {
        self.corrections = corrections
        self.assumedZone = assumedZone
        self.zoneAt = zoneAt
    }

    /// The camera's clock correction: a camera's own wins over the one for all cameras.
    func correction(for camera: String?) -> Int {
        if let own = corrections.first(where: { $0.isOwn(of: camera) }) { return own.seconds }
        return corrections.first(where: { $0.camera == nil })?.seconds ?? 0
    }

    /// Resolves one photo.
    public mutating func resolve(local: LocalDateTime?, offset: UTCOffset?, gpsTime: UTCTimestamp?,
                                 position: Coordinate?, camera: String?) -> ResolvedTime {
        let positionZone = position.flatMap(zoneAt)
        guard let local else {
            // No camera time at all: the GPS receiver's time is still a true instant.
            if let gpsTime {
                return ResolvedTime(utc: gpsTime.date, zone: positionZone, source: .gps)
            }
            return ResolvedTime(utc: nil, zone: nil, source: .none)
        }
        let wall = local.readAsUTC.addingTimeInterval(TimeInterval(correction(for: camera)))
        // The wall clock read as if it were UTC; subtracting an offset gives the instant.
        if let offset {
            // The offset decides the instant; the place, when known, the zone its day and hours
            // are read in: a camera whose clock (and offset) stayed on home time abroad took
            // the photo at that instant, but on the place's clock.
            let utc = wall.addingTimeInterval(-TimeInterval(offset.minutes * 60))
            return ResolvedTime(utc: utc, zone: positionZone ?? offset.description, source: .offsetTag)
        }
        if let gps = gpsTime?.date {
            if let minutes = Self.wholeOffset(of: wall, from: gps) {
                let utc = wall.addingTimeInterval(-TimeInterval(minutes * 60))
                let agreeing = name(positionZone, ifItsOffsetAt: utc, is: minutes)
                // Where the position's zone is known and says otherwise, the fix is stale.
                if positionZone == nil || agreeing != nil {
                    return ResolvedTime(utc: utc, zone: agreeing ?? UTCOffset(minutes: minutes)?.description, source: .gps)
                }
            }
        }
        if let positionZone, let utc = instant(wall, in: positionZone) {
            return ResolvedTime(utc: utc, zone: positionZone, source: .location)
        }
        if let assumedZone, let utc = instant(wall, in: assumedZone.identifier) {
            return ResolvedTime(utc: utc, zone: assumedZone.identifier, source: .assumed)
        }
        return ResolvedTime(utc: nil, zone: nil, source: .none)
    }

    /// The offset in minutes that `wall` (a clock read as UTC) shows from the GPS time `gps`,
    /// when that is a whole real-world offset (a multiple of 15 minutes, -12:00 to +14:00)
    /// within `gpsTolerance`; else nil.
    static func wholeOffset(of wall: Date, from gps: Date) -> Int? {
        let gap = wall.timeIntervalSince(gps)
        let quarters = (gap / 900).rounded()
        let minutes = Int(quarters) * 15
        return abs(gap - quarters * 900) <= gpsTolerance && UTCOffset.validRange.contains(minutes) ? minutes : nil
    }

    /// `zone` when its offset at `utc` is `minutes`, else nil.
    private mutating func name(_ zone: String?, ifItsOffsetAt utc: Date, is minutes: Int) -> String? {
        guard let zone, let timeZone = timeZone(zone) else { return nil }
        return timeZone.secondsFromGMT(for: utc) == minutes * 60 ? zone : nil
    }

    /// The instant at which clocks in `zone` showed `wall` (read as UTC), daylight saving included.
    private mutating func instant(_ wall: Date, in zone: String) -> Date? {
        if let offset = UTCOffset(parsing: zone) { return wall.addingTimeInterval(-TimeInterval(offset.minutes * 60)) }
        guard let timeZone = timeZone(zone) else { return nil }
        // The offsets in force a day before and a day after are the candidates; one that the
        // zone really has at the resulting instant is a reading of the wall clock. In the
        // autumn overlap both are, and the first occurrence (the earlier instant) is taken; in
        // the spring gap neither is, and the instant the clocks moved on is taken: a time
        // before the gap reads earlier and one after it later, so one camera's photos keep
        // their order on both sides, those in the gap sharing that instant (read with either
        // offset, a photo in the gap would pass one taken after it or before it). The same
        // rule whichever side of UTC the zone is on.
        let before = timeZone.secondsFromGMT(for: wall.addingTimeInterval(-86_400))
        let after = timeZone.secondsFromGMT(for: wall.addingTimeInterval(86_400))
        let readings = Set([before, after]).map { wall.addingTimeInterval(-TimeInterval($0)) }
            .filter { timeZone.secondsFromGMT(for: $0) == Int(wall.timeIntervalSince($0)) }
        if let first = readings.min() { return first }
        let (earliest, latest) = (wall.addingTimeInterval(-TimeInterval(max(before, after))), wall.addingTimeInterval(-TimeInterval(min(before, after))))
        if let change = timeZone.nextDaylightSavingTimeTransition(after: earliest), change <= latest { return change }
        return wall.addingTimeInterval(-TimeInterval(before))
    }

    private mutating func timeZone(_ identifier: String) -> TimeZone? {
        if let cached = zones[identifier] { return cached }
        let zone = UTCOffset(parsing: identifier).flatMap { TimeZone(secondsFromGMT: $0.minutes * 60) } ?? TimeZone(identifier: identifier)
        zones[identifier] = zone
        return zone
    }

    /// The camera's corrected wall clock, read as if it were UTC (for comparing cameras).
    func wallClock(_ local: LocalDateTime, camera: String?) -> Date {
        local.readAsUTC.addingTimeInterval(TimeInterval(correction(for: camera)))
    }

}

extension LocalDateTime {
    /// This wall-clock time read as if it were UTC (for arithmetic on offsets).
    var readAsUTC: Date {
        let days = Date.daysSince1970(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond ?? 0) / 1000)
    }
}

extension UTCTimestamp {
    /// The instant.
    public var date: Date { dateTime.readAsUTC }

    /// The instant of a stored `YYYY-MM-DDTHH:MM:SS[.fff]Z`, or nil.
    public static func date(_ text: String?) -> Date? { text.flatMap(UTCTimestamp.init(iso8601:))?.date }
}

