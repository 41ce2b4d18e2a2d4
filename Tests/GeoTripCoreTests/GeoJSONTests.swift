import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// `trip.geojson` against RFC 7946's rules, the route model it draws (track, direct, flight,
/// the antimeridian) and the privacy zones (issue 12).
@Suite("GeoJSON and route")
struct GeoJSONTests {
    static func visit(_ id: String, _ latitude: Double, _ longitude: Double, at hour: Double, for minutes: Double = 30,
                      day: String = "2025-06-10") -> TripVisit {
        let start = Date(timeIntervalSince1970: 1_749_513_600 + hour * 3600)  // 2025-06-10T00:00:00Z + hour
        return TripVisit(id: id, placeId: "p" + id.dropFirst(), revision: 1, latitude: latitude, longitude: longitude, radiusMeters: 20,
                         arrival: start.geotripISO8601!, departure: start.addingTimeInterval(minutes * 60).geotripISO8601!, localDate: day,
                         timeZone: "UTC", localArrival: nil, localDeparture: nil, photoCount: 2, photos: ["\(id).jpg"], name: "Name \(id)",
                         admin1: nil, country: nil, countryCode: nil, nameSource: "offline")
    }

    /// Parses the document's text and checks every RFC 7946 rule a reader relies on; returns the features.
    static func checkedFeatures(_ text: String) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        #expect(root["crs"] == nil)  // section 4: no crs member
        let features = try #require(root["features"] as? [[String: Any]])
        func checkPosition(_ value: Any) {
            guard let position = value as? [Double], position.count == 2 else { Issue.record("not a position: \(value)"); return }
            // Longitude first, then latitude, in range, at most 6 decimals.
            #expect((-180...180).contains(position[0]) && (-90...90).contains(position[1]), "\(position)")
            for number in position { #expect(abs(number * 1e6 - (number * 1e6).rounded()) < 1e-6, "\(number) has more than 6 decimals") }
        }
        for feature in features {
            #expect(feature["type"] as? String == "Feature")
            #expect(feature["id"] is String)
            #expect(feature["properties"] is [String: Any])
            let geometry = try #require(feature["geometry"] as? [String: Any])
            switch geometry["type"] as? String {
            case "Point":
                checkPosition(geometry["coordinates"] as Any)
            case "LineString":
                let line = try #require(geometry["coordinates"] as? [Any])
                #expect(line.count >= 2)
                line.forEach(checkPosition)
            case "MultiLineString":
                let lines = try #require(geometry["coordinates"] as? [[Any]])
                for line in lines {
                    #expect(line.count >= 2)
                    line.forEach(checkPosition)
                    // Section 3.1.9: no part jumps across the antimeridian.
                    let longitudes = line.compactMap { ($0 as? [Double])?.first }
                    #expect(zip(longitudes, longitudes.dropFirst()).allSatisfy { abs($0 - $1) <= 180 })
                }
            default:
                Issue.record("unexpected geometry \(geometry)")
            }
        }
        return features
    }

    @Test("a FeatureCollection of visits, one leg per pair of visits and photo points, by RFC 7946's rules")
    func structure() throws {
        let visits = [Self.visit("v1", 38.7112512345, -9.1369612345, at: 9), Self.visit("v2", 38.6916, -9.2160, at: 11),
                      Self.visit("v3", 38.7979, -9.3904, at: 15)]
        let photos = [TripPhoto(id: 7, path: "dir/a b.jpg", utcTime: "2025-06-10T09:05:00Z", coordinate: Coordinate(latitude: 38.71125, longitude: -9.13696),
                                locationSource: "exif", uncertaintyMeters: 5, visitID: "v1")]
        let document = GeoJSONDocument(visits: visits, route: TripRoute(visits: visits), photos: photos,
                                       notes: ["v2": "lunch\n<!-- door code 4711 -->\n", "v3": "<!-- only a remark -->"], privacy: PrivacyZones())
        let text = document.text()
        let features = try Self.checkedFeatures(text)
        #expect(features.count == 3 + 2 + 1)
        let first = try #require(features.first)
        #expect((first["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-9.136961, 38.711251])
        #expect((features[1]["properties"] as? [String: Any])?["notes"] as? String == "lunch\n")
        #expect((first["properties"] as? [String: Any])?["notes"] is NSNull)
        // A note's HTML comments are left out, as Markdown previews hide them; a note of them alone is none.
        #expect((features[2]["properties"] as? [String: Any])?["notes"] is NSNull)
        let leg = try #require(features[3]["properties"] as? [String: Any])
        #expect(leg["kind"] as? String == "direct" && leg["from"] as? String == "v1" && leg["localDate"] as? String == "2025-06-10")
        #expect((leg["distanceMeters"] as? Int).map { (7_000...8_000).contains($0) } == true)
        #expect((features[5]["properties"] as? [String: Any])?["path"] as? String == "dir/a b.jpg")
        // One feature per line, and the same bytes every time.
        #expect(text.split(separator: "\n").count == 6 + 2)
        #expect(document.text() == text)
    }

