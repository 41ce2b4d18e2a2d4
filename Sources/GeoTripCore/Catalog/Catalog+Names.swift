import Foundation
import GRDB


extension Catalog {
    /// The places as they are now: id, revision and centre, in id order.
    func currentPlaces() throws(GeoTripError) -> [NamedFor] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, revision, latitude, longitude FROM place ORDER BY id").map { row in
                    NamedFor(placeID: row[0], revision: row[1], centre: Coordinate(latitude: row[2], longitude: row[3]))
                }
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
                for row in try Row.fetchAll(db, sql: """
                    SELECT placeId, revision, latitude, longitude, name, admin1, country, countryCode FROM placeName
                    WHERE source = ? AND language = ?
                    """, arguments: [source.rawValue, language]) {
                    let id: String = row[0]
                    names[id] = StoredPlaceName(
                        madeFor: NamedFor(placeID: id, revision: row[1], centre: Coordinate(latitude: row[2], longitude: row[3])),
                        source: source, language: language,
                        name: PlaceName(name: row[4], admin1: row[5], country: row[6], countryCode: row[7]))
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
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO placeName (placeId, source, language, revision, latitude, longitude, name, admin1, country, countryCode, namedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(placeId, source, language) DO UPDATE SET revision = excluded.revision, latitude = excluded.latitude,
                        longitude = excluded.longitude, name = excluded.name, admin1 = excluded.admin1, country = excluded.country,
                        countryCode = excluded.countryCode, namedAt = excluded.namedAt
                    """)
                for (place, name) in answers {
                    try statement.execute(arguments: [place.placeID, source.rawValue, language, place.revision, place.centre.latitude,
                                                      place.centre.longitude, name?.name, name?.admin1, name?.country, name?.countryCode, stamp])
                }
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
