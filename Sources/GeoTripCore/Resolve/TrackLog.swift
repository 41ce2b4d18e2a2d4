import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A timed position from a GPS log.
public struct TrackPoint: Sendable, Equatable {
    /// Where the receiver was.
    public var coordinate: Coordinate
    /// When it was there (an instant; track formats record UTC or an explicit offset).
    public var time: Date
    /// Metres above sea level as the file gives it (GPX `<ele>`, KML's third coordinate).
    public var elevation: Double?

    /// Creates a track point.
    public init(coordinate: Coordinate, time: Date, elevation: Double? = nil) {
        self.coordinate = coordinate
        self.time = time
        self.elevation = elevation
    }
}

/// Why a track file could not be read: one sentence naming the file and the problem.
public struct TrackError: Error, Equatable, CustomStringConvertible {
    /// The sentence, ready to show as it is.
    public var description: String

    /// Creates an error with its sentence.
    public init(description: String) {
        self.description = description
    }
}

/// What one track file holds: its timed points, and how many points it had to leave out.
public struct TrackFile: Sendable, Equatable {
    /// The two formats GPS loggers, phone apps and Google Earth write.
    public enum Format: String, Sendable, Equatable {
        case gpx = "GPX"
        case kml = "KML"
    }

    /// The file's name as given to the reader, for messages.
    public var name: String
    /// Found from the root element (`<gpx>` or `<kml>`), never from the file name.
    public var format: Format
    /// Every timed point with a valid position, sorted by time; equal times keep file order.
    public var points: [TrackPoint]
    /// Points left out because they have no time, or one that names no instant (a bare date).
    public var untimedCount: Int
    /// Points left out because a coordinate is not a number or is out of range.
    public var invalidCount: Int

    /// Creates a file summary.
    public init(name: String, format: Format, points: [TrackPoint], untimedCount: Int, invalidCount: Int) {
        self.name = name
        self.format = format
        self.points = points
        self.untimedCount = untimedCount
        self.invalidCount = invalidCount
    }
}

/// Reads GPS logs: GPX 1.0 and 1.1, and KML 2.2.
///
/// What is read (all else, including every element in another vendor's namespace, is ignored):
/// - GPX (topografix.com/GPX/1/1/gpx.xsd): `wpt`, `rtept` and `trkpt`, all of `wptType`, with
///   their `lat`/`lon` attributes and `<ele>` and `<time>` children. `<time>` elsewhere (in
///   `<metadata>`, or directly under `<gpx>` in 1.0) is when the file was written, not a position.
/// - KML 2.2 (OGC 07-147r2 and Google's gx extensions): `gx:Track` pairs its n-th `<when>` with
///   its n-th `<gx:coord>` ("lon lat alt"); a `Placemark` with `<TimeStamp><when>` and
///   `<Point><coordinates>lon,lat,alt</coordinates>` is one point. A `TimeSpan` is not a moment,
///   and a `gx:TimeStamp` inside `LookAt`/`Camera` is the viewer's time, so neither dates a point.
public enum TrackLog {
    /// Every timed point of a GPX or KML file, sorted by time (equal times keep file order).
    /// Throws for a file that cannot be read, is not XML, is neither GPX nor KML, or holds no
    /// timed point.
    public static func read(contentsOf url: URL) throws(TrackError) -> [TrackPoint] {
        try load(contentsOf: url).points
    }

    /// Every timed point of GPX or KML `data`; `name` is used in messages only.
    public static func read(data: Data, name: String) throws(TrackError) -> [TrackPoint] {
        try load(data: data, name: name).points
    }

