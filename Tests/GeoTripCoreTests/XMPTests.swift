import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// exiftool's record of Fixtures/xmp (scripts/make-xmp-fixtures.sh): the expected values.
enum XMPFixtures {
    static let folder = TestPaths.fixtures.appendingPathComponent("xmp")

    /// Loaded on each use (a small file): `[String: Any]` is not Sendable, so it is not kept.
    static var records: [String: [String: Any]] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("exiftool.json")),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [:] }
        return Dictionary(uniqueKeysWithValues: list.map { record in
            ((record["SourceFile"] as? String ?? "").replacingOccurrences(of: "./", with: "", options: .anchored), record)
        })
    }

    static func record(_ path: String) throws -> [String: Any] {
        try #require(records[path], "exiftool.json has no record of \(path)")
    }

    static func number(_ record: [String: Any], _ key: String) -> Double? { (record[key] as? NSNumber)?.doubleValue }

    /// exiftool's date form (`2024:05:01 12:00:00.25+01:00`, seconds optional) as geotrip's
    /// ISO 8601 wall clock (`2024-05-01T12:00:00.250`) and offset (`+01:00`).
    static func wallClock(_ exiftool: String?) -> (local: String, offset: String?)? {
        guard let exiftool, exiftool.count >= 16 else { return nil }
        var text = Substring(exiftool)
        var offset: String?
        if text.hasSuffix("Z") {
            offset = "+00:00"
            text = text.dropLast()
        } else if text.count > 19, let sign = text.dropFirst(16).lastIndex(where: { $0 == "+" || $0 == "-" }) {
            offset = String(text[sign...])
            text = text[..<sign]
        }
        let date = text.prefix(10).replacingOccurrences(of: ":", with: "-")
        var time = String(text.dropFirst(11))
        if time.count == 5 { time += ":00" }
        if let dot = time.firstIndex(of: ".") {
            let fraction = (time[time.index(after: dot)...] + "000").prefix(3)
            time = time[..<dot] + "." + fraction
        }
        return (date + "T" + time, offset)
    }

    static func read(_ path: String, sidecars: [String] = []) -> FileReading {
        MetadataReader().read(path: folder.appendingPathComponent(path).path,
                              sidecars: sidecars.map { folder.appendingPathComponent($0).path })
    }
}

@Suite("XMP")
struct XMPTests {
    @Test("exiftool's record of the XMP fixtures is complete")
    func recordIsPresent() {
        #expect(XMPFixtures.records.count >= 12)
    }

    /// The command at the end of scripts/make-xmp-fixtures.sh.
    static let recordArguments = ["-json", "-n", "-G1", "-r", "-ext", "*", "--ext", "json", "--ext", "md",
        "-XMP-exif:GPSLatitude", "-XMP-exif:GPSLongitude", "-XMP-exif:GPSAltitude", "-XMP-exif:GPSAltitudeRef", "-XMP-exif:GPSDateTime",
        "-XMP-exif:DateTimeOriginal", "-XMP-photoshop:DateCreated", "-XMP-xmp:CreateDate", "-XMP-xmp:CreatorTool",
        "-XMP-xmpNote:HasExtendedXMP", "-XMP-geotrip:all", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
        "-ExifIFD:DateTimeOriginal", "-Warning", "-Error", "."]

    @Test("Fixtures/xmp/exiftool.json is what exiftool says today", .enabled(if: ExiftoolRecordTests.exiftool != nil, "exiftool is not installed"))
    func recordIsCurrent() throws {
        let output = try ExiftoolRecordTests.output(Self.recordArguments, in: XMPFixtures.folder)
        let fresh = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        let committed = XMPFixtures.records
        #expect(fresh.count == committed.count)
        for record in fresh {
            let path = (record["SourceFile"] as? String ?? "").replacingOccurrences(of: "./", with: "", options: .anchored)
            #expect(committed[path].map { NSDictionary(dictionary: $0) } == NSDictionary(dictionary: record), "\(path)")
        }
    }

