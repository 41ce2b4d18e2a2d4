import Foundation
import GRDB

extension Catalog {
    /// Visits and places as the last clustering left them, and every id's last revision.
    func knownLayout() throws(GeoTripError) -> KnownLayout {
        do {
            return try database.read { db in
                var members: [String: Set<Int64>] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT visitId, photoId FROM visitPhoto") {
                    members[row[0], default: []].insert(row[1])
                }
                var layout = KnownLayout()
                var placeMembers: [String: Set<Int64>] = [:]
                for visit in try VisitRecord.fetchAll(db) {
                    let photos = members[visit.id] ?? []
                    layout.visits.append(KnownCluster(id: visit.id, members: photos, revision: visit.revision,
                                                      start: UTCTimestamp.date(visit.arrival) ?? .distantPast,
                                                      centre: Coordinate(latitude: visit.latitude, longitude: visit.longitude),
                                                      end: UTCTimestamp.date(visit.departure), placeID: visit.placeId))
                    placeMembers[visit.placeId, default: []].formUnion(photos)
                }
                layout.places = try PlaceRecord.fetchAll(db).map { place in
                    KnownCluster(id: place.id, members: placeMembers[place.id] ?? [], revision: place.revision,
                                 start: UTCTimestamp.date(place.start) ?? .distantPast,
                                 centre: Coordinate(latitude: place.latitude, longitude: place.longitude))
                }
                for row in try Row.fetchAll(db, sql: "SELECT id, revision FROM clusterRevision") { layout.lastRevisions[row[0]] = row[1] }
                return layout
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Stores what a clustering run changed in one transaction: places and visits made again
    /// upserted by id (their names, kept apart, are untouched), untouched visits moved to their
    /// new places, retired ids deleted (their last revision stays in `clusterRevision`), the
    /// memberships of the visits made again replaced, the days, what the layout was computed
    /// from, and the list of photos waiting for clustering emptied. A full change retires every
    /// visit and place it does not list.
    func saveLayout(_ change: LayoutChange, key: String) throws(GeoTripError) {
        do {
            try database.write { db in
                let remember = try db.cachedStatement(sql: """
                    INSERT INTO clusterRevision (id, revision) VALUES (?, ?)
                    ON CONFLICT(id) DO UPDATE SET revision = max(revision, excluded.revision)
                    """)
                for place in change.places {
                    try PlaceRecord(id: place.id, revision: place.revision, latitude: Self.rounded(place.centre.latitude),
                                    longitude: Self.rounded(place.centre.longitude), start: place.start.geotripISO8601 ?? "").upsert(db)
                    try remember.execute(arguments: [place.id, place.revision])
                }
                if change.isFull { try db.execute(sql: "DELETE FROM visitPhoto") }
                let clear = try db.cachedStatement(sql: "DELETE FROM visitPhoto WHERE visitId = ?")
                let member = try db.cachedStatement(sql: """
                    INSERT INTO visitPhoto (photoId, visitId) VALUES (?, ?)
                    ON CONFLICT(photoId) DO UPDATE SET visitId = excluded.visitId
                    """)
                for visit in change.visits {
                    let c = visit.cluster
                    try VisitRecord(id: visit.id, placeId: visit.placeID, revision: visit.revision, latitude: Self.rounded(c.centre.latitude),
                                    longitude: Self.rounded(c.centre.longitude), radiusMeters: (c.radiusMeters * 10).rounded() / 10,
                                    arrival: c.arrival.geotripISO8601 ?? "", departure: c.departure.geotripISO8601 ?? "",
                                    localDate: visit.localDate, timeZone: visit.timeZone).upsert(db)
                    try remember.execute(arguments: [visit.id, visit.revision])
                    if !change.isFull { try clear.execute(arguments: [visit.id]) }
                    for photo in c.photoIDs { try member.execute(arguments: [photo, visit.id]) }
                }
                let move = try db.cachedStatement(sql: "UPDATE visit SET placeId = ? WHERE id = ?")
                for (visit, place) in change.movedVisits { try move.execute(arguments: [place, visit]) }
                // Retire what the layout no longer has (visits first: they point at places; a
                // retired visit's memberships go with it).
                // Ids go in chunks: a library's tens of thousands in one `IN` list are more
                // variables than SQLite takes.
                var retiredVisits = change.retiredVisits, retiredPlaces = change.retiredPlaces
                if change.isFull {
                    retiredVisits = Set(try String.fetchAll(db, sql: "SELECT id FROM visit")).subtracting(change.visits.map(\.id))
                    retiredPlaces = Set(try String.fetchAll(db, sql: "SELECT id FROM place")).subtracting(change.places.map(\.id))
                }
                for chunk in Array(retiredVisits).chunked(500) {
                    try VisitRecord.filter(chunk.contains(VisitRecord.Columns.id)).deleteAll(db)
                }
                for chunk in Array(retiredPlaces).chunked(500) {
                    try PlaceRecord.filter(chunk.contains(PlaceRecord.Columns.id)).deleteAll(db)
                }
                try db.execute(sql: "DELETE FROM tripDay")
                let day = try db.cachedStatement(sql: "INSERT INTO tripDay (localDate) VALUES (?)")
                for date in change.days { try day.execute(arguments: [date]) }
                try db.execute(sql: "DELETE FROM clusterPending")
                try TripSettingRecord.set(db, SettingKey.clusteredFor, to: key)
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Catalog coordinates are kept to 1e-7° (1 cm): no false precision.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// The whole trip, from the stored visits with their best names, the photos outside visits
    /// (by the trip's day rule) and the days clustering recorded. Without `photoPaths`, visits
    /// carry only their photo counts (what `places` prints), and a library's paths are not read.
    /// Without `outside`, days carry no unplaced photos and there are no undated ones (what
    /// splitting a library into trips needs: each trip reads its own when it is rendered).
    public func trip(photoPaths: Bool = true, outside withOutside: Bool = true) throws(GeoTripError) -> Trip {
        let visits = try visits(withPhotos: photoPaths)
        let outside = withOutside ? try photosOutsideVisits(rule: try storedClusteringOptions().dayRule) : []
        let days: [String]
        do {
            days = try database.read { try String.fetchAll($0, sql: "SELECT localDate FROM tripDay ORDER BY localDate") }
        } catch {
            throw Self.classify(error, path: path)
        }
        return Trip(visits: visits, outside: outside, days: days)
    }

    /// The trip in a few figures, from the stored visits, names and days: the same figures as
    /// `trip().overview` without reading a photo row (at a million photos, that read is most
    /// of the cost of a small change).
    func overview() throws(GeoTripError) -> TripOverview {
        let visits = try visits(withPhotos: false)
        let days: [String]
        do {
            days = try database.read { try String.fetchAll($0, sql: "SELECT localDate FROM tripDay ORDER BY localDate") }
        } catch {
            throw Self.classify(error, path: path)
        }
        return Trip(visits: visits, outside: [], days: days).overview
    }

    /// Stores the overview of the last derivation, for an unchanged rerun to report.
    func saveOverview(_ overview: TripOverview) throws(GeoTripError) {
        try setJSONSetting(SettingKey.tripOverview, to: overview, what: "the trip overview")
    }

    /// The overview the last derivation stored; nil when there is none or it is in an older
    /// shape (it is derived data: the caller computes it again).
    func storedOverview() throws(GeoTripError) -> TripOverview? {
        guard let stored = try setting(SettingKey.tripOverview) else { return nil }
        do {
            return try JSONDecoder().decode(TripOverview.self, from: Data(stored.utf8))
        } catch {
            return nil
        }
    }

    /// Photos that belong to no visit (no position, or no time), by local day under `rule` (the
    /// same day a visit at that moment would be on): they stay in the day's timeline. All of
    /// them, or those whose moment lies in `window`.
    public func photosOutsideVisits(rule: LocalDayRule, in window: MomentWindow? = nil) throws(GeoTripError) -> [(path: String, localDate: String?)] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT p.path, p.utcTime, p.timeZone, p.localTime FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
                    WHERE vp.photoId IS NULL AND p.removedAt IS NULL AND p.status = 'read' AND p.liveStillId IS NULL
                    \(window.map { "AND " + $0.condition("p") } ?? "") ORDER BY coalesce(p.utcTime, p.localTime), p.path
                    """, arguments: window?.arguments ?? []).map { row in
                    (row[0], rule.day(utc: UTCTimestamp.date(row[1]), zone: row[2], cameraTime: row[3]))
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The visits in time order, with their place's names and their photos' paths (or, without
    /// `withPhotos`, only how many photos each has).
    public func visits(withPhotos: Bool = true) throws(GeoTripError) -> [TripVisit] {
        // Online names in the trip's language first (names are kept per language).
        let language = try storedNamingLanguage()
        do {
            return try database.read { db in
                var paths: [String: [String]] = [:], counts: [String: Int] = [:]
                if withPhotos {
                    let rows = try Row.fetchCursor(db, sql: """
                        SELECT vp.visitId, p.path FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId ORDER BY p.utcTime, p.path
                        """)
                    while let row = try rows.next() { paths[row[0], default: []].append(row[1]) }
                } else {
                    // From the index on visitId alone: no photo row is read.
                    for row in try Row.fetchAll(db, sql: "SELECT visitId, count(*) FROM visitPhoto GROUP BY visitId") { counts[row[0]] = row[1] }
                }
                return try Row.fetchAll(db, sql: """
                    SELECT v.id, v.placeId, v.revision, v.latitude, v.longitude, v.radiusMeters, v.arrival, v.departure, v.localDate,
                           n.name, n.admin1, n.country, n.countryCode, n.source, v.timeZone
                    FROM visit v LEFT JOIN placeName n ON n.rowid = (
                        SELECT rowid FROM placeName WHERE placeId = v.placeId
                        ORDER BY CASE source WHEN 'manual' THEN 0 WHEN 'nominatim' THEN 1 ELSE 2 END, language <> ?, language LIMIT 1)
                    ORDER BY v.arrival, v.id
                    """, arguments: [language]).map { row in
                    let id: String = row[0]
                    let photos = paths[id] ?? []
                    let zone: String? = row[14]
                    let arrival: String = row[6], departure: String = row[7]
                    func local(_ utc: String) -> String? { zone.flatMap { z in UTCTimestamp.date(utc).flatMap { LocalClock.iso8601($0, zone: z) } } }
                    return TripVisit(id: id, placeId: row[1], revision: row[2], latitude: row[3], longitude: row[4], radiusMeters: row[5],
                                     arrival: arrival, departure: departure, localDate: row[8], timeZone: zone,
                                     localArrival: local(arrival), localDeparture: local(departure), photoCount: counts[id] ?? photos.count, photos: photos,
                                     name: row[9], admin1: row[10], country: row[11], countryCode: row[12], nameSource: row[13])
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
