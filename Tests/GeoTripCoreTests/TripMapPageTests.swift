import Foundation
import GeoTripTestSupport
import Mustache
import Testing
@testable import GeoTripCore

/// The trip map page without a browser: escaping, the inline data, words, route geometry and
/// the resources it needs. `TripMapBrowserTests` looks at what a browser makes of it.
@Suite("Trip map page")
struct TripMapPageTests {
    static let resources: TripMapResources? = try? TripMapResources.load(gazetteer: try? Gazetteer.load())

    func resources() throws -> TripMapResources { try #require(Self.resources, "the base map or Leaflet did not load") }

    /// Seoul, Tokyo, then a flight to Honolulu across the antimeridian.
    static func pacificInput(language: String = "en", name: String = "Myeongdong", notes: String? = nil) -> TripMapInput {
        let seoul = Coordinate(latitude: 37.5636, longitude: 126.9826)
        let tokyo = Coordinate(latitude: 35.6812, longitude: 139.7671)
        let honolulu = Coordinate(latitude: 21.3069, longitude: -157.8583)
        return TripMapInput(
            language: language,
            visits: [
                .init(id: "v1", placeId: "p1", name: name, admin1: "Seoul", countryCode: "KR", latitude: seoul.latitude,
                      longitude: seoul.longitude, localDate: "2025-03-01", localArrival: "2025-03-01T09:00:00+09:00",
                      localDeparture: "2025-03-01T11:30:00+09:00", zone: "KST", photoCount: 4, notes: notes,
                      media: [.init(path: "../서울 사진/IMG 1#?.jpg", thumbnail: "thumbs/1-0a1b2c3d.jpg"),
                              .init(kind: .video, path: "../clip.mov", thumbnail: nil, durationSeconds: 12.4)]),
                .init(id: "v2", placeId: "p2", name: "Tokyo Station", countryCode: "JP", latitude: tokyo.latitude,
                      longitude: tokyo.longitude, localDate: "2025-03-02", localArrival: "2025-03-02T22:00:00+09:00",
                      localDeparture: "2025-03-03T00:30:00+09:00", zone: "JST", photoCount: 1),
                .init(id: "v3", placeId: "p3", name: "Waikiki", countryCode: "US", latitude: honolulu.latitude,
                      longitude: honolulu.longitude, localDate: "2025-03-03", photoCount: 30),
            ],
            days: [.init(date: "2025-03-01", notes: "First day."), .init(date: "2025-03-02"), .init(date: "2025-03-03", unplacedPhotoCount: 2)],
            legs: [.init(localDate: "2025-03-02", kind: .direct, coordinates: [seoul, tokyo]),
                   .init(localDate: "2025-03-03", kind: .flight, coordinates: [tokyo, honolulu])])
    }

    /// The JSON the page's script reads: its data, with the base layer's `base` and `towns`
    /// put in as the script puts them.
    static func data(of html: String) throws -> [String: Any] {
        var data = try element("trip-data", of: html)
        for (key, value) in try element("trip-base", of: html) { data[key] = value }
        // Each day's visits and videos, joined in order as the script joins them.
        var visits: [Any] = [], videos: [Any] = []
        let opening = "<script type=\"application/json\" class=\"trip-day\""
        var rest = html[...]
        while let found = rest.range(of: opening) {
            let start = try #require(rest.range(of: ">", range: found.upperBound..<rest.endIndex))
            let end = try #require(rest.range(of: "</script>", range: start.upperBound..<rest.endIndex))
            let day = try #require(try JSONSerialization.jsonObject(with: Data(rest[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
            visits += try #require(day["visits"] as? [Any])
            videos += try #require(day["videos"] as? [Any])
            rest = rest[end.upperBound...]
        }
        data["visits"] = visits
        data["videos"] = videos
        return data
    }

    /// The JSON object in the page's script element of `id`.
    static func element(_ id: String, of html: String) throws -> [String: Any] {
        let opening = try #require(html.range(of: "<script type=\"application/json\" id=\"\(id)\""))
        let start = try #require(html.range(of: ">", range: opening.upperBound..<html.endIndex))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let object = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
        return try #require(object as? [String: Any])
    }

    @Test("hostile names and notes are text in the HTML and cannot close the data's script element")
    func escaping() throws {
        let name = "</script><b>x", notes = "<img src=x onerror=alert(1)>\u{2028}& \"quoted\" 'single'"
        let html = TripMapPage(input: Self.pacificInput(name: name, notes: notes)).render(with: try resources())
        #expect(!html.contains(name))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>x"))
        #expect(html.contains("&lt;/script&gt;&lt;b&gt;x"), "the timeline shows the name, escaped")
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        // Exactly the page's own script elements close: three scripts (Leaflet, its marker
        // groups, the page's), the data, the base layer, and each of the three days' visits.
        #expect(html.components(separatedBy: "</script>").count - 1 == 8)
        let data = try Self.data(of: html)
        let visits = try #require(data["visits"] as? [[String: Any]])
        #expect(visits[0]["name"] as? String == name, "the data still holds the exact name")
        #expect(visits[0]["notes"] == nil, "the popup shows the timeline's notes: the data holds none")
    }

    @Test("ScriptJSON escapes exactly <, >, &, U+2028 and U+2029, and parses back unchanged")
    func scriptJSON() throws {
        let value = ["s": "a</script>&<!--\u{2028}\u{2029}é한"]
        let json = ScriptJSON.escape(JSONValue.object(value.map { ($0.key, .string($0.value)) }).text)
        #expect(json == #"{"s":"a\u003c/script\u003e\u0026\u003c!--\u2028\u2029é한"}"#)
        #expect(try JSONDecoder().decode([String: String].self, from: Data(json.utf8)) == value)
    }

    @Test("links to photos are encoded relative references that cannot become a scheme or a host")
    func urlReferences() {
        #expect(TripMapPage.urlReference("../서울 사진/IMG 1#?.jpg") == "../%EC%84%9C%EC%9A%B8%20%EC%82%AC%EC%A7%84/IMG%201%23%3F.jpg")
        #expect(TripMapPage.urlReference("javascript:alert(1)") == "javascript%3Aalert%281%29")
        #expect(TripMapPage.urlReference("//evil.example/x") == ".//evil.example/x")
        #expect(TripMapPage.urlReference("thumbs/1-0a1b2c3d.jpg") == "thumbs/1-0a1b2c3d.jpg")
    }

    @Test("across the Pacific the map runs over 180°: the flight is one great-circle arc; the figures count it as flown")
    func flightAcrossThePacific() throws {
        let input = Self.pacificInput()
        let page = TripMapPage(input: input)
        #expect(page.seam != nil)
        #expect(page.window.west < 126.9 && page.window.east > 202.2 && page.window.east - page.window.west <= 360)
        let html = page.render(with: try resources())
        let data = try Self.data(of: html)
        let legs = try #require(data["legs"] as? [[String: Any]])
        #expect(legs.map { $0["kind"] as? String } == ["direct", "flight"])
        let pieces = try #require(legs[1]["pieces"] as? [[Double]])
        #expect(pieces.count == 1)
        let longitudes = pieces[0].enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(longitudes.first == 139.7671 && longitudes.last == 202.1417, "Honolulu is 360° on, east of Tokyo")
        #expect(zip(longitudes, longitudes.dropFirst()).allSatisfy { $0 < $1 }, "eastwards all the way")
        // A great circle bows towards the pole: at 180° it is well north of the straight line
        // on the map between the two ends (26.4° there).
        let latitudes = pieces[0].enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let seam = try #require(longitudes.firstIndex { $0 >= 180 })
        #expect(latitudes[seam] > 30, "the arc passes 180° at \(latitudes[seam])°")
        let visits = try #require(data["visits"] as? [[String: Any]])
        #expect(visits.map { $0["lon"] as? Double } == [126.9826, 139.7671, 202.1417])
        let base = try #require(data["base"] as? [String: Any])
        let shores = try #require(base["shores"] as? [[String: Any]])
        #expect(shores.contains { ($0["p"] as? [Int]).map { $0.count > 1 && $0[1] > 1_800_000 } ?? false },
                "Hawaii's shores are drawn east of 180°")
        let figures = input.computedFigures
        #expect(abs(figures.flownKilometres - 6_200) < 150)
        #expect(abs(figures.groundKilometres - 1_160) < 50)
        #expect(figures.countries == ["JP", "KR", "US"])
        #expect(html.contains("6,2") && html.contains(">flown<"))
        #expect(figures.days == 3)
        // A day without photos between two with: counted, as the page of trips counts days.
        var gap = input
        gap.days = [.init(date: "2025-03-01"), .init(date: "2025-03-03"), .init(date: "2025-03-04")]
        #expect(gap.computedFigures.days == 4)
        #expect(TripOverview(days: ["2025-02-27", "2025-03-02"]).calendarDays == 4, "across the end of February")
    }