    @Test("a JPEG with XMP and no EXIF: position, altitude, GPS time and capture time from XMP")
    func xmpOnly() throws {
        let record = try XMPFixtures.record("xmp-only.jpg")
        let reading = XMPFixtures.read("xmp-only.jpg")
        let m = reading.metadata
        #expect(reading.status == .read)
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
        #expect(m.coordinate?.longitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLongitude")) == true)
        #expect(m.altitude?.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSAltitude")) == true)
        #expect(m.positionSource == .xmp)
        let time = try #require(XMPFixtures.wallClock(record["XMP-exif:DateTimeOriginal"] as? String))
        #expect(m.localTime?.iso8601 == time.local)
        #expect(m.offset?.description == time.offset)
        #expect(m.timeField == .xmpDateTimeOriginal)
        let gps = try #require(XMPFixtures.wallClock(record["XMP-exif:GPSDateTime"] as? String))
        #expect(m.gpsTime?.iso8601 == gps.local + "Z")
        #expect(m.diagnostics.isEmpty, "\(m.diagnostics)")
    }

    @Test("EXIF wins over XMP where both have a value")
    func exifWins() throws {
        let record = try XMPFixtures.record("xmp-and-exif.jpg")
        let m = XMPFixtures.read("xmp-and-exif.jpg").metadata
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "Composite:GPSLatitude")) == true)
        #expect(m.coordinate?.longitude.isClose(to: XMPFixtures.number(record, "Composite:GPSLongitude")) == true)
        #expect(m.positionSource == .exif)
        #expect(m.localTime?.iso8601 == XMPFixtures.wallClock(record["ExifIFD:DateTimeOriginal"] as? String)?.local)
        #expect(m.timeField == .dateTimeOriginal)
        // The record really holds a different XMP value, so the test could fail.
        #expect(XMPFixtures.number(record, "XMP-exif:GPSLatitude") != XMPFixtures.number(record, "Composite:GPSLatitude"))
    }

    @Test("XMP fills what EXIF lacks: EXIF's time, XMP's position")
    func xmpFills() throws {
        let record = try XMPFixtures.record("exif-time-xmp-gps.jpg")
        let m = XMPFixtures.read("exif-time-xmp-gps.jpg").metadata
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
        #expect(m.coordinate?.longitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLongitude")) == true)
        #expect(m.positionSource == .xmp)
        #expect(m.localTime?.iso8601 == XMPFixtures.wallClock(record["ExifIFD:DateTimeOriginal"] as? String)?.local)
        #expect(m.timeField == .dateTimeOriginal)
    }

    @Test("a date without a time of day is no capture time; a time without seconds is")
    func dateOnly() throws {
        let record = try XMPFixtures.record("xmp-date-only.jpg")
        let m = XMPFixtures.read("xmp-date-only.jpg").metadata
        #expect(m.timeField == .xmpCreateDate)
        #expect(m.localTime?.iso8601 == XMPFixtures.wallClock(record["XMP-xmp:CreateDate"] as? String)?.local)
        let notes = m.diagnostics.filter { $0.kind == .timeIgnored }
        #expect(notes.count == 1)
        #expect(notes.first?.message.contains("XMP-photoshop:DateCreated") == true)
        #expect(notes.first?.message.contains("no time of day") == true)
    }

    @Test("extended XMP is reassembled from its chunks by GUID")
    func extended() throws {
        let record = try XMPFixtures.record("xmp-extended.jpg")
        let path = XMPFixtures.folder.appendingPathComponent("xmp-extended.jpg").path
        let file = try PhotoFile(path: Array(path.utf8CString))
        let contents = try ContainerReader.contents(of: file, format: .jpeg, path: Array(path.utf8CString))
        let guid = try #require(record["XMP-xmpNote:HasExtendedXMP"] as? String)
        let extended = try #require(contents.extendedXMP[guid])
        #expect(extended.isComplete)
        #expect(XMPDecoder.decode(extended.bytes, origin: "extended XMP").diagnostics.isEmpty)
        let m = XMPFixtures.read("xmp-extended.jpg").metadata
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
        #expect(m.timeField == .xmpDateTimeOriginal)
        #expect(m.diagnostics.isEmpty, "\(m.diagnostics)")
    }

    @Test("extended XMP chunks of other GUIDs before the photo's own are passed over, not counted against it")
    func foreignExtensions() throws {
        let original = Array(try Data(contentsOf: XMPFixtures.folder.appendingPathComponent("xmp-extended.jpg")))
        let signature = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
        // The first extended chunk: an APP1 whose body starts with the signature.
        func isExtension(at index: Int) -> Bool {
            guard original[index] == 0xFF, original[index + 1] == 0xE1 else { return false }
            return original[(index + 4)..<(index + 4 + signature.count)].elementsEqual(signature)
        }
        let candidates: Range<Int> = 2..<(original.count - 4 - signature.count)
        let first = try #require(candidates.first(where: isExtension))
        var foreign: [UInt8] = []
        for number in 1...5 {
            let body = signature + Array(String(repeating: String(number), count: 32).utf8) + [0, 0, 0, 100, 0, 0, 0, 0]
                + [UInt8](repeating: UInt8(ascii: "x"), count: 100)
            foreign += [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("foreign.jpg")
        try Data(original[..<first] + foreign + original[first...]).write(to: url)
        let m = MetadataReader().read(path: url.path).metadata
        #expect(m == XMPFixtures.read("xmp-extended.jpg").metadata, "\(m.diagnostics)")
    }

    @Test("a HEIC whose only metadata is an XMP mime item, a TIFF whose only metadata is its tag 700",
          arguments: [("heic-xmp.heic", ImageFormat.heif), ("tiff-xmp.tif", .tiff)])
    func heicAndTIFF(name: String, format: ImageFormat) throws {
        let record = try XMPFixtures.record(name)
        let reading = XMPFixtures.read(name)
        let m = reading.metadata
        #expect(reading.format == format)
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
        #expect(m.coordinate?.longitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLongitude")) == true)
        let time = try #require(XMPFixtures.wallClock(record["XMP-exif:DateTimeOriginal"] as? String))
        #expect(m.localTime?.iso8601 == time.local)
        #expect(m.offset?.description == time.offset)
        #expect(m.positionSource == .xmp)
    }

    @Test("sidecars of Lightroom (elements) and darktable (attributes, DDD,MM,SSk) give position and time",
          arguments: [("sidecars/lightroom/IMG_1234.JPG", "sidecars/lightroom/IMG_1234.xmp"),
                      ("sidecars/darktable/IMG_5678.JPG", "sidecars/darktable/IMG_5678.JPG.xmp")])
    func foreignSidecar(photo: String, sidecar: String) throws {
        let record = try XMPFixtures.record(sidecar)
        let reading = XMPFixtures.read(photo, sidecars: [sidecar])
        let m = reading.metadata
        #expect(reading.geotripSidecars.isEmpty)
        #expect(m.positionSource == .sidecar)
        #expect(m.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
        #expect(m.coordinate?.longitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLongitude")) == true)
        let altitude = XMPFixtures.number(record, "XMP-exif:GPSAltitude")
        #expect(m.altitude?.isClose(to: altitude) ?? (altitude == nil))
        let time = try #require(XMPFixtures.wallClock(record["XMP-exif:DateTimeOriginal"] as? String))
        #expect(m.localTime?.iso8601 == time.local)
        #expect(m.offset?.description == time.offset)
        #expect(m.timeField == .xmpDateTimeOriginal)
        #expect(!m.diagnostics.contains { $0.kind == .noExif })
    }

    @Test("geotrip's own sidecar, re-saved by exiftool with another CreatorTool, is never input")
    func ownSidecarResaved() throws {
        let record = try XMPFixtures.record("sidecars/geotrip-resaved/IMG_9999.JPG.xmp")
        #expect(record["XMP-xmp:CreatorTool"] as? String != "geotrip")
        #expect(record["XMP-geotrip:LocationSource"] != nil)  // what the refusal is keyed on
        #expect(XMPFixtures.number(record, "XMP-exif:GPSLatitude") != nil)  // a position it must not give
        let sidecar = XMPFixtures.folder.appendingPathComponent("sidecars/geotrip-resaved/IMG_9999.JPG.xmp")
        #expect(!XMPSidecar.isGeotrips(try Data(contentsOf: sidecar)))  // the writer would no longer touch it
        let reading = XMPFixtures.read("sidecars/geotrip-resaved/IMG_9999.JPG", sidecars: ["sidecars/geotrip-resaved/IMG_9999.JPG.xmp"])
        #expect(reading.geotripSidecars == [0])
        #expect(reading.metadata.coordinate == nil)
        #expect(reading.metadata.localTime == nil)
    }

    @Test("an XMP altitude outside -1 km to 100 km is said and not kept, as EXIF's is; none is kept without a position")
    func implausibleAltitude() {
        func xmp(_ properties: String) -> [UInt8] {
            Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                   + "<rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" \(properties)/></rdf:RDF></x:xmpmeta>").utf8)
        }
        let position = #"exif:GPSLatitude="38,42.8340N" exif:GPSLongitude="9,8.3640W" "#
        for (altitude, ref, said) in [("99999999999999999999999999999999", "0", "is 1e+32 m"), ("88888888888888888888888888888888", "1", "is -8.88888888888889e+31 m"),
                                      ("123456789/1", "0", "is 123,456,789 m"), ("1/0.00000000000000000000000000001", "0", "is 1.0000000000000001e+29 m")] {
            let values = XMPDecoder.decode(xmp(position + "exif:GPSAltitude=\"\(altitude)\" exif:GPSAltitudeRef=\"\(ref)\""), origin: "sidecar")
            #expect(values.coordinate != nil && values.altitude == nil)
            #expect(values.diagnostics.contains { $0.kind == .altitudeIgnored && $0.message.contains(said) && $0.message.contains("outside -1,000 to 100,000 m") },
                    "\(values.diagnostics)")
        }
        // Within the bounds: a summit, and the Dead Sea's shore below the sea.
        #expect(XMPDecoder.decode(xmp(position + #"exif:GPSAltitude="8848/1" exif:GPSAltitudeRef="0""#), origin: "sidecar").altitude == 8848)
        #expect(XMPDecoder.decode(xmp(position + #"exif:GPSAltitude="430" exif:GPSAltitudeRef="1""#), origin: "sidecar").altitude == -430)
        // A 15 MB attribute: past libxml2's limit, said as such.
        let long = XMPDecoder.decode(xmp(#"exif:GPSAltitude=""# + String(repeating: "9", count: 15 << 20) + "\""), origin: "sidecar")
        #expect(long.diagnostics.contains { $0.message.contains("a value or text longer than the XML parser takes (10 MB)") }, "\(long.diagnostics)")
        // Without a position there is no fix to keep an altitude for.
        let alone = XMPDecoder.decode(xmp(#"exif:GPSAltitude="120/1""#), origin: "sidecar")
        #expect(alone.coordinate == nil && alone.altitude == nil)
    }

    @Test("an XMP element of 200,000 attributes is refused at once (libxml2 compared each with every other: 30 s); a Lightroom-sized one is read")
    func attributeFlood() {
        func xmp(_ properties: String) -> [UInt8] {
            Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                   + "<rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSLatitude=\"38,42.8340N\" exif:GPSLongitude=\"9,8.3640W\" "
                   + "\(properties)/></rdf:RDF></x:xmpmeta>").utf8)
        }
        let flood = XMPDecoder.decode(xmp((0..<200_000).map { "exif:a\($0)=\"1\"" }.joined(separator: " ")), origin: "the sidecar P.JPG.xmp")
        #expect(flood.coordinate == nil)
        #expect(flood.diagnostics.map(\.message) == ["the sidecar P.JPG.xmp has an element with more than 2,000 attributes (line 1), "
                + "which no XMP writer makes and which the XML parser would take minutes over; not read"], "\(flood.diagnostics)")
        // A few hundred, as Lightroom's develop settings are: read.
        let lightroom = XMPDecoder.decode(xmp((0..<500).map { "exif:a\($0)=\"1\"" }.joined(separator: " ")), origin: "sidecar")
        #expect(lightroom.coordinate != nil && lightroom.diagnostics.isEmpty, "\(lightroom.diagnostics)")
    }

    @Test("a sidecar geotrip writes now is recognised as its own")
    func ownSidecarFresh() throws {
        let text = try XMPSidecar.document(photo: "IMG.JPG", coordinate: Coordinate(latitude: 38.7, longitude: -9.1), altitude: 5,
                                           utcTime: Date(timeIntervalSince1970: 1_714_561_200), source: "track", uncertaintyMeters: 12)
        let values = XMPDecoder.decode(Array(text.utf8), origin: "sidecar")
        #expect(values.isGeotrips)
        #expect(values.isEmpty)
    }

    @Test("the scan gives each photo its sidecars: NAME.EXT.xmp first, then NAME.xmp")
    func scanFindsSidecars() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for name in ["IMG_1.JPG", "IMG_1.CR2", "IMG_1.xmp", "IMG_1.JPG.xmp", "IMG_2.JPG", "IMG_3.JPG.XMP", "IMG_3.JPG",
                     "IMG_4.JPG", "img_4.xmp", "IMG_5.jpg", "IMG_5.JPG.xmp"] {
            try Data("x".utf8).write(to: temp.url.appendingPathComponent(name))
        }
        let listing = try FolderScanner(root: temp.path).scan()
        let byPath = Dictionary(uniqueKeysWithValues: listing.files.map { ($0.relativePath, $0.sidecars.map(\.relativePath)) })
        #expect(byPath["IMG_1.JPG"] == ["IMG_1.JPG.xmp", "IMG_1.xmp"])
        #expect(byPath["IMG_1.CR2"] == ["IMG_1.xmp"])
        #expect(byPath["IMG_2.JPG"] == [])
        #expect(byPath["IMG_3.JPG"] == ["IMG_3.JPG.XMP"])
        // Names whose case changed on the way (a copy through another system) still pair.
        #expect(byPath["IMG_4.JPG"] == ["img_4.xmp"])
        #expect(byPath["IMG_5.jpg"] == ["IMG_5.JPG.xmp"])
        #expect(listing.files.count == 6)
    }

    @Test("XMP dates: what counts as a capture time")
    func dates() {
        func local(_ text: String) -> String? {
            if case .moment(let time, _) = XMPDate.parse(text) { return time.iso8601 }
            return nil
        }
        #expect(local("2024-05-01T12:00:00.25+01:00") == "2024-05-01T12:00:00.250")
        #expect(local("2024-05-01T12:00Z") == "2024-05-01T12:00:00")
        #expect(local("2024:05:01 12:00:00") == "2024-05-01T12:00:00")
        #expect(XMPDate.parse("2024-05-01") == .dayOnly)
        #expect(XMPDate.parse("2024-05") == .dayOnly)
        #expect(XMPDate.parse("2024") == .dayOnly)
        #expect(XMPDate.parse("2024-02-30T10:00") == .invalid)
        #expect(XMPDate.parse("2024-05-01T25:00") == .invalid)
        // A real date and time with an offset that is not one is said as such.
        #expect(XMPDate.parse("2024-05-01T10:00+25:00") == .invalidOffset("+25:00"))
        #expect(XMPDate.parse("2025-06-10T14:00:00+14:59") == .invalidOffset("+14:59"))
        #expect(XMPDate.parse("2024-05-01T25:00+01:00") == .invalid)
        #expect(XMPDate.parse("yesterday") == .invalid)
        let said = XMPDecoder.decode(Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:DateTimeOriginal=\"2025-06-10T14:00:00+14:59\"/></rdf:RDF></x:xmpmeta>").utf8),
                                     origin: "sidecar").diagnostics.map(\.message)
        #expect(said == ["sidecar XMP-exif:DateTimeOriginal '2025-06-10T14:00:00+14:59' ends in '+14:59', not an offset between -12:00 and +14:00; not used"],
                "\(said)")
        let late = LocalDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 30, second: 0)!
        #expect(XMPDate.utc(late, offset: UTCOffset(minutes: -60))?.iso8601 == "2025-01-01T00:30:00")
    }
}

