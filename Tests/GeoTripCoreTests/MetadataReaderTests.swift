import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The reader against exiftool, on every file of the sample trip: the values exiftool wrote
/// (scripts/make-sample-images.py) and recorded in SampleImages/exiftool.json.
@Suite("Reading the sample trip")
struct SampleTripReadingTests {
    static let truth: [String: ExiftoolRecord] = {
        (try? ExiftoolRecord.load(TestPaths.sampleImages.appendingPathComponent("exiftool.json"))) ?? [:]
    }()

    static var photoPaths: [String] {
        truth.values.filter(\.hasExif).map(\.path).sorted()
    }

    @Test("exiftool's record of the sample trip is present and covers the trip")
    func truthIsPresent() {
        #expect(Self.photoPaths.count >= 40)
        #expect(Self.photoPaths.contains { $0.hasSuffix(".HEIC") })
    }

    @Test("every photo agrees with exiftool", arguments: photoPaths)
    func agreesWithExiftool(path: String) throws {
        let expected = try #require(Self.truth[path])
        let reading = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent(path).path)
        #expect(reading.status == .read)
        let m = reading.metadata
        expectPositionAndTimes(m, latitude: expected.latitude, longitude: expected.longitude, altitude: expected.altitude,
                               localTime: expected.localTime, offset: expected.offset, gpsTime: expected.gpsTime)
        #expect(m.make == expected.make)
        #expect(m.model == expected.model)
        #expect(m.orientation == expected.orientation)
        #expect(m.width == expected.width)
        #expect(m.height == expected.height)
        #expect(m.thumbnail?.offset == expected.thumbnailOffset)
        #expect(m.thumbnail?.length == expected.thumbnailLength)
        #expect(m.diagnostics.isEmpty, "unexpected diagnostics: \(m.diagnostics)")
    }

    @Test("the thumbnail offset points at a JPEG of the stated length")
    func thumbnailBytesAreAJPEG() throws {
        let withThumbnail = Self.truth.values.filter { $0.thumbnailOffset != nil }
        #expect(withThumbnail.count >= 3)
        for record in withThumbnail {
            let url = TestPaths.sampleImages.appendingPathComponent(record.path)
            let thumbnail = try #require(MetadataReader().read(path: url.path).metadata.thumbnail)
            let bytes = try Data(contentsOf: url)
            let slice = bytes[thumbnail.offset..<(thumbnail.offset + thumbnail.length)]
            #expect(slice.prefix(2) == Data([0xFF, 0xD8]), "\(record.path): no SOI at the thumbnail offset")
            #expect(slice.suffix(2) == Data([0xFF, 0xD9]), "\(record.path): no EOI at the thumbnail end")
        }
    }

    @Test("the truncated photo is an error with a sentence, not a crash")
    func truncatedPhoto() {
        let reading = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent("IMG_0099.JPG").path)
        #expect(reading.status == .unreadable)
        #expect(reading.metadata.diagnostics.first?.message.contains("truncated") == true)
    }

    @Test("a text file and a PNG without EXIF are skipped with the reason")
    func skippedFiles() {
        let text = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent("notes.txt").path)
        #expect(text.status == .skipped)
        #expect(text.skipReason == "not an image format geotrip reads")
        let png = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent("screenshot.png").path)
        #expect(png.status == .skipped)
        #expect(png.skipReason?.contains("eXIf") == true)
    }

    @Test("a photo with no date at all gets no made-up date")
    func noDateInventsNothing() throws {
        let undated = Self.truth.values.filter { $0.hasExif && $0.localTime == nil }
        #expect(!undated.isEmpty, "the sample trip should hold a photo without any date")
        for record in undated {
            let reading = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent(record.path).path)
            #expect(reading.metadata.localTime == nil)
            #expect(reading.metadata.timeField == nil)
        }
    }

    @Test("a DateTimeOriginal written in IFD0, outside the Exif directory, is read as exiftool reads it")
    func dateTimeOriginalInIFD0() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let photo = temp.url.appendingPathComponent("a.JPG")
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
        let exiftool = URL(fileURLWithPath: "/usr/bin/exiftool")
        #expect(try CommandRun.run(exiftool, ["-q", "-overwrite_original", "-exif:all=", photo.path]).status == 0)
        #expect(try CommandRun.run(exiftool, ["-q", "-overwrite_original", "-IFD0:DateTimeOriginal=2025:09:01 10:01:00", photo.path]).status == 0)
        let truth = try CommandRun.run(exiftool, ["-s3", "-G1", "-a", "-DateTimeOriginal", photo.path]).stdout
        #expect(truth == "IFD0 2025:09:01 10:01:00\n", "exiftool wrote it there, and reads it: \(truth)")
        let reading = MetadataReader().read(path: photo.path)
        #expect(reading.metadata.localTime?.iso8601 == "2025-09-01T10:01:00" && reading.metadata.timeField == .dateTimeOriginal,
                "\(reading.metadata.diagnostics)")
        // In a TIFF, whose directories geotrip reads itself (the compact block), with its
        // offset beside it in IFD0 (and the fixture's SubSecTimeOriginal, 5, in the Exif directory,
        // as exiftool's composite 2025:09:02 11:02:00.5+09:00 has it).
        let tiff = temp.url.appendingPathComponent("b.tif")
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("tiff/gps-far.tif"), to: tiff)
        #expect(try CommandRun.run(exiftool, ["-q", "-overwrite_original", "-exif:DateTimeOriginal=", "-exif:OffsetTimeOriginal=",
                                              "-IFD0:DateTimeOriginal=2025:09:02 11:02:00", "-IFD0:OffsetTimeOriginal=+09:00", tiff.path]).status == 0)
        #expect(try CommandRun.run(exiftool, ["-s3", "-a", "-G1", "-DateTimeOriginal", "-OffsetTimeOriginal", tiff.path]).stdout
                == "IFD0 2025:09:02 11:02:00\nIFD0 +09:00\n")
        let fromTIFF = MetadataReader().read(path: tiff.path)
        #expect(fromTIFF.metadata.localTime?.iso8601 == "2025-09-02T11:02:00.500" && fromTIFF.metadata.offset?.description == "+09:00",
                "\(fromTIFF.metadata.diagnostics)")
    }

    @Test("a SubSecTimeOriginal right-aligned in blanks (' 5') is left out, as exiftool's composite leaves it; one with blanks after it is read",
          arguments: [(" 5", nil as String?), ("5 ", ".5"), ("05", ".05")])
    func subSecondsWithBlanks(written: String, fraction: String?) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let photo = temp.url.appendingPathComponent("a.JPG")
        // The sample's SubSecTimeOriginal is "050": its bytes patched in place, as a camera
        // would have written them (exiftool refuses to write a leading blank).
        var bytes = try Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"))
        let at = try #require(bytes.range(of: Data("050\0".utf8)))
        bytes.replaceSubrange(at, with: Data((written + String(repeating: "\0", count: 4 - written.utf8.count)).utf8))
        try bytes.write(to: photo)
        let exiftool = URL(fileURLWithPath: "/usr/bin/exiftool")
        let truth = try CommandRun.run(exiftool, ["-s3", "-SubSecDateTimeOriginal", photo.path]).stdout
        #expect(truth == "2025:06:13 10:30:00\(fraction ?? "")+02:00\n", "exiftool: \(truth)")
        let reading = MetadataReader().read(path: photo.path)
        #expect(reading.metadata.localTime?.iso8601 == "2025-06-13T10:30:00" + (fraction.map { String(($0 + "00").prefix(4)) } ?? ""),
                "\(reading.metadata.diagnostics)")
        #expect(reading.metadata.diagnostics.contains { $0.message.contains("begins with a blank") } == (fraction == nil))
    }

    @Test("the time field falls back from DateTimeOriginal to DateTimeDigitized to DateTime")
    func timeFieldFallback() {
        var seen = Set<CaptureTimeField>()
        for path in Self.photoPaths {
            let reading = MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent(path).path)
            if let field = reading.metadata.timeField { seen.insert(field) }
        }
        // The sample trip has EXIF only; the XMP fields are the XMP suite's, videos' fields
        // VideoReadingTests'.
        #expect(seen == [.dateTimeOriginal, .dateTimeDigitized, .dateTime])
    }
}

