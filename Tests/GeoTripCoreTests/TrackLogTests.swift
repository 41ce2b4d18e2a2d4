import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// GPS logs: reading GPX and KML (Fixtures/tracks/README.md says how each file was made) and
/// positions at a moment from a track. Expected values come from how the fixtures were built
/// (a walk due north along the meridian 9.137° W, 0.0001° every 5 s) and from GPSBabel's reading
/// of them, never from the reader itself.
@Suite("Track logs")
struct TrackLogTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tracks")

    /// 2025-06-10T09:00:00Z (`date -u -d 2025-06-10T09:00:00Z +%s`), the walk's first fix.
    static let walkStart = Date(timeIntervalSince1970: 1_749_546_000)
    /// Mean Earth radius (IUGG), metres: a degree of latitude is this × π/180 along a meridian.
    static let earthRadius = 6_371_008.8

    static func url(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    /// The twelve timed fixes of logger.gpx as they were written: k = 0...11.
    static let walk: [TrackPoint] = (0..<12).map { k in
        TrackPoint(
            coordinate: Coordinate(latitude: 38.708 + 0.0001 * Double(k), longitude: -9.137),
            time: walkStart.addingTimeInterval(5 * Double(k)),
            elevation: 12 + 0.5 * Double(k))
    }

    /// Whether two point lists agree to well below a receiver's resolution.
    static func same(_ a: [TrackPoint], _ b: [TrackPoint]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { p, q in
            abs(p.coordinate.latitude - q.coordinate.latitude) < 1e-9
                && abs(p.coordinate.longitude - q.coordinate.longitude) < 1e-9
                && abs(p.time.timeIntervalSince(q.time)) < 1e-6
                && p.elevation.map { e in q.elevation.map { abs(e - $0) < 1e-9 } ?? false } ?? (q.elevation == nil)
        }
    }

    /// Reads in-memory GPX/KML for the bad-value cases that no writer would produce on purpose.
    static func load(_ xml: String, name: String = "inline.gpx") throws(TrackError) -> TrackFile {
        try TrackLog.load(data: Data(xml.utf8), name: name)
    }

    static func gpx(_ body: String) -> String {
        #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">"# + body + "</gpx>"
    }

    // MARK: Reading GPX

    @Test("a value of megabytes (a time, an elevation, a KML tuple) is no value: its point is counted, and memory stays bounded")
    func overlongValues() throws {
        let long = String(repeating: "1", count: 1 << 20)
        let file = try Self.load(Self.gpx("""
            <trk><trkseg>
            <trkpt lat="38.7" lon="-9.1"><time>2025-06-10T07:00:00.\(long)Z</time></trkpt>
            <trkpt lat="38.8" lon="-9.2"><time>2025-06-10T07:01:00Z</time></trkpt>
            <trkpt lat="38.9" lon="-9.3"><ele>\(long)</ele><time>2025-06-10T07:02:00Z</time></trkpt>
            </trkseg></trk>
            """))
        #expect(file.untimedCount == 1)
        #expect(file.points.map(\.coordinate.latitude) == [38.8, 38.9])
        #expect(file.points.last?.elevation == nil)
        let kml = try Self.load("""
            <?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><TimeStamp><when>2025-06-10T07:00:00Z</when></TimeStamp><Point><coordinates>-9.1,38.7,\(long)</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2025-06-10T07:01:00Z</when></TimeStamp><Point><coordinates>-9.2,38.8</coordinates></Point></Placemark>
            </Document></kml>
            """, name: "inline.kml")
        #expect(kml.invalidCount == 1 && kml.points.map(\.coordinate.latitude) == [38.8])
    }

    @Test("a logger's GPX 1.1: every timed fix, in order, with elevation; extensions and metadata ignored")
    func loggerGPX() throws {
        let file = try TrackLog.load(contentsOf: Self.url("logger.gpx"))
        #expect(file.format == .gpx)
        #expect(Self.same(file.points, Self.walk))
        // The trkpt without <time> (38.70895 N, between fixes 8 and 9) is counted, not placed.
        #expect(file.untimedCount == 1)
        #expect(file.invalidCount == 0)
        #expect(!file.points.contains { abs($0.coordinate.latitude - 38.70895) < 1e-9 })
        // <metadata><time> 08:59:58 is when the file was written, not a fix.
        #expect(file.points.first?.time == Self.walkStart)
        // gpxtpx:hr (92...103) and gpxtpx:cad (80...91) never leak into elevation or points.
        #expect(file.points.allSatisfy { ($0.elevation ?? 0) < 20 })
        #expect(try TrackLog.read(contentsOf: Self.url("logger.gpx")) == file.points)
    }

    @Test("the same walk written by GPSBabel as GPX 1.0 (root <time>, <extensions> in the 1.0 namespace)")
    func gpsbabelGPX10() throws {
        let file = try TrackLog.load(contentsOf: Self.url("logger-gpx10.gpx"))
        #expect(file.format == .gpx)
        #expect(Self.same(file.points, Self.walk))
        #expect(file.untimedCount == 1)
    }

    @Test("waypoints and a route: offsets, fractional seconds, sort order, ties in file order")
    func routeAndWaypoints() throws {
        let file = try TrackLog.load(contentsOf: Self.url("route-and-waypoints.gpx"))
        let day = Date(timeIntervalSince1970: 1_749_636_000)  // 2025-06-11T10:00:00Z
        let expected: [(Double, Double, TimeInterval, Double?)] = [
            (38.69940, -9.19820, 0, 8.5),  // rtept Belém station, 10:00:00Z
            (38.69360, -9.20570, 900, nil),  // wpt Padrão, 10:15:00Z: before the rtept of the same time (file order)
            (38.69500, -9.20000, 900, nil),  // rtept Jardim, 10:15:00Z
            (38.69200, -9.21000, 1500, 4.0),  // rtept Riverside, written 09:25:00-01:00
            (38.69160, -9.21600, 1800, 5.0),  // wpt Torre de Belém, written 11:30:00+01:00
            (38.69750, -9.20320, 2730.25, nil),  // wpt Pastéis de Belém, 10:45:30.250Z
        ]
        #expect(file.points.count == expected.count)
        for (point, (lat, lon, seconds, ele)) in zip(file.points, expected) {
            #expect(abs(point.coordinate.latitude - lat) < 1e-9)
            #expect(abs(point.coordinate.longitude - lon) < 1e-9)
            #expect(abs(point.time.timeIntervalSince(day) - seconds) < 1e-6)
            #expect(point.elevation == ele)
        }
        // Jerónimos has no time; latitude 95 and longitude "-9.2O000" are invalid. Garmin's
        // gpxx:rpt shaping points (lat/lon, no time) are another schema's and not points at all.
        #expect(file.untimedCount == 1)
        #expect(file.invalidCount == 2)
    }

    // MARK: Reading KML

    @Test("hand-written KML 2.2: gx:Track when/coord pairs and a timed Placemark Point")
    func handWrittenKML() throws {
        let file = try TrackLog.load(contentsOf: Self.url("track.kml"))
        #expect(file.format == .kml)
        let day = Date(timeIntervalSince1970: 1_749_718_800)  // 2025-06-12T09:00:00Z
        let expected: [(Double, Double, TimeInterval, Double?)] = [
            (38.79760, -9.39040, 0, 207),  // written 10:00:00+01:00
            (38.79780, -9.39020, 10, 209.5),
            (38.79800, -9.39000, 20.5, 212),  // 09:00:20.500Z
            (38.79820, -9.38980, 30, 214),
            (38.79840, -9.38960, 40, nil),  // "lon lat" with no altitude
            (38.78760, -9.39010, 8100, 480),  // Palácio da Pena: its TimeStamp 12:15+01:00, not LookAt's 08:00Z
        ]
        #expect(file.points.count == expected.count)
        for (point, (lat, lon, seconds, ele)) in zip(file.points, expected) {
            #expect(abs(point.coordinate.latitude - lat) < 1e-9)
            #expect(abs(point.coordinate.longitude - lon) < 1e-9)
            #expect(abs(point.time.timeIntervalSince(day) - seconds) < 1e-6)
            #expect(point.elevation == ele)
        }
        // Quinta da Regaleira has no TimeStamp, nor has Castelo dos Mouros (its only <when> is
        // LookAt's gx:TimeStamp, the viewer's time); the LineString with a TimeSpan is no point.
        #expect(file.untimedCount == 2)
        #expect(file.invalidCount == 0)
    }

    @Test("GPSBabel's KML of the walk: one gx:Track, the timeless fix as an empty <when/>")
    func gpsbabelKML() throws {
        let file = try TrackLog.load(contentsOf: Self.url("logger-gpsbabel.kml"))
        #expect(file.format == .kml)
        #expect(Self.same(file.points, Self.walk))
        #expect(file.untimedCount == 1)
    }

    @Test("the format comes from the root element, not the file name")
    func formatFromRoot() throws {
        let gpxData = try Data(contentsOf: Self.url("logger.gpx"))
        let asKML = try TrackLog.load(data: gpxData, name: "walk.kml")
        #expect(asKML.format == .gpx)
        #expect(Self.same(asKML.points, Self.walk))
        let kmlData = try Data(contentsOf: Self.url("track.kml"))
        #expect(try TrackLog.load(data: kmlData, name: "walk.gpx").format == .kml)
    }

    @Test("elements of another namespace are never read, even when named like GPX's own")
    func foreignNamespaces() throws {
        // GPX 1.0 lets any element of another namespace sit anywhere (xsd:any ##other), with no
        // <extensions> wrapper.
        let file = try Self.load("""
            <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0" xmlns:v="urn:vendor">
            <v:wpt lat="1" lon="1"><v:time>2025-06-10T08:00:00Z</v:time></v:wpt>
            <trk><trkseg><trkpt lat="38.708" lon="-9.137"><ele>12</ele><time>2025-06-10T09:00:00Z</time>
            <v:ele>999</v:ele><v:time>2030-01-01T00:00:00Z</v:time></trkpt></trkseg></trk>
            <extensions><wpt lat="2" lon="2"><time>2025-06-10T07:00:00Z</time></wpt></extensions>
            </gpx>
            """)
        #expect(file.points == [Self.walk[0]])
        #expect(file.untimedCount == 0 && file.invalidCount == 0)
    }

    @Test("invalid coordinates are left out and counted; the limits themselves are valid")
    func invalidCoordinates() throws {
        let time = "<time>2025-06-10T09:00:00Z</time>"
        let file = try Self.load(Self.gpx("""
            <wpt lat="90" lon="-180">\(time)</wpt>
            <wpt lat="-90" lon="180">\(time)</wpt>
            <wpt lat="90.0001" lon="0">\(time)</wpt>
            <wpt lat="0" lon="-180.5">\(time)</wpt>
            <wpt lat="nan" lon="0">\(time)</wpt>
            <wpt lat="0x10" lon="0">\(time)</wpt>
            <wpt lat="" lon="0">\(time)</wpt>
            <wpt lon="0">\(time)</wpt>
            <wpt lat="1" lon="2"><ele>high</ele>\(time)</wpt>
            """))
        #expect(file.points.map(\.coordinate) == [
            Coordinate(latitude: 90, longitude: -180), Coordinate(latitude: -90, longitude: 180),
            Coordinate(latitude: 1, longitude: 2),
        ])
        #expect(file.points.last?.elevation == nil)  // an unreadable <ele> loses the elevation only
        #expect(file.invalidCount == 6)

        let kml = try Self.load("""
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>
            <when>2025-06-10T09:00:00Z</when><when>2025-06-10T09:00:05Z</when><when>2025-06-10T09:00:10Z</when>
            <gx:coord>-9.1 north 10</gx:coord><gx:coord>-9.1</gx:coord><gx:coord>-9.1 38.7 10</gx:coord><gx:coord>-9.1 38.8 10</gx:coord>
            </gx:Track></Placemark>
            <Placemark><TimeStamp><when>2025-06-10T10:00:00Z</when></TimeStamp><Point><coordinates>1,2,3 4,5,6</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2025-06-10</when></TimeStamp><Point><coordinates> -9.2 , 38.6 </coordinates></Point></Placemark>
            </kml>
            """, name: "inline.kml")
        // Two bad coords and a tuple list; the fourth coord has no <when>, and a bare date is
        // no instant: both count as untimed.
        #expect(kml.points.map(\.coordinate) == [Coordinate(latitude: 38.7, longitude: -9.1)])
        #expect(kml.invalidCount == 3)
        #expect(kml.untimedCount == 2)
    }

    @Test("gx:Track pairs its n-th <when> with its n-th <gx:coord> whatever their order, one track after another")
    func trackPairsInAnyOrder() throws {
        let kml = try Self.load("""
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
            <Placemark><gx:Track>
            <when>2025-06-10T09:00:00Z</when><gx:coord>1 10 0</gx:coord><when>2025-06-10T09:00:01Z</when><gx:coord>1 11</gx:coord>
            </gx:Track></Placemark>
            <Placemark><gx:Track>
            <gx:coord>2 20 0</gx:coord><gx:coord>2 21 0</gx:coord><gx:coord>2 22 0</gx:coord>
            <when>2025-06-10T10:00:00Z</when><when>not a time</when>
            </gx:Track></Placemark>
            <Placemark><gx:Track>
            <when>2025-06-10T11:00:00Z</when><when>2025-06-10T11:00:01Z</when><when>2025-06-10T11:00:02Z</when>
            <gx:coord>3 30 0</gx:coord><gx:coord>3 31 0</gx:coord>
            </gx:Track></Placemark>
            <Placemark><gx:Track><gx:coord>4 40 0</gx:coord></gx:Track></Placemark>
            </Document></kml>
            """, name: "order.kml")
        let start = Date(timeIntervalSince1970: 1_749_546_000)  // 2025-06-10T09:00:00Z
        let expected: [(Double, Double, TimeInterval)] = [(10, 1, 0), (11, 1, 1), (20, 2, 3600), (30, 3, 7200), (31, 3, 7201)]
        #expect(kml.points.count == expected.count)
        for (point, (lat, lon, seconds)) in zip(kml.points.sorted { $0.time < $1.time }, expected) {
            #expect(point.coordinate == Coordinate(latitude: lat, longitude: lon))
            #expect(point.time == start.addingTimeInterval(seconds))
        }
        // 2 21 (its <when> is no time), 2 22 (none left for it) and 4 40 (no <when> at all); the
        // third track's last <when> has no coordinate, and is no point.
        #expect(kml.untimedCount == 3)
        #expect(kml.invalidCount == 0)
    }

    @Test("the reader is usable from parallel tasks")
    func parallelReads() async throws {
        let names = ["logger.gpx", "logger-gpx10.gpx", "logger-gpsbabel.kml", "track.kml", "route-and-waypoints.gpx"]
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<40 {
                let url = Self.url(names[round % names.count])
                group.addTask { try TrackLog.read(contentsOf: url).count }
            }
            return try await group.reduce(0, +)
        }
        #expect(counts == 8 * (12 + 12 + 12 + 6 + 6))
    }

    // MARK: Errors

    @Test("a file that is not XML: the message names the file, says so, and gives the line")
    func notXML() {
        #expect {
            try TrackLog.read(contentsOf: Self.url("nmea-log.gpx"))
        } throws: { error in
            let message = (error as? TrackError)?.description ?? ""
            return message.contains("nmea-log.gpx") && message.contains("not XML") && message.contains("line 1")
                && message.contains("no XML element where the document should start")
        }
    }

    @Test("a second XML declaration is named as what it is, not by libxml2's number")
    func secondDeclaration() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let twice = temp.url.appendingPathComponent("twice.gpx")
        try "<?xml version=\"1.0\"?>\n<?xml version=\"1.0\"?>\n<gpx/>".write(to: twice, atomically: true, encoding: .utf8)
        #expect {
            try TrackLog.read(contentsOf: twice)
        } throws: { error in
            let message = (error as? TrackError)?.description ?? ""
            return message.contains("an XML declaration (<?xml …?>) that is not at the very start") && !message.contains("XML parser error")
        }
    }

    @Test("XML that is neither GPX nor KML: the message names the file and its root element")
    func neitherGPXNorKML() {
        #expect {
            try TrackLog.read(contentsOf: Self.url("workout.gpx"))
        } throws: { error in
            let message = (error as? TrackError)?.description ?? ""
            return message.contains("workout.gpx") && message.contains("<TrainingCenterDatabase>")
                && message.contains("neither GPX nor KML")
        }
    }

    @Test("a missing file, an empty file, a cut-short file, a file with no timed point")
    func otherErrors() throws {
        func message(_ body: () throws(TrackError) -> Void) -> String {
            do { try body() } catch { return error.description }
            return "(no error)"
        }
        let missing = message { () throws(TrackError) in _ = try TrackLog.read(contentsOf: Self.url("no-such-file.gpx")) }
        #expect(missing.contains("no-such-file.gpx") && missing.contains("no such file"))

        let empty = message { () throws(TrackError) in _ = try TrackLog.read(data: Data(), name: "empty.gpx") }
        #expect(empty.contains("empty.gpx") && empty.contains("not a GPX or KML file"))

        // A logger that lost power mid-write: half the file, ending inside a trkpt.
        let whole = try Data(contentsOf: Self.url("logger.gpx"))
        let half = whole.prefix(whole.count / 2)
        let lastLine = String(decoding: half, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count
        let cut = message { () throws(TrackError) in _ = try TrackLog.read(data: half, name: "cut.gpx") }
        #expect(cut.contains("cut.gpx") && cut.contains("GPX file that is damaged or cut short"))
        #expect(cut.contains("line \(lastLine)") && cut.contains("ends early"))

        let folder = message { () throws(TrackError) in _ = try TrackLog.read(contentsOf: Self.fixtures) }
        #expect(folder.contains("tracks") && folder.contains("a folder, not a file"))

        let untimed = message { () throws(TrackError) in _ = try Self.load(Self.gpx(#"<wpt lat="1" lon="2"/><wpt lat="91" lon="2"/>"#), name: "plan.gpx") }
        #expect(untimed.contains("plan.gpx") && untimed.contains("no point with a time")
            && untimed.contains("1 without a time, 1 with an invalid position"))

        let nothing = message { () throws(TrackError) in _ = try Self.load(Self.gpx("<metadata><time>2025-06-10T09:00:00Z</time></metadata>"), name: "bare.gpx") }
        #expect(nothing.contains("bare.gpx") && nothing.contains("no points"))
    }

    // MARK: Large files

    /// Writes a logger's GPX of `count` fixes, one a second from 2025-06-10T00:00:00Z: fix k at
    /// latitude 38 + 0.00001·k, longitude −(9.137 + 0.000003·k), each with a vendor extension as
    /// Garmin writes them (about 200 bytes a fix). Coordinates are written from integers, so the
    /// file holds exactly what `largeLogFix` says.
    static func writeLargeLog(_ url: URL, count: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func six(_ n: Int) -> String { String(repeating: "0", count: 6 - String(n).count) + String(n) }
        file.write(Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Garmin eTrex 32x" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <metadata><time>2025-06-12T08:00:00Z</time></metadata>
              <trk><name>Three days</name><trkseg>

            """.utf8))
        var chunk = ""
        for k in 0..<count {
            let latitude = 38_000_000 + 10 * k, longitude = 137_000 + 3 * k, second = k % 86_400
            chunk += "      <trkpt lat=\"\(latitude / 1_000_000).\(six(latitude % 1_000_000))\" lon=\"-9.\(six(longitude))\">"
                + "<ele>\(k % 100).5</ele><time>2025-06-\(two(10 + k / 86_400))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z</time>"
                + "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(90 + k % 50)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
            if k % 10_000 == 9_999 {
                file.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        file.write(Data((chunk + "    </trkseg></trk>\n</gpx>\n").utf8))
    }

    /// Fix k of `writeLargeLog`, from the formula rather than from the file.
    static func largeLogFix(_ k: Int) -> TrackPoint {
        TrackPoint(
            coordinate: Coordinate(latitude: 38 + 0.00001 * Double(k), longitude: -(9.137 + 0.000003 * Double(k))),
            time: Date(timeIntervalSince1970: 1_749_513_600 + Double(k)),  // 2025-06-10T00:00:00Z + k s
            elevation: Double(k % 100) + 0.5)
    }

    @Test("a 20 MB log, twice libxml2's default limit, is read whole, as a stream")
    func largeLog() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("three-days.gpx")
        let count = 100_000
        try Self.writeLargeLog(url, count: count)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber).intValue
        try #require(size > 20_000_000, "the file is \(size) bytes, not beyond libxml2's 10 MB limit")

        let file = try TrackLog.load(contentsOf: url)
        #expect(file.format == .gpx)
        #expect(file.points.count == count)
        #expect(file.dropped == DroppedTrackPoints())
        for k in [0, 1, count / 2, count - 2, count - 1] where file.points.indices.contains(k) {
            #expect(Self.same([file.points[k]], [Self.largeLogFix(k)]), "fix \(k): \(file.points[k])")
        }
    }

    // MARK: Refused files

    @Test("a document type that declares entities is refused at the declaration, whatever the entity", arguments: [
        // Billion laughs: 10⁹ "lol"s from ten lines, in text and in an attribute.
        ("billion-laughs.gpx", "<lolz>&lol9;</lolz>"),
        ("laughing-attribute.gpx", #"<trk><name a="&lol9;"/></trk>"#),
        // XXE: an external entity naming another file.
        ("xxe.gpx", "<trk><name>&secret;</name></trk>"),
    ])
    func entities(name: String, body: String) throws {
        let laughs = (1...9).map { i in "<!ENTITY lol\(i) \"\(String(repeating: "&lol\(i - 1);", count: 10))\">" }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
              <!ENTITY lol0 "lol">
              \(laughs.joined(separator: "\n  "))
              <!ENTITY secret SYSTEM "file:///etc/passwd">
            ]>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            \(body)
            <wpt lat="38.7" lon="-9.1"><time>2025-06-10T09:00:00Z</time></wpt>
            </gpx>
            """
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent(name)
        try document.write(to: url, atomically: true, encoding: .utf8)
        let fromFile = #expect(throws: TrackError.self) { try TrackLog.load(contentsOf: url) }
        #expect(fromFile?.description == "\(url.path) declares XML entities, which geotrip does not read in track files (they can expand without bound or reach other files); remove the DOCTYPE and export the track again.")
        let fromMemory = #expect(throws: TrackError.self) { try TrackLog.load(data: Data(document.utf8), name: name) }
        #expect(fromMemory?.description.hasPrefix("\(name) declares XML entities") == true)
    }

    @Test("a tag with 200,000 attributes (or namespace declarations) is refused before libxml2's quadratic check, even across chunks; 2,000 with = in quotes and comments are read")
    func attributeFlood() throws {
        func document(_ tag: String, padding: Int = 0) -> String {
            """
            <?xml version="1.0"?>
            <!-- \(String(repeating: "x", count: padding)) a=1 b=2 -->
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>\(tag)<time>2025-06-10T09:00:00Z</time></trkpt></trkseg></trk>
            </gpx>
            """
        }
        let attributes = (0..<200_000).map { " a\($0)=\"1\"" }.joined()
        let declarations = (0..<200_000).map { " xmlns:n\($0)=\"urn:\($0)\"" }.joined()
        for (name, tag) in [("attributes.gpx", "<trkpt lat=\"38.7\" lon=\"-9.1\"\(attributes)>"),
                            ("declarations.gpx", "<trkpt lat=\"38.7\" lon=\"-9.1\"\(declarations)>")] {
            let error = #expect(throws: TrackError.self) { try TrackLog.load(data: Data(document(tag).utf8), name: name) }
            #expect(error?.description == "\(name) has an element with more than 2,000 attributes at line 4, which no GPX or KML writer makes "
                    + "(the XML parser would take minutes over it); not read.", "\(String(describing: error))")
        }
        // The tag straddling two of the parser's 256 KB chunks, from a file: the count goes on.
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let straddling = temp.url.appendingPathComponent("straddling.gpx")
        let some = (0..<2_001).map { " a\($0)=\"1\"" }.joined()
        try document("<trkpt lat=\"38.7\" lon=\"-9.1\"\(some)>", padding: XMLEventStream.chunkSize - 1_000).write(to: straddling, atomically: true, encoding: .utf8)
        let error = #expect(throws: TrackError.self) { try TrackLog.load(contentsOf: straddling) }
        #expect(error?.description.contains("has an element with more than 2,000 attributes at line 4") == true, "\(String(describing: error))")
        // At the limit (lat and lon make two), with = inside quoted values, and = in a comment: read.
        let quoted = (0..<999).map { " a\($0)=\"x=y\" b\($0)='z'" }.joined()
        let file = try TrackLog.load(data: Data(document("<trkpt lat=\"38.7\" lon=\"-9.1\"\(quoted)>").utf8), name: "many.gpx")
        #expect(file.points.count == 1)
    }

    @Test("a bare & or < in a track's text is said as such", arguments: ["Rock < Roll", "Rock & Roll"])
    func bareCharacters(name: String) {
        let document = """
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>\(name)</name></trk></gpx>
            """
        let error = #expect(throws: TrackError.self) { try TrackLog.load(data: Data(document.utf8), name: "bare.gpx") }
        #expect(error?.description.contains("a bare & or < in text (they must be written &amp; and &lt;)") == true, "\(String(describing: error))")
    }

    @Test("a parameter-entity bomb in the internal subset is refused before it expands")
    func parameterEntities() {
        // Each %lN; between declarations expands to two %l(N-1);s: 2³⁰ declarations if read.
        let levels = (1...30).map { i in "<!ENTITY % l\(i) \"&#37;l\(i - 1);&#37;l\(i - 1);\">" }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
            <!ENTITY % l0 "&#60;!ENTITY x 'lol'&#62;">
            \(levels.joined(separator: "\n"))
            %l30;
            ]>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"/>
            """
        let error = #expect(throws: TrackError.self) { try TrackLog.load(data: Data(document.utf8), name: "bomb.gpx") }
        #expect(error?.description.hasPrefix("bomb.gpx declares XML entities") == true)
    }

    @Test("a document type without entities is read as usual")
    func doctypeWithoutEntities() throws {
        let file = try Self.load(#"<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "http://www.topografix.com/GPX/1/1/gpx.dtd">"#
            + Self.gpx(#"<wpt lat="38.708" lon="-9.137"><ele>12</ele><time>2025-06-10T09:00:00Z</time></wpt>"#)
                .replacingOccurrences(of: #"<?xml version="1.0"?>"#, with: ""))
        #expect(file.points == [Self.walk[0]])
    }

    @Test("a named pipe or a device is refused, never waited on or read")
    func notRegularFiles() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let pipe = temp.url.appendingPathComponent("live.gpx")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        // A writer waits on the pipe with a whole GPX, so that no way of reading it can hang the
        // tests: whatever opens the pipe meets the writer, and could read the walk and an end of
        // file. The reader must refuse it all the same.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", #"cat "$0" > "$1""#, Self.url("logger.gpx").path, pipe.path]
        try writer.run()
        defer {
            // SIGKILL, not terminate(): Foundation's Process hands its children the test
            // runner's blocked signal mask, so a SIGTERM would wait forever.
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
        }

        let fromPipe = #expect(throws: TrackError.self) { try TrackLog.load(contentsOf: pipe) }
        #expect(fromPipe?.description == "The track file \(pipe.path) cannot be read: it is a named pipe, not a file.")
        let checked = #expect(throws: TrackError.self) { try TrackLog.checkIsFile(atPath: pipe.path) }
        #expect(checked == fromPipe)

        // /dev/zero never ends; read, it would give "not XML" at once, so the sentence tells.
        let device = #expect(throws: TrackError.self) { try TrackLog.load(contentsOf: URL(fileURLWithPath: "/dev/zero")) }
        #expect(device?.description == "The track file /dev/zero cannot be read: it is a device, not a file.")
        #expect(throws: TrackError.self) { try TrackLog.checkIsFile(atPath: "/dev/zero") }
        #expect(throws: Never.self) { try TrackLog.checkIsFile(atPath: Self.url("logger.gpx").path) }
    }

    // MARK: Bad points

    /// A GPX track of `(latitude, longitude, seconds after walkStart)` fixes.
    static func track(_ fixes: [(Double, Double, Double)]) -> String {
        gpx("<trk><trkseg>" + fixes.map { lat, lon, seconds in
            let time = ISO8601DateFormatter().string(from: walkStart.addingTimeInterval(seconds))
            return #"<trkpt lat="\#(lat)" lon="\#(lon)"><time>\#(time)</time></trkpt>"#
        }.joined() + "</trkseg></trk>")
    }

    /// The walk of logger.gpx, k = 0…39 (fix k 0.0001° north of fix k-1, 5 s later).
    static func walkFix(_ k: Int) -> (Double, Double, Double) { (38.708 + 0.0001 * Double(k), -9.137, 5 * Double(k)) }

    @Test("a fix at 0,0 and a spike 2,200 km off are dropped and counted; a photo by the spike stays on the walk")
    func nullIslandAndSpike() throws {
        var fixes = (0..<40).map(Self.walkFix)
        fixes[12] = (0, 0, fixes[12].2)  // a receiver with no fix yet
        fixes[25] = (16.77, -3.01, fixes[25].2)  // Timbuktu, for one fix
        let file = try Self.load(Self.track(fixes))
        #expect(file.dropped == DroppedTrackPoints(nullIsland: 1, tooFast: 1))
        #expect(file.points.count == 38)
        #expect(!file.points.contains { $0.coordinate.latitude < 38 })

        // At the spike's time the walker was at fix 25 of the walk; the fixes 24 and 26 around it
        // put the photo there, 10 m plus half of the 22 m between them.
        let positioner = TrackPositioner(points: file.points)
        let photo = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(125)))
        #expect(abs(photo.coordinate.latitude - 38.7105) < 1e-6)
        #expect(abs(photo.coordinate.longitude - -9.137) < 1e-9)
        #expect(abs(photo.uncertaintyMeters - (10 + Self.fixSpacing)) < 1e-3)
    }

    @Test("which fix is the glitch: a bad first or last fix goes, the track after a bad fix stays")
    func outlierAtTheEnds() throws {
        var fixes = (0..<20).map(Self.walkFix)
        fixes[0] = (48.8584, 2.2945, 0)  // Paris, 5 s before Lisbon
        fixes[19] = (40.4168, -3.7038, 95)  // Madrid, 5 s after
        let file = try Self.load(Self.track(fixes))
        #expect(file.dropped.tooFast == 2)
        #expect(file.points.map(\.coordinate) == (1..<19).map { Coordinate(latitude: 38.708 + 0.0001 * Double($0), longitude: -9.137) })

        // A cold start: three fixes at yesterday's last position, then the real walk 200 km away.
        let stale: [(Double, Double, Double)] = [(40.2, -8.4, 0), (40.2, -8.4, 1), (40.2, -8.4, 2)]
        let coldStart = stale + (1..<20).map(Self.walkFix)
        let walk = try Self.load(Self.track(coldStart))
        #expect(walk.dropped.tooFast == 3)
        #expect(walk.points.count == 19 && walk.points.first?.coordinate.latitude == 38.7081)
    }

    @Test("fixes that are fast but consistent stay: a plane at 1,100 km/h, a train, a logger off for an hour")
    func fastButReal() throws {
        // Walk to the airport, fly east at 1,100 km/h (0.01° of latitude ≈ 1.11 km each 3.6 s
        // ≈ 1,112 km/h), walk on: every fix of the flight disagrees with the next one, but no
        // stretch of them is a glitch.
        func fixes(_ range: ClosedRange<Int>, from start: (Double, Double), every seconds: Double, after offset: Double,
                   step: Double) -> [(Double, Double, Double)] {
            range.map { k in
                let index = Double(k)
                return (start.0 + step * index, start.1, offset + seconds * index)
            }
        }
        let taxi = fixes(0...9, from: (38.70, -9.137), every: 5, after: 0, step: 0.0001)
        let flight = fixes(1...30, from: (38.7009, -9.137), every: 3.6, after: 45, step: 0.01)
        let landed = fixes(1...10, from: (39.0009, -9.137), every: 5, after: 153, step: 0.0001)
        let plane = try Self.load(Self.track(taxi + flight + landed))
        #expect(plane.dropped.tooFast == 0)
        #expect(plane.points.count == 50)

        // A logger off for an hour while the train went 150 km: one jump, 150 km/h.
        let station = fixes(0...9, from: (40.0, -8.5), every: 5, after: 3645, step: 0.0001)
        let train = (0..<10).map(Self.walkFix) + station
        #expect(try Self.load(Self.track(train)).dropped.tooFast == 0)
    }

    @Test("points at 0,0 only: no point to place photos with, and the message says why")
    func onlyNullIsland() {
        let error = #expect(throws: TrackError.self) {
            try Self.load(Self.track([(0, 0, 0), (0, 0, 5), (38.7, -9.1, 10)]).replacingOccurrences(of: "<time>2025-06-10T09:00:10Z</time>", with: ""), name: "nofix.gpx")
        }
        #expect(error?.description == "nofix.gpx has no point with a time and a position (3 points: 1 without a time, 0 with an invalid position, 2 at 0,0), so it cannot place photos.")
    }

    // MARK: Times

    @Test("xsd:dateTime: Z, offsets, fractional seconds, no zone", arguments: [
        ("2025-06-10T09:00:00Z", 1_749_546_000.0),
        ("2025-06-10T09:00:00.5Z", 1_749_546_000.5),
        ("2025-06-10T09:00:00.250Z", 1_749_546_000.25),
        ("2025-06-10T09:00:00.123456789Z", 1_749_546_000.123456789),
        ("2025-06-10T10:00:00+01:00", 1_749_546_000),
        ("2025-06-10T05:30:00-03:30", 1_749_546_000),
        ("2025-06-10T10:00:00+0100", 1_749_546_000),
        ("2025-06-10T10:00:00+01", 1_749_546_000),
        ("2025-06-10T09:00:00", 1_749_546_000),  // GPX: times are UTC
        ("  2025-06-10T09:00:00Z\n", 1_749_546_000),  // pretty-printed element text
        ("2024-02-29T23:59:59Z", 1_709_251_199),
        ("1970-01-01T00:00:00+01:00", -3600),
        ("2000-01-01T00:00:00Z", 946_684_800),
    ])
    func validTimes(text: String, seconds: Double) throws {
        let date = try #require(ISO8601Instant.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test("times that name no instant are refused", arguments: [
        "", "2025-06-10", "2025-06", "2025-06-10T09:00Z", "2025-06-10 09:00:00Z", "2025-06-10t09:00:00z",
        "2025-02-29T00:00:00Z", "2025-06-31T00:00:00Z", "2025-13-01T00:00:00Z", "2025-06-10T24:00:00Z",
        "2025-06-10T09:60:00Z", "2025-06-10T09:00:00.Z", "2025-06-10T09:00:00+15:00", "2025-06-10T09:00:00+01:60",
        "2025-06-10T09:00:00Z junk", "2025-06-10T09:00:00+1", "+2025-06-10T09:00:00Z", "２０２５-06-10T09:00:00Z",
        "0000-01-01T00:00:00Z",
    ])
    func invalidTimes(text: String) {
        #expect(ISO8601Instant.parse(text) == nil)
    }

    // MARK: Positions

    /// The distance along the meridian between fixes 0.0001° apart: R × Δφ.
    static let fixSpacing = earthRadius * 0.0001 * .pi / 180

    @Test("exactly at a fix: that fix, 10 m")
    func atFix() throws {
        let positioner = TrackPositioner(points: try TrackLog.read(contentsOf: Self.url("logger.gpx")))
        let position = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(10)))
        #expect(position.coordinate == Coordinate(latitude: 38.7082, longitude: -9.137))
        #expect(position.uncertaintyMeters == 10)
    }

    @Test("between fixes 5 s apart on a meridian: the time fraction of the way, uncertainty growing to the middle")
    func betweenFixes() throws {
        let positioner = TrackPositioner(points: try TrackLog.read(contentsOf: Self.url("logger.gpx")))
        let middle = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(2.5)))
        #expect(abs(middle.coordinate.latitude - 38.70805) < 1e-6)  // the mean latitude
        #expect(abs(middle.coordinate.longitude - -9.137) < 1e-9)
        #expect(abs(middle.uncertaintyMeters - (10 + Self.fixSpacing / 2)) < 1e-3)

        let fifth = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(41)))
        #expect(abs(fifth.coordinate.latitude - 38.70882) < 1e-6)
        #expect(abs(fifth.uncertaintyMeters - (10 + Self.fixSpacing / 5)) < 1e-3)

        // Across the timeless fix and the segment break: 09:00:42.5 is midway between 40 s and 45 s.
        let acrossGap = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(42.5)))
        #expect(abs(acrossGap.coordinate.latitude - 38.70885) < 1e-6)
    }

    @Test("beyond the ends: the end fix, drifting at 1.5 m/s, up to 30 minutes")
    func beyondEnds() throws {
        let positioner = TrackPositioner(points: Self.walk)
        let end = Self.walk.last!.time

        let before = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(-600)))
        #expect(before.coordinate == Self.walk[0].coordinate)
        #expect(abs(before.uncertaintyMeters - (10 + 1.5 * 600)) < 1e-9)

        let after = try #require(positioner.position(at: end.addingTimeInterval(29 * 60)))
        #expect(after.coordinate == Self.walk[11].coordinate)
        #expect(abs(after.uncertaintyMeters - (10 + 1.5 * 29 * 60)) < 1e-9)

        #expect(positioner.position(at: end.addingTimeInterval(30 * 60)) != nil)
        #expect(positioner.position(at: end.addingTimeInterval(31 * 60)) == nil)
        #expect(positioner.position(at: Self.walkStart.addingTimeInterval(-31 * 60)) == nil)
    }

    @Test("inside a gap longer than 30 minutes (the logger was off) there is no position")
    func longGap() throws {
        let a = TrackPoint(coordinate: Coordinate(latitude: 38.70, longitude: -9.14), time: Self.walkStart)
        let b = TrackPoint(coordinate: Coordinate(latitude: 38.80, longitude: -9.40), time: Self.walkStart.addingTimeInterval(31 * 60))
        let positioner = TrackPositioner(points: [a, b])
        for minutes in [1.0, 15.5, 30.0] {
            #expect(positioner.position(at: Self.walkStart.addingTimeInterval(minutes * 60)) == nil, "\(minutes) min into the gap")
        }
        // The fixes themselves still count.
        #expect(positioner.position(at: a.time)?.coordinate == a.coordinate)
        #expect(positioner.position(at: b.time)?.coordinate == b.coordinate)

        // A gap of exactly 30 minutes is still a segment.
        let b30 = TrackPoint(coordinate: b.coordinate, time: Self.walkStart.addingTimeInterval(30 * 60))
        let interpolated = try #require(TrackPositioner(points: [a, b30]).position(at: Self.walkStart.addingTimeInterval(15 * 60)))
        #expect(abs(interpolated.coordinate.latitude - 38.75) < 1e-3)
        #expect(interpolated.coordinate != a.coordinate && interpolated.coordinate != b.coordinate)
    }

    @Test("across the antimeridian: 179.99° E to 179.99° W passes 180°, not Greenwich")
    func antimeridian() throws {
        let east = TrackPoint(coordinate: Coordinate(latitude: 10, longitude: 179.99), time: Self.walkStart)
        let west = TrackPoint(coordinate: Coordinate(latitude: 10, longitude: -179.99), time: Self.walkStart.addingTimeInterval(60))
        let positioner = TrackPositioner(points: [east, west])

        let middle = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(30)))
        #expect(abs(abs(middle.coordinate.longitude) - 180) < 1e-6)
        #expect(abs(middle.coordinate.latitude - 10) < 1e-6)
        // 0.02° of longitude at 10° N is R × 0.02° × cos 10° ≈ 2190 m; half of it in the middle.
        let span = Self.earthRadius * 0.02 * .pi / 180 * cos(10 * Double.pi / 180)
        #expect(abs(middle.uncertaintyMeters - (10 + span / 2)) < 0.01)

        let quarter = try #require(positioner.position(at: Self.walkStart.addingTimeInterval(15)))
        #expect(abs(quarter.coordinate.longitude - 179.995) < 1e-6)
    }

    @Test("points given out of order are sorted; no points, no position")
    func unsortedAndEmpty() throws {
        let shuffled = TrackPositioner(points: Self.walk.reversed())
        #expect(shuffled.points == Self.walk)
        let position = try #require(shuffled.position(at: Self.walkStart.addingTimeInterval(7.5)))
        #expect(abs(position.coordinate.latitude - 38.70815) < 1e-6)
        #expect(TrackPositioner(points: []).position(at: Self.walkStart) == nil)
    }
}
