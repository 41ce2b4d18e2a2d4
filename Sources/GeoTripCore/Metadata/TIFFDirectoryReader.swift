/// Reads the directories a photo needs from a TIFF-based file wherever they sit, and hands
/// libexif a compact TIFF block made of them.
///
/// libexif decodes a block of at most 64 KiB, but TIFF writers put directories anywhere:
/// libtiff, scanners and drones write IFD0 after the image data at the end of the file, and raws
/// put the Exif or GPS directory megabytes in. So the directories are read where they are, with
/// `pread` (`PhotoFile.bytes`), and rewritten into a small TIFF whose offsets point inside it:
/// IFD0, its Exif and GPS directories, and of each only the tags geotrip decodes. libexif still
/// decodes every value, with its own type rules, so a TIFF is read exactly like the EXIF of a JPEG.
///
/// The walk is bounded: a directory of more than `maximumEntries` entries, a directory or value
/// past the end of the file, a pointer back into a directory already read (a loop) and a value
/// larger than `maximumValueBytes` are each a diagnostic and are left out, never followed.
struct TIFFDirectoryReader {
    /// The largest XMP packet read from tag 700; editors' packets with history run to a few
    /// hundred KiB.
    static let maximumXMPBytes = 4 << 20
    /// TIFF 6.0 sets no limit, but real directories hold a few hundred entries at most.
    static let maximumEntries = 1_000
    /// The tags kept are dates, names and GPS values: a few dozen bytes each.
    static let maximumValueBytes = 4_096

    /// What the walk found.
    struct Result {
        /// `Exif\0\0` + the compact TIFF, or nil when IFD0 could not be read.
        var block: ExifBlock?
        /// The IFD1 JPEG thumbnail, as absolute offsets in the file, when it lies within the file.
        var thumbnail: ThumbnailLocation?
        /// The XMP packet of IFD0's tag 700, when there is one.
        var xmp: [UInt8]?
        var diagnostics: [Diagnostic] = []
    }

    /// Why nothing at all could be read: the header or IFD0 is unusable.
    typealias Failure = UnreadableContainer

    private let file: any TIFFBytes
    private let order: TIFFByteOrder
    private var bigEndian: Bool { order.bigEndian }
    private var visited: Set<Int> = []
    /// Bytes of out-of-entry values one reader may still put in a compact block: with the
    /// directories (a few hundred bytes) and up to three readers (a CR3's), within libexif's reach.
    private var valueBudget = 20_000
    private var diagnostics: [Diagnostic] = []

    /// Tags kept from IFD0, the Exif and the GPS directories: what `ExifDecoder` reads.
    /// DateTimeOriginal and its fraction and offset (0x9003, 0x9291, 0x9011) too, where some
    /// tools write them in IFD0 (`ExifDecoder.captureTime`).
    private static let keptIFD0: Set<UInt16> = [0x0100, 0x0101, 0x010F, 0x0110, 0x0112, 0x0132, 0x9003, 0x9011, 0x9291]
    private static let keptExif: Set<UInt16> = [0x9003, 0x9004, 0x9010, 0x9011, 0x9012, 0x9290, 0x9291, 0x9292, 0xA002, 0xA003]
    private static let keptGPS: Set<UInt16> = [0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x001D]

