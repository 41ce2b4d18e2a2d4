/// A minimal walker over the IFDs of a TIFF structure (TIFF 6.0 section 2).
///
/// libexif decodes values but does not say where things sit: it neither reports the
/// thumbnail's offset nor complains when a directory lies beyond the 64 KiB it will read.
/// This walker answers just those two questions; every value geotrip keeps still comes
/// from libexif.
struct TIFFStructure {
    /// One 12-byte IFD entry; `value` is the raw 4-byte value-or-offset field.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: UInt32
    }

    private let bytes: [UInt8]
    private let bigEndian: Bool

    /// Wraps TIFF bytes starting at the byte-order mark, or returns nil without a valid header.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    /// Offset of IFD0 from the TIFF header.
    var firstDirectoryOffset: Int? { u32(4).map(Int.init) }

    /// The entries of the IFD at `offset`, or nil when it does not fit in the bytes at hand.
    func entries(at offset: Int) -> [Entry]? {
        guard let count = u16(offset).map(Int.init), offset + 2 + count * 12 <= bytes.count else { return nil }
        return (0..<count).compactMap { index in
            let base = offset + 2 + index * 12
            guard let tag = u16(base), let type = u16(base + 2), let count = u32(base + 4) else { return nil }
            // Values of up to 4 bytes are stored left-aligned in the field, so a SHORT reads
            // from the field's first two bytes, not as the low half of a LONG.
            let value = (type == 3 && count == 1) ? u16(base + 8).map(UInt32.init) : u32(base + 8)
            guard let value else { return nil }
            return Entry(tag: tag, type: type, count: count, value: value)
        }
    }

    /// Offset of the IFD that follows the one at `offset` (IFD0 -> IFD1), or nil at the end.
    func nextDirectoryOffset(after offset: Int) -> Int? {
        guard let count = u16(offset).map(Int.init), let next = u32(offset + 2 + count * 12), next != 0 else { return nil }
        return Int(next)
    }

    private func u16(_ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return TIFFByteOrder(bigEndian: bigEndian).u16(bytes, at)
    }

    private func u32(_ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return TIFFByteOrder(bigEndian: bigEndian).u32(bytes, at)
    }
}

/// TIFF's integers in one byte order (the caller checks the bounds).
struct TIFFByteOrder {
    let bigEndian: Bool

    func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        let v = (0..<4).map { UInt32(bytes[at + $0]) }
        return bigEndian ? v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3] : v[3] << 24 | v[2] << 16 | v[1] << 8 | v[0]
    }

    func bytes16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    func bytes32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }
}

extension TIFFStructure {
    /// TIFF tags the walker looks for.
    enum Tag {
        static let exifPointer: UInt16 = 0x8769
        static let gpsPointer: UInt16 = 0x8825
        static let thumbnailOffset: UInt16 = 0x0201
        static let thumbnailLength: UInt16 = 0x0202
    }

    /// The IFD1 JPEG thumbnail's offset (from the TIFF header) and length, if any.
    func thumbnail() -> (offset: Int, length: Int)? {
        guard let ifd0 = firstDirectoryOffset, let ifd1 = nextDirectoryOffset(after: ifd0),
              let entries = entries(at: ifd1) else { return nil }
        guard let offset = entries.first(where: { $0.tag == Tag.thumbnailOffset })?.value,
              let length = entries.first(where: { $0.tag == Tag.thumbnailLength })?.value, length > 0
        else { return nil }
        return (Int(offset), Int(length))
    }

    /// Offsets of the Exif and GPS sub-IFDs named in IFD0.
    func subDirectoryOffsets() -> (exif: Int?, gps: Int?) {
        guard let ifd0 = firstDirectoryOffset, let entries = entries(at: ifd0) else { return (nil, nil) }
        return (entries.first { $0.tag == Tag.exifPointer }.map { Int($0.value) },
                entries.first { $0.tag == Tag.gpsPointer }.map { Int($0.value) })
    }
}
