import Foundation

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

/// How many points of a track were left out, by reason.
public struct DroppedTrackPoints: Sendable, Equatable, Encodable {
    /// Points with no time, or one that names no instant (a bare date).
    public var untimed = 0
    /// Points whose latitude or longitude is not a number or is out of range.
    public var invalid = 0
    /// Points at exactly 0,0 ("null island"), which receivers write when they have no fix.
    public var nullIsland = 0
    /// Points that imply a speed above `TrackLog.maximumSpeed` from the fixes beside them.
    public var tooFast = 0

    /// Creates counts, all zero unless given.
    public init(untimed: Int = 0, invalid: Int = 0, nullIsland: Int = 0, tooFast: Int = 0) {
        self.untimed = untimed
        self.invalid = invalid
        self.nullIsland = nullIsland
        self.tooFast = tooFast
    }

    /// All the points left out.
    public var total: Int { untimed + invalid + nullIsland + tooFast }

    /// The counts of two files together.
    public static func + (a: Self, b: Self) -> Self {
        Self(untimed: a.untimed + b.untimed, invalid: a.invalid + b.invalid,
             nullIsland: a.nullIsland + b.nullIsland, tooFast: a.tooFast + b.tooFast)
    }

    /// Adds another file's counts.
    public static func += (a: inout Self, b: Self) { a = a + b }
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
    /// The points left out, by reason.
    public var dropped: DroppedTrackPoints

    /// Points left out because they have no time, or one that names no instant (a bare date).
    public var untimedCount: Int {
        get { dropped.untimed }
        set { dropped.untimed = newValue }
    }
    /// Points left out because a coordinate is not a number or is out of range.
    public var invalidCount: Int {
        get { dropped.invalid }
        set { dropped.invalid = newValue }
    }

    /// Creates a file summary.
    public init(name: String, format: Format, points: [TrackPoint], dropped: DroppedTrackPoints) {
        self.name = name
        self.format = format
        self.points = points
        self.dropped = dropped
    }

    /// Creates a file summary with only the untimed and invalid counts.
    public init(name: String, format: Format, points: [TrackPoint], untimedCount: Int, invalidCount: Int) {
        self.init(name: name, format: format, points: points,
                  dropped: DroppedTrackPoints(untimed: untimedCount, invalid: invalidCount))
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
///
/// What is left out, and counted by reason (`DroppedTrackPoints`): a point without a time; one
/// whose position is not a number or out of range; one at exactly 0,0, which receivers write
/// when they have no fix (as for photos, see `ExifDecoder`); and a glitch, a fix that implies more
/// than 1,000 km/h from the fixes beside it (see `removeSpeedOutliers`). Only a receiver's fixes
/// (`trkpt`, `gx:Track`) are held to that speed: waypoints, route points and placemarks are places
/// someone chose, and a plan may well give two of them the same time.
///
/// Files are streamed (`XMLEventStream`), so a log of any size is read in bounded memory; only
/// the points are kept. A document type that declares entities is refused: an entity can expand
/// without bound (billion laughs) or name another file (XXE), and no GPS logger writes one.
/// Only regular files are read: a named pipe or a device is refused without being waited on.
public enum TrackLog {
    /// The fastest a fix may seem to move from its neighbours: 1,000 km/h, above an airliner's
    /// cruise (about 900 km/h) and far below what a glitch implies (a fix 2,000 km off, a second
    /// later, is 7 million km/h). The same idea as `LocationResolver.maximumSpeed` for photos,
    /// set higher because a logger may be carried on a plane. Metres a second.
    public static let maximumSpeed = 1_000_000.0 / 3600

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
        // O_NONBLOCK: opening a named pipe must not wait for a writer; it is refused below.
        let descriptor = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw unreadable(name, reason: systemFailure(errno))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw unreadable(name, reason: systemFailure(errno))
        }
        if let kind = notAFile(mode: info.st_mode) {
            throw unreadable(name, reason: kind)
        }
        let collector = TrackCollector()
        let end = XMLEventStream.read(fileDescriptor: descriptor, into: collector)
        return try trackFile(collector, end: end, name: name)
    }

    /// The points of GPX or KML `data` with the counts of points left out.
    public static func load(data: Data, name: String) throws(TrackError) -> TrackFile {
        let collector = TrackCollector()
        let end = XMLEventStream.read(data: data, into: collector)
        return try trackFile(collector, end: end, name: name)
    }

