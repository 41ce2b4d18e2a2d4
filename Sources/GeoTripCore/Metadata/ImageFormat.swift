/// The containers geotrip takes an EXIF block from.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG/JFIF/EXIF: the APP1 `Exif` segment.
    case jpeg
    /// HEIF, HEIC and AVIF: the `Exif` item, through libheif.
    case heif
    /// TIFF and TIFF-based raws (DNG, NEF, CR2, ARW, ORF, RW2, ...): the file is itself a TIFF
    /// structure.
    case tiff
    /// PNG with an `eXIf` chunk.
    case png
}

/// What the first bytes of a file say it is.
enum FileKind: Equatable {
    case image(ImageFormat)
    /// A file geotrip does not read, with the reason shown in the summary.
    case unsupported(String)

    /// File name extensions of photos; a file with one of these that is not a readable
    /// image is an error (a damaged photo), while other unknown files are merely skipped.
    static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "tif", "tiff", "dng", "nef", "cr2",
        "arw", "orf", "rw2", "pef", "srw", "raf", "cr3", "png",
    ]

    /// Major brands of ISO base media files that are HEIF still images.
    private static let heifBrands: Set<String> = [
        "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "mif2", "msf1", "avif", "avis",
    ]

    /// Classifies a file by its leading bytes (never by its name: cameras and phones
    /// are free with extensions, and renamed HEICs called `.jpg` are common).
    static func sniff(_ head: ArraySlice<UInt8>) -> FileKind {
        let b = Array(head.prefix(16))
        if b.isEmpty { return .unsupported("empty file") }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .image(.jpeg) }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return .image(.tiff)
        }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .image(.png) }
        if b.count >= 12, b[4...7].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: b[8...11], as: UTF8.self)
            if heifBrands.contains(brand) { return .image(.heif) }
            if brand == "crx " { return .unsupported("Canon CR3 raw files are not read yet") }
            return .unsupported("video and other ISO media files (brand '\(brand.trimmingCharacters())') are not read yet")
        }
        // Olympus ORF ("IIRO", "MMOR", "IISR") and Panasonic RW2 ("IIU\0") are TIFF structures
        // with their maker's own magic number.
        if [[0x49, 0x49, 0x52, 0x4F], [0x4D, 0x4D, 0x4F, 0x52], [0x49, 0x49, 0x53, 0x52], [0x49, 0x49, 0x55, 0x00]]
            .contains(where: { b.starts(with: $0) }) {
            return .image(.tiff)
        }
        if b.count >= 12, b[0...3].elementsEqual("RIFF".utf8) { return .unsupported("RIFF files (AVI, WebP) are not read yet") }
        if b.starts(with: Array("GIF8".utf8)) { return .unsupported("GIF images carry no EXIF") }
        return .unsupported("not an image format geotrip reads")
    }
}

extension String {
    /// The string without leading and trailing spaces and NULs (EXIF ASCII padding).
    func trimmingCharacters() -> String {
        var scalars = Substring(self)
        while let last = scalars.last, last == " " || last == "\0" { scalars.removeLast() }
        while let first = scalars.first, first == " " || first == "\0" { scalars.removeFirst() }
        return String(scalars)
    }
}