    /// The file's points with the counts of points left out, for a summary line.
    public static func load(contentsOf url: URL) throws(TrackError) -> TrackFile {
        let name = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TrackError(description: "The track file \(name) cannot be read: \(readFailure(error, url: url)).")
        }
        return try load(data: data, name: name)
    }

    /// The points of GPX or KML `data` with the counts of points left out.
    public static func load(data: Data, name: String) throws(TrackError) -> TrackFile {
        let collector = TrackCollector()
        let parser = XMLParser(data: data)
        // Namespaces decide what is ours: a vendor's `<hr>` or `<time>` inside GPX
        // `<extensions>`, or Garmin's `<gpxx:rpt lat= lon=>` shaping points, must not be read.
        parser.shouldProcessNamespaces = true
        // No DTD fetching: a track file has no business reaching the network or the disk.
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        let finished = parser.parse()

        if let root = collector.foreignRoot {
            throw TrackError(description: "\(name) is XML but neither GPX nor KML: its root element is <\(root)>, where a track file has <gpx> or <kml>.")
        }
        // On Linux parse() can return true and still set parserError (an unclosed element at
        // the end), so both are checked.
        if !finished || parser.parserError != nil {
            let line = parser.lineNumber
            let problem = xmlProblem(parser.parserError)
            if let format = collector.format {
                throw TrackError(description: "\(name) is a \(format.rawValue) file that is damaged or cut short at line \(line) (\(problem)).")
            }
            throw TrackError(description: "\(name) is not a GPX or KML file: it is not XML (line \(line): \(problem)).")
        }
        guard let format = collector.format else {
            // libxml2 accepts an empty or whitespace-only document without an error.
            throw TrackError(description: "\(name) is not a GPX or KML file: it holds no XML element.")
        }
        guard !collector.points.isEmpty else {
            let found = collector.untimedCount + collector.invalidCount
            if found == 0 {
                throw TrackError(description: "\(name) is a \(format.rawValue) file with no points in it.")
            }
            throw TrackError(description: "\(name) has no point with a time (\(found) \(found == 1 ? "point" : "points"): \(collector.untimedCount) without a time, \(collector.invalidCount) with an invalid position), so it cannot place photos.")
        }
        return TrackFile(
            name: name, format: format, points: sortedByTime(collector.points),
            untimedCount: collector.untimedCount, invalidCount: collector.invalidCount)
    }

    /// `points` in time order, equal times in their given order. Swift's `sort` is not
    /// documented as stable, so the index breaks ties and the result never depends on it.
    static func sortedByTime(_ points: [TrackPoint]) -> [TrackPoint] {
        points.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// A few words for the XML parser's error. On Linux its localized description is only "The
    /// operation could not be completed", and `XMLParser.ErrorCode`'s raw values there do not
    /// match the codes it reports, which are libxml2's `xmlParserErrors` (libxml/xmlerror.h; the
    /// same numbers as Apple's NSXMLParserError), so the codes are matched as numbers.
    private static func xmlProblem(_ error: (any Error)?) -> String {
        guard let code = (error as NSError?)?.code else { return "the XML parser gave no reason" }
        switch code {
        case 3, 4: return "no XML element where the document should start"  // DOCUMENT_START, DOCUMENT_EMPTY
        case 5: return "the document ends early, or goes on after its last element"  // DOCUMENT_END
        case 9: return "a character XML does not allow"  // INVALID_CHAR
        case 23, 26, 68: return "an unknown or malformed entity (a bare & must be written &amp;)"
        case 31, 32, 81: return "text that is not in the declared encoding"
        case 39...42: return "a malformed attribute"
        case 72, 73, 77: return "a tag that is not closed"  // LT_REQUIRED, GT_REQUIRED, TAG_NOT_FINISHED
        case 76, 85: return "a closing tag that does not match its opening tag"  // TAG_NAME_MISMATCH, NOT_WELL_BALANCED
        case 86: return "content after the last element"  // EXTRA_CONTENT
        default: return "XML parser error \(code)"
        }
    }

    /// The reason a file could not be read, in words rather than an error domain and code.
    private static func readFailure(_ error: any Error, url: URL) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder, not a file"
        }
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?: return "there is no such file"
        case .fileReadNoPermission?: return "permission denied"
        default:
            // Linux's description of other read failures names only the error domain; the
            // POSIX error underneath says what happened.
            if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
               underlying.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(underlying.code))).lowercased()
            }
            return error.localizedDescription
        }
    }
}

// MARK: - Parsing

/// The values of one point as written, before they are checked.
private struct WrittenPoint {
    var latitude: String?
    var longitude: String?
    var elevation: String?
    var time: String?
}

/// Turns XMLParser's events into points. One per file, used on one thread, then dropped.
private final class TrackCollector: NSObject, XMLParserDelegate {
    /// KML 2.2's extension namespace, for `gx:Track` and `gx:coord`.
    static let gxNamespace = "http://www.google.com/kml/ext/2.2"

    /// Set by the root element.
    private(set) var format: TrackFile.Format?
    /// The root element's name when it is neither `gpx` nor `kml`.
    private(set) var foreignRoot: String?
    private(set) var points: [TrackPoint] = []
    private(set) var untimedCount = 0
    private(set) var invalidCount = 0

