import Foundation

/// The gazetteer resource as it lies on disk (format: scripts/gazetteer-format.md), checked
/// once on load so that every later read can trust its offsets.
///
/// The file is memory-mapped: loading costs a checksum pass and one pass over the places, and
/// the forward-search keys are only paged in when a search runs.
struct GazetteerFile: Sendable {
    static let magic: [UInt8] = [0x47, 0x54, 0x47, 0x41, 0x5A, 0x00, 0x00, 0x01]  // "GTGAZ" 0 0 1
    static let headerLength = 64
    static let placeRecordLength = 24

    let data: Data
    let placeCount: Int
    let countryCount: Int
    let admin1Count: Int
    let zoneCount: Int
    let placesOffset: Int
    let countriesOffset: Int
    let admin1Offset: Int
    let zonesOffset: Int
    let stringsOffset: Int
    let stringsLength: Int
    let keysOffset: Int
    let keysLength: Int
    /// The CRC-32 of the body, from the header (checked on load): which gazetteer this is.
    var checksum: UInt32 { data.loadLE32(at: 60) }

    /// Maps and checks the file at `url`.
    init(url: URL) throws(GeoTripError) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw .gazetteerMissing(tried: [url.path])
        }
        try self.init(data: data, path: url.path)
    }

    /// Checks `data` (the whole file). `path` names it in errors.
    init(data: Data, path: String) throws(GeoTripError) {
        func damaged(_ why: String) -> GeoTripError { .gazetteerDamaged(path: path, reason: why) }
        guard data.count >= Self.headerLength, data.prefix(8).elementsEqual(Self.magic) else {
            throw damaged("it does not start with the gazetteer signature")
        }
        self.data = data
        let u32 = { (offset: Int) in Int(data.loadLE32(at: offset)) }
        placeCount = u32(8)
        countryCount = u32(12)
        admin1Count = u32(16)
        zoneCount = u32(20)
        placesOffset = u32(24)
        countriesOffset = u32(28)
        admin1Offset = u32(32)
        zonesOffset = u32(36)
        stringsOffset = u32(40)
        stringsLength = u32(44)
        keysOffset = u32(48)
        keysLength = u32(52)
        guard u32(56) == data.count else {
            throw damaged("it is \(data.count) bytes long but says \(u32(56)) (truncated or padded)")
        }
        let checksum = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[Self.headerLength...]))
        }
        guard checksum == data.loadLE32(at: 60) else {
            throw damaged("its checksum does not match (the file was altered or damaged)")
        }
        // The checksum covers the body only, so the header is checked against the exact layout
        // the script writes: sections back to back in header order, each on a multiple of 4,
        // the last ending the file. A damaged count or offset cannot satisfy all of it.
        let sections = [
            (placesOffset, placeCount * Self.placeRecordLength), (countriesOffset, countryCount * 8),
            (admin1Offset, admin1Count * 8), (zonesOffset, zoneCount * 8),
            (stringsOffset, stringsLength), (keysOffset, keysLength),
        ]
        var expectedOffset = Self.headerLength
        for (offset, length) in sections {
            guard offset == expectedOffset else { throw damaged("its header does not describe its sections") }
            expectedOffset = (offset + length + 3) / 4 * 4
        }
        guard keysOffset + keysLength == data.count, placeCount > 0, countryCount > 0,
              countryCount < 0xFF, admin1Count < 0xFFFF, zoneCount < 0xFFFF
        else { throw damaged("its header does not describe its sections") }
        try validateReferences(damaged)
    }

    /// Every index and string reference in range, so lookups need no checks of their own.
    private func validateReferences(_ damaged: (String) -> GeoTripError) throws(GeoTripError) {
        let problem: String? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
            func u16(_ at: Int) -> Int { Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self))) }
            func stringFits(_ offset: Int, _ length: Int) -> Bool { offset + length <= stringsLength }
            for index in 0..<placeCount {
                let record = placesOffset + index * Self.placeRecordLength
                let latitude = Int32(bitPattern: UInt32(u32(record))), longitude = Int32(bitPattern: UInt32(u32(record + 4)))
                let admin1 = u16(record + 18), zone = u16(record + 20)
                let country = Int(raw[record + 22]), axis = raw[record + 23]
                guard stringFits(u32(record + 12), u16(record + 16)),
                      admin1 == 0xFFFF || admin1 < admin1Count, zone == 0xFFFF || zone < zoneCount,
                      country == 0xFF || country < countryCount, axis < 3,
                      abs(latitude) <= 9_000_000, abs(longitude) <= 18_000_000
                else { return "place record \(index) is out of range" }
            }
            for index in 0..<countryCount where !stringFits(u32(countriesOffset + index * 8 + 4), u16(countriesOffset + index * 8 + 2)) {
                return "country record \(index) is out of range"
            }
            for index in 0..<admin1Count {
                let record = admin1Offset + index * 8
                let country = Int(raw[record + 6])
                guard stringFits(u32(record), u16(record + 4)), country == 0xFF || country < countryCount else {
                    return "admin1 record \(index) is out of range"
                }
            }
            for index in 0..<zoneCount where !stringFits(u32(zonesOffset + index * 8), u16(zonesOffset + index * 8 + 4)) {
                return "zone record \(index) is out of range"
            }
            return nil
        }
        if let problem { throw damaged(problem) }
    }

    // MARK: Field access (offsets checked on load)

    func string(offset: Int, length: Int) -> String {
        let start = data.startIndex + stringsOffset + offset
        return String(decoding: data[start..<start + length], as: UTF8.self)
    }

    func placeRecord(_ index: Int) -> Int { placesOffset + index * Self.placeRecordLength }

    func name(_ index: Int) -> String {
        let record = placeRecord(index)
        return string(offset: Int(data.loadLE32(at: record + 12)), length: Int(data.loadLE16(at: record + 16)))
    }
    func countryCode(_ index: Int) -> String {
        let start = data.startIndex + countriesOffset + index * 8
        return String(decoding: data[start..<start + 2], as: UTF8.self)
    }
    func countryName(_ index: Int) -> String {
        let record = countriesOffset + index * 8
        return string(offset: Int(data.loadLE32(at: record + 4)), length: Int(data.loadLE16(at: record + 2)))
    }
    func admin1Name(_ index: Int) -> String {
        let record = admin1Offset + index * 8
        return string(offset: Int(data.loadLE32(at: record)), length: Int(data.loadLE16(at: record + 4)))
    }
    func zoneName(_ index: Int) -> String {
        let record = zonesOffset + index * 8
        return string(offset: Int(data.loadLE32(at: record)), length: Int(data.loadLE16(at: record + 4)))
    }

    /// The per-place columns lookups use, copied out of the file in one pass.
    func placeColumns() -> PlaceColumns {
        var columns = PlaceColumns(count: placeCount)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            for index in 0..<placeCount {
                let record = placesOffset + index * Self.placeRecordLength
                func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: record + at, as: UInt32.self)) }
                func u16(_ at: Int) -> UInt16 { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: record + at, as: UInt16.self)) }
                columns.latitudeE5[index] = Int32(bitPattern: u32(0))
                columns.longitudeE5[index] = Int32(bitPattern: u32(4))
                columns.population[index] = u32(8)
                columns.admin1[index] = u16(18)
                columns.zone[index] = u16(20)
                columns.country[index] = raw[record + 22]
                columns.axis[index] = raw[record + 23]
            }
        }
        return columns
    }
}

