import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The zone index against the unsimplified timezone-boundary-builder polygons, on fixtures that
/// scripts/make-zone-fixtures.py wrote and checked (Fixtures/zones): points on both sides of time
/// zone borders, whose zones and countries were asserted from geography, and 5,000 random points
/// near the gazetteer's towns. Nothing here is computed by the code under test.
@Suite("Time zone borders")
struct ZoneBorderTests {
    static let gazetteer: Result<Gazetteer, GeoTripError> = Result { () throws(GeoTripError) in try Gazetteer.load() }
    static let folder = TestPaths.fixtures.appendingPathComponent("zones")

    /// 2026-01-15T12:00:00Z and 2026-07-15T12:00:00Z, the moments of the fixtures' offsets.
    static let january = Date(timeIntervalSince1970: 1_768_478_400)
    static let july = Date(timeIntervalSince1970: 1_784_116_800)

    /// The gazetteer, with its zone index loaded (the polygon zones are what is tested).
    func load() throws -> Gazetteer {
        let gazetteer = try Self.gazetteer.get()
        try #require(gazetteer.zoneIndex != nil,
                     "the zone index did not load: \(gazetteer.zoneIndexProblem.map { "\($0)" } ?? "no reason given")")
        return gazetteer
    }

    struct BorderPoint: Decodable, Sendable, CustomTestStringConvertible {
        var border: String
        var name: String
        var latitude: Double
        var longitude: Double
        var zone: String
        var country: String
        var januaryOffsetSeconds: Int
        var julyOffsetSeconds: Int
        var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
        var testDescription: String { "\(border): \(name)" }
    }

    static func readBorders() throws -> [BorderPoint] {
        try JSONDecoder().decode([BorderPoint].self, from: Data(contentsOf: folder.appendingPathComponent("borders.json")))
    }

    /// Empty when the fixture is missing; `bordersFixture` then fails.
    static let borderPoints: [BorderPoint] = (try? readBorders()) ?? []

    @Test("the border fixture is there: at least 24 borders, each with points in two zones")
    func bordersFixture() throws {
        let points = try Self.readBorders()
        let borders = Dictionary(grouping: points, by: \.border)
        #expect(borders.count >= 24)
        #expect(points.count >= 48)
        for (border, side) in borders {
            #expect(side.count >= 2 && Set(side.map(\.zone)).count >= 2, "\(border) needs points in two zones")
        }
    }

    @Test("each side of a border gets its own zone, offsets and country", arguments: borderPoints)
    func borderPoint(_ point: BorderPoint) throws {
        let gazetteer = try load()
        #expect(gazetteer.timeZone(for: point.coordinate) == point.zone)
        // The system's tzdata agrees with the tzdata the fixture's offsets come from.
        let zone = try #require(TimeZone(identifier: point.zone), "the system does not know \(point.zone)")
        #expect(zone.secondsFromGMT(for: Self.january) == point.januaryOffsetSeconds)
        #expect(zone.secondsFromGMT(for: Self.july) == point.julyOffsetSeconds)
        // Named after a town on its own side of the border.
        let answer = gazetteer.describe(point.coordinate)
        #expect(answer.timeZone == point.zone)
        #expect(answer.kind != .openSea)
        #expect(answer.countryCode == point.country, "named \(answer.place?.name ?? answer.nearest.name)")
    }

    struct NearTown: Sendable {
        var latitude: Double
        var longitude: Double
        var zone: String
        var borderMetres: Double
    }

    static func readNearTowns() throws -> [NearTown] {
        let text = try String(contentsOf: folder.appendingPathComponent("near-towns.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n")
        guard lines.first == "latitude\tlongitude\tzone\tborder_metres" else {
            throw FixtureError(message: "near-towns.tsv does not start with its header line")
        }
        lines.removeFirst()
        return try lines.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, let latitude = Double(fields[0]), let longitude = Double(fields[1]),
                  let metres = Double(fields[3]) else {
                throw FixtureError(message: "bad line in near-towns.tsv: \(line)")
            }
            return NearTown(latitude: latitude, longitude: longitude, zone: fields[2], borderMetres: metres)
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    @Test("5,000 random points near towns: every point more than 50 m from a border is right, and 4,995 overall")
    func nearTowns() throws {
        let gazetteer = try load()
        let points = try Self.readNearTowns()
        #expect(points.count == 5_000)
        var wrong: [(NearTown, String?)] = []
        for point in points {
            let zone = gazetteer.timeZone(for: Coordinate(latitude: point.latitude, longitude: point.longitude))
            if zone != point.zone { wrong.append((point, zone)) }
        }
        let listed = wrong.prefix(10).map { entry in
            let (point, zone) = entry
            return "\(point.latitude),\(point.longitude): \(zone ?? "nil"), expected \(point.zone) (\(Int(point.borderMetres)) m from a border)"
        }.joined(separator: "; ")
        let far = wrong.filter { $0.0.borderMetres > 50 }
        #expect(far.isEmpty, "\(far.count) points more than 50 m from a border got another zone: \(listed)")
        #expect(points.count - wrong.count >= 4_995, "\(wrong.count) of \(points.count) wrong: \(listed)")
    }

    @Test("a zone border inside one state does not change the name: LeChee, in the Navajo Nation, on Denver's clock")
    func borderInsideState() throws {
        let gazetteer = try load()
        // GeoNames gives LeChee Arizona's zone (America/Phoenix); the polygon says America/Denver.
        // The nearest town of the same state names the point; the zone stays the polygon's.
        let answer = gazetteer.describe(Coordinate(latitude: 36.86, longitude: -111.43))
        #expect(answer.timeZone == "America/Denver")
        #expect(answer.place?.name == "LeChee" || answer.place?.name == "Page", "named \(answer.place?.name ?? "nothing")")
        #expect(answer.admin1 == "Arizona" && answer.distanceMeters < 10_000)
    }

    @Test("the open sea is nautical time and no country", arguments: [
        (30.0, -40.0, "Etc/GMT+3"),      // mid-Atlantic
        (0.0, -160.0, "Etc/GMT+11"),     // mid-Pacific
        (-45.0, -120.0, "Etc/GMT+8"),    // South Pacific
    ] as [(Double, Double, String)])
    func openSea(latitude: Double, longitude: Double, zone: String) throws {
        let gazetteer = try load()
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        #expect(gazetteer.timeZone(for: coordinate) == zone)
        let answer = gazetteer.describe(coordinate)
        #expect(answer.kind == .openSea)
        #expect(answer.timeZone == zone)
        #expect(answer.countryCode == nil)
    }

    @Test("deserts and ice sheets far from towns are land: a country's zone, not the sea", arguments: [
        (23.0, 12.0, "Africa/Niamey", "NE"),     // northern Niger, near the Algeria-Libya-Niger tripoint
        (25.0, 15.0, "Africa/Tripoli", "LY"),    // the Libyan Sahara (Fezzan)
        (72.0, -40.0, "America/Nuuk", "GL"),     // the Greenland ice sheet
    ] as [(Double, Double, String, String)])
    func inlandFarFromTowns(latitude: Double, longitude: Double, zone: String, country: String) throws {
        let gazetteer = try load()
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        #expect(gazetteer.timeZone(for: coordinate) == zone)
        let answer = gazetteer.describe(coordinate)
        #expect(answer.kind != .openSea)
        #expect(answer.timeZone == zone)
        #expect(answer.countryCode == country)
    }
}

/// A missing or damaged zone index: a clear error from the index, a stated fallback from the
/// gazetteer (the nearest town's zone), never a crash.
@Suite("Time zone index damage")
struct ZoneIndexDamageTests {
    /// The installed index's bytes, or why they could not be read.
    static let original: Result<Data, any Error> = Result {
        let search = ResourceLocator.find(ZoneIndex.resourceName, override: "GEOTRIP_ZONES")
        guard let url = search.found else { throw GeoTripError.zoneIndexMissing(tried: search.tried) }
        return try Data(contentsOf: url)
    }

    /// `data` with a new checksum, so that only the structure checks can catch what changed.
    func resealed(_ data: Data) -> Data {
        var data = data
        let checksum = data.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[ZoneIndex.headerLength...])) }
        withUnsafeBytes(of: checksum.littleEndian) { data.replaceSubrange(60..<64, with: $0) }
        return data
    }

    func writing(_ value: UInt32, at offset: Int, in data: Data) -> Data {
        var data = data
        withUnsafeBytes(of: value.littleEndian) { data.replaceSubrange(offset..<offset + 4, with: $0) }
        return data
    }

    @Test("a flipped byte, a truncation, a foreign file and a missing file are each a clear error")
    func damage() throws {
        let original = try Self.original.get()
        var flipped = original
        flipped[original.count / 2] ^= 0x5A
        #expect(throws: GeoTripError.zoneIndexDamaged(path: "test", reason: "its checksum does not match (the file was altered or damaged)")) {
            _ = try ZoneIndex(data: flipped, path: "test")
        }
        #expect(throws: GeoTripError.self) { _ = try ZoneIndex(data: original.prefix(original.count - 4), path: "test") }
        #expect(throws: GeoTripError.self) { _ = try ZoneIndex(data: original.prefix(10), path: "test") }
        #expect(throws: GeoTripError.zoneIndexDamaged(path: "test", reason: "it does not start with the zone index signature")) {
            _ = try ZoneIndex(data: Data(repeating: 0, count: 100), path: "test")
        }
        #expect(throws: GeoTripError.zoneIndexMissing(tried: ["/nonexistent/zones.bin"])) {
            _ = try ZoneIndex.load(from: URL(fileURLWithPath: "/nonexistent/zones.bin"))
        }
    }

    @Test("a well-sealed file whose cells point outside it is refused on load, not read out of bounds")
    func crafted() throws {
        let original = try Self.original.get()
        let index = try ZoneIndex(data: original, path: "test")
        let grid = Int(original.loadLE32(at: 16)), cellsLength = Int(original.loadLE32(at: 24))
        // Find the first shared cell, then damage its reference, its zone numbers and its counts.
        let shared = try #require((0..<(360 * 180)).first { original.loadLE32(at: grid + $0 * 4) & 0x8000_0000 == 0 })
        let record = Int(original.loadLE32(at: 20)) + Int(original.loadLE32(at: grid + shared * 4)) * 4
        let cases: [(String, Data)] = [
            ("a reference past the cells", writing(UInt32(cellsLength), at: grid + shared * 4, in: original)),
            ("a one-zone cell naming no zone", writing(0x8000_FFFE, at: grid, in: original)),
            ("a huge ring count", writing(UInt32(0xFFFF) << 16 | original.loadLE32(at: record + 4) & 0xFFFF, at: record + 4, in: original)),
            ("a remainder naming no zone", writing(UInt32(0xFFFE) << 16 | UInt32(original.loadLE16(at: record)), at: record, in: original)),
        ]
        for (what, data) in cases {
            #expect(throws: GeoTripError.self, "\(what)") { _ = try ZoneIndex(data: resealed(data), path: "test") }
        }
        #expect(index.zones.count > 400 && index.dataVersion == "2026c")
    }

    @Test("without the index the gazetteer says why and falls back to the nearest town's zone")
    func fallback() throws {
        let missing = try Gazetteer.load(zones: URL(fileURLWithPath: "/nonexistent/zones.bin"))
        #expect(missing.zoneIndex == nil)
        #expect(missing.zoneIndexProblem == .zoneIndexMissing(tried: ["/nonexistent/zones.bin"]))
        #expect(missing.timeZone(for: Coordinate(latitude: 48.8584, longitude: 2.2945)) == "Europe/Paris")
        #expect(missing.describe(Coordinate(latitude: 0, longitude: -160)).kind == .openSea)  // 200 km rule
        #expect(Gazetteer.fallbackSentence(missing.zoneIndexProblem!).contains("nearest town"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("zones.bin")
        var bytes = try Self.original.get()
        bytes[bytes.count - 10] ^= 1
        try bytes.write(to: damaged)
        let fallback = try Gazetteer.load(zones: damaged)
        #expect(fallback.zoneIndex == nil)
        guard case .zoneIndexDamaged(let path, _) = fallback.zoneIndexProblem else {
            Issue.record("expected a damaged-index problem, got \(String(describing: fallback.zoneIndexProblem))")
            return
        }
        #expect(path == damaged.path)
        // The nearest town's zone, as before the index: Hekou (China) reads as Lào Cai's
        // Asia/Bangkok across the river, where the polygons say Asia/Shanghai.
        let hekou = Coordinate(latitude: 22.55, longitude: 103.95)
        #expect(fallback.timeZone(for: hekou) == "Asia/Bangkok")
        #expect(try Gazetteer.load().timeZone(for: hekou) == "Asia/Shanghai")
    }
}
