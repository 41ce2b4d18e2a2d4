import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// TIFF-based files whose directories lie anywhere (IFD0 after the image, the GPS or Exif
/// directory beyond 64 KiB) and GPS stored as SRATIONAL: the fixtures of
/// scripts/make-tiff-fixtures.py, against exiftool's record of them.
@Suite("Reading TIFF directories anywhere")
struct TIFFLayoutTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("tiff")
    static let truth: [String: ExiftoolRecord] = {
        (try? ExiftoolRecord.load(folder.appendingPathComponent("exiftool.json"))) ?? [:]
    }()
    static var goodFiles: [String] {
        truth.keys.filter { !$0.hasPrefix("damaged-") && !$0.hasSuffix(".md") }.sorted()
    }

    static func read(_ name: String) -> FileReading {
        MetadataReader().read(path: folder.appendingPathComponent(name).path)
    }

    @Test("exiftool's record covers the layouts")
    func truthIsPresent() {
        #expect(Set(Self.goodFiles) == ["canon.cr3", "exif-far.dng", "gps-far.tif", "gps-srational.jpg", "ifd0-at-end.tif", "olympus.orf",
                                          "panasonic.rw2", "png-exif-far.png", "repeated-tags.tif"])
    }

    @Test("the fixtures put their directories where libexif alone cannot reach them")
    func directoriesAreFar() throws {
        func structure(_ name: String) throws -> TIFFStructure {
            try #require(TIFFStructure(Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))))
        }
        #expect(try structure("ifd0-at-end.tif").firstDirectoryOffset ?? 0 > 65_536)
        #expect(try structure("gps-far.tif").subDirectoryOffsets().gps ?? 0 > 65_536)
        #expect(try structure("gps-far.tif").thumbnail()?.offset ?? 0 > 65_536)
        #expect(try structure("exif-far.dng").subDirectoryOffsets().exif ?? 0 > 65_536)
    }

    @Test("every layout agrees with exiftool", arguments: goodFiles)
    func agreesWithExiftool(name: String) throws {
        let expected = try #require(Self.truth[name])
        let reading = Self.read(name)
        #expect(reading.status == .read)
        let m = reading.metadata
        #expect(m.coordinate != nil, "\(name): no position read")
        expectPositionAndTimes(m, latitude: expected.latitude, longitude: expected.longitude, altitude: expected.altitude,
                               localTime: expected.localTime, offset: expected.offset, gpsTime: expected.gpsTime)
        #expect(m.make == expected.make)
        #expect(m.model == expected.model)
        #expect(m.width == expected.width)
        #expect(m.height == expected.height)
        // exiftool gives a PNG's thumbnail offset from the TIFF header, not from the file's start,
        // and a CR3's THMB thumbnail is no IFD1 one (farThumbnail checks both are whole JPEGs).
        if !name.hasSuffix(".png") && !name.hasSuffix(".cr3") { #expect(m.thumbnail?.offset == expected.thumbnailOffset) }
        if !name.hasSuffix(".cr3") { #expect(m.thumbnail?.length == expected.thumbnailLength) }
        #expect(m.diagnostics.isEmpty, "\(name): unexpected diagnostics: \(m.diagnostics)")
    }

    @Test("the thumbnail beyond 64 KiB, or in a CR3's THMB box, is located in the file, as a whole JPEG",
          arguments: ["gps-far.tif", "png-exif-far.png", "canon.cr3"])
    func farThumbnail(name: String) throws {
        let thumbnail = try #require(Self.read(name).metadata.thumbnail)
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let slice = bytes[thumbnail.offset..<(thumbnail.offset + thumbnail.length)]
        #expect(slice.prefix(2) == Data([0xFF, 0xD8]))
        #expect(slice.suffix(2) == Data([0xFF, 0xD9]))
    }

    @Test("two scans with the same tags and size but other pixels are told apart")
    func fingerprintSeesPixels() throws {
        var bytes = try Data(contentsOf: Self.folder.appendingPathComponent("ifd0-at-end.tif"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        bytes[100] ^= 0xFF  // a pixel: the directories are at the end
        let other = temp.url.appendingPathComponent("other.tif")
        try bytes.write(to: other)
        let first = Self.read("ifd0-at-end.tif"), second = MetadataReader().read(path: other.path)
        #expect(first.metadata == second.metadata)
        #expect(first.fingerprint != second.fingerprint)
    }

    @Test("a CR3 cut short in its thumbnail keeps its values and says the file is damaged")
    func truncatedCR3() throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent("canon.cr3"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let cut = temp.url.appendingPathComponent("cut.cr3")
        try bytes.prefix(bytes.count - (8 + 64 * 64) - 100).write(to: cut)  // mdat, and the THMB's last 100 bytes
        let reading = MetadataReader().read(path: cut.path)
        #expect(reading.status == .read)
        #expect(reading.metadata.coordinate != nil)
        #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged && $0.message.contains("CR3 raw") }, "\(reading.metadata.diagnostics)")
    }

    /// Each damaged file: what must still be read, and the diagnostic that says what was not.
    struct Damage: Sendable, CustomTestStringConvertible {
        var file: String
        var status: FileReading.Status
        var kind: DiagnosticKind
        var says: String
        var keepsTime: Bool
        var testDescription: String { file }
    }

    static let damages: [Damage] = [
        Damage(file: "damaged-ifd-loop.tif", status: .read, kind: .valueIgnored, says: "loop", keepsTime: true),
        Damage(file: "damaged-exif-loop.tif", status: .read, kind: .valueIgnored, says: "loop", keepsTime: false),
        Damage(file: "damaged-absurd-count.tif", status: .read, kind: .positionIgnored, says: "65535 entries", keepsTime: false),
        Damage(file: "damaged-gps-past-end.tif", status: .read, kind: .positionIgnored, says: "past the end of the file's", keepsTime: false),
        Damage(file: "damaged-value-past-end.tif", status: .read, kind: .valueIgnored, says: "past the end of the file's", keepsTime: false),
        Damage(file: "damaged-ifd0-past-end.tif", status: .unreadable, kind: .damaged, says: "past the end of the file's", keepsTime: false),
        Damage(file: "damaged-srational-negative.jpg", status: .read, kind: .positionIgnored, says: "negative", keepsTime: true),
        Damage(file: "damaged-cr3-gps-not-tiff.cr3", status: .read, kind: .positionIgnored, says: "CMT4 box holds no TIFF header", keepsTime: true),
    ]

    @Test("a first directory said to start in the header is named as in the header, not outside the file")
    func directoryInHeader() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("header.tif")
        try Data([0x49, 0x49, 0x2A, 0x00, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 100)).write(to: url)
        let reading = MetadataReader().read(path: url.path)
        #expect(reading.status == .unreadable)
        #expect(reading.metadata.diagnostics.contains { $0.message.contains("is said to start at byte 0, inside the file's 8-byte header") },
                "\(reading.metadata.diagnostics)")
    }

    @Test("a damaged layout is a diagnostic, and the rest is still read", arguments: damages)
    func damaged(_ damage: Damage) {
        let reading = Self.read(damage.file)
        #expect(reading.status == damage.status)
        let m = reading.metadata
        #expect(m.coordinate == nil)
        #expect(m.diagnostics.contains { $0.kind == damage.kind && $0.message.contains(damage.says) },
                "\(damage.file): \(m.diagnostics)")
        #expect((m.localTime != nil) == damage.keepsTime)
        if damage.status == .read { #expect(["Test", "HMD Global", "Canon"].contains(m.make)) }
    }

    @Test("bytes flipped one at a time in the far directories never crash or hang the walk",
          arguments: ["ifd0-at-end.tif", "gps-far.tif"])
    func flippedDirectories(name: String) throws {
        let original = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let structure = try #require(TIFFStructure(original))
        // The header, and every byte from the first far directory to the end (the pixels aside).
        let far = [structure.firstDirectoryOffset, structure.subDirectoryOffsets().gps].compactMap { $0 }.filter { $0 > 65_536 }
        let start = try #require(far.min())
        for index in Array(0..<8) + Array(start..<min(original.count, start + 700)) {
            for flip: UInt8 in [0xFF, 0x80, 0x01] {
                var bytes = original
                bytes[index] ^= flip
                guard let found = try? TIFFDirectoryReader.read(TIFFBytesInMemory(storage: bytes[...])),
                      let block = found.block else { continue }
                var metadata = PhotoMetadata()
                ExifDecoder.decode(block, into: &metadata)
                if let coordinate = metadata.coordinate {
                    #expect(abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180)
                }
                if let thumbnail = found.thumbnail { #expect(thumbnail.offset + thumbnail.length <= bytes.count) }
            }
        }
    }
}
