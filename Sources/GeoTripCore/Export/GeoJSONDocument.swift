import Foundation

/// `trip.geojson`: the trip as an RFC 7946 FeatureCollection. WGS 84 longitude-latitude
/// positions rounded to 6 decimals (about 10 cm), no `crs` member (section 4), a Point per
/// visit, the route as one LineString per leg (a MultiLineString for a leg cut at the
/// antimeridian, section 3.1.9), and with `--photos` a Point per photo. Nothing inside a
/// `--hide-near` zone is in it. One feature per line, keys sorted, so a rerun writes the same
/// bytes and a changed trip diffs by feature.
struct GeoJSONDocument {
    /// A property value; nil ones are written as JSON `null`, so every feature of a kind has
    /// the same keys.
    enum Value: Equatable {
        case text(String?)
        case number(Double?)
        case integer(Int?)

        var json: JSONValue {
            switch self {
            case .text(let value?): .string(value)
            case .number(let value?): .number(value)
            case .integer(let value?): .integer(Int64(value))
            default: .null
            }
        }
    }

    /// A geometry's `coordinates`, nested as its type needs.
    enum Geometry: Equatable {
        case point(Coordinate)
        case lineString([Coordinate])
        case multiLineString([[Coordinate]])

        var json: JSONValue {
            switch self {
            case .point(let point):
                .object([("type", .string("Point")), ("coordinates", .numbers(Self.position(point)))])
            case .lineString(let line):
                .object([("type", .string("LineString")), ("coordinates", .array(line.map { .numbers(Self.position($0)) }))])
            case .multiLineString(let lines):
                .object([("type", .string("MultiLineString")),
                         ("coordinates", .array(lines.map { .array($0.map { .numbers(Self.position($0)) }) }))])
            }
        }

        /// `[longitude, latitude]`, each rounded to 6 decimals (RFC 7946 section 11.2).
        static func position(_ c: Coordinate) -> [Double] {
            [GeoJSONDocument.rounded(c.longitude), GeoJSONDocument.rounded(c.latitude)]
        }
    }

    /// One feature.
    struct Feature: Equatable {
        var type = "Feature"
        var id: String
        var geometry: Geometry
        var properties: [String: Value]

        var json: JSONValue {
            .object([("type", .string(type)), ("id", .string(id)), ("geometry", geometry.json),
                     ("properties", .object(properties.map { ($0.key, $0.value.json) }))])
        }
    }

    /// The features in order: visits, then the route's legs, then photos.
    var features: [Feature] = []

    /// The document for the visible trip: `visits` in time order, `route` already cut by the
    /// privacy zones, `photos` (empty without `--photos`), and the visits' notes by id.
    init(visits: [TripVisit], route: TripRoute, photos: [TripPhoto], notes: [String: String], privacy: PrivacyZones) {
        var shown = Set<String>()
        for visit in visits where !privacy.contains(visit.centre) {
            shown.insert(visit.id)
            let note = notes[visit.id].map(NoteMarkup.withoutComments).flatMap { $0.contains { !$0.isWhitespace } ? $0 : nil }
            features.append(Feature(id: visit.id, geometry: .point(visit.centre), properties: [
                "id": .text(visit.id), "placeId": .text(visit.placeId), "name": .text(visit.name), "admin1": .text(visit.admin1),
                "country": .text(visit.country), "countryCode": .text(visit.countryCode), "arrival": .text(visit.arrival),
                "departure": .text(visit.departure), "localArrival": .text(visit.localArrival),
                "localDeparture": .text(visit.localDeparture), "localDate": .text(visit.localDate), "timeZone": .text(visit.timeZone),
                "photoCount": .integer(visit.photoCount - visit.hiddenPhotos), "nameSource": .text(visit.nameSource), "notes": .text(note),
            ]))
        }
        // A leg between two visits on one spot has no line (its parts are none): left out.
        for (index, leg) in route.legs.enumerated() {
            let parts = leg.partsSplitAtAntimeridian
            if parts.isEmpty { continue }
            features.append(Feature(id: "leg-\(index + 1)", geometry: parts.count == 1 ? .lineString(parts[0]) : .multiLineString(parts),
                                    properties: [
                                        "from": .text(shown.contains(leg.from) ? leg.from : nil),
                                        "to": .text(shown.contains(leg.to) ? leg.to : nil),
                                        "localDate": .text(leg.localDate), "kind": .text(leg.kind.rawValue),
                                        "distanceMeters": .integer(Int(leg.distanceMeters.rounded())),
                                    ]))
        }
        // A Live Photo's video is the still's moment, not a point of its own: it is named there.
        let liveVideos = Dictionary(photos.compactMap { video in video.liveStillID.map { ($0, video.path) } },
                                    uniquingKeysWith: { first, _ in first })
        // A photo of a hidden visit is hidden with it, wherever its own position (a visit placed
        // from a hidden neighbour: `PrivacyZones.neighbourZones`). And a photo placed between
        // its neighbours within their reach of a hidden visit lies on the line from that visit,
        // at the share of the time: its point, with the times published, would run back to the
        // door (its uncertainty is its distance from the nearer neighbour, too).
        // So does one placed beside a photo taken inside a zone that joined a visit outside it
        // (at a visit's edge, or with a small zone).
        let hidden = PrivacyZones.HiddenTimes(visits: visits.filter { !shown.contains($0.id) },
                                              times: photos.filter(privacy.hides).compactMap { UTCTimestamp.date($0.utcTime) })
        func besideHidden(_ photo: TripPhoto) -> Bool {
            guard photo.locationSource == LocationSource.interpolated.rawValue, let time = UTCTimestamp.date(photo.utcTime) else { return false }
            return hidden.holds(time)
        }
        let hiddenVisits = Set(visits.map(\.id)).subtracting(shown)
        for photo in photos where photo.liveStillID == nil {
            guard let coordinate = photo.coordinate, !privacy.contains(coordinate) else { continue }
            if let visit = photo.visitID, hiddenVisits.contains(visit) { continue }
            if besideHidden(photo) { continue }
            let isVideo = photo.format == .video
            var properties: [String: Value] = [
                "path": .text(photo.path), "utcTime": .text(photo.utcTime), "locationSource": .text(photo.locationSource),
                "uncertaintyMeters": .number(photo.uncertaintyMeters.map { ($0 * 10).rounded() / 10 }), "visitId": .text(photo.visitID),
                "kind": .text(isVideo ? "video" : "photo"),
            ]
            if isVideo { properties["durationSeconds"] = .number(photo.durationSeconds.map { ($0 * 1000).rounded() / 1000 }) }
            if let video = liveVideos[photo.id] { properties["livePhotoVideo"] = .text(video) }
            features.append(Feature(id: "photo-\(photo.id)", geometry: .point(coordinate), properties: properties))
        }
    }

    /// The file's text: a FeatureCollection with one feature per line, written by `JSONValue`.
    func text() -> String {
        if features.isEmpty { return "{\"type\":\"FeatureCollection\",\"features\":[]}\n" }
        var out = Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
        for (index, feature) in features.enumerated() {
            if index > 0 { out += Array(",\n".utf8) }
            feature.json.write(into: &out)
        }
        out += Array("\n]}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Degrees to 6 decimals: about 10 cm, finer than any photo's position (RFC 7946 section 11.2
    /// recommends no more precision than the data has).
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
}
