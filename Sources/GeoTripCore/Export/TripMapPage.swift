import Foundation
import Mustache

/// What the page is drawn with besides the trip: the carried base layer, the gazetteer (for
/// nearby towns) and Leaflet. Loaded once per export.
public struct TripMapResources: Sendable {
    public var baseMap: BaseMap
    /// Nil draws no towns.
    public var gazetteer: Gazetteer?
    public var leaflet: LeafletAssets

    /// Creates the resources from loaded parts.
    public init(baseMap: BaseMap, gazetteer: Gazetteer?, leaflet: LeafletAssets) {
        self.baseMap = baseMap
        self.gazetteer = gazetteer
        self.leaflet = leaflet
    }

    /// Loads the base map and Leaflet from where they are installed; a missing one is a typed
    /// error that says how to get it.
    public static func load(gazetteer: Gazetteer?) throws(GeoTripError) -> TripMapResources {
        TripMapResources(baseMap: try BaseMap.load(), gazetteer: gazetteer, leaflet: try LeafletAssets.load())
    }
}

/// The trip map: one `index.html` that works from `file://` with no network. Leaflet, the trip's
/// data and the base layer clipped to the trip are inline; thumbnails are beside it in
/// `thumbs/`. The page is rendered from a Mustache template (`TripMapTemplate`), which escapes
/// every string it inserts; the data the script draws from is JSON that cannot end its script
/// element (`ScriptJSON`), and the script puts names into the page as text only. Notes are
/// the person's Markdown, formatted (`NoteMarkup`); a popup shows the timeline's copy.
public struct TripMapPage: Sendable {
    /// The trip as the page shows it.
    public var input: TripMapInput
    /// How many towns at most are labelled.
    public var townLimit = 150
    /// How many thumbnails a visit shows in the timeline.
    public var thumbnailsPerVisit = 8
    /// Photos and videos a visit's popup shows.
    static let popupMedia = 4
    /// Each day's content key, by date (`ExportStage.dayKeys`): a fingerprint of everything the
    /// day's part of the page (its visits in the timeline and in the script's data) is made
    /// from, media included. A day whose part the previous page holds, made from the same key
    /// in the same place of the page, is taken from there (`DayPart`) and needs no media in
    /// `input`; a day without a key is always made.
    public var dayKeys: [String: String] = [:]

