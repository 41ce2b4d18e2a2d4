import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Thumbnails against pixel truth: fixtures whose upright picture is known (see
/// Fixtures/thumbnails/README.md), stored in every EXIF orientation.
@Suite("Thumbnails")
struct ThumbnailTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("thumbnails")
    static let upright: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 200, 0), (0, 0, 255), (255, 220, 0)]
    static let embedded: [(UInt8, UInt8, UInt8)] = [(255, 0, 255), (0, 255, 255), (255, 255, 255), (0, 0, 0)]

    /// exiftool's record of one fixture.
    struct Recorded: Decodable, Sendable {
        var SourceFile: String
        var Orientation: Int?
        var ThumbnailOffset: Int?
        var ThumbnailLength: Int?
    }

    /// exiftool's record of the fixtures, by file name.
    static let record: [String: Recorded] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("exiftool.json"))
        let rows = try! JSONDecoder().decode([Recorded].self, from: data)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.SourceFile, $0) })
    }()

    static func source(_ name: String, id: Int64 = 7, in folder: URL = folder, useEmbedded: Bool = true) throws -> ThumbnailSource {
        let row = record[name]
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        let embedded = row?.ThumbnailOffset.flatMap { offset in
            row?.ThumbnailLength.map { ThumbnailLocation(offset: offset, length: $0) }
        }
        return ThumbnailSource(photoID: id, path: name, media: .photo(.jpeg),
                               fileSize: (attributes[.size] as! NSNumber).int64Value,
                               modifiedNanos: Int64((attributes[.modificationDate] as! Date).timeIntervalSince1970 * 1e9),
                               orientation: row?.Orientation, embeddedThumbnail: useEmbedded ? embedded : nil)
    }

    /// The thumbnail's pixels, decoded.
    static func decoded(_ output: URL, _ outcome: ThumbnailOutcome) throws -> RGBImage {
        let path = try #require(outcome.relativePath)
        let bytes = try [UInt8](Data(contentsOf: output.appendingPathComponent(path)))
        return try TurboJPEG.decode(bytes, atLeast: 10_000).image
    }

    /// Checks the centre of each quadrant against `colours` (JPEG leaves a few levels of error).
    static func expectQuadrants(_ image: RGBImage, _ colours: [(UInt8, UInt8, UInt8)], _ comment: Comment) {
        let w = image.width, h = image.height
        for (index, (x, y)) in [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].enumerated() {
            let p = image.pixel(x: x, y: y), c = colours[index]
            let close = abs(Int(p.red) - Int(c.0)) < 40 && abs(Int(p.green) - Int(c.1)) < 40 && abs(Int(p.blue) - Int(c.2)) < 40
            #expect(close, "\(comment): quadrant \(index) is \(p), expected \(c)")
        }
    }

    @Test("each EXIF orientation decodes upright, at most 320 px on the long side", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let maker = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url)
        let source = try Self.source("orientation-\(orientation).jpg")
        #expect(source.orientation == orientation)
        let outcome = maker.make(source)
        #expect(outcome.status == .madeFromImage)
        #expect(outcome.diagnostic == nil)
        let image = try Self.decoded(output.url, outcome)
        #expect(image.width == 320 && image.height == 213, "upright 1200 x 800 fits as 320 x 213, got \(image.width) x \(image.height)")
        Self.expectQuadrants(image, Self.upright, "orientation \(orientation)")
    }

    @Test("a CMYK JPEG (Adobe's inverted inks, as print workflows save it) makes a thumbnail in its colours")
    func cmyk() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let outcome = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url).make(try Self.source("cmyk.jpg"))
        #expect(outcome.status == .madeFromImage && outcome.diagnostic == nil, "\(String(describing: outcome.diagnostic))")
        Self.expectQuadrants(try Self.decoded(output.url, outcome), Self.upright, "cmyk")
        // Without Adobe's marker the inks are as stored: none is white, full black is black.
        #expect(TurboJPEG.rgb(fromCMYK: [0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0], inverted: false) == [255, 255, 255, 0, 0, 0, 0, 255, 255])
        #expect(TurboJPEG.rgb(fromCMYK: [255, 255, 255, 255, 0, 255, 255, 255], inverted: true) == [255, 255, 255, 0, 255, 255])
    }

    @Test("the embedded EXIF thumbnail is used when there is one, and turned upright too")
    func embeddedThumbnail() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let maker = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url)
        let outcome = maker.make(try Self.source("embedded-6.jpg"))
        #expect(outcome.status == .madeFromEmbedded)
        let image = try Self.decoded(output.url, outcome)
        #expect(image.width == 160 && image.height == 120)
        Self.expectQuadrants(image, Self.embedded, "embedded thumbnail, orientation 6")

        // Without the catalog's location the photo itself is decoded: the other picture.
        let decoded = maker.make(try Self.source("embedded-6.jpg", id: 8, useEmbedded: false))
        #expect(decoded.status == .madeFromImage)
        Self.expectQuadrants(try Self.decoded(output.url, decoded), Self.upright, "decoded, orientation 6")
    }

    @Test("a wrong embedded location falls back to decoding the photo")
    func wrongEmbeddedLocation() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        var source = try Self.source("orientation-6.jpg")
        source.embeddedThumbnail = ThumbnailLocation(offset: 100, length: 500)
        let outcome = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url).make(source)
        #expect(outcome.status == .madeFromImage)
        Self.expectQuadrants(try Self.decoded(output.url, outcome), Self.upright, "fallback")
    }

    /// `trip/a.jpg` in `output`, from `orientation-1.jpg` (17,356 bytes).
    static func oneJPEGTrip(in output: TemporaryFolder) throws -> URL {
        let trip = output.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("orientation-1.jpg"), to: trip.appendingPathComponent("a.jpg"))
        return trip
    }

    @Test("a rerun makes none; a changed photo gets a new name and the old one is removed as stale")
    func rerunAndStale() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let trip = try Self.oneJPEGTrip(in: output)
        let out = output.url.appendingPathComponent("geotrip")
        let maker = ThumbnailMaker(tripFolder: trip, outputFolder: out)
        var source = ThumbnailSource(photoID: 42, path: "a.jpg", media: .photo(.jpeg), fileSize: 17356, modifiedNanos: 1_000)
        let first = maker.make(source)
        #expect(first.status == .madeFromImage)
        let path = try #require(first.relativePath)
        #expect(path.hasPrefix("thumbs/42-") && path.hasSuffix(".jpg"))
        let made = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(path).path)[.modificationDate] as! Date

        let again = maker.make(source)
        #expect(again.status == .current)
        #expect(again.relativePath == path)
        let after = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(path).path)[.modificationDate] as! Date
        #expect(after == made)

        source.modifiedNanos = 2_000
        let changed = maker.make(source)
        #expect(changed.status == .madeFromImage)
        #expect(changed.relativePath != path)
        try "a person's note".write(to: out.appendingPathComponent("thumbs/notes.txt"), atomically: true, encoding: .utf8)
        #expect(maker.removeStale(keeping: [changed.relativePath!]) == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbs").path).sorted()
        #expect(left == [String(changed.relativePath!.dropFirst("thumbs/".count)), "notes.txt"].sorted())

        // Names that look like thumbnails but are written otherwise than geotrip writes them (a
        // leading zero, capitals, an id past Int64) go, unless kept as they are written; a
        // kept name given that way keeps no other file with the same numbers.
        let current = String(changed.relativePath!.dropFirst("thumbs/".count))
        let odd = ["0" + current, "8-ABCDEF01.jpg", "99999999999999999999-0123abcd.jpg"]
        for name in odd + ["7-0123abcd.jpg"] { try Data([1]).write(to: out.appendingPathComponent("thumbs/" + name)) }
        #expect(maker.removeStale(keeping: [changed.relativePath!, "thumbs/" + odd[0]]) == 3)
        let kept = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbs").path).sorted()
        #expect(kept == [current, odd[0], "notes.txt"].sorted())
    }

    @Test("a JPEG's pixel key stays while other programs edit its metadata, and names a new thumbnail when its pixels or orientation change",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func pixelKey() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let trip = try Self.oneJPEGTrip(in: output)
        let photo = trip.appendingPathComponent("a.jpg")
        func reading() -> FileReading { MetadataReader().read(path: photo.path) }
        let first = reading()
        let key = try #require(first.pixelKey)
        let maker = ThumbnailMaker(tripFolder: trip, outputFolder: output.url.appendingPathComponent("geotrip"))
        func source(_ reading: FileReading) throws -> ThumbnailSource {
            var source = try Self.source("a.jpg", in: trip)
            source.orientation = reading.metadata.orientation
            source.pixelKey = reading.pixelKey
            return source
        }
        let made = maker.make(try source(first))
        #expect(made.status == .madeFromImage)

        // exiftool writes the file anew, larger, with another time: the pixels are the same.
        let size = try Data(contentsOf: photo).count
        try LibraryRerunTests.exiftool(["-DateTimeOriginal=2031:01:02 03:04:05", "-Artist=Someone with a long name to grow the EXIF", photo.path])
        let edited = reading()
        #expect(try Data(contentsOf: photo).count != size, "exiftool rewrote the metadata")
        #expect(edited.fingerprint != first.fingerprint)
        #expect(edited.pixelKey == key)
        let again = maker.make(try source(edited))
        #expect(again.status == .current)
        #expect(again.relativePath == made.relativePath)

        // Turned: the same pixels, another thumbnail.
        try LibraryRerunTests.exiftool(["-n", "-Orientation=6", photo.path])
        let turned = reading()
        #expect(turned.pixelKey == key)
        #expect(turned.metadata.orientation == 6)
        let upright = maker.make(try source(turned))
        #expect(upright.status == .madeFromImage)
        #expect(upright.relativePath != made.relativePath)

        // One byte of the image data changed (found by its own SOS marker): another key.
        var bytes = [UInt8](try Data(contentsOf: photo))
        let scan = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let data = scan + 2 + (Int(bytes[scan + 2]) << 8 | Int(bytes[scan + 3])) + 10
        bytes[data] ^= 0x01
        try Data(bytes).write(to: photo)
        let repainted = reading()
        #expect(repainted.pixelKey != nil && repainted.pixelKey != key)

        // Cut inside the scan's header: the metadata is read, with no key.
        try Data(bytes[..<(scan + 3)]).write(to: photo)
        let cut = reading()
        #expect(cut.status == .read)
        #expect(cut.pixelKey == nil)
        // Other formats have none.
        #expect(MetadataReader().read(path: TestPaths.sampleImages.appendingPathComponent("IMG_0100.HEIC").path).pixelKey == nil)
    }

    @Test("a thumbnail that came back empty (a power cut before it reached the disk) is made again, alone and in a batch")
    func emptyThumbnailMadeAgain() async throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let trip = try Self.oneJPEGTrip(in: output)
        let maker = ThumbnailMaker(tripFolder: trip, outputFolder: output.url.appendingPathComponent("geotrip"))
        let source = ThumbnailSource(photoID: 7, path: "a.jpg", media: .photo(.jpeg), fileSize: 17356, modifiedNanos: 1_000)
        let file = output.url.appendingPathComponent("geotrip").appendingPathComponent(try #require(maker.make(source).relativePath))
        #expect(maker.make(source).status == .current)
        #expect(try await maker.makeAll([source]).map(\.status) == [.current])
        for round in 0..<2 {
            try Data().write(to: file)
            let outcome = round == 0 ? maker.make(source) : try await maker.makeAll([source])[0]
            #expect(outcome.status == .madeFromImage)
            #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0) > 0)
        }
    }

    @Test("with one read of the folder: a listed thumbnail is current unopened, a missing one is made, and only listed strays go")
    func listedFolder() async throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let trip = try Self.oneJPEGTrip(in: output)
        let out = output.url.appendingPathComponent("geotrip")
        let maker = ThumbnailMaker(tripFolder: trip, outputFolder: out)
        let kept = ThumbnailSource(photoID: 7, path: "a.jpg", media: .photo(.jpeg), fileSize: 17356, modifiedNanos: 1_000)
        let gone = ThumbnailSource(photoID: 8, path: "a.jpg", media: .photo(.jpeg), fileSize: 17356, modifiedNanos: 1_000)
        let keptFile = out.appendingPathComponent(try #require(maker.make(kept).relativePath))
        let goneFile = out.appendingPathComponent(try #require(maker.make(gone).relativePath))
        // An empty file the listing names counts as there: nothing opens it (`geotrip export` looks at each).
        try Data().write(to: keptFile)
        try FileManager.default.removeItem(at: goneFile)
        let stray = out.appendingPathComponent("thumbs/9-0123abcd.jpg"), odd = out.appendingPathComponent("thumbs/09-0123abcd.jpg")
        for file in [stray, odd] { try Data([1]).write(to: file) }
        let listing = try #require(maker.listing())
        // Made after the listing: kept, though the listing does not name it.
        let late = ThumbnailSource(photoID: 10, path: "a.jpg", media: .photo(.jpeg), fileSize: 17356, modifiedNanos: 1_000)
        let outcomes = try await maker.makeAll([kept, gone, late], listing: listing)
        #expect(outcomes.map(\.status) == [.current, .madeFromImage, .madeFromImage])
        #expect((try FileManager.default.attributesOfItem(atPath: keptFile.path)[.size] as? Int) == 0)
        #expect(FileManager.default.fileExists(atPath: goneFile.path))
        #expect(outcomes[0].relativePath == maker.relativePath(for: kept))
        let keeping = Set([kept, gone, late].compactMap(maker.numbers(for:)))
        #expect(maker.removeStale(keeping: keeping, listing: listing) == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbs").path).sorted()
        #expect(left == outcomes.compactMap { $0.relativePath.map { String($0.dropFirst("thumbs/".count)) } }.sorted())
        // Without the listing, the empty file is opened and made again.
        #expect(try await maker.makeAll([kept]).map(\.status) == [.madeFromImage])
    }
    @Test("bad files are diagnostics, never crashes", arguments: ["not-a-jpeg.jpg", "missing.jpg"])
    func badFiles(_ name: String) throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let source = ThumbnailSource(photoID: 1, path: name, media: .photo(.jpeg), fileSize: 20, modifiedNanos: 0)
        let outcome = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url).make(source)
        #expect(outcome.status == .failed)
        #expect(outcome.relativePath == nil)
        #expect(outcome.diagnostic?.kind == .thumbnail)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent("thumbs").path)) ?? []
        #expect(left.isEmpty)
    }

    @Test("a photo cut short makes a thumbnail of its readable part, with a sentence")
    func truncated() throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let outcome = ThumbnailMaker(tripFolder: Self.folder, outputFolder: output.url).make(try Self.source("truncated.jpg"))
        #expect(outcome.status == .madeFromImage)
        #expect(outcome.diagnostic?.kind == .thumbnail)
        let image = try Self.decoded(output.url, outcome)
        let topLeft = image.pixel(x: image.width / 4, y: image.height / 8)
        #expect(topLeft.red > 200 && topLeft.green < 60, "the part before the cut is the picture")
    }

    @Test("the sample trip: an embedded thumbnail, a plain JPEG, a HEIC, and a video without a still")
    func sampleTrip() async throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let maker = ThumbnailMaker(tripFolder: TestPaths.sampleImages, outputFolder: output.url)
        let sources = [
            ThumbnailSource(photoID: 4, path: "2025-06-10 Lisboa/IMG_0004.JPG", media: .photo(.jpeg), fileSize: 1, modifiedNanos: 1,
                            orientation: 1, embeddedThumbnail: ThumbnailLocation(offset: 760, length: 771)),
            ThumbnailSource(photoID: 3, path: "2025-06-10 Lisboa/IMG_0003.JPG", media: .photo(.jpeg), fileSize: 1, modifiedNanos: 1,
                            orientation: 6),
            ThumbnailSource(photoID: 100, path: "IMG_0100.HEIC", media: .photo(.heif), fileSize: 1, modifiedNanos: 1),
            ThumbnailSource(photoID: 200, path: "clip.mov", media: .video(durationSeconds: 12.5), fileSize: 1, modifiedNanos: 1),
        ]
        let outcomes = try await maker.makeAll(sources)
        #expect(outcomes.map(\.status) == [.madeFromEmbedded, .madeFromImage, .madeFromImage, .noStill])
        #expect(outcomes.map(\.photoID) == [4, 3, 100, 200])
        let rotated = try Self.decoded(output.url, outcomes[1])
        #expect(rotated.width == 120 && rotated.height == 160, "IMG_0003 is 160 x 120 stored, shown turned 90°")
        let heic = try Self.decoded(output.url, outcomes[2])
        #expect(heic.width > 0 && heic.height > 0)
        #expect(outcomes[3].relativePath == nil && outcomes[3].diagnostic == nil)
    }

    @Test("a stopped run (its task cancelled, as Ctrl-C does) makes no more thumbnails and says it was interrupted; those made stay")
    func stoppedMakesNoMore() async throws {
        let output = try TemporaryFolder()
        defer { output.remove() }
        let maker = ThumbnailMaker(tripFolder: TestPaths.sampleImages, outputFolder: output.url)
        let embedded = ThumbnailSource(photoID: 4, path: "2025-06-10 Lisboa/IMG_0004.JPG", media: .photo(.jpeg), fileSize: 1, modifiedNanos: 1,
                                       orientation: 1, embeddedThumbnail: ThumbnailLocation(offset: 760, length: 771))
        let plain = ThumbnailSource(photoID: 3, path: "2025-06-10 Lisboa/IMG_0003.JPG", media: .photo(.jpeg), fileSize: 1, modifiedNanos: 1,
                                    orientation: 6)
        let made = try #require(maker.make(embedded).relativePath)
        let stopped = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await maker.makeAll([embedded, plain])
        }
        await #expect {
            try await stopped.value
        } throws: { error in
            guard case GeoTripError.interrupted = error else { return false }
            return true
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent(ThumbnailMaker.folderName).path)
        #expect(names == [URL(fileURLWithPath: made).lastPathComponent])
        // Not stopped, the rest is made.
        #expect(try await maker.makeAll([embedded, plain]).map(\.status) == [.current, .madeFromImage])
    }

    @Test("geotrip's thumbnail names, and nothing else, count as thumbnails")
    func names() {
        #expect(ThumbnailMaker.isThumbnailName("42-0123abcd.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("42-0123abcd.jpeg"))
        #expect(!ThumbnailMaker.isThumbnailName("holiday.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("x-0123abcd.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("42-0123abc.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("-0123abcd.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("4-2-0123abcd.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("42-0123abcg.jpg"))
        #expect(!ThumbnailMaker.isThumbnailName("٤٢-0123abcd.jpg"), "digits, but not ASCII ones")
        #expect(!ThumbnailMaker.isThumbnailName("42-0123abcd.jpg.jpg"))
        // Their numbers, only as `fileName` writes them.
        #expect(ThumbnailMaker.nameNumbers("42-0123abcd.jpg".utf8) == .init(photoID: 42, key: 0x0123abcd))
        #expect(ThumbnailMaker.nameNumbers("0-ffffffff.jpg".utf8) == .init(photoID: 0, key: 0xffffffff))
        for written in ["042-0123abcd.jpg", "42-0123ABCD.jpg", "99999999999999999999-0123abcd.jpg", "42-0123abcd.jpeg", "42-0123abc.jpg",
                        "-42-0123abcd.jpg", "42-0123abcd.jpg.jpg", "holiday.jpg", ""] {
            #expect(ThumbnailMaker.nameNumbers(written.utf8) == nil, "\(written)")
        }
    }

    @Test("a thumbnail's name is its photo's id and the first 8 hex digits of the fingerprint of its size, time and settings")
    func nameFormula() {
        var generator = SystemRandomNumberGenerator()
        var values: [(Int64, Int64, Int64)] = [(1, 0, 0), (0, 0, 0), (Int64.max, Int64.max, Int64.max), (Int64.min, Int64.min, -1),
                                               (9, 1_749_513_600_123_456_789, 1_234_567)]
        for _ in 0..<500 {
            values.append((Int64.random(in: 0...Int64.max, using: &generator) >> Int64.random(in: 0...62, using: &generator),
                           Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...62, using: &generator),
                           Int64.random(in: 0...50_000_000, using: &generator)))
        }
        for (id, modified, size) in values {
            for (longSide, quality) in [(320, 80), (1, 100), (4096, 5)] {
                let identity = "\(size) \(modified) \(longSide) \(quality) \(ThumbnailMaker.version)"
                let expected = "\(id)-\(Fingerprint.of(Array(identity.utf8), fileSize: Int(truncatingIfNeeded: size)).prefix(8)).jpg"
                let name = ThumbnailMaker.fileName(photoID: id, fileSize: size, modifiedNanos: modified, longSide: longSide, quality: quality)
                #expect(name == expected)
                #expect(id < 0 || ThumbnailMaker.isThumbnailName(name))
                #expect(id < 0 || ThumbnailMaker.nameNumbers(name.utf8) == .init(photoID: id, key: UInt32(String(expected.split(separator: "-")[1].prefix(8)), radix: 16)!))
            }
        }
    }
}

