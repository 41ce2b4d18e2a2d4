import Foundation

/// The offline base layer geotrip carries (`Resources/basemap.bin`, built by
/// `scripts/make-basemap.py`, whose docstring specifies the format): GSHHG shorelines, lakes
/// and borders at intermediate resolution, and Natural Earth's countries for the overview.
/// `extract(around:)` cuts out what one trip's map needs, so the page carries only that.
public struct BaseMap: Sendable {
    /// The resource's file name.
    public static let resourceName = "basemap.bin"
    static let magic: [UInt8] = Array("GTBMAP".utf8) + [0, 1]
    static let headerLength = 32
    static let featureHeaderLength = 28

    /// What a feature is, as the format numbers it.
    public enum Kind: UInt8, Sendable, Codable {
        case land = 1, lake = 2, islandInLake = 3, pond = 4, iceFront = 5
        case border = 10
        case country = 20, countryHole = 21
    }

    let data: Data
    let featureCount: Int
    /// Stored coordinates are degrees times this.
    public let scale: Int
    /// The CRC-32 of the features, from the header (checked on load): which base map this is.
    var checksum: UInt32 { data.loadLE32(at: 16) }

    /// Where the resource is (`ResourceLocator.find`), `GEOTRIP_BASEMAP` overriding.
    public static func resourceURL() throws(GeoTripError) -> URL {
        let search = ResourceLocator.find(resourceName, override: "GEOTRIP_BASEMAP")
        guard let found = search.found else { throw .baseMapMissing(tried: search.tried) }
        return found
    }

    /// Maps and checks the resource at `url`, or finds it (`resourceURL()`).
    public static func load(from url: URL? = nil) throws(GeoTripError) -> BaseMap {
        let (data, path) = try ResourceLocator.map(resourceName, at: url, override: "GEOTRIP_BASEMAP") { .baseMapMissing(tried: $0) }
        return try BaseMap(data: data, path: path)
    }

