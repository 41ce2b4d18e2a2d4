import Foundation

/// The embedded time zone index: timezone-boundary-builder's zone polygons (ODbL 1.0, built from
/// OpenStreetMap), territorial waters included and the nautical `Etc/GMT±N` zones beyond them,
/// cut into 1-degree cells (format: scripts/zones-format.md, made by scripts/make-zones.py).
///
/// A lookup is a grid read and, in a cell that more than one zone shares, a point-in-polygon
/// test on that cell's few simplified rings: no allocation, well under a microsecond. Borders
/// were simplified by at most 50 m, both sides together, so only points that close to a border
/// can read as the neighbour's zone.
public struct ZoneIndex: Sendable {
    /// A zone of the index: an IANA name, with what naming needs to know about it.
    public struct Zone: Sendable, Equatable {
        /// The IANA name, such as `Europe/Minsk`.
        public var name: String
        /// The same number for names that tzdb links to one zone (Europe/Kiev and Europe/Kyiv).
        public var clock: Int
        /// ISO 3166-1 alpha-2 codes of the zone's countries (zone.tab, else zone1970.tab).
        public var countries: [String]
        /// `Etc/GMT±N`: the open sea, outside every country's waters.
        public var isNautical: Bool
    }

    /// The file's first 8 bytes: "GTZON" 0 0 1 (format version 1).
    static let magic: [UInt8] = [0x47, 0x54, 0x5A, 0x4F, 0x4E, 0x00, 0x00, 0x01]
    /// Bytes before the zone records; the checksum covers what follows.
    static let headerLength = 64
    /// Bytes per zone record.
    static let zoneRecordLength = 16
    /// The grid: 1-degree cells, 360 columns from longitude -180, 180 rows from latitude -90.
    static let columns = 360, rows = 180
    private static let uniform: UInt32 = 0x8000_0000
    private static let scale = 65535.0

    /// The whole file, memory-mapped.
    let data: Data
    private let gridOffset: Int
    private let cellsOffset: Int
    /// Every zone name tzdb knows, and the polygons' names, sorted; the cells refer to these.
    public let zones: [Zone]
    /// The boundary release the polygons come from, such as "2026c".
    public let dataVersion: String
    private let indexByName: [String: Int]

    /// The resource's file name.
    public static let resourceName = "zones.bin"

    /// Maps and checks the index at `url`, or finds the resource (`GEOTRIP_ZONES` overriding).
    public static func load(from url: URL? = nil) throws(GeoTripError) -> ZoneIndex {
        let (data, path) = try ResourceLocator.map(resourceName, at: url, override: "GEOTRIP_ZONES") { .zoneIndexMissing(tried: $0) }
        return try ZoneIndex(data: data, path: path)
    }

    /// Which index a run would load, without loading it: the file's path, size and time, or
    /// "none". Stored with a catalog's resolution and names, so that a new index (or its
    /// loss) resolves times and names places again, once.
    public static func sourceKey() -> String {
        guard let url = ResourceLocator.find(resourceName, override: "GEOTRIP_ZONES").found else { return "zones:none" }
        return "zones:" + ResourceLocator.stamp(url.path)
    }

