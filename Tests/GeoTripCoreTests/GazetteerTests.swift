import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The embedded gazetteer against facts about the world (where famous places are, which
/// country a border town is in, what time it is in Paris in July) and against brute force.
@Suite("Offline gazetteer")
struct GazetteerTests {
    static let gazetteer: Gazetteer? = try? Gazetteer.load()

    func load() throws -> Gazetteer { try #require(Self.gazetteer, "the gazetteer resource did not load") }

    @Test("the resource loads and is the one scripts/make-gazetteer.py last wrote")
    func resourceIsTheScriptsOutput() throws {
        let gazetteer = try load()
        #expect(gazetteer.count == 234_908)
        let url = try Gazetteer.resourceURL()
        let recorded = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/GeoTripCore/Resources/gazetteer.bin.sha256"), encoding: .utf8)
        let actual = try Self.sha256(of: url)
        #expect(recorded.hasPrefix(actual), "the committed resource is not what the script recorded")
    }

    struct Landmark: Sendable, CustomTestStringConvertible {
        var what: String
        var latitude: Double
        var longitude: Double
        var name: String
        var countryCode: String
        var timeZone: String
        var testDescription: String { what }
    }

    /// One or more per inhabited continent, a polar town, an island state across the antimeridian.
    static let landmarks: [Landmark] = [
        Landmark(what: "Kinkaku-ji, Kyoto", latitude: 35.0394, longitude: 135.7292, name: "Kyoto", countryCode: "JP", timeZone: "Asia/Tokyo"),
        Landmark(what: "Eiffel Tower", latitude: 48.8584, longitude: 2.2945, name: "Paris", countryCode: "FR", timeZone: "Europe/Paris"),
        Landmark(what: "Sydney Opera House", latitude: -33.8568, longitude: 151.2153, name: "Sydney", countryCode: "AU", timeZone: "Australia/Sydney"),
        Landmark(what: "Times Square", latitude: 40.7580, longitude: -73.9855, name: "New York City", countryCode: "US", timeZone: "America/New_York"),
        Landmark(what: "Avenida Paulista, São Paulo", latitude: -23.5614, longitude: -46.6559, name: "São Paulo", countryCode: "BR", timeZone: "America/Sao_Paulo"),
        Landmark(what: "Egyptian Museum, Cairo", latitude: 30.0478, longitude: 31.2336, name: "Cairo", countryCode: "EG", timeZone: "Africa/Cairo"),
        Landmark(what: "Kenyatta Centre, Nairobi", latitude: -1.2887, longitude: 36.8233, name: "Nairobi", countryCode: "KE", timeZone: "Africa/Nairobi"),
        Landmark(what: "Longyearbyen church, Svalbard", latitude: 78.2232, longitude: 15.6267, name: "Longyearbyen", countryCode: "SJ", timeZone: "Arctic/Longyearbyen"),
        Landmark(what: "Suva harbour, Fiji (east of 178° E)", latitude: -18.1416, longitude: 178.4419, name: "Suva", countryCode: "FJ", timeZone: "Pacific/Fiji"),
        Landmark(what: "Apia, Samoa (west of 180°)", latitude: -13.8333, longitude: -171.7667, name: "Apia", countryCode: "WS", timeZone: "Pacific/Apia"),
        Landmark(what: "Torre de Belém, a district of Lisbon", latitude: 38.6916, longitude: -9.2160, name: "Lisbon", countryCode: "PT", timeZone: "Europe/Lisbon"),
        // A bigger city across a border is not where the photo was taken.
        Landmark(what: "St Peter's Square, not Rome", latitude: 41.9022, longitude: 12.4539, name: "Vatican City", countryCode: "VA", timeZone: "Europe/Vatican"),
        Landmark(what: "Hoboken waterfront, not New York", latitude: 40.7440, longitude: -74.0324, name: "Hoboken", countryCode: "US", timeZone: "America/New_York"),
        // Kehl's market square. (Until the zone polygons, this landmark stood at 48.5700,
        // 7.8000, which is on the Rhine 220 m inside France by OpenStreetMap's border: it now
        // reads as Strasbourg, as it should.)
        Landmark(what: "Kehl, not Strasbourg across the Rhine", latitude: 48.5726, longitude: 7.8146, name: "Kehl", countryCode: "DE", timeZone: "Europe/Berlin"),
    ]

    @Test("landmarks on every continent get the town people would name", arguments: landmarks)
    func landmarkNames(_ landmark: Landmark) throws {
        let answer = try load().describe(Coordinate(latitude: landmark.latitude, longitude: landmark.longitude))
        #expect(answer.kind == .place)
        #expect(answer.place?.name == landmark.name)
        #expect(answer.countryCode == landmark.countryCode)
        #expect(answer.timeZone == landmark.timeZone)
        #expect(answer.distanceMeters < 25_000)
    }

    @Test("a region ISO 3166-2 writes inverted is named as people write it; a list with a comma is kept")
    func spokenOrder() throws {
        // Puerta del Sol, Madrid; Kazan; Bogotá's islands are a list, not an inversion.
        #expect(try load().describe(Coordinate(latitude: 40.4169, longitude: -3.7035)).place?.admin1 == "Comunidad de Madrid")
        #expect(try load().describe(Coordinate(latitude: 55.7963, longitude: 49.1088)).place?.admin1 == "Respublika Tatarstan")
        #expect(Gazetteer.spokenOrder("wallonne, Région") == "Région wallonne")
        #expect(Gazetteer.spokenOrder("Navarra, Comunidad Foral de") == "Comunidad Foral de Navarra")
        #expect(Gazetteer.spokenOrder("San Andrés, Providencia y Santa Catalina") == "San Andrés, Providencia y Santa Catalina")
        #expect(Gazetteer.spokenOrder("Lisboa") == "Lisboa")
    }

    @Test("across a border, each side gets its own country", arguments: [
        (47.5596, 7.5886, "CH"),   // Basel Marktplatz
        (47.5900, 7.5610, "FR"),   // Saint-Louis, 3 km away across the border
        (47.5830, 7.6170, "DE"),   // Weil am Rhein
    ] as [(Double, Double, String)])
    func borders(latitude: Double, longitude: Double, country: String) throws {
        #expect(try load().describe(Coordinate(latitude: latitude, longitude: longitude)).countryCode == country)
    }

    @Test("the open sea has no country; far from towns, the region is given instead of a village")
    func seaAndWilderness() throws {
        let gazetteer = try load()
        let pacific = gazetteer.describe(Coordinate(latitude: 0, longitude: -160))
        #expect(pacific.kind == .openSea)
        #expect(pacific.country == nil && pacific.countryCode == nil && pacific.place == nil)
        #expect(pacific.timeZone == "Etc/GMT+11")  // nautical time, 160° W
        let atlantic = gazetteer.describe(Coordinate(latitude: 30, longitude: -40))
        #expect(atlantic.kind == .openSea)
        // Between Fiji's islands, 79 km from the nearest town: the region, not a village.
        let koro = gazetteer.describe(Coordinate(latitude: -16.5, longitude: -179.9))
        #expect(koro.kind == .region)
        #expect(koro.countryCode == "FJ" && koro.place == nil)
        #expect(koro.distanceMeters > Gazetteer.placeReach)
    }

    @Test("across the antimeridian the nearest place is on the other side, as on the globe")
    func antimeridian() throws {
        let gazetteer = try load()
        // West of the line, in Fiji's Lau waters: Levuka (179.32° E) is 77 km away across the
        // line, Tubou (178.81° W) 120 km away on the same side. Degree-space lookups pick Tubou.
        let west = gazetteer.nearest(to: Coordinate(latitude: -18.2, longitude: -179.95))
        #expect(west.place.name == "Levuka")
        #expect(west.distanceMeters > 60_000 && west.distanceMeters < 90_000)
        let east = gazetteer.nearest(to: Coordinate(latitude: -18.2, longitude: 179.95))
        #expect(east.place.name == "Levuka")
    }

    @Test("Antarctica is land with no town: its zone and \"Antarctica\", not a town across the sea; the North Pole is open sea")
    func polesAndAntarctica() throws {
        let gazetteer = try load()
        for (latitude, longitude) in [(-90.0, 0.0), (-77.85, 166.67), (-75.0, 0.0)] {
            let answer = gazetteer.describe(Coordinate(latitude: latitude, longitude: longitude))
            #expect(answer.kind == .region, "at \(latitude),\(longitude)")
            #expect(answer.countryCode == "AQ" && answer.place == nil, "at \(latitude),\(longitude)")
            #expect(answer.timeZone?.hasPrefix("Antarctica/") == true, "at \(latitude),\(longitude): \(answer.timeZone ?? "nil")")
        }
        let pole = gazetteer.describe(Coordinate(latitude: 90, longitude: 0))
        #expect(pole.kind == .openSea && pole.countryCode == nil)
        #expect(pole.timeZone?.hasPrefix("Etc/GMT") == true)
    }

    @Test("nearest place is exact: the k-d tree agrees with brute force everywhere, poles and antimeridian included")
    func exactNearest() throws {
        let gazetteer = try load()
        var generator = SplitMix(seed: 42)
        var points: [(Double, Double)] = (0..<150).map { _ in
            (asin(generator.uniform(-1, 1)) * 180 / .pi, generator.uniform(-180, 180))  // uniform on the sphere
        }
        points += (0..<60).map { _ in (generator.uniform(-25, 0), generator.uniform(179, 180) * (generator.next() % 2 == 0 ? 1 : -1)) }
        points += (0..<40).map { _ in (generator.uniform(80, 90) * (generator.next() % 2 == 0 ? 1 : -1), generator.uniform(-180, 180)) }
        points += [(90, 0), (-90, 0), (0, 180), (0, -180), (-16.5, 180), (-16.5, -180)]
        for (latitude, longitude) in points {
            let fromTree = gazetteer.nearestIndex(latitude: latitude, longitude: longitude)
            let bruteForce = Self.bruteForceNearest(gazetteer, latitude: latitude, longitude: longitude)
            let treeDistance = Self.chord(gazetteer, fromTree, latitude, longitude)
            let bruteDistance = Self.chord(gazetteer, bruteForce, latitude, longitude)
            #expect(abs(treeDistance - bruteDistance) < 1e-12, "at \(latitude),\(longitude)")
        }
    }

    @Test("the naming rule prefers the town unless a smaller place is much closer", arguments: [
        // (metres, population) of each candidate, and the index that must win
        ([(200.0, 600), (3_000.0, 20_000)], 1),            // a hamlet's centre vs the town next to it
        ([(300.0, 800), (15_000.0, 50_000)], 0),           // the village you stand in vs a city far off
        ([(1_000.0, 50_000), (6_000.0, 3_000_000)], 1),    // a city district vs the city
        ([(500.0, 0), (800.0, 0)], 0),                     // unknown populations: the nearer
        ([(2_000.0, 5_000), (2_000.0, 5_000)], 0),         // a tie: the first (nearer or equal)
    ] as [([(Double, Int)], Int)])
    func namingRule(candidates: [(Double, Int)], winner: Int) {
        #expect(Gazetteer.choose(among: candidates.map { (metres: $0.0, population: $0.1) }) == winner)
    }

    @Test("nearest-only naming is kept as an option")
    func nearestOnly() throws {
        let gazetteer = try load()
        let eiffel = Coordinate(latitude: 48.8584, longitude: 2.2945)
        let nearest = gazetteer.describe(eiffel, rule: .nearest)
        #expect(nearest.place?.name == gazetteer.nearest(to: eiffel).place.name)
        #expect(nearest.place?.name != "Paris")  // a district of Paris is nearer to the tower
    }

    @Test("time zones follow DST: Paris is +02:00 in July and +01:00 in January")
    func daylightSaving() throws {
        let zoneName = try #require(try load().timeZone(for: Coordinate(latitude: 48.8584, longitude: 2.2945)))
        let zone = try #require(TimeZone(identifier: zoneName))
        let july = try #require(ISO8601DateFormatter().date(from: "2025-07-14T12:00:00Z"))
        let january = try #require(ISO8601DateFormatter().date(from: "2025-01-14T12:00:00Z"))
        #expect(zone.secondsFromGMT(for: july) == 7200)
        #expect(zone.secondsFromGMT(for: january) == 3600)
    }

    @Test("search ignores case and accents, knows alternate names, and ranks by population", arguments: [
        ("Kyoto", "Kyoto", "JP"),
        ("Kyoto, JP", "Kyoto", "JP"),
        ("Sant Julià de Lòria", "Sant Julià de Lòria", "AD"),
        ("SANT JULIA DE LORIA", "Sant Julià de Lòria", "AD"),
        ("lisbon", "Lisbon", "PT"),
        ("Lisboa", "Lisbon", "PT"),
        ("münchen", "Munich", "DE"),
        ("Cologne", "Köln", "DE"),
        ("Paris", "Paris", "FR"),
        ("Paris, Texas", "Paris", "US"),
        ("Łódź", "Łódź", "PL"),
        ("lodz", "Łódź", "PL"),
        ("London, UK", "London", "GB"),
        ("New York, USA", "New York City", "US"),
        ("Springfield, IL", "Springfield", "US"),
    ] as [(String, String, String)])
    func search(query: String, name: String, countryCode: String) throws {
        let first = try #require(try load().search(query, limit: 5).first, "nothing found for \(query)")
        #expect(first.place.name == name)
        #expect(first.place.countryCode == countryCode)
        #expect(first.quality == .exact)
    }

    @Test("search finds nothing for nonsense and narrows by region")
    func searchEdges() throws {
        let gazetteer = try load()
        #expect(gazetteer.search("Xqzzyvv").isEmpty)
        #expect(gazetteer.search("   ").isEmpty)
        let texan = gazetteer.search("Paris, Texas")
        #expect(texan.allSatisfy { $0.place.admin1 == "Texas" })
        #expect(gazetteer.search("Springfield, IL").allSatisfy { $0.place.admin1 == "Illinois" })
        #expect(gazetteer.search("Portland, OR").first?.place.admin1 == "Oregon")
        // Empty parts between commas are stray: the part after the last real comma is the region.
        for query in ["Paris,,FR", "Paris, FR, ", ",Paris, FR", " , Paris ,, FR ,", "Paris,\u{200B},FR"] {
            let found = gazetteer.search(query)
            #expect(!found.isEmpty && found.allSatisfy { $0.place.countryCode == "FR" }, "\(query)")
            #expect(found.first.map { $0.place.name == "Paris" && $0.label("Paris, X", query: query) == "Paris, X" } == true, "\(query)")
        }
        #expect(gazetteer.search(",Paris").first?.place.name == "Paris")
        // A query without an empty part is left as written: a name may hold a comma.
        #expect(Gazetteer.tidied("Olinda, CDP") == "Olinda, CDP" && Gazetteer.tidied("Paris") == "Paris")
        #expect(gazetteer.qualifierAdvice("Москва,, Россия,")?.contains("\"Москва, RU\"") == true)
        // A place as geotrip's lists write it (name, region, country with its code): each part narrows.
        for query in ["Springfield, Missouri, United States (US)", "Springfield, Missouri, US", "Springfield, MO, United States"] {
            let exact = gazetteer.search(query).filter { $0.quality == .exact }
            #expect(exact.count == 1 && exact.first?.place.admin1 == "Missouri", "\(query): \(exact.map(\.place.admin1))")
        }
        #expect(gazetteer.search("Springfield, Missouri, France").isEmpty)
    }

    @Test("a place found by another of its names says so, exactly or by a prefix; one found by its own name does not")
    func searchByOtherName() throws {
        let gazetteer = try load()
        let toledo = gazetteer.search("Toledo", limit: 10)
        // GeoNames lists "Toledo" among Mantilla's (Havana) names; the Toledos are named so.
        let mantilla = try #require(toledo.first { $0.place.name == "Mantilla" })
        #expect(mantilla.byOtherName && mantilla.quality == .exact)
        #expect(mantilla.label("Mantilla, La Habana, Cuba (CU)", query: "toledo, CU") == "Mantilla (found as \"toledo\"), La Habana, Cuba (CU)")
        #expect(toledo.filter { $0.place.name == "Toledo" }.allSatisfy { !$0.byOtherName && $0.label("Toledo, X", query: "Toledo") == "Toledo, X" })
        let cologne = try #require(gazetteer.search("Cologne").first)
        #expect(cologne.place.name == "Köln" && cologne.byOtherName)
        // Case and accents do not make another name: "koln" is Köln's own.
        #expect(gazetteer.search("koln").first.map { $0.place.name == "Köln" && !$0.byOtherName } == true)
        let prefix = try #require(gazetteer.search("Colog", limit: 20).first { $0.place.name == "Köln" })
        #expect(prefix.quality == .prefix && prefix.byOtherName && prefix.label("Köln, NRW", query: "Colog") == "Köln (found by another name starting \"Colog\"), NRW")
    }

    @Test("every search key the build script folded (Python) is one geotrip's folding leaves as it is: a query folds to the keys it should find")
    func keysFoldAlike() throws {
        let gazetteer = try load()
        var keys = 0, unlike: [String] = []
        gazetteer.file.data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var position = gazetteer.file.keysOffset
            let end = gazetteer.file.keysOffset + gazetteer.file.keysLength
            while position + 5 <= end {
                let length = Int(raw[position + 4]), start = position + 5
                let key = String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<start + length]), as: UTF8.self)
                position = start + length
                keys += 1
                // Python's lower() writes a capital sigma ending a word as a final sigma; Swift's
                // lowercased() does not look at the next letter: both are the same key folded again.
                if SearchKey.fold(key) != key && SearchKey.fold(key) != key.replacingOccurrences(of: "ς", with: "σ") { unlike.append(key) }
            }
        }
        #expect(keys > 300_000)
        #expect(unlike.isEmpty, "\(unlike.count) keys fold otherwise: \(unlike.prefix(20))")
    }

    @Test("a hyphen and a space are one in a name searched for, either way round, and make no other name")
    func searchHyphensAsSpaces() throws {
        let gazetteer = try load()
        // GeoNames: "Saint Petersburg" (RU), "Aix-en-Provence" (FR), "Villeneuve-d'Ascq" (FR).
        for (query, name, country) in [("Saint-Petersburg", "Saint Petersburg", "RU"), ("Aix en Provence", "Aix-en-Provence", "FR"),
                                       ("villeneuve d'ascq", "Villeneuve-d'Ascq", "FR"), ("Aix-en Provence", "Aix-en-Provence", "FR")] {
            let first = try #require(gazetteer.search(query).first, "\(query)")
            #expect(first.place.name == name && first.place.countryCode == country && first.quality == .exact && !first.byOtherName, "\(query)")
        }
        // By another name still says so: GeoNames keeps "Sankt-Peterburg" among its names.
        let russian = try #require(gazetteer.search("Sankt Peterburg").first)
        #expect(russian.place.name == "Saint Petersburg" && russian.byOtherName)
        // After a name in round brackets, the words go in square ones.
        let frankfurt = try #require(gazetteer.search("Frankfurt/Oder").first)
        #expect(frankfurt.label("Frankfurt (Oder), Brandenburg", query: "Frankfurt/Oder") == "Frankfurt (Oder) [found as \"Frankfurt/Oder\"], Brandenburg")
        // Names in other scripts, for places of 15,000 people or more (GeoNames' alternate names).
        for (query, name, country) in [("Москва", "Moscow", "RU"), ("서울", "Seoul", "KR"), ("東京", "Tokyo", "JP"), ("Αθήνα", "Athens", "GR"),
                                       ("Санкт-Петербург", "Saint Petersburg", "RU"), ("부산", "Busan", "KR")] {
            let first = try #require(gazetteer.search(query).first, "\(query)")
            #expect(first.place.name == name && first.place.countryCode == country && first.quality == .exact && first.byOtherName, "\(query)")
        }
        // What copied or typed text carries unseen or in other forms: a zero-width joiner or a
        // direction mark, fullwidth letters (an East Asian keyboard), a Unicode hyphen or dash.
        for query in ["Москва\u{200D}", "\u{200F}Moscow", "ｍｏｓｃｏｗ", "Mos\u{200B}cow"] {
            #expect(gazetteer.search(query).first?.place.name == "Moscow", "\(query.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for query in ["Saint\u{2010}Petersburg", "Saint\u{2013}Petersburg"] {
            #expect(gazetteer.search(query).first?.place.name == "Saint Petersburg", "\(query)")
        }
        // A prefix across the hyphen.
        #expect(gazetteer.search("Aix en Pro").contains { $0.place.name == "Aix-en-Provence" && $0.quality == .prefix })
    }

    @Test("a damaged or truncated resource is a clear error, never a crash")
    func damagedResource() throws {
        let original = try Data(contentsOf: Gazetteer.resourceURL())
        var flipped = original
        flipped[original.count / 2] ^= 0x5A
        #expect(throws: GeoTripError.gazetteerDamaged(path: "test", reason: "its checksum does not match (the file was altered or damaged)")) {
            _ = try GazetteerFile(data: flipped, path: "test")
        }
        #expect(throws: GeoTripError.self) { _ = try GazetteerFile(data: original.prefix(original.count - 100), path: "test") }
        #expect(throws: GeoTripError.self) { _ = try GazetteerFile(data: original.prefix(10), path: "test") }
        // The header is outside the checksum: any damaged count or offset must still be caught.
        for (offset, value) in [(8, UInt32(0)), (8, UInt32(1000)), (12, UInt32(3)), (40, UInt32(64)), (48, UInt32(400))] {
            var header = original
            withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<offset + 4, with: $0) }
            #expect(throws: GeoTripError.self, "header byte \(offset) = \(value)") { _ = try GazetteerFile(data: header, path: "test") }
        }
        #expect(throws: GeoTripError.gazetteerMissing(tried: ["/nonexistent/gazetteer.bin"])) {
            _ = try Gazetteer.load(from: URL(fileURLWithPath: "/nonexistent/gazetteer.bin"))
        }
    }

    @Test("typed coordinates are checked", arguments: [
        ("35.0116,135.7681", true), ("-33.86 151.21", true), ("91,0", false), ("0,181", false),
        ("abc", false), ("", false), ("1,2,3", false), ("nan,0", false), ("35,,135", false), ("0x10,0x10", false),
        ("1e400,0", false), ("-0,-0", true), (" 35.0 , 135.0 ", true),
    ] as [(String, Bool)])
    func coordinateParsing(text: String, valid: Bool) {
        #expect(((try? Coordinate(parsing: text)) != nil) == valid)
    }

    // MARK: Helpers

    static func chord(_ gazetteer: Gazetteer, _ index: Int, _ latitude: Double, _ longitude: Double) -> Double {
        let p = GreatCircle.unitVector(latitude: Double(gazetteer.columns.latitudeE5[index]) / 1e5,
                                     longitude: Double(gazetteer.columns.longitudeE5[index]) / 1e5)
        let q = GreatCircle.unitVector(latitude: latitude, longitude: longitude)
        let d = p - q
        return (d * d).sum()
    }

    /// Every place's unit vector, computed here from the stored coordinates, for brute force.
    static let vectors: [SIMD3<Double>] = {
        guard let gazetteer else { return [] }
        return (0..<gazetteer.count).map {
            GreatCircle.unitVector(latitude: Double(gazetteer.columns.latitudeE5[$0]) / 1e5,
                                 longitude: Double(gazetteer.columns.longitudeE5[$0]) / 1e5)
        }
    }()

    static func bruteForceNearest(_ gazetteer: Gazetteer, latitude: Double, longitude: Double) -> Int {
        let q = GreatCircle.unitVector(latitude: latitude, longitude: longitude)
        var best = (index: 0, distance: Double.infinity)
        vectors.withUnsafeBufferPointer { vectors in
            for index in 0..<vectors.count {
                let d = vectors[index] - q
                let distance = d.x * d.x + d.y * d.y + d.z * d.z
                if distance < best.distance { best = (index, distance) }
            }
        }
        return best.index
    }

    static func sha256(of url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}

/// A small deterministic generator, so the random points are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