    /// Checks `data` (the whole file): signature, length, checksum, and that every feature's
    /// header stays inside the file. `path` names it in errors.
    init(data: Data, path: String) throws(GeoTripError) {
        func damaged(_ why: String) -> GeoTripError { .baseMapDamaged(path: path, reason: why) }
        guard data.count >= Self.headerLength, data.prefix(8).elementsEqual(Self.magic) else {
            throw damaged("it does not start with the base map signature")
        }
        featureCount = Int(data.loadLE32(at: 8))
        guard Int(data.loadLE32(at: 12)) == data.count - Self.headerLength else {
            throw damaged("it is \(data.count) bytes long but says \(Int(data.loadLE32(at: 12)) + Self.headerLength) (truncated or padded)")
        }
        let checksum = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[Self.headerLength...]))
        }
        guard checksum == data.loadLE32(at: 16) else {
            throw damaged("its checksum does not match (the file was altered or damaged)")
        }
        scale = Int(data.loadLE32(at: 20))
        guard scale > 0 else { throw damaged("its coordinate scale is zero") }
        var offset = Self.headerLength
        for _ in 0..<featureCount {
            guard offset + Self.featureHeaderLength <= data.count,
                  Kind(rawValue: data[data.startIndex + offset]) != nil else {
                throw damaged("its features do not fill the file as their headers say")
            }
            offset += Self.featureHeaderLength + Int(data.loadLE32(at: offset + 24))
        }
        guard offset == data.count else { throw damaged("its features do not fill the file as their headers say") }
        self.data = data
    }

    /// Everything the map of a trip draws, for a window around the trip:
    /// - shores and borders clipped to `window`, thinned to what shows when the whole window
    ///   fills a screen (`window`'s larger side / `detail`);
    /// - every country of the world overview, thinned to a fifth of a degree (a pixel at zoom 3).
    ///
    /// A window whose east edge lies beyond 180° (a trip across the Pacific, drawn on a map that
    /// runs from its west edge to 360° further east) is cut in two at the antimeridian and its
    /// eastern part moved 360° east, so the map draws one continuous region; countries mostly
    /// west of the map's cut (`seam`; Greenwich when nil) move with it, so the Americas lie east
    /// of Asia on that map.
    public func extract(window: GeoBox, seam: Double? = nil, detail: Double = 4000) -> BaseMapExtract {
        let s = Double(scale)
        func scaledBox(_ box: GeoBox) -> ScaledBox {
            ScaledBox(west: Int32((box.west * s).rounded(.down)), south: Int32((box.south * s).rounded(.down)),
                      east: Int32((box.east * s).rounded(.up)), north: Int32((box.north * s).rounded(.up)))
        }
        let wraps = window.east > 180
        // The parts of the window in stored longitudes, each with how far its points move.
        var parts = [(clip: scaledBox(GeoBox(south: window.south, west: window.west, north: window.north, east: min(180, window.east))), shift: Int32(0))]
        if wraps {
            parts.append((scaledBox(GeoBox(south: window.south, west: -180, north: window.north, east: window.east - 360)), Int32(360 * scale)))
        }
        let tolerance = max(window.width, window.height) * s / detail
        let overviewTolerance = 0.2 * s
        func moved(_ points: [ScaledPoint], by shift: Int32) -> [ScaledPoint] {
            shift == 0 ? points : points.map { ScaledPoint(lon: $0.lon + shift, lat: $0.lat) }
        }
        var extract = BaseMapExtract(window: window, scale: scale)
        let cut = Int32(((seam ?? 0) * s).rounded())
        var ringShift: Int32 = 0
        forEachFeature { kind, code, box, decode in
            switch kind {
            case .country, .countryHole:
                let ring = BaseMapGeometry.simplify(decode(), tolerance: overviewTolerance, closed: true)
                // The overview's countries mostly west of the map's cut move with it, whole (the
                // United States with Alaska and Hawaii, east of the Pacific); a hole moves with
                // the ring before it.
                if kind == .country { ringShift = wraps && Int64(cut) - Int64(box.west) > Int64(box.east) - Int64(cut) ? Int32(360 * scale) : 0 }
                let shift = ringShift
                if ring.count >= 4 { extract.countries.append(BaseMapShape(kind: kind, code: code, points: moved(ring, by: shift))) }
            case .border:
                for part in parts where box.intersects(part.clip) {
                    for run in BaseMapGeometry.runs(of: decode(), inside: part.clip) {
                        let line = BaseMapGeometry.simplify(run, tolerance: tolerance, closed: false)
                        if line.count >= 2 { extract.borders.append(BaseMapShape(kind: kind, code: nil, points: moved(line, by: part.shift))) }
                    }
                }
            default:
                // A ring smaller than the thinning step would draw as a speck.
                guard Double(box.east - box.west) >= tolerance || Double(box.north - box.south) >= tolerance else { return }
                for part in parts where box.intersects(part.clip) {
                    let ring = BaseMapGeometry.clip(ring: decode(), to: part.clip)
                    let thinned = BaseMapGeometry.simplify(ring, tolerance: tolerance, closed: true)
                    if thinned.count >= 4 { extract.shores.append(BaseMapShape(kind: kind, code: nil, points: moved(thinned, by: part.shift))) }
                }
            }
        }
        return extract
    }

    /// Calls `body` with each feature's kind, country code, box and a decoder of its points
    /// (called only for the features that need them).
    private func forEachFeature(_ body: (Kind, String?, ScaledBox, () -> [ScaledPoint]) -> Void) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            func i32(_ at: Int) -> Int32 { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self)) }
            func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
            var offset = Self.headerLength
            for _ in 0..<featureCount {
                let kind = Kind(rawValue: raw[offset])!  // checked in init
                let code: String? = raw[offset + 2] == 0 ? nil
                    : String(decoding: [raw[offset + 2], raw[offset + 3]], as: UTF8.self)
                let count = u32(offset + 4)
                let box = ScaledBox(west: i32(offset + 8), south: i32(offset + 12), east: i32(offset + 16), north: i32(offset + 20))
                let start = offset + Self.featureHeaderLength, end = start + u32(offset + 24)
                body(kind, code, box) { Self.decodePoints(raw, from: start, to: end, count: count) }
                offset = end
            }
        }
    }

    /// Zig-zag LEB128 deltas, (lon, lat) pairs, the first absolute. A value cut short by the end
    /// of the feature ends the list (the checksum makes that a programming error, not data).
    private static func decodePoints(_ raw: UnsafeRawBufferPointer, from start: Int, to end: Int, count: Int) -> [ScaledPoint] {
        var points: [ScaledPoint] = []
        points.reserveCapacity(count)
        var at = start
        var lon: Int64 = 0, lat: Int64 = 0
        func next() -> Int64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while at < end {
                let byte = raw[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
                shift += 7
                if shift > 63 { return nil }
            }
            return nil
        }
        while points.count < count, let dx = next(), let dy = next() {
            lon += dx
            lat += dy
            points.append(ScaledPoint(lon: Int32(truncatingIfNeeded: lon), lat: Int32(truncatingIfNeeded: lat)))
        }
        return points
    }
}
