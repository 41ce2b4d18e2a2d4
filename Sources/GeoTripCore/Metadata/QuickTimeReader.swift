import Foundation

/// One box of a QuickTime or ISO base media file (ISO/IEC 14496-12 section 4.2): its type and
/// where its header and body lie in the file.
struct MediaBox {
    /// The four-character type, as bytes (`©xyz` starts with 0xA9, which is not ASCII).
    var type: [UInt8]
    /// Absolute offset of the box's first header byte.
    var start: Int
    /// 8, or 16 with a 64-bit size.
    var headerLength: Int
    /// Absolute offset just past the box.
    var end: Int
    /// Whether the box claims more bytes than its parent (or the file) holds: `end` is then
    /// its parent's, and what it holds is cut short.
    var cut = false

    /// The body's byte range.
    var body: Range<Int> { (start + headerLength)..<end }

    /// Whether the type is `name` (four ASCII characters).
    func `is`(_ name: String) -> Bool { type.elementsEqual(name.utf8) }

    /// The type for a sentence: `'moov'`, with bytes that are not printable ASCII as `©` or `?`.
    var name: String { Self.name(type) }

    static func name(_ type: [UInt8]) -> String {
        "'" + String(type.map { $0 == 0xA9 ? "©" : (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" }) + "'"
    }

    /// A box's header (ISO/IEC 14496-12 section 4.2) as its first 8 or 16 bytes give it.
    enum Header: Equatable {
        /// Fewer than 8 bytes: no header.
        case cut
        /// A 64-bit size (size 1) with fewer than 16 bytes.
        case largeSizeCut(type: [UInt8])
        /// The type, the size as written (nil for size 0, "to the end of the file"), and 8, or
        /// 16 with a 64-bit size. The size may be smaller than the header: the caller says so.
        case box(type: [UInt8], size: UInt64?, headerLength: Int)
    }

    /// The header at the start of `bytes`, which holds the box's first 16 bytes, or fewer
    /// where its parent or the file ends. The one reading of box headers, for the video
    /// walk (`QuickTimeReader.Walker`) and the HEIF check of a file cut short.
    static func header(_ bytes: [UInt8]) -> Header {
        guard bytes.count >= 8 else { return .cut }
        let type = Array(bytes[4..<8])
        let size = UInt64(Bytes.bigEndian(bytes[0..<4]))
        switch size {
        case 1:
            guard bytes.count >= 16 else { return .largeSizeCut(type: type) }
            return .box(type: type, size: UInt64(truncatingIfNeeded: Bytes.bigEndian(bytes[8..<16])), headerLength: 16)
        case 0:
            return .box(type: type, size: nil, headerLength: 8)
        default:
            return .box(type: type, size: size, headerLength: 8)
        }
    }
}

/// Reads the metadata of QuickTime and ISO base media videos (MOV, MP4, M4V, 3GP) by walking box
/// headers with `pread`: only the few boxes that hold the time, position, camera and duration
/// are read, never `mdat`, so a multi-gigabyte clip whose `moov` sits at its end costs a few
/// kilobytes of reading.
///
/// Written by hand: no Swift or C library available here reads these few boxes without opening
/// the media for decoding (libavformat would, at the cost of probing streams and pulling in the
/// codecs' libraries), and the boxes are simple, fixed layouts.
enum QuickTimeReader {
    /// Deeper nesting than any real file needs (`moov/udta/meta/ilst/item/data` is 6).
    static let maximumDepth = 8
    /// Boxes walked in one file at the most, over all levels, so a crafted file cannot keep the
    /// reader walking (real files have a few dozen at the levels walked).
    static let maximumBoxes = 4096
    /// The largest `keys`, `ilst` or `udta` item body read: real ones are hundreds of bytes.
    static let maximumMetadataBody = 1 << 20

    /// Seconds from 1904-01-01 (the QuickTime epoch) to 1970-01-01.
    static let epochOffset = 2_082_844_800
    /// mvhd times before 1990-01-01 are not dates: 0 is what muxers write when they have none,
    /// and a few years after 1904 is an unset camera clock. No digital video predates 1990.
    static let earliestMovieTime = epochOffset + 631_152_000

    /// What one video says.
    struct Reading {
        var metadata = PhotoMetadata()
        /// False when no `moov` box could be found: nothing of the video is known.
        var foundMovie = false
    }

    /// Reads `file`. Never throws: damage becomes diagnostics.
    static func read(_ file: PhotoFile) -> Reading {
        var walker = Walker(file: file)
        var reading = Reading()
        // The walk of the top level ends at moov: a fragmented MP4 (long phone and action-camera
        // recordings) follows it with thousands of moof/mdat pairs that hold nothing wanted.
        let movie = walker.children(of: 0..<file.size, depth: 0, parent: "the file", until: "moov").last { $0.is("moov") }
        guard let movie else {
            reading.metadata.diagnostics = walker.diagnostics
            reading.metadata.diagnostics.append(Diagnostic(.damaged, "the video has no 'moov' box, which holds its metadata (truncated or not a video)"))
            return reading
        }
        reading.foundMovie = true
        walker.checkEnd(after: movie.end)
        var found = Found()
        for box in walker.children(of: movie.body, depth: 1, parent: "'moov'") {
            if box.is("mvhd") {
                found.movieHeader(walker.body(of: box, limit: 120), diagnostics: &walker.diagnostics)
            } else if box.is("meta") {
                walker.readAppleMetadata(box, depth: 2, into: &found)
            } else if box.is("udta") {
                walker.readUserData(box, depth: 2, into: &found)
            }
        }
        reading.metadata = found.metadata(diagnostics: walker.diagnostics)
        return reading
    }

    /// The values found, before the order of sources is applied.
    struct Found {
        var movieTime: Int?
        var duration: Double?
        var appleLocation: String?
        var appleCreationDate: String?
        var appleMake: String?
        var appleModel: String?
        var contentIdentifier: String?
        var userDataLocation: String?
        var userDataMake: String?
        var userDataModel: String?
        var loci: Coordinate?
        var lociAltitude: Double?

        /// The longest a video's duration is believed: a week (a dashcam's or a time-lapse's day
        /// is well within it).
        static let longestDuration = 7 * 86_400.0

        /// `mvhd` (ISO/IEC 14496-12 8.2.2): version 0 with 32-bit times and duration, or 1 with 64-bit.
        mutating func movieHeader(_ body: [UInt8], diagnostics: inout [Diagnostic]) {
            let version = body.first ?? 0
            let (timeLength, needed) = version == 1 ? (8, 32) : (4, 20)
            guard version <= 1, body.count >= needed else {
                let what = version > 1 ? "of an unknown version (\(version))" : "too short (\(body.count) bytes)"
                diagnostics.append(Diagnostic(.damaged, "the video's 'mvhd' box is \(what); its time and duration were not read"))
                return
            }
            let creation = Bytes.bigEndian(body[4..<(4 + timeLength)])
            let scaleAt = 4 + 2 * timeLength
            let timescale = Bytes.bigEndian(body[scaleAt..<(scaleAt + 4)])
            let length = Bytes.bigEndian(body[(scaleAt + 4)..<(scaleAt + 4 + timeLength)])
            movieTime = creation
            // A duration of all ones means "unknown" (14496-12); so does 0, which a fragmented
            // file's header gives (its length is in the fragments after it); a zero timescale,
            // nothing.
            let unknown = version == 1 ? length == -1 : length == 0xFFFF_FFFF
            guard !unknown, length != 0 else { return }
            guard timescale > 0, length > 0 else {
                let written = version == 1 ? String(UInt64(bitPattern: Int64(length))) : String(length)
                diagnostics.append(Diagnostic(.damaged, "the video's 'mvhd' box gives a duration of \(written) in a timescale of \(timescale) units a second; its length was not read"))
                return
            }
            let seconds = Double(length) / Double(timescale)
            // Longer than any camera records in one file: a damaged or crafted header.
            guard seconds <= Self.longestDuration else {
                diagnostics.append(Diagnostic(.damaged, "the video's 'mvhd' box says it lasts \(seconds < 1e15 ? Int(seconds).grouped : "\(seconds)") seconds, more than a week; its length was not read"))
                return
            }
            duration = seconds
        }

        /// The metadata, sources in their order: Apple's keys, then `©xyz`, then `loci` for the
        /// position; Apple's creation date (wall clock with offset), else mvhd's time.
        func metadata(diagnostics: [Diagnostic]) -> PhotoMetadata {
            var m = PhotoMetadata(diagnostics: diagnostics)
            m.durationSeconds = duration
            m.contentIdentifier = contentIdentifier.flatMap { $0.isEmpty ? nil : $0 }
            m.make = (appleMake ?? userDataMake).map { $0.trimmingCharacters() }.flatMap { $0.isEmpty ? nil : $0 }
            m.model = (appleModel ?? userDataModel).map { $0.trimmingCharacters() }.flatMap { $0.isEmpty ? nil : $0 }
            position(into: &m)
            time(into: &m)
            return m
        }

        private func position(into m: inout PhotoMetadata) {
            var candidates: [(Coordinate, Double?)] = []
            for (text, field) in [(appleLocation, "com.apple.quicktime.location.ISO6709"), (userDataLocation, "©xyz")] {
                guard let text else { continue }
                if let point = ISO6709.parse(text) {
                    candidates.append((point.coordinate, point.altitude))
                } else {
                    m.diagnostics.append(Diagnostic(.positionIgnored, "the video's \(field) position '\(text.prefix(64))' is not an ISO 6709 position; not used"))
                }
            }
            if let loci { candidates.append((loci, lociAltitude)) }
            for (coordinate, altitude) in candidates {
                if coordinate.latitude == 0 && coordinate.longitude == 0 {
                    m.diagnostics.append(Diagnostic(.nullIsland, "the video's position is exactly 0,0 (null island), which devices write when they have no fix: no coordinate"))
                    continue
                }
                m.coordinate = coordinate
                // The same bounds as a photo's EXIF altitude.
                if let altitude, !ExifDecoder.plausibleAltitudes.contains(altitude) {
                    m.diagnostics.append(Diagnostic(.altitudeIgnored, "the video's altitude is \(ExifDecoder.altitudeOutOfBounds(altitude)); no altitude recorded"))
                } else {
                    m.altitude = altitude
                }
                return
            }
        }

        private func time(into m: inout PhotoMetadata) {
            if let text = appleCreationDate {
                if let (local, offset) = Self.appleDate(text) {
                    m.localTime = local
                    m.offset = offset
                    m.timeField = .quickTimeCreationDate
                    return
                }
                m.diagnostics.append(Diagnostic(.timeIgnored, "the video's com.apple.quicktime.creationdate '\(text.prefix(64))' is not a date; not used"))
            }
            guard let movieTime, movieTime != 0 else { return }
            // Up to year 10000, the last the calendar arithmetic and the catalog's text keep.
            guard movieTime >= QuickTimeReader.earliestMovieTime, movieTime < QuickTimeReader.epochOffset + 253_402_300_800 else {
                m.diagnostics.append(Diagnostic(.timeIgnored, "the video's 'mvhd' creation time is before 1990 or far in the future (an unset clock); not used"))
                return
            }
            let unix = movieTime - QuickTimeReader.epochOffset
            let (days, seconds) = unix.quotientAndRemainder(dividingBy: 86_400)
            let civil = Date.civilDate(daysSince1970: days)
            m.localTime = LocalDateTime(year: civil.year, month: civil.month, day: civil.day,
                                        hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)
            m.timeField = .quickTimeCreateDate
        }

        /// Apple's creation date, ISO 8601 with an offset: `2024-06-10T14:05:30+0200` (also
        /// `+02:00`, `Z`, fractional seconds, or no offset).
        static func appleDate(_ text: String) -> (LocalDateTime, UTCOffset?)? {
            let b = Array(text.utf8)
            guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
                  b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                  let y = ASCIIDigits.parse(b[0..<4]), let mo = ASCIIDigits.parse(b[5..<7]), let d = ASCIIDigits.parse(b[8..<10]),
                  let h = ASCIIDigits.parse(b[11..<13]), let mi = ASCIIDigits.parse(b[14..<16]), let s = ASCIIDigits.parse(b[17..<19])
            else { return nil }
            var rest = b[19...]
            var millisecond: Int?
            if rest.first == UInt8(ascii: ".") {
                let digits = rest.dropFirst().prefix { ASCIIDigits.isDigit($0) }
                guard !digits.isEmpty else { return nil }
                millisecond = ASCIIDigits.parse((Array(digits) + [0x30, 0x30]).prefix(3))
                rest = rest.dropFirst(1 + digits.count)
            }
            guard let local = LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s, millisecond: millisecond) else { return nil }
            if rest.isEmpty { return (local, nil) }
            let zone = Array(rest)
            if zone == [UInt8(ascii: "Z")] { return (local, UTCOffset(minutes: 0)) }
            guard zone.count == 5 || (zone.count == 6 && zone[3] == UInt8(ascii: ":")),
                  zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
                  let hours = ASCIIDigits.parse(zone[1..<3]), let minutes = ASCIIDigits.parse(zone[(zone.count - 2)...]), minutes < 60,
                  let offset = UTCOffset(minutes: (zone[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes))
            else { return nil }
            return (local, offset)
        }
    }

    /// Walks boxes, bounded, collecting what is damaged.
    struct Walker {
        let file: PhotoFile
        /// What the file is called in sentences: "video", or "CR3 raw" for Canon's.
        let noun: String
        var diagnostics: [Diagnostic] = []
        private var walked = 0
        private var stopped = false
        /// Whether a box running past the end of the file has been said.
        private var saidCutShort = false

        init(file: PhotoFile, noun: String = "video") {
            self.file = file
            self.noun = noun
        }

        /// The boxes in `range`, reading only their headers, up to the first of type `until` when
        /// one is named. A box that does not fit is reported and ends the walk of its level (what
        /// follows it cannot be found).
        mutating func children(of range: Range<Int>, depth: Int, parent: String, until last: String? = nil) -> [MediaBox] {
            guard depth <= QuickTimeReader.maximumDepth else {
                report("the \(noun)'s boxes nest deeper than \(QuickTimeReader.maximumDepth) levels inside \(parent); the rest was not read")
                return []
            }
            var boxes: [MediaBox] = []
            var position = range.lowerBound
            while position < range.upperBound, !stopped {
                walked += 1
                guard walked <= QuickTimeReader.maximumBoxes else {
                    report("the \(noun) has more than \(QuickTimeReader.maximumBoxes) boxes; stopped reading")
                    stopped = true
                    break
                }
                let bytes = Array(file.bytes(at: position, count: min(16, range.upperBound - position)))
                let header = MediaBox.header(bytes)
                guard case .box(let type, let written, let headerLength) = header else {
                    if case .largeSizeCut(let type) = header {
                        report("the \(noun)'s box \(MediaBox.name(type)) at byte \(position) has a 64-bit size cut short (truncated file)")
                    } else if !(bytes.allSatisfy { $0 == 0 } && bytes.count == 4) {
                        // 1 to 7 bytes left, but for the padding some writers leave at the end of
                        // udta (a 32-bit zero).
                        report("the \(noun) ends in the middle of a box header at byte \(position) inside \(parent) (truncated file)")
                    }
                    break
                }
                // The size as written, for the sentence; a 64-bit one is capped, and size 0 runs
                // "to the end of the file" (14496-12 4.2).
                let claimed = written.map(String.init) ?? "0"
                let size = written.map { $0 > UInt64(Int.max / 2) ? Int.max / 2 : Int($0) } ?? (range.upperBound - position)
                if written == nil, depth > 0 {
                    // Size 0, "to the end of the file", is for a file's last box only (14496-12
                    // 4.2). Inside another box it would hide what follows; eight zero bytes are
                    // padding.
                    if type != [0, 0, 0, 0] {
                        report("the \(noun)'s box \(MediaBox.name(type)) at byte \(position) inside \(parent) has size 0, which only a file's last box may have; the rest of \(parent) was not read")
                    }
                    break
                }
                if size < headerLength {
                    report("the \(noun)'s box \(MediaBox.name(type)) at byte \(position) inside \(parent) has size \(size), smaller than its header; the rest of \(parent) was not read")
                    break
                }
                var end = position + size
                let cut = end > range.upperBound
                if cut {
                    // Once the file is said to be cut short, the boxes around the cut inside
                    // the one said are not said again.
                    if !(range.upperBound == file.size && saidCutShort) {
                        report("the \(noun)'s box \(MediaBox.name(type)) at byte \(position) claims \(claimed) bytes, past the end of \(parent) at byte \(range.upperBound) (truncated or damaged file)")
                    }
                    saidCutShort = saidCutShort || range.upperBound == file.size
                    end = range.upperBound
                }
                boxes.append(MediaBox(type: type, start: position, headerLength: headerLength, end: end, cut: cut))
                if let last, boxes[boxes.count - 1].is(last) { break }
                position = end
            }
            return boxes
        }

        /// The file's top-level boxes after `position` (after `moov`), eight at most, by their
        /// headers alone: one running past the end of the file is said, as a copy stopped in
        /// the picture data after a `moov` at the front, which the walk to `moov` never reaches.
        /// A fragmented MP4's thousands of fragments are not walked.
        mutating func checkEnd(after position: Int) {
            var position = position
            for _ in 0..<8 where position < file.size && !saidCutShort {
                let bytes = Array(file.bytes(at: position, count: min(16, file.size - position)))
                let header = MediaBox.header(bytes)
                guard case .box(let type, let written?, let headerLength) = header, written >= UInt64(headerLength) else {
                    // Four zero bytes at the end are padding (as at the end of udta); size 0
                    // runs to the end; a size smaller than its header is damage past the
                    // metadata, not a copy's end.
                    var cutInHeader = !(bytes.count == 4 && bytes.allSatisfy { $0 == 0 })
                    if case .box = header { cutInHeader = false }
                    if cutInHeader {
                        report("the \(noun) is cut short in the middle of a box header at byte \(position) (a copy stopped part-way?); its metadata was read, but it may play only in part")
                    }
                    return
                }
                guard written <= UInt64(file.size - position) else {
                    // A type that is no four printable characters is no box: a trailer some
                    // cameras append after the movie, not a copy's end.
                    guard type.allSatisfy({ (0x20...0x7E).contains($0) }) else { return }
                    report("the \(noun) is cut short: its box \(MediaBox.name(type)) at byte \(position) claims \(written) bytes, past the end of the file at byte \(file.size) "
                           + "(a copy stopped part-way?); its metadata was read, but it may play only in part")
                    saidCutShort = true
                    return
                }
                position += Int(written)
            }
        }

        /// At most `limit` bytes of a box's body.
        func body(of box: MediaBox, limit: Int) -> [UInt8] {
            Array(file.bytes(at: box.body.lowerBound, count: min(box.body.count, limit)))
        }

        /// A metadata body read whole, or nil when it is larger than any real one (said) or
        /// cut short (its box said to run past its parent): a value cut short is never read as
        /// one, as `-33.8688+151` for `-33.8688+151.2093/`.
        mutating func wholeBody(of box: MediaBox, in parent: String) -> [UInt8]? {
            guard !box.cut else { return nil }
            guard box.body.count <= QuickTimeReader.maximumMetadataBody else {
                report("the \(noun)'s \(box.name) box in \(parent) is \(box.body.count) bytes, larger than metadata can be; not read")
                return nil
            }
            let bytes = body(of: box, limit: box.body.count)
            guard bytes.count == box.body.count else {
                report("the \(noun) ends inside its \(box.name) box (truncated file)")
                return nil
            }
            return bytes
        }

        mutating func report(_ sentence: String) {
            diagnostics.append(Diagnostic(.damaged, sentence))
        }

        /// `udta` (QuickTime user data): `©xyz`, `©mak`, `©mod` as international text, the 3GPP
        /// `loci` box, and a `meta` with Apple's keys (some writers put it here).
        mutating func readUserData(_ userData: MediaBox, depth: Int, into found: inout Found) {
            for box in children(of: userData.body, depth: depth, parent: "'udta'") {
                if box.is("meta") {
                    readAppleMetadata(box, depth: depth + 1, into: &found)
                    continue
                }
                let text = box.type.first == 0xA9 ? Array(box.type.dropFirst()) : []
                guard text.elementsEqual("xyz".utf8) || text.elementsEqual("mak".utf8) || text.elementsEqual("mod".utf8) || box.is("loci") else { continue }
                guard let body = wholeBody(of: box, in: "'udta'") else { continue }
                if box.is("loci") {
                    readLocationInformation(body, into: &found)
                } else if let value = Self.internationalText(body) {
                    if text.elementsEqual("xyz".utf8) { found.userDataLocation = found.userDataLocation ?? value }
                    if text.elementsEqual("mak".utf8) { found.userDataMake = found.userDataMake ?? value }
                    if text.elementsEqual("mod".utf8) { found.userDataModel = found.userDataModel ?? value }
                } else {
                    report("the video's \(box.name) text is cut short or malformed; not read")
                }
            }
        }

        /// QuickTime international text (QTFF "User data text strings"): a 16-bit length, a 16-bit
        /// language code, then the text. Some writers omit the header and write bare text.
        static func internationalText(_ body: [UInt8]) -> String? {
            guard body.count >= 4 else { return nil }
            let length = Int(body[0]) << 8 | Int(body[1])
            guard 4 + length <= body.count else { return nil }
            let bytes = body[4..<(4 + length)]
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }

        /// 3GPP `loci` (3GPP TS 26.244 8.10): FullBox header, language, a NUL-terminated name,
        /// role, then longitude, latitude and altitude as signed 16.16 fixed point.
        mutating func readLocationInformation(_ body: [UInt8], into found: inout Found) {
            guard body.count >= 6 else {
                report("the video's 'loci' box is too short; its position was not read")
                return
            }
            var position = 6
            // The name is UTF-8, or UTF-16 after a byte-order mark, and ends with a NUL of its width.
            if body.count >= position + 2, body[position] == 0xFE, body[position + 1] == 0xFF {
                position += 2
                while position + 1 < body.count, body[position] != 0 || body[position + 1] != 0 { position += 2 }
                position += 2
            } else {
                while position < body.count, body[position] != 0 { position += 1 }
                position += 1
            }
            position += 1  // role
            guard position + 12 <= body.count else {
                report("the video's 'loci' box ends before its position; not read")
                return
            }
            func fixed(_ at: Int) -> Double { Double(Int32(bitPattern: UInt32(Bytes.bigEndian(body[at..<(at + 4)])))) / 65536 }
            let longitude = fixed(position), latitude = fixed(position + 4), altitude = fixed(position + 8)
            guard abs(latitude) <= 90, abs(longitude) <= 180 else {
                diagnostics.append(Diagnostic(.positionIgnored, "the video's 'loci' position \(latitude), \(longitude) is out of range; not used"))
                return
            }
            found.loci = found.loci ?? Coordinate(latitude: latitude, longitude: longitude)
            found.lociAltitude = found.lociAltitude ?? altitude
        }

        /// A QuickTime `meta` box with an `mdta` handler: `keys` names the items, `ilst` holds them
        /// by 1-based key index, each value in a `data` box (QTFF "Metadata").
        mutating func readAppleMetadata(_ meta: MediaBox, depth: Int, into found: inout Found) {
            // QuickTime's meta is a plain box; ISO's is a FullBox with 4 more bytes before its
            // children. Which one this is shows in whether `hdlr` follows at once.
            let start = Array(file.bytes(at: meta.body.lowerBound, count: 8))
            let offset = start.count == 8 && start[4..<8].elementsEqual("hdlr".utf8) ? 0 : 4
            guard meta.body.count >= offset else { return }
            let boxes = children(of: (meta.body.lowerBound + offset)..<meta.body.upperBound, depth: depth, parent: "'meta'")
            guard let handler = boxes.first(where: { $0.is("hdlr") }),
                  body(of: handler, limit: 12).dropFirst(8).elementsEqual("mdta".utf8),
                  let keysBox = boxes.first(where: { $0.is("keys") }), let list = boxes.first(where: { $0.is("ilst") }),
                  let keyBytes = wholeBody(of: keysBox, in: "'meta'")
            else { return }
            var keys: [String] = []
            var position = 8  // version and flags, entry count
            let count = keyBytes.count >= 8 ? Bytes.bigEndian(keyBytes[4..<8]) : 0
            while keys.count < count, position + 8 <= keyBytes.count {
                let size = Bytes.bigEndian(keyBytes[position..<(position + 4)])
                guard size >= 8, position + size <= keyBytes.count else {
                    report("the video's 'keys' box has an entry that does not fit it; the rest of its keys were not read")
                    break
                }
                keys.append(String(decoding: keyBytes[(position + 8)..<(position + size)], as: UTF8.self))
                position += size
            }
            for item in children(of: list.body, depth: depth + 1, parent: "'ilst'") {
                let index = Bytes.bigEndian(item.type[...])
                guard index >= 1, index <= keys.count else { continue }
                let key = keys[index - 1]
                guard Self.wantedKeys.contains(key) else { continue }
                guard let data = children(of: item.body, depth: depth + 2, parent: "an 'ilst' item").first(where: { $0.is("data") }),
                      let value = wholeBody(of: data, in: "'ilst'"), value.count >= 8
                else { continue }
                // Type 1 is UTF-8 (QTFF well-known types); the values wanted are all text.
                guard Bytes.bigEndian(value[0..<4]) & 0x00FF_FFFF == 1 else { continue }
                // Some writers end the text with a NUL or spaces, as EXIF's ASCII does.
                let text = String(decoding: value[8...], as: UTF8.self).trimmingCharacters()
                switch key {
                case "com.apple.quicktime.location.ISO6709": found.appleLocation = found.appleLocation ?? text
                case "com.apple.quicktime.creationdate": found.appleCreationDate = found.appleCreationDate ?? text
                case "com.apple.quicktime.make": found.appleMake = found.appleMake ?? text
                case "com.apple.quicktime.model": found.appleModel = found.appleModel ?? text
                default: found.contentIdentifier = found.contentIdentifier ?? text
                }
            }
        }

        static let wantedKeys: Set<String> = [
            "com.apple.quicktime.location.ISO6709", "com.apple.quicktime.creationdate", "com.apple.quicktime.make",
            "com.apple.quicktime.model", "com.apple.quicktime.content.identifier",
        ]
    }
}

/// Big-endian integers from bytes.
enum Bytes {
    /// The unsigned big-endian value of up to 8 bytes (values past Int.max wrap to negative,
    /// which every caller treats as out of range).
    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        var value: UInt64 = 0
        for byte in bytes.prefix(8) { value = value << 8 | UInt64(byte) }
        return Int(truncatingIfNeeded: value)
    }
}
