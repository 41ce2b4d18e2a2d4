import Foundation
import Testing
@testable import GeoTripCore

/// `JSONLineWriter` and `PlaceAnswer.writeJSONLine` against Foundation's `JSONEncoder`, the
/// writer they replace in `geotrip where`: the same bytes for real answers the world over and
/// for crafted strings and numbers at the edges of the encoder's formatting; and the fast
/// `LAT,LON` reader against `Coordinate(parsing:)`.
@Suite("JSON Lines writer")
struct JSONLineWriterTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The line `JSONEncoder` writes, and the line the writer writes, as text for readable failures.
    func lines(_ answer: PlaceAnswer) throws -> (encoder: String, writer: String) {
        var writer = JSONLineWriter()
        answer.writeJSONLine(to: &writer)
        return (String(decoding: try Self.encoder.encode(answer) + [0x0A], as: UTF8.self), String(decoding: writer.bytes, as: UTF8.self))
    }

    @Test("answers for thousands of coordinates, at sea, in wilderness and in towns, are written as JSONEncoder writes them")
    func answersMatchTheEncoder() throws {
        let gazetteer = try #require(GazetteerTests.gazetteer, "the gazetteer resource did not load")
        var generator = SplitMix(seed: 14)
        var points: [Coordinate] = []
        // Uniform on the sphere (mostly sea), then near places (towns, with names in every script).
        for _ in 0..<2_000 {
            points.append(Coordinate(latitude: asin(generator.uniform(-1, 1)) * 180 / .pi, longitude: generator.uniform(-180, 180)))
        }
        for _ in 0..<3_000 {
            let index = Int(generator.next() % UInt64(gazetteer.count))
            points.append(Coordinate(latitude: max(-90, min(90, Double(gazetteer.columns.latitudeE5[index]) / 1e5 + generator.uniform(-0.2, 0.2))),
                                     longitude: Double(gazetteer.columns.longitudeE5[index]) / 1e5 + generator.uniform(-0.2, 0.2)).wrapped)
        }
        points += [Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 180), Coordinate(latitude: 0, longitude: -0.0)]
        var kinds: [PlaceAnswer.Kind: Int] = [:], differing: [String] = []
        for point in points {
            for rule in NamingRule.allCases {
                let answer = gazetteer.describe(point, rule: rule)
                kinds[answer.kind, default: 0] += 1
                let written = try lines(answer)
                if written.encoder != written.writer { differing.append("encoder: \(written.encoder)writer:  \(written.writer)") }
            }
        }
        #expect(differing.isEmpty, "\(differing.count) lines differ, the first: \(differing.first ?? "")")
        // Every shape of answer was compared, not only towns.
        #expect(kinds[.place, default: 0] > 3_000 && kinds[.region, default: 0] > 20 && kinds[.openSea, default: 0] > 1_000, "\(kinds)")
    }

    @Test("quotes, backslashes, control characters, emoji and non-ASCII text are escaped as JSONEncoder escapes them")
    func stringsMatchTheEncoder() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let names = [
            "", "Kyōto", "\"quoted\"", "back\\slash", "a/b", "tab\there", "line\nbreak\r\n", controls, "\u{7F}DEL",
            "emoji 🇯🇵👩‍👩‍👧", "U+2028\u{2028}U+2029\u{2029}", "\u{FEFF}BOM", "ends with \\", "\\\"", "日本語のテキスト",
            String(repeating: "long name with \"escapes\" ", count: 40), "Zürich", "Łódź", "Ḩalab", "\u{0}",
        ]
        for name in names {
            let place = GazetteerPlace(name: name, admin1: name.isEmpty ? nil : "\(name)!", country: "«\(name)»", countryCode: name,
                                       timeZone: name, population: name.utf8.count, coordinate: Coordinate(latitude: 1, longitude: 2))
            let written = try lines(PlaceAnswer(kind: .place, place: place, nearest: place, distanceMeters: 12, timeZone: name))
            #expect(written.writer == written.encoder, "for \(name.debugDescription)")
        }
    }

    @Test("numbers at the edges of the encoder's formatting are written as JSONEncoder writes them")
    func numbersMatchTheEncoder() throws {
        var doubles: [Double] = [
            0, -0.0, 1234.5, 0.1, 1e-5, -1e-5, 2.5e-5, 0.0001, 0.00015, 35.0116, 135.7681, 100_000, 1e15, 1e16, 1e17,
            123_456_789_012_345_680, 1.5e300, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1.0 / 3, 0.3,
            12_345_678.9, 9_007_199_254_740_992, -122.41942, 90, -180, 0.05, 0.15, 0.25, 19_999_999.95, 0.00001,
        ]
        var generator = SplitMix(seed: 2028)
        for _ in 0..<2_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { doubles.append(value) }
            doubles.append(Double(Int64(bitPattern: generator.next()) % 18_000_000) / 1e5)  // as coordinates are stored
            doubles.append(generator.uniform(0, 20_000_000))  // distances, before rounding to the decimetre
        }
        let integers = [0, 1, -1, 9, 10, 99, 100, 1_459_640, Int.max, Int.min, Int(Int32.max) + 1]
        for (index, value) in doubles.enumerated() {
            let place = GazetteerPlace(name: "n", admin1: nil, country: nil, countryCode: nil, timeZone: nil,
                                       population: integers[index % integers.count], coordinate: Coordinate(latitude: value, longitude: -value))
            let written = try lines(PlaceAnswer(kind: .place, place: place, nearest: place, distanceMeters: min(value.magnitude, 1e300), timeZone: nil))
            #expect(written.writer == written.encoder, "for \(value)")
        }
    }

    @Test("the fast LAT,LON reader answers the common shapes, and wherever it answers, as Coordinate(parsing:) does")
    func fastReaderAgreesWithTheParser() throws {
        var texts = [
            "35.0116,135.7681", "-33.8568,151.2153", "0,0", "-0,-0", "-0.0,-0.000", "90,180", "-90,-180", "90.0000001,0",
            "0,180.00001", "91,0", " 35.0 , 135.0 ", "\t1,\t2\t", "35.0116 135.7681", "+35,135", "35.,135", ".5,1", "1e5,2",
            "1,2,3", ",", "1,", ",1", "", " ", "--1,2", "1-,2", "1..2,3", "0x10,0x10", "nan,0", "１,２",
            "12345678901234.5,1", "1.23456789012345,2", "1.234567890123456,2", "0.000000000000001,0", "007.50,-0010",
            "35.0116,135.7681 x", "35.0116,135.7681\r", "1234567890123456789012345678,0", "0,-0.00000000000000000000000001",
        ]
        var generator = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            let digits = { (integer: Int, fraction: Int) -> String in
                let whole = (0..<integer).map { _ in String(generator.next() % 10) }.joined()
                let part = (0..<fraction).map { _ in String(generator.next() % 10) }.joined()
                return (generator.next() % 2 == 0 ? "-" : "") + whole + (fraction > 0 ? "." + part : "")
            }
            let latitude = digits(Int(generator.next() % 3) + 1, Int(generator.next() % 16))
            let longitude = digits(Int(generator.next() % 4) + 1, Int(generator.next() % 16))
            let blanks = ["", " ", "\t", "  "]
            texts.append(blanks[Int(generator.next() % 4)] + latitude + blanks[Int(generator.next() % 4)] + ","
                         + blanks[Int(generator.next() % 4)] + longitude + blanks[Int(generator.next() % 4)])
        }
        var answered = 0, disagreeing: [String] = []
        for text in texts {
            guard let fast = Array(text.utf8).withUnsafeBufferPointer(Coordinate.init(plainDecimalUTF8:)) else { continue }
            answered += 1
            let parsed = try? Coordinate(parsing: text)
            if parsed?.latitude.bitPattern != fast.latitude.bitPattern || parsed?.longitude.bitPattern != fast.longitude.bitPattern {
                disagreeing.append("\(text.debugDescription): \(fast) vs \(String(describing: parsed))")
            }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.count) disagree, the first: \(disagreeing.first ?? "")")
        #expect(answered > 5_000, "the fast reader answered only \(answered) of \(texts.count)")
        for common in ["35.0116,135.7681", "-33.8568, 151.2153", "-0,-0"] {
            #expect(Array(common.utf8).withUnsafeBufferPointer(Coordinate.init(plainDecimalUTF8:)) != nil, "\(common)")
        }
    }
}

private extension Coordinate {
    /// The same point with its longitude brought back into -180...180.
    var wrapped: Coordinate {
        Coordinate(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude)
    }
}