@Suite("XMP precedence and padding")
struct XMPPrecedenceTests {
    @Test("the photo's embedded XMP wins over another program's sidecar; the sidecar fills what it lacks")
    func embeddedBeforeSidecar() throws {
        let embedded = try XMPFixtures.record("xmp-only.jpg")
        let reading = XMPFixtures.read("xmp-only.jpg", sidecars: ["sidecars/lightroom/IMG_1234.xmp"])
        #expect(reading.metadata.positionSource == .xmp)
        #expect(reading.metadata.coordinate?.latitude.isClose(to: XMPFixtures.number(embedded, "XMP-exif:GPSLatitude")) == true)
        #expect(reading.metadata.timeField == .xmpDateTimeOriginal)
        #expect(reading.metadata.localTime?.iso8601 == XMPFixtures.wallClock(embedded["XMP-exif:DateTimeOriginal"] as? String)?.local)
    }

    @Test("an XMP altitude never goes under another source's position")
    func altitudeStaysWithItsPosition() {
        var values = XMPValues()
        values.coordinate = Coordinate(latitude: 38.7, longitude: -9.2)
        values.altitude = 120
        var fromEXIF = PhotoMetadata(coordinate: Coordinate(latitude: 41.1, longitude: -8.6))
        fromEXIF.positionSource = .exif
        MetadataReader.fill(&fromEXIF, from: values, source: .sidecar, origin: "its sidecar")
        #expect(fromEXIF.positionSource == .exif)
        #expect(fromEXIF.altitude == nil)
        var empty = PhotoMetadata()
        MetadataReader.fill(&empty, from: values, source: .sidecar, origin: "its sidecar")
        #expect(empty.positionSource == .sidecar)
        #expect(empty.altitude == 120)
    }