/// The values both the sample trip and the fixtures are checked on, against independent truth.
func expectPositionAndTimes(_ m: PhotoMetadata, latitude: Double?, longitude: Double?, altitude: Double?,
                            localTime: String?, offset: String?, gpsTime: String?,
                            sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(m.coordinate?.latitude.isClose(to: latitude) ?? (latitude == nil), sourceLocation: sourceLocation)
    #expect(m.coordinate?.longitude.isClose(to: longitude) ?? (longitude == nil), sourceLocation: sourceLocation)
    #expect(m.altitude?.isClose(to: altitude) ?? (altitude == nil), sourceLocation: sourceLocation)
    #expect(m.localTime?.iso8601 == localTime, sourceLocation: sourceLocation)
    #expect(m.offset?.description == offset, sourceLocation: sourceLocation)
    #expect(m.gpsTime?.iso8601 == gpsTime, sourceLocation: sourceLocation)
}

extension Double {
    /// Equal within 1e-7 (about a centimetre in degrees, a tenth of a millimetre in metres).
    func isClose(to other: Double?) -> Bool {
        guard let other else { return false }
        return abs(self - other) < 1e-7
    }
}

/// The committed exiftool records are what exiftool says today, not hand-edited: when exiftool
/// is installed (`make test` installs it) the reference command is run again and compared.
@Suite("exiftool's records")
struct ExiftoolRecordTests {
    static let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The command scripts/make-sample-images.py ran (EXIFTOOL_JSON_CMD there).
    static let fields = [
        "GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef",
        "GPSDateStamp", "GPSTimeStamp", "GPSVersionID", "DateTimeOriginal", "SubSecTimeOriginal",
        "OffsetTimeOriginal", "CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized", "ModifyDate",
        "SubSecTime", "OffsetTime", "Make", "Model", "Orientation", "ImageWidth", "ImageHeight", "ExifByteOrder",
        "ThumbnailOffset", "ThumbnailLength", "Composite:GPSLatitude", "Composite:GPSLongitude",
        "Composite:GPSAltitude", "Warning", "Error",
    ]

