/// The containers geotrip reads: photos it takes an EXIF block from, and videos whose
/// QuickTime boxes it reads (`QuickTimeReader`).
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
    /// Canon's CR3 raw, an ISO base media file whose EXIF is in the `CMT` boxes of Canon's
    /// `uuid` box in `moov`.
    case cr3
    /// A QuickTime or ISO base media video: MOV, MP4, M4V, 3GP.
    case video
}

/// What the first bytes of a file say it is.
enum FileKind: Equatable {
    case image(ImageFormat)
    /// A file geotrip does not read, with the reason shown in the summary.
    case unsupported(String)

    /// File name extensions of photos and videos; a file with one of these that is not a
    /// readable image or video is an error (a damaged file), while other unknown files are
    /// merely skipped.
    static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "tif", "tiff", "dng", "nef", "cr2",
        "arw", "orf", "rw2", "pef", "srw", "raf", "cr3", "png", "mov", "mp4", "m4v", "3gp", "3g2", "qt",
    ]

    /// Those of `photoExtensions` that name a video.
    static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "3g2", "qt"]

    /// Whether a name has a photo's or a video's extension (`photoExtensions`).
    static func namesMedia(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return photoExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Major brands of ISO base media files that are HEIF still images.
    private static let heifBrands: Set<String> = [
        "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "mif2", "msf1", "avif", "avis",
    ]

    /// Major brands of QuickTime and ISO base media videos from phones and cameras (the MP4
    /// registration authority's list, as far as cameras and phones use it).
    private static let videoBrands: Set<String> = [
        "qt  ", "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP",
        "3gp4", "3gp5", "3gp6", "3gp7", "3gp8", "3gp9", "3ge6", "3ge7", "3gg6", "3g2a", "3g2b", "3g2c", "mmp4", "MSNV",
        "XAVC", "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS", "CAEP", "caqv", "f4v ",
    ]

    /// Types a QuickTime movie without `ftyp` (older MOVs) may start with (QTFF "Overview of
    /// QTFF"): a camera writes `mdat` or `moov` first, editors `wide`, `free` or `skip`.
    private static let quickTimeFirstBoxes: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    /// Classifies a file by its leading bytes (never by its name: cameras and phones
    /// are free with extensions, and renamed HEICs called `.jpg` are common).
    static func sniff(_ head: ArraySlice<UInt8>) -> FileKind {
        let b = Array(head.prefix(16))
        if b.isEmpty { return .unsupported("empty file") }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .image(.jpeg) }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return .image(.tiff)
        }
        // BigTIFF (magic 43, 64-bit offsets): scientific and GIS rasters, not camera photos.
        if b.starts(with: [0x49, 0x49, 0x2B, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            return .unsupported("BigTIFF files (64-bit TIFF) are not read")
        }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .image(.png) }
        if b.count >= 12, b[4...7].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: b[8...11], as: UTF8.self)
            if heifBrands.contains(brand) { return .image(.heif) }
            if brand == "crx " { return .image(.cr3) }
            // iTunes audio (a voice memo is an M4A): the same boxes, no pictures.
            if ["M4A ", "M4B ", "M4P "].contains(brand) { return .unsupported("audio files (brand '\(brand.trimmingCharacters())') have no pictures") }
            if videoBrands.contains(brand) || isVideo(compatibleBrandsIn: head) { return .image(.video) }
            return .unsupported("video and other ISO media files (brand '\(brand.trimmingCharacters())') are not read yet")
        }
        if b.count >= 8, quickTimeFirstBoxes.contains(String(decoding: b[4...7], as: UTF8.self)),
           !(2..<8).contains(Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])) {
            return .image(.video)
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

    /// Whether an `ftyp` box of an unlisted major brand names a video brand among its
    /// compatible brands (a camera maker's own major brand, compatible with `isom`). HEIF brands
    /// are looked at first, by the caller.
    private static func isVideo(compatibleBrandsIn head: ArraySlice<UInt8>) -> Bool {
        let start = head.startIndex
        guard head.count >= 16 else { return false }
        let size = Int(head[start]) << 24 | Int(head[start + 1]) << 16 | Int(head[start + 2]) << 8 | Int(head[start + 3])
        let end = min(size, head.count, 256)
        var offset = 16
        var video = false
        while offset + 4 <= end {
            let brand = String(decoding: head[(start + offset)..<(start + offset + 4)], as: UTF8.self)
            if heifBrands.contains(brand) { return false }
            if videoBrands.contains(brand) { video = true }
            offset += 4
        }
        return video
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