    @Test("a leg across the antimeridian is a MultiLineString cut at ±180° (RFC 7946 section 3.1.9)")
    func antimeridian() throws {
        // Fiji to Samoa's neighbour across the line, a day apart (no flight speed, a direct leg).
        let visits = [Self.visit("v1", -17.0, 178.0, at: 0), Self.visit("v2", -14.0, -172.0, at: 30)]
        let route = TripRoute(visits: visits)
        let parts = try #require(route.legs.first).partsSplitAtAntimeridian
        #expect(parts.count == 2)
        #expect(parts[0].last?.longitude == 180 && parts[1].first?.longitude == -180)
        #expect(parts[0].last?.latitude == parts[1].first?.latitude)
        // Linear in latitude between the two positions: 2° of 10° east of 178.
        #expect(abs((parts[0].last?.latitude ?? 0) - -16.4) < 1e-9)
        let features = try Self.checkedFeatures(GeoJSONDocument(visits: visits, route: route, photos: [], notes: [:], privacy: PrivacyZones()).text())
        #expect((features[2]["geometry"] as? [String: Any])?["type"] as? String == "MultiLineString")
    }

    @Test("every line has length: a leg between visits on one spot is left out, and a line from the seam has no stub on the other side")
    func noLineWithoutLength() throws {
        // A café in the morning and the evening, the museum between: two legs, and no third
        // from the café to itself when the museum is not between.
        let cafe = (40.4168, -3.7038)
        let visits = [Self.visit("v1", cafe.0, cafe.1, at: 9), Self.visit("v2", cafe.0, cafe.1, at: 19), Self.visit("v3", 40.4138, -3.6921, at: 21)]
        let features = try Self.checkedFeatures(GeoJSONDocument(visits: visits, route: TripRoute(visits: visits), photos: [], notes: [:],
                                                                privacy: PrivacyZones()).text())
        let legs = features.filter { ($0["id"] as? String)?.hasPrefix("leg-") == true }
        #expect(legs.map { $0["id"] as? String } == ["leg-2"])
        // A boat's track from the seam itself: one line on the side it goes, no part of one point.
        let onSeam = RouteGeometry.splitAtAntimeridian([Coordinate(latitude: -17, longitude: 180), Coordinate(latitude: -17, longitude: -179.875)])
        #expect(onSeam == [[Coordinate(latitude: -17, longitude: -180), Coordinate(latitude: -17, longitude: -179.875)]])
        // To the pole at -180 from 180: the same point, written both ways; nothing to draw.
        #expect(RouteGeometry.splitAtAntimeridian([Coordinate(latitude: -90, longitude: 180), Coordinate(latitude: -90, longitude: -180)]).isEmpty)
        // Points repeated along a track are one.
        #expect(RouteGeometry.splitAtAntimeridian([Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 1, longitude: 1),
                                                   Coordinate(latitude: 2, longitude: 2)]).first?.count == 2)
    }

    @Test("a leg faster than 300 km/h is a flight along the great circle; a slow one is direct")
    func flights() throws {
        // Lisbon to Madrid (500 km) in an hour and a half, then a walk.
        let visits = [Self.visit("v1", 38.7742, -9.1342, at: 8, for: 30), Self.visit("v2", 40.4720, -3.5608, at: 10),
                      Self.visit("v3", 40.4150, -3.6840, at: 13)]
        let route = TripRoute(visits: visits)
        #expect(route.legs.map(\.kind) == [.flight, .direct])
        let arc = route.legs[0].coordinates
        #expect(arc.count > 10)
        // Every arc vertex lies on the great circle: the distances along it add up to the whole.
        #expect(abs(TripRoute.length(arc) - route.legs[0].distanceMeters) < 1)
        #expect(route.flownMeters > 480_000 && route.groundMeters < 20_000)
        // London to Dubai (5,470 km) with two days between the last photo and the next: flown,
        // however slow; Lisbon to Madrid over the same two days is a drive.
        let slow = TripRoute(visits: [Self.visit("v1", 51.5074, -0.1278, at: 8), Self.visit("v2", 25.2048, 55.2708, at: 56),
                                      Self.visit("v3", 38.7742, -9.1342, at: 60), Self.visit("v4", 40.4168, -3.7038, at: 108)])
        #expect(slow.legs.map(\.kind) == [.flight, .flight, .direct], "\(slow.legs.map(\.distanceMeters))")
    }

    @Test("with a track between two visits the leg follows it, simplified to about 10 m")
    func trackLegs() throws {
        let visits = [Self.visit("v1", 38.7000, -9.1000, at: 9), Self.visit("v2", 38.7100, -9.1000, at: 11)]
        let departure = UTCTimestamp.date(visits[0].departure)!
        // A straight walk north with 2 m of wobble every point, then a 300 m detour east.
        var track: [TrackPoint] = (0..<100).map { i in
            TrackPoint(coordinate: Coordinate(latitude: 38.7000 + Double(i) * 0.00005, longitude: -9.1000 + (i % 2 == 0 ? 0.00002 : 0)),
                       time: departure.addingTimeInterval(Double(i) * 30))
        }
        track.append(TrackPoint(coordinate: Coordinate(latitude: 38.7060, longitude: -9.0965), time: departure.addingTimeInterval(3100)))
        let route = TripRoute(visits: visits, track: track)
        let leg = try #require(route.legs.first)
        #expect(leg.kind == .track)
        #expect(leg.coordinates.count < 10)
        #expect(leg.coordinates.contains(Coordinate(latitude: 38.7060, longitude: -9.0965)))
        #expect(leg.distanceMeters > 1_100)
        // Points outside the window between the visits are not used.
        #expect(TripRoute(visits: visits, track: [TrackPoint(coordinate: Coordinate(latitude: 0, longitude: 0), time: departure.addingTimeInterval(-60))])
            .legs.first?.kind == .direct)
    }

    @Test("a log kept on board a flight makes a flown leg along its points, counted as flown, not on the ground")
    func trackedFlight() throws {
        // Haneda to Honolulu in eight hours, a fix every hour on the way (6,200 km: 775 km/h).
        let visits = [Self.visit("v1", 35.5494, 139.7798, at: 0), Self.visit("v2", 21.3187, -157.9225, at: 8.5)]
        let departure = UTCTimestamp.date(visits[0].departure)!
        let track: [TrackPoint] = (1...7).map { (hour: Int) -> TrackPoint in
            let east: Double = 139.8 + Double(hour) * 8.9
            // The fourth fix well off the line between the others: the leg bends there.
            let point = Coordinate(latitude: 35.5 - Double(hour) * 2 + (hour == 4 ? 5 : 0), longitude: east > 180 ? east - 360 : east)
            return TrackPoint(coordinate: point, time: departure.addingTimeInterval(Double(hour) * 3600))
        }
        let route = TripRoute(visits: visits, track: track)
        let leg = try #require(route.legs.first)
        #expect(leg.kind == .flight && leg.coordinates.contains(track[3].coordinate), "\(leg.kind) \(leg.coordinates)")
        #expect(route.groundMeters == 0 && route.flownMeters > 6_000_000, "\(route.groundMeters) \(route.flownMeters)")
        // The same points an hour apart on a day's walk are no flight: a walk is not 775 km/h.
        let slow = TripRoute(visits: [Self.visit("v1", 38.70, -9.10, at: 9), Self.visit("v2", 38.71, -9.10, at: 11)],
                             track: [TrackPoint(coordinate: Coordinate(latitude: 38.705, longitude: -9.1), time: departure.addingTimeInterval(9.5 * 3600))])
        #expect(slow.legs.first?.kind == .track)
    }

    @Test("a trip takes the points of a long log from a day before its first visit to a day after its last, ends included")
    func tripStretchOfTrack() throws {
        let visits = [Self.visit("v1", 38.70, -9.10, at: 9), Self.visit("v2", 38.71, -9.10, at: 11)]
        let trip = Trip(visits: visits, outside: [], days: [])
        let from = UTCTimestamp.date(visits[0].arrival)!.addingTimeInterval(-86_400)
        let to = UTCTimestamp.date(visits[1].departure)!.addingTimeInterval(86_400)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            // Points every few hours over a week around the trip, some on the edges exactly, some
            // at the same instant.
            var times = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in
                from.addingTimeInterval(Double(Int.random(in: -200_000...400_000, using: &generator)))
            }
            times += [from, to, to, from.addingTimeInterval(-1), to.addingTimeInterval(1)].filter { _ in Bool.random(using: &generator) }
            let track = times.sorted().map { TrackPoint(coordinate: Coordinate(latitude: 38.7, longitude: -9.1), time: $0) }
            #expect(Array(ExportStage.track(track, during: trip)) == track.filter { $0.time >= from && $0.time <= to })
        }
        #expect(ExportStage.track([], during: trip).isEmpty)
    }

    @Test("privacy zones: the visit, the photos and the route inside are gone; a leg to or from the visit inside is left out, a track's too; one passing through stops at the zone's edge")
    func privacy() throws {
        let home = Coordinate(latitude: 38.7000, longitude: -9.1000)
        let zones = PrivacyZones([PrivacyZones.Zone(centre: home)])
        #expect(zones.contains(Coordinate(latitude: 38.7030, longitude: -9.1000)))
        #expect(!zones.contains(Coordinate(latitude: 38.7050, longitude: -9.1000)))
        #expect(PrivacyZones.Zone(parsing: "38.7,-9.1") == PrivacyZones.Zone(centre: home))
        #expect(PrivacyZones.Zone(parsing: "38.7,-9.1,200")?.radiusMeters == 200)
        #expect(PrivacyZones.Zone(parsing: "91,0") == nil && PrivacyZones.Zone(parsing: "1,2,0") == nil && PrivacyZones.Zone(parsing: "x") == nil)

        let visits = [Self.visit("v1", 38.7000, -9.1000, at: 8), Self.visit("v2", 38.7200, -9.1000, at: 10),
                      Self.visit("v3", 38.7000, -9.1000, at: 12)]
        // Straight legs from and back to the hidden visit: left out whole. Cut at the zone's edge,
        // each would still run to the door: 500 m on from where it stops is the house.
        #expect(TripRoute(visits: visits).hiding(zones).legs.isEmpty)
        // Along a track, the way gone, from the hidden visit and back to it: left out whole too.
        // Cut at the zone, the way home ended a few hundred metres from the house, and its
        // length told the trip's distance from home.
        let start = Date(timeIntervalSince1970: 1_749_513_600)
        let track = [(38.7010, -9.1010, 8.6), (38.7080, -9.0990, 9.0), (38.7150, -9.1005, 9.5),
                     (38.7120, -9.1030, 10.7), (38.7040, -9.1015, 11.5)].map {
            TrackPoint(coordinate: Coordinate(latitude: $0.0, longitude: $0.1), time: start.addingTimeInterval($0.2 * 3600))
        }
        #expect(TripRoute(visits: visits, track: track).hiding(zones).legs.isEmpty)
        // A track between two visits outside that passes through the zone: cut where it enters
        // and leaves, each end taken back from the zone's edge by a further 20 to 100% of its
        // radius, so the ends are not on its circle (three ends on it would give its centre);
        // the same on every run.
        let outside = [Self.visit("v4", 38.6900, -9.1000, at: 8), Self.visit("v5", 38.7100, -9.1000, at: 12)]
        let passing = [(38.6930, -9.1005, 8.6), (38.6980, -9.1010, 9.0), (38.7010, -9.0995, 9.5),
                       (38.7060, -9.1000, 10.7)].map {
            TrackPoint(coordinate: Coordinate(latitude: $0.0, longitude: $0.1), time: start.addingTimeInterval($0.2 * 3600))
        }
        let route = TripRoute(visits: outside, track: passing).hiding(zones)
        #expect(route.legs.count == 2 && route.legs.allSatisfy { $0.kind == .track })
        let ends = [route.legs[0].coordinates.last!, route.legs[1].coordinates.first!].map { GreatCircle.distance($0, home) }
        #expect(ends.allSatisfy { $0 > 550 && $0 <= 1000 }, "\(ends)")
        #expect(abs(ends[0] - ends[1]) > 1, "each end taken back by its own share")
        #expect(route.legs.allSatisfy { leg in leg.coordinates.allSatisfy { GreatCircle.distance($0, home) >= 499 } })
        #expect(TripRoute(visits: outside, track: passing).hiding(zones) == route)
        // A straight leg between two visits outside, through a zone, is cut in two, neither
        // piece pointing at the house.
        let through = [Self.visit("v7", 38.6900, -9.1000, at: 8), Self.visit("v8", 38.7100, -9.1000, at: 10)]
        let cutThrough = TripRoute(visits: through).hiding(zones).legs
        #expect(cutThrough.count == 2)
        // Its cut ends taken back too, off the zone's circle.
        #expect([cutThrough[0].coordinates.last!, cutThrough[1].coordinates.first!].allSatisfy { GreatCircle.distance($0, home) > 590 })
        // A line through a zone is cut in two.
        #expect(zones.cut([Coordinate(latitude: 38.69, longitude: -9.1), Coordinate(latitude: 38.71, longitude: -9.1)]).count == 2)
        #expect(zones.cut([home, Coordinate(latitude: 38.7001, longitude: -9.1)]).isEmpty)

        let photos = [TripPhoto(id: 1, path: "home.jpg", coordinate: home), TripPhoto(id: 2, path: "away.jpg", coordinate: visits[1].centre)]
        // From the hidden v1 to v2 (left out), then on to v6 along a track (kept, cut in two
        // where it passes through the zone).
        let onward = Self.visit("v6", 38.7300, -9.1000, at: 14)
        let shared = TripRoute(visits: [visits[0], visits[1], onward], track: track + [
            TrackPoint(coordinate: Coordinate(latitude: 38.7250, longitude: -9.1010), time: start.addingTimeInterval(13 * 3600))]).hiding(zones)
        let features = try Self.checkedFeatures(GeoJSONDocument(visits: [visits[0], visits[1], onward], route: shared, photos: photos, notes: [:],
                                                                privacy: zones).text())
        #expect(features.compactMap { $0["id"] as? String } == ["v2", "v6", "leg-1", "leg-2", "photo-2"])
        for leg in features[2...3].compactMap({ $0["properties"] as? [String: Any] }) {
            #expect(leg["from"] as? String == "v2" && leg["to"] as? String == "v6" && leg["kind"] as? String == "track")
        }
    }

    @Test("a trip's distance outside the zones is the length of its route as the map keeps it (TripRoute.hiding), legs on the ground and flown, random trips and zones")
    func distanceOutsideZones() {
        var generator = SplitMix(seed: 7)  // the same trips on every run
        for round in 0..<200 {
            // Visits around a city, now and then a flight away and back; zones on some of them,
            // beside the way, or nowhere near.
            let count = Int.random(in: 2...12, using: &generator)
            var visits: [TripVisit] = []
            for index in 0..<count {
                let far = Int.random(in: 0..<6, using: &generator) == 0
                let latitude = (far ? 40.0 : 52.37) + Double.random(in: -0.05...0.05, using: &generator)
                let longitude = (far ? -3.7 : 4.89) + Double.random(in: -0.08...0.08, using: &generator)
                visits.append(Self.visit("v\(index)", latitude, longitude, at: Double(index) * 1.5, for: 20))
            }
            var zones: [PrivacyZones.Zone] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let near = visits.randomElement(using: &generator)!.centre
                let centre = Coordinate(latitude: near.latitude + Double.random(in: -0.02...0.02, using: &generator),
                                        longitude: near.longitude + Double.random(in: -0.03...0.03, using: &generator))
                zones.append(PrivacyZones.Zone(centre: centre, radiusMeters: Double.random(in: 50...3_000, using: &generator)))
            }
            let privacy = PrivacyZones(zones)
            let trip = Trip(visits: visits, outside: [], days: ["2025-06-10"])
            let route = TripRoute(visits: visits).hiding(privacy)
            let expected = (route.groundMeters + route.flownMeters) / 1000
            #expect(abs(trip.distanceKilometres(outside: privacy) - expected) < 1e-9, "round \(round): \(visits.map(\.centre)) \(zones)")
            #expect(trip.distanceKilometres(outside: PrivacyZones()) == trip.distanceKilometres)
        }
    }

    @Test("a visit placed from a hidden home stays hidden when a phone's bad fix joins it as a stray", .timeLimit(.minutes(10)),
          arguments: [
            // The camera's photos close to the café: one of them sure enough to give the visit a radius.
            ["a 09:00 home", "b 09:05 home", "c 09:10 home", "d 09:16 -", "e 09:17 stray", "f 09:18 -", "g 09:30 cafe", "h 09:35 cafe"],
            // The camera's photos far from both (over 250 m of uncertainty each): the visit's radius is 0.
            ["a 09:00 home", "b 09:05 home", "c 09:10 home", "d 09:13 -", "e 09:20 stray", "f 09:34 -", "g 09:40 near", "h 09:45 near"],
          ])
    func strayJoiningNeighboursVisit(shots: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let trip = folder.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // Home in Lisbon (hidden within 500 m) at 09:00-09:10; a camera without GPS at 09:16 and
        // 09:18 on the way to a café 2 km east (09:30, 09:35), so placed on the line from home;
        // between them, at 09:17, the phone's one bad fix 2 km north-east.
        let home = (38.7107, -9.1365)
        func at(north: Double, east: Double) -> (Double, Double) {
            (home.0 + north / 111_195, home.1 + east / (111_195 * cos(home.0 * .pi / 180)))
        }
        // A shot is "NAME HH:MM WHERE": at home, a bad fix 2 km north-east, a café 2 km or 600 m
        // east, or without GPS (-).
        let spots = ["home": home, "stray": at(north: 1500, east: 1500), "cafe": at(north: 0, east: 2000), "near": at(north: 0, east: 600)]
        for shot in shots {
            let parts = shot.split(separator: " ").map(String.init)
            let (name, time, spot) = (parts[0], parts[1], spots[parts[2]])
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent(name + ".jpg"), dateTime: "2025:06:10 \(time):00", offset: "+01:00",
                                            at: spot.map { (latitude: $0.0, longitude: $0.1) }))
        }
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--no-thumbnails", "--hide-near", "\(home.0),\(home.1),500"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let text = try String(contentsOf: trip.appendingPathComponent("geotrip/trip.geojson"), encoding: .utf8)
        let visits = try Self.checkedFeatures(text).filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
            .compactMap { $0["properties"] as? [String: Any] }.filter { $0["placeId"] != nil }
        // The café alone: the visit of the camera's photos and the stray runs back to the door.
        #expect(visits.map { $0["photoCount"] as? Int } == [2], "\(visits)")
    }

    @Test("a walk that began at the door is shared without the door's photo: the GeoJSON's times, point and count, and the journal's, are those of the photos outside", .timeLimit(.minutes(10)))
    func visitAtTheZonesEdge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let trip = folder.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // One photo at the door (inside a 100 m zone) at 08:00, then three in the street 180–220 m
        // east until 09:00: one visit, its centre about 150 m east, outside the zone.
        let home = (38.7107, -9.1365)
        func east(_ metres: Double, north: Double = 0) -> (latitude: Double, longitude: Double) {
            (home.0 + north / 111_195, home.1 + metres / (111_195 * cos(home.0 * .pi / 180)))
        }
        // At 11:00 a square 3 km east, where the phone's position jumps to the door for one photo
        // (a stray of that visit, hidden with the zone: counted nowhere).
        let shots: [(String, String, (latitude: Double, longitude: Double))] = [
            ("door", "08:00", (home.0, home.1)), ("a", "08:10", east(180)), ("b", "08:30", east(220)), ("c", "09:00", east(200, north: 20)),
            ("s1", "11:00", east(3000)), ("s2", "11:05", east(3010)), ("stray", "11:07", (home.0, home.1)), ("s3", "11:10", east(3000, north: 10)),
        ]
        for (name, time, spot) in shots {
            #expect(try ExiftoolPhoto.write(to: trip.appendingPathComponent(name + ".jpg"), dateTime: "2025:06:10 \(time):00", offset: "+01:00", at: spot))
        }
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--no-thumbnails", "--hide-near", "\(home.0),\(home.1),100"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let text = try String(contentsOf: trip.appendingPathComponent("geotrip/trip.geojson"), encoding: .utf8)
        let visits = try Self.checkedFeatures(text).filter { ($0["properties"] as? [String: Any])?["placeId"] != nil }
        try #require(visits.count == 2, "\(visits)")
        #expect((visits[1]["properties"] as? [String: Any])?["photoCount"] as? Int == 3, "\(visits[1])")
        let properties = try #require(visits[0]["properties"] as? [String: Any])
        #expect(properties["arrival"] as? String == "2025-06-10T07:10:00Z" && properties["departure"] as? String == "2025-06-10T08:00:00Z",
                "\(properties)")
        #expect(properties["photoCount"] as? Int == 3)
        // The point is the three photos' centre (all as sure), not pulled 50 m toward the door.
        let point = try #require((visits[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        let street = shots[1...3]
        let centre = Coordinate(latitude: street.map(\.2.latitude).reduce(0, +) / 3, longitude: street.map(\.2.longitude).reduce(0, +) / 3)
        #expect(GreatCircle.distance(Coordinate(latitude: point[1], longitude: point[0]), centre) < 0.5, "\(point) against \(centre)")
        // The journal's day says the same span and the same point.
        let journal = try String(contentsOf: trip.appendingPathComponent("geotrip/journal/2025-06-10.md"), encoding: .utf8)
        #expect(journal.contains("08:10–09:00") && !journal.contains("08:00–") && journal.contains(String(format: "%.5f, %.5f", point[1], point[0])),
                "\(journal)")
        #expect(journal.contains("\nphotos: 6\n") && !journal.contains("door.jpg") && !journal.contains("stray.jpg"), "\(journal)")
    }

    @Test("--hide-near adds to the zones remembered: a zone at the same centre takes the new radius in its place, and 'none' forgets them first")
    func zoneChanges() throws {
        let flat = PrivacyZones.Zone(centre: Coordinate(latitude: 52.52, longitude: 13.405))
        let parents = PrivacyZones.Zone(centre: Coordinate(latitude: 48.137, longitude: 11.575), radiusMeters: 300)
        let remembered = PrivacyZones([flat])
        #expect(PrivacyZones.Change(adding: [parents]).applied(to: remembered).zones == [flat, parents])
        // 0.5 m from the flat's centre: the same zone, wider.
        let wider = PrivacyZones.Zone(centre: Coordinate(latitude: 52.520004, longitude: 13.405), radiusMeters: 1000)
        #expect(GreatCircle.distance(wider.centre, flat.centre) < 1)
        // In the flat's place: the order, which the outputs' keys hold, stays.
        #expect(PrivacyZones.Change(adding: [wider]).applied(to: PrivacyZones([flat, parents])).zones == [wider, parents])
        #expect(PrivacyZones.Change(adding: [flat]).applied(to: PrivacyZones([flat, parents])).zones == [flat, parents])
        #expect(PrivacyZones.Change(forgetting: true, adding: [parents]).applied(to: remembered).zones == [parents])
        #expect(PrivacyZones.Change(forgetting: true).applied(to: remembered).isEmpty)
        // What the summary says: a new radius as added alone; nothing when nothing changed.
        let report = try #require(PrivacyZones.Report(from: PrivacyZones([flat, parents]), to: PrivacyZones([wider, parents])))
        #expect(report.added == [wider] && report.forgotten.isEmpty && report.count == 2)
        // Narrowed: what lies between is shown again, so the wider zone is said as forgotten too.
        let narrower = PrivacyZones.Zone(centre: flat.centre, radiusMeters: 50)
        let narrowed = try #require(PrivacyZones.Report(from: remembered, to: PrivacyZones.Change(adding: [narrower]).applied(to: remembered)))
        #expect(narrowed.added == [narrower] && narrowed.forgotten == [flat])
        #expect(PrivacyZones.Report(from: remembered, to: PrivacyZones.Change(adding: [flat]).applied(to: remembered)) == nil)
        #expect(PrivacyZones.Report(from: PrivacyZones([flat, parents]), to: PrivacyZones([parents]))?.forgotten == [flat])
    }

    @Test("a visit placed only from a hidden neighbour is hidden too, and one placed from it; one with a photo of its own place, or out of reach, is not")
    func neighboursOfHidden() throws {
        let home = Coordinate(latitude: 45.76, longitude: 4.84)
        let zones = PrivacyZones([PrivacyZones.Zone(centre: home)])
        // Home at 08:00; a camera without GPS at 08:10 and 08:20, on the line to the phone's
        // 08:30 photo 6.6 km away; later, a camera photo at 12:00 by the 11:45 one.
        let visits = [Self.visit("v1", 45.7600, 4.8400, at: 7.75, for: 15), Self.visit("v2", 45.7667, 4.8667, at: 8 + 10 / 60.0, for: 1),
                      Self.visit("v3", 45.7733, 4.8933, at: 8 + 20 / 60.0, for: 1), Self.visit("v4", 45.7800, 4.9200, at: 8.5, for: 10),
                      Self.visit("v5", 45.8000, 4.9500, at: 11.75, for: 10), Self.visit("v6", 45.8010, 4.9510, at: 12, for: 1)]
        var asked: [String] = []
        let interpolated: Set<String> = ["v2", "v3", "v6"]
        let hidden = PrivacyZones(zones.zones + (try zones.neighbourZones(of: visits.reversed()) { ids in asked += ids; return interpolated.intersection(ids) }).map(\.zone))
        #expect(visits.map { hidden.contains($0.centre) } == [true, true, true, false, false, false])
        // Only the visits within half an hour of a hidden one, through others, were asked about.
        #expect(asked == ["v2", "v3", "v4"])
        // The route leaves home from the phone's photo on: no leg points at the house.
        let route = TripRoute(visits: visits).hiding(hidden)
        #expect(route.legs.map(\.from) == ["v4", "v5"])
        // With --photos: no point of a hidden visit's photos, nor of a photo placed between
        // neighbours within half an hour of a hidden visit (it lies on the line to the door);
        // the phone's own photo and a camera's later in the day are points.
        func at(_ hour: Double) -> String { Date(timeIntervalSince1970: 1_749_513_600 + hour * 3600).geotripISO8601! }
        let photos = [
            TripPhoto(id: 1, path: "home.jpg", utcTime: at(7.9), coordinate: home, locationSource: "exif", visitID: "v1"),
            TripPhoto(id: 2, path: "cam1.jpg", utcTime: at(8 + 10 / 60.0), coordinate: visits[1].centre, locationSource: "interpolated", visitID: "v2"),
            TripPhoto(id: 3, path: "phone.jpg", utcTime: at(8.5), coordinate: visits[3].centre, locationSource: "exif", visitID: "v4"),
            TripPhoto(id: 4, path: "cam2.jpg", utcTime: at(8.55), coordinate: Coordinate(latitude: 45.7799, longitude: 4.9195),
                      locationSource: "interpolated", uncertaintyMeters: 2_000, visitID: "v4"),
            TripPhoto(id: 5, path: "cam3.jpg", utcTime: at(12), coordinate: visits[5].centre, locationSource: "interpolated", visitID: "v6"),
        ]
        let features = try Self.checkedFeatures(GeoJSONDocument(visits: visits, route: route, photos: photos, notes: [:], privacy: hidden).text())
        #expect(features.compactMap { $0["id"] as? String }.filter { $0.hasPrefix("photo-") } == ["photo-3", "photo-5"])
        // A small zone (100 m) at the door, and the phone's photo there joined to a visit 195 m on,
        // which is shown: the camera's photo placed between it and the visit is no point either
        // (its position and uncertainty run back to the door), nor is the door's photo.
        let door = PrivacyZones([PrivacyZones.Zone(centre: home, radiusMeters: 100)])
        let street = Self.visit("v7", 45.7600, 4.8425, at: 7.75, for: 15)
        let doorPhotos = [
            TripPhoto(id: 6, path: "door.jpg", utcTime: at(7.8), coordinate: home, locationSource: "exif", visitID: "v7"),
            TripPhoto(id: 7, path: "cam4.jpg", utcTime: at(7.85), coordinate: Coordinate(latitude: 45.7600, longitude: 4.8414),
                      locationSource: "interpolated", uncertaintyMeters: 119, visitID: "v7"),
            TripPhoto(id: 8, path: "street.jpg", utcTime: at(7.9), coordinate: street.centre, locationSource: "exif", visitID: "v7"),
        ]
        #expect(!door.contains(street.centre) && !door.contains(doorPhotos[1].coordinate!))
        let doorFeatures = try Self.checkedFeatures(GeoJSONDocument(visits: [street], route: TripRoute(visits: [street]), photos: doorPhotos,
                                                                    notes: [:], privacy: door).text())
        #expect(doorFeatures.compactMap { $0["id"] as? String }.filter { $0.hasPrefix("photo-") } == ["photo-8"])
        // Nothing hidden, nothing asked.
        var none = 0
        #expect(try PrivacyZones().neighbourZones(of: visits) { _ in none += 1; return [] }.isEmpty)
        #expect(none == 0)
    }

    @Test("the route goes in the order travelled, not the days': east across the date line, Honolulu's evening of 1 July comes after Haneda's morning of 2 July")
    func routeAcrossTheDateLine() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Pacific")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // One photo a visit: wall clock, offset and position as a phone writes them.
        let shots: [(name: String, time: String, offset: String, latitude: Double, longitude: Double)] = [
            ("1-tokyo.jpg", "2025:07:01 10:00:00", "+09:00", 35.6812, 139.7671),
            ("2-tokyo.jpg", "2025:07:01 15:00:00", "+09:00", 35.6586, 139.7454),
            ("3-haneda.jpg", "2025:07:02 09:00:00", "+09:00", 35.5494, 139.7798),    // 00:00Z on 2 July
            ("4-honolulu.jpg", "2025:07:01 22:00:00", "-10:00", 21.3069, -157.8583), // 08:00Z on 2 July
            ("5-waikiki.jpg", "2025:07:02 12:00:00", "-10:00", 21.2810, -157.8370),
            ("6-la.jpg", "2025:07:03 18:00:00", "-07:00", 34.0522, -118.2437),
            ("7-santa-monica.jpg", "2025:07:04 10:00:00", "-07:00", 34.0195, -118.4912),
        ]
        for shot in shots {
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent(shot.name), dateTime: shot.time, offset: shot.offset,
                                            at: (shot.latitude, shot.longitude)))
        }
        var options = IngestOptions(folder: folder.path)
        options.catalogPath = temp.url.appendingPathComponent("pacific.sqlite").path
        options.outputFolder = temp.url.appendingPathComponent("out").path
        let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let catalog = try Catalog.open(at: options.catalogPath, access: .readOnly)
        let trip = try catalog.trip()
        let visitOf = Dictionary(trip.visits.flatMap { visit in visit.photos.map { ($0, visit.id) } }, uniquingKeysWith: { first, _ in first })
        let travelled = try shots.map { shot in try #require(visitOf[shot.name], "\(shot.name) is in no visit") }
        #expect(Set(travelled).count == shots.count, "one visit a photo")
        // The days' order puts Honolulu (1 July) before Haneda (2 July): the route must not.
        #expect(trip.visits.map(\.id) != travelled, "the days' order is the order travelled: the test proves nothing")
        let text = try String(contentsOf: URL(fileURLWithPath: options.outputFolder!).appendingPathComponent("trip.geojson"), encoding: .utf8)
        let legs = try Self.checkedFeatures(text).compactMap { $0["properties"] as? [String: Any] }.filter { $0["from"] != nil && $0["kind"] != nil }
        #expect(legs.map { "\($0["from"] as? String ?? "?")>\($0["to"] as? String ?? "?")" }
                == zip(travelled, travelled.dropFirst()).map { "\($0)>\($1)" })
        // The distance is the great circles from photo to photo in the order taken (haversine
        // here, on a sphere of the mean radius: within 0.5% of geotrip's own).
        func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            let (φ1, φ2) = (a.0 * .pi / 180, b.0 * .pi / 180), dφ = φ2 - φ1, dλ = (b.1 - a.1) * .pi / 180
            let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
            return 2 * 6_371.0088 * asin(min(1, h.squareRoot()))
        }
        let expected = zip(shots, shots.dropFirst()).map { haversine(($0.latitude, $0.longitude), ($1.latitude, $1.longitude)) }.reduce(0, +)
        let said = try #require(summary.trip?.distanceKilometres)
        #expect(abs(said - expected) < expected * 0.005, "\(said) km said, \(expected) km travelled")
        #expect(abs(trip.distanceKilometres - expected) < expected * 0.005, "\(trip.distanceKilometres) km, \(expected) km travelled")
    }
}
