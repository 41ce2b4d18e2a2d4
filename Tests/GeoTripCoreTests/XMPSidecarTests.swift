import Foundation
import Testing
@testable import GeoTripCore

/// Sidecars geotrip writes must read back, in exiftool, as the position geotrip meant; sidecars
/// other programs wrote, and the photos themselves, must never change.
@Suite("XMP sidecars")
struct XMPSidecarTests {
    static let exiftool = "/usr/bin/exiftool"
    static let hasExiftool = FileManager.default.isExecutableFile(atPath: exiftool)
    static let python = "/usr/bin/python3"
    static let hasPython = FileManager.default.isExecutableFile(atPath: python)

    /// The package's top folder, from this file's path (Tests/GeoTripCoreTests/XMPSidecarTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A temporary folder holding a copy of a real sample photo, removed when the test ends.
    final class Scene {
        let folder: URL
        let photo: URL
        var sidecar: URL { XMPSidecar.url(forPhotoAt: photo) }

        init(photoName: String = "x.jpg") throws {
            folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("geotrip-xmp-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            photo = folder.appendingPathComponent(photoName)
            try FileManager.default.copyItem(
                at: XMPSidecarTests.packageRoot.appendingPathComponent("SampleImages/IMG_0031.JPG"), to: photo)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func photoBytes() throws -> Data { try Data(contentsOf: photo) }
        func sidecarBytes() throws -> Data { try Data(contentsOf: sidecar) }
        func sidecarText() throws -> String { String(decoding: try sidecarBytes(), as: UTF8.self) }
        func folderContents() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        }
    }

