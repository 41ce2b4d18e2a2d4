import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// One fixture per bad value or format (Fixtures/README.md says how each was made): the reader
/// must give exactly the values in Fixtures/expected.json and, for bad values, a diagnostic
/// that names the problem, never a made-up value.
@Suite("Bad values and formats")
struct BadValueTests {
    struct Expectation: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var localTime: String?
        var offset: String?
        var gpsTime: String?
        var expectDiagnostic: String?
        var thumbnailOffset: Int?
        var thumbnailLength: Int?
        var testDescription: String { file }
    }

    struct ExpectationFile: Decodable {
        var fixtures: [Expectation]
    }

    static let expectations: [Expectation] = {
        let url = TestPaths.fixtures.appendingPathComponent("expected.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode(ExpectationFile.self, from: data).fixtures) ?? []
    }()

    /// Words the reader's diagnostic must contain for each bad-value fixture.
    static let diagnosticWords: [String: (kind: DiagnosticKind, words: [String])] = [
        "gps-no-ref.jpg": (.positionIgnored, ["GPSLatitudeRef", "hemisphere"]),
        "gps-zero-denominator.jpg": (.positionIgnored, ["GPSLatitude", "zero denominator"]),
        "gps-minutes-out-of-range.jpg": (.positionIgnored, ["GPSLatitude", "minutes out of range", "75"]),
        "gps-seconds-out-of-range.jpg": (.positionIgnored, ["GPSLatitude", "seconds out of range", "61.5"]),
        "gps-lat-over-90.jpg": (.positionIgnored, ["GPSLatitude", "4294967295", "90°"]),
        "gps-lon-over-180.jpg": (.positionIgnored, ["GPSLongitude", "200", "180°"]),
        "gps-null-island.jpg": (.nullIsland, ["0,0", "null island"]),
        "date-zeros.jpg": (.timeIgnored, ["DateTimeOriginal", "empty"]),
        "date-impossible.jpg": (.timeIgnored, ["DateTimeOriginal", "2023:02:30 25:61:00", "is not a date and time (YYYY:MM:DD HH:MM:SS) that exists"]),
        "gps-date-bad.jpg": (.gpsTimeIgnored, ["GPSDateStamp", "2014:13:45"]),
        "gps-date-long.jpg": (.gpsTimeIgnored, ["GPSDateStamp", "2014:09:259"]),
        "gps-time-no-date.jpg": (.gpsTimeWithoutDate, ["GPSTimeStamp", "GPSDateStamp"]),
        "offset-bad.jpg": (.timeIgnored, ["OffsetTimeOriginal", "+25:00"]),
    ]

    @Test("every fixture of expected.json is covered")
    func coverage() {
        #expect(Self.expectations.count >= 20)
        let badOnes = Set(Self.expectations.filter { $0.expectDiagnostic != nil }.map(\.file))
        let quiet: Set<String> = ["gps-empty-ifd.jpg", "gps-version-only.jpg"]  // no position, nothing wrong
        #expect(badOnes.subtracting(quiet) == Set(Self.diagnosticWords.keys))
    }

    @Test("the reader gives exactly the expected values", arguments: expectations)
    func values(_ expected: Expectation) throws {
        let reading = MetadataReader().read(path: TestPaths.fixtures.appendingPathComponent(expected.file).path)
        #expect(reading.status == .read)
        let m = reading.metadata
        expectPositionAndTimes(m, latitude: expected.latitude, longitude: expected.longitude, altitude: expected.altitude,
                               localTime: expected.localTime, offset: expected.offset, gpsTime: expected.gpsTime)
        if let offset = expected.thumbnailOffset {
            #expect(m.thumbnail == ThumbnailLocation(offset: offset, length: expected.thumbnailLength ?? -1))
        }
        if let (kind, words) = Self.diagnosticWords[expected.file] {
            let matching = m.diagnostics.filter { diagnostic in words.allSatisfy { diagnostic.message.contains($0) } }
            #expect(!matching.isEmpty, "no diagnostic with \(words) in \(m.diagnostics)")
            #expect(matching.allSatisfy { $0.kind == kind }, "\(matching) should be of kind \(kind)")
        } else {
            #expect(m.diagnostics.isEmpty, "unexpected diagnostics: \(m.diagnostics)")
        }
    }

    /// What the reader makes of `bytes` written to `name` in `temp`.
    static func read(_ bytes: Data, as name: String, in temp: TemporaryFolder) throws -> FileReading {
        let url = temp.url.appendingPathComponent(name)
        try bytes.write(to: url)
        return MetadataReader().read(path: url.path)
    }

    @Test("each truncation of a photo is read or rejected with a sentence, never a crash")
    func everyTruncation() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("thumbnail.jpg"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for length in 0..<original.count {
            let reading = try Self.read(original.prefix(length), as: "cut.jpg", in: temp)
            if reading.status == .unreadable {
                #expect(!reading.metadata.diagnostics.isEmpty, "cut at \(length)")
            }
            if let latitude = reading.metadata.coordinate?.latitude {
                #expect(latitude.isClose(to: 38.711), "cut at \(length) gave a made-up latitude")
            }
        }
    }

    @Test("an offset tag without digits is said and not used, but Z is UTC; the blank one EXIF writes for \"not known\" is no news",
          arguments: [("Z\0\0\0\0\0", 0, false), ("UTC\0\0\0", nil, true), ("+1\0\0\0\0", nil, true), ("   :  ", nil, false), ("\0\0\0\0\0\0", nil, false)])
    func offsetWithoutDigits(text: String, minutes: Int?, said: Bool) throws {
        // offset-bad.jpg's OffsetTimeOriginal ("+25:00", seven bytes with its NUL) written over.
        var bytes = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("offset-bad.jpg"))
        let at = try #require(bytes.range(of: Data("+25:00".utf8)))
        bytes.replaceSubrange(at, with: Data(text.utf8))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let m = try Self.read(bytes, as: "offset.jpg", in: temp).metadata
        #expect(m.offset?.minutes == minutes)
        #expect(m.diagnostics.contains { $0.kind == .timeIgnored && $0.message.contains("OffsetTimeOriginal") } == said, "\(m.diagnostics)")
    }

    @Test("a capture time with slashes, a fraction or an offset after it is read as exiftool reads it; the first second of Unix time is a clock never set",
          .enabled(if: LibraryFixture.canWrite, "exiftool writes the photos"),
          arguments: [("2025/05/01 10:00:00", "2025-05-01T10:00:00", nil, nil), ("2025:05:01 10:00:00.25", "2025-05-01T10:00:00.250", nil, nil),
                      ("2025:05:01 10:00:00+09:00", "2025-05-01T10:00:00", 540, nil), ("2025-05-01 10:00:00.5Z", "2025-05-01T10:00:00.500", 0, nil),
                      ("2025:05:01 10:00:00 ", "2025-05-01T10:00:00", nil, nil), ("1970:01:01 00:00:01", "1970-01-01T00:00:01", nil, nil),
                      ("1970:01:01 00:00:00", nil, nil, "DateTimeOriginal is 1970:01:01 00:00:00, the first second of Unix time, "
                        + "which a device whose clock was never set writes; not used"),
                      ("1970:01:01 00:00:00.000+00:00", nil, nil, "DateTimeOriginal is 1970:01:01 00:00:00, the first second of Unix time, "
                        + "which a device whose clock was never set writes; not used"),
                      ("2025:05:01 10:00:00+9", nil, nil, "DateTimeOriginal '2025:05:01 10:00:00+9' is not a date and time (YYYY:MM:DD HH:MM:SS) "
                        + "that exists; not used"),
                      ("2025:05:01 10:00:00+15:00", "2025-05-01T10:00:00", nil, "DateTimeOriginal's offset '+15:00' is not an offset between -12:00 "
                        + "and +14:00; ignored")] as [(String, String?, Int?, String?)])
    func writtenTimes(text: String, localTime: String?, offsetMinutes: Int?, said: String?) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("time.jpg")
        #expect(try ExiftoolPhoto.write(to: url, ["-DateTimeOriginal#=\(text)"]))
        let m = MetadataReader().read(path: url.path).metadata
        #expect(m.localTime?.iso8601 == localTime)
        #expect(m.offset?.minutes == offsetMinutes)
        #expect(m.diagnostics.filter { $0.kind == .timeIgnored }.map(\.message) == (said.map { [$0] } ?? []), "\(m.diagnostics)")
        // An offset tag outranks the one after the time.
        if offsetMinutes != nil {
            let tagged = temp.url.appendingPathComponent("tagged.jpg")
            #expect(try ExiftoolPhoto.write(to: tagged, ["-DateTimeOriginal#=\(text)", "-OffsetTimeOriginal=-03:00"]))
            #expect(MetadataReader().read(path: tagged.path).metadata.offset?.minutes == -180)
        }
    }

    @Test("a camera time at the first second of Unix time gives way to the next field, and an XMP one is not used either",
          .enabled(if: LibraryFixture.canWrite, "exiftool writes the photos"))
    func unixEpochGivesWay() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("epoch.jpg")
        #expect(try ExiftoolPhoto.write(to: url, ["-DateTimeOriginal=1970:01:01 00:00:00", "-CreateDate=2025:05:01 10:00:00"]))
        let m = MetadataReader().read(path: url.path).metadata
        #expect(m.localTime?.iso8601 == "2025-05-01T10:00:00" && m.timeField == .dateTimeDigitized, "\(m)")
        let xmp = temp.url.appendingPathComponent("xmp.jpg")
        #expect(try ExiftoolPhoto.write(to: xmp, ["-XMP-exif:DateTimeOriginal=1970:01:01 00:00:00Z"]))
        let fromXMP = MetadataReader().read(path: xmp.path).metadata
        #expect(fromXMP.localTime == nil)
        #expect(fromXMP.diagnostics.contains { $0.kind == .timeIgnored && $0.message.contains("the first second of Unix time") }, "\(fromXMP.diagnostics)")
    }

    @Test("a JPEG's second Exif segment is said and not read; the first one's values stand")
    func secondExifSegment() throws {
        let original = try Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("IMG_0032.JPG"))
        // The sample's Exif APP1 segment, written again right after it.
        let start = try #require(original.range(of: Data([0xFF, 0xE1]))?.lowerBound)
        #expect(original[start + 4..<start + 8] == Data("Exif".utf8))
        let end = start + 2 + (Int(original[start + 2]) << 8 | Int(original[start + 3]))
        var doubled = original
        doubled.insert(contentsOf: original[start..<end], at: end)
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let once = try Self.read(original, as: "once.jpg", in: temp).metadata
        let twice = try Self.read(doubled, as: "twice.jpg", in: temp).metadata
        #expect(twice.localTime == once.localTime && twice.coordinate == once.coordinate && once.localTime != nil)
        #expect(twice.diagnostics.map(\.message) == once.diagnostics.map(\.message)
                + ["a second Exif segment (at byte \(end)) was not read; the first one's values are used"], "\(twice.diagnostics)")
    }

    @Test("an altitude goes with its position: none without one, and none past the edge of space")
    func altitudeWithItsPosition() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("south-west.jpg"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        func read(_ patch: (inout Data) throws -> Void) throws -> PhotoMetadata {
            var bytes = original
            try patch(&bytes)
            return try Self.read(bytes, as: "patched.jpg", in: temp).metadata
        }
        #expect(try read { _ in }.altitude == 23.5)
        // GPSLatitudeRef (tag 1, ASCII, count 2) "S" made "X": the position is refused.
        let refused = try read { bytes in
            let entry = try #require(bytes.range(of: Data([0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x53])))
            bytes[entry.upperBound - 1] = 0x58
        }
        #expect(refused.coordinate == nil && refused.altitude == nil)
        #expect(!refused.diagnostics.contains { $0.kind == .altitudeIgnored }, "the refused position is said, not its altitude too")
        // GPSLatitude and GPSLongitude (tags 2 and 4, RATIONAL, count 3) made tags no reader
        // knows: an altitude with no position at all, said.
        let alone = try read { bytes in
            for tag: UInt8 in [2, 4] {
                let entry = try #require(bytes.range(of: Data([0x00, tag, 0x00, 0x05, 0x00, 0x00, 0x00, 0x03])))
                bytes[entry.lowerBound] = 0x70
            }
        }
        #expect(alone.coordinate == nil && alone.altitude == nil)
        #expect(alone.diagnostics.contains { $0.kind == .altitudeIgnored && $0.message.contains("GPSAltitude is given without a position") }, "\(alone.diagnostics)")
        // GPSAltitude 47/2 made 2147483647/2 m.
        let high = try read { bytes in
            let value = try #require(bytes.range(of: Data([0x00, 0x00, 0x00, 0x2F, 0x00, 0x00, 0x00, 0x02])))
            bytes.replaceSubrange(value.lowerBound..<value.lowerBound + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        }
        #expect(high.coordinate != nil && high.altitude == nil)
        #expect(high.diagnostics.contains { $0.kind == .altitudeIgnored && $0.message.contains("1,073,741,824 m") }, "\(high.diagnostics)")
    }

    @Test("a HEIC cut short anywhere gives its metadata when its Exif item is whole, never made-up values, and says so")
    func everyHEICTruncation() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("heic-gps.heic"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        var firstRead: Int?
        // Where its top-level boxes end (ISO/IEC 14496-12 section 4.2: 32-bit sizes here).
        var boxEnds: Set<Int> = [], offset = 0
        while offset + 8 <= original.count {
            offset += original[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxEnds.insert(offset)
        }
        #expect(offset == original.count)
        for length in 0..<original.count {
            let reading = try Self.read(original.prefix(length), as: "cut.heic", in: temp)
            if reading.status == .unreadable { #expect(!reading.metadata.diagnostics.isEmpty, "cut at \(length)") }
            // Once its brand is there (12 bytes), a cut anywhere but between two whole boxes
            // says so, not that a box is missing or that the photo has no EXIF.
            if length >= 12, !boxEnds.contains(length) {
                #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged && $0.message.contains("cut short") },
                        "cut at \(length): \(reading.metadata.diagnostics.map(\.message))")
            }
            guard let coordinate = reading.metadata.coordinate else {
                #expect(firstRead == nil, "read when cut at \(firstRead ?? 0) bytes, not at \(length)")
                continue
            }
            firstRead = firstRead ?? length
            #expect(coordinate.latitude.isClose(to: 35.6586) && coordinate.longitude.isClose(to: 139.7454), "cut at \(length)")
            #expect(reading.metadata.localTime?.iso8601 == "2024-04-05T15:30:00.250", "cut at \(length)")
            #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged && $0.message.contains("cut short") }, "cut at \(length)")
        }
        // The picture's data is last: a file missing its last bytes keeps its metadata.
        #expect(try #require(firstRead) < original.count - 56)
    }

    @Test("box headers read as ISO/IEC 14496-12 section 4.2 lays them out: 32-bit, 64-bit (size 1), to the end (size 0), cut")
    func boxHeaders() {
        let meta = Array("meta".utf8)
        #expect(MediaBox.header([0, 0, 0x01, 0x2C] + meta) == .box(type: meta, size: 300, headerLength: 8))
        #expect(MediaBox.header([0, 0, 0, 1] + meta + [0x80, 0, 0, 0, 0, 0, 0, 0x10]) == .box(type: meta, size: 1 << 63 | 0x10, headerLength: 16))
        #expect(MediaBox.header([0, 0, 0, 0] + meta + [9, 9]) == .box(type: meta, size: nil, headerLength: 8))
        // A size smaller than the header is given as written, for the caller to refuse.
        #expect(MediaBox.header([0, 0, 0, 4] + meta) == .box(type: meta, size: 4, headerLength: 8))
        #expect(MediaBox.header([0, 0, 0, 1] + meta + [0, 0, 0]) == .largeSizeCut(type: meta))
        #expect(MediaBox.header([0, 0, 0, 8, 0x6D, 0x65, 0x74]) == .cut)
        #expect(MediaBox.header([]) == .cut)
    }

    @Test("a HEIC cut inside its 'meta' box names it")
    func heicCutInsideMeta() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("heic-gps.heic"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // The 'ftyp' box first (its size in its first 4 bytes), then 'meta'; cut 20 bytes into it.
        let ftyp = original.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(original[ftyp + 4..<ftyp + 8].elementsEqual("meta".utf8))
        let reading = try Self.read(original.prefix(ftyp + 20), as: "cut.heic", in: temp)
        #expect(reading.metadata.diagnostics.contains { $0.message.contains("it ends inside its 'meta' box") }, "\(reading.metadata.diagnostics.map(\.message))")
    }

    @Test("a PNG whose eXIf comes after 100,000 other chunks is said to be past the reader's reach; after as much picture data, it has none")
    func pngOfManyChunks() throws {
        let png = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("png-exif.png"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // The signature and IHDR (8 + 25 bytes), then 100,000 empty chunks of `type`, then the rest.
        func read(_ type: String) throws -> FileReading {
            var bytes = png.prefix(33)
            for _ in 0..<100_000 { bytes += Data([0, 0, 0, 0]) + Data(type.utf8) + Data([0, 0, 0, 0]) }
            bytes += png.dropFirst(33)
            return try Self.read(bytes, as: "many.png", in: temp)
        }
        let reading = try read("zzZz")
        #expect(reading.status == .unreadable)
        #expect(reading.metadata.diagnostics.contains { $0.message.contains("more than 100,000 chunks") }, "\(reading.metadata.diagnostics)")
        // A very large picture's data (libpng writes it in 8 KiB chunks) is a PNG without EXIF there.
        #expect(try read("IDAT").status == .skipped)
        #expect(MetadataReader().read(path: TestPaths.fixtures.appendingPathComponent("png-exif.png").path).metadata.coordinate != nil)
    }

    @Test("a PNG whose IHDR gives a side past 2^31 - 1 is said, and no size is kept; its EXIF still is")
    func pngOfImpossibleSize() throws {
        var png = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("png-exif.png"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        #expect(png[12..<16].elementsEqual("IHDR".utf8))
        png.replaceSubrange(16..<24, with: [UInt8](repeating: 0xFF, count: 8))
        let reading = try Self.read(png, as: "huge.png", in: temp)
        #expect(reading.metadata.width == nil && reading.metadata.height == nil)
        #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged && $0.message.contains("4294967295 x 4294967295, outside 1 to 2,147,483,647 a side") },
                "\(reading.metadata.diagnostics)")
        #expect(reading.metadata.coordinate != nil)
    }

    @Test("bytes flipped one at a time in the EXIF block never crash the reader")
    func flippedBytes() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("gps-little-endian.jpg"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for index in 2..<min(original.count, 600) {
            var bytes = original
            bytes[index] ^= 0xFF
            let reading = try Self.read(bytes, as: "flipped.jpg", in: temp)
            if let coordinate = reading.metadata.coordinate {
                #expect(abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180)
                #expect(!(coordinate.latitude == 0 && coordinate.longitude == 0))
            }
        }
    }
}