    @Test("an overview worked out anew keeps the stored shared figures while its visits are as they were, and only then")
    func sharedFiguresKept() throws {
        func shared(hidden: Int) throws -> TripOverview.Shared {
            try JSONDecoder().decode(TripOverview.Shared.self, from: Data("""
                {"hiddenVisits":\(hidden),"visits":2,"places":2,"groundKilometres":3,"flownKilometres":0,"routeCut":false}
                """.utf8))
        }
        var stored = TripOverview(days: ["2025-06-10"], visits: 3, places: 2, countries: ["PT"], distanceKilometres: 12.5)
        let figures = try shared(hidden: 1)
        stored.shared = figures
        // Renamed: other countries, the same visits.
        let renamed = TripOverview(days: ["2025-06-10"], visits: 3, places: 2, countries: ["ES"], distanceKilometres: 12.5)
        #expect(renamed.keepingShared(of: stored).shared == figures)
        #expect(renamed.keepingShared(of: stored).countries == ["ES"])
        #expect(renamed.keepingShared(of: nil).shared == nil)
        // A visit more, or moved: the export works them out again.
        #expect(TripOverview(days: ["2025-06-10"], visits: 4, distanceKilometres: 12.5).keepingShared(of: stored).shared == nil)
        #expect(TripOverview(days: ["2025-06-10"], visits: 3, distanceKilometres: 13).keepingShared(of: stored).shared == nil)
        // Its own figures win.
        var own = renamed
        own.shared = try shared(hidden: 0)
        #expect(own.keepingShared(of: stored).shared == (try shared(hidden: 0)))
    }