/// Pictures whose headers claim more than any camera makes: a clear sentence, never a crash
/// or gigabytes of memory.
@Suite("Thumbnails of oversized pictures")
struct OversizedPictureTests {
    /// A real 16 x 16 JPEG with its frame header's marker and size replaced.
    static func jpeg(marker: UInt8, width: Int, height: Int) throws -> [UInt8] {
        var bytes = try TurboJPEG.encode(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3)), quality: 90)
        let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 1] = marker
        // FF C0, length (2), precision (1), height (2), width (2): ITU T.81 B.2.2.
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    @Test("a baseline JPEG of 2^31 pixels or more decodes at 1/8 without overflowing")
    func hugeBaseline() throws {
        let bytes = try Self.jpeg(marker: 0xC0, width: 46_341, height: 46_341)
        #expect(TurboJPEG.isProgressive(bytes) == false)
        let decoded = try TurboJPEG.decode(bytes, atLeast: 320)
        #expect(decoded.image.width == 5_793 && decoded.image.height == 5_793)
        #expect(decoded.warning != nil, "the data stops after 16 x 16 pixels")
    }

    @Test("a progressive JPEG of more than 120 megapixels is refused before decoding, with its size")
    func hugeProgressive() throws {
        let bytes = try Self.jpeg(marker: 0xC2, width: 46_340, height: 46_340)
        #expect(TurboJPEG.isProgressive(bytes) == true)
        // Junk before the frame header is skipped to the next marker, as libjpeg does; no frame
        // header found is not taken for baseline.
        var junk = bytes
        junk.insert(contentsOf: [0x00, 0x13, 0x37], at: 2)
        #expect(TurboJPEG.isProgressive(junk) == true)
        #expect(TurboJPEG.isProgressive([0xFF, 0xD8, 0xFF, 0xD9]) == nil)
        #expect(throws: ImageCodingFailure(reason: "it is a progressive JPEG of 46,340 x 46,340 pixels, more than the 120 megapixels geotrip decodes for a thumbnail")) {
            try TurboJPEG.decode(bytes, atLeast: 320)
        }
        // Within the bound, a header claiming more pixels than its bytes can hold is refused too
        // (each such decode held hundreds of MB).
        let small = try Self.jpeg(marker: 0xC2, width: 10_900, height: 10_900)
        #expect(throws: ImageCodingFailure(reason: "it claims 10,900 x 10,900 pixels in \(small.count.grouped) bytes, fewer than any picture of "
                                           + "that size takes (a damaged or crafted header); not decoded")) {
            try TurboJPEG.decode(small, atLeast: 320)
        }
        // Within the bound it is decoded (what the data holds).
        #expect(TurboJPEG.isProgressive(try Self.jpeg(marker: 0xC2, width: 16, height: 16)) == true)
        // A baseline header claiming 65,500 pixels a side would still ask for 200 MB at 1/8.
        #expect(throws: ImageCodingFailure(reason: "it claims 65,500 x 65,500 pixels, more than geotrip decodes for a thumbnail")) {
            try TurboJPEG.decode(try Self.jpeg(marker: 0xC0, width: 65_500, height: 65_500), atLeast: 320)
        }
    }
}