    /// What exiftool prints, run with `arguments` in `folder`.
    static func output(_ arguments: [String], in folder: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exiftool!)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return output
    }

    @Test("the exiftool.json records of SampleImages and the fixtures match a fresh exiftool run",
          .enabled(if: exiftool != nil, "exiftool is not installed"),
          arguments: [TestPaths.sampleImages, TestPaths.fixtures, TestPaths.fixtures.appendingPathComponent("tiff")])
    func recordsAreCurrent(folder: URL) throws {
        let output = try Self.output(["-json", "-n", "-G1", "-r", "-ext", "*", "-fast2"] + Self.fields.map { "-" + $0 } + ["."], in: folder)

        func byPath(_ data: Data) throws -> [String: NSDictionary] {
            let records = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: records.map { record in
                var record = record
                let path = (record["SourceFile"] as? String ?? "").replacingOccurrences(of: "./", with: "", options: .anchored)
                record["SourceFile"] = path
                return (path, record as NSDictionary)
            })
        }
        let fresh = try byPath(output)
        let committed = try byPath(Data(contentsOf: folder.appendingPathComponent("exiftool.json")))
        let photos = committed.keys.filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") && !$0.hasSuffix(".sqlite") }
        #expect(photos.count >= 10)
        for path in photos {
            #expect(fresh[path] == committed[path], "\(path): exiftool now says \(fresh[path] ?? [:])")
        }
    }
}