    @Test("on the usual map a flight across 180° is cut there: Sydney to Santiago on a trip from Paris")
    func flightCutAtTheAntimeridian() throws {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522), sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)
        let santiago = Coordinate(latitude: -33.4489, longitude: -70.6693)
        let input = TripMapInput(
            language: "en",
            visits: [paris, sydney, santiago, paris].enumerated().map { index, c in
                .init(id: "v\(index)", placeId: "p\(index)", name: "Stop \(index)", latitude: c.latitude, longitude: c.longitude,
                      localDate: "2025-01-0\(index + 1)", photoCount: 1)
            },
            days: (1...4).map { .init(date: "2025-01-0\($0)") },
            legs: [.init(localDate: "2025-01-02", kind: .flight, coordinates: [paris, sydney]),
                   .init(localDate: "2025-01-03", kind: .flight, coordinates: [sydney, santiago]),
                   .init(localDate: "2025-01-04", kind: .flight, coordinates: [santiago, paris])])
        let page = TripMapPage(input: input)
        #expect(page.seam == nil, "round the world, no stretch of longitude is free to cut the map at")
        // Without the way home, the Atlantic is free: the map is cut there, the Pacific whole.
        var oneWay = input
        oneWay.legs.removeLast()
        oneWay.visits.removeLast()
        let cut = try #require(TripMapPage(input: oneWay).seam)
        #expect(cut > -70.6693 && cut < 2.3522, "\(cut)")
        // London round to Honolulu by Dubai, Seoul, Fiji and Samoa: cut in the Americas, so
        // the window holds the British Isles whole beside London.
        let stops = [(51.5074, -0.1278), (25.2048, 55.2708), (37.5665, 126.9780), (-18.1248, 178.4501), (-13.8333, -171.7667), (21.3069, -157.8583)]
        var world = input
        world.visits = stops.enumerated().map { index, stop in
            .init(id: "w\(index)", placeId: "q\(index)", name: "Stop \(index)", latitude: stop.0, longitude: stop.1, localDate: "2025-01-01", photoCount: 1)
        }
        world.legs = zip(stops, stops.dropFirst()).map { a, b in
            .init(localDate: "2025-01-01", kind: .flight, coordinates: [Coordinate(latitude: a.0, longitude: a.1), Coordinate(latitude: b.0, longitude: b.1)])
        }
        let round = TripMapPage(input: world)
        let seam = try #require(round.seam)
        #expect(seam > -157.8583 && seam < -0.1278, "\(seam)")
        #expect(round.window.west < -11 && round.window.east > 202, "\(round.window)")
        // The overview's countries mostly west of the cut move whole: the United States with
        // Alaska and Hawaii, and Mexico beside it; Brazil stays beside Africa.
        let extract = try resources().baseMap.extract(window: round.window, seam: seam)
        func span(_ code: String) -> ClosedRange<Double>? {
            let longitudes = extract.countries.filter { $0.code == code }.flatMap { $0.coordinates(scale: extract.scale).map(\.longitude) }
            guard let low = longitudes.min(), let high = longitudes.max() else { return nil }
            return low...high
        }
        let us = try #require(span("US")), mexico = try #require(span("MX")), brazil = try #require(span("BR"))
        #expect(us.lowerBound > 180 && us.upperBound - us.lowerBound < 120, "\(us)")
        #expect(mexico.lowerBound > 180 && brazil.upperBound < 0, "\(mexico) \(brazil)")
        let legs = try #require(try Self.data(of: page.render(with: try resources()))["legs"] as? [[String: Any]])
        #expect((legs[0]["pieces"] as? [[Double]])?.count == 1)
        let pieces = try #require(legs[1]["pieces"] as? [[Double]])
        #expect(pieces.count == 2)
        #expect(pieces[0].last == 180 && pieces[1][1] == -180, "the first piece ends at 180, the next starts at -180")
        #expect(pieces[0][pieces[0].count - 2] == pieces[1][0], "both sides meet at one latitude")
    }

    @Test("the base layer's window holds what a phone (twice as tall as wide) and a desktop (twice as wide) show of the trip fitted in them",
          arguments: [
            [(38.70, -9.20), (40.42, -3.70), (37.39, -5.98)],   // the sample: Lisbon, Madrid, Sevilla
            [(41.90, 12.50), (41.91, 12.51)],                   // a day in Rome
            [(60.0, 10.0), (69.6, 18.9)],                        // Oslo to Tromsø: tall
            [(36.0, -5.0), (36.5, 28.0)],                        // along the Mediterranean: wide
          ] as [[(Double, Double)]])
    func windowHoldsTheView(_ spots: [(Double, Double)]) {
        let visits = spots.enumerated().map { index, spot in
            TripMapInput.Visit(id: "v\(index)", placeId: "p\(index)", name: "P", latitude: spot.0, longitude: spot.1, localDate: "2025-03-01", photoCount: 1)
        }
        let page = TripMapPage(input: TripMapInput(language: "en", visits: visits, days: [.init(date: "2025-03-01")], legs: []))
        let window = page.window
        // Web Mercator, the map's projection: x in degrees of longitude, y in the same units.
        func y(_ latitude: Double) -> Double { log(tan(.pi / 4 + latitude * .pi / 360)) * 180 / .pi }
        let (south, north) = (spots.map(\.0).min()!, spots.map(\.0).max()!), (west, east) = (spots.map(\.1).min()!, spots.map(\.1).max()!)
        let (width, height) = (east - west, y(north) - y(south))
        let (midX, midY) = ((west + east) / 2, (y(south) + y(north)) / 2)
        // Each view fitted to the trip with 10% of margin, as the page fits it, centred on it.
        for aspect in [2.0, 0.5] {  // height / width of the map on screen
            let fitted = max(width, height / aspect) * 1.1
            let (viewWidth, viewHeight) = (fitted, fitted * aspect)
            #expect(window.west <= midX - viewWidth / 2 && window.east >= midX + viewWidth / 2, "\(aspect): \(window)")
            #expect(y(window.south) <= midY - viewHeight / 2 && y(window.north) >= midY + viewHeight / 2, "\(aspect): \(window)")
        }
    }

    @Test("a line that crosses the antimeridian westwards is cut too; one that does not stays whole")
    func split() {
        let west = RouteGeometry.splitAtAntimeridian([Coordinate(latitude: 0, longitude: -170), Coordinate(latitude: 10, longitude: 170)])
        #expect(west.count == 2)
        #expect(west[0].last == Coordinate(latitude: 5, longitude: -180))
        #expect(west[1].first == Coordinate(latitude: 5, longitude: 180))
        #expect(RouteGeometry.splitAtAntimeridian([Coordinate(latitude: 0, longitude: 10), Coordinate(latitude: 0, longitude: 20)]).count == 1)
        // From -180 to 180 (one meridian, as a Fiji photo may write it): finite numbers only
        // (RFC 7946: positions are numbers), each piece on one side.
        for line in [[Coordinate(latitude: -16.8, longitude: -180), Coordinate(latitude: -16.7, longitude: 180)],
                     [Coordinate(latitude: -16.8, longitude: 180), Coordinate(latitude: -16.7, longitude: -180)]] {
            let pieces = RouteGeometry.splitAtAntimeridian(line)
            #expect(pieces.joined().allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite }, "\(pieces)")
            #expect(pieces.allSatisfy { piece in piece.allSatisfy { $0.longitude == piece[0].longitude } })
            #expect(pieces.last?.last == line.last)
        }
    }

    @Test("Korean words are complete, the page declares its language, dates and countries are Korean")
    func korean() throws {
        let html = TripMapPage(input: Self.pacificInput(language: "ko")).render(with: try resources())
        #expect(html.contains("<html lang=\"ko\">"))
        for word in ["여행 지도", "모든 날짜", "일정", "사진 3장, 동영상 1개", "대한민국", "출처", "2025년 3월 1일", "위치 없는 사진 2장", "동영상 2/2, 0:12"] {
            #expect(html.contains(word), "missing: \(word)")
        }
        let korean = Mirror(reflecting: TripMapWords.korean).children, english = Mirror(reflecting: TripMapWords.english).children
        for (k, e) in zip(korean, english) {
            guard let kText = k.value as? String, let eText = e.value as? String, k.label != "language" else { continue }
            #expect(!kText.isEmpty && kText != eText || kText.hasPrefix("Leaflet"), "\(k.label ?? "?") is not translated")
        }
        #expect(TripMapWords.forLanguage("ko-KR").language == "ko")
        #expect(TripMapWords.forLanguage("fr").language == "en", "untranslated languages get English words")
        // Words in the page's own language carry no lang of their own.
        #expect(!html.contains("<h2 lang="))
    }

    @Test("a page in a language with no words of its own says which elements are in English")
    func englishWordsMarked() throws {
        let html = TripMapPage(input: Self.pacificInput(language: "pt-BR")).render(with: try resources())
        #expect(html.contains("<html lang=\"pt-BR\">"))
        for element in ["<a class=\"skip\" href=\"#timeline\" lang=\"en\">", "<h2 lang=\"en\">Timeline</h2>", "<footer id=\"credits\" lang=\"en\">",
                        "aria-pressed=\"true\" lang=\"en\">All days", "<dt lang=\"en\">days</dt>", "<span class=\"visit-photos\" lang=\"en\">"] {
            #expect(html.contains(element), "missing: \(element)")
        }
    }

    @Test("credits: GeoNames, the carried base layer, OpenStreetMap only when its names are shown; tiles offered as given")
    func credits() throws {
        var input = Self.pacificInput()
        let plain = TripMapPage(input: input).render(with: try resources())
        #expect(plain.contains("GeoNames (CC BY 4.0)") && plain.contains("GSHHG") && plain.contains("Natural Earth"))
        #expect(!plain.contains("OpenStreetMap contributors"))
        input.namesFromOpenStreetMap = true
        input.tiles = .init(urlTemplate: "https://tiles.example/{z}/{x}/{y}.png", attribution: "© Example <Maps>")
        let html = TripMapPage(input: input).render(with: try resources())
        #expect(html.contains("© OpenStreetMap contributors (ODbL 1.0)"))
        #expect(html.contains("Online map tiles: © Example &lt;Maps&gt;"))
        let tiles = try #require(try Self.data(of: html)["tiles"] as? [String: String])
        #expect(tiles["url"] == "https://tiles.example/{z}/{x}/{y}.png")
    }

    @Test("an empty trip renders; a visit on a day the input lacks gets that day")
    func edges() throws {
        let empty = TripMapPage(input: TripMapInput(language: "en", visits: [], days: [], legs: [])).render(with: try resources())
        #expect(empty.contains("<html lang=\"en\">"))
        var input = Self.pacificInput()
        input.days.removeLast()
        let page = TripMapPage(input: input)
        #expect(page.days.map(\.date) == ["2025-03-01", "2025-03-02", "2025-03-03"])
        let data = try Self.data(of: page.render(with: try resources()))
        #expect((data["visits"] as? [[String: Any]])?.last?["day"] as? Int == 2)
    }

    @Test("the figures say 1 day, 1 visit, 1 place, 1 country; 0 and 2 in the plural; Korean has one form")
    func figureLabels() throws {
        let empty = TripMapPage(input: TripMapInput(language: "en", visits: [], days: [], legs: [])).render(with: try resources())
        #expect(empty.contains("<dt>days</dt><dd class=\"value\">0</dd>") && empty.contains("<dt>countries</dt>"))
        var input = Self.pacificInput()
        input.visits = Array(input.visits.prefix(1))
        input.days = Array(input.days.prefix(1))
        input.legs = []
        let one = TripMapPage(input: input).render(with: try resources())
        for label in ["day", "visit", "place", "country"] { #expect(one.contains("<dt>\(label)</dt><dd class=\"value\">1</dd>"), "\(label)") }
        let words = TripMapWords.forLanguage("ko")
        #expect(words.days(1) == "일" && words.countries(1) == "국가")
    }

    @Test("times on the place's clock, with the date when a visit runs past midnight")
    func times() {
        let input = Self.pacificInput()
        #expect(TripMapPage.timeSpan(input.visits[0]) == "09:00–11:30 KST")
        #expect(TripMapPage.timeSpan(input.visits[1]) == "22:00–00:30 (03-03) JST")
        #expect(TripMapPage.timeSpan(input.visits[2]) == nil)
    }

    @Test("the base layer is cut to the trip and the page stays small")
    func pageSize() throws {
        let html = TripMapPage(input: Self.pacificInput()).render(with: try resources())
        #expect(html.utf8.count < 1_500_000, "\(html.utf8.count) bytes")
    }

    @Test("a day's part is taken from the page before only when made from the same key in the same place, and the page is the same")
    func dayPartsReused() throws {
        let resources = try resources()
        let input = Self.pacificInput()
        let keys = ["2025-03-01": "a", "2025-03-02": "b", "2025-03-03": "c"]
        var page = TripMapPage(input: input)
        page.dayKeys = keys
        let first = page.render(with: resources)
        let before = Array(first.utf8)
        #expect(page.reusableDays(in: before) == Set(keys.keys))
        #expect(page.reusableDays(in: nil).isEmpty)

        // The days taken from the page before need no media: the page is the same, byte for byte.
        var outline = page
        for index in outline.input.visits.indices { outline.input.visits[index].media = [] }
        #expect(outline.render(with: resources, previous: before) == first)

        // Without keys nothing is taken (and the parts carry none).
        #expect(TripMapPage(input: input).reusableDays(in: Array(TripMapPage(input: input).render(with: resources).utf8)).isEmpty)

        // A day whose key changed is made again; so are the days after a day that gained a
        // visit (their visits' numbers moved on), and a part edited in the file.
        var changed = page
        changed.dayKeys["2025-03-02"] = "b2"
        #expect(changed.reusableDays(in: before) == ["2025-03-01", "2025-03-03"])
        var grown = page
        grown.input.visits.insert(grown.input.visits[0], at: 1)
        grown.input.visits[1].id = "v1b"
        grown.dayKeys["2025-03-01"] = "a2"
        #expect(grown.reusableDays(in: before).isEmpty)
        let edited = first.replacingOccurrences(of: "Tokyo Station</span>", with: "Tokyo Station!</span>")
        #expect(edited != first)
        #expect(page.reusableDays(in: Array(edited.utf8)) == ["2025-03-01", "2025-03-03"])
        #expect(page.render(with: resources, previous: Array(edited.utf8)) == first, "the edited part made again")
        let other = TripMapPage(input: Self.pacificInput(language: "ko"))
        var korean = other
        korean.dayKeys = keys
        #expect(korean.reusableDays(in: before).isEmpty, "another language: nothing taken")

        // A note's own list in a day's part ends neither it nor the days after it.
        var listed = TripMapPage(input: Self.pacificInput(notes: "1. one\n2. two\n\n- three"))
        listed.dayKeys = keys
        let listedPage = listed.render(with: resources)
        #expect(listedPage.contains("<li>one</li>"))
        #expect(listed.reusableDays(in: Array(listedPage.utf8)) == Set(keys.keys))

        // A note of a comment alone shows nothing: no box for it, in the timeline or a popup.
        let remark = TripMapPage(input: Self.pacificInput(notes: "<!-- door code 4711 -->"))
        let visit = try #require(remark.input.visits.first { $0.notes != nil })
        let item = remark.visitItem(1, visit, colour: "#000000", words: TripMapWords.english)
        #expect(!item.contains("class=\"notes\"") && !item.contains("4711"), "\(item)")
    }

    @Test("a page made again keeps the base layer of the page before only when that was made for the same window and data")
    func baseLayerReused() throws {
        let resources = try resources()
        let pacific = TripMapPage(input: Self.pacificInput())
        let page = pacific.render(with: resources)
        let towns = try #require(Self.data(of: page)["towns"] as? [[String: Any]])
        #expect(towns.contains { $0["name"] as? String == "Tokyo" })
        #expect(pacific.render(with: resources, previous: Array(page.utf8)) == page, "the same page, base layer and all")

        // The layer that is reused is the one in the file: one made to look right for this
        // window (same key, its own fingerprint) is carried over as it is.
        let window = pacific.window
        let inputs = TripMapPage.BaseLayer.inputsKey(window: window, seam: pacific.seam, resources: resources, townLimit: pacific.townLimit)
        let fresh = pacific.baseLayer(window: window, seam: pacific.seam, resources: resources, inputs: inputs)
        #expect(fresh.key.hasPrefix(inputs + "-"))
        let planted = TripMapPage.BaseLayer(json: fresh.json.replacingOccurrences(of: "\"Tokyo\"", with: "\"Planted\""), inputs: inputs)
        let withPlanted = page.replacingOccurrences(of: fresh.key + "\">" + fresh.json, with: planted.key + "\">" + planted.json)
        #expect(withPlanted != page)
        let reused = pacific.render(with: resources, previous: Array(withPlanted.utf8))
        #expect(reused == withPlanted, "the layer in the file was used, not made again")

        // A layer altered after it was written (its fingerprint no longer matches) is made again.
        let altered = page.replacingOccurrences(of: "\"Tokyo\",\"tier\"", with: "\"Altered\",\"tier\"")
        #expect(altered != page)
        #expect(pacific.render(with: resources, previous: Array(altered.utf8)) == page)
        // So is one cut off, and a page with none.
        #expect(pacific.render(with: resources, previous: Array(page.utf8.prefix(page.utf8.count * 3 / 4))) == page)
        #expect(pacific.render(with: resources, previous: Array("<html></html>".utf8)) == page)

        // Another window (the trip without Hawaii) makes its own layer, as a fresh page would.
        var input = Self.pacificInput()
        input.visits.removeLast()
        input.legs.removeLast()
        let asia = TripMapPage(input: input)
        #expect(asia.window != window)
        let asiaPage = asia.render(with: resources)
        #expect(asia.render(with: resources, previous: Array(page.utf8)) == asiaPage)
        #expect(try Self.element("trip-base", of: asiaPage)["base"] as? [String: Any] != nil)
        // And so do other resources: without the gazetteer there are no towns.
        let noTowns = TripMapResources(baseMap: resources.baseMap, gazetteer: nil, leaflet: resources.leaflet)
        let bare = pacific.render(with: noTowns, previous: Array(page.utf8))
        #expect(bare == pacific.render(with: noTowns))
        #expect((try Self.data(of: bare)["towns"] as? [Any])?.isEmpty == true)
    }

    @Test("Leaflet or its marker groups missing is a sentence naming both packages")
    func leafletMissing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: GeoTripError.leafletMissing(path: folder.url.appendingPathComponent("leaflet.js").path)) {
            try LeafletAssets.load(from: folder.url)
        }
        // Leaflet there, the plugin not (its own Debian package).
        for name in ["leaflet.js", "leaflet.css"] {
            try FileManager.default.copyItem(at: LeafletAssets.debianFolder.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        #expect(throws: GeoTripError.leafletMissing(path: folder.url.appendingPathComponent("leaflet.markercluster.js").path)) {
            try LeafletAssets.load(from: folder.url)
        }
        let message = GeoTripError.leafletMissing(path: "/x").description
        #expect(message.contains("libjs-leaflet ") && message.contains("libjs-leaflet.markercluster"), "\(message)")
    }

    @Test("Leaflet is inlined with its images and without comments")
    func leafletInlined() throws {
        let leaflet = try resources().leaflet
        #expect(leaflet.clusterScript.contains("MarkerClusterGroup") && !leaflet.clusterScript.contains("sourceMappingURL"))
        #expect(leaflet.clusterStyle.contains(".leaflet-cluster-anim") && !leaflet.clusterStyle.contains("sourceMappingURL"))
        #expect(!leaflet.style.contains("url(images/"))
        #expect(leaflet.style.contains("data:image/png;base64,"))
        #expect(!leaflet.script.contains("sourceMappingURL"))
        #expect(leaflet.script.contains("L.map") || leaflet.script.contains("createMap"))
        #expect(LeafletAssets.withoutComments("a();\r\n  // note\r\n\t/* block\r\n still */ b();\r\nc(); // kept\r\n") == "a();\nb();\nc(); // kept")
        #expect(LeafletAssets.withoutComments("/* one */ /* two */ x();\r\ry();\n/*\n*/\n  \n//") == "/* two */ x();\ny();")
    }

    @Test("a photo taken inside a privacy zone is neither shown nor linked, though its visit's centre is outside")
    func photoInsideZoneLeftOut() {
        // Home, hidden within 500 m; a visit 540-590 m east of it whose third photo was taken 470 m
        // from home, inside the zone.
        let home = Coordinate(latitude: 38.7107, longitude: -9.1365)
        func east(_ metres: Double) -> Coordinate {
            Coordinate(latitude: home.latitude, longitude: home.longitude + metres / (111_195 * cos(home.latitude * .pi / 180)))
        }
        let distances: [Double] = [540, 560, 470, 580, 590]
        let photos = distances.enumerated().map { index, metres in
            TripPhoto(id: Int64(index + 1), path: "IMG_000\(index + 1).JPG", coordinate: east(metres), visitID: "v1")
        }
        let centre = east(548)
        let visit = TripVisit(id: "v1", placeId: "p1", revision: 1, latitude: centre.latitude, longitude: centre.longitude, radiusMeters: 80,
                              arrival: "2025-06-10T09:00:00Z", departure: "2025-06-10T09:20:00Z", localDate: "2025-06-10",
                              timeZone: "Europe/Lisbon", localArrival: nil, localDeparture: nil, photoCount: 5, photos: photos.map(\.path),
                              name: "Café", admin1: nil, country: nil, countryCode: "PT", nameSource: nil)
        let trip = Trip(visits: [visit], outside: [], days: [])
        let privacy = PrivacyZones([.init(centre: home, radiusMeters: 500)])
        #expect(!privacy.contains(centre) && privacy.contains(photos[2].coordinate!))
        let map = TripMapInput.from(trip: trip, route: TripRoute(visits: trip.visits, track: []), notes: [:], photos: photos,
                                    thumbnails: [1: "thumbs/1.jpg", 2: "thumbs/2.jpg", 4: "thumbs/4.jpg", 5: "thumbs/5.jpg"],
                                    tripFolderLink: "..", privacy: privacy, language: "en", tiles: nil)
        #expect(map.visits.map { $0.media.compactMap(\.path) } == [["../IMG_0001.JPG", "../IMG_0002.JPG", "../IMG_0004.JPG", "../IMG_0005.JPG"]])
        // Nor counted: "4 photos" beside photos 1 to 4 of 4.
        #expect(map.visits.map(\.photoCount) == [4])
    }

    @Test("a visit's timeline item is what the template made of it before the item was built in code")
    func visitItemAsTheTemplateMadeIt() throws {
        // The visit's markup as the page's template had it, rendered by swift-mustache from the
        // visit's values: the truth the code-built item must equal, escaping included (its notes
        // formatted by `NoteMarkup`, as the template's day notes are).
        let template = try MustacheTemplate(string: """
            {{#visits}}<li class="visit" data-visit="{{id}}">
            <button type="button" class="visit-button" data-visit="{{id}}"><span class="badge" style="background:{{colour}};color:{{ink}}">{{number}}</span><span class="visit-text"><span class="visit-name">{{name}}</span>{{#time}}<span class="visit-time">{{time}}</span>{{/time}}<span class="visit-place">{{place}}</span><span class="visit-photos">{{photos}}</span></span></button>
            {{#visitNotes}}<div class="notes">{{{visitNotes}}}</div>
            {{/visitNotes}}<div class="thumbs">{{#media}}{{#href}}<a href="{{href}}" title="{{openOriginal}}">{{/href}}{{#thumb}}<img src="{{thumb}}" alt="{{label}}" loading="lazy" width="96" height="72">{{/thumb}}{{^thumb}}<span class="no-thumb"><span aria-hidden="true">{{short}}</span><span class="visually-hidden">{{label}}</span></span>{{/thumb}}{{#href}}</a>{{/href}}{{/media}}{{#more}}<a class="more-link" href="{{moreHref}}"><span class="more-media"><span aria-hidden="true">+{{more}}</span><span class="visually-hidden">{{moreLabel}}</span></span></a>{{/more}}</div>
            </li>
            {{/visits}}
            """)
        let many = (1...9).map { TripMapInput.Media(path: "Day 2/\($0).jpg", thumbnail: "thumbs/\($0).jpg") }
        let visits = [
            TripMapInput.Visit(id: "v<1>&'", placeId: "p1", name: "Tom & Jerry's \"Café\" <b>", admin1: "Kyōto", countryCode: "JP",
                               latitude: 35, longitude: 135.7, localDate: "2026-03-14", localArrival: "2026-03-14T08:12:00",
                               localDeparture: "2026-03-15T01:05:00", zone: "JST", photoCount: 14,
                               notes: "<script>alert('x')</script> & \"more\"",
                               media: [.init(path: "Day 1/a b#?.jpg", thumbnail: "thumbs/a'b.jpg"),
                                       .init(kind: .video, path: "Day 1/clip.mov", thumbnail: nil, durationSeconds: 75),
                                       .init(path: nil, thumbnail: "thumbs/hidden.jpg"),
                                       .init(path: nil, thumbnail: nil)] + many),
            TripMapInput.Visit(id: "v2", placeId: "p2", name: nil, latitude: 0, longitude: 0, localDate: "2026-03-14", photoCount: 0),
        ]
        for language in ["en", "ko"] {
            let page = TripMapPage(input: TripMapInput(language: language, visits: visits, days: [], legs: []))
            let words = TripMapWords.forLanguage(language)
            let locale = Locale(identifier: language)
            let entries: [[String: Any]] = visits.enumerated().map { index, visit in
                var entry: [String: Any] = [
                    "id": visit.id, "number": index + 1, "name": visit.name ?? words.unnamedPlace,
                    "place": [visit.admin1, visit.countryCode.flatMap { locale.localizedString(forRegionCode: $0) } ?? visit.country]
                        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "),
                    "photos": words.mediaCount(visit.photoCount, videos: visit.media.filter { $0.kind == .video }.count),
                    "media": visit.media.prefix(page.thumbnailsPerVisit).enumerated().map { index, media -> [String: Any] in
                        // Its file's name when linked, which of the visit's it is, a video's length, the
                        // visit; the names isolated (U+2068 to U+2069) from the words around them.
                        let name = media.path.map { "\u{2068}" + String($0.split(separator: "/").last!) + "\u{2069}" }
                        let which = language == "ko" ? "\(media.kind == .video ? "동영상" : "사진") \(index + 1)/\(visit.media.count)"
                            : "\(media.kind == .video ? "video" : "photo") \(index + 1) of \(visit.media.count)"
                        let label = [name, which, media.kind == .video ? "1:15" : nil, "\u{2068}" + (visit.name ?? words.unnamedPlace) + "\u{2069}"]
                        // A box without a thumbnail shows the file's name, or what a video is.
                        let short = media.path.map { String($0.split(separator: "/").last!) } ?? (media.kind == .video ? "\(words.video), 1:15" : which)
                        var item: [String: Any] = ["label": label.compactMap { $0 }.joined(separator: ", "), "short": short]
                        if let path = media.path { item["href"] = TripMapPage.urlReference(path) }
                        if let thumbnail = media.thumbnail { item["thumb"] = TripMapPage.urlReference(thumbnail) }
                        return item
                    },
                ]
                if let time = TripMapPage.timeSpan(visit) { entry["time"] = time }
                // The rest counted after the thumbnails shown: 13 of the first visit's, 8 shown.
                if visit.media.count > page.thumbnailsPerVisit {
                    entry["more"] = visit.media.count - page.thumbnailsPerVisit
                    entry["moreLabel"] = language == "ko" ? "\(visit.media.count - page.thumbnailsPerVisit)개 더, 그날의 일지에"
                        : "\(visit.media.count - page.thumbnailsPerVisit) more, on the day's journal page"
                    entry["moreHref"] = "journal/\(visit.localDate).md"
                }
                if let notes = visit.notes { entry["visitNotes"] = NoteMarkup.html(notes, folder: "journal/", page: visit.localDate + ".md") }
                return entry
            }
            // Black on this red is 4.61:1 by WCAG 2's formula, white 4.56:1.
            let expected = template.render(["visits": entries, "colour": "#e6194b", "ink": "#000", "openOriginal": words.openOriginal])
            let built = visits.enumerated().map { page.visitItem($0 + 1, $1, colour: "#e6194b", words: words) }.joined()
            #expect(built == expected)
        }
        #expect(TripMapPage.timeSpan(visits[0]) == "08:12–01:05 (03-15) JST")
        #expect(TripMapPage.html("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
    }

    @Test("the comments go from Debian's Leaflet as they did when lines were split into characters")
    func leafletWithoutCommentsAsBefore() throws {
        let url = LeafletAssets.debianFolder.appendingPathComponent("leaflet.js")
        let script = try #require(String(data: try Data(contentsOf: url), encoding: .utf8))
        let stripped = LeafletAssets.withoutComments(script)
        #expect(stripped == Self.withoutCommentsByCharacters(script))
        #expect(stripped.utf8.count < script.utf8.count * 3 / 4)
    }

    /// The rule as it was first written, on `Character`s: what the byte version must equal.
    static func withoutCommentsByCharacters(_ script: String) -> String {
        var kept: [Substring] = []
        var inBlock = false
        for line in script.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var text = line.drop { $0 == " " || $0 == "\t" }
            if inBlock {
                guard let end = text.range(of: "*/") else { continue }
                inBlock = false
                text = text[end.upperBound...].drop { $0 == " " || $0 == "\t" }
            } else if text.hasPrefix("/*") {
                guard let end = text.range(of: "*/", range: text.index(text.startIndex, offsetBy: 2)..<text.endIndex) else {
                    inBlock = true
                    continue
                }
                text = text[end.upperBound...].drop { $0 == " " || $0 == "\t" }
            }
            if text.isEmpty || text.hasPrefix("//") { continue }
            kept.append(text)
        }
        return kept.joined(separator: "\n")
    }

    @Test("renders the sample trip (kept for a look when GEOTRIP_KEEP_PAGE is set)")
    func sample() async throws {
        let folder = try TemporaryFolder()
        let rendered = try await SampleTripMap.render(in: folder)
        if ProcessInfo.processInfo.environment["GEOTRIP_KEEP_PAGE"] != nil {
            print("page: \(rendered.page.path) (\(rendered.html.utf8.count) bytes)")
        } else {
            folder.remove()
        }
        #expect(rendered.html.hasPrefix("<!DOCTYPE html>"))
        // Wholly west of Greenwich, the trip stays on the usual map (no shift by 360°).
        #expect(TripMapPage(input: rendered.input).seam == nil)
        let visits = try #require(try Self.data(of: rendered.html)["visits"] as? [[String: Any]])
        #expect(visits.allSatisfy { ($0["lon"] as? Double ?? 0) < 0 })
        // The towns visited come first, whatever their size: Sintra (26,000 people, not among
        // the 150 largest around Iberia) from the second tier's zoom; Lisbon stays in the first.
        // They are the page's own data, not the base layer's, which depends on the window only.
        let data = try Self.data(of: rendered.html)
        let towns = try #require(data["visitedTowns"] as? [[String: Any]])
        let tiers = Dictionary(towns.map { ($0["name"] as? String ?? "", $0["tier"] as? Int ?? 0) }, uniquingKeysWith: { first, _ in first })
        #expect(tiers["Sintra"] == 2 && tiers["Lisbon"] == 1, "\(towns)")
        #expect(!(try #require(data["towns"] as? [[String: Any]])).contains { $0["name"] as? String == "Sintra" })
        #expect(rendered.html.utf8.count < 700_000, "the sample trip's page: \(rendered.html.utf8.count) bytes")
    }
}
