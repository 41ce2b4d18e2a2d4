import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// XMP through the ingest: sidecars that change between runs, geotrip's own sidecars, and a
/// damaged corpus of XMP that must cost one diagnostic each and never the run.
@Suite("XMP in the ingest")
struct XMPIngestTests {
    func ingest(_ folder: URL) async throws -> IngestSummary {
        try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
    }

    func photos(_ folder: URL) throws -> [String: CatalogPhoto] {
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: folder.path))
        return Dictionary(uniqueKeysWithValues: try catalog.photos().map { ($0.path, $0) })
    }

    /// Copies fixture files into `folder` under their last path component.
    func copy(_ fixtures: [String], to folder: URL) throws {
        for fixture in fixtures {
            try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent(fixture),
                                             to: folder.appendingPathComponent((fixture as NSString).lastPathComponent))
        }
    }

    /// Sets a file's modification time `seconds` later than it is, as an edit a second later would.
    func touch(_ file: URL, later seconds: TimeInterval) throws {
        let date = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: date.addingTimeInterval(seconds)], ofItemAtPath: file.path)
    }

    @Test("a sidecar edited between two ingests is read again: the photo moves to the new position")
    func editedSidecar() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try copy(["sidecars/lightroom/IMG_1234.JPG", "sidecars/lightroom/IMG_1234.xmp"], to: temp.url)
        let before = try XMPFixtures.record("sidecars/lightroom/IMG_1234.xmp")
        let after = try XMPFixtures.record("sidecars/edited/IMG_1234.xmp")

        _ = try await ingest(temp.url)
        let first = try #require(try photos(temp.url)["IMG_1234.JPG"])
        #expect(first.locationSource == .sidecar)
        #expect(first.coordinate?.latitude.isClose(to: XMPFixtures.number(before, "XMP-exif:GPSLatitude")) == true)

        // The photo itself is untouched; only its sidecar changes.
        let sidecar = temp.url.appendingPathComponent("IMG_1234.xmp")
        try FileManager.default.removeItem(at: sidecar)
        try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent("sidecars/edited/IMG_1234.xmp"), to: sidecar)
        try touch(sidecar, later: 10)
        let summary = try await ingest(temp.url)
        #expect(summary.changed == 1)
        let second = try #require(try photos(temp.url)["IMG_1234.JPG"])
        #expect(second.id == first.id)
        #expect(second.locationSource == .sidecar)
        #expect(second.coordinate?.latitude.isClose(to: XMPFixtures.number(after, "XMP-exif:GPSLatitude")) == true)
        #expect(second.coordinate?.longitude.isClose(to: XMPFixtures.number(after, "XMP-exif:GPSLongitude")) == true)

        // Unchanged since: nothing is read.
        let third = try await ingest(temp.url)
        #expect(third.changed == 0 && third.unchanged == 1)

        // The sidecar removed: the photo is read again and has no position of its own.
        try FileManager.default.removeItem(at: sidecar)
        let fourth = try await ingest(temp.url)
        #expect(fourth.changed == 1)
        #expect(try photos(temp.url)["IMG_1234.JPG"]?.coordinate == nil)
    }

    @Test("geotrip's own sidecar gives nothing, and rewriting it does not make the photo changed")
    func ownSidecarIsNotInput() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try copy(["sidecars/geotrip-resaved/IMG_9999.JPG"], to: temp.url)
        _ = try await ingest(temp.url)

        // It appears (as --write-xmp would write it), then is rewritten: the photo stays unchanged.
        try copy(["sidecars/geotrip-resaved/IMG_9999.JPG.xmp"], to: temp.url)
        let appeared = try await ingest(temp.url)
        #expect(appeared.changed == 0)
        #expect(try photos(temp.url)["IMG_9999.JPG"]?.coordinate == nil)
        try touch(temp.url.appendingPathComponent("IMG_9999.JPG.xmp"), later: 10)
        let rewritten = try await ingest(temp.url)
        #expect(rewritten.changed == 0 && rewritten.unchanged == 1)
        #expect(try photos(temp.url)["IMG_9999.JPG"]?.coordinate == nil)
    }

    @Test("a video's sidecars count as a photo's: geotrip's own is no change, another program's fills its place")
    func videoSidecars() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let video = TestPaths.fixtures.appendingPathComponent("videos/video-plain.m4v")
        try FileManager.default.copyItem(at: video, to: temp.url.appendingPathComponent("CLIP.m4v"))
        _ = try await ingest(temp.url)
        #expect(try photos(temp.url)["CLIP.m4v"]?.coordinate == nil, "the fixture has no position of its own")
        try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent("sidecars/geotrip-resaved/IMG_9999.JPG.xmp"),
                                         to: temp.url.appendingPathComponent("CLIP.m4v.xmp"))
        #expect(try await ingest(temp.url).changed == 0)
        try touch(temp.url.appendingPathComponent("CLIP.m4v.xmp"), later: 10)
        #expect(try await ingest(temp.url).changed == 0)
        try FileManager.default.removeItem(at: temp.url.appendingPathComponent("CLIP.m4v.xmp"))
        try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent("sidecars/lightroom/IMG_1234.xmp"),
                                         to: temp.url.appendingPathComponent("CLIP.xmp"))
        #expect(try await ingest(temp.url).changed == 1)
        let record = try XMPFixtures.record("sidecars/lightroom/IMG_1234.xmp")
        let clip = try #require(try photos(temp.url)["CLIP.m4v"])
        #expect(clip.locationSource == .sidecar)
        #expect(clip.coordinate?.latitude.isClose(to: XMPFixtures.number(record, "XMP-exif:GPSLatitude")) == true)
    }

    @Test("a file geotrip skips, with a Lightroom sidecar beside it, is not read again on a rerun")
    func skippedWithSidecar() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("not a photo geotrip reads".utf8).write(to: temp.url.appendingPathComponent("IMG_1234.CR3"))
        try copy(["sidecars/lightroom/IMG_1234.xmp"], to: temp.url)
        _ = try await ingest(temp.url)
        let rerun = try await ingest(temp.url)
        #expect(rerun.changed == 0 && rerun.unchanged == 1)
    }

    @Test("photos with XMP, through the whole ingest, keep the source and field they were read from")
    func sourcesThroughTheIngest() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try copy(["xmp-only.jpg", "xmp-and-exif.jpg", "heic-xmp.heic", "sidecars/darktable/IMG_5678.JPG",
                  "sidecars/darktable/IMG_5678.JPG.xmp"], to: temp.url)
        _ = try await ingest(temp.url)
        let photos = try photos(temp.url)
        #expect(photos["xmp-only.jpg"]?.locationSource == .xmp)
        #expect(photos["xmp-only.jpg"]?.timeField == .xmpDateTimeOriginal)
        #expect(photos["xmp-only.jpg"]?.utcTime?.iso8601 == "2024-05-01T11:00:00.250Z")
        #expect(photos["xmp-and-exif.jpg"]?.locationSource == .exif)
        #expect(photos["heic-xmp.heic"]?.locationSource == .xmp)
        #expect(photos["IMG_5678.JPG"]?.locationSource == .sidecar)
        #expect(photos["IMG_5678.JPG"]?.timeField == .xmpDateTimeOriginal)
    }
}