    /// Reads the TIFF structure in `file`, whose header is at its byte 0 (a TIFF-based file, or
    /// the TIFF part of a HEIF or PNG EXIF block too long for libexif). `tiffOffsetInFile` makes
    /// the thumbnail's location absolute; without it no thumbnail is located. The magic number
    /// is not checked (raw makers use their own); the compact block carries TIFF's 42, which is
    /// what libexif expects.
    static func read(_ file: any TIFFBytes, tiffOffsetInFile: Int? = 0) throws(Failure) -> Result {
        let header = Array(file.bytes(at: 0, count: 8))
        guard header.count == 8 else { throw Failure(reason: "the TIFF file ends inside its 8-byte header (truncated file)") }
        let bigEndian: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw Failure(reason: "the TIFF header has no byte-order mark")
        }
        var reader = TIFFDirectoryReader(file: file, bigEndian: bigEndian)
        var result = try reader.run(ifd0: Int(reader.u32(header, 4)))
        if let base = tiffOffsetInFile, let thumbnail = result.thumbnail {
            result.thumbnail = ThumbnailLocation(offset: base + thumbnail.offset, length: thumbnail.length)
        } else {
            result.thumbnail = nil
        }
        return result
    }

    private init(file: any TIFFBytes, bigEndian: Bool) {
        self.file = file
        self.order = TIFFByteOrder(bigEndian: bigEndian)
    }

    /// An entry with its value when the value lies outside the entry.
    private typealias ValuedEntry = (entry: RawEntry, value: [UInt8]?)

    /// One entry as the file has it; `field` is the raw 4-byte value-or-offset field.
    private struct RawEntry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var field: [UInt8]
    }

    /// A directory read from the file.
    private struct Directory {
        var entries: [RawEntry]
        /// The offset of the next directory (IFD0 -> IFD1), 0 at the end of the chain.
        var next: Int
    }

    private mutating func run(ifd0 offset: Int) throws(Failure) -> Result {
        guard let ifd0 = directory(at: offset, name: "first directory (IFD0)") else {
            throw Failure(reason: diagnostics.last?.message ?? "the TIFF's first directory cannot be read")
        }
        var exif: Directory?, gps: Directory?
        for entry in ifd0.entries where entry.tag == TIFFStructure.Tag.exifPointer || entry.tag == TIFFStructure.Tag.gpsPointer {
            let isGPS = entry.tag == TIFFStructure.Tag.gpsPointer
            guard let pointer = pointer(entry) else {
                diagnostics.append(Diagnostic(isGPS ? .positionIgnored : .valueIgnored,
                    "the \(isGPS ? "GPS" : "Exif") directory pointer has type \(entry.type) and count \(entry.count), not one offset; its values were not read"))
                continue
            }
            let found = directory(at: pointer, name: isGPS ? "GPS directory" : "Exif directory", kind: isGPS ? .positionIgnored : .valueIgnored)
            if isGPS { gps = gps ?? found } else { exif = exif ?? found }
        }
        var thumbnail: ThumbnailLocation?
        if ifd0.next != 0, let ifd1 = directory(at: ifd0.next, name: "thumbnail directory (IFD1)", kind: .valueIgnored) {
            thumbnail = thumbnailLocation(in: ifd1)
        }
        let xmp = ifd0.entries.first { $0.tag == Self.xmpTag }.flatMap { xmpPacket($0) }
        // Values first, so that entries whose values cannot be fetched are dropped before the
        // directories' sizes are fixed.
        let block = Self.compactBlock(
            bigEndian: bigEndian,
            ifd0: values(of: ifd0.entries.filter { Self.keptIFD0.contains($0.tag) }),
            exif: exif.map { values(of: $0.entries.filter { Self.keptExif.contains($0.tag) }) },
            gps: gps.map { values(of: $0.entries.filter { Self.keptGPS.contains($0.tag) }) })
        return Result(block: ExifBlock(bytes: ContainerReader.exifHeader + block, tiffOffsetInFile: nil),
                      thumbnail: thumbnail, xmp: xmp, diagnostics: diagnostics)
    }

    /// Canon's CR3 raws keep their EXIF as three TIFF structures in the `CMT1` (IFD0), `CMT2`
    /// (the Exif directory, as its IFD0) and `CMT4` (the GPS directory, as its IFD0) boxes of
    /// their `moov/uuid` box: each is read at its own IFD0 and the three become one compact block.
    static func readCanon(ifd0 cmt1: TIFFBytesInMemory, exif cmt2: TIFFBytesInMemory?, gps cmt4: TIFFBytesInMemory?) throws(Failure) -> Result {
        var diagnostics: [Diagnostic] = []
        /// The entries of `source`'s IFD0 that `keep` keeps, with their values, in `order`.
        func entries(_ source: TIFFBytesInMemory, name: String, order: Bool?, keep: (UInt16) -> Bool) throws(Failure) -> (Bool, [ValuedEntry]) {
            let header = Array(source.bytes(at: 0, count: 8))
            guard header.count == 8, header[0] == header[1], header[0] == 0x49 || header[0] == 0x4D else {
                throw Failure(reason: "the CR3's \(name) box holds no TIFF header")
            }
            var reader = TIFFDirectoryReader(file: source, bigEndian: header[0] == 0x4D)
            if let order, order != reader.bigEndian {
                throw Failure(reason: "the CR3's \(name) box is in another byte order than its CMT1 box")
            }
            guard let directory = reader.directory(at: Int(reader.u32(header, 4)), name: "\(name) directory") else {
                throw Failure(reason: reader.diagnostics.last?.message ?? "the CR3's \(name) directory cannot be read")
            }
            let valued = reader.values(of: directory.entries.filter { keep($0.tag) })
            diagnostics += reader.diagnostics
            return (reader.bigEndian, valued)
        }
        let (bigEndian, ifd0) = try entries(cmt1, name: "CMT1", order: nil) { keptIFD0.contains($0) }
        var exif: [ValuedEntry]?, gps: [ValuedEntry]?
        for (source, name, isGPS) in [(cmt2, "CMT2", false), (cmt4, "CMT4", true)] {
            guard let source else { continue }
            do {
                let found = try entries(source, name: name, order: bigEndian) { isGPS ? keptGPS.contains($0) : keptExif.contains($0) }.1
                if isGPS { gps = found } else { exif = found }
            } catch {
                diagnostics.append(Diagnostic(isGPS ? .positionIgnored : .valueIgnored, error.reason + "; its values were not read"))
            }
        }
        let block = compactBlock(bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: gps)
        return Result(block: ExifBlock(bytes: ContainerReader.exifHeader + block, tiffOffsetInFile: nil), diagnostics: diagnostics)
    }

    /// TIFF's XMP tag (XMP Specification Part 3, 1.1.4): BYTE or UNDEFINED, the packet itself.
    private static let xmpTag: UInt16 = 700

    private mutating func xmpPacket(_ entry: RawEntry) -> [UInt8]? {
        guard entry.type == 1 || entry.type == 7, entry.count > 0 else {
            diagnostics.append(Diagnostic(.valueIgnored, "the XMP tag (700) has type \(entry.type), not bytes; its packet was not read"))
            return nil
        }
        guard entry.count <= Self.maximumXMPBytes else {
            diagnostics.append(Diagnostic(.valueIgnored, "the XMP packet claims \(entry.count) bytes, more than \(Self.maximumXMPBytes >> 20) MiB; it was not read"))
            return nil
        }
        let count = Int(entry.count)
        if count <= 4 { return Array(entry.field.prefix(count)) }
        let offset = Int(u32(entry.field, 0))
        let packet = Array(file.bytes(at: offset, count: count))
        guard packet.count == count else {
            diagnostics.append(Diagnostic(.valueIgnored, "the XMP packet is said to be \(count) bytes from byte \(offset), past the end of the file's \(file.size) bytes; it was not read"))
            return nil
        }
        return packet
    }

    /// Reads the directory at `offset`, with each entry's value fetched when it lies outside the
    /// entry; nil (and a diagnostic) when it cannot be read or was read already.
    private mutating func directory(at offset: Int, name: String, kind: DiagnosticKind = .damaged) -> Directory? {
        guard offset >= 8, offset < file.size else {
            let place = offset < 8 ? "inside the file's 8-byte header" : "past the end of the file's \(file.size) bytes"
            diagnostics.append(Diagnostic(kind, "the \(name) is said to start at byte \(offset), \(place); its values were not read"))
            return nil
        }
        guard visited.insert(offset).inserted else {
            diagnostics.append(Diagnostic(kind, "the \(name) points back at a directory already read (byte \(offset)), a loop; it was not followed"))
            return nil
        }
        let countBytes = Array(file.bytes(at: offset, count: 2))
        guard countBytes.count == 2 else {
            diagnostics.append(Diagnostic(kind, "the file ends inside the \(name) at byte \(offset) (truncated file)"))
            return nil
        }
        let count = Int(u16(countBytes, 0))
        guard count <= Self.maximumEntries else {
            diagnostics.append(Diagnostic(kind, "the \(name) at byte \(offset) claims \(count) entries, more than any real photo has; its values were not read"))
            return nil
        }
        let body = Array(file.bytes(at: offset + 2, count: count * 12 + 4))
        guard body.count >= count * 12 else {
            diagnostics.append(Diagnostic(kind, "the file ends inside the \(name) at byte \(offset) (truncated file); its values were not read"))
            return nil
        }
        let entries = (0..<count).map { index in
            let base = index * 12
            return RawEntry(tag: u16(body, base), type: u16(body, base + 2), count: u32(body, base + 4),
                            field: Array(body[(base + 8)..<(base + 12)]))
        }
        let next = body.count == count * 12 + 4 ? Int(u32(body, count * 12)) : 0
        return Directory(entries: entries, next: next)
    }

    /// The one offset a pointer entry (LONG or IFD type, count 1) holds.
    private func pointer(_ entry: RawEntry) -> Int? {
        guard entry.type == 4 || entry.type == 13, entry.count == 1 else { return nil }
        return Int(u32(entry.field, 0))
    }

    /// The IFD1 JPEG thumbnail, when both tags are there and the bytes lie within the file.
    private mutating func thumbnailLocation(in ifd1: Directory) -> ThumbnailLocation? {
        func value(_ tag: UInt16) -> Int? {
            guard let entry = ifd1.entries.first(where: { $0.tag == tag }), entry.count == 1 else { return nil }
            switch entry.type {
            case 3: return Int(u16(entry.field, 0))
            case 4, 13: return Int(u32(entry.field, 0))
            default: return nil
            }
        }
        guard let offset = value(TIFFStructure.Tag.thumbnailOffset), let length = value(TIFFStructure.Tag.thumbnailLength),
              length > 0 else { return nil }
        guard offset + length <= file.size else {
            diagnostics.append(Diagnostic(.valueIgnored, "the EXIF thumbnail is said to lie at bytes \(offset) to \(offset + length), beyond the file's \(file.size) bytes; not used"))
            return nil
        }
        return ThumbnailLocation(offset: offset, length: length)
    }

    // MARK: The compact block

    /// Bytes per component of each TIFF field type (TIFF 6.0 section 2, plus type 13, IFD).
    private static func componentSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }

    /// A TIFF with IFD0 at byte 8, then the Exif and GPS directories, then the values that do
    /// not fit in their entries, every offset relative to the block.
    private static func compactBlock(bigEndian: Bool, ifd0 ifd0Values: [ValuedEntry], exif exifValues: [ValuedEntry]?,
                                     gps gpsValues: [ValuedEntry]?) -> [UInt8] {
        func directorySize(_ entries: [ValuedEntry]) -> Int { 2 + entries.count * 12 + 4 }
        let ifd0Count = ifd0Values.count + (exifValues == nil ? 0 : 1) + (gpsValues == nil ? 0 : 1)
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + 2 + ifd0Count * 12 + 4
        let gpsOffset = exifOffset + (exifValues.map(directorySize) ?? 0)
        let valueOffset = gpsOffset + (gpsValues.map(directorySize) ?? 0)
        let order = TIFFByteOrder(bigEndian: bigEndian)

        var directories: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        directories += order.bytes32(UInt32(ifd0Offset))
        var valueArea: [UInt8] = []
        func write(_ entries: [ValuedEntry], pointers: [(UInt16, Int)]) {
            var all = entries.map { ($0.entry.tag, $0) as (UInt16, ValuedEntry?) }
            all += pointers.map { ($0.0, nil) }
            all.sort { $0.0 < $1.0 }  // TIFF directories are sorted by tag
            directories += order.bytes16(UInt16(all.count))
            for (tag, item) in all {
                directories += order.bytes16(tag)
                guard let item else {
                    let target = pointers.first { $0.0 == tag }!.1
                    directories += order.bytes16(4) + order.bytes32(1) + order.bytes32(UInt32(target))
                    continue
                }
                directories += order.bytes16(item.entry.type) + order.bytes32(item.entry.count)
                if let value = item.value {
                    directories += order.bytes32(UInt32(valueOffset + valueArea.count))
                    valueArea += value
                    if valueArea.count % 2 == 1 { valueArea.append(0) }  // values start on word boundaries
                } else {
                    directories += item.entry.field
                }
            }
            directories += order.bytes32(0)
        }
        var pointers: [(UInt16, Int)] = []
        if exifValues != nil { pointers.append((TIFFStructure.Tag.exifPointer, exifOffset)) }
        if gpsValues != nil { pointers.append((TIFFStructure.Tag.gpsPointer, gpsOffset)) }
        write(ifd0Values, pointers: pointers)
        if let exifValues { write(exifValues, pointers: []) }
        if let gpsValues { write(gpsValues, pointers: []) }
        return directories + valueArea
    }

    /// Each entry with its out-of-entry value (nil when the value fits in the entry); entries of
    /// an unknown type, or whose value is too large or past the end of the file, are left out.
    private mutating func values(of entries: [RawEntry]) -> [ValuedEntry] {
        var seen = Set<UInt16>()
        return entries.compactMap { entry in
            // A tag appears once per directory (TIFF 6.0 section 2); a repeat is left out.
            guard seen.insert(entry.tag).inserted else { return nil }
            guard let size = Self.componentSize(entry.type) else { return nil }
            let (total, overflow) = Int(entry.count).multipliedReportingOverflow(by: size)
            guard !overflow, total <= Self.maximumValueBytes else {
                diagnostics.append(Diagnostic(.valueIgnored, "the value of TIFF tag \(tagName(entry.tag)) claims \(entry.count) items, more than a photo's metadata holds; ignored"))
                return nil
            }
            if total <= 4 { return (entry, nil) }
            guard total <= valueBudget else {
                diagnostics.append(Diagnostic(.valueIgnored, "the value of TIFF tag \(tagName(entry.tag)) (\(total) bytes) does not fit in what libexif reads after the photo's other values; ignored"))
                return nil
            }
            valueBudget -= total + total % 2
            let offset = Int(u32(entry.field, 0))
            let value = Array(file.bytes(at: offset, count: total))
            guard value.count == total else {
                diagnostics.append(Diagnostic(.valueIgnored, "the value of TIFF tag \(tagName(entry.tag)) is said to be \(total) bytes from byte \(offset), past the end of the file's \(file.size) bytes; ignored"))
                return nil
            }
            return (entry, value)
        }
    }

    private func tagName(_ tag: UInt16) -> String {
        let hex = String(tag, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    // MARK: Byte order

    private func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { order.u16(bytes, at) }
    private func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { order.u32(bytes, at) }
}

/// Bytes a `TIFFDirectoryReader` reads from: a file read with `pread`, or bytes already in memory.
protocol TIFFBytes {
    var size: Int { get }
    /// Bytes `offset..<offset+count`, fewer only when the source ends first.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>
}

extension PhotoFile: TIFFBytes {}

/// A TIFF structure held in memory (an EXIF item or chunk), starting at its header.
struct TIFFBytesInMemory: TIFFBytes {
    let storage: ArraySlice<UInt8>

    var size: Int { storage.count }

    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, count > 0, offset < storage.count else { return [] }
        let start = storage.startIndex + offset
        return storage[start..<min(start + count, storage.endIndex)]
    }
}
