import CHeif
import Foundation

/// Every libheif call geotrip makes (reading metadata, and the still for a thumbnail). libheif parses the box structure (and follows `iloc`,
/// so an Exif item stored after the image data at the end of the file is found like any other)
/// and hands over the item; the EXIF inside is decoded by `ExifDecoder` like a JPEG's.
enum HeifExifExtractor {
    /// heif_init is reference counted and loads plugins; one call for the process is enough.
    private static let initialized: Bool = {
        heif_init(nil).code == heif_error_Ok
    }()

    static func contents(path: [CChar]) throws(UnreadableContainer) -> ContainerContents {
        _ = initialized
        guard let context = heif_context_alloc() else {
            throw UnreadableContainer(reason: "libheif could not allocate a decoding context")
        }
        defer { heif_context_free(context) }
        let opened = heif_context_read_from_file(context, path, nil)
        // A file cut short in its image data (a copy stopped part-way) is refused by libheif
        // as a whole, though its boxes and metadata items may all lie before the cut: it is
        // read again with something in place of what is missing, and only items read whole are used.
        if opened.code != heif_error_Ok, opened.subcode == heif_suberror_End_of_data {
            return try cutShort(path: path, refused: opened)
        }
        // Cut inside a box libheif needs (`ftyp`, `meta`), it says the box is missing: the
        // sentence says what happened to the file.
        if opened.code != heif_error_Ok, missingBoxes.contains(opened.subcode), let box = boxRunningPastEnd(path: path) {
            let part = box.map { "its \($0) box" } ?? "a box's header"
            throw UnreadableContainer(reason: "the file is cut short: it ends inside \(part), before the metadata (a copy stopped part-way?)")
        }
        try check(opened, doing: "read the HEIF structure")
        return try reading(of: context).contents
    }

    /// What libheif says when a box it needs is not there: what a file cut inside it looks like.
    static let missingBoxes: [heif_suberror_code] = [
        heif_suberror_No_ftyp_box, heif_suberror_No_meta_box, heif_suberror_No_hdlr_box, heif_suberror_No_pitm_box,
        heif_suberror_No_ipco_box, heif_suberror_No_ipma_box, heif_suberror_No_iloc_box, heif_suberror_No_iinf_box, heif_suberror_No_iprp_box,
    ]