/// XMP that is broken or hostile: no crash, no hang, one clear diagnostic each, and the run goes on.
@Suite("XMP hardening")
struct XMPHardeningTests {
    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let extensionHeader = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// `jpeg` with its APP1 segments that start with `header` replaced by one segment per
    /// body (header prefixed), where the first of them was.
    static func replacingAPP1(_ jpeg: [UInt8], header: [UInt8], with bodies: [[UInt8]]) -> [UInt8] {
        var output = Array(jpeg[0..<2]), position = 2, inserted = false
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] != 0xDA {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            let segment = Array(jpeg[position..<position + 2 + length])
            if jpeg[position + 1] == 0xE1, segment.dropFirst(4).starts(with: header) {
                if !inserted {
                    for body in bodies {
                        let payload = header + body
                        output += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
                    }
                    inserted = true
                }
            } else {
                output += segment
            }
            position += 2 + length
        }
        return output + jpeg[position...]
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: XMPFixtures.folder.appendingPathComponent(name)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The damaged corpus: a name, the file's bytes, and a word its one diagnostic must hold.
    static func corpus() throws -> [(name: String, bytes: [UInt8], word: String)] {
        let plain = try fixture("xmp-only.jpg")
        func withPacket(_ text: String) -> [UInt8] { replacingAPP1(plain, header: xmpHeader, with: [Array(text.utf8)]) }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
            + (1...9).map { "<!ENTITY lol\($0) \"" + String(repeating: "&lol\($0 - 1 == 0 ? "" : String($0 - 1));", count: 10) + "\">" }.joined()
            + "]><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">&lol9;</x:xmpmeta>"
        let extended = try fixture("xmp-extended.jpg")
        let guid = try #require(XMPFixtures.records["xmp-extended.jpg"]?["XMP-xmpNote:HasExtendedXMP"] as? String)
        // The chunks as the fixture has them, to drop one.
        var chunks: [[UInt8]] = []
        var position = 2
        while position + 4 <= extended.count, extended[position + 1] != 0xDA {
            let length = Int(extended[position + 2]) << 8 | Int(extended[position + 3])
            let body = Array(extended[position + 4..<position + 2 + length])
            if body.starts(with: extensionHeader) { chunks.append(Array(body.dropFirst(extensionHeader.count))) }
            position += 2 + length
        }
        #expect(chunks.count == 2)
        let guidBytes = Array(guid.utf8)
        return [
            ("not-xml.jpg", withPacket("this is not XML at all <<< \u{1}"), "not well-formed"),
            ("billion-laughs.jpg", withPacket(laughs), "DOCTYPE"),
            ("external-entity.jpg", withPacket("<?xml version=\"1.0\"?><!DOCTYPE x:xmpmeta [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">&e;</x:xmpmeta>"), "DOCTYPE"),
            ("external-dtd.jpg", withPacket("<?xml version=\"1.0\"?><!DOCTYPE x:xmpmeta SYSTEM \"file:///etc/passwd\"><x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>"), "DOCTYPE"),
            ("deep-nesting.jpg", withPacket(String(repeating: "<a>", count: 20_000)), "not well-formed"),
            ("extended-truncated.jpg", replacingAPP1(extended, header: extensionHeader, with: [chunks[0]]), "missing"),
            ("extended-absurd-length.jpg", replacingAPP1(extended, header: extensionHeader,
                with: [guidBytes + bigEndian(0xFFFF_FFF0) + bigEndian(0) + Array("abc".utf8)]), "beyond"),
            ("extended-past-its-end.jpg", replacingAPP1(extended, header: extensionHeader,
                with: [guidBytes + bigEndian(100) + bigEndian(90) + [UInt8](repeating: 0x20, count: 20)]), "runs past"),
        ]
    }

    @Test("each damaged XMP packet gives one diagnostic, no value, and no crash or hang")
    func damagedPackets() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for entry in try Self.corpus() {
            let file = temp.url.appendingPathComponent(entry.name)
            try Data(entry.bytes).write(to: file)
            let reading = MetadataReader().read(path: file.path)
            #expect(reading.status == .read, "\(entry.name)")
            let damaged = reading.metadata.diagnostics.filter { $0.kind == .damaged }
            #expect(damaged.count == 1, "\(entry.name): \(reading.metadata.diagnostics)")
            #expect(damaged.first?.message.contains(entry.word) == true, "\(entry.name): \(damaged)")
            #expect(reading.metadata.localTime == nil || entry.name.hasPrefix("extended"), "\(entry.name)")
            if !entry.name.hasPrefix("extended") { #expect(reading.metadata.coordinate == nil, "\(entry.name)") }
        }
    }

    @Test("damaged and oversized sidecars: one diagnostic each; the photo is still read")
    func damagedSidecars() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let photo = temp.url.appendingPathComponent("IMG.JPG")
        try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent("sidecars/lightroom/IMG_1234.JPG"), to: photo)
        let cases: [(String, (URL) throws -> Void, String)] = [
            ("not XML", { try Data("{\"json\": true}".utf8).write(to: $0) }, "not well-formed"),
            ("a DOCTYPE", { try Data("<!DOCTYPE x SYSTEM \"/etc/passwd\"><x/>".utf8).write(to: $0) }, "DOCTYPE"),
            ("17 MiB", { url in
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: 17 << 20)  // sparse: costs no disk
                try handle.close()
            }, "MiB"),
            ("a folder", { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: false) }, "not"),
        ]
        for (what, make, word) in cases {
            let sidecar = temp.url.appendingPathComponent("IMG.xmp")
            try? FileManager.default.removeItem(at: sidecar)
            try make(sidecar)
            let reading = MetadataReader().read(path: photo.path, sidecars: [sidecar.path])
            #expect(reading.status == .read, "\(what)")
            let problems = reading.metadata.diagnostics.filter { $0.kind != .noExif }
            #expect(problems.count == 1, "\(what): \(reading.metadata.diagnostics)")
            #expect(problems.first?.message.contains(word) == true, "\(what): \(problems)")
        }
    }

    @Test("a folder of damaged XMP ingests to the end, and the good photo beside them is placed")
    func runGoesOn() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for entry in try Self.corpus() {
            try Data(entry.bytes).write(to: temp.url.appendingPathComponent(entry.name))
        }
        try FileManager.default.copyItem(at: XMPFixtures.folder.appendingPathComponent("xmp-only.jpg"),
                                         to: temp.url.appendingPathComponent("good.jpg"))
        let summary = try await IngestPipeline(options: IngestOptions(folder: temp.path)).run(progress: SilentProgress())
        #expect(summary.scanned == 9)
        #expect(summary.errors == 0)
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: temp.path))
        let good = try #require(try catalog.photos().first { $0.path == "good.jpg" })
        #expect(good.locationSource == .xmp)
    }
}
