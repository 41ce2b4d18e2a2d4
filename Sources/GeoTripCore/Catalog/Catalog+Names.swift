import Foundation
import GRDB


extension Catalog {
    /// The places as they are now: id, revision, centre and how far their visits reach from
    /// it (each visit's distance plus its own radius), in id order.
    func currentPlaces() throws(GeoTripError) -> [NamedFor] {
        do {
            return try database.read { db in
                var reach: [String: Double] = [:]
                let places = try PlaceRecord.order(PlaceRecord.Columns.id).fetchAll(db)
                let centres = Dictionary(uniqueKeysWithValues: places.map { ($0.id, Coordinate(latitude: $0.latitude, longitude: $0.longitude)) })
                // Only the columns needed, by a cursor: a library has hundreds of thousands of visits.
                let visits = try Row.fetchCursor(db, sql: "SELECT placeId, latitude, longitude, radiusMeters FROM visit")
                while let visit = try visits.next() {
                    let place: String = visit[0]
                    guard let centre = centres[place] else { continue }
                    let far = GreatCircle.distance(centre, Coordinate(latitude: visit[1], longitude: visit[2])) + (visit[3] as Double)
                    reach[place] = max(reach[place] ?? 0, far)
                }
                return places.map { place in
                    NamedFor(placeID: place.id, revision: place.revision, centre: centres[place.id]!, radiusMeters: reach[place.id] ?? 0)
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Stores online answers through the stale-answer guard. In the same write transaction as
    /// the write, an answer is kept only if its place still exists, has no manual name, and its
    /// centre is within `NameStage.movedFarEnough` of the centre that was asked about (a new
    /// revision that moved it less keeps the answer, as the naming stage's 50 m rule would).
    /// Anything else went stale while in flight (a `tag` reclustered, a `rename` named the
    /// place) and is discarded; a place that still needs a name is asked again, since the
    /// queue of places needing names is what the catalog holds. Returns the stale answers' places.
    func saveAnswers(_ answers: [(NamedFor, PlaceName?)], source: NameSource, language: String, at time: Date = Date()) throws(GeoTripError) -> Set<String> {
        guard !answers.isEmpty else { return [] }
        let stamp = time.geotripISO8601 ?? ""
        do {
            return try database.write { db in
                var stale: Set<String> = []
                for (asked, name) in answers {
                    guard let place = try PlaceRecord.fetchOne(db, key: asked.placeID),
                          try PlaceNameRecord.filter(PlaceNameRecord.Columns.placeId == asked.placeID
                                                     && PlaceNameRecord.Columns.source == NameSource.manual.rawValue).isEmpty(db),
                          GreatCircle.distance(Coordinate(latitude: place.latitude, longitude: place.longitude), asked.centre) <= NameStage.movedFarEnough
                    else {
                        stale.insert(asked.placeID)
                        continue
                    }
                    try PlaceNameRecord(placeId: asked.placeID, source: source, language: language, revision: asked.revision,
                                        latitude: asked.centre.latitude, longitude: asked.centre.longitude, name: name?.name,
                                        admin1: name?.admin1, country: name?.country, countryCode: name?.countryCode,
                                        namedAt: stamp).upsert(db)
                }
                // Names can change the trip's countries: the stored overview is computed again.
                if stale.count < answers.count {
                    try db.execute(sql: "DELETE FROM tripSetting WHERE key = ?", arguments: [SettingKey.tripOverview])
                }
                return stale
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Places with a manual name, by id.
    func manuallyNamedPlaces() throws(GeoTripError) -> Set<String> {
        do {
            return try database.read { db in
                Set(try String.fetchAll(db, sql: "SELECT DISTINCT placeId FROM placeName WHERE source = ?", arguments: [NameSource.manual.rawValue]))
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Every stored name from `source` in `language`, by place id, retired places' included
    /// (a place that comes back finds its name).
    func placeNames(source: NameSource, language: String = "") throws(GeoTripError) -> [String: StoredPlaceName] {
        do {
            return try database.read { db in
                var names: [String: StoredPlaceName] = [:]
                for record in try PlaceNameRecord.filter(PlaceNameRecord.Columns.source == source.rawValue
                                                         && PlaceNameRecord.Columns.language == language).fetchAll(db) {
                    names[record.placeId] = record.stored
                }
                return names
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Stores names, each with what it was made for, replacing the place's earlier name from
    /// the same source and language; a nil answer stores a row with no name (asked, nothing
    /// there), so the place is not asked again until it moves.
    func saveNames(_ answers: [(NamedFor, PlaceName?)], source: NameSource, language: String = "", at time: Date = Date()) throws(GeoTripError) {
        guard !answers.isEmpty else { return }
        let stamp = time.geotripISO8601
        do {
            try database.write { db in
                for (place, name) in answers {
                    try PlaceNameRecord(placeId: place.placeID, source: source, language: language, revision: place.revision,
                                        latitude: place.centre.latitude, longitude: place.centre.longitude, name: name?.name,
                                        admin1: name?.admin1, country: name?.country, countryCode: name?.countryCode,
                                        namedAt: stamp ?? "").upsert(db)
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Removes the names of `placeID` from `source` (every language).
    func removeNames(of placeID: String, source: NameSource) throws(GeoTripError) {
        do {
            _ = try database.write { db in
                try PlaceNameRecord.filter(PlaceNameRecord.Columns.placeId == placeID && PlaceNameRecord.Columns.source == source.rawValue)
                    .deleteAll(db)
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Places whose names (any source) were made for another revision than the one they have
    /// now: kept, because the centre moved less than the naming stage's 50 m, but detectable.
    public func placesNamedForOlderRevisions() throws(GeoTripError) -> [String] {
        do {
            return try database.read { db in
                try String.fetchAll(db, sql: """
                    SELECT DISTINCT p.id FROM place p JOIN placeName n ON n.placeId = p.id WHERE n.revision <> p.revision ORDER BY p.id
                    """)
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