    /// The first top-level box (ISO/IEC 14496-12 section 4.2) that runs past the end of the
    /// file at `path`: `.some(type)` as sentences write it (`'meta'`), or `.some(nil)` for a box's header cut; nil when every box
    /// fits, or the file is not boxes. Up to 64 boxes are looked at: those before the picture data.
    static func boxRunningPastEnd(path: [CChar]) -> String?? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let end = UInt64(info.st_size)
        var offset: UInt64 = 0
        for _ in 0..<64 where offset < end {
            var bytes = [UInt8](repeating: 0, count: 16)
            let got = pread(descriptor, &bytes, 16, off_t(offset))
            guard got >= 0 else { return nil }
            switch MediaBox.header(Array(bytes.prefix(got))) {
            case .cut, .largeSizeCut:
                return .some(nil)
            case .box(_, nil, _):
                return nil  // to the end of the file
            case .box(let type, let size?, let headerLength):
                guard size >= UInt64(headerLength) else { return nil }  // not boxes: libheif's own sentence says more
                guard size <= end - offset else { return .some(MediaBox.name(type)) }
                offset += size
            }
        }
        return nil
    }

    /// At most this much is read past the end of a HEIF file cut short: more than any phone's
    /// picture data, so a file that claims more is refused as before.
    static let largestMissingPart: Int64 = 64 << 20

    /// The metadata of a HEIF file cut short (`GTPaddedFile`), with a sentence saying so. It is
    /// read twice, the missing part as zeros and then as 0xFF: an item that differs between
    /// the two ran past the cut, and is not used.
    private static func cutShort(path: [CChar], refused: heif_error) throws(UnreadableContainer) -> ContainerContents {
        // Not a file cut in its picture data after all: what libheif said of the file as it is.
        let refusal = UnreadableContainer(reason: "libheif could not read the HEIF structure: \(Self.message(refused))")
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw refusal }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw refusal }
        var readings: [(contents: ContainerContents, exifItem: [UInt8]?)] = []
        for fill: UInt8 in [0x00, 0xFF] {
            // libheif keeps the reader and its file for as long as the context lives: both
            // outlive it here (the context's `defer`, declared later, runs first).
            let file = UnsafeMutablePointer<GTPaddedFile>.allocate(capacity: 1)
            file.initialize(to: GTPaddedFile(fd: descriptor, size: Int64(info.st_size), padded: Int64(info.st_size) + largestMissingPart,
                                             position: 0, fill: fill))
            defer { file.deallocate() }
            guard let context = heif_context_alloc() else { throw UnreadableContainer(reason: "libheif could not allocate a decoding context") }
            defer { heif_context_free(context) }
            guard heif_context_read_from_reader(context, gt_padded_reader_table(), file, nil).code == heif_error_Ok else { throw refusal }
            readings.append(try reading(of: context))
        }
        var contents = readings[0].contents
        var said: [Diagnostic] = []
        let cut = "the file is cut short: its picture data runs past its end (a copy stopped part-way?)"
        if contents.xmpPacket != readings[1].contents.xmpPacket {
            contents.xmpPacket = nil
            said.append(Diagnostic(.damaged, "the file ends inside its XMP item; its XMP was not read"))
        }
        // The item's own bytes: an item cut before its TIFF header decodes to nothing either way.
        if readings[0].exifItem != readings[1].exifItem {
            // What was said of the Exif item was said of bytes that are not there.
            contents.exif = nil
            contents.diagnostics = [Diagnostic(.damaged, cut + "; so does its Exif item, which was not read")] + said
            return contents
        }
        contents.diagnostics = [Diagnostic(.damaged, cut + "; its metadata, before the cut, was read")] + said + contents.diagnostics
        return contents
    }

    /// The size, XMP and Exif of the primary image of `context`, with the Exif item's bytes as
    /// libheif gave them (nil without one read).
    private static func reading(of context: OpaquePointer) throws(UnreadableContainer) -> (contents: ContainerContents, exifItem: [UInt8]?) {
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), doing: "find the primary image")
        guard let handle else { throw UnreadableContainer(reason: "libheif found no primary image") }
        defer { heif_image_handle_release(handle) }

        var contents = ContainerContents()
        let width = Int(heif_image_handle_get_ispe_width(handle))
        let height = Int(heif_image_handle_get_ispe_height(handle))
        if width > 0 && height > 0 {
            contents.width = width
            contents.height = height
        }

        readXMP(handle, into: &contents)
        let count = heif_image_handle_get_number_of_metadata_blocks(handle, "Exif")
        guard count > 0 else { return (contents, nil) }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        _ = heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &ids, count)
        let size = heif_image_handle_get_metadata_size(handle, ids[0])
        guard size > 4 else {
            contents.diagnostics.append(Diagnostic(.damaged, "the HEIF Exif item is empty"))
            return (contents, nil)
        }
        // Bounded as an XMP packet is: an item's declared size is read into memory whole (and
        // libheif holds a copy), so a file claiming 500 MB took a gigabyte for one photo.
        guard size <= XMPDecoder.maximumPacketSize else {
            contents.diagnostics.append(Diagnostic(.damaged, "the HEIF Exif item is \(size) bytes, more than the "
                + "\(XMPDecoder.maximumPacketSize >> 20) MiB geotrip reads; not read"))
            return (contents, nil)
        }
        var item = [UInt8](repeating: 0, count: size)
        let error = heif_image_handle_get_metadata(handle, ids[0], &item)
        guard error.code == heif_error_Ok else {
            contents.diagnostics.append(Diagnostic(.damaged, "libheif could not read the Exif item: \(Self.message(error))"))
            return (contents, nil)
        }
        guard let tiffStart = tiffHeaderStart(inExifItem: item) else {
            contents.diagnostics.append(Diagnostic(.damaged, "the HEIF Exif item holds no TIFF header"))
            return (contents, item)
        }
        ContainerReader.takeExif(TIFFBytesInMemory(storage: item[tiffStart...]), tiffOffsetInFile: nil, into: &contents)
        return (contents, item)
    }

    /// The first `mime` item of content type `application/rdf+xml` (ISO/IEC 23008-12 annex A.2.2:
    /// how HEIF stores XMP), bounded in size like any XMP packet.
    private static func readXMP(_ handle: OpaquePointer, into contents: inout ContainerContents) {
        let count = heif_image_handle_get_number_of_metadata_blocks(handle, "mime")
        guard count > 0 else { return }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, count))
        for id in ids.prefix(listed) {
            guard let type = heif_image_handle_get_metadata_content_type(handle, id),
                  String(cString: type) == "application/rdf+xml" else { continue }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= XMPDecoder.maximumPacketSize else {
                contents.diagnostics.append(Diagnostic(.damaged, size == 0 ? "the HEIF XMP item is empty"
                    : "the HEIF XMP item is \(size) bytes, more than the \(XMPDecoder.maximumPacketSize >> 20) MiB geotrip reads; not read"))
                return
            }
            var item = [UInt8](repeating: 0, count: size)
            let error = heif_image_handle_get_metadata(handle, id, &item)
            guard error.code == heif_error_Ok else {
                contents.diagnostics.append(Diagnostic(.damaged, "libheif could not read the XMP item: \(Self.message(error))"))
                return
            }
            contents.xmpPacket = item
            return
        }
    }

    /// The Exif item starts with a 4-byte big-endian offset to the TIFF header (ISO/IEC
    /// 23008-12 annex A.2.1), usually 6 because an `Exif\0\0` prefix follows. Writers disagree
    /// on both, so a TIFF byte-order mark is looked for when the offset does not lead to one.
    static func tiffHeaderStart(inExifItem item: [UInt8]) -> Int? {
        func isTIFFHeader(at index: Int) -> Bool {
            guard index >= 0, index + 4 <= item.count else { return false }
            let b = item[index..<index + 4]
            return b.elementsEqual([0x49, 0x49, 0x2A, 0x00]) || b.elementsEqual([0x4D, 0x4D, 0x00, 0x2A])
        }
        let declared = 4 + (Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3]))
        if isTIFFHeader(at: declared) { return declared }
        return (0..<min(item.count, 64)).first(where: isTIFFHeader)
    }

    /// The most pixels of a HEIF picture decoded for a thumbnail: 120 megapixels holds every
    /// phone's and camera's (48 on an iPhone, 108 on the largest Android sensors).
    static let pixelLimit = 120_000_000
    /// The longest side libheif is let decode, whatever a file says (its own security limit):
    /// below the 26,754 x 26,754 at which libheif 1.15's RGB conversion overflows a 32-bit
    /// index, and above any phone's panorama. `HeifDerivedImages` holds the area to
    /// `pixelLimit`; this holds what it cannot see.
    static let sideLimit: Int32 = 26_000

    /// The picture of a HEIF file for a thumbnail: its stored thumbnail image when that is at
    /// least `longSide` on its longer side (or as large as the picture itself), else the primary
    /// image, decoded whole. libheif applies the container's rotation and mirroring (`irot`,
    /// `imir`) as it decodes, so the result is upright; HEIF's EXIF Orientation only repeats
    /// them and must not be applied again (ISO/IEC 23008-12, 6.5.10 and annex A).
    ///
    /// `derived` is what the file's grid and overlay descriptors declare (`HeifDerivedImages`):
    /// the sizes libheif decodes such images at, where the handles give the `ispe`'s.
    static func still(path: [CChar], derived: HeifDerivedImages, atLeast longSide: Int) throws(ImageCodingFailure) -> RGBImage {
        _ = initialized
        func fail(_ error: heif_error, _ action: String) throws(ImageCodingFailure) {
            guard error.code != heif_error_Ok else { return }
            throw ImageCodingFailure(reason: "libheif could not \(action): \(Self.message(error))")
        }
        guard let context = heif_context_alloc() else { throw ImageCodingFailure(reason: "libheif could not allocate a decoding context") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, sideLimit)
        try fail(heif_context_read_from_file(context, path, nil), "read the HEIF structure")
        var primary: OpaquePointer?
        try fail(heif_context_get_primary_image_handle(context, &primary), "find the primary image")
        guard let primary else { throw ImageCodingFailure(reason: "libheif found no primary image") }
        defer { heif_image_handle_release(primary) }

        var chosen = primary
        var thumbnail: OpaquePointer?
        defer { if let thumbnail { heif_image_handle_release(thumbnail) } }
        let primaryLong = max(heif_image_handle_get_width(primary), heif_image_handle_get_height(primary))
        if heif_image_handle_get_number_of_thumbnails(primary) > 0 {
            var id: heif_item_id = 0
            if heif_image_handle_get_list_of_thumbnail_IDs(primary, &id, 1) == 1,
               heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok, let thumbnail {
                let long = max(heif_image_handle_get_width(thumbnail), heif_image_handle_get_height(thumbnail))
                if long >= min(Int32(longSide), primaryLong) { chosen = thumbnail }
            }
        }
        // The size each is decoded at: a derived image's descriptor's (see `HeifDerivedImages`),
        // else its handle's.
        func size(_ handle: OpaquePointer) -> (width: Int, height: Int) {
            let claimed = (width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            let canvas = handle == primary ? derived.primary.flatMap { derived.canvases[$0] } : derived.largestOther
            guard let canvas, HeifDerivedImages.area(canvas) > HeifDerivedImages.area(claimed) else { return claimed }
            return canvas
        }
        // Decoded whole, at about 6 bytes a pixel: a grid of one small tile repeated can claim
        // 16,384 x 16,320 pixels in 131 KB (1.6 GB to decode). Its stored thumbnail, however
        // small, is then the better source.
        let primarySize = size(primary)
        if let thumbnail, HeifDerivedImages.area(primarySize) > pixelLimit {
            chosen = thumbnail
        }
        let (width, height) = size(chosen)
        guard HeifDerivedImages.area((width, height)) <= pixelLimit else {
            throw ImageCodingFailure(reason: "its picture is \(width.grouped) x \(height.grouped) pixels, more than the "
                                     + "\(pixelLimit / 1_000_000) megapixels geotrip decodes for a thumbnail, and it holds no smaller one")
        }
        // The image chosen is held to the sides read above (a derived one's descriptor's, else
        // its `ispe`'s): a canvas this reading missed (a descriptor split across extents, not
        // found, or an item past the 4,096 entries of `iinf` the walk reads, which an 87 KB
        // file used to have a 25,000 x 25,000 grid built from, 3.7 GB) is refused by libheif
        // rather than built. libheif refuses a side equal to its limit.
        if max(width, height) > 0 {
            heif_context_set_maximum_image_size_limit(context, Int32(min(Int(sideLimit), max(width, height) + 1)))
        }
        var image: OpaquePointer?
        try fail(heif_decode_image(chosen, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil), "decode the image")
        guard let image else { throw ImageCodingFailure(reason: "libheif decoded no image") }
        defer { heif_image_release(image) }
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard decodedWidth > 0, decodedHeight > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw ImageCodingFailure(reason: "libheif returned no pixels")
        }
        var pixels = [UInt8](repeating: 0, count: decodedWidth * decodedHeight * 3)
        for row in 0..<decodedHeight {
            let source = UnsafeBufferPointer(start: plane + row * Int(stride), count: decodedWidth * 3)
            pixels.replaceSubrange(row * decodedWidth * 3..<(row + 1) * decodedWidth * 3, with: source)
        }
        return RGBImage(width: decodedWidth, height: decodedHeight, pixels: pixels)
    }

    /// libheif's sentence for `error`, without the line break some of its messages end in.
    private static func message(_ error: heif_error) -> String {
        String(cString: error.message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func check(_ error: heif_error, doing action: String) throws(UnreadableContainer) {
        guard error.code != heif_error_Ok else { return }
        throw UnreadableContainer(reason: "libheif could not \(action): \(Self.message(error))")
    }
}
