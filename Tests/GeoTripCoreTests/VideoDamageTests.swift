import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Damaged videos, made from the exiftool fixtures by cutting them, flipping their bytes and
/// rewriting box sizes: the reader never crashes or hangs, and says what is wrong.
@Suite("Damaged videos")
struct VideoDamageTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: VideoReadingTests.folder.appendingPathComponent(name)))
    }

    /// Reads `bytes` as a file named `name`.
    static func read(_ bytes: [UInt8], named name: String = "damaged.mp4") throws -> FileReading {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return MetadataReader().read(path: url.path)
    }

    /// The offset of the first box of `type` at the top level.
    static func topLevelBox(_ type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[offset + 4..<offset + 8].elementsEqual(type.utf8) { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    /// The offset of the first `type` header anywhere (for boxes inside `moov`).
    static func box(_ type: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        return (4..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual(pattern) }.map { $0 - 4 }
    }

    static func setSize(_ size: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(size >> (24 - 8 * UInt32(index)) & 0xFF) }
    }

    /// Reads `bytes` and expects a damage diagnostic that says `words`.
    static func readDamaged(_ bytes: [UInt8], saying words: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> FileReading {
        let reading = try read(bytes)
        #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged && $0.message.contains(words) },
                "\(reading.metadata.diagnostics)", sourceLocation: sourceLocation)
        return reading
    }

    static let expected = MetadataReader().read(path: VideoReadingTests.folder.appendingPathComponent("video-moov-at-end.mp4").path).metadata

    @Test("each truncation of a video is read or rejected with a sentence, never a crash, and no value cut short is read as one")
    func everyTruncation() throws {
        let original = try Self.fixture("video-iphone.mov")
        let whole = MetadataReader().read(path: VideoReadingTests.folder.appendingPathComponent("video-iphone.mov").path).metadata
        let (position, model, time) = (try #require(whole.coordinate), try #require(whole.model), try #require(whole.localTime))
        #expect(whole.timeField == .quickTimeCreationDate)
        // Its top-level boxes' ends (ISO/IEC 14496-12 section 4.2: 32-bit sizes here), moov first.
        var boxEnds: [Int] = [], offset = 0
        while offset + 8 <= original.count {
            offset += original[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxEnds.append(offset)
        }
        #expect(offset == original.count && boxEnds.count >= 3)
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("cut.mov")
        for length in 0..<original.count {
            try Data(original.prefix(length)).write(to: url)
            let reading = MetadataReader().read(path: url.path)
            #expect(reading.status != .skipped, "cut at \(length)")
            if reading.status == .unreadable { #expect(!reading.metadata.diagnostics.isEmpty, "cut at \(length)") }
            // Cut anywhere but between two whole boxes, moov first or the picture data after
            // it: the cut is said.
            if length > boxEnds[0], !boxEnds.contains(length) {
                #expect(reading.metadata.diagnostics.contains { $0.kind == .damaged }, "cut at \(length)")
            }
            // A value is read whole or not at all (Apple's keys hold the text `+40.4151-003.6841+…/`,
            // which cut short would still parse).
            let read = reading.metadata
            #expect(read.coordinate == nil || read.coordinate == position, "cut at \(length) gave \(String(describing: read.coordinate))")
            #expect(read.model == nil || read.model == model, "cut at \(length) gave the model \(read.model ?? "")")
            // Apple's creation date, else the movie header's time (UTC), a value of its own.
            if read.timeField == whole.timeField {
                #expect(read.localTime == time && read.offset == whole.offset, "cut at \(length) gave \(String(describing: read.localTime))")
            } else {
                #expect(read.timeField == nil || read.timeField == .quickTimeCreateDate, "cut at \(length) gave \(String(describing: read.timeField))")
            }
        }
    }

    @Test("a clip cut in its picture data after a moov at its front is said; a camera's trailer after the movie is no cut")
    func cutAfterMovie() throws {
        let original = try Self.fixture("video-faststart.mp4")
        let mdat = try #require(Self.topLevelBox("mdat", in: original))
        #expect(try Self.read(original).metadata.diagnostics.isEmpty)
        let cut = try Self.readDamaged(Array(original.prefix(mdat + 20)), saying: "the video is cut short: its box 'mdat' at byte \(mdat)")
        #expect(cut.metadata.coordinate != nil && cut.status == .read)
        // 16 bytes of a maker's own after the last box, no box header: nothing to say.
        #expect(try Self.read(original + [UInt8](repeating: 0xFF, count: 16)).metadata.diagnostics.isEmpty)
    }

    @Test("a box of size 0 inside moov is said, as only a file's last box may have it; eight zero bytes are padding")
    func sizeZeroInside() throws {
        let original = try Self.fixture("video-faststart.mp4")
        let moov = try #require(Self.topLevelBox("moov", in: original))
        // A `free` box of size 0 put first in moov: it would hide the movie header.
        var bytes = original
        bytes.insert(contentsOf: [0, 0, 0, 0] + Array("free".utf8), at: moov + 8)
        let moovSize = original[moov..<moov + 4].reduce(0) { $0 << 8 | Int($1) } + 8
        Self.setSize(UInt32(moovSize), at: moov, in: &bytes)
        // The chunk offsets after it are off by 8: the picture is not read, only the boxes.
        let reading = try Self.readDamaged(bytes, saying: "box 'free' at byte \(moov + 8) inside 'moov' has size 0, which only a file's last box may have")
        #expect(reading.metadata.localTime == nil)
        var padded = original
        padded.replaceSubrange((moov + 8)..<(moov + 8), with: [UInt8](repeating: 0, count: 8))
        Self.setSize(UInt32(moovSize), at: moov, in: &padded)
        #expect(try Self.read(padded).metadata.diagnostics.isEmpty)
    }

    @Test("bytes flipped one at a time in a video's boxes never crash the reader")
    func flippedBytes() throws {
        let original = try Self.fixture("video-iphone.mov")
        let moov = try #require(Self.topLevelBox("moov", in: original))
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let url = temp.url.appendingPathComponent("flipped.mov")
        for index in Array(0..<40) + Array(moov..<min(original.count, moov + 1400)) {
            var bytes = original
            bytes[index] ^= 0xFF
            try Data(bytes).write(to: url)
            let reading = MetadataReader().read(path: url.path)
            if let coordinate = reading.metadata.coordinate {
                #expect(abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180)
                #expect(!(coordinate.latitude == 0 && coordinate.longitude == 0))
            }
        }
    }

    @Test("a box of size 0 runs to the end of the file, as the specification says")
    func sizeZero() throws {
        var bytes = try Self.fixture("video-moov-at-end.mp4")
        Self.setSize(0, at: try #require(Self.topLevelBox("moov", in: bytes)), in: &bytes)
        let reading = try Self.read(bytes)
        #expect(reading.status == .read)
        #expect(reading.metadata.coordinate == Self.expected.coordinate && reading.metadata.localTime == Self.expected.localTime)
        #expect(reading.metadata.diagnostics.isEmpty)
    }

    @Test("a box with a 64-bit size is read; one whose 64-bit size is cut short is reported")
    func size64() throws {
        let original = try Self.fixture("video-moov-at-end.mp4")
        let moov = try #require(Self.topLevelBox("moov", in: original))
        let size = UInt64(original.count - moov) + 8
        var bytes = Array(original[..<moov]) + [0, 0, 0, 1] + Array("moov".utf8)
        bytes += (0..<8).map { UInt8(size >> (56 - 8 * UInt64($0)) & 0xFF) }
        bytes += original[(moov + 8)...]
        let reading = try Self.read(bytes)
        #expect(reading.metadata.coordinate == Self.expected.coordinate && reading.metadata.durationSeconds == Self.expected.durationSeconds)
        #expect(reading.metadata.diagnostics.isEmpty)

        #expect(try Self.readDamaged(Array(bytes[..<(moov + 12)]), saying: "64-bit").status == .unreadable)
    }

    @Test("a box larger than the file is reported, and what it holds still read")
    func largerThanFile() throws {
        var bytes = try Self.fixture("video-moov-at-end.mp4")
        Self.setSize(0x7FFF_FFF0, at: try #require(Self.topLevelBox("moov", in: bytes)), in: &bytes)
        let reading = try Self.readDamaged(bytes, saying: "past the end")
        #expect(reading.status == .read)
        #expect(reading.metadata.coordinate == Self.expected.coordinate)
    }

    @Test("a box smaller than its header is reported and ends the walk of its level")
    func smallerThanHeader() throws {
        var bytes = try Self.fixture("video-faststart.mp4")
        Self.setSize(4, at: try #require(Self.box("udta", in: bytes)), in: &bytes)
        #expect(try Self.readDamaged(bytes, saying: "smaller than its header").status == .read)
        var first = try Self.fixture("video-faststart.mp4")
        Self.setSize(3, at: 0, in: &first)
        #expect(try Self.readDamaged(first, saying: "smaller than its header").status == .unreadable)
    }

    @Test("deep nesting is not followed, and a flood of boxes ends the walk, reported")
    func nestingAndFloods() throws {
        let ftyp = try Self.fixture("video-faststart.mp4").prefix(32)
        // 20,000 `udta` boxes, each inside the last, inside moov.
        let depth = 20_000
        var nested: [UInt8] = []
        for level in 0..<depth {
            let size = UInt32(8 * (depth - level) + 8)
            nested += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("udta".utf8)
        }
        let moovSize = UInt32(8 + nested.count + 8)
        var deep = Array(ftyp) + [UInt8(moovSize >> 24), UInt8(moovSize >> 16 & 0xFF), UInt8(moovSize >> 8 & 0xFF), UInt8(moovSize & 0xFF)]
        deep += Array("moov".utf8) + nested + [0, 0, 0, 8] + Array("free".utf8)
        let reading = try Self.read(deep)
        #expect(reading.status == .read)
        #expect(reading.metadata.coordinate == nil && reading.metadata.localTime == nil)

        // 100,000 empty `free` boxes before the moov: more than any file has.
        let flood = Array(ftyp) + Array(repeating: [0, 0, 0, 8] + Array("free".utf8), count: 100_000).flatMap { $0 }
            + (try Self.fixture("video-faststart.mp4")).dropFirst(32)
        #expect(try Self.readDamaged(flood, saying: "more than \(QuickTimeReader.maximumBoxes) boxes").status == .unreadable)
    }

    @Test("a fragmented MP4's thousands of moof/mdat boxes after its moov are not walked")
    func fragmented() throws {
        let original = try Self.fixture("video-faststart.mp4")
        let mdat = try #require(Self.topLevelBox("mdat", in: original))
        let fragment = [0, 0, 0, 16] + Array("moof".utf8) + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 8] + Array("mdat".utf8)
        let reading = try Self.read(Array(original[..<mdat]) + Array(repeating: fragment, count: 10_000).flatMap { $0 })
        #expect(reading.status == .read)
        #expect(reading.metadata.coordinate != nil)
        #expect(reading.metadata.diagnostics.isEmpty, "\(reading.metadata.diagnostics)")
    }

    @Test("a file named like a video that is not one is an error, not a skip")
    func notAVideo() throws {
        let reading = try Self.read(Array("this is not a video at all".utf8), named: "clip.mp4")
        #expect(reading.status == .unreadable)
        #expect(reading.metadata.diagnostics.first?.kind == .damaged)
        #expect(reading.metadata.diagnostics.first?.message == "the file is named like a video but its content is not a format geotrip knows")
        // A copy that never got its bytes (a file of zeros, as a full disk or a sync cut short leaves).
        let zeros = try Self.read(Array(repeating: 0, count: 500_000), named: "CLIP.MOV")
        #expect(zeros.status == .unreadable)
        #expect(zeros.metadata.diagnostics.first?.message.hasPrefix("the file is named like a video but its content is not a format geotrip knows (its first ") == true,
                "\(zeros.metadata.diagnostics)")
        #expect(zeros.metadata.diagnostics.first?.message.hasSuffix("bytes are all zeros: a copy cut off or never finished)") == true)
        // A small one, read whole: all of it, not "its first 600 bytes".
        let small = try Self.read(Array(repeating: 0, count: 600), named: "CLIP.MOV")
        #expect(small.metadata.diagnostics.first?.message
                == "the file is named like a video but its content is not a format geotrip knows (it is all zeros: a copy cut off or never finished)")
    }

    @Test("a movie header's duration of more than a week, or in a timescale of 0, is said and not kept, one of 0 is unknown; an empty header is said; an altitude past 100 km neither")
    func implausibleValues() throws {
        let original = try Self.fixture("video-iphone.mov")
        let mvhd = try #require(Self.box("mvhd", in: original))
        #expect(original[mvhd + 8] == 0, "a version 0 mvhd: 32-bit times, timescale at body offset 12, duration at 16")
        func patched(timescale: UInt32, duration: UInt32) -> [UInt8] {
            var bytes = original
            Self.setSize(timescale, at: mvhd + 8 + 12, in: &bytes)
            Self.setSize(duration, at: mvhd + 8 + 16, in: &bytes)
            return bytes
        }
        // 136 years at one unit a second.
        let long = try Self.readDamaged(patched(timescale: 1, duration: 0xFFFF_FFFE), saying: "lasts 4,294,967,294 seconds, more than a week")
        #expect(long.metadata.durationSeconds == nil && long.metadata.coordinate != nil)
        let noScale = try Self.readDamaged(patched(timescale: 0, duration: 5), saying: "in a timescale of 0 units a second")
        #expect(noScale.metadata.durationSeconds == nil)
        // A duration of 0 is a fragmented file's (its length in the fragments): unknown, not said.
        let fragmented = try Self.read(patched(timescale: 600, duration: 0))
        #expect(fragmented.metadata.durationSeconds == nil && fragmented.metadata.diagnostics.isEmpty, "\(fragmented.metadata.diagnostics)")
        // A 0 an older reading kept is shown as no length, not as 0:00.
        #expect(MediaDuration.text(0) == nil && MediaDuration.text(0.4) == "0:00" && MediaDuration.text(3727) == "1:02:07")
        // A header with no body at all (a box of 8 bytes) is said, as a short one is.
        var empty = original
        Self.setSize(8, at: mvhd, in: &empty)
        #expect(try Self.read(empty).metadata.diagnostics.contains { $0.message.contains("'mvhd' box is too short") })
        // A week exactly is kept.
        #expect(try Self.read(patched(timescale: 1, duration: 7 * 86_400)).metadata.durationSeconds == 7 * 86_400)
        // Its position's altitude (+657.000, Madrid) made a billion metres, the string's length kept.
        var high = original
        let xyz = Array("+40.415179-003.684831+657.000/".utf8), far = Array("+40.415179-003.684831+9999999/".utf8)
        let at = try #require((0...(high.count - xyz.count)).first { high[$0..<$0 + xyz.count].elementsEqual(xyz) })
        high.replaceSubrange(at..<at + xyz.count, with: far)
        let reading = try Self.read(high, named: "high.mov")
        #expect(reading.metadata.coordinate != nil && reading.metadata.altitude == nil)
        #expect(reading.metadata.diagnostics.contains { $0.kind == .altitudeIgnored && $0.message.contains("9,999,999 m, outside -1,000 to 100,000 m") },
                "\(reading.metadata.diagnostics)")
    }
}
