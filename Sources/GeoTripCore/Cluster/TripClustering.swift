import Foundation
import GRDB

/// A visit as `geotrip places` reports it.
public struct TripVisit: Sendable, Equatable, Encodable {
    public var id: String
    public var placeId: String
    public var revision: Int
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Double
    public var arrival: String
    public var departure: String
    public var localDate: String
    /// The zone of the visit's clock (IANA name or `±HH:MM`), when known.
    public var timeZone: String?
    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` in `timeZone`, when known.
    public var localArrival: String?
    public var localDeparture: String?
    public var photoCount: Int
    public var photos: [String]
    public var name: String?
    public var admin1: String?
    public var country: String?
    public var countryCode: String?
    public var nameSource: String?

    private enum CodingKeys: String, CodingKey {
        case id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone, localArrival, localDeparture
        case photoCount, photos
        case name, admin1, country, countryCode, nameSource
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(placeId, forKey: .placeId)
        try c.encode(revision, forKey: .revision)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(radiusMeters, forKey: .radiusMeters)
        try c.encode(arrival, forKey: .arrival)
        try c.encode(departure, forKey: .departure)
        try c.encode(localDate, forKey: .localDate)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(localArrival, forKey: .localArrival)
        try c.encode(localDeparture, forKey: .localDeparture)
        try c.encode(photoCount, forKey: .photoCount)
        try c.encode(photos, forKey: .photos)
        try c.encode(name, forKey: .name)
        try c.encode(admin1, forKey: .admin1)
        try c.encode(country, forKey: .country)
        try c.encode(countryCode, forKey: .countryCode)
        try c.encode(nameSource, forKey: .nameSource)
    }
}

/// The trip in a few figures, for the end of `ingest`.
public struct TripOverview: Sendable, Equatable, Codable {
    public var days: [String] = []
    public var visits = 0
    public var places = 0
    public var countries: [String] = []
    public var distanceKilometres = 0.0
}

/// The clustering stage: rebuilds visits and places from the resolved photos when they (or the
/// thresholds) changed, carrying ids over, naming places from the gazetteer.
struct TripClustering {
    let catalog: Catalog

    /// `rows`: the photos as resolution left them, when it just ran; read from the catalog otherwise.
    func run(options: ClusteringOptions, rows given: [PhotoRecord]? = nil,
             gazetteer: () throws(GeoTripError) -> Gazetteer) throws(GeoTripError) -> TripOverview? {
        let key = "\(options.visitRadius)|\(options.visitGap)|\(options.placeRadius)|\(options.dayRule.dayStartMinutes)|" + (try catalog.setting(Catalog.SettingKey.catalogGeneration) ?? "0")
            + "|" + (try catalog.setting(Catalog.SettingKey.resolvedInputs) ?? "")
        // Nothing changed: the overview stored by the last clustering (an unchanged rerun reads
        // no photo rows at all).
        if try catalog.setting(Catalog.SettingKey.clusteredFor) == key,
           let stored = try catalog.setting(Catalog.SettingKey.tripOverview),
           let overview = try? JSONDecoder().decode(TripOverview.self, from: Data(stored.utf8)) {
            return overview
        }
        let rows: [PhotoRecord]
        if let given { rows = given } else { rows = try catalog.resolutionRows() }
        // Every photo with a date counts for the trip's days, placed or not.
        var localDates: [Int64: String] = [:]
        var zones: [Int64: String] = [:]
        for row in rows {
            guard let id = row.id else { continue }
            if let date = options.dayRule.day(utc: UTCTimestamp.date(row.utcTime), zone: row.timeZone, cameraTime: row.localTime) {
                localDates[id] = date
            }
            if let zone = row.timeZone { zones[id] = zone }
        }
        let days = Array(Set(localDates.values)).sorted()

        var photos: [ClusterPhoto] = []
        for row in rows {
            guard let id = row.id, let latitude = row.resolvedLatitude, let longitude = row.resolvedLongitude,
                  let utc = UTCTimestamp.date(row.utcTime)
            else { continue }
            photos.append(ClusterPhoto(id: id, utc: utc, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                                       uncertaintyMeters: row.uncertaintyMeters ?? 10))
        }
        let visits = VisitClustering.visits(photos, options: options)
        let placeOf = VisitClustering.places(visits, options: options)
        let (knownVisits, knownPlaces) = try catalog.knownClusters()
        let visitIDs = StableIdentity.assign(prefix: "v", clusters: visits.map { ($0.photoIDs, $0.centre) }, known: knownVisits)

        // Places: members are the visits' first photo ids, so a place's identity follows its visits.
        var groups: [Int: [Int]] = [:]
        for (index, root) in placeOf.enumerated() { groups[root, default: []].append(index) }
        let roots = groups.keys.sorted()
        let placeClusters: [(members: [Int64], centre: Coordinate)] = roots.map { root in
            let members = groups[root]!
            var sum = SIMD3<Double>.zero
            for index in members { sum += GreatCircle.unitVector(visits[index].centre) * Double(visits[index].photoIDs.count) }
            // A place's members are all its visits' photos, here and in `knownClusters`.
            return (members.flatMap { visits[$0].photoIDs }.sorted(), VisitClustering.coordinate(of: sum))
        }
        let placeIDs = StableIdentity.assign(prefix: "p", clusters: placeClusters, known: knownPlaces)
        let places = try gazetteer()
        var placeIDOfVisit: [Int: String] = [:]
        var storedPlaces: [StoredPlace] = []
        for (rootIndex, root) in roots.enumerated() {
            let members = groups[root]!
            for index in members { placeIDOfVisit[index] = placeIDs[rootIndex].id }
            let centre = placeClusters[rootIndex].centre
            let answer = places.describe(centre)
            storedPlaces.append(StoredPlace(
                id: placeIDs[rootIndex].id, revision: placeIDs[rootIndex].revision, centre: centre,
                start: members.map { visits[$0].arrival }.min()!,
                name: answer.place?.name, admin1: answer.admin1, country: answer.country, countryCode: answer.countryCode))
        }
        let storedVisits = visits.enumerated().map { index, visit in
            StoredVisit(id: visitIDs[index].id, placeID: placeIDOfVisit[index]!, revision: visitIDs[index].revision, cluster: visit,
                        localDate: localDates[visit.photoIDs[0]] ?? String(visit.arrival.geotripISO8601?.prefix(10) ?? ""),
                        timeZone: visit.photoIDs.lazy.compactMap { zones[$0] }.first)
        }
        let trip = overview(days: days, visits: storedVisits, places: storedPlaces)
        try catalog.saveClusters(visits: storedVisits, places: storedPlaces, key: key,
                                 overview: String(decoding: (try? JSONEncoder.sorted.encode(trip)) ?? Data(), as: UTF8.self))
        return trip
    }

    /// The trip in figures, from the visits and every dated photo's day.
    func overview(days: [String], visits: [StoredVisit], places: [StoredPlace]) -> TripOverview {
        var overview = TripOverview()
        overview.days = days
        overview.visits = visits.count
        overview.places = places.count
        overview.countries = Array(Set(places.compactMap(\.countryCode))).sorted()
        let centres = visits.sorted { ($0.cluster.arrival, $0.id) < ($1.cluster.arrival, $1.id) }.map(\.cluster.centre)
        overview.distanceKilometres = zip(centres, centres.dropFirst()).map { GreatCircle.distance($0, $1) }.reduce(0, +) / 1000
        return overview
    }
}

/// A visit ready to store.
struct StoredVisit {
    var id: String
    var placeID: String
    var revision: Int
    var cluster: VisitCluster
    var localDate: String
    /// The zone of its first photo with one: the clock the traveller saw on arrival.
    var timeZone: String?
}

/// A place ready to store.
struct StoredPlace {
    var id: String
    var revision: Int
    var centre: Coordinate
    var start: Date
    var name: String?
    var admin1: String?
    var country: String?
    var countryCode: String?
}

extension Catalog {
    /// Visits and places as the last clustering left them.
    func knownClusters() throws(GeoTripError) -> (visits: [KnownCluster], places: [KnownCluster]) {
        do {
            return try database.read { db in
                var members: [String: Set<Int64>] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT visitId, photoId FROM visitPhoto") {
                    members[row[0], default: []].insert(row[1])
                }
                var placeMembers: [String: Set<Int64>] = [:]
                var visits: [KnownCluster] = []
                for row in try Row.fetchAll(db, sql: "SELECT id, placeId, revision, latitude, longitude, arrival FROM visit") {
                    let id: String = row[0]
                    let start = UTCTimestamp.date(row[5]) ?? .distantPast
                    let photos = members[id] ?? []
                    visits.append(KnownCluster(id: id, members: photos, revision: row[2], start: start,
                                               centre: Coordinate(latitude: row[3], longitude: row[4])))
                    placeMembers[row[1], default: []].formUnion(photos)
                }
                let places = try Row.fetchAll(db, sql: "SELECT id, revision, latitude, longitude, start FROM place").map { row in
                    KnownCluster(id: row[0], members: placeMembers[row[0]] ?? [], revision: row[1],
                                 start: UTCTimestamp.date(row[4]) ?? .distantPast,
                                 centre: Coordinate(latitude: row[2], longitude: row[3]))
                }
                return (visits, places)
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Replaces visits and places, with the overview and what they were computed from, in one
    /// transaction.
    func saveClusters(visits: [StoredVisit], places: [StoredPlace], key: String, overview: String) throws(GeoTripError) {
        do {
            try database.write { db in
                try db.execute(sql: "DELETE FROM visitPhoto; DELETE FROM visit; DELETE FROM place")
                let insertPlace = try db.cachedStatement(sql: """
                    INSERT INTO place (id, revision, latitude, longitude, start, name, admin1, country, countryCode, nameSource)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'offline')
                    """)
                for place in places {
                    try insertPlace.execute(arguments: [place.id, place.revision, place.centre.latitude, place.centre.longitude,
                                                        place.start.geotripISO8601, place.name, place.admin1, place.country, place.countryCode])
                }
                let insertVisit = try db.cachedStatement(sql: """
                    INSERT INTO visit (id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let insertMember = try db.cachedStatement(sql: "INSERT INTO visitPhoto (photoId, visitId) VALUES (?, ?)")
                for visit in visits {
                    let c = visit.cluster
                    try insertVisit.execute(arguments: [visit.id, visit.placeID, visit.revision, (c.centre.latitude * 1e7).rounded() / 1e7,
                                                        (c.centre.longitude * 1e7).rounded() / 1e7, (c.radiusMeters * 10).rounded() / 10,
                                                        c.arrival.geotripISO8601, c.departure.geotripISO8601, visit.localDate, visit.timeZone])
                    for photo in c.photoIDs { try insertMember.execute(arguments: [photo, visit.id]) }
                }
                for (name, value) in [(SettingKey.clusteredFor, key), (SettingKey.tripOverview, overview)] {
                    try db.execute(sql: "INSERT INTO tripSetting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                   arguments: [name, value])
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Photos that belong to no visit (no position, or no time), by local day under `rule` (the
    /// same day a visit at that moment would be on): they stay in the day's timeline.
    public func photosOutsideVisits(rule: LocalDayRule) throws(GeoTripError) -> [(path: String, localDate: String?)] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT p.path, p.utcTime, p.timeZone, p.localTime FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
                    WHERE vp.photoId IS NULL AND p.removedAt IS NULL AND p.status = 'read' ORDER BY coalesce(p.utcTime, p.localTime), p.path
                    """).map { row in
                    (row[0], rule.day(utc: UTCTimestamp.date(row[1]), zone: row[2], cameraTime: row[3]))
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The visits in time order, with their photos' paths and their place's names.
    public func visits() throws(GeoTripError) -> [TripVisit] {
        do {
            return try database.read { db in
                var paths: [String: [String]] = [:]
                for row in try Row.fetchAll(db, sql: """
                    SELECT vp.visitId, p.path FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId ORDER BY p.utcTime, p.path
                    """) {
                    paths[row[0], default: []].append(row[1])
                }
                return try Row.fetchAll(db, sql: """
                    SELECT v.id, v.placeId, v.revision, v.latitude, v.longitude, v.radiusMeters, v.arrival, v.departure, v.localDate,
                           p.name, p.admin1, p.country, p.countryCode, p.nameSource, v.timeZone
                    FROM visit v JOIN place p ON p.id = v.placeId ORDER BY v.arrival, v.id
                    """).map { row in
                    let id: String = row[0]
                    let photos = paths[id] ?? []
                    let zone: String? = row[14]
                    let arrival: String = row[6], departure: String = row[7]
                    func local(_ utc: String) -> String? { zone.flatMap { z in UTCTimestamp.date(utc).flatMap { LocalClock.iso8601($0, zone: z) } } }
                    return TripVisit(id: id, placeId: row[1], revision: row[2], latitude: row[3], longitude: row[4], radiusMeters: row[5],
                                     arrival: arrival, departure: departure, localDate: row[8], timeZone: zone,
                                     localArrival: local(arrival), localDeparture: local(departure), photoCount: photos.count, photos: photos,
                                     name: row[9], admin1: row[10], country: row[11], countryCode: row[12], nameSource: row[13])
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