    /// The namespace of the root element: GPX 1.0 and 1.1 and KML 2.1 and 2.2 differ only here,
    /// and files without `xmlns` exist, so the root's namespace is taken as the format's own.
    private var ownNamespace = ""
    /// Names of the open elements that are read, with `gx:` for KML extension elements.
    private var path: [String] = []
    /// Depth inside an ignored subtree (another namespace, GPX `<extensions>`); 0 outside.
    private var ignoredDepth = 0
    /// The text of the element being read, when it is one whose text matters.
    private var text: String?

    /// The GPX point whose element is open.
    private var gpxPoint: WrittenPoint?
    /// The Placemark being read, if any; its `<when>` and `<coordinates>` so far.
    private var placemark: WrittenPoint?
    /// The `<when>` and `<gx:coord>` values of the open `gx:Track`, each in file order.
    private var trackWhens: [String] = []
    private var trackCoords: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        if ignoredDepth > 0 {
            ignoredDepth += 1
            return
        }
        let namespace = namespaceURI ?? ""
        guard let format else {
            startDocument(parser, root: elementName, namespace: namespace)
            return
        }
        let name: String
        switch format {
        case .gpx:
            // GPX 1.1 extensionsType: "You can add extend GPX by adding your own elements from
            // another schema here". GPSBabel writes <extensions> into GPX 1.0 files too, in the
            // 1.0 namespace, so the element is skipped by name as well as by namespace.
            guard namespace == ownNamespace, elementName != "extensions" else {
                ignoredDepth = 1
                return
            }
            name = elementName
        case .kml:
            if namespace == ownNamespace {
                name = elementName
            } else if namespace == Self.gxNamespace {
                name = "gx:" + elementName
            } else {
                ignoredDepth = 1
                return
            }
        }
        let parent = path.last
        path.append(name)
        switch format {
        case .gpx: startGPX(name, parent: parent, attributes: attributes)
        case .kml: startKML(name, parent: parent)
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        guard let name = path.popLast(), let format else { return }
        let value = text
        text = nil
        switch format {
        case .gpx: endGPX(name, text: value)
        case .kml: endKML(name, parent: path.last, text: value)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if ignoredDepth == 0, text != nil { text! += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if ignoredDepth == 0, text != nil { text! += String(decoding: CDATABlock, as: UTF8.self) }
    }

    /// Decides the format from the root element; anything else stops the parse at once.
    private func startDocument(_ parser: XMLParser, root: String, namespace: String) {
        switch root {
        case "gpx": format = .gpx
        case "kml": format = .kml
        default:
            foreignRoot = root
            parser.abortParsing()
            return
        }
        ownNamespace = namespace
        path.append(root)
    }

    // MARK: GPX

    private func startGPX(_ name: String, parent: String?, attributes: [String: String]) {
        switch name {
        case "wpt", "rtept", "trkpt":
            // All three are wptType: lat and lon are required attributes (latitudeType,
            // longitudeType: decimal degrees, WGS 84).
            gpxPoint = WrittenPoint(latitude: attributes["lat"], longitude: attributes["lon"])
        case "ele", "time":
            // Only a point's own children: <metadata><time> is when the file was made.
            if gpxPoint != nil, parent == "wpt" || parent == "rtept" || parent == "trkpt" { text = "" }
        default:
            break
        }
    }

    private func endGPX(_ name: String, text: String?) {
        switch name {
        case "ele": if let text { gpxPoint?.elevation = text }
        case "time": if let text { gpxPoint?.time = text }
        case "wpt", "rtept", "trkpt":
            if let point = gpxPoint { add(point) }
            gpxPoint = nil
        default:
            break
        }
    }

    // MARK: KML

    private func startKML(_ name: String, parent: String?) {
        switch name {
        case "Placemark":
            placemark = WrittenPoint()
        case "gx:Track":
            trackWhens = []
            trackCoords = []
        case "when":
            // gx:Track's own <when>s, or the Placemark's <TimeStamp> (in the KML namespace; the
            // one under LookAt is gx:TimeStamp, and a path check keeps it out as well).
            let grandparent = path.count >= 3 ? path[path.count - 3] : nil
            if parent == "gx:Track" || (parent == "TimeStamp" && grandparent == "Placemark") { text = "" }
        case "gx:coord":
            if parent == "gx:Track" { text = "" }
        case "coordinates":
            let grandparent = path.count >= 3 ? path[path.count - 3] : nil
            if parent == "Point" && grandparent == "Placemark" { text = "" }
        default:
            break
        }
    }

    private func endKML(_ name: String, parent: String?, text: String?) {
        switch name {
        case "when":
            guard let text else { return }
            if parent == "gx:Track" { trackWhens.append(text) } else { placemark?.time = text }
        case "gx:coord":
            if let text { trackCoords.append(text) }
        case "coordinates":
            guard let text else { return }
            // A Point has one tuple "lon,lat[,alt]". KML 2.2 allows no spaces inside a tuple,
            // but hand-edited files have them and nothing is ambiguous, so fields are trimmed.
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard fields.count == 2 || fields.count == 3 else {
                // Several tuples, or not a tuple at all: no one position to take.
                placemark?.latitude = ""
                placemark?.longitude = ""
                return
            }
            placemark?.longitude = fields[0]
            placemark?.latitude = fields[1]
            placemark?.elevation = fields.count == 3 ? fields[2] : nil
        case "gx:Track":
            // KML 2.2 gx:Track: "The number of <when> elements must equal the number of
            // <gx:coord> elements". When a writer breaks that, only full pairs are kept; a
            // coordinate without its <when> is a point without a time.
            for (index, coord) in trackCoords.enumerated() {
                let fields = coord.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                var point = WrittenPoint()
                if fields.count == 2 || fields.count == 3 {
                    point.longitude = String(fields[0])
                    point.latitude = String(fields[1])
                    point.elevation = fields.count == 3 ? String(fields[2]) : nil
                } else {
                    point.latitude = ""
                    point.longitude = ""
                }
                point.time = index < trackWhens.count ? trackWhens[index] : nil
                add(point)
            }
            trackWhens = []
            trackCoords = []
        case "Placemark":
            // Only a Placemark with a Point is a position; one with a LineString or a gx:Track
            // has its coordinates elsewhere (or none with times).
            if let point = placemark, point.latitude != nil || point.longitude != nil { add(point) }
            placemark = nil
        default:
            break
        }
    }

    // MARK: Checking values

    /// Checks a written point and keeps it, or counts why it was left out.
    private func add(_ written: WrittenPoint) {
        guard let latitude = Self.number(written.latitude), let longitude = Self.number(written.longitude),
              abs(latitude) <= 90, abs(longitude) <= 180
        else {
            invalidCount += 1
            return
        }
        guard let text = written.time, let time = ISO8601Instant.parse(text) else {
            untimedCount += 1
            return
        }
        points.append(TrackPoint(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            time: time,
            elevation: Self.number(written.elevation)))
    }

    /// A finite decimal number (optionally with an exponent), or nil. Swift's `Double(_:)` alone
    /// would also take "nan", "inf" and hexadecimal, none of which a coordinate can be.
    static func number(_ text: String?) -> Double? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
              trimmed.utf8.allSatisfy({ ASCIIDigits.isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
              let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }
}

/// A strict reader of xsd:dateTime, the type of GPX `<time>` and of KML `<when>` to the second.
///
/// Accepts `YYYY-MM-DDThh:mm:ss`, then any number of fractional-second digits, then `Z`, `±hh:mm`
/// (or `±hhmm`, `±hh`, which ISO 8601 allows and some apps write), or nothing. Without a zone the
/// time is taken as UTC: GPX 1.1 says of `<time>` "Date and time in are in Univeral Coordinated
/// Time (UTC), not local time!"; KML's reference lists dateTime only with `Z` or an offset, so a
/// zoneless KML time is off-spec and is read the GPX way rather than dropped. Date-only KML values
/// (gYear, gYearMonth, date) name no instant and give nil. Hand-written rather than
/// ISO8601DateFormatter: one pass over the bytes, no formatter to cache, and an impossible date
/// (June 31st) is refused instead of rolled over.
enum ISO8601Instant {
    /// The instant `text` names, or nil.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard bytes.count >= 19,
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = ASCIIDigits.parse(bytes[0..<4]), let month = ASCIIDigits.parse(bytes[5..<7]),
              let day = ASCIIDigits.parse(bytes[8..<10]), let hour = ASCIIDigits.parse(bytes[11..<13]),
              let minute = ASCIIDigits.parse(bytes[14..<16]), let second = ASCIIDigits.parse(bytes[17..<19]),
              (1...12).contains(month), (1...LocalDateTime.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute),
              // 60 is a leap second (ISO 8601 §4.2.1); it counts as the next minute's first.
              (0...60).contains(second)
        else { return nil }

        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, ASCIIDigits.isDigit(bytes[index]) { index += 1 }
            guard index > start, let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = digits
        }

        var offsetSeconds = 0
        if index < bytes.count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") {
                index += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                let zone = bytes[(index + 1)...]
                let hours: Int?, minutes: Int?
                switch zone.count {
                case 5 where zone[zone.startIndex + 2] == UInt8(ascii: ":"):
                    hours = ASCIIDigits.parse(zone.prefix(2))
                    minutes = ASCIIDigits.parse(zone.suffix(2))
                case 4:
                    hours = ASCIIDigits.parse(zone.prefix(2))
                    minutes = ASCIIDigits.parse(zone.suffix(2))
                case 2:
                    hours = ASCIIDigits.parse(zone)
                    minutes = 0
                default:
                    return nil
                }
                // xsd:dateTime limits offsets to ±14:00.
                guard let hours, let minutes, hours <= 14, minutes <= 59, hours * 60 + minutes <= 14 * 60 else { return nil }
                offsetSeconds = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
                index = bytes.count
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }

        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

// MARK: - Positions

/// Positions at a moment from a track.
///
/// The sphere's arithmetic (slerp, distances) is `GreatCircle`'s, shared with `LocationResolver`.
///
/// Between two fixes a receiver moved along some path we do not know; the great circle between
/// them at constant speed is the best guess, and its error grows towards the middle of the
/// segment. Beyond the ends of the log, or across a gap where the logger was off (indoors, in a
/// tunnel, battery), the nearest fix stands, with an uncertainty that grows at walking speed.
public struct TrackPositioner: Sendable {
    /// A consumer receiver's typical horizontal error at a fix, metres.
    public static let fixUncertainty = 10.0
    /// How fast the uncertainty grows away from a fix: walking pace (about 5.4 km/h), metres a second.
    public static let driftSpeed = 1.5

    /// The points in time order.
    public let points: [TrackPoint]
    /// Consecutive points further apart than this are not interpolated between, in seconds.
    public let maximumGap: TimeInterval
    /// How far from the nearest point in time a position is still given, in seconds.
    public let maximumReach: TimeInterval
    /// The points' times, for the binary search.
    private let times: [TimeInterval]

    /// Creates a positioner; the points need not be sorted (a stable sort by time is applied,
    /// as several files may have been joined).
    public init(points: [TrackPoint], maximumGap: TimeInterval = 1800, maximumReach: TimeInterval = 1800) {
        let sorted = TrackLog.sortedByTime(points)
        self.points = sorted
        self.times = sorted.map { $0.time.timeIntervalSinceReferenceDate }
        self.maximumGap = maximumGap
        self.maximumReach = maximumReach
    }

    /// Where the track puts the moment `time`, and how far off that may be (metres); nil when the
    /// track is empty or its nearest point is more than `maximumReach` away with no segment around.
    ///
    /// Between two consecutive points at most `maximumGap` apart: the point the time fraction `f`
    /// of the way along the great circle between them (right across the antimeridian), with
    /// uncertainty 10 m + distance × min(f, 1 − f): 10 m at a fix, 10 m plus half the segment in
    /// the middle. Exactly at a point: that point, 10 m. Inside a longer gap: nil. Before the
    /// first point or after the last: the nearest point if it is within `maximumReach`, with
    /// 10 m + 1.5 m/s × the seconds away. O(log n).
    public func position(at time: Date) -> (coordinate: Coordinate, uncertaintyMeters: Double)? {
        let t = time.timeIntervalSinceReferenceDate
        // The first point at or after t.
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < t { low = middle + 1 } else { high = middle }
        }
        if low < times.count, times[low] == t {
            return (points[low].coordinate, Self.fixUncertainty)
        }
        let before = low > 0 ? low - 1 : nil
        let after = low < times.count ? low : nil

        if let before, let after {
            // Inside the track: interpolate over a short gap; a longer one (the logger was off)
            // says nothing about where the photo was.
            guard times[after] - times[before] <= maximumGap else { return nil }
            let a = points[before].coordinate, b = points[after].coordinate
            let fraction = (t - times[before]) / (times[after] - times[before])
            let distance = GreatCircle.distance(a, b)
            return (GreatCircle.interpolate(a, b, fraction: fraction),
                    Self.fixUncertainty + distance * min(fraction, 1 - fraction))
        }

        let nearest = [before, after].compactMap { $0 }.min { abs(times[$0] - t) < abs(times[$1] - t) }
        guard let nearest else { return nil }
        let away = abs(times[nearest] - t)
        guard away <= maximumReach else { return nil }
        return (points[nearest].coordinate, Self.fixUncertainty + Self.driftSpeed * away)
    }
}
