/// The canvases a HEIF file's derived images declare: a grid of tiles (`grid`, which every
/// iPhone photo is) or an overlay (`iovl`). libheif builds such an image on the canvas its own
/// descriptor names, not on the size its `ispe` property says, and nothing makes them agree:
/// a 1 KB file whose `ispe` says 64 x 48 can ask for 30,000 x 30,000 pixels, which libheif
/// 1.15 allocates (gigabytes) and overflows (a crash) when it converts them to RGB. The
/// thumbnail maker reads the descriptors first (ISO/IEC 23008-12, 6.6.2.3 and 6.6.2.4; the
/// item's data found through `iloc`, ISO/IEC 14496-12, 8.11.3), through the same bounded box
/// walk as the videos'.
struct HeifDerivedImages {
    /// The primary item's id (`pitm`), when the file names one.
    var primary: UInt32?
    /// The canvas of each derived item whose descriptor could be read, by item id.
    var canvases: [UInt32: (width: Int, height: Int)] = [:]
    /// Every derived item `iinf` lists, its descriptor read or not.
    var derivedIDs: Set<UInt32> = []

    /// The two derived images whose descriptors declare a canvas.
    private enum Kind {
        /// `grid`: tiles laid out in rows and columns.
        case grid
        /// `iovl`: images laid over a canvas filled with one colour.
        case overlay
    }

    /// The derived images of `file`; none when its boxes cannot be read (libheif then refuses
    /// the file too, or decodes no derived image).
    init(file: PhotoFile) {
        var walker = QuickTimeReader.Walker(file: file, noun: "HEIF file")
        guard let meta = walker.children(of: 0..<file.size, depth: 0, parent: "the file").first(where: { $0.is("meta") }),
              meta.body.count > 4 else { return }
        let boxes = walker.children(of: (meta.body.lowerBound + 4)..<meta.body.upperBound, depth: 1, parent: "'meta'")
        func body(_ name: String) -> [UInt8]? {
            boxes.first { $0.is(name) }.flatMap { walker.wholeBody(of: $0, in: "'meta'") }
        }
        if let pitm = body("pitm") {
            var cursor = Cursor(pitm)
            if let version = cursor.integer(1), cursor.skip(3) { primary = cursor.integer(version == 0 ? 2 : 4).map(UInt32.init) }
        }
        let derived = Self.derivedItems(boxes.first { $0.is("iinf") }, walker: &walker)
        derivedIDs = Set(derived.keys)
        guard !derived.isEmpty, let iloc = body("iloc") else { return }
        let idat = boxes.first { $0.is("idat") }?.body
        for location in Self.locations(iloc) where derived[location.item] != nil {
            let item = location.item
            let start: Int
            switch location.method {
            case 0:
                start = location.offset
            case 1:
                // An offset past any file (`locations` allows up to Int.max / 2, and so does
                // the box's place) is nothing to read, not an overflow.
                guard let idat, case let (sum, overflow) = idat.lowerBound.addingReportingOverflow(location.offset), !overflow else { continue }
                start = sum
            default:
                continue  // an item's data in another item: no derived image writer does that
            }
            guard start >= 0 else { continue }
            let descriptor = Array(file.bytes(at: start, count: 20))
            if let canvas = Self.canvas(descriptor, overlay: derived[item] == .overlay) { canvases[item] = canvas }
        }
    }

    /// The largest canvas of the items other than the primary (a stored thumbnail, a tile).
    var largestOther: (width: Int, height: Int)? {
        canvases.filter { $0.key != primary }.values.max { Self.area($0) < Self.area($1) }
    }

