import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The carried base layer against facts about the world (Lisbon is on land, the sea off Cascais
/// is not, Portugal meets Spain near Badajoz) and against the clipping's own promises.
@Suite("Base map")
struct BaseMapTests {
    static let baseMap: BaseMap? = try? BaseMap.load()

    func load() throws -> BaseMap { try #require(Self.baseMap, "the base map resource did not load") }

    /// The trip window of the sample trip: Lisbon, Sintra, Sevilla, Madrid.
    static let iberia = GeoBox(south: 37.3, west: -9.5, north: 40.5, east: -3.6).expanded(by: 0.25, atLeast: 0.5)

    /// Even-odd ray casting over one ring of flattened (lat, lon) pairs in stored units.
    static func ring(_ shape: BaseMapShape, contains c: Coordinate, scale: Int) -> Bool {
        let points = shape.coordinates(scale: scale)
        var inside = false
        var j = points.count - 1
        for i in 0..<points.count {
            let a = points[i], b = points[j]
            if (a.latitude > c.latitude) != (b.latitude > c.latitude),
               c.longitude < (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// Land is where a land ring holds the point and no lake ring does.
    static func isLand(_ c: Coordinate, in extract: BaseMapExtract) -> Bool {
        var level = 0
        for shape in extract.shores where ring(shape, contains: c, scale: extract.scale) {
            level = max(level, Int(shape.kind.rawValue))
        }
        return level == 1 || level == 3 || level == 5
    }

    @Test("the resource loads and is the one scripts/make-basemap.py last wrote")
    func resourceIsTheScriptsOutput() throws {
        _ = try load()
        let recorded = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/GeoTripCore/Resources/basemap.bin.sha256"), encoding: .utf8)
        #expect(recorded.hasPrefix(try GazetteerTests.sha256(of: try BaseMap.resourceURL())))
    }

    @Test("land and sea around the sample trip are where they are")
    func landAndSea() throws {
        let extract = try load().extract(window: Self.iberia)
        #expect(!extract.shores.isEmpty)
        for (name, lat, lon) in [("Lisbon", 38.7223, -9.1393), ("Madrid", 40.4168, -3.7038), ("Sevilla", 37.3891, -5.9845), ("Sintra", 38.8029, -9.3817)] {
            #expect(Self.isLand(Coordinate(latitude: lat, longitude: lon), in: extract), "\(name) is on land")
        }
        for (name, lat, lon) in [("off Cascais", 38.60, -9.50), ("the Tagus estuary", 38.70, -9.10)] {
            #expect(!Self.isLand(Coordinate(latitude: lat, longitude: lon), in: extract), "\(name) is water")
        }
    }

    @Test("clipped shores stay inside the window; borders reach it; the overview covers the world")
    func clipping() throws {
        let map = try load()
        let extract = map.extract(window: Self.iberia)
        let window = Self.iberia
        let slack = 1.0 / Double(extract.scale)
        for shape in extract.shores {
            for c in shape.coordinates(scale: extract.scale) {
                #expect(c.latitude >= window.south - slack && c.latitude <= window.north + slack
                        && c.longitude >= window.west - slack && c.longitude <= window.east + slack)
            }
            #expect(shape.points.prefix(2) == shape.points.suffix(2), "rings stay closed")
        }
        #expect(!extract.borders.isEmpty, "the Portugal-Spain border crosses the window")
        let codes = Set(extract.countries.compactMap(\.code))
        #expect(codes.isSuperset(of: ["PT", "ES", "FR", "KR", "JP", "US", "BR", "AU"]))
        let portugal = extract.countries.filter { $0.code == "PT" && $0.kind == .country }
        #expect(portugal.contains { Self.ring($0, contains: Coordinate(latitude: 39.5, longitude: -8.0), scale: extract.scale) })
    }

    @Test("a window of the whole world is thinned to what one screen shows")
    func worldIsThinned() throws {
        let map = try load()
        let city = map.extract(window: GeoBox(south: 38.6, west: -9.3, north: 38.8, east: -9.0))
        let world = map.extract(window: .world)
        #expect(world.pointCount < 80_000, "world: \(world.pointCount) points")
        #expect(city.pointCount < 20_000, "Lisbon: \(city.pointCount) points")
        // At city scale nothing is thinned away: the estuary's shore keeps every point the
        // data has (GSHHG intermediate, about one a kilometre).
        let unthinned = map.extract(window: GeoBox(south: 38.6, west: -9.3, north: 38.8, east: -9.0), detail: 1e9)
        #expect(city.shores == unthinned.shores)
        #expect(city.shores.reduce(0) { $0 + $1.points.count / 2 } > 30)
    }

    @Test("the extract's own JSON writer gives JSONEncoder's bytes, for a city, a country and the world",
          arguments: [GeoBox(south: 38.6, west: -9.3, north: 38.8, east: -9.0), BaseMapTests.iberia, GeoBox.world])
    func extractJSON(window: GeoBox) throws {
        let extract = try load().extract(window: window)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try extract.json() == String(decoding: try encoder.encode(extract), as: UTF8.self))
    }

    @Test("a script's JSON escapes <, >, & and the two line separators, and keeps everything else byte for byte")
    func scriptEscaping() throws {
        let text = "{\"a\":\"</script><!-- & \u{2028}\u{2029} café 서울 🙂 \u{2027}\u{202A}\"}"
        #expect(ScriptJSON.escape(text) == "{\"a\":\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 café 서울 🙂 \u{2027}\u{202A}\"}")
    }

    @Test("the clipping of a square ring by a box")
    func clipSquare() {
        let p = { (x: Int32, y: Int32) in ScaledPoint(lon: x, lat: y) }
        let ring = [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)]
        let clipped = BaseMapGeometry.clip(ring: ring, to: ScaledBox(west: 5, south: -5, east: 15, north: 5))
        #expect(Set(clipped.map { "\($0.lon),\($0.lat)" }) == ["5,0", "10,0", "10,5", "5,5"])
        #expect(clipped.first == clipped.last)
        #expect(BaseMapGeometry.clip(ring: ring, to: ScaledBox(west: 20, south: 20, east: 30, north: 30)).isEmpty)
        let line = [p(-10, 0), p(-5, 0), p(0, 0), p(5, 0), p(10, 0), p(20, 0), p(30, 0)]
        #expect(BaseMapGeometry.runs(of: line, inside: ScaledBox(west: -1, south: -1, east: 6, north: 1)).map(\.count) == [4])
    }

    @Test("a damaged or cut file is refused with a sentence")
    func damaged() throws {
        let url = try BaseMap.resourceURL()
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x55
        #expect(throws: GeoTripError.self) { try BaseMap(data: bytes, path: "x") }
        let cut = try Data(contentsOf: url).prefix(1000)
        do {
            _ = try BaseMap(data: Data(cut), path: "cut.bin")
            Issue.record("a cut file loaded")
        } catch {
            #expect(error.description.contains("cut.bin"))
        }
    }
}