    @Test("an XMP offset fills EXIF's missing one only for the same wall clock")
    func offsetFills() throws {
        let noon = try #require(LocalDateTime(year: 2024, month: 5, day: 1, hour: 12, minute: 0, second: 0))
        var values = XMPValues()
        values.captureTime = .init(field: .xmpDateTimeOriginal, localTime: noon, offset: UTCOffset(minutes: 540))
        var same = PhotoMetadata(localTime: noon, timeField: .dateTimeOriginal)
        MetadataReader.fill(&same, from: values, source: .xmp, origin: "its XMP")
        #expect(same.offset == UTCOffset(minutes: 540))
        #expect(same.timeField == .dateTimeOriginal)
        var other = PhotoMetadata(localTime: try #require(LocalDateTime(year: 2024, month: 5, day: 1, hour: 13, minute: 0, second: 0)))
        MetadataReader.fill(&other, from: values, source: .xmp, origin: "its XMP")
        #expect(other.offset == nil)
        // A fraction rounded by the editor: the same wall clock.
        var rounded = PhotoMetadata(localTime: try #require(LocalDateTime(year: 2024, month: 5, day: 1, hour: 11, minute: 59, second: 59, millisecond: 700)),
                                    timeField: .dateTimeOriginal)
        MetadataReader.fill(&rounded, from: values, source: .xmp, origin: "its XMP")
        #expect(rounded.offset == UTCOffset(minutes: 540) && rounded.diagnostics.isEmpty, "\(rounded.diagnostics)")
        #expect(same.diagnostics.isEmpty, "\(same.diagnostics)")
    }

    @Test("a second sidecar's position far from the first's is said, not used; one within 100 m is no news")
    func otherPositionSaid() {
        var photo = PhotoMetadata()
        var lisbon = XMPValues(), faro = XMPValues(), near = XMPValues()
        lisbon.coordinate = Coordinate(latitude: 38.7223, longitude: -9.1393)
        faro.coordinate = Coordinate(latitude: 37.0194, longitude: -7.9304)  // 217 km (haversine)
        near.coordinate = Coordinate(latitude: 38.7227, longitude: -9.1393)  // 44 m
        MetadataReader.fill(&photo, from: lisbon, source: .sidecar, origin: "its sidecar IMG.xmp")
        MetadataReader.fill(&photo, from: near, source: .sidecar, origin: "its sidecar IMG.JPG.xmp")
        #expect(photo.diagnostics.isEmpty)
        MetadataReader.fill(&photo, from: faro, source: .sidecar, origin: "its sidecar IMG.JPG.xmp", positionFrom: "sidecar IMG.xmp")
        #expect(photo.coordinate == lisbon.coordinate && photo.positionSource == .sidecar)
        #expect(photo.diagnostics.map(\.message) == ["its sidecar IMG.JPG.xmp gives a position 217 km from the one used (sidecar IMG.xmp's, which comes first); not used"])
        // Thousands of kilometres are grouped as everywhere else (Sydney: 18,177 km by haversine).
        var sydney = XMPValues()
        sydney.coordinate = Coordinate(latitude: -33.8688, longitude: 151.2093)
        MetadataReader.fill(&photo, from: sydney, source: .xmp, origin: "its XMP")
        #expect(photo.diagnostics.last?.message.hasPrefix("its XMP gives a position 18,17") == true && photo.diagnostics.last?.message.contains(" km from the one used (sidecar's,") == true,
                "\(photo.diagnostics.map(\.message))")
    }