    /// Throws the error `load(contentsOf:)` would for a path that does not name a file (missing,
    /// a folder, a named pipe, a device), without opening it; for checking `--track` early.
    public static func checkIsFile(atPath path: String) throws(TrackError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadable(path, reason: systemFailure(errno)) }
        if let kind = notAFile(mode: info.st_mode) { throw unreadable(path, reason: kind) }
    }

    /// "The track file NAME cannot be read: REASON."
    private static func unreadable(_ name: String, reason: String) -> TrackError {
        TrackError(description: "The track file \(name) cannot be read: \(reason).")
    }

    /// What a file mode names when it is not a regular file, as words for a sentence; nil for a file.
    private static func notAFile(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFIFO: return "it is a named pipe, not a file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        default: return "it is not a regular file"
        }
    }

    /// The reason `open`, `stat` or `read` failed, in words rather than an error number.
    private static func systemFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "there is no such file"
        case EACCES: return "permission denied"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The file's points, checked and sorted, or the sentence saying why there are none.
    private static func trackFile(_ collector: TrackCollector, end: XMLEventStreamEnd, name: String) throws(TrackError) -> TrackFile {
        switch end {
        case .readFailed(let code):
            throw unreadable(name, reason: systemFailure(code))
        case .empty:
            throw TrackError(description: "\(name) is not a GPX or KML file: it is empty.")
        case .declaresEntities, .declaresDocumentType:
            throw TrackError(description: "\(name) declares XML entities, which geotrip does not read in track files (they can expand without bound or reach other files); remove the DOCTYPE and export the track again.")
        case .tooManyAttributes(let line):
            throw TrackError(description: "\(name) has an element with more than \(StartTagScanner.maximumAttributes.grouped) attributes at line \(line), "
                + "which no GPX or KML writer makes (the XML parser would take minutes over it); not read.")
        case .malformed(let problem, let line):
            if let format = collector.reading.format {
                throw TrackError(description: "\(name) is a \(format.rawValue) file that is damaged or cut short at line \(line) (\(problem)).")
            }
            throw TrackError(description: "\(name) is not a GPX or KML file: it is not XML (line \(line): \(problem)).")
        case .finished, .stoppedByHandler:
            break
        }
        if let root = collector.reading.foreignRoot {
            throw TrackError(description: "\(name) is XML but neither GPX nor KML: its root element is <\(root)>, where a track file has <gpx> or <kml>.")
        }
        guard let format = collector.reading.format else {
            throw TrackError(description: "\(name) is not a GPX or KML file: it holds no XML element.")
        }
        var dropped = collector.reading.dropped
        guard collector.reading.hasPoints else {
            let found = dropped.total
            if found == 0 {
                throw TrackError(description: "\(name) is a \(format.rawValue) file with no points in it.")
            }
            let atZero = dropped.nullIsland > 0 ? ", \(dropped.nullIsland) at 0,0" : ""
            throw TrackError(description: "\(name) has no point with a time and a position (\(found) \(found == 1 ? "point" : "points"): \(dropped.untimed) without a time, \(dropped.invalid) with an invalid position\(atZero)), so it cannot place photos.")
        }
        var (points, fixes) = collector.reading.takePoints()
        if !isSortedByTime(points) {
            let order = timeOrder(points)
            points = order.map { points[$0] }
            fixes = order.map { fixes[$0] }
        }
        dropped.tooFast = removeSpeedOutliers(from: &points, fixes: fixes)
        return TrackFile(name: name, format: format, points: points, dropped: dropped)
    }

    /// `points` in time order, equal times in their given order. Swift's `sort` is not
    /// documented as stable, so the index breaks ties and the result never depends on it.
    /// Logs are nearly always written in order, and then the same array comes back, not a copy.
    static func sortedByTime(_ points: [TrackPoint]) -> [TrackPoint] {
        isSortedByTime(points) ? points : timeOrder(points).map { points[$0] }
    }

    private static func isSortedByTime(_ points: [TrackPoint]) -> Bool {
        zip(points, points.dropFirst()).allSatisfy { $0.time <= $1.time }
    }

    /// The indices of `points` in time order, equal times in index order.
    private static func timeOrder(_ points: [TrackPoint]) -> [Int] {
        points.indices.sorted { (points[$0].time, $0) < (points[$1].time, $1) }
    }

    /// Whether two fixes could both be right: the distance between them at most
    /// `maximumSpeed` × the time between them, counted as at least a second (loggers round
    /// times to the second, and two fixes in the same second are still a second's travel apart).
    static func consistent(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
        let seconds = max(abs(b.time.timeIntervalSince(a.time)), 1)
        return GreatCircle.distance(a.coordinate, b.coordinate) <= maximumSpeed * seconds
    }

    /// Removes glitches from time-sorted `points` and returns how many it removed. Only the
    /// points whose `fixes` flag is true (all when nil) are judged, and judged among themselves;
    /// the others stay, wherever they fall.
    ///
    /// The points fall into runs, each fix consistent with the one before it. A glitch (a
    /// multipath jump, a bad write) makes a short run between two longer ones, or several short
    /// runs; it is the short stretch that is wrong, not the track on either side of it. So a
    /// stretch of runs with fewer points in all than the run before it and the run after it is
    /// removed when those two agree with each other across it; a single spike whose neighbours
    /// agree goes, and the rest of the track stays. At either end, a first (or last) run shorter
    /// than the run next to it goes too: a receiver's first fixes after a cold start can be its
    /// last known position. Runs that no rule settles are kept: a plane's fixes at more than
    /// 1,000 km/h are each a run of one, and none is shorter than its neighbours. O(n).
    static func removeSpeedOutliers(from points: inout [TrackPoint], fixes: [Bool]? = nil) -> Int {
        guard points.count > 1 else { return 0 }
        let isFix = { (index: Int) in fixes?[index] ?? true }
        /// A run: the indices of its first and last kept points, and how many points it keeps.
        struct Run {
            var first: Int
            var last: Int
            var count: Int
        }
        var removed = [Bool](repeating: false, count: points.count)
        func remove(_ runs: ArraySlice<Run>) {
            for run in runs { for index in run.first...run.last where isFix(index) { removed[index] = true } }
        }

        var stack: [Run] = []
        // The run being built: its first and last fix, and its count.
        var current: Run?
        for index in 0...points.count {
            if index < points.count {
                guard isFix(index) else { continue }
                if let building = current, consistent(points[building.last], points[index]) {
                    current = Run(first: building.first, last: index, count: building.count + 1)
                    continue
                }
            }
            // A fix that breaks the run (or the end): the run is complete, and this fix starts the next.
            defer { current = index < points.count ? Run(first: index, last: index, count: 1) : nil }
            guard var run = current else { continue }
            // Look back over the stretch of runs just before this one, for as long as it is
            // shorter than this run, for a run longer than the stretch that agrees with this one.
            var stretch = 0
            var top = stack.count - 1
            while top >= 1 {
                stretch += stack[top].count
                if stretch >= run.count { break }
                let before = stack[top - 1]
                if stretch < before.count, consistent(points[before.last], points[run.first]) {
                    remove(stack[top...])
                    stack.removeSubrange((top - 1)...)
                    run = Run(first: before.first, last: run.last, count: before.count + run.count)
                    // The joined run may now outweigh a stretch further back.
                    stretch = 0
                    top = stack.count - 1
                    continue
                }
                top -= 1
            }
            stack.append(run)
        }
        // The ends.
        var first = 0, last = stack.count - 1
        while last - first >= 1, stack[first].count < stack[first + 1].count {
            remove(stack[first...first])
            first += 1
        }
        while last - first >= 1, stack[last].count < stack[last - 1].count {
            remove(stack[last...last])
            last -= 1
        }

        var kept = 0
        for index in points.indices where !removed[index] {
            points[kept] = points[index]
            kept += 1
        }
        let count = points.count - kept
        points.removeLast(count)
        return count
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

/// Turns the XML stream's events into points. One per file, used on one thread, then dropped.
private struct TrackReading {
    /// KML 2.2's extension namespace, for `gx:Track` and `gx:coord`.
    static let gxNamespace = "http://www.google.com/kml/ext/2.2"

    /// Set by the root element.
    private(set) var format: TrackFile.Format?
    /// The root element's name when it is neither `gpx` nor `kml`.
    private(set) var foreignRoot: String?
    /// The points kept, in file order, and whether each is a receiver's fix (`trkpt`,
    /// `gx:Track`) rather than a place someone chose (`wpt`, `rtept`, `Placemark`).
    private var points: [TrackPoint] = []
    private var fixes: [Bool] = []
    /// The points left out so far (all but speed outliers, which need the whole track).
    private(set) var dropped = DroppedTrackPoints()

    /// The namespace of the root element: GPX 1.0 and 1.1 and KML 2.1 and 2.2 differ only here,
    /// and files without `xmlns` exist, so the root's namespace is taken as the format's own.
    private var ownNamespace = ""
    /// Names of the open elements that are read, with `gx:` for KML extension elements.
    private var path: [String] = []
    /// Depth inside an ignored subtree (another namespace, GPX `<extensions>`); 0 outside.
    private var ignoredDepth = 0
    /// Whether the text of the element being read matters, and that text so far (one buffer,
    /// reused from element to element).
    private var collecting = false
    private var textBytes: [UInt8] = []
    /// The most text one value is read to: a time, a number or a coordinate tuple is tens of
    /// bytes. A longer one (a damaged or crafted file: a 400 MB `<time>` took 1.7 GB) is no
    /// value, and is read as one that does not parse.
    static let textLimit = 4096
    private var textOverflowed = false

    /// The GPX point whose element is open.
    private var gpxPoint: WrittenPoint?
    /// The Placemark being read, if any; its `<when>` and `<coordinates>` so far.
    private var placemark: WrittenPoint?
    /// The open `gx:Track`'s `<when>`s not yet paired with a `<gx:coord>`, read as they come
    /// (seconds since 2001, as `Date` keeps them; NaN for one that is not a time), from
    /// `trackTimesPaired` on; and its coordinates read before their `<when>` (an order KML
    /// does not have, but pairs by index), from `trackCoordsPaired` on. A pair becomes a point as soon as both halves are read, so
    /// a long track's times are held as numbers, never as text (a track written as all its
    /// `<when>`s, then all its coordinates, held both as text took three times the points).
    private var trackTimes: [Double] = []
    private var trackTimesPaired = 0
    private var trackCoords: [WrittenPoint] = []
    private var trackCoordsPaired = 0

    /// Whether any point was kept.
    var hasPoints: Bool { !points.isEmpty }

    /// Hands the points and their fix flags over without a copy.
    mutating func takePoints() -> ([TrackPoint], [Bool]) {
        defer {
            points = []
            fixes = []
        }
        return (points, fixes)
    }

    var wantsText: Bool { collecting && ignoredDepth == 0 }

    mutating func text(_ utf8: UnsafeRawBufferPointer) {
        guard !textOverflowed else { return }
        guard textBytes.count + utf8.count <= Self.textLimit else {
            textOverflowed = true
            textBytes.removeAll(keepingCapacity: true)
            return
        }
        textBytes.append(contentsOf: utf8)
    }

    mutating func startElement(_ elementName: String, namespace: String, attribute: (String) -> String?) -> Bool {
        if ignoredDepth > 0 {
            ignoredDepth += 1
            return true
        }
        guard let format else {
            return startDocument(root: elementName, namespace: namespace)
        }
        let name: String
        switch format {
        case .gpx:
            // GPX 1.1 extensionsType: "You can add extend GPX by adding your own elements from
            // another schema here". GPSBabel writes <extensions> into GPX 1.0 files too, in the
            // 1.0 namespace, so the element is skipped by name as well as by namespace.
            guard namespace == ownNamespace, elementName != "extensions" else {
                ignoredDepth = 1
                return true
            }
            name = elementName
        case .kml:
            if namespace == ownNamespace {
                name = elementName
            } else if namespace == Self.gxNamespace {
                name = "gx:" + elementName
            } else {
                ignoredDepth = 1
                return true
            }
        }
        let parent = path.last
        path.append(name)
        switch format {
        case .gpx: startGPX(name, parent: parent, attribute: attribute)
        case .kml: startKML(name, parent: parent)
        }
        return true
    }

    mutating func endElement() {
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        guard let name = path.popLast(), let format else { return }
        let value = collecting ? (textOverflowed ? "\u{FFFD}" : String(decoding: textBytes, as: UTF8.self)) : nil
        collecting = false
        switch format {
        case .gpx: endGPX(name, text: value)
        case .kml: endKML(name, parent: path.last, text: value)
        }
    }

    /// Starts collecting an element's text.
    private mutating func collectText() {
        collecting = true
        textOverflowed = false
        textBytes.removeAll(keepingCapacity: true)
    }

    /// The root element; anything else stops the parse at once.
    private mutating func startDocument(root: String, namespace: String) -> Bool {
        switch root {
        case "gpx": format = .gpx
        case "kml": format = .kml
        default:
            foreignRoot = root
            return false
        }
        ownNamespace = namespace
        path.append(root)
        return true
    }

    // MARK: GPX

    private mutating func startGPX(_ name: String, parent: String?, attribute: (String) -> String?) {
        switch name {
        case "wpt", "rtept", "trkpt":
            // All three are wptType: lat and lon are required attributes (latitudeType,
            // longitudeType: decimal degrees, WGS 84).
            gpxPoint = WrittenPoint(latitude: attribute("lat"), longitude: attribute("lon"))
        case "ele", "time":
            // Only a point's own children: <metadata><time> is when the file was made.
            if gpxPoint != nil, parent == "wpt" || parent == "rtept" || parent == "trkpt" { collectText() }
        default:
            break
        }
    }
    private mutating func endGPX(_ name: String, text: String?) {
        switch name {
        case "ele": if let text { gpxPoint?.elevation = text }
        case "time": if let text { gpxPoint?.time = text }
        case "wpt", "rtept", "trkpt":
            if let point = gpxPoint { add(point, isFix: name == "trkpt") }
            gpxPoint = nil
        default:
            break
        }
    }

    // MARK: KML

    private mutating func startKML(_ name: String, parent: String?) {
        switch name {
        case "Placemark":
            placemark = WrittenPoint()
        case "gx:Track":
            endTrack()
        case "when":
            // gx:Track's own <when>s, or the Placemark's <TimeStamp> (in the KML namespace; the
            // one under LookAt is gx:TimeStamp, and a path check keeps it out as well).
            let grandparent = path.count >= 3 ? path[path.count - 3] : nil
            if parent == "gx:Track" || (parent == "TimeStamp" && grandparent == "Placemark") { collectText() }
        case "gx:coord":
            if parent == "gx:Track" { collectText() }
        case "coordinates":
            let grandparent = path.count >= 3 ? path[path.count - 3] : nil
            if parent == "Point" && grandparent == "Placemark" { collectText() }
        default:
            break
        }
    }

    private mutating func endKML(_ name: String, parent: String?, text: String?) {
        switch name {
        case "when":
            guard let text else { return }
            if parent == "gx:Track" { trackWhen(text) } else { placemark?.time = text }
        case "gx:coord":
            if let text { trackCoord(text) }
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
            endTrack()
        case "Placemark":
            // Only a Placemark with a Point is a position; one with a LineString or a gx:Track
            // has its coordinates elsewhere (or none with times).
            if let point = placemark, point.latitude != nil || point.longitude != nil { add(point, isFix: false) }
            placemark = nil
        default:
            break
        }
    }

    /// A `<when>` of a `gx:Track`: the time of the first coordinate waiting for one, or held
    /// for the next to come.
    private mutating func trackWhen(_ text: String) {
        let time = ISO8601Instant.parse(text)
        if trackCoordsPaired < trackCoords.count {
            add(trackCoords[trackCoordsPaired], time: time, isFix: true)
            trackCoordsPaired += 1
            if trackCoordsPaired == trackCoords.count { trackCoords.removeAll(keepingCapacity: true); trackCoordsPaired = 0 }
        } else {
            trackTimes.append(time?.timeIntervalSinceReferenceDate ?? .nan)
        }
    }

    /// A `<gx:coord>` ("lon lat [alt]"): a point with the first `<when>` waiting, or held for
    /// the next to come.
    private mutating func trackCoord(_ text: String) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        var point = WrittenPoint()
        if fields.count == 2 || fields.count == 3 {
            point.longitude = String(fields[0])
            point.latitude = String(fields[1])
            point.elevation = fields.count == 3 ? String(fields[2]) : nil
        } else {
            point.latitude = ""
            point.longitude = ""
        }
        if trackTimesPaired < trackTimes.count {
            let seconds = trackTimes[trackTimesPaired]
            add(point, time: seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds), isFix: true)
            trackTimesPaired += 1
            if trackTimesPaired == trackTimes.count { trackTimes.removeAll(keepingCapacity: true); trackTimesPaired = 0 }
        } else {
            trackCoords.append(point)
        }
    }

    /// The end (or a new start) of a `gx:Track`. KML 2.2: "The number of <when> elements must
    /// equal the number of <gx:coord> elements". When a writer breaks that, only full pairs are
    /// kept; a coordinate without its `<when>` is a point without a time.
    private mutating func endTrack() {
        for point in trackCoords[trackCoordsPaired...] { add(point, time: nil, isFix: true) }
        trackTimes = []
        trackTimesPaired = 0
        trackCoords = []
        trackCoordsPaired = 0
    }

    // MARK: Checking values

    /// Checks a written point and keeps it, or counts why it was left out: the position first,
    /// whatever the time.
    private mutating func add(_ written: WrittenPoint, isFix: Bool) {
        add(written, time: written.time.flatMap(ISO8601Instant.parse), isFix: isFix)
    }

    /// `add` with the time already read (nil: none, or not a time).
    private mutating func add(_ written: WrittenPoint, time: Date?, isFix: Bool) {
        guard let latitude = Self.number(written.latitude), let longitude = Self.number(written.longitude),
              abs(latitude) <= 90, abs(longitude) <= 180
        else {
            dropped.invalid += 1
            return
        }
        guard latitude != 0 || longitude != 0 else {
            dropped.nullIsland += 1
            return
        }
        guard let time else {
            dropped.untimed += 1
            return
        }
        points.append(TrackPoint(
            coordinate: Coordinate(latitude: latitude, longitude: longitude),
            time: time,
            elevation: Self.number(written.elevation)))
        fixes.append(isFix)
    }

    /// A finite decimal number (optionally with an exponent), or nil. Swift's `Double(_:)` alone
    /// would also take "nan", "inf" and hexadecimal, none of which a coordinate can be.
    static func number(_ text: String?) -> Double? {
        guard var trimmed = text?.trimmedOfWhitespace, !trimmed.isEmpty else { return nil }
        if let value = trimmed.withUTF8(plainDecimal) { return value }
        guard trimmed.utf8.allSatisfy({ ASCIIDigits.isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
              let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }

    /// Powers of ten that are exact in a Double (up to 10²²).
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// `[+-]digits[.digits]` with at most 15 digits, as numbers in track files are written, or
    /// nil for anything else (which `Double(_:)` then reads). Both the digits as an integer and
    /// the power of ten are exact Doubles, and IEEE division rounds correctly, so the result is
    /// the one `strtod` gives (Clinger's fast path), at a fraction of the cost: a log holds
    /// millions of these.
    private static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var afterPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if ASCIIDigits.isDigit(byte) {
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                digits += 1
                if afterPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !afterPoint {
                afterPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }
}

/// Hands the XML stream's events to a `TrackReading`. All the state is one struct, so an event
/// costs one exclusive access to this object instead of one for every field it touches: a
/// 200 MB log makes tens of millions of events.
private final class TrackCollector: XMLEventHandler {
    var reading = TrackReading()

    var wantsText: Bool { reading.wantsText }

    func text(_ utf8: UnsafeRawBufferPointer) {
        reading.text(utf8)
    }

    func startElement(_ name: String, namespace: String, attributes: XMLAttributes) -> Bool {
        reading.startElement(name, namespace: namespace, attribute: { attributes[$0] })
    }

    func endElement() {
        reading.endElement()
    }
}

extension String {
    /// The text without leading and trailing white space and newlines (as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`), without a copy in the usual case
    /// where there is none: values in track files are millions of short strings.
    var trimmedOfWhitespace: String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        // An ASCII byte above 0x20 is never white space, at either end.
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
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
        var trimmed = text.trimmedOfWhitespace
        return trimmed.withUTF8 { parse(utf8: $0) }
    }

    /// The instant `bytes` (trimmed) name, or nil.
    private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 19,
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = ASCIIDigits.parse(bytes[0..<4]), let month = ASCIIDigits.parse(bytes[5..<7]),
              let day = ASCIIDigits.parse(bytes[8..<10]), let hour = ASCIIDigits.parse(bytes[11..<13]),
              let minute = ASCIIDigits.parse(bytes[14..<16]), let second = ASCIIDigits.parse(bytes[17..<19]),
              // Year 0000 is no year of XML Schema's dateTime, which GPX and KML use.
              year >= 1, (1...12).contains(month), (1...LocalDateTime.daysIn(month: month, year: year)).contains(day),
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

        let days = Date.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
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
        let low = times.partitioningIndex { $0 >= t }
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