extension OversizedPictureTests {
    /// `heic-grid.heic` (a 1x1 grid of one 64 x 48 tile) rebuilt as a grid of `rows` x `columns`
    /// references to its one 64 x 64 tile: a file of kilobytes whose picture is gigantic. The
    /// byte ranges are that fixture's boxes (Fixtures/README.md): hdlr, pitm, iinf, iprp (with
    /// the grid's ispe at 410), and the tile's and Exif's data from 512 on. `canvas` gives the
    /// grid's descriptor another output size than its tiles and `ispe` make (a crafted file).
    static func heifGrid(rows: Int, columns: Int, canvas: (width: Int, height: Int)? = nil) throws -> [UInt8] {
        let fixture = [UInt8](try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("heic-grid.heic")))
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(8 + body.count) + Array(type.utf8) + body }
        func full(_ type: String, _ version: Int, _ body: [UInt8]) -> [UInt8] { box(type, be32(version << 24) + body) }
        let (width, height) = (columns * 64, rows * 64)
        let idat = box("idat", [0, 1, UInt8(rows - 1), UInt8(columns - 1)] + be32(canvas?.width ?? width) + be32(canvas?.height ?? height))
        let count = rows * columns
        let dimg = box("dimg", be16(2) + be16(count) + (0..<count).flatMap { _ in be16(1) })
        let cdsc: [UInt8] = [0, 0, 0, 0x0e, 0x63, 0x64, 0x73, 0x63, 0, 3, 0, 1, 0, 2]
        let iref = full("iref", 0, dimg + cdsc)
        var iprp = Array(fixture[256..<472])
        iprp.replaceSubrange((410 - 256 + 12)..<(410 - 256 + 20), with: be32(width) + be32(height))
        func iloc(_ delta: Int) -> [UInt8] {
            var body: [UInt8] = [0x44, 0x40] + be16(3)
            body += be16(1) + be16(0) + be16(0) + be32(0x3d8 + delta) + be16(1) + be32(0) + be32(0x60)
            body += be16(2) + be16(1) + be16(0) + be32(0) + be16(1) + be32(0) + be32(12)
            body += be16(3) + be16(0) + be16(0) + be32(0x208 + delta) + be16(1) + be32(0) + be32(0x1d0)
            return full("iloc", 1, body)
        }
        let ftyp = Array(fixture[0..<28])
        func meta(_ delta: Int) -> [UInt8] {
            full("meta", 0, Array(fixture[40..<73]) + Array(fixture[73..<87]) + idat + iloc(delta) + Array(fixture[179..<256]) + iprp + iref)
        }
        let delta = ftyp.count + meta(0).count - 512
        return ftyp + meta(delta) + Array(fixture[512...])
    }

    @Test("a HEIF grid of one tile repeated into 267 megapixels is refused before decoding, with its size")
    func hugeHeifGrid() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let small = temp.url.appendingPathComponent("small.heic"), huge = temp.url.appendingPathComponent("huge.heic")
        try Data(try Self.heifGrid(rows: 2, columns: 2)).write(to: small)
        try Data(try Self.heifGrid(rows: 255, columns: 256)).write(to: huge)
        // The construction makes what it says: a 2 x 2 grid decodes at 128 x 128.
        let decoded = try Self.heifStill(small)
        #expect(decoded.width == 128 && decoded.height == 128)
        #expect(throws: ImageCodingFailure(reason: "its picture is 16,384 x 16,320 pixels, more than the 120 megapixels geotrip decodes for a thumbnail, and it holds no smaller one")) {
            try Self.heifStill(huge)
        }
    }

    /// The thumbnail maker's still of the HEIF file at `url`, its derived images read first.
    static func heifStill(_ url: URL) throws -> RGBImage {
        let path = Array(url.path.utf8CString)
        let file = try PhotoFile(path: path)
        return try HeifExifExtractor.still(path: path, derived: HeifDerivedImages(file: file), atLeast: 320)
    }

    @Test("a HEIF grid whose descriptor asks for more pixels than its ispe says is refused by the descriptor's size, before libheif builds (or overflows on) its canvas")
    func heifGridLargerThanItSays() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // One 64 x 64 tile; ispe 64 x 64; the descriptor says 30,000 x 30,000 (libheif 1.15
        // crashed converting it to RGB), 16,384 x 12,288 (1.2 GB to decode), or the largest
        // 32-bit sides (whose product overflows a 64-bit integer).
        for canvas in [(width: 30_000, height: 30_000), (width: 16_384, height: 12_288), (width: 4_294_967_295, height: 4_294_967_295)] {
            let url = temp.url.appendingPathComponent("crafted-\(canvas.width).heic")
            try Data(try Self.heifGrid(rows: 1, columns: 1, canvas: canvas)).write(to: url)
            let derived = HeifDerivedImages(file: try PhotoFile(path: Array(url.path.utf8CString)))
            #expect(derived.primary.map { derived.canvases[$0]?.width } == canvas.width)
            #expect(throws: ImageCodingFailure(reason: "its picture is \(canvas.width.grouped) x \(canvas.height.grouped) pixels, more than the "
                                               + "120 megapixels geotrip decodes for a thumbnail, and it holds no smaller one")) {
                try Self.heifStill(url)
            }
        }
        // The fixture as it is: its grid's canvas read from its descriptor in idat (64 x 48).
        let fixture = TestPaths.fixtures.appendingPathComponent("heic-grid.heic")
        let derived = HeifDerivedImages(file: try PhotoFile(path: Array(fixture.path.utf8CString)))
        #expect(derived.canvases.count == 1 && derived.primary.map { derived.canvases[$0]?.width } == 64
                && derived.primary.map { derived.canvases[$0]?.height } == 48)
        #expect(try Self.heifStill(fixture).width == 64)
    }
}

