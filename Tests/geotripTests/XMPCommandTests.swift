import Foundation
import GeoTripTestSupport
import Testing

/// XMP through the built binary: what `photos --json` says of a photo whose time and place are
/// only in XMP, and of one placed by another program's sidecar.
@Suite("XMP command")
struct XMPCommandTests {
    static let fixtures = TestPaths.fixtures.appendingPathComponent("xmp")

    /// A trip folder in `temp` holding copies of the XMP fixtures `names`, side by side.
    static func trip(in temp: TemporaryFolder, _ names: [String]) throws -> URL {
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: trip.appendingPathComponent((name as NSString).lastPathComponent))
        }
        return trip
    }

    @Test("photos --json: locationSource xmp and the XMP timeField for an XMP-only photo; sidecar for a Lightroom sidecar")
    func photosShowXMPSources() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.trip(in: temp, ["xmp-only.jpg", "sidecars/lightroom/IMG_1234.JPG", "sidecars/lightroom/IMG_1234.xmp"])
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--quiet"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        let run = try CommandRun.geotrip(["photos", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0) })

        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("exiftool.json"))) as? [[String: Any]])
        func record(_ path: String) -> [String: Any] { records.first { ($0["SourceFile"] as? String) == "./" + path } ?? [:] }

        let xmpOnly = try #require(byPath["xmp-only.jpg"])
        #expect(xmpOnly["locationSource"] as? String == "xmp")
        #expect(xmpOnly["timeField"] as? String == "XMP-exif:DateTimeOriginal")
        let latitude = (record("xmp-only.jpg")["XMP-exif:GPSLatitude"] as? NSNumber)?.doubleValue
        #expect(abs(((xmpOnly["latitude"] as? NSNumber)?.doubleValue ?? 0) - (latitude ?? 99)) < 1e-7)

        let lightroom = try #require(byPath["IMG_1234.JPG"])
        #expect(lightroom["locationSource"] as? String == "sidecar")
        #expect(lightroom["timeField"] as? String == "XMP-exif:DateTimeOriginal")
        let sidecarLatitude = (record("sidecars/lightroom/IMG_1234.xmp")["XMP-exif:GPSLatitude"] as? NSNumber)?.doubleValue
        #expect(abs(((lightroom["latitude"] as? NSNumber)?.doubleValue ?? 0) - (sidecarLatitude ?? 99)) < 1e-7)
        #expect(byPath.count == 2)  // the sidecar is not a photo
    }

    @Test("another program's damaged sidecar is the sidecar's problem, not the photo's, and --write-xmp never takes it for geotrip's own")
    func damagedForeignSidecar() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.trip(in: temp, ["sidecars/lightroom/IMG_1234.JPG"])
        // Lightroom's name for it, cut off in the middle of the XML.
        try Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF".utf8).write(to: trip.appendingPathComponent("IMG_1234.xmp"))
        let run = try CommandRun.geotrip(["ingest", trip.path, "--write-xmp", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let kinds = (summary["diagnosticKinds"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.contains("sidecar-unreadable") && !kinds.contains("damaged") && !kinds.contains("sidecar-failed"), "\(kinds)")
        #expect(!run.stdout.contains("photo that is gone"))
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent("IMG_1234.xmp").path))
    }
}
