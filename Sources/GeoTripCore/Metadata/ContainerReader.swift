/// The EXIF block of one photo, ready for libexif, and where it sat in the file.
struct ExifBlock {
    /// `Exif\0\0` followed by the TIFF structure: the form libexif loads without searching.
    var bytes: [UInt8]
    /// Absolute file offset of the TIFF header, when the container tells it (not for HEIF
    /// items, whose position libheif hides), so thumbnail offsets can be made absolute.
    var tiffOffsetInFile: Int?
}

/// What a container yields before any EXIF value is decoded.
struct ContainerContents {
    var exif: ExifBlock?
    /// The photo's main XMP packet as stored (JPEG APP1, HEIF `mime` item, TIFF tag 700), for
    /// `XMPDecoder`; nil when the file has none.
    var xmpPacket: [UInt8]?
    /// Extended XMP (JPEG only; XMP Specification Part 3, 1.1.3.1), by GUID. The main packet's
    /// `xmpNote:HasExtendedXMP` says which, if any, belongs to it.
    var extendedXMP: [String: ExtendedXMP] = [:]
    var width: Int?
    var height: Int?
    /// The EXIF thumbnail, when the container locates it itself (TIFF, whose compact block
    /// no longer holds the original offsets).
    var thumbnail: ThumbnailLocation?
    /// A key of the pixels, for naming the photo's thumbnail (`ThumbnailMaker`): the same
    /// while only the metadata changes. JPEG only; nil for other formats.
    var pixelKey: UInt64?
    var diagnostics: [Diagnostic] = []
}

/// One extended XMP packet, reassembled from the JPEG APP1 chunks that carry its GUID.
struct ExtendedXMP {
    /// The length all its chunks declare.
    var fullLength: Int
    /// The reassembled bytes (zero where no chunk arrived).
    var bytes: [UInt8]
    /// Byte ranges the chunks covered, for telling a complete packet from a cut one.
    var received: [Range<Int>] = []
    /// Why the chunks cannot be reassembled, once one is inconsistent.
    var problem: String?

    /// Whether every byte arrived.
    var isComplete: Bool {
        guard problem == nil else { return false }
        var covered = 0
        for range in received.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            guard range.lowerBound <= covered else { return false }
            covered = max(covered, range.upperBound)
        }
        return covered == fullLength
    }
}

/// A file whose container is too damaged to read any metadata from.
struct UnreadableContainer: Error {
    var reason: String
}

/// Takes the EXIF block and pixel size out of each container, reading as few bytes as it can.
enum ContainerReader {
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// libexif caps the block it is given at 0xFFFE bytes, `Exif\0\0` header included (a JPEG
    /// APP1 segment cannot be longer), so it reaches 0xFFF8 bytes of TIFF and no more is worth
    /// handing it. (TIFF files get a compact block instead; see `TIFFDirectoryReader`.)
    static let libexifReach = 0xFFF8
    /// The APP1 signature of the main XMP packet (XMP Specification Part 3, 1.1.3).
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The APP1 signature of an extended XMP chunk, followed by a 32-byte GUID, the full length
    /// and this chunk's offset (big-endian 32-bit each), then the chunk.
    static let extendedXMPHeader: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    static func contents(of file: PhotoFile, format: ImageFormat, path: [CChar]) throws(UnreadableContainer) -> ContainerContents {
        switch format {
        case .jpeg: return try jpeg(file)
        case .tiff: return try tiff(file)
        case .png: return try png(file)
        // libheif opens the file itself: the one checked, not the name again (`openedPath`).
        case .heif: return try HeifExifExtractor.contents(path: file.openedPath(else: path))
        case .cr3: return try cr3(file)
        // Videos carry no EXIF block; MetadataReader reads them with QuickTimeReader.
        case .video: return ContainerContents()
        }
    }

    // MARK: JPEG