    /// Colours of the days, in turn: distinct on a light and a dark map, and for most kinds of
    /// colour blindness (Sasha Trubetskoy's list of 20 distinct colours, first ten).
    static let dayColours = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4",
                             "#42d4f4", "#f032e6", "#9a6324", "#469990", "#808000"]

    /// The text colour for a number on `colour` (a badge, a marker): white or black, whichever
    /// contrasts more by WCAG 2's relative luminance, so every day's numbers reach 4.5:1 (white
    /// on the green or the orange is 2.6:1).
    static func ink(on colour: String) -> String {
        let hex = colour.dropFirst()
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return "#fff" }
        func linear(_ channel: UInt32) -> Double {
            let c = Double(channel & 0xff) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * linear(value >> 16) + 0.7152 * linear(value >> 8) + 0.0722 * linear(value)
        // Against white (1.05 / (L + 0.05)) or against black ((L + 0.05) / 0.05).
        return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? "#fff" : "#000"
    }

    /// Creates the page of `input`.
    public init(input: TripMapInput) {
        self.input = input
    }

    /// The whole page. `previous`, the page's file as the last export wrote it, lends its base
    /// layer when that was made for the same window from the same base map and gazetteer
    /// (`BaseLayer`): cutting the base map and finding the towns is half of a page's work and
    /// depends on nothing else, so a trip whose photos changed but whose extent did not keeps it.
    ///
    /// Each day's part is taken from `previous` too when `reusableDays(in:)` names its day;
    /// the others are made from `input`.
    public func render(with resources: TripMapResources, previous: [UInt8]? = nil) -> String {
        let words = TripMapWords.forLanguage(input.language)
        // Where the map is cut, found once: every longitude the page carries is moved by it.
        let seam = self.seam
        let window = self.window(seam: seam)
        let inputs = BaseLayer.inputsKey(window: window, seam: seam, resources: resources, townLimit: townLimit)
        let layer = BaseLayer.reused(from: previous, key: inputs) ?? baseLayer(window: window, seam: seam, resources: resources, inputs: inputs)
        let reusable = DayPart.parts(in: previous)
        let parts = dayPlaces(seam: seam).map { place in
            place.inputs.flatMap { reusable[$0] } ?? dayPart(place, seam: seam, words: words)
        }
        var context = templateContext(words: words, parts: parts)
        context["leafletStyle"] = resources.leaflet.style
        context["leafletScript"] = resources.leaflet.script
        context["clusterStyle"] = resources.leaflet.clusterStyle
        context["clusterScript"] = resources.leaflet.clusterScript
        context["style"] = TripMapTemplate.style
        context["script"] = TripMapScript.source
        context["baseKey"] = layer.key
        context["base"] = layer.json
        context["data"] = ScriptJSON.escape(pageData(words: words, seam: seam, towns: visitedTowns(resources.gazetteer, seam: seam)).json.text)
        return TripMapTemplate.page.render(context)
    }

    /// The days whose part `previous` (the page's file as the last export wrote it) holds,
    /// made from the same inputs: `render` takes them from there, so their visits need no
    /// media. Found from the input's outline alone.
    public func reusableDays(in previous: [UInt8]?) -> Set<String> {
        let reusable = DayPart.parts(in: previous)
        guard !reusable.isEmpty else { return [] }
        return Set(dayPlaces(seam: seam).compactMap { place in
            place.inputs.flatMap { reusable[$0] }.map { _ in place.date }
        })
    }

    /// Where a day's part sits on the page: its date, its index among the days (its colour and
    /// filter), the number of its first visit, its visits, and what its part is made from
    /// besides them (`partInputs`; nil without a day key).
    struct DayPlace {
        var date: String
        var index: Int
        var firstNumber: Int
        var visits: [TripMapInput.Visit]
        var inputs: String?
    }

    /// Every day's place, in order.
    func dayPlaces(seam: Double?) -> [DayPlace] {
        var visitsByDay: [String: [TripMapInput.Visit]] = [:]
        for visit in input.visits { visitsByDay[visit.localDate, default: []].append(visit) }
        var number = 1
        return days.enumerated().map { index, day in
            let visits = visitsByDay[day.date] ?? []
            defer { number += visits.count }
            return DayPlace(date: day.date, index: index, firstNumber: number, visits: visits,
                            inputs: dayKeys[day.date].map { partInputs(dayKey: $0, index: index, firstNumber: number, seam: seam) })
        }
    }

    /// What a day's part is made from besides its day key: the page's language, the day's
    /// place on it, where the map is cut (`seam`), how many thumbnails a visit shows, and
    /// geotrip's version and outputs' revision (for the code that writes it).
    func partInputs(dayKey: String, index: Int, firstNumber: Int, seam: Double?) -> String {
        var key = ExportStage.KeyBytes()
        key.add("trip-day")
        key.add(GeoTripVersion.current)
        key.add(Int64(ExportStage.outputRevision))
        key.add(input.language)
        key.add(dayKey)
        key.add(Int64(index))
        key.add(Self.dayColours[index % Self.dayColours.count])
        key.add(Int64(firstNumber))
        key.add(seam.map { String($0) })
        key.add(Int64(thumbnailsPerVisit))
        return Fingerprint.of(key.bytes, fileSize: key.bytes.count)
    }

    /// A day's part of the page: its visits' items in the timeline (`<ol class="visits">`) and
    /// its visits and videos in the script's data (a `trip-day` element the script joins in
    /// order). Each element's `data-key` is what the part was made from, then the element's own
    /// fingerprint, so a file damaged or edited there is not reused (as `BaseLayer`).
    struct DayPart: Equatable {
        var items: String
        var itemsKey: String
        var json: String
        var jsonKey: String

        init(items: String, json: String, inputs: String?) {
            self.items = items
            self.json = json
            itemsKey = inputs.map { $0 + "-" + Fingerprint.of(Array(items.utf8), fileSize: items.utf8.count) } ?? ""
            jsonKey = inputs.map { $0 + "-" + Fingerprint.of(Array(json.utf8), fileSize: json.utf8.count) } ?? ""
        }

        /// The elements' openings up to their keys, as the template writes them.
        static let itemsOpening = Array(#"<ol class="visits" data-key=""#.utf8)
        /// The end of the visits' list, which a note's own list cannot end (notes are in its
        /// items, and never hold a `</section>`).
        static let itemsClosing = Array("</ol>\n</section>".utf8)
        static let jsonOpening = Array(#"<script type="application/json" class="trip-day" data-key=""#.utf8)

        /// The parts `page` (a page's bytes) holds whole, by what they were made from: both
        /// elements there with the same inputs, each holding what its fingerprint says.
        static func parts(in page: [UInt8]?) -> [String: DayPart] {
            guard let page else { return [:] }
            let items = elements(itemsOpening, closing: itemsClosing, in: page)
            guard !items.isEmpty else { return [:] }
            let json = elements(jsonOpening, closing: Array("</script>".utf8), in: page)
            var parts: [String: DayPart] = [:]
            for (inputs, text) in items {
                guard let data = json[inputs] else { continue }
                parts[inputs] = DayPart(items: text.content, json: data.content, inputs: inputs)
            }
            return parts.filter { inputs, part in part.itemsKey == items[inputs]?.key && part.jsonKey == json[inputs]?.key }
        }

        /// Each element of `page` that starts with `opening`, its key, `">`, and its content up
        /// to `closing`, by the inputs its key names.
        private static func elements(_ opening: [UInt8], closing: [UInt8], in page: [UInt8]) -> [String: (key: String, content: String)] {
            var found: [String: (key: String, content: String)] = [:]
            var at = 0
            let close = Array("\">".utf8)
            while let start = BaseLayer.find(opening, in: page, from: at) {
                let keyStart = start + opening.count
                guard let keyEnd = BaseLayer.find(close, in: page, from: keyStart), keyEnd - keyStart < 100,
                      let contentEnd = BaseLayer.find(closing, in: page, from: keyEnd + close.count) else { break }
                let key = String(decoding: page[keyStart..<keyEnd], as: UTF8.self)
                if let dash = key.lastIndex(of: "-") {
                    found[String(key[..<dash])] = (key, String(decoding: page[(keyEnd + close.count)..<contentEnd], as: UTF8.self))
                }
                at = contentEnd
            }
            return found
        }
    }

    /// A day's part made from the input: its visits' items and data.
    func dayPart(_ place: DayPlace, seam: Double?, words: TripMapWords) -> DayPart {
        let colour = Self.dayColours[place.index % Self.dayColours.count]
        // From the line break after the list's opening tag, as the page had it when the
        // template wrote that break.
        let items = "\n" + place.visits.enumerated().map { visitItem(place.firstNumber + $0, $1, colour: colour, words: words) }.joined()
        let visits = place.visits.enumerated().map { offset, visit in
            visitData(visit, number: place.firstNumber + offset, day: place.index, seam: seam, words: words).json
        }
        let videos = place.visits.flatMap { videoData($0, day: place.index, seam: seam, words: words).map(\.json) }
        let json = ScriptJSON.escape(JSONValue.object([("visits", .array(visits)), ("videos", .array(videos))]).text)
        return DayPart(items: items, json: json, inputs: place.inputs)
    }

    /// The base layer clipped to `window` and the towns in it, as the page's `trip-base` element
    /// carries them: `{"base":…,"towns":[…]}`, escaped for a script element. `inputs` is
    /// `BaseLayer.inputsKey` of the same.
    /// (The towns visited are the page's own data, `visitedTowns`: the layer depends on the
    /// window only, so an edit that moves visits within it keeps it.)
    func baseLayer(window: GeoBox, seam: Double?, resources: TripMapResources, inputs: String) -> BaseLayer {
        let extract = resources.baseMap.extract(window: window, seam: seam)
        let towns = nearbyTowns(resources.gazetteer, in: window).map { TownData($0, tier: TownData.tier($0)) }
        let base: String
        do {
            base = try extract.json()
        } catch {
            // Only finite numbers and strings are encoded; this cannot fail.
            preconditionFailure("the base layer did not encode: \(error)")
        }
        // `base` sorts before `towns`: the keys in JSONValue's order.
        let json = ScriptJSON.escape("{\"base\":" + base + ",\"towns\":" + JSONValue.array(towns.map(\.json)).text + "}")
        return BaseLayer(json: json, inputs: inputs)
    }

    /// The page's base layer, with the key it is found by in the next export.
    struct BaseLayer: Equatable {
        /// What the `trip-base` element holds.
        var json: String
        /// The element's `data-key`: what it was made from (`inputsKey`), then its own
        /// fingerprint, so a file damaged or edited there is not reused.
        var key: String

        init(json: String, inputs: String) {
            self.json = json
            key = inputs + "-" + Fingerprint.of(Array(json.utf8), fileSize: json.utf8.count)
        }

        /// What the base layer is made from: the window, how many towns, the base map's and
        /// the gazetteer's checksums, and geotrip's version (for the code that cuts them).
        static func inputsKey(window: GeoBox, seam: Double? = nil, resources: TripMapResources, townLimit: Int) -> String {
            var key = ExportStage.KeyBytes()
            key.add("trip-base")
            key.add(GeoTripVersion.current)
            for edge in [window.south, window.west, window.north, window.east] { key.add(edge) }
            key.add(seam.map { String($0) })
            key.add(Int64(townLimit))
            key.add(Int64(resources.baseMap.checksum))
            key.add(resources.gazetteer.map { Int64($0.file.checksum) })
            return Fingerprint.of(key.bytes, fileSize: key.bytes.count)
        }

        /// The element's opening up to its key, as the template writes it.
        static let opening = Array(#"<script type="application/json" id="trip-base" data-key=""#.utf8)

        /// The base layer of `page` (a page's bytes) when its key says it was made from `key`
        /// and its fingerprint matches what it holds; nil otherwise.
        static func reused(from page: [UInt8]?, key inputs: String) -> BaseLayer? {
            guard let page, let start = find(opening, in: page, from: 0) else { return nil }
            let keyStart = start + opening.count
            let closing = Array("\">".utf8), end = Array("</script>".utf8)
            guard let keyEnd = find(closing, in: page, from: keyStart), keyEnd - keyStart < 100,
                  let contentEnd = find(end, in: page, from: keyEnd + closing.count) else { return nil }
            let key = String(decoding: page[keyStart..<keyEnd], as: UTF8.self)
            guard key.hasPrefix(inputs + "-") else { return nil }
            let layer = BaseLayer(json: String(decoding: page[(keyEnd + closing.count)..<contentEnd], as: UTF8.self), inputs: inputs)
            return layer.key == key ? layer : nil
        }

        /// Where `needle` first occurs in `bytes` at or after `from`.
        static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
            guard from <= bytes.count else { return nil }
            return bytes.withUnsafeBufferPointer { haystack -> Int? in
                guard let first = needle.first, haystack.count - from >= needle.count else { return nil }
                var at = from
                while at <= haystack.count - needle.count {
                    // memchr finds the first byte's candidates; glibc's memmem is not exported to Swift.
                    guard let hit = memchr(haystack.baseAddress! + at, Int32(first), haystack.count - needle.count + 1 - at) else { return nil }
                    at = haystack.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(haystack.baseAddress! + at, needle, needle.count) == 0 { return at }
                    at += 1
                }
                return nil
            }
        }
    }

    /// The input's days, with any date a visit or leg names that the days lack added in order,
    /// so every marker and line has a day to be coloured and filtered by.
    var days: [TripMapInput.Day] {
        let known = Set(input.days.map(\.date))
        let missing = Set(input.visits.map(\.localDate) + input.legs.map(\.localDate)).subtracting(known)
        guard !missing.isEmpty else { return input.days }
        return (input.days + missing.map { TripMapInput.Day(date: $0) }).sorted { $0.date < $1.date }
    }

    /// Every position the trip's map must show: visits and the route's points.
    private var positions: [Coordinate] {
        input.visits.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) } + input.legs.flatMap(\.coordinates)
    }

    /// Where the trip's map is cut when not at 180°: the middle of the widest stretch of
    /// longitude the trip never reaches, longitudes west of it moved 360° east. Nil when that
    /// stretch holds 180° (the usual map from -180° to 180°), or cutting there spares less
    /// than a degree. So a trip from Tokyo to Honolulu is one stretch of the Pacific, not both
    /// ends of the world, and one from London round to Honolulu is cut in the Americas, with
    /// Europe whole beside London.
    public var seam: Double? {
        // The stretches of longitude the trip covers: each visit's, and each leg's from point to
        // point the shorter way round (one across 180° in two), merged in order.
        var covered: [(west: Double, east: Double)] = input.visits.map { ($0.longitude, $0.longitude) }
        for leg in input.legs {
            for (a, b) in zip(leg.coordinates, leg.coordinates.dropFirst()) {
                let (west, east) = (min(a.longitude, b.longitude), max(a.longitude, b.longitude))
                if east - west <= 180 { covered.append((west, east)) } else { covered += [(east, 180), (-180, west)] }
            }
        }
        covered.sort { $0.west < $1.west }
        guard var reach = covered.first?.east, let first = covered.first?.west else { return nil }
        var widest = (gap: 0.0, seam: Double?.none)
        for stretch in covered.dropFirst() {
            if stretch.west - reach > widest.gap { widest = (stretch.west - reach, (stretch.west + reach) / 2) }
            reach = max(reach, stretch.east)
        }
        // Across 180°, from the easternmost reach round to the westernmost start: the usual map
        // unless another stretch is wider by a degree.
        // In whole degrees (the stretch is over a degree wide), so a visit added near its edge
        // moves no cut, and no day's part is made again for it.
        return widest.gap > first + 360 - reach + 1 ? widest.seam.map { $0.rounded() } : nil
    }

    /// A longitude on the page's map: those west of the `seam` moved 360° east.
    private func mapLongitude(_ longitude: Double, seam: Double?) -> Double {
        guard let seam, longitude < seam else { return longitude }
        return longitude + 360
    }

    /// The trip's extent (visits and route) on the page's map, made a square on the screen
    /// (in the map's Web Mercator) and grown by three quarters of its side on every side: what
    /// the base layer is clipped to. A phone shows a tall map (twice as tall as wide) and a
    /// desktop a wide one, so the detail must reach past the trip both ways; grown by half, a
    /// phone showed the coarse world beyond it (a straight coast, slivers between countries)
    /// above and below the trip. Across 180° its east edge lies beyond 180° (see `BaseMap.extract`).
    public var window: GeoBox { window(seam: seam) }

    /// `window` for the map cut at `seam`.
    private func window(seam: Double?) -> GeoBox {
        let points = positions.map { Coordinate(latitude: $0.latitude, longitude: mapLongitude($0.longitude, seam: seam)) }
        guard let box = GeoBox(enclosing: points) else { return .world }
        // Latitudes as the map draws them: y in degrees of longitude's measure.
        let limit = 85.0
        func y(_ latitude: Double) -> Double { log(tan(.pi / 4 + max(-limit, min(limit, latitude)) * .pi / 360)) * 180 / .pi }
        func latitude(_ y: Double) -> Double { (2 * atan(exp(y * .pi / 180)) - .pi / 2) * 180 / .pi }
        let (bottom, top) = (y(box.south), y(box.north))
        let side = max(box.width, top - bottom)
        let half = max(side / 2 + side * 0.75, 0.3)
        let (midX, midY) = ((box.west + box.east) / 2, (bottom + top) / 2)
        let west = max(seam.map { max($0, box.east - 360) } ?? -180, midX - half)
        let east = min(seam != nil ? west + 360 : 180, midX + half)
        let south = midY - half <= y(-limit) ? -90 : latitude(midY - half)
        let north = midY + half >= y(limit) ? 90 : latitude(midY + half)
        return GeoBox(south: south, west: west, north: north, east: east)
    }

    /// The town each visit is in, as the gazetteer names it (`describe`: Lisbon, not the
    /// quarter nearest), when one is within 10 km, most populous first: named on the map
    /// whatever its size, from the zoom of the second tier on (Sintra, beside Lisbon, is not
    /// among the window's largest, and a visit there would go unnamed), and before the other
    /// towns, so that its label is the one beside the visit's marker (the page's `declutter`).
    /// The page's data carries them (`visitedTowns`), the script puts them first.
    func visitedTowns(_ gazetteer: Gazetteer?, seam: Double?) -> [GazetteerPlace] {
        guard let gazetteer else { return [] }
        var seen = Set<String>(), towns: [GazetteerPlace] = []
        for visit in input.visits {
            let answer = gazetteer.describe(Coordinate(latitude: visit.latitude, longitude: visit.longitude))
            guard let town = answer.place, answer.distanceMeters <= 10_000,
                  seen.insert("\(town.name)|\(town.coordinate.latitude)|\(town.coordinate.longitude)").inserted else { continue }
            var moved = town
            moved.coordinate.longitude = mapLongitude(town.coordinate.longitude, seam: seam)
            towns.append(moved)
        }
        return towns.sorted { $0.population > $1.population }
    }

    /// The largest towns in the window; across 180° from both sides of it, those east of
    /// 180° moved 360° as the map moves them.
    private func nearbyTowns(_ gazetteer: Gazetteer?, in window: GeoBox) -> [GazetteerPlace] {
        guard let gazetteer else { return [] }
        guard window.east > 180 else { return gazetteer.largestPlaces(in: window, limit: townLimit) }
        let west = gazetteer.largestPlaces(in: GeoBox(south: window.south, west: window.west, north: window.north, east: 180), limit: townLimit)
        let east = gazetteer.largestPlaces(in: GeoBox(south: window.south, west: -180, north: window.north, east: window.east - 360), limit: townLimit)
            .map { town -> GazetteerPlace in
                var moved = town
                moved.coordinate.longitude += 360
                return moved
            }
        return Array((west + east).sorted { $0.population > $1.population }.prefix(townLimit))
    }

    // MARK: Text

    private var locale: Locale { Locale(identifier: input.language) }

    private func formatted(_ date: String, template: String) -> String {
        DayFormatting.string(date, template: template, locale: locale) ?? date
    }

    private func number(_ value: Double) -> String {
        DayFormatting.wholeNumber(value, locale: locale)
    }

    /// `08:12–08:31 WEST`, with the departure's date when it is another day.
    static func timeSpan(_ visit: TripMapInput.Visit) -> String? {
        guard let arrival = visit.localArrival, arrival.count >= 16 else { return nil }
        // The journal's text (`TripVisit.timeSpan`).
        let departure = visit.localDeparture.flatMap { $0.count >= 16 ? $0 : nil }
        return TripVisit.timeSpan(arrival: arrival, departure: departure, listedOn: visit.localDate,
                                  zone: visit.zone.flatMap { $0.isEmpty ? nil : $0 }, departureZone: visit.departureZone)
    }

    private func placeLine(_ visit: TripMapInput.Visit) -> String {
        let country = visit.countryCode.flatMap { locale.localizedString(forRegionCode: $0) } ?? visit.country
        return [visit.admin1, country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// A relative path as a URL reference: every byte but unreserved characters and `/`
    /// percent-encoded (spaces, accents, `#`, `?`, and `:` so no path can be read as a scheme
    /// such as `javascript:`); a path that starts with `/` gets `.` before it, so it cannot
    /// become a scheme-relative `//host` link.
    static func urlReference(_ path: String) -> String {
        // The journal's encoding, on the bytes: Foundation's addingPercentEncoding was a fifth
        // of a library trip's map.
        urlReference(bytes: path.utf8)
    }

    /// `urlReference` of a path's bytes.
    static func urlReference(bytes: some Collection<UInt8>) -> String {
        let encoded = MarkdownText.linkTarget(bytes: bytes)
        return encoded.hasPrefix("/") ? "." + encoded : encoded
    }

    /// The link to a photo or video: its path's, by its bytes when they are not its text.
    static func href(_ media: TripMapInput.Media) -> String? {
        media.pathBytes.map { urlReference(bytes: $0) } ?? media.path.map(urlReference)
    }

    // MARK: Template context

    /// Every key is named for its level (`dayNotes`, `visitNotes`): Mustache looks a missing key
    /// up in the enclosing sections, so a visit without notes must not find its day's.
    private func templateContext(words: TripMapWords, parts: [DayPart]) -> [String: Any] {
        let figures = input.figures ?? input.computedFigures
        let dates = days.map(\.date)
        let title: String
        if let given = input.title, !given.isEmpty {
            title = given
        } else if let first = dates.first, let last = dates.last {
            let span = first == last ? formatted(first, template: "yMMMMd")
                : "\(formatted(first, template: "yMMMMd")) – \(formatted(last, template: "yMMMMd"))"
            title = "\(words.pageTitle): \(span)"
        } else {
            title = words.pageTitle
        }
        let countryNames = figures.countries.map { locale.localizedString(forRegionCode: $0) ?? $0 }
        var figureCards: [[String: Any]] = [
            ["value": number(Double(figures.days)), "label": words.days(figures.days)],
            ["value": number(Double(figures.visits)), "label": words.visits(figures.visits)],
            ["value": number(Double(figures.places)), "label": words.places(figures.places)],
            ["value": "\(number(figures.groundKilometres)) km", "label": words.ground],
        ]
        if figures.flownKilometres > 0 {
            figureCards.append(["value": "\(number(figures.flownKilometres)) km", "label": words.flown])
        }
        figureCards.append(["value": number(Double(figures.countries.count)), "label": words.countries(figures.countries.count),
                            "detail": countryNames.joined(separator: ", ")])

        let datesShown = Set(input.visits.map(\.localDate))
        let dayEntries: [[String: Any]] = zip(days, parts).enumerated().map { index, dayAndPart in
            let (day, part) = dayAndPart
            let colour = Self.dayColours[index % Self.dayColours.count]
            var entry: [String: Any] = [
                "index": index, "colour": colour,
                "heading": formatted(day.date, template: "yMMMMEEEEd"), "date": day.date,
                "visitItems": part.items, "itemsKey": part.itemsKey, "json": part.json, "jsonKey": part.jsonKey,
            ]
            if let notes = day.notes, case let html = Self.notesHTML(notes, day: day.date), !html.isEmpty { entry["dayNotes"] = html }
            if day.unplacedPhotoCount > 0 {
                entry["unplaced"] = words.unplacedCount(day.unplacedPhotoCount)
            } else if !datesShown.contains(day.date) {
                entry["nothing"] = words.nothingThisDay
            }
            return entry
        }
        let chips: [[String: Any]] = days.enumerated().map { index, day in
            ["index": index, "colour": Self.dayColours[index % Self.dayColours.count],
             "label": formatted(day.date, template: "MMMdEEE")]
        }
        var credits = [words.creditPlaceNames]
        if input.namesFromOpenStreetMap { credits.append(words.creditOpenStreetMap) }
        credits += [words.creditShores, words.creditCountries, words.creditLeaflet]
        if let tiles = input.tiles { credits.append("\(words.onlineTiles): \(tiles.attribution)") }
        var context: [String: Any] = [
            "lang": input.language, "title": title, "words": wordsContext(words),
            "overviewLabel": countryNames.isEmpty ? words.overview : words.overview + ": " + countryNames.joined(separator: ", "),
            "figures": figureCards, "dayChips": chips, "days": dayEntries, "credits": credits,
        ]
        if let index = input.libraryIndex { context["libraryIndex"] = ["href": Self.urlReference(index), "label": "← " + words.allTrips] }
        // The page's words are English for a language they are not written in: said so, for a
        // screen reader's voice, on each element that holds them.
        if let language = interfaceLanguage { context["uiLang"] = language }
        return context
    }

    /// A visit's item in the timeline, `<li>` to `</li>` and a line break, every value escaped
    /// (`html`). Built here rather than in the template: a day added to a library is hundreds
    /// of visits, and the template's sections per visit and thumbnail took most of the page's
    /// time. The page's other parts stay in the template.
    func visitItem(_ number: Int, _ visit: TripMapInput.Visit, colour: String, words: TripMapWords) -> String {
        let id = Self.html(visit.id)
        var item = "<li class=\"visit\" data-visit=\"\(id)\">\n<button type=\"button\" class=\"visit-button\" data-visit=\"\(id)\">"
        item += "<span class=\"badge\" style=\"background:\(Self.html(colour));color:\(Self.ink(on: colour))\">\(number)</span><span class=\"visit-text\">"
        item += "<span class=\"visit-name\">\(Self.html(visit.name ?? words.unnamedPlace))</span>"
        if let time = Self.timeSpan(visit) { item += "<span class=\"visit-time\">\(Self.html(time))</span>" }
        item += "<span class=\"visit-place\">\(Self.html(placeLine(visit)))</span>"
        let videos = visit.media.filter { $0.kind == .video }.count
        item += "<span class=\"visit-photos\"\(uiLanguage)>\(Self.html(words.mediaCount(visit.photoCount, videos: videos)))</span></span></button>\n"
        // A note of comments alone shows nothing, and has no box.
        if let notes = visit.notes, case let html = Self.notesHTML(notes, day: visit.localDate), !html.isEmpty {
            item += "<div class=\"notes\">\(html)</div>\n"
        }
        item += "<div class=\"thumbs\">"
        for (index, media) in visit.media.prefix(thumbnailsPerVisit).enumerated() {
            let label = Self.html(mediaLabel(media, index, of: visit, words: words))
            if let href = Self.href(media) { item += "<a href=\"\(Self.html(href))\" title=\"\(Self.html(words.openOriginal))\">" }
            if let thumbnail = media.thumbnail {
                item += "<img src=\"\(Self.html(Self.urlReference(thumbnail)))\" alt=\"\(label)\" loading=\"lazy\" width=\"96\" height=\"72\">"
            } else {
                // The box shows the file's name (or the video's length); a screen reader hears the whole label.
                item += "<span class=\"no-thumb\"><span aria-hidden=\"true\">\(Self.html(shortLabel(media, index, of: visit, words: words)))</span>"
                    + "<span class=\"visually-hidden\">\(label)</span></span>"
            }
            if media.path != nil { item += "</a>" }
        }
        // How many more the visit holds than it shows (`+492`), a link to its day's journal
        // page, which shows them all.
        if visit.media.count > thumbnailsPerVisit {
            let more = visit.media.count - thumbnailsPerVisit
            item += "<a class=\"more-link\" href=\"\(Self.html(Self.journalPage(visit)))\"><span class=\"more-media\"><span aria-hidden=\"true\">+\(more)</span>"
                + "<span class=\"visually-hidden\">\(Self.html(words.more(more)))</span></span></a>"
        }
        return item + "</div>\n</li>\n"
    }

    /// The link from the map to `visit`'s day page in the journal beside it.
    static func journalPage(_ visit: TripMapInput.Visit) -> String {
        urlReference(ExportStage.journalFolder + "/" + visit.localDate + ".md")
    }

    /// A note as the page shows it (`NoteMarkup`): its Markdown formatted, its links made
    /// from the day's journal page, which sits in `journal/` beside the map.
    static func notesHTML(_ notes: String, day: String) -> String {
        NoteMarkup.html(notes, folder: ExportStage.journalFolder + "/", page: day + ".md")
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: what the template does
    /// to every `{{value}}`, for the parts of the page built here.
    static func html(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: escaped.append(contentsOf: "&amp;".utf8)
            case 0x3C: escaped.append(contentsOf: "&lt;".utf8)
            case 0x3E: escaped.append(contentsOf: "&gt;".utf8)
            case 0x22: escaped.append(contentsOf: "&quot;".utf8)
            case 0x27: escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// What a thumbnail shows, as its text: the file's name when the page links it, which of
    /// the visit's it is, a video's length, and the visit ("IMG_0004.JPG, photo 2 of 7,
    /// Lisbon"). The names are isolated (U+2068 to U+2069): one that runs right to left, or
    /// holds a direction override, cannot turn the words after it around.
    func mediaLabel(_ media: TripMapInput.Media, _ index: Int, of visit: TripMapInput.Visit, words: TripMapWords) -> String {
        // Built in place: a 100,000-photo trip makes 60,000 of these.
        var label = ""
        if let name = Self.fileName(media) { label += "\u{2068}" + name + "\u{2069}, " }
        label += words.mediaOf(media.kind, index + 1, visit.media.count)
        if media.kind == .video, let length = MediaDuration.text(media.durationSeconds) { label += ", " + length }
        return label + ", \u{2068}" + (visit.name ?? words.unnamedPlace) + "\u{2069}"
    }

    /// The last part of a media's path, when the page links it.
    static func fileName(_ media: TripMapInput.Media) -> Substring? {
        media.path.map { path in path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.utf8.index(after: $0)...] } ?? path[...] }
    }

    /// What the box of a media without a thumbnail shows: its file's name, or when the page
    /// leaves the originals out, a video's word and length, or which of the visit's photos it is.
    func shortLabel(_ media: TripMapInput.Media, _ index: Int, of visit: TripMapInput.Visit, words: TripMapWords) -> String {
        Self.fileName(media).map(String.init) ?? mediaLength(media, words: words) ?? words.mediaOf(media.kind, index + 1, visit.media.count)
    }

    /// A video's word and length ("Video, 0:12"), or nil for a photo.
    private func mediaLength(_ media: TripMapInput.Media, words: TripMapWords) -> String? {
        guard media.kind == .video else { return nil }
        return MediaDuration.text(media.durationSeconds).map { "\(words.video), \($0)" } ?? words.video
    }

    /// The language of the page's own words when it is not the page's (a language geotrip has
    /// no words for gets English ones), else nil.
    var interfaceLanguage: String? {
        let words = TripMapWords.forLanguage(input.language)
        let primary = input.language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
        return primary == words.language ? nil : words.language
    }

    /// `interfaceLanguage` as an element's attribute (` lang="en"`), or nothing.
    var uiLanguage: String { interfaceLanguage.map { " lang=\"\($0)\"" } ?? "" }

    private func wordsContext(_ w: TripMapWords) -> [String: String] {
        ["skipToTimeline": w.skipToTimeline, "figuresHeading": w.figuresHeading, "overview": w.overview,
         "mapLabel": w.mapLabel, "dayFilter": w.dayFilter, "allDays": w.allDays, "timeline": w.timeline,
         "notes": w.notes, "credits": w.credits, "madeWith": w.madeWith]
    }

    // MARK: Script data

    // The page's data, each part as the JSON the script reads (`JSONValue`: sorted keys, an
    // absent optional left out, as `JSONEncoder` writes them).

    /// The page's data but its visits and videos, which each day's part holds (`DayPart`).
    private struct PageData {
        var days: [DayData]
        var legs: [LegData]
        var visited: [String]
        /// The towns visited (`visitedTowns`), shown from the second tier's zoom at least.
        var visitedTowns: [TownData]
        var tiles: TilesData?
        var words: [String: String]

        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("days", .array(days.map(\.json))),
                ("legs", .array(legs.map(\.json))), ("visited", .array(visited.map(JSONValue.string))),
                ("visitedTowns", .array(visitedTowns.map(\.json))),
                ("words", .object(words.map { ($0.key, .string($0.value)) })),
            ]
            if let tiles { members.append(("tiles", tiles.json)) }
            return .object(members)
        }
    }

    private struct VisitData {
        var id: String
        var number: Int
        var day: Int
        var name: String
        var place: String
        var time: String?
        var photos: String
        var photoCount: Int
        var lat: Double
        var lon: Double
        var media: [MediaData]
        /// How many of the visit's photos and videos its popup does not show, that in words, and
        /// the day's journal page, which shows them.
        var more: Int
        var moreLabel: String
        var moreHref: String

        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("id", .string(id)), ("number", .integer(Int64(number))), ("day", .integer(Int64(day))), ("name", .string(name)),
                ("place", .string(place)), ("photos", .string(photos)), ("photoCount", .integer(Int64(photoCount))),
                ("lat", .number(lat)), ("lon", .number(lon)), ("media", .array(media.map(\.json))),
            ]
            if let time { members.append(("time", .string(time))) }
            if more > 0 { members += [("more", .integer(Int64(more))), ("moreLabel", .string(moreLabel)), ("moreHref", .string(moreHref))] }
            return .object(members)
        }
    }

    /// A video's own marker: where it was made, the day it belongs to, and its visit.
    private struct VideoData {
        var visit: String
        var day: Int
        var lat: Double
        var lon: Double
        var href: String?
        var label: String

        var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("visit", .string(visit)), ("day", .integer(Int64(day))), ("lat", .number(lat)), ("lon", .number(lon)),
                ("label", .string(label)),
            ]
            if let href { members.append(("href", .string(href))) }
            return .object(members)
        }
    }

    private struct MediaData {
        var thumb: String?
        var href: String?
        var label: String
        /// What a box without a thumbnail shows (`shortLabel`).
        var short: String

        var json: JSONValue {
            var members: [(String, JSONValue)] = [("label", .string(label)), ("short", .string(short))]
            if let thumb { members.append(("thumb", .string(thumb))) }
            if let href { members.append(("href", .string(href))) }
            return .object(members)
        }
    }

    private struct DayData {
        var date: String
        var colour: String

        var json: JSONValue { .object([("date", .string(date)), ("colour", .string(colour)), ("ink", .string(TripMapPage.ink(on: colour)))]) }
    }

    private struct LegData {
        var day: Int
        var kind: TripMapInput.LegKind
        /// Pieces (split at the antimeridian) of flattened (lat, lon) pairs.
        var pieces: [[Double]]

        var json: JSONValue {
            .object([("day", .integer(Int64(day))), ("kind", .string(kind.rawValue)), ("pieces", .array(pieces.map(JSONValue.numbers)))])
        }
    }

    private struct TownData {
        var name: String
        var lat: Double
        var lon: Double
        /// 1 for the largest cities (shown at every zoom) to 4 for small towns (close up only).
        var tier: Int

        init(_ town: GazetteerPlace, tier: Int) {
            name = town.name
            lat = TripMapPage.rounded(town.coordinate.latitude)
            lon = TripMapPage.rounded(town.coordinate.longitude)
            self.tier = tier
        }

        /// The tier of a town of its population.
        static func tier(_ town: GazetteerPlace) -> Int {
            town.population >= 500_000 ? 1 : town.population >= 100_000 ? 2 : town.population >= 20_000 ? 3 : 4
        }

        var json: JSONValue {
            .object([("name", .string(name)), ("lat", .number(lat)), ("lon", .number(lon)), ("tier", .integer(Int64(tier)))])
        }
    }

    private struct TilesData {
        var url: String
        var attribution: String

        var json: JSONValue { .object([("url", .string(url)), ("attribution", .string(attribution))]) }
    }

    private static func rounded(_ value: Double) -> Double { (value * 1e5).rounded() / 1e5 }

    /// A visit as the script's data holds it: `number` in the trip, on the day of index `day`.
    private func visitData(_ visit: TripMapInput.Visit, number: Int, day: Int, seam: Double?, words: TripMapWords) -> VisitData {
        let more = max(0, visit.media.count - Self.popupMedia)
        return VisitData(id: visit.id, number: number, day: day, name: visit.name ?? words.unnamedPlace,
                  place: placeLine(visit), time: Self.timeSpan(visit), photos: words.mediaCount(visit.photoCount, videos: visit.media.filter { $0.kind == .video }.count),
                  photoCount: visit.photoCount,
                  lat: Self.rounded(visit.latitude), lon: Self.rounded(mapLongitude(visit.longitude, seam: seam)),
                  media: visit.media.prefix(Self.popupMedia).enumerated().map { index, media in
                      MediaData(thumb: media.thumbnail.map(Self.urlReference), href: Self.href(media),
                                label: mediaLabel(media, index, of: visit, words: words), short: shortLabel(media, index, of: visit, words: words))
                  }, more: more, moreLabel: words.more(more), moreHref: Self.journalPage(visit))
    }

    /// The markers of a visit's videos that have a position of their own.
    private func videoData(_ visit: TripMapInput.Visit, day: Int, seam: Double?, words: TripMapWords) -> [VideoData] {
        visit.media.compactMap { media -> VideoData? in
            guard media.kind == .video, let at = media.coordinate else { return nil }
            return VideoData(visit: visit.id, day: day, lat: Self.rounded(at.latitude),
                             lon: Self.rounded(mapLongitude(at.longitude, seam: seam)), href: Self.href(media),
                             label: [Self.fileName(media).map(String.init), mediaLength(media, words: words)].compactMap { $0 }.joined(separator: " · "))
        }
    }

    private func pageData(words: TripMapWords, seam: Double?, towns: [GazetteerPlace]) -> PageData {
        let dayIndex = Dictionary(days.enumerated().map { ($1.date, $0) }, uniquingKeysWith: { a, _ in a })
        let legs: [LegData] = input.legs.compactMap { leg in
            guard leg.coordinates.count >= 2 else { return nil }
            // The route model gives flights as arcs already; a flight given by its two ends only
            // is drawn as one here.
            let line = leg.kind == .flight && leg.coordinates.count == 2
                ? RouteGeometry.greatCircleArc(from: leg.coordinates[0], to: leg.coordinates[1])
                : leg.coordinates
            // On the usual map a line across 180° is cut there; on a map that runs across 180°
            // it continues, each point taken on the side nearer the one before.
            let pieces: [[Coordinate]]
            if seam != nil {
                var previous = mapLongitude(line[0].longitude, seam: seam)
                pieces = [line.map { point in
                    var longitude = point.longitude
                    while longitude - previous > 180 { longitude -= 360 }
                    while previous - longitude > 180 { longitude += 360 }
                    previous = longitude
                    return Coordinate(latitude: point.latitude, longitude: longitude)
                }]
            } else {
                pieces = RouteGeometry.splitAtAntimeridian(line)
            }
            let flat = pieces.map { piece in piece.flatMap { [Self.rounded($0.latitude), Self.rounded($0.longitude)] } }
            return LegData(day: dayIndex[leg.localDate] ?? 0, kind: leg.kind, pieces: flat)
        }
        let figures = input.figures ?? input.computedFigures
        return PageData(
            days: days.enumerated().map { DayData(date: $1.date, colour: Self.dayColours[$0 % Self.dayColours.count]) },
            legs: legs, visited: figures.countries, visitedTowns: towns.map { TownData($0, tier: min(2, TownData.tier($0))) },
            tiles: input.tiles.map { TilesData(url: $0.urlTemplate, attribution: $0.attribution) },
            words: ["offlineMap": words.offlineMap, "onlineTiles": words.onlineTiles, "notes": words.notes,
                    "allDays": words.allDays, "close": words.close, "openOriginal": words.openOriginal,
                    "groupVisit": words.groupVisits.one, "groupVisits": words.groupVisits.many,
                    "groupVideo": words.groupVideos.one, "groupVideos": words.groupVideos.many,
                    "groupAnd": words.groupAnd, "groupMore": words.groupMore, "groupOpen": words.groupOpen,
                    "nothingOnMap": words.nothingOnMap])
    }
}