    /// Runs a program to completion and returns its standard output; fails the test on a non-zero exit.
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments) failed: \(errorText)")
        return data
    }

    /// What exiftool reads from a sidecar: its XMP tags by group, plus the composite (signed) values.
    static func exiftoolTags(_ file: URL) throws -> [String: Any] {
        let data = try run(exiftool, ["-n", "-json", "-G1", "-XMP:all", "-Composite:all", file.path])
        let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try #require(records.first)
    }

    struct Place: Sendable, CustomTestStringConvertible {
        var name: String
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var testDescription: String { name }
    }

    static let places = [
        Place(name: "Sydney Opera House (south, east)", latitude: -33.8568, longitude: 151.2153, altitude: 4.5),
        Place(name: "Sintra (north, west)", latitude: 38.6916, longitude: -9.2160, altitude: 207.25),
        Place(name: "Ushuaia (south, west)", latitude: -54.8019, longitude: -68.303, altitude: 0),
        Place(name: "Dead Sea shore (below sea level)", latitude: 31.5590, longitude: 35.4732, altitude: -430.5),
        Place(name: "Null Island (zero)", latitude: 0, longitude: 0, altitude: -0.25),
    ]

    @Test("exiftool reads back the signed position and altitude geotrip wrote",
          .enabled(if: hasExiftool), arguments: places)
    func exiftoolReadsPosition(place: Place) throws {
        let scene = try Scene()
        let outcome = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: place.latitude, longitude: place.longitude),
            altitude: place.altitude, utcTime: nil, source: "gps", uncertaintyMeters: 5)
        #expect(outcome == .written)

        let tags = try Self.exiftoolTags(scene.sidecar)
        let latitude = try #require(tags["XMP-exif:GPSLatitude"] as? Double)
        let longitude = try #require(tags["XMP-exif:GPSLongitude"] as? Double)
        let altitude = try #require(tags["Composite:GPSAltitude"] as? Double)
        // Minutes are written to 1e-6, so degrees come back within 1e-8.
        #expect(abs(latitude - place.latitude) < 1e-8)
        #expect(abs(longitude - place.longitude) < 1e-8)
        #expect(abs(altitude - place.altitude) < 1e-9)
        #expect(tags["XMP-exif:GPSAltitudeRef"] as? Int == (place.altitude < 0 ? 1 : 0))
        #expect(tags["XMP-exif:GPSVersionID"] as? String == "2.3.0.0")
        #expect(tags["XMP-exif:GPSMapDatum"] as? String == "WGS-84")
        #expect(tags["XMP-xmp:CreatorTool"] as? String == "geotrip")
        #expect(tags["XMP-geotrip:LocationSource"] as? String == "gps")
        #expect(tags["XMP-geotrip:UncertaintyMeters"] as? Double == 5)
        #expect(tags["XMP-exif:GPSDateTime"] == nil, "no time was given, so none is written")
    }

    @Test("the sidecar is the same with exiftool's plain GPS tags, as darktable's users would query it",
          .enabled(if: hasExiftool))
    func exiftoolPlainTags() throws {
        let scene = try Scene(photoName: "IMG_1234.jpg")
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -54.8019, longitude: -68.303),
            altitude: -12.5, utcTime: nil, source: "interpolated", uncertaintyMeters: nil)
        #expect(scene.sidecar.lastPathComponent == "IMG_1234.jpg.xmp")
        let data = try Self.run(Self.exiftool, ["-n", "-json", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", scene.sidecar.path])
        let record = try #require((try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first)
        #expect(record["GPSLatitude"] as? Double == -54.8019)
        #expect(record["GPSLongitude"] as? Double == -68.303)
        #expect(record["GPSAltitude"] as? Double == -12.5)
    }

    @Test("exiftool reads back the UTC time, with and without milliseconds", .enabled(if: hasExiftool),
          arguments: [
              (1_749_539_525.0, "2025:06:10 07:12:05Z"),
              (1_749_539_525.123, "2025:06:10 07:12:05.123Z"),
              (-86_400.5, "1969:12:30 23:59:59.500Z"),
          ])
    func exiftoolReadsTime(seconds: Double, expected: String) throws {
        let scene = try Scene()
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 38.6916, longitude: -9.2160),
            altitude: nil, utcTime: Date(timeIntervalSince1970: seconds), source: "gps", uncertaintyMeters: nil)
        let tags = try Self.exiftoolTags(scene.sidecar)
        #expect(tags["XMP-exif:GPSDateTime"] as? String == expected)
        #expect(tags["XMP-exif:GPSAltitude"] == nil, "no altitude was given, so none is written")
        #expect(tags["XMP-exif:GPSAltitudeRef"] == nil)
        #expect(tags["XMP-geotrip:UncertaintyMeters"] == nil)
    }

    @Test("XML special characters in the source survive the round trip through exiftool", .enabled(if: hasExiftool))
    func escaping() throws {
        let scene = try Scene()
        let source = #"track "a&b" <2025> 'x'"# + "\tcafé\nend"
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 1, longitude: 2),
            altitude: nil, utcTime: nil, source: source, uncertaintyMeters: 12.345)
        let tags = try Self.exiftoolTags(scene.sidecar)
        #expect(tags["XMP-geotrip:LocationSource"] as? String == source)
        #expect(tags["XMP-geotrip:UncertaintyMeters"] as? Double == 12.345)
    }

    @Test("the sidecar is well-formed XML to a strict parser", .enabled(if: hasPython))
    func wellFormed() throws {
        let scene = try Scene()
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153),
            altitude: -3, utcTime: Date(timeIntervalSince1970: 0), source: "a & b < \"c\"", uncertaintyMeters: 0.5)
        _ = try Self.run(Self.python, [
            "-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", scene.sidecar.path,
        ])
    }

    @Test("coordinates are written in XMP's DDD,MM.mmmmmmk form with the hemisphere letter")
    func coordinateForm() throws {
        let scene = try Scene()
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: -9.2160),
            altitude: 28.01, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        let text = try scene.sidecarText()
        #expect(text.contains(#"exif:GPSLatitude="33,51.408000S""#))
        #expect(text.contains(#"exif:GPSLongitude="9,12.960000W""#))
        #expect(text.contains(#"exif:GPSAltitude="2801/100""#))
        #expect(text.contains(#"xmlns:geotrip="https://geotrip.invalid/ns/1.0/""#))
    }

    @Test("an exiftool sidecar is kept byte for byte, and remove() leaves it", .enabled(if: hasExiftool))
    func foreignFromExiftool() throws {
        let scene = try Scene()
        _ = try Self.run(Self.exiftool, ["-q", "-o", scene.sidecar.path, "-XMP:Rating=3", scene.photo.path])
        let before = try scene.sidecarBytes()
        let photoBefore = try scene.photoBytes()

        let outcome = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153),
            altitude: nil, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        #expect(outcome == .keptForeign)
        #expect(try scene.sidecarBytes() == before)
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        #expect(try scene.sidecarBytes() == before)
        #expect(try scene.photoBytes() == photoBefore)
        #expect(try scene.folderContents() == ["x.jpg", "x.jpg.xmp"], "no temporary file is left behind")
    }

    @Test("a darktable sidecar written by hand is kept byte for byte")
    func foreignByHand() throws {
        let scene = try Scene()
        let darktable = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:darktable="http://darktable.sf.net/"
                darktable:xmp_version="5"
                darktable:history_end="3"/>
             </rdf:RDF>
            </x:xmpmeta>

            """.utf8)
        try darktable.write(to: scene.sidecar)
        let outcome = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 38.6916, longitude: -9.2160),
            altitude: 207, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        #expect(outcome == .keptForeign)
        #expect(try scene.sidecarBytes() == darktable)
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        #expect(try scene.sidecarBytes() == darktable)
    }

    @Test("a sidecar of gigabytes is someone else's, found so from its first bytes, never read whole")
    func hugeSidecar() throws {
        let scene = try Scene()
        // Sparse: 3 GB on the file system, no blocks on the disk.
        #expect(FileManager.default.createFile(atPath: scene.sidecar.path, contents: Data("<x:xmpmeta>".utf8)))
        #expect(truncate(scene.sidecar.path, 3 << 30) == 0)
        #expect(try XMPSidecar.existingContents(of: scene.sidecar)?.count == XMPSidecar.readLimit)
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        #expect(try XMPSidecar.write(forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 1, longitude: 2), altitude: nil, utcTime: nil,
                                     source: "gps", uncertaintyMeters: nil) == .keptForeign)
        #expect(try FileManager.default.attributesOfItem(atPath: scene.sidecar.path)[.size] as? Int == 3 << 30)
    }

    @Test("geotrip's sidecar that another program has since edited is left alone: said when its position is no longer the photo's", .enabled(if: hasExiftool))
    func editedAfterwards() throws {
        let scene = try Scene()
        let coordinate = Coordinate(latitude: -54.8019, longitude: -68.303)
        #expect(try XMPSidecar.write(forPhotoAt: scene.photo, coordinate: coordinate, altitude: nil, utcTime: nil,
                                     source: "gps", uncertaintyMeters: nil) == .written)
        _ = try Self.run(Self.exiftool, ["-q", "-overwrite_original", "-XMP-xmp:Rating=3", scene.sidecar.path])
        let edited = try scene.sidecarBytes()
        #expect(String(decoding: edited, as: UTF8.self).contains("https://geotrip.invalid/ns/1.0/"),
                "exiftool kept geotrip's namespace, so only the stricter check tells the edit apart")

        let outcome = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 0, longitude: 0),
            altitude: nil, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        #expect(outcome == .keptEdited)
        #expect(try scene.sidecarBytes() == edited)
        // Still saying the position geotrip has: nothing to do, nothing to say.
        #expect(try XMPSidecar.write(forPhotoAt: scene.photo, coordinate: coordinate, altitude: nil, utcTime: nil,
                                     source: "gps", uncertaintyMeters: nil) == .unchanged)
        #expect(try scene.sidecarBytes() == edited)
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
    }

    @Test("writing the same position again is unchanged and leaves the file untouched")
    func unchanged() throws {
        let scene = try Scene()
        let photoBefore = try scene.photoBytes()
        let write = {
            try XMPSidecar.write(
                forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153),
                altitude: -2.5, utcTime: Date(timeIntervalSince1970: 1_749_539_525), source: "gps",
                uncertaintyMeters: 8)
        }
        #expect(try write() == .written)
        let bytes = try scene.sidecarBytes()
        // An old modification time, so a rewrite within the same clock tick could not hide.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: scene.sidecar.path)
        let inode = try FileManager.default.attributesOfItem(atPath: scene.sidecar.path)[.systemFileNumber] as? Int

        #expect(try write() == .unchanged)
        let attributes = try FileManager.default.attributesOfItem(atPath: scene.sidecar.path)
        #expect(attributes[.modificationDate] as? Date == old)
        #expect(attributes[.systemFileNumber] as? Int == inode, "the file was not replaced")
        #expect(try scene.sidecarBytes() == bytes)
        #expect(try scene.photoBytes() == photoBefore)
    }

    @Test("a new position rewrites geotrip's own sidecar, atomically and without leftovers")
    func rewrite() throws {
        let scene = try Scene()
        let photoBefore = try scene.photoBytes()
        #expect(try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 38.6916, longitude: -9.2160),
            altitude: nil, utcTime: nil, source: "gps", uncertaintyMeters: nil) == .written)
        let first = try scene.sidecarText()
        #expect(try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153),
            altitude: 10, utcTime: nil, source: "manual", uncertaintyMeters: 1) == .written)
        let second = try scene.sidecarText()
        #expect(first != second)
        #expect(second.contains(#"geotrip:LocationSource="manual""#))
        #expect(try scene.folderContents() == ["x.jpg", "x.jpg.xmp"])
        #expect(try scene.photoBytes() == photoBefore)
    }

    @Test("the same values give the same bytes in two folders")
    func deterministic() throws {
        let one = try Scene(), two = try Scene()
        for scene in [one.photo, two.photo] {
            _ = try XMPSidecar.write(
                forPhotoAt: scene, coordinate: Coordinate(latitude: 31.559, longitude: 35.4732),
                altitude: -430.5, utcTime: Date(timeIntervalSince1970: 1_749_539_525.25), source: "gps",
                uncertaintyMeters: 3.25)
        }
        #expect(try one.sidecarBytes() == two.sidecarBytes())
    }

    @Test("remove() deletes geotrip's sidecar and reports when there is none")
    func removeOwn() throws {
        let scene = try Scene()
        let photoBefore = try scene.photoBytes()
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        _ = try XMPSidecar.write(
            forPhotoAt: scene.photo, coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153),
            altitude: nil, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        #expect(FileManager.default.fileExists(atPath: scene.sidecar.path))
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == true)
        #expect(!FileManager.default.fileExists(atPath: scene.sidecar.path))
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        #expect(try scene.folderContents() == ["x.jpg"])
        #expect(try scene.photoBytes() == photoBefore)
    }

    @Test("values XMP cannot carry are refused and no sidecar is written")
    func invalidValues() throws {
        let scene = try Scene()
        let cases: [(Coordinate, Double?, String, Double?)] = [
            (Coordinate(latitude: 91, longitude: 0), nil, "gps", nil),
            (Coordinate(latitude: 0, longitude: -180.5), nil, "gps", nil),
            (Coordinate(latitude: .nan, longitude: 0), nil, "gps", nil),
            (Coordinate(latitude: 0, longitude: 0), .infinity, "gps", nil),
            (Coordinate(latitude: 0, longitude: 0), nil, "bell\u{7}", nil),
            (Coordinate(latitude: 0, longitude: 0), nil, "gps", -1),
        ]
        for (coordinate, altitude, source, uncertainty) in cases {
            #expect(throws: XMPSidecar.Failure.self) {
                try XMPSidecar.write(forPhotoAt: scene.photo, coordinate: coordinate, altitude: altitude,
                                     utcTime: nil, source: source, uncertaintyMeters: uncertainty)
            }
        }
        #expect(try scene.folderContents() == ["x.jpg"])
    }

    @Test("no sidecar is written for a photo that is not there")
    func photoMissing() throws {
        let scene = try Scene()
        let missing = scene.folder.appendingPathComponent("gone.jpg")
        #expect(throws: XMPSidecar.Failure.photoMissing(path: missing.path)) {
            try XMPSidecar.write(forPhotoAt: missing, coordinate: Coordinate(latitude: 1, longitude: 1),
                                 altitude: nil, utcTime: nil, source: "gps", uncertaintyMeters: nil)
        }
        #expect(try scene.folderContents() == ["x.jpg"])
    }

    @Test("the sidecar path is the photo path plus .xmp")
    func sidecarPath() {
        let photo = URL(fileURLWithPath: "/trip/2025-06-10 Lisboa/IMG_1234.JPG")
        #expect(XMPSidecar.url(forPhotoAt: photo).path == "/trip/2025-06-10 Lisboa/IMG_1234.JPG.xmp")
    }
}