    /// Walks the marker segments from SOI (ITU T.81 annex B) until the first SOF, reading
    /// only segment headers, plus the whole body of the first APP1 `Exif` segment, of the
    /// first APP1 XMP packet and of the extended XMP chunks.
    private static func jpeg(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        var contents = ContainerContents()
        var position = 2
        // A bound on segments so a crafted file cannot keep the reader walking.
        for _ in 0..<512 {
            let header = Array(file.bytes(at: position, count: 4))
            guard header.count >= 2 else {
                if contents.exif == nil && contents.xmpPacket == nil && contents.width == nil {
                    throw UnreadableContainer(reason: "the JPEG ends at byte \(file.size) before any metadata (truncated file)")
                }
                contents.diagnostics.append(Diagnostic(.damaged, "the JPEG ends at byte \(file.size) before its image data (truncated file)"))
                return contents
            }
            guard header[0] == 0xFF else {
                let problem = "the JPEG structure is broken at byte \(position) (expected a marker)"
                if contents.exif == nil && contents.xmpPacket == nil { throw UnreadableContainer(reason: problem) }
                contents.diagnostics.append(Diagnostic(.damaged, problem))
                return contents
            }
            let marker = header[1]
            if marker == 0xFF { position += 1; continue }  // fill byte before a marker
            if marker == 0xD9 || marker == 0xDA { return contents }  // EOI, SOS: no more headers
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }  // no length
            guard header.count == 4 else {
                throw UnreadableContainer(reason: "the JPEG ends inside a segment header at byte \(position) (truncated file)")
            }
            let length = Int(header[2]) << 8 | Int(header[3])
            guard length >= 2 else {
                throw UnreadableContainer(reason: "the JPEG segment at byte \(position) has an impossible length \(length)")
            }
            let bodyStart = position + 4, bodyLength = length - 2
            if marker == 0xE1 {
                let prefix = Array(file.bytes(at: bodyStart, count: min(bodyLength, extendedXMPHeader.count)))
                if contents.exif == nil && prefix.starts(with: exifHeader) {
                    let body = file.bytes(at: bodyStart, count: bodyLength)
                    guard body.count == bodyLength else {
                        throw UnreadableContainer(reason: "the file ends inside its Exif segment (\(body.count) of \(bodyLength) bytes present; truncated file)")
                    }
                    contents.exif = ExifBlock(bytes: Array(body), tiffOffsetInFile: bodyStart + 6)
                } else if prefix.starts(with: exifHeader) {
                    // exiftool reads on into a second one; EXIF (and libexif) know only one.
                    contents.diagnostics.append(Diagnostic(.valueIgnored, "a second Exif segment (at byte \(position)) was not read; the first one's values are used"))
                } else if contents.xmpPacket == nil && prefix.starts(with: xmpHeader) {
                    let body = Array(file.bytes(at: bodyStart + xmpHeader.count, count: bodyLength - xmpHeader.count))
                    if body.count == bodyLength - xmpHeader.count {
                        contents.xmpPacket = body
                    } else {
                        contents.diagnostics.append(Diagnostic(.damaged, "the file ends inside its XMP segment (truncated file); its XMP was not read"))
                    }
                } else if prefix.elementsEqual(extendedXMPHeader) {
                    addExtendedXMPChunk(file, at: bodyStart + extendedXMPHeader.count,
                                        length: bodyLength - extendedXMPHeader.count, to: &contents)
                }
            } else if isStartOfFrame(marker) {
                let frame = Array(file.bytes(at: bodyStart, count: 5))
                if frame.count == 5 {
                    contents.height = Int(frame[1]) << 8 | Int(frame[2])
                    contents.width = Int(frame[3]) << 8 | Int(frame[4])
                }
                contents.pixelKey = pixelKey(file, frame: Array(file.bytes(at: bodyStart, count: bodyLength)), from: bodyStart + bodyLength)
                return contents
            }
            position = bodyStart + bodyLength
        }
        contents.diagnostics.append(Diagnostic(.damaged, "the JPEG has more than 512 segments before its image; stopped reading"))
        return contents
    }

    /// How many bytes of the entropy-coded data `pixelKey` hashes.
    static let pixelKeyReach = 4096

    /// A key of a JPEG's pixels (`ContainerContents.pixelKey`): the fingerprint of the frame
    /// header (`frame`, the SOF segment's body), the scan header and the first
    /// `pixelKeyReach` bytes of entropy-coded data after it, with the length from the scan to
    /// the file's end. Found by walking on from the frame header (`position`, just after it)
    /// past the tables to the first SOS, header by header; nil when the walk does not get
    /// there (a damaged or truncated file, told by no sentence: the metadata was read). What
    /// lies before the frame (EXIF, XMP) is not in it, so editing the metadata in another
    /// program keeps the key.
    private static func pixelKey(_ file: PhotoFile, frame: [UInt8], from start: Int) -> UInt64? {
        var position = start
        for _ in 0..<64 {
            let header = Array(file.bytes(at: position, count: 4))
            guard header.count == 4, header[0] == 0xFF else { return nil }
            let marker = header[1]
            if marker == 0xFF { position += 1; continue }
            guard marker != 0xD9, marker != 0x01, !(0xD0...0xD7).contains(marker) else { return nil }
            let length = Int(header[2]) << 8 | Int(header[3])
            guard length >= 2 else { return nil }
            if marker == 0xDA {
                let scan = file.bytes(at: position, count: length + 2 + pixelKeyReach)
                guard scan.count > length + 2 else { return nil }
                return Fingerprint.value(frame + scan, fileSize: file.size - position)
            }
            position += 2 + length
        }
        return nil
    }

    /// Extended XMP packets kept at the most, and their bytes in all: a crafted file cannot make
    /// the reader hold more than this.
    static let extendedXMPLimit = (packets: 4, bytes: XMPDecoder.maximumPacketSize)

    /// Whether `needle` occurs in `haystack`.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// Adds one extended XMP chunk (GUID, full length, offset, bytes) to its packet.
    private static func addExtendedXMPChunk(_ file: PhotoFile, at start: Int, length: Int, to contents: inout ContainerContents) {
        let header = Array(file.bytes(at: start, count: 40))
        guard length > 40, header.count == 40 else {
            contents.diagnostics.append(Diagnostic(.damaged, "an extended XMP segment is too short to hold its GUID, length and offset; ignored"))
            return
        }
        let guid = String(decoding: header[0..<32], as: UTF8.self)
        func number(_ at: Int) -> Int { Int(header[at]) << 24 | Int(header[at + 1]) << 16 | Int(header[at + 2]) << 8 | Int(header[at + 3]) }
        let fullLength = number(32), offset = number(36), chunkLength = length - 40
        // The main packet comes first (XMP Specification Part 3, 1.1.3.1) and names its
        // extension's GUID: chunks of other GUIDs (left by editors) are no part of this photo's
        // XMP, and take nothing from the limits.
        if let main = contents.xmpPacket, !main.isEmpty, !Self.contains(main, Array(header[0..<32])) { return }
        if contents.extendedXMP[guid] == nil {
            let held = contents.extendedXMP.values.reduce(0) { $0 + $1.fullLength }
            guard contents.extendedXMP.count < extendedXMPLimit.packets else {
                contents.extendedXMP[guid] = ExtendedXMP(fullLength: 0, bytes: [],
                    problem: "the file holds more than \(extendedXMPLimit.packets) extended XMP packets, and this one came after them")
                return
            }
            guard held + fullLength <= extendedXMPLimit.bytes else {
                contents.extendedXMP[guid] = ExtendedXMP(fullLength: 0, bytes: [],
                    problem: "it declares \(fullLength) bytes, beyond the \(extendedXMPLimit.bytes >> 20) MiB of extended XMP geotrip reads")
                return
            }
            contents.extendedXMP[guid] = ExtendedXMP(fullLength: fullLength, bytes: [UInt8](repeating: 0, count: fullLength))
        }
        guard var packet = contents.extendedXMP[guid], packet.problem == nil else { return }
        defer { contents.extendedXMP[guid] = packet }
        guard packet.fullLength == fullLength else {
            packet.problem = "its chunks disagree on its length (\(packet.fullLength) and \(fullLength) bytes)"
            return
        }
        guard offset <= fullLength, chunkLength <= fullLength - offset else {
            packet.problem = "a chunk at offset \(offset) of \(chunkLength) bytes runs past its declared length of \(fullLength) bytes"
            return
        }
        let chunk = Array(file.bytes(at: start + 40, count: chunkLength))
        guard chunk.count == chunkLength else {
            packet.problem = "the file ends inside one of its chunks (truncated file)"
            return
        }
        packet.bytes.replaceSubrange(offset..<offset + chunkLength, with: chunk)
        packet.received.append(offset..<offset + chunkLength)
    }

    /// SOF0...SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    // MARK: TIFF

    /// A TIFF-based file is its own EXIF structure, with directories anywhere in it: see
    /// `TIFFDirectoryReader`.
    private static func tiff(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        let found = try TIFFDirectoryReader.read(file)
        return ContainerContents(exif: found.block, xmpPacket: found.xmp, thumbnail: found.thumbnail, diagnostics: found.diagnostics)
    }

    /// The EXIF block of an EXIF item or chunk whose TIFF structure is in memory: as it is when
    /// libexif reaches all of it, else the compact block of `TIFFDirectoryReader`.
    static func takeExif(_ tiff: TIFFBytesInMemory, tiffOffsetInFile: Int?, into contents: inout ContainerContents) {
        guard tiff.size > libexifReach else {
            contents.exif = ExifBlock(bytes: exifHeader + tiff.storage, tiffOffsetInFile: tiffOffsetInFile)
            return
        }
        do {
            let found = try TIFFDirectoryReader.read(tiff, tiffOffsetInFile: tiffOffsetInFile)
            contents.exif = found.block
            contents.thumbnail = found.thumbnail
            contents.diagnostics += found.diagnostics
        } catch {
            contents.diagnostics.append(Diagnostic(.damaged, error.reason))
        }
    }

    // MARK: CR3

    /// Canon's uuid box in `moov` that holds the CMT boxes.
    private static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// Walks the box headers to `moov/uuid` (Canon's) and reads its `CMT1`, `CMT2` and `CMT4`
    /// boxes, each a small TIFF structure: IFD0, the Exif directory and the GPS directory.
    private static func cr3(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        var walker = QuickTimeReader.Walker(file: file, noun: "CR3 raw")
        var contents = try cr3(file, walker: &walker)
        contents.diagnostics = walker.diagnostics + contents.diagnostics
        return contents
    }

    private static func cr3(_ file: PhotoFile, walker: inout QuickTimeReader.Walker) throws(UnreadableContainer) -> ContainerContents {
        var contents = ContainerContents()
        guard let movie = walker.children(of: 0..<file.size, depth: 0, parent: "the file", until: "moov").last(where: { $0.is("moov") }) else {
            throw UnreadableContainer(reason: (walker.diagnostics.last.map { $0.message + "; " } ?? "") + "the CR3 raw has no 'moov' box, which holds its metadata (truncated file)")
        }
        let canon = walker.children(of: movie.body, depth: 1, parent: "'moov'").first { box in
            box.is("uuid") && walker.body(of: box, limit: 16) == canonUUID
        }
        guard let canon else {
            contents.diagnostics.append(Diagnostic(.noExif, "the CR3 raw has no Canon metadata box (moov/uuid with the CMT boxes)"))
            return contents
        }
        var blocks: [String: TIFFBytesInMemory] = [:]
        for box in walker.children(of: (canon.body.lowerBound + 16)..<canon.body.upperBound, depth: 2, parent: "Canon's 'uuid'") {
            if box.is("CMT1") || box.is("CMT2") || box.is("CMT4"), let body = walker.wholeBody(of: box, in: "Canon's 'uuid'") {
                blocks[String(decoding: box.type, as: UTF8.self)] = TIFFBytesInMemory(storage: body[...])
            } else if box.is("THMB") {
                contents.thumbnail = canonThumbnail(box, walker.body(of: box, limit: 32))
            }
        }
        guard let ifd0 = blocks["CMT1"] else {
            contents.diagnostics.append(Diagnostic(.noExif, "the CR3 raw's Canon metadata box has no CMT1 box (IFD0)"))
            return contents
        }
        do {
            let found = try TIFFDirectoryReader.readCanon(ifd0: ifd0, exif: blocks["CMT2"], gps: blocks["CMT4"])
            contents.exif = found.block
            contents.diagnostics += found.diagnostics
        } catch {
            contents.diagnostics.append(Diagnostic(.damaged, error.reason))
        }
        return contents
    }

    /// The 160 x 120 JPEG of a CR3's `THMB` box: after a 16-byte header (version and flags,
    /// width, height, the JPEG's length, two reserved words), as exiftool reads it.
    private static func canonThumbnail(_ box: MediaBox, _ head: [UInt8]) -> ThumbnailLocation? {
        guard head.count >= 18, head[16] == 0xFF, head[17] == 0xD8 else { return nil }
        let length = Bytes.bigEndian(head[8..<12])
        let start = box.body.lowerBound + 16
        guard length > 0, start + length <= box.end else { return nil }
        return ThumbnailLocation(offset: start, length: length)
    }

    // MARK: PNG

    /// Walks PNG chunks (PNG 3rd edition, section 5.3) for IHDR, eXIf and the XMP `iTXt` chunk
    /// before it, reading headers only (XMP after eXIf would only fill what EXIF has anyway).
    private static func png(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        var contents = ContainerContents()
        var position = 8
        var type = ""
        for _ in 0..<100_000 {
            let header = Array(file.bytes(at: position, count: 8))
            guard header.count == 8 else {
                throw UnreadableContainer(reason: "the PNG ends at byte \(file.size) before its IEND chunk and no eXIf chunk was found (truncated file)")
            }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            type = String(decoding: header[4...7], as: UTF8.self)
            let bodyStart = position + 8
            switch type {
            case "IHDR":
                let body = Array(file.bytes(at: bodyStart, count: 8))
                if body.count == 8 {
                    let width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                    let height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                    // Each is 1 to 2^31 - 1 (PNG, 11.2.2): anything else is a damaged header.
                    if (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) {
                        (contents.width, contents.height) = (width, height)
                    } else {
                        contents.diagnostics.append(Diagnostic(.damaged, "the PNG's IHDR chunk gives a size of \(width) x \(height), "
                                                               + "outside 1 to 2,147,483,647 a side; no size recorded"))
                    }
                }
            case "eXIf":
                let body = file.bytes(at: bodyStart, count: length)
                guard body.count == length else {
                    throw UnreadableContainer(reason: "the file ends inside its eXIf chunk (truncated file)")
                }
                // Some writers wrongly keep the JPEG-style `Exif\0\0` prefix inside eXIf.
                let prefixed = body.starts(with: exifHeader)
                takeExif(TIFFBytesInMemory(storage: prefixed ? body.dropFirst(6) : body),
                         tiffOffsetInFile: bodyStart + (prefixed ? 6 : 0), into: &contents)
                return contents
            case "iTXt" where contents.xmpPacket == nil:
                // XMP (XMP Specification Part 3, 1.1.5): keyword `XML:com.adobe.xmp`, then the
                // compression flag and method, an empty language tag and translated keyword,
                // each ended by a NUL, then the packet, uncompressed as the specification asks.
                let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
                guard Array(file.bytes(at: bodyStart, count: keyword.count)) == keyword else { break }
                guard length <= XMPDecoder.maximumPacketSize else {
                    contents.diagnostics.append(Diagnostic(.damaged, "the PNG's XMP chunk is \(length.grouped) bytes, more than the "
                                                           + "\(XMPDecoder.maximumPacketSize >> 20) MiB geotrip reads; not read"))
                    break
                }
                let body = Array(file.bytes(at: bodyStart, count: length))
                guard body.count == length else {
                    throw UnreadableContainer(reason: "the file ends inside its XMP chunk (truncated file)")
                }
                var rest = body.dropFirst(keyword.count)
                guard rest.count >= 2 else { break }
                let compressed = rest[rest.startIndex] != 0
                rest = rest.dropFirst(2)
                // The language tag and the translated keyword.
                for _ in 0..<2 {
                    guard let end = rest.firstIndex(of: 0) else { rest = []; break }
                    rest = rest[(end + 1)...]
                }
                if compressed {
                    contents.diagnostics.append(Diagnostic(.valueIgnored, "the PNG's XMP is compressed, which the XMP specification does not allow; not read"))
                } else if !rest.isEmpty {
                    contents.xmpPacket = Array(rest)
                }
            case "IEND":
                return contents
            default:
                break
            }
            position = bodyStart + length + 4  // + CRC
        }
        // A very large picture's data can run to this many chunks (libpng writes 8 KiB ones):
        // a PNG whose EXIF, if any, comes after it is taken for one without. Any other run of
        // so many chunks is no picture's (an animated one has two a frame): said.
        if type == "IDAT" { return contents }
        throw UnreadableContainer(reason: "the PNG has more than 100,000 chunks before its end or an eXIf chunk; geotrip reads no further")
    }
}
