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
    var width: Int?
    var height: Int?
    var diagnostics: [Diagnostic] = []
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
    /// handing it.
    static let libexifReach = 0xFFF8

    static func contents(of file: PhotoFile, format: ImageFormat, path: [CChar]) throws(UnreadableContainer) -> ContainerContents {
        switch format {
        case .jpeg: return try jpeg(file)
        case .tiff: return tiff(file)
        case .png: return try png(file)
        case .heif: return try HeifExifExtractor.contents(path: path)
        // Videos carry no EXIF block; MetadataReader reads them with QuickTimeReader.
        case .video: return ContainerContents()
        }
    }

    // MARK: JPEG

    /// Walks the marker segments from SOI (ITU T.81 annex B) until the first SOF, reading
    /// only segment headers, plus the whole body of the first APP1 `Exif` segment.
    private static func jpeg(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        var contents = ContainerContents()
        var position = 2
        // A bound on segments so a crafted file cannot keep the reader walking.
        for _ in 0..<512 {
            let header = Array(file.bytes(at: position, count: 4))
            guard header.count >= 2 else {
                if contents.exif == nil && contents.width == nil {
                    throw UnreadableContainer(reason: "the JPEG ends at byte \(file.size) before any metadata (truncated file)")
                }
                contents.diagnostics.append(Diagnostic(.damaged, "the JPEG ends at byte \(file.size) before its image data (truncated file)"))
                return contents
            }
            guard header[0] == 0xFF else {
                let problem = "the JPEG structure is broken at byte \(position) (expected a marker)"
                if contents.exif == nil { throw UnreadableContainer(reason: problem) }
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
            if marker == 0xE1 && contents.exif == nil {
                let prefix = file.bytes(at: bodyStart, count: 6)
                if prefix.elementsEqual(exifHeader) {
                    let body = file.bytes(at: bodyStart, count: bodyLength)
                    guard body.count == bodyLength else {
                        throw UnreadableContainer(reason: "the file ends inside its Exif segment (\(body.count) of \(bodyLength) bytes present; truncated file)")
                    }
                    contents.exif = ExifBlock(bytes: Array(body), tiffOffsetInFile: bodyStart + 6)
                }
            } else if isStartOfFrame(marker) {
                let frame = Array(file.bytes(at: bodyStart, count: 5))
                if frame.count == 5 {
                    contents.height = Int(frame[1]) << 8 | Int(frame[2])
                    contents.width = Int(frame[3]) << 8 | Int(frame[4])
                }
                return contents
            }
            position = bodyStart + bodyLength
        }
        contents.diagnostics.append(Diagnostic(.damaged, "the JPEG has more than 512 segments before its image; stopped reading"))
        return contents
    }

    /// SOF0...SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    // MARK: TIFF

    /// A TIFF-based file is its own EXIF structure; libexif needs only the header prefix.
    private static func tiff(_ file: PhotoFile) -> ContainerContents {
        var contents = ContainerContents()
        let tiffBytes = Array(file.head.prefix(libexifReach))
        contents.exif = ExifBlock(bytes: exifHeader + tiffBytes, tiffOffsetInFile: 0)
        if let structure = TIFFStructure(Array(file.head)) {
            let (exifIFD, gpsIFD) = structure.subDirectoryOffsets()
            for (name, offset) in [("Exif", exifIFD), ("GPS", gpsIFD)] {
                guard let offset else { continue }
                // The whole directory must lie within reach: its count, its entries, its link.
                let entries = structure.entries(at: offset)?.count ?? 0
                if offset + 2 + entries * 12 + 4 > libexifReach || structure.entries(at: offset) == nil {
                    contents.diagnostics.append(Diagnostic(name == "GPS" ? .positionIgnored : .valueIgnored,
                        "the \(name) directory starts at byte \(offset), beyond the first 64 KiB that libexif reads; its values were not read"))
                }
            }
        }
        return contents
    }

    // MARK: PNG

    /// Walks PNG chunks (PNG 3rd edition, section 5.3) for IHDR and eXIf, reading headers only.
    private static func png(_ file: PhotoFile) throws(UnreadableContainer) -> ContainerContents {
        var contents = ContainerContents()
        var position = 8
        for _ in 0..<100_000 {
            let header = Array(file.bytes(at: position, count: 8))
            guard header.count == 8 else {
                throw UnreadableContainer(reason: "the PNG ends at byte \(file.size) before its IEND chunk and no eXIf chunk was found (truncated file)")
            }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let type = String(decoding: header[4...7], as: UTF8.self)
            let bodyStart = position + 8
            switch type {
            case "IHDR":
                let body = Array(file.bytes(at: bodyStart, count: 8))
                if body.count == 8 {
                    contents.width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                    contents.height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                }
            case "eXIf":
                let body = Array(file.bytes(at: bodyStart, count: min(length, libexifReach + 6)))
                guard body.count == min(length, libexifReach + 6) else {
                    throw UnreadableContainer(reason: "the file ends inside its eXIf chunk (truncated file)")
                }
                // Some writers wrongly keep the JPEG-style `Exif\0\0` prefix inside eXIf.
                if body.starts(with: exifHeader) {
                    contents.exif = ExifBlock(bytes: body, tiffOffsetInFile: bodyStart + 6)
                } else {
                    contents.exif = ExifBlock(bytes: exifHeader + body, tiffOffsetInFile: bodyStart)
                }
                return contents
            case "IEND":
                return contents
            default:
                break
            }
            position = bodyStart + length + 4  // + CRC
        }
        return contents
    }
}