    /// Width times height, or `Int.max` past it: a descriptor's sides are 32-bit.
    static func area(_ size: (width: Int, height: Int)) -> Int {
        let (product, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        return overflow ? Int.max : product
    }

    /// The ids of the `grid` and `iovl` items listed in `iinf`, with their kind.
    private static func derivedItems(_ iinf: MediaBox?, walker: inout QuickTimeReader.Walker) -> [UInt32: Kind] {
        guard let iinf, iinf.body.count > 6 else { return [:] }
        let version = Int(walker.body(of: iinf, limit: 1).first ?? 0)
        let entries = iinf.body.lowerBound + 4 + (version == 0 ? 2 : 4)
        var found: [UInt32: Kind] = [:]
        for infe in walker.children(of: entries..<iinf.body.upperBound, depth: 2, parent: "'iinf'") where infe.is("infe") {
            var cursor = Cursor(walker.body(of: infe, limit: 16))
            // Versions 2 and 3 name an item's type; 0 and 1 are for files of the 2008 standard,
            // which had no derived images.
            guard let version = cursor.integer(1), version >= 2, cursor.skip(3),
                  let id = cursor.integer(version == 2 ? 2 : 4), cursor.skip(2), let type = cursor.bytes(4) else { continue }
            if type.elementsEqual("grid".utf8) { found[UInt32(id)] = .grid }
            if type.elementsEqual("iovl".utf8) { found[UInt32(id)] = .overlay }
        }
        return found
    }

    /// Where each item's data starts, by `iloc`: its first extent, as a file offset
    /// (construction method 0) or an offset into `idat` (method 1).
    private static func locations(_ iloc: [UInt8]) -> [(item: UInt32, method: Int, offset: Int)] {
        var cursor = Cursor(iloc)
        guard let version = cursor.integer(1), version <= 2, cursor.skip(3),
              let sizes = cursor.integer(1), let more = cursor.integer(1),
              let count = cursor.integer(version < 2 ? 2 : 4) else { return [] }
        let offsetSize = sizes >> 4, lengthSize = sizes & 15, baseSize = more >> 4, indexSize = version > 0 ? more & 15 : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize),
              [0, 4, 8].contains(indexSize) else { return [] }
        var found: [(item: UInt32, method: Int, offset: Int)] = []
        for _ in 0..<min(count, iloc.count) {
            guard let item = cursor.integer(version < 2 ? 2 : 4) else { break }
            var method = 0
            if version > 0 {
                guard let field = cursor.integer(2) else { break }
                method = field & 15
            }
            guard cursor.skip(2), let base = cursor.integer(baseSize), let extents = cursor.integer(2) else { break }
            var first: Int?
            for _ in 0..<extents {
                guard cursor.skip(indexSize), let offset = cursor.integer(offsetSize), cursor.skip(lengthSize) else { return found }
                if first == nil { first = offset }
            }
            if let first, base >= 0, first >= 0, base <= Int.max / 2, first <= Int.max / 2 {
                found.append((UInt32(item), method, base + first))
            }
        }
        return found
    }

    /// The output size a `grid` or `iovl` descriptor declares: 16-bit fields, or 32-bit ones
    /// when its flags' lowest bit is set.
    static func canvas(_ bytes: [UInt8], overlay: Bool) -> (width: Int, height: Int)? {
        var cursor = Cursor(bytes)
        guard let version = cursor.integer(1), version == 0, let flags = cursor.integer(1) else { return nil }
        // A grid's rows and columns (less one), or an overlay's fill colour (four 16-bit values).
        guard cursor.skip(overlay ? 8 : 2) else { return nil }
        let size = flags & 1 == 1 ? 4 : 2
        guard let width = cursor.integer(size), let height = cursor.integer(size) else { return nil }
        return (width, height)
    }

    /// Big-endian fields read in turn, each nil past the end.
    private struct Cursor {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, position + count <= bytes.count else { return nil }
            defer { position += count }
            return bytes[position..<position + count]
        }

        mutating func integer(_ count: Int) -> Int? {
            guard count > 0 else { return 0 }
            return bytes(count).map { Bytes.bigEndian($0) }
        }

        mutating func skip(_ count: Int) -> Bool { bytes(count) != nil }
    }
}
