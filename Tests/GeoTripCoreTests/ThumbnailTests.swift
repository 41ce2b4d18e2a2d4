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
