/// How much a diagnostic matters to the person reading the summary.
public enum DiagnosticSeverity: String, Sendable, Codable, Comparable {
    /// A file is damaged or unreadable, or the run could not do something it was asked to.
    case problem
    /// A value was missing or made no sense and was ignored: worth knowing, not alarming.
    case note

    public static func < (a: Self, b: Self) -> Bool { a == .problem && b == .note }
}

/// What a diagnostic is about, so a run can report "4,210 photos: GPS time without a date, not
/// used" once instead of 4,210 sentences. Each photo keeps its own sentences in the catalog.
public enum DiagnosticKind: String, Sendable, Codable, CaseIterable {
    /// The file could not be opened or read, or is not a file any more.
    case unreadable
    /// The container or its EXIF block is damaged or cut short.
    case damaged
    /// A photo without any EXIF block.
    case noExif = "no-exif"
    /// GPS position values that make no sense (bad reference, out of range, zero denominator).
    case positionIgnored = "position-ignored"
    /// GPS 0,0, which devices write when they have no fix.
    case nullIsland = "null-island"
    /// GPSTimeStamp without GPSDateStamp: common, harmless.
    case gpsTimeWithoutDate = "gps-time-without-date"
    /// Other GPS time values that make no sense.
    case gpsTimeIgnored = "gps-time-ignored"
    /// GPS altitude values that make no sense.
    case altitudeIgnored = "altitude-ignored"
    /// A capture date, sub-second or offset field that makes no sense.
    case timeIgnored = "time-ignored"
    /// A capture time before 1826 or more than a day after the run (as written or after --clock-offset).
    case implausibleTime = "implausible-time"
    /// A video whose movie header gives its instant in UTC, and nothing its zone (no position,
    /// no `--tz`): its day is reckoned from its UTC time.
    case zoneUnknown = "zone-unknown"
    /// Any other value of the wrong type or out of range (orientation, a tag's format).
    case valueIgnored = "value-ignored"
    /// An XMP sidecar could not be written or removed.
    case sidecarFailed = "sidecar-failed"
    /// Another program's XMP sidecar is in the way; it was left alone.
    case sidecarForeign = "sidecar-foreign"
    /// geotrip's own XMP sidecar was edited by another program since: left alone, its position
    /// no longer kept in step.
    case sidecarEdited = "sidecar-edited"
    /// A photo's XMP sidecar could not be read or is damaged: the photo is read without it.
    case sidecarUnreadable = "sidecar-unreadable"
    /// A folder (or a name in it) could not be scanned.
    case folder
    /// A run input (a track file) could not be used.
    case input
    /// A photo's thumbnail could not be made (or only from its readable part).
    case thumbnail
    /// The journal and map could not be brought in step (after `tag`).
    case output
    /// The online place-name service could not be used (said once per run).
    case naming
    /// The online place-name service was slow, or asked to wait longer than a slow answer
    /// takes (`Retry-After`): each said once per run.
    case namingSlow = "naming-slow"

    /// Problems first: damage, unreadable files and inputs, failed writes.
    public var severity: DiagnosticSeverity {
        switch self {
        case .unreadable, .damaged, .sidecarFailed, .sidecarUnreadable, .folder, .input, .naming, .thumbnail, .output: return .problem
        default: return .note
        }
    }

    /// What the photos of this kind have in common, after "N photos: ".
    public var label: String {
        switch self {
        case .unreadable: return "could not be read"
        case .damaged: return "damaged or cut short"
        case .noExif: return "no EXIF metadata"
        case .positionIgnored: return "GPS position unusable, not used"
        case .nullIsland: return "GPS position 0,0 (no fix), not used"
        case .gpsTimeWithoutDate: return "GPS time without a date, not used"
        case .gpsTimeIgnored: return "GPS time unusable, not used"
        case .altitudeIgnored: return "GPS altitude unusable, not used"
        case .timeIgnored: return "a capture time field unusable, ignored"
        case .implausibleTime: return "capture time before 1826 or more than a day after the run, not used"
        case .zoneUnknown: return "a video's time zone unknown, its day reckoned in UTC"
        case .valueIgnored: return "a value of the wrong type or out of range, ignored"
        case .sidecarFailed: return "XMP sidecar could not be written"
        case .sidecarForeign: return "XMP sidecar written by another program, left alone"
        case .sidecarEdited: return "geotrip's XMP sidecar edited by another program since, left alone"
        case .sidecarUnreadable: return "XMP sidecar damaged or unreadable, not used"
        case .folder: return "could not be scanned"
        case .input: return "input could not be used"
        case .thumbnail: return "no thumbnail could be made"
        case .output: return "the journal and map could not be updated"
        case .naming: return "place names could not be fetched online"
        case .namingSlow: return "the place-name service was slow, or asked to wait"
        }
    }
}

/// One problem found in one photo: its kind, and a sentence saying what and why.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    /// For counting and ordering.
    public var kind: DiagnosticKind
    /// The sentence the catalog keeps.
    public var message: String

    /// Creates a diagnostic.
    public init(_ kind: DiagnosticKind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
