import Foundation
import GRDB


extension Catalog {
    /// The places as they are now: id, revision and centre, in id order.
    func currentPlaces() throws(GeoTripError) -> [NamedFor] {
        do {
            return try database.read { db in
                try PlaceRecord.order(PlaceRecord.Columns.id).fetchAll(db).map { place in
                    NamedFor(placeID: place.id, revision: place.revision, centre: Coordinate(latitude: place.latitude, longitude: place.longitude))
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
