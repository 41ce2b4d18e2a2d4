import Foundation
import GRDB


extension Catalog {
    /// The places as they are now: id, revision, centre and how far their visits reach from
    /// it (each visit's distance plus its own radius), in id order.
    func currentPlaces() throws(GeoTripError) -> [NamedFor] {
        try attempt {
            try database.read { db in
                let places = try PlaceRecord.order(PlaceRecord.Columns.id).fetchAll(db)
                    .map { NamedFor(placeID: $0.id, revision: $0.revision, centre: Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }
                return try Self.withReach(places, everyPlace: true, db)
            }
        }
    }

    /// The places that need a name from `source` in `language` (`NameStage.needingNames`), as
    /// `currentPlaces` gives them, in id order. Only places whose stored name is missing or was
    /// made for another centre can need one, and SQL finds those, so a rerun that moved a few
    /// places reads a few places and their visits, not every visit of a library (issue 15).
    func placesNeedingNames(source: NameSource, language: String = "") throws(GeoTripError) -> [NamedFor] {
        try attempt {
            try database.read { db in
                var candidates: [NamedFor] = []
                var existing: [String: StoredPlaceName] = [:]
                let rows = try Row.fetchCursor(db, sql: Self.placesNamedElsewhereSQL, arguments: [source.rawValue, language],
                                               adapter: ScopeAdapter(["name": SuffixRowAdapter(fromIndex: 4)]))
                while let row = try rows.next() {
                    let place = NamedFor(placeID: row[0], revision: row[1], centre: Coordinate(latitude: row[2], longitude: row[3]))
                    candidates.append(place)
                    if let name = row.scopes["name"], name["placeId"] as String? != nil {
                        existing[place.placeID] = try PlaceNameRecord(row: name).stored
                    }
                }
                return try Self.withReach(NameStage.needingNames(candidates, existing: existing), everyPlace: false, db)
            }
        }
    }

    /// The places without a name from a source (`?`) in a language (`?`), or whose name was
    /// made for another centre, each with that name's row: one pass over the places, each
    /// name found by `placeName`'s primary key.
    static let placesNamedElsewhereSQL = """
        SELECT place.id, place.revision, place.latitude, place.longitude, name.*
        FROM place LEFT JOIN placeName AS name ON name.placeId = place.id AND name.source = ? AND name.language = ?
        WHERE name.placeId IS NULL OR name.latitude IS NOT place.latitude OR name.longitude IS NOT place.longitude
        ORDER BY place.id
        """

    /// `places` with how far their visits reach from their centres: by a cursor over every
    /// visit when they are all the places (a library has hundreds of thousands of visits),
    /// else through `visit_on_placeId`, a few hundred places at a time.
    private static func withReach(_ places: [NamedFor], everyPlace: Bool, _ db: Database) throws -> [NamedFor] {
        guard !places.isEmpty else { return [] }
        let index = Dictionary(uniqueKeysWithValues: places.enumerated().map { ($0.element.placeID, $0.offset) })
        var reached = places
        func add(_ visits: RowCursor) throws {
            while let visit = try visits.next() {
                guard let at = index[visit[0] as String] else { continue }
                let far = GreatCircle.distance(reached[at].centre, Coordinate(latitude: visit[1], longitude: visit[2])) + (visit[3] as Double)
                reached[at].radiusMeters = max(reached[at].radiusMeters, far)
            }
        }
        let columns = "SELECT placeId, latitude, longitude, radiusMeters FROM visit"
        if everyPlace {
            try add(Row.fetchCursor(db, sql: columns))
        } else {
            for start in stride(from: 0, to: places.count, by: 500) {
                let ids = places[start..<min(start + 500, places.count)].map(\.placeID)
                try add(Row.fetchCursor(db, sql: columns + " WHERE placeId IN (\(databaseQuestionMarks(count: ids.count)))",
                                        arguments: StatementArguments(ids)))
            }
        }
        return reached
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

    /// The person's names moved with their spots after the layout changed
    /// (`ManualNames.follow`, within `radius` metres), and those newly left without a place
    /// (each said once, in the run its place went), in `saveLayout`'s transaction. A moved name
    /// keeps the spot it was given for, and takes its new place's revision.
    static func followManualNames(_ db: Database, radius: Double) throws -> [ManualNames.Move] {
        let records = try PlaceNameRecord.filter(PlaceNameRecord.Columns.source == NameSource.manual.rawValue).fetchAll(db)
        guard !records.isEmpty else { return [] }
        let places = try Row.fetchAll(db, sql: "SELECT id, revision, latitude, longitude FROM place")
        let revisions = Dictionary(places.map { ($0[0] as String, $0[1] as Int) }, uniquingKeysWith: { first, _ in first })
        let given = records.map { ManualNames.Given(placeID: $0.placeId, spot: Coordinate(latitude: $0.latitude, longitude: $0.longitude), name: $0.name ?? "") }
        let moves = ManualNames.follow(given, places: places.map { ($0[0], Coordinate(latitude: $0[2], longitude: $0[3])) }, radius: radius)
        // Every moving row out first: a name may go to the id another leaves.
        let going = moves.filter { $0.to != nil && !$0.stayedAway }
        let moving = records.filter { record in going.contains { $0.from == record.placeId } }
        for record in moving { try record.delete(db) }
        for move in going {
            for var record in moving where record.placeId == move.from {
                record.placeId = move.to!
                record.revision = revisions[move.to!] ?? record.revision
                try record.insert(db)
            }
        }
        // Said once: the names waiting now that were not waiting before, and those staying
        // with a place gone from their spot (`away:` and the id) that were not before.
        let saidBefore = Set(try TripSettingRecord.value(db, SettingKey.manualNamesWaiting)
            .flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? [])
        let waiting = moves.filter { $0.to == nil }, away = moves.filter(\.stayedAway)
        let now = (waiting.map(\.from) + away.map { "away:" + $0.from }).sorted()
        if Set(now) != saidBefore { try TripSettingRecord.set(db, SettingKey.manualNamesWaiting, to: String(decoding: try JSONEncoder().encode(now), as: UTF8.self)) }
        return going + waiting.filter { !saidBefore.contains($0.from) } + away.filter { !saidBefore.contains("away:" + $0.from) }
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

    /// Every name any place of the catalog has had, from any source in any language, since
    /// this build's catalog (`v29-names-ever`; `ExportStage.namedOver`).
    func namesEverGiven() throws(GeoTripError) -> Set<String> {
        do {
            return try database.read { db in Set(try String.fetchAll(db, sql: "SELECT name FROM placeNameEver")) }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The names the person or the service gave places that lie inside `privacy`'s zones: made
    /// for a centre inside them, or of a place whose centre is inside them now (retired places'
    /// names included, and names a place had before it was renamed: `placeNameFormer`). The
    /// gazetteer's are not among them: they name a town, not a spot.
    func namesGiven(inside privacy: PrivacyZones) throws(GeoTripError) -> Set<String> {
        guard !privacy.isEmpty else { return [] }
        return try attempt {
            try database.read { db in
                var names: Set<String> = []
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT n.name, n.latitude, n.longitude, p.latitude, p.longitude FROM placeName n LEFT JOIN place p ON p.id = n.placeId
                    WHERE n.name IS NOT NULL AND n.source != ?
                    UNION ALL
                    SELECT f.name, f.latitude, f.longitude, p.latitude, p.longitude FROM placeNameFormer f LEFT JOIN place p ON p.id = f.placeId
                    """, arguments: [NameSource.offline.rawValue])
                while let row = try rows.next() {
                    let madeFor = Coordinate(latitude: row[1], longitude: row[2])
                    let now: Coordinate? = (row[3] as Double?).flatMap { latitude in (row[4] as Double?).map { Coordinate(latitude: latitude, longitude: $0) } }
                    if privacy.contains(madeFor) || now.map(privacy.contains) == true { names.insert(row[0]) }
                }
                return names
            }
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
