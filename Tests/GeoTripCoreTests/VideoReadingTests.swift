import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The video reader against exiftool, on the fixtures scripts/make-video-fixtures.sh made with
/// ffmpeg and exiftool (Fixtures/videos/exiftool.json is exiftool's record of them).
@Suite("Reading videos")
struct VideoReadingTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("videos")

    /// What exiftool (`-json -n -G1 -a`) says of one video, in the fields the reader reports.
    struct Record: Sendable {
        var latitude: Double?, longitude: Double?, altitude: Double?, duration: Double?
        /// `Keys:CreationDate` (Apple's, with its offset) and `QuickTime:CreateDate` (mvhd).
        var creationDate: String?, createDate: String?
        var make: String?, model: String?, contentIdentifier: String?

        init(_ o: [String: Any]) {
            latitude = o["Composite:GPSLatitude"] as? Double
            longitude = o["Composite:GPSLongitude"] as? Double
            altitude = o["Composite:GPSAltitude"] as? Double
            duration = o["QuickTime:Duration"] as? Double
            creationDate = o["Keys:CreationDate"] as? String
            createDate = o["QuickTime:CreateDate"] as? String
            make = (o["Keys:Make"] ?? o["UserData:Make"]) as? String
            model = (o["Keys:Model"] ?? o["UserData:Model"]) as? String
            contentIdentifier = o["Keys:ContentIdentifier"] as? String
        }
    }

    /// exiftool's record of each fixture, by file name.
    static let truth: [String: Record] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("exiftool.json")),
              let records = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [:] }
        var byName: [String: Record] = [:]
        for record in records { if let name = record["SourceFile"] as? String { byName[name] = Record(record) } }
        return byName
    }()

    static var files: [String] { truth.keys.sorted() }

    /// exiftool's `YYYY:MM:DD HH:MM:SS[±HH:MM]` as the reader's values; nil for exiftool's zeros.
    static func exiftoolDate(_ text: String?) -> (local: String, offset: String?)? {
        guard let text, !text.hasPrefix("0000") else { return nil }
        let local = text.prefix(19).replacingOccurrences(of: " ", with: "T")
        let date = local.prefix(10).replacingOccurrences(of: ":", with: "-") + local.dropFirst(10)
        return (date, text.count > 19 ? String(text.dropFirst(19)) : nil)
    }

    @Test("exiftool's record covers MOV, MP4, M4V and 3GP")
    func truthIsPresent() {
        #expect(Self.files.count >= 8)
        for ending in [".mov", ".mp4", ".m4v", ".3gp"] { #expect(Self.files.contains { $0.hasSuffix(ending) }) }
    }

    @Test("every video agrees with exiftool", arguments: files)
    func agreesWithExiftool(name: String) throws {
        let expected = try #require(Self.truth[name])
        let reading = MetadataReader().read(path: Self.folder.appendingPathComponent(name).path)
        #expect(reading.status == .read)
        #expect(reading.format == .video)
        let m = reading.metadata
        #expect(m.durationSeconds.map { abs($0 - (expected.duration ?? -1)) < 1e-9 } == true)
        // exiftool prints loci's 16.16 fixed point to 5 decimals.
        let latitude = expected.latitude, longitude = expected.longitude
        if latitude == 0 && longitude == 0 {
            #expect(m.coordinate == nil)
            #expect(m.diagnostics.map(\.kind) == [.nullIsland])
        } else {
            #expect(m.coordinate.map { abs($0.latitude - (latitude ?? .nan)) < 1e-5 } ?? (latitude == nil), "\(String(describing: m.coordinate))")
            #expect(m.coordinate.map { abs($0.longitude - (longitude ?? .nan)) < 1e-5 } ?? (longitude == nil))
            #expect(m.altitude.map { abs($0 - (expected.altitude ?? .nan)) < 1e-3 }
                    ?? (expected.altitude == nil))
            #expect(m.diagnostics.isEmpty, "unexpected diagnostics: \(m.diagnostics)")
        }
        // Apple's creation date (with its offset) first, else mvhd's time as written.
        if let apple = Self.exiftoolDate(expected.creationDate) {
            #expect(m.localTime?.iso8601 == apple.local)
            #expect(m.offset?.description == apple.offset)
            #expect(m.timeField == .quickTimeCreationDate)
        } else if let movie = Self.exiftoolDate(expected.createDate) {
            #expect(m.localTime?.iso8601 == movie.local)
            #expect(m.offset == nil)
            #expect(m.timeField == .quickTimeCreateDate)
        } else {
            #expect(m.localTime == nil)
            #expect(m.timeField == nil)
        }
        #expect(m.make == expected.make)
        #expect(m.model == expected.model)
        #expect(m.contentIdentifier == expected.contentIdentifier)
    }

    @Test("the fixtures hold moov after mdat and moov first, and both read the same")
    func moovAtEitherEnd() throws {
        func topLevel(_ name: String) throws -> [String] {
            let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            var types: [String] = [], offset = 0
            while offset + 8 <= data.count {
                let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                types.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
                guard size >= 8 else { break }
                offset += size
            }
            return types
        }
        let end = try topLevel("video-moov-at-end.mp4"), first = try topLevel("video-faststart.mp4")
        #expect(end.firstIndex(of: "mdat")! < end.firstIndex(of: "moov")!)
        #expect(first.firstIndex(of: "moov")! < first.firstIndex(of: "mdat")!)
        let a = MetadataReader().read(path: Self.folder.appendingPathComponent("video-moov-at-end.mp4").path).metadata
        let b = MetadataReader().read(path: Self.folder.appendingPathComponent("video-faststart.mp4").path).metadata
        #expect(a.coordinate != nil && a.coordinate == b.coordinate && a.localTime == b.localTime && a.durationSeconds == b.durationSeconds)
    }

    @Test("a 1 GB video whose moov follows a sparse mdat is read with kilobytes read")
    func hugeSparseVideo() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let original = try Data(contentsOf: Self.folder.appendingPathComponent("video-moov-at-end.mp4"))
        // ftyp + free + an mdat header claiming a gigabyte, a hole, then the fixture's moov.
        let moovStart = try #require(original.range(of: Data("moov".utf8))).lowerBound - 4
        let mdatStart = try #require(original.range(of: Data("mdat".utf8))).lowerBound - 4
        let mdatSize = 1 << 30
        var head = original.prefix(mdatStart)
        head.append(contentsOf: [UInt8(mdatSize >> 24 & 0xFF), UInt8(mdatSize >> 16 & 0xFF), UInt8(mdatSize >> 8 & 0xFF), UInt8(mdatSize & 0xFF)])
        head.append(Data("mdat".utf8))
        let url = temp.url.appendingPathComponent("huge.mp4")
        try head.write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(mdatStart + mdatSize))
        try handle.write(contentsOf: original[moovStart...])
        try handle.close()

        let file = try PhotoFile(path: Array(url.path.utf8CString))
        #expect(file.size > 1 << 30)
        let reading = QuickTimeReader.read(file)
        #expect(reading.foundMovie)
        #expect(reading.metadata.coordinate != nil)
        #expect(reading.metadata.diagnostics.isEmpty, "\(reading.metadata.diagnostics)")
        // The 64 KiB head every file gets, the moov's boxes, and nothing of the gigabyte.
        #expect(file.bytesRead < 80 * 1024, "read \(file.bytesRead) bytes")
    }

    @Test("ISO 6709 positions are parsed strictly (unpadded degrees taken)", arguments: [
        ("+48.8584+002.2945+035.000/", 48.8584, 2.2945, 35.0),
        ("+41.4036+002.1744/", 41.4036, 2.1744, nil),
        ("-33.8568+151.2153/", -33.8568, 151.2153, nil),
        ("+48.8584-002.2945", 48.8584, -2.2945, nil),
        ("+4851.504+00217.670/", 48.8584, 2.29450, nil),
        ("+485130.24+0021742.0CRSWGS_84/", 48.858400, 2.295, nil),
        ("+40.7128-074.0060-10.5/", 40.7128, -74.006, -10.5),
        // As exiftool writes a Double given to it.
        ("+52.3702+004.90153369096734+0.000/", 52.3702, 4.90153369096734, 0),
        // Degrees left unpadded by some writers: too few digits for any other reading.
        ("+48.8584+2.2945/", 48.8584, 2.2945, nil),
        ("+8.9824-79.5199/", 8.9824, -79.5199, nil),
        ("-9.4438+47.0000+12/", -9.4438, 47.0, 12),
    ] as [(String, Double, Double, Double?)])
    func iso6709(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
        let parsed = try #require(ISO6709.parse(text))
        #expect(abs(parsed.coordinate.latitude - latitude) < 1e-6)
        #expect(abs(parsed.coordinate.longitude - longitude) < 1e-6)
        #expect(parsed.altitude == altitude)
    }

    @Test("strings that are not ISO 6709 positions give none", arguments: [
        "", "48.8584 2.2945", "+48.8584", "+91.0000+002.0000/", "+48.0000+181.0000/", "+4875.000+00217.670/",
        "+48.8584+002.2945/junk", "+48.+002.2945/", "++48.8584+002.2945/", "+4851.5+217.6/", "+485.5+002.0/", "+48.8584+2/", "+48.8584+22/",
        "+48." + String(repeating: "1", count: 25) + "+002.2945/",
    ])
    func notISO6709(text: String) {
        #expect(ISO6709.parse(text) == nil)
    }

    @Test("Apple's creation date with each offset form")
    func appleDates() throws {
        let forms = ["2024-06-10T14:05:30+0200", "2024-06-10T14:05:30+02:00", "2024-06-10T14:05:30.250+0200"]
        for text in forms {
            let (local, offset) = try #require(QuickTimeReader.Found.appleDate(text))
            #expect(local.iso8601.hasPrefix("2024-06-10T14:05:30"))
            #expect(offset?.minutes == 120)
        }
        #expect(QuickTimeReader.Found.appleDate("2024-06-10T14:05:30Z")?.1?.minutes == 0)
        #expect(QuickTimeReader.Found.appleDate("2024-06-10T14:05:30")?.1 == nil)
        #expect(QuickTimeReader.Found.appleDate("2024-13-10T14:05:30+0200") == nil)
        #expect(QuickTimeReader.Found.appleDate("2024-06-10T14:05:30+2500") == nil)
        #expect(QuickTimeReader.Found.appleDate("2024-06-10 14:05:30") == nil)
    }

    @Test("video brands and old MOVs without ftyp are videos; HEIF and CR3 are not")
    func sniffing() {
        func ftyp(_ brand: String, compatible: [String] = []) -> ArraySlice<UInt8> {
            let size = 16 + 4 * compatible.count
            return ([0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(brand.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) })[...]
        }
        for brand in ["isom", "mp41", "mp42", "qt  ", "M4V ", "3gp4", "3gp5", "3g2a"] {
            #expect(FileKind.sniff(ftyp(brand)) == .image(.video), "\(brand)")
        }
        #expect(FileKind.sniff(ftyp("XYZ1", compatible: ["isom", "avc1"])) == .image(.video))
        #expect(FileKind.sniff(ftyp("heic")) == .image(.heif))
        #expect(FileKind.sniff(ftyp("XYZ1", compatible: ["mif1", "isom"])) != .image(.video))
        #expect(FileKind.sniff(ftyp("crx ")) == .image(.cr3))
        // Audio and BigTIFF are skipped with their reason, not read or called damaged.
        for audio in ["M4A ", "M4B "] {
            guard case .unsupported(let reason) = FileKind.sniff(ftyp(audio)) else { Issue.record("\(audio) was not skipped"); continue }
            #expect(reason.contains("audio"))
        }
        guard case .unsupported(let bigTIFF) = FileKind.sniff([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0][...]) else {
            Issue.record("BigTIFF was not skipped")
            return
        }
        #expect(bigTIFF.contains("BigTIFF"))
        for first in ["moov", "mdat", "wide", "free"] {
            #expect(FileKind.sniff(([0, 0, 0, 8] + Array(first.utf8) + [0, 0, 0, 8] + Array("mdat".utf8))[...]) == .image(.video), "\(first)")
        }
        #expect(FileKind.sniff(([0, 0, 0, 4] + Array("moov".utf8))[...]) != .image(.video))
    }
}