/// Per-place fields as flat arrays, in k-d tree order. 0xFFFF / 0xFF mean "none".
struct PlaceColumns: Sendable {
    var latitudeE5: [Int32]
    var longitudeE5: [Int32]
    var population: [UInt32]
    var admin1: [UInt16]
    var zone: [UInt16]
    var country: [UInt8]
    var axis: [UInt8]

    init(count: Int) {
        latitudeE5 = Array(repeating: 0, count: count)
        longitudeE5 = Array(repeating: 0, count: count)
        population = Array(repeating: 0, count: count)
        admin1 = Array(repeating: 0, count: count)
        zone = Array(repeating: 0, count: count)
        country = Array(repeating: 0, count: count)
        axis = Array(repeating: 0, count: count)
    }
}

extension Data {
    /// A little-endian UInt32 at `offset` from the start.
    func loadLE32(at offset: Int) -> UInt32 {
        withUnsafeBytes { (raw: UnsafeRawBufferPointer) in UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// A little-endian UInt16 at `offset` from the start.
    func loadLE16(at offset: Int) -> UInt16 {
        withUnsafeBytes { (raw: UnsafeRawBufferPointer) in UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    }
}

/// CRC-32 as zlib computes it (polynomial 0xEDB88320), to check the resource on load.
/// Written here because Foundation on Linux exposes no zlib. Slicing by 8 (eight tables, eight
/// bytes a step) checks the 15.3 MB file in a few milliseconds.
enum CRC32 {
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