    /// Checks `data` (the whole file) completely, so that no lookup can read out of bounds.
    /// `path` names it in errors.
    init(data: Data, path: String) throws(GeoTripError) {
        func damaged(_ why: String) -> GeoTripError { .zoneIndexDamaged(path: path, reason: why) }
        guard data.count >= Self.headerLength, data.prefix(8).elementsEqual(Self.magic) else {
            throw damaged("it does not start with the zone index signature")
        }
        let u32 = { (offset: Int) in Int(data.loadLE32(at: offset)) }
        let zoneCount = u32(8), zonesOffset = u32(12), gridOffset = u32(16), cellsOffset = u32(20)
        let cellsLength = u32(24), stringsOffset = u32(28), stringsLength = u32(32)
        guard u32(36) == data.count else {
            throw damaged("it is \(data.count) bytes long but says \(u32(36)) (truncated or padded)")
        }
        let checksum = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[Self.headerLength...]))
        }
        guard checksum == data.loadLE32(at: 60) else {
            throw damaged("its checksum does not match (the file was altered or damaged)")
        }
        guard zoneCount > 0, zoneCount < 0xFFFF, zonesOffset == Self.headerLength,
              gridOffset == zonesOffset + zoneCount * Self.zoneRecordLength,
              cellsOffset == gridOffset + Self.columns * Self.rows * 4,
              stringsOffset == cellsOffset + cellsLength, stringsOffset + stringsLength == data.count else {
            throw damaged("its header does not describe its sections")
        }
        func string(_ offset: Int, _ length: Int) throws(GeoTripError) -> String {
            guard offset + length <= stringsLength,
                  let text = String(data: data[(stringsOffset + offset)..<(stringsOffset + offset + length)], encoding: .utf8) else {
                throw damaged("a name lies outside its strings or is not UTF-8")
            }
            return text
        }
        var zones: [Zone] = []
        zones.reserveCapacity(zoneCount)
        for index in 0..<zoneCount {
            let base = zonesOffset + index * Self.zoneRecordLength
            let name = try string(u32(base), Int(data.loadLE16(at: base + 4)))
            let countries = try string(u32(base + 8), Int(data.loadLE16(at: base + 12)))
            zones.append(Zone(name: name, clock: Int(data.loadLE16(at: base + 6)),
                              countries: countries.split(separator: ",").map(String.init),
                              isNautical: data.loadLE16(at: base + 14) & 2 != 0))
        }
        dataVersion = try string(Int(data.loadLE16(at: 40)), Int(data.loadLE16(at: 42)))
        try Self.checkCells(data, gridOffset: gridOffset, cellsOffset: cellsOffset, cellsLength: cellsLength,
                            zoneCount: zoneCount, damaged: damaged)
        self.data = data
        self.gridOffset = gridOffset
        self.cellsOffset = cellsOffset
        self.zones = zones
        indexByName = Dictionary(zones.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every grid reference and cell record within bounds, every zone number known.
    private static func checkCells(_ data: Data, gridOffset: Int, cellsOffset: Int, cellsLength: Int, zoneCount: Int,
                                   damaged: (String) -> GeoTripError) throws(GeoTripError) {
        var checked = Set<UInt32>()
        for cell in 0..<(columns * rows) {
            let reference = data.loadLE32(at: gridOffset + cell * 4)
            if reference & uniform != 0 {
                guard Int(reference & 0xFFFF) < zoneCount else { throw damaged("cell \(cell) names no zone") }
                continue
            }
            // Cells may share a record; each is checked once, so a crafted file cannot make
            // loading slow by pointing every cell at one huge record.
            guard checked.insert(reference).inserted else { continue }
            let base = Int(reference) * 4
            guard base + 4 <= cellsLength else { throw damaged("cell \(cell) points past its section") }
            let stored = Int(data.loadLE16(at: cellsOffset + base))
            guard Int(data.loadLE16(at: cellsOffset + base + 2)) < zoneCount,
                  base + 4 + stored * 8 <= cellsLength else { throw damaged("cell \(cell) is cut short") }
            var rings = 0
            for entry in 0..<stored {
                let at = cellsOffset + base + 4 + entry * 8
                guard Int(data.loadLE16(at: at)) < zoneCount, Int(data.loadLE32(at: at + 4)) == rings else {
                    throw damaged("cell \(cell) has a malformed entry")
                }
                rings += Int(data.loadLE16(at: at + 2))
            }
            let ringsBase = base + 4 + stored * 8
            guard ringsBase + rings * 16 <= cellsLength else { throw damaged("cell \(cell) is cut short") }
            var vertices = 0
            for ring in 0..<rings {
                let at = cellsOffset + ringsBase + ring * 16
                guard Int(data.loadLE32(at: at)) == vertices, data.loadLE32(at: at + 4) >= 3 else {
                    throw damaged("cell \(cell) has a malformed ring")
                }
                vertices += Int(data.loadLE32(at: at + 4))
            }
            guard ringsBase + rings * 16 + vertices * 4 <= cellsLength else { throw damaged("cell \(cell) is cut short") }
        }
    }

    /// The number of a zone name in `zones`, if the index knows it.
    public func zoneNumber(named name: String) -> Int? { indexByName[name] }

    /// The zone at `coordinate`, as a number into `zones`.
    public func zoneNumber(at coordinate: Coordinate) -> Int {
        // Longitude 180 is the meridian -180 is: the cell west of it would put the point on
        // its right edge, where no ring can hold it. Values that are no number read as 0.
        var longitude = coordinate.longitude.isFinite ? coordinate.longitude : 0
        let latitude = coordinate.latitude.isFinite ? min(max(coordinate.latitude, -90), 90) : 0
        if longitude >= 180 || longitude < -180 { longitude = (longitude + 180).truncatingRemainder(dividingBy: 360) - 180 }
        if longitude < -180 { longitude += 360 }
        let column = min(max(Int((longitude + 180).rounded(.down)), 0), Self.columns - 1)
        let row = min(max(Int((latitude + 90).rounded(.down)), 0), Self.rows - 1)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            let reference = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: gridOffset + (row * Self.columns + column) * 4, as: UInt32.self))
            if reference & Self.uniform != 0 { return Int(reference & 0xFFFF) }
            // The point in the cell's 16-bit units, unrounded: the vertices were rounded, the
            // point need not be.
            let u = (longitude - Double(column - 180)) * Self.scale
            let v = (latitude - Double(row - 90)) * Self.scale
            let base = cellsOffset + Int(reference) * 4
            let u16 = { (offset: Int) in Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) }
            let u32 = { (offset: Int) in Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
            let stored = u16(base), remainder = u16(base + 2)
            var ringCount = 0
            for entry in 0..<stored { ringCount += u16(base + 4 + entry * 8 + 2) }
            let ringsBase = base + 4 + stored * 8
            let verticesBase = ringsBase + ringCount * 16
            for entry in 0..<stored {
                let at = base + 4 + entry * 8
                var inside = false
                let firstRing = u32(at + 4)
                for ring in firstRing..<(firstRing + u16(at + 2)) {
                    let record = ringsBase + ring * 16
                    guard u >= Double(u16(record + 8)), v >= Double(u16(record + 10)),
                          u <= Double(u16(record + 12)), v <= Double(u16(record + 14)) else { continue }
                    if Self.crossings(u, v, vertices: verticesBase + u32(record) * 4, count: u32(record + 4), in: raw) {
                        inside.toggle()
                    }
                }
                if inside { return u16(at) }
            }
            return remainder
        }
    }

    /// Whether a ray from (u, v) towards +u crosses the ring an odd number of times (even-odd).
    private static func crossings(_ u: Double, _ v: Double, vertices: Int, count: Int, in raw: UnsafeRawBufferPointer) -> Bool {
        let point = { (index: Int) -> (Double, Double) in
            let packed = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: vertices + index * 4, as: UInt32.self))
            return (Double(packed & 0xFFFF), Double(packed >> 16))
        }
        var odd = false
        var (x0, y0) = point(count - 1)
        for index in 0..<count {
            let (x1, y1) = point(index)
            if (y1 > v) != (y0 > v), u < x1 + (v - y1) * (x0 - x1) / (y0 - y1) {
                odd.toggle()
            }
            (x0, y0) = (x1, y1)
        }
        return odd
    }

    /// The zone at `coordinate`.
    public func zone(at coordinate: Coordinate) -> Zone { zones[zoneNumber(at: coordinate)] }
}