extension OversizedPictureTests {
    @Test("a HEIF item whose data lies past any file in idat (offsets near Int.max) is passed over, not an overflow; the photo's thumbnail is made")
    func heifIdatOffsetOverflow() throws {
        let url = TestPaths.fixtures.appendingPathComponent("hostile/heic-idat-overflow.heic")
        let derived = HeifDerivedImages(file: try PhotoFile(path: Array(url.path.utf8CString)))
        #expect(derived.derivedIDs.contains(99) && derived.canvases[99] == nil)
        #expect(try Self.heifStill(url).width > 0)
    }

    @Test("a grid listed past the 4,096 items of iinf that geotrip reads is still held to the size its ispe says: libheif refuses it, never builds it")
    func heifGridPastTheItemsRead() throws {
        let url = TestPaths.fixtures.appendingPathComponent("hostile/heic-grid-past-4096-items.heic")
        let derived = HeifDerivedImages(file: try PhotoFile(path: Array(url.path.utf8CString)))
        #expect(derived.primary == 2 && !derived.derivedIDs.contains(2), "the walk stops before the grid's entry")
        // Built, the 25,000 x 25,000 canvas took 3.7 GB; held to the 64 x 48 the file claims,
        // libheif says so at once.
        #expect {
            _ = try Self.heifStill(url)
        } throws: { error in
            (error as? ImageCodingFailure)?.reason.contains("exceeds the maximum image size 65x65") == true
        }
    }

    @Test("a HEIF Exif item claiming 500 MB is not read into memory: said, and the rest of the file is read")
    func heifExifItemTooLarge() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("big.heic")
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("hostile/heic-exif-500mb.head"), to: url)
        // Zeros to the size the item needs, as a sparse file (nothing written to the disk).
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 500_001_000)
        try handle.close()
        let contents = try HeifExifExtractor.contents(path: Array(url.path.utf8CString))
        #expect(contents.diagnostics.map(\.message) == ["the HEIF Exif item is 500000000 bytes, more than the 16 MiB geotrip reads; not read"],
                "\(contents.diagnostics)")
        #expect(contents.width != nil)
    }

    @Test("libheif opens the file the checked descriptor holds, not its name again (which a FIFO may have taken since)")
    func heifOpensTheCheckedFile() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let photo = temp.url.appendingPathComponent("IMG_1.heic")
        try Data(try Self.heifGrid(rows: 2, columns: 2)).write(to: photo)
        let path = Array(photo.path.utf8CString)
        let file = try PhotoFile(path: path)
        let opened = file.openedPath(else: path)
        #expect(String(cString: opened).hasPrefix("/proc/self/fd/"))
        // Another file under the name now (a swap after the check): the checked one is read.
        try FileManager.default.removeItem(at: photo)
        try Data(try Self.heifGrid(rows: 1, columns: 3)).write(to: photo)
        let contents = try ContainerReader.contents(of: file, format: .heif, path: path)
        #expect(contents.width == 128 && contents.height == 128)
        #expect(try HeifExifExtractor.still(path: opened, derived: HeifDerivedImages(file: file), atLeast: 320).width == 128)
    }
}
