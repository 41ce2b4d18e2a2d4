import Foundation
import Testing
@testable import GeoTripCore

/// The display-name rule on answers shaped like Nominatim's jsonv2 output (nominatim.org,
/// "Place Output"), including answers with no name, the sea's error answer and broken bodies.
@Suite("Nominatim answers")
struct NominatimAnswerTests {
    static func name(_ json: String) throws -> PlaceName? {
        try NominatimPlace.decode(NominatimPlace.self, from: Data(json.utf8), subject: "p1").placeName
    }

    @Test("a named sight is named by itself; region and country are kept apart")
    func sight() throws {
        let name = try Self.name("""
            {"place_id":1,"category":"tourism","type":"attraction","place_rank":30,"addresstype":"tourism","name":"Park Güell",
             "display_name":"Park Güell, Barcelona","address":{"tourism":"Park Güell","suburb":"Gràcia","city":"Barcelona",
             "state":"Catalonia","country":"Spain","country_code":"es"}}
            """)
        #expect(name == PlaceName(name: "Park Güell", admin1: "Catalonia", country: "Spain", countryCode: "ES"))
    }

    @Test("a street or a bench is not a sight: the neighbourhood, else the suburb, else the town names the place")
    func notASight() throws {
        #expect(try Self.name("""
            {"category":"highway","type":"residential","name":"Rua Augusta","address":{"road":"Rua Augusta","neighbourhood":"Baixa",
             "suburb":"Santa Maria Maior","city":"Lisboa","country":"Portugal","country_code":"pt"}}
            """)?.name == "Baixa")
        #expect(try Self.name("""
            {"category":"amenity","type":"bench","name":"Bench","address":{"suburb":"Alfama","city":"Lisboa","country_code":"pt"}}
            """)?.name == "Alfama")
        #expect(try Self.name("""
            {"category":"amenity","type":"cafe","name":"A Brasileira","address":{"suburb":"Chiado","city":"Lisboa","country_code":"pt"}}
            """)?.name == "A Brasileira")
        // No name at all, only road and town.
        #expect(try Self.name("""
            {"category":"building","type":"yes","address":{"road":"N1","town":"Óbidos","country":"Portugal","country_code":"pt"}}
            """)?.name == "Óbidos")
    }

    @Test("Korean answers name the place in Korean; the answer's position is read")
    func korean() throws {
        let json = """
            {"lat":"38.7100","lon":"-9.1370","category":"highway","type":"residential","addresstype":"road","name":"아우구스타 거리",
             "address":{"road":"아우구스타 거리","suburb":"바이샤","city":"리스본","country":"포르투갈","country_code":"pt"}}
            """
        #expect(try Self.name(json) == PlaceName(name: "바이샤", admin1: nil, country: "포르투갈", countryCode: "PT"))
        #expect(try NominatimPlace.decode(NominatimPlace.self, from: Data(json.utf8), subject: "p1").coordinate
            == Coordinate(latitude: 38.71, longitude: -9.137))
    }

    @Test("the open sea's error answer is an answer: no name")
    func sea() throws {
        #expect(try Self.name(#"{"error":"Unable to geocode"}"#) == nil)
    }

    @Test("a body that does not decode is a typed error naming the field and the place, never a silent nil")
    func broken() throws {
        #expect(throws: GeoTripError.namingAnswerUnreadable(place: "p1", reason: "the field 'name' is not what Nominatim sends")) {
            try Self.name(#"{"name": 42}"#)
        }
        #expect(throws: GeoTripError.namingAnswerUnreadable(place: "p1", reason: "the field 'address' is not what Nominatim sends")) {
            try Self.name(#"{"address": ["Lisboa"]}"#)
        }
        #expect(throws: GeoTripError.namingAnswerUnreadable(place: "p1", reason: "it is not JSON")) {
            try Self.name("<html>Bad Gateway</html>")
        }
        #expect(throws: GeoTripError.namingAnswerUnreadable(place: "p1", reason: "it is JSON, but not the object Nominatim sends")) {
            try Self.name("[]")
        }
        // A field geotrip does not read spoils nothing.
        #expect(try Self.name(#"{"place_rank": 30.5, "addresstype": 7, "address": {"city": "Lisboa"}}"#)?.name == "Lisboa")
    }

    @Test("a name, region or country sent empty or as spaces is no name: the offline one stays")
    func blank() throws {
        let name = try Self.name(#"{"name": "", "category": "tourism", "address": {"suburb": " ", "city": "", "state": "\n", "country": "", "country_code": " "}}"#)
        #expect(name == PlaceName(name: nil, admin1: nil, country: nil, countryCode: nil))
        #expect(try Self.name(#"{"address": {"suburb": "", "city": "Lisboa", "country": "  "}}"#)
                == PlaceName(name: "Lisboa", admin1: nil, country: nil, countryCode: nil))
        // Characters that show nothing are no name either; control characters are no part of one.
        #expect(try Self.name(#"{"address": {"suburb": "\u200b\u200b", "city": "Lis\u001b[2Jboa\u0007", "country": "\u2060"}}"#)
                == PlaceName(name: "Lis[2Jboa", admin1: nil, country: nil, countryCode: nil))
        // Nor are bidirectional overrides, embeddings and isolates, which would turn the rest of a
        // journal heading around them, or line separators.
        #expect(try Self.name(#"{"address": {"city": "\u202eLisboa\u2066x\u2069\u2028", "state": "Lis\u202aboa\u202c", "country": "\u202e"}}"#)
                == PlaceName(name: "Lisboax", admin1: "Lisboa", country: nil, countryCode: nil))
        // A line break or tab between words is a space.
        #expect(try Self.name(#"{"address": {"city": "Line1\nLine2\u2028\tx\n"}}"#)?.name == "Line1 Line2 x")
        // Spaces around a name are no part of it.
        #expect(try Self.name(#"{"address": {"city": "  indented code ", "state": " Lisboa", "country": "Portugal  "}}"#)
                == PlaceName(name: "indented code", admin1: "Lisboa", country: "Portugal", countryCode: nil))
        #expect(PlaceRenamer.cleaned("  Museu \u{202E}gpj.exe\u{202C} Nacional\n") == "Museu gpj.exe Nacional")
        #expect(PlaceRenamer.cleaned(String(repeating: "a", count: 5000)).count == 300)
        #expect(PlaceRenamer.cleaned("\u{3164}\u{200B}") == "")
        // Letters drawn blank (Hangul fillers, the blank Braille pattern) are no name either.
        #expect(try Self.name(#"{"address": {"suburb": "\u3164", "city": "\u115f\uffa0", "state": "\u2800", "country": "Portugal"}}"#)
                == PlaceName(name: nil, admin1: nil, country: "Portugal", countryCode: nil))
    }

    @Test("a country code is two letters or none: the offline one stands for anything else")
    func countryCodes() throws {
        #expect(try Self.name(#"{"address": {"city": "Lisboa", "country_code": "pt"}}"#)?.countryCode == "PT")
        for code in [String(repeating: "x", count: 5000), "p", "p1", "pté", "\u{e9}\u{e9}", " pt"] {
            #expect(try Self.name(#"{"address": {"city": "Lisboa", "country_code": "\#(code)"}}"#)?.countryCode == nil, "\(code.prefix(8))")
        }
        // Two letters that name no country (ISO 3166-1 as Foundation knows it) are none either,
        // and take their country's name with them: Portugal and Spain are not one country `XX`.
        #expect(try Self.name(#"{"address": {"city": "Lisboa", "country": "Land", "country_code": "xx"}}"#)
                == PlaceName(name: "Lisboa", admin1: nil, country: nil, countryCode: nil))
        for (code, expected) in [("es", "ES"), ("KR", "KR"), ("xk", "XK"), ("zz", nil), ("aa", nil)] {
            #expect(NominatimPlace.countryCode(code) == expected, "\(code)")
        }
    }

    @Test("a runaway name is cut at 300 characters")
    func longName() throws {
        let long = String(repeating: "é", count: 5000)
        let name = try #require(try Self.name(#"{"address": {"city": "\#(long)", "country": "\#(long)"}}"#))
        #expect(name.name?.count == 300 && name.name?.hasSuffix("…") == true && name.country?.count == 300)
        // One letter with 200,000 combining accents is one character of 400 KB: cut by scalars.
        let stacked = "a" + String(repeating: "\u{301}", count: 200_000)
        let cut = try #require(try Self.name(#"{"address": {"city": "\#(stacked)"}}"#)?.name)
        #expect(cut.unicodeScalars.count == 300 && cut.hasSuffix("…") && cut.unicodeScalars.first == "a")
        // Accents stay with their letters: 150 "é" written as e + U+0301 (300 scalars) and one
        // more letter are cut before a letter, not between one and its accent.
        let decomposed = String(repeating: "e\u{301}", count: 150) + "x"
        let kept = try #require(try Self.name(#"{"address": {"city": "\#(decomposed)"}}"#)?.name)
        #expect(kept.unicodeScalars.count <= 300 && kept.hasSuffix("e\u{301}…") && kept.count == 150)
    }

    @Test("a bounding box with a number that is not finite holds nothing, and no answer with one stops the run")
    func notFiniteBox() throws {
        for box in [#"["nan","1","2","3"]"#, #"["0","inf","2","3"]"#, #"["-inf","nan","nan","nan"]"#, #"["1","2","3"]"#] {
            let answer = try NominatimPlace.decode(NominatimPlace.self, from: Data(#"{"lat": "60", "lon": "2", "boundingbox": \#(box)}"#.utf8), subject: "p1")
            #expect(answer.box == nil)
            #expect(!answer.covers(Coordinate(latitude: 1.5, longitude: 2.5)))
        }
        let nan = try NominatimPlace.decode(NominatimPlace.self, from: Data(#"{"lat": "nan", "lon": "inf"}"#.utf8), subject: "p1")
        #expect(nan.coordinate == nil)
        #expect(nan.positionOffTheGlobe == "nan,inf")
    }

    @Test("a position that is nowhere on the globe is said; 0,0, none, or one on the globe is not")
    func positionOffTheGlobe() throws {
        func off(_ position: String) throws -> String? {
            try NominatimPlace.decode(NominatimPlace.self, from: Data("{\(position)\"name\": \"X\"}".utf8), subject: "p1").positionOffTheGlobe
        }
        #expect(try off(#""lat": "91", "lon": "2", "#) == "91,2")
        #expect(try off(#""lat": "north", "#) == "north,none")
        #expect(try off(#""lat": "0", "lon": "0", "#) == nil)
        #expect(try off(#""lat": "-90", "lon": "180", "#) == nil)
        #expect(try off("") == nil)
    }
}
