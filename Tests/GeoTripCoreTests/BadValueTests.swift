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
    static let diagnosticWords: [String: [String]] = [
        "gps-no-ref.jpg": ["GPSLatitudeRef", "hemisphere"],
        "gps-zero-denominator.jpg": ["GPSLatitude", "zero denominator"],
        "gps-minutes-out-of-range.jpg": ["GPSLatitude", "minutes out of range", "75"],
        "gps-seconds-out-of-range.jpg": ["GPSLatitude", "seconds out of range", "61.5"],
        "gps-lat-over-90.jpg": ["GPSLatitude", "4294967295", "90°"],
        "gps-lon-over-180.jpg": ["GPSLongitude", "200", "180°"],
        "gps-null-island.jpg": ["0,0", "null island"],
        "date-zeros.jpg": ["DateTimeOriginal", "empty"],
        "date-impossible.jpg": ["DateTimeOriginal", "2023:02:30 25:61:00", "not a real date"],
        "gps-date-bad.jpg": ["GPSDateStamp", "2014:13:45"],
        "gps-date-long.jpg": ["GPSDateStamp", "2014:09:259"],
        "gps-time-no-date.jpg": ["GPSTimeStamp", "GPSDateStamp"],
        "offset-bad.jpg": ["OffsetTimeOriginal", "+25:00"],
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
        if let words = Self.diagnosticWords[expected.file] {
            let matching = m.diagnostics.filter { text in words.allSatisfy { text.contains($0) } }
            #expect(!matching.isEmpty, "no diagnostic with \(words) in \(m.diagnostics)")
        } else {
            #expect(m.diagnostics.isEmpty, "unexpected diagnostics: \(m.diagnostics)")
        }
    }

    @Test("each truncation of a photo is read or rejected with a sentence, never a crash")
    func everyTruncation() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("thumbnail.jpg"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("cut.jpg")
        for length in 0..<original.count {
            try original.prefix(length).write(to: url)
            let reading = MetadataReader().read(path: url.path)
            if reading.status == .unreadable {
                #expect(!reading.metadata.diagnostics.isEmpty, "cut at \(length)")
            }
            if let latitude = reading.metadata.coordinate?.latitude {
                #expect(latitude.isClose(to: 38.711), "cut at \(length) gave a made-up latitude")
            }
        }
    }

    @Test("bytes flipped one at a time in the EXIF block never crash the reader")
    func flippedBytes() throws {
        let original = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("gps-little-endian.jpg"))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("flipped.jpg")
        for index in 2..<min(original.count, 600) {
            var bytes = original
            bytes[index] ^= 0xFF
            try bytes.write(to: url)
            let reading = MetadataReader().read(path: url.path)
            if let coordinate = reading.metadata.coordinate {
                #expect(abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180)
                #expect(!(coordinate.latitude == 0 && coordinate.longitude == 0))
            }
        }
    }
}