    @Test("an XMP capture time of another moment than EXIF's is said, not used; the same instant with other offsets is no news")
    func otherMomentSaid() throws {
        let tenFive = try #require(LocalDateTime(year: 2025, month: 6, day: 20, hour: 10, minute: 5, second: 0))
        let tenThirtyFive = try #require(LocalDateTime(year: 2025, month: 6, day: 20, hour: 10, minute: 35, second: 0))
        var values = XMPValues()
        values.captureTime = .init(field: .xmpDateTimeOriginal, localTime: tenThirtyFive, offset: UTCOffset(minutes: 60))
        var photo = PhotoMetadata(localTime: tenFive, timeField: .dateTimeOriginal)
        MetadataReader.fill(&photo, from: values, source: .sidecar, origin: "its sidecar DSC_0001.xmp")
        #expect(photo.localTime == tenFive)
        #expect(photo.diagnostics.map(\.message) == ["its sidecar DSC_0001.xmp gives XMP-exif:DateTimeOriginal 2025-06-20T10:35:00+01:00, another moment "
            + "than its DateTimeOriginal 2025-06-20T10:05:00, which was used (the photo's own comes first); if the XMP holds a corrected time, "
            + "--clock-offset corrects the camera's clock"])
        // 09:35 UTC written as such beside 10:35 at +01:00: one instant.
        var utc = XMPValues()
        utc.captureTime = .init(field: .xmpDateTimeOriginal, localTime: try #require(LocalDateTime(year: 2025, month: 6, day: 20, hour: 9, minute: 35, second: 0)),
                                offset: UTCOffset(minutes: 0))
        var withOffset = PhotoMetadata(localTime: tenThirtyFive, offset: UTCOffset(minutes: 60), timeField: .dateTimeOriginal)
        MetadataReader.fill(&withOffset, from: utc, source: .xmp, origin: "its XMP")
        #expect(withOffset.diagnostics.isEmpty, "\(withOffset.diagnostics)")
        // A fraction rounded by one writer and cut by the other: one moment.
        var rounded = XMPValues()
        rounded.captureTime = .init(field: .xmpDateTimeOriginal, localTime: try #require(LocalDateTime(year: 2025, month: 6, day: 20, hour: 10, minute: 5,
                                                                                                      second: 1)), offset: nil)
        var fraction = PhotoMetadata(localTime: try #require(LocalDateTime(year: 2025, month: 6, day: 20, hour: 10, minute: 5, second: 0, millisecond: 600)),
                                     timeField: .dateTimeOriginal)
        MetadataReader.fill(&fraction, from: rounded, source: .xmp, origin: "its XMP")
        #expect(fraction.diagnostics.isEmpty, "\(fraction.diagnostics)")
        // A video's movie-header time (UTC or a wall clock, no offset) beside its sidecar's.
        var video = PhotoMetadata(localTime: tenFive, timeField: .quickTimeCreateDate)
        MetadataReader.fill(&video, from: values, source: .sidecar, origin: "its sidecar VID.xmp")
        #expect(video.diagnostics.isEmpty, "\(video.diagnostics)")
    }

    @Test("a packet padded with NUL bytes after its end is still read")
    func nulPadding() throws {
        let sidecar = try Data(contentsOf: XMPFixtures.folder.appendingPathComponent("sidecars/lightroom/IMG_1234.xmp"))
        let values = XMPDecoder.decode(Array(sidecar) + [UInt8](repeating: 0, count: 64), origin: "XMP")
        #expect(values.diagnostics.isEmpty, "\(values.diagnostics)")
        #expect(values.coordinate != nil)
    }

    @Test("a UTF-16 sidecar (either byte order, with its mark, padded or not) reads as its UTF-8 copy does", arguments: [true, false])
    func utf16(bigEndian: Bool) throws {
        let sidecar = try String(contentsOf: XMPFixtures.folder.appendingPathComponent("sidecars/lightroom/IMG_1234.xmp"), encoding: .utf8)
        let utf8 = XMPDecoder.decode(Array(sidecar.utf8), origin: "XMP")
        #expect(utf8.coordinate != nil)
        let text = sidecar.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let units = Array(text.utf16).flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bytes = (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + units
        for packet in [bytes, bytes + [UInt8](repeating: 0, count: 10)] {
            let values = XMPDecoder.decode(packet, origin: "XMP")
            #expect(values.diagnostics.isEmpty, "\(values.diagnostics)")
            #expect(values.coordinate == utf8.coordinate && values.captureTime == utf8.captureTime)
        }
    }
}
