import Foundation
import GRDB

/// What the export of a library trip reads to tell which of its days changed without reading
/// their photos (`ExportStage.dayKeys`), and then the photos of the days it renders alone.
extension Catalog {
    /// The state of a trip's photos, day by day, from a few columns of their rows.
    struct DayPhotoState: Sendable, Equatable {
        /// One photo outside the visits, on its day.
        struct Unplaced: Sendable, Equatable {
            var id: Int64
            var path: String
            /// Its change stamp, and its Live Photo video's (`changeStamps`).
            var stamp: String
        }

        /// By visit id: its photos present and read counted with their largest change stamp,
        /// and their Live Photo videos likewise (`changeStamps`).
        var visits: [String: String] = [:]
        /// By day (`LocalDayRule`), in time order: the photos in no visit (`photosOutsideVisits`).
        var unplaced: [String: [Unplaced]] = [:]
    }

    /// The state of the photos of `visits` and of those outside any visit in `window`, with
    /// their days under `rule`. A change to anything of a photo the outputs are made from (its
    /// path, time, position, thumbnail's name, Live Photo link: `v24-output-stamps`) gives it a
    /// new change stamp, larger than any before, and a Live Photo video's change counts for its
    /// still; a photo that leaves a visit changes its count (and the visit's revision).
    func dayPhotoState(visits: [String], rule: LocalDayRule, in window: MomentWindow) throws(GeoTripError) -> DayPhotoState {
        try attempt {
            try database.read { db in
                var state = DayPhotoState()
                let stamps = try Row.fetchCursor(db, sql: Self.visitStampsSQL, arguments: [Self.textList(visits)])
                while let row = try stamps.next() {
                    state.visits[row[0]] = Self.changeStamps(row, from: 1)
                }
                let unplaced = try Row.fetchCursor(db, sql: Self.unplacedStampsSQL + " AND " + window.condition("p")
                                                       + " ORDER BY coalesce(p.utcTime, p.wallTime, p.localTime), p.path",
                                                   arguments: window.arguments)
                while let row = try unplaced.next() {
                    guard let day = rule.day(utc: UTCTimestamp.date(row[2]), zone: row[3], cameraTime: row[4]) else { continue }
                    state.unplaced[day, default: []].append(DayPhotoState.Unplaced(id: row[0], path: row[1], stamp: Self.changeStamps(row, from: 5)))
                }
                return state
            }
        }
    }

    /// `count,largest stamp;videos' count,their largest stamp` from four columns of `row` from `index` on.
    private static func changeStamps(_ row: Row, from index: Int) -> String {
        "\((row[index] as Int64?) ?? 0),\((row[index + 1] as Int64?) ?? -1);\((row[index + 2] as Int64?) ?? 0),\((row[index + 3] as Int64?) ?? -1)"
    }

    /// Each visit's photos present and read, by visit id (`visitPhoto_on_visitId`), with their
    /// Live Photo videos (`photo_live_still`).
    static let visitStampsSQL = """
        SELECT vp.visitId, count(*), max(p.changeStamp), count(v.id), max(v.changeStamp)
        FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId
        LEFT JOIN photo v ON v.liveStillId = p.id AND v.removedAt IS NULL AND v.status = 'read'
        WHERE vp.visitId IN (SELECT value FROM json_each(?)) AND p.removedAt IS NULL AND p.status = 'read'
        GROUP BY vp.visitId
        """

    /// The photos `photosOutsideVisits` takes, with their stamps and their videos'; the window's
    /// condition follows. The videos are counted by subqueries, not a join grouped by photo:
    /// SQLite walks a grouped join in the photos' id order, a pass over the whole table for
    /// each trip, rather than search the window in `photo_moment`.
    static let unplacedStampsSQL = """
        SELECT p.id, p.path, p.utcTime, p.timeZone, coalesce(p.wallTime, p.localTime), 1, p.changeStamp,
            (SELECT count(*) FROM photo v WHERE v.liveStillId = p.id AND v.removedAt IS NULL AND v.status = 'read'),
            (SELECT max(v.changeStamp) FROM photo v WHERE v.liveStillId = p.id AND v.removedAt IS NULL AND v.status = 'read')
        FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
        WHERE vp.photoId IS NULL AND p.removedAt IS NULL AND p.status = 'read' AND p.liveStillId IS NULL
        """

    /// The photos present and read of `visits` and those of `ids`, with the Live Photo videos of
    /// all of them, in `tripPhotos`' order: what a library trip's export reads for the days it
    /// renders.
    func tripPhotos(ofVisits visits: [String], ids: [Int64]) throws(GeoTripError) -> [TripPhoto] {
        try attempt {
            try database.read { db in
                var photos = TripPhotoList(deduplicating: true)
                try photos.add(db, Self.visitsPhotosSQL, [Self.textList(visits)])
                try photos.add(db, Self.photosByIDSQL, [Self.jsonList(ids)])
                try photos.add(db, Self.livePhotoVideosOfSQL, [Self.jsonList(photos.list.map(\.photo.id))])
                return photos.sorted()
            }
        }
    }

    /// `tripPhotos(ofVisits:ids:)`'s reads: the photos present and read of the visits of a JSON
    /// list (`visitPhoto_on_visitId`), those of a list of ids, and the Live Photo videos of
    /// those of a list of ids (`photo_live_still`).
    static let visitsPhotosSQL = """
        SELECT \(tripPhotoColumns) FROM photo p JOIN visitPhoto vp ON vp.photoId = p.id
        WHERE vp.visitId IN (SELECT value FROM json_each(?)) AND p.removedAt IS NULL AND p.status = 'read'
        """
    static let photosByIDSQL = """
        SELECT \(tripPhotoColumns) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
        WHERE p.id IN (SELECT value FROM json_each(?)) AND p.removedAt IS NULL AND p.status = 'read'
        """
    static let livePhotoVideosOfSQL = """
        SELECT \(tripPhotoColumns) FROM photo s JOIN photo p ON p.liveStillId = s.id LEFT JOIN visitPhoto vp ON vp.photoId = p.id
        WHERE s.id IN (SELECT value FROM json_each(?)) AND p.removedAt IS NULL AND p.status = 'read'
        """

    /// The ids of the photos in the visits of a JSON list (`visitPhoto_on_visitId`).
    static let visitsPhotoIDsSQL = "SELECT photoId FROM visitPhoto WHERE visitId IN (SELECT value FROM json_each(?))"

    /// The ids of the photos in `visits` (`visitPhoto_on_visitId`, no photo row read).
    func photoIDs(ofVisits visits: [String]) throws(GeoTripError) -> [Int64] {
        try attempt {
            try database.read { db in
                try Int64.fetchAll(db, sql: Self.visitsPhotoIDsSQL, arguments: [Self.textList(visits)])
            }
        }
    }

    /// The photos (id and path) of each of `visits` (`visitPhoto_on_visitId`).
    func photos(ofEachVisit visits: [String]) throws(GeoTripError) -> [String: [(id: Int64, path: String)]] {
        guard !visits.isEmpty else { return [:] }
        return try attempt {
            try database.read { db in
                var photos: [String: [(id: Int64, path: String)]] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT vp.visitId, p.id, p.path FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId
                    WHERE vp.visitId IN (SELECT value FROM json_each(?))
                    """, arguments: [Self.textList(visits)])
                while let row = try rows.next() { photos[row[0], default: []].append((row[1], row[2])) }
                return photos
            }
        }
    }

    /// The visit of each of the photos `ids` that is in one (`visitPhoto`'s primary key).
    func visits(ofPhotos ids: [Int64]) throws(GeoTripError) -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try attempt {
            try database.read { db in
                var visitOf: [Int64: String] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT photoId, visitId FROM visitPhoto WHERE photoId IN (SELECT value FROM json_each(?))",
                                               arguments: [Self.jsonList(Set(ids))])
                while let row = try rows.next() { visitOf[row[0]] = row[1] }
                return visitOf
            }
        }
    }

    /// The visit of every photo in one, by the photo's path: read only when a note's id names
    /// a visit holding none of the photos its page showed (`JournalNotes`).
    func visitOfEveryPhoto() throws(GeoTripError) -> [String: String] {
        try attempt {
            try database.read { db in
                var visitOf: [String: String] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT p.path, vp.visitId FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId")
                while let row = try rows.next() { visitOf[row[0]] = row[1] }
                return visitOf
            }
        }
    }

    /// Those of the photos `ids` that are not videos: what a thumbnail is made of.
    static let stillIDsSQL = "SELECT id FROM photo WHERE id IN (SELECT value FROM json_each(?)) AND format IS NOT 'video'"

    /// `stillIDsSQL` of `ids`, by their rows' keys.
    func stillIDs(among ids: Set<Int64>) throws(GeoTripError) -> Set<Int64> {
        try attempt {
            try database.read { db in Set(try Int64.fetchAll(db, sql: Self.stillIDsSQL, arguments: [Self.jsonList(ids)])) }
        }
    }

    /// Rows of `tripPhotoColumns` gathered from several reads, each photo once, sorted as
    /// `tripPhotos` sorts them.
    struct TripPhotoList {
        var list: [(time: String, photo: TripPhoto)] = []
        /// Whether a photo read again is left out (reads that may overlap).
        let deduplicating: Bool
        private var seen = Set<Int64>()

        init(deduplicating: Bool) {
            self.deduplicating = deduplicating
        }

        mutating func add(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws {
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let photo = Catalog.tripPhoto(row)
                guard !deduplicating || seen.insert(photo.id).inserted else { continue }
                list.append(((row[Catalog.tripPhotoUTCColumn] as String?) ?? (row[Catalog.tripPhotoLocalTimeColumn] as String?) ?? "", photo))
            }
        }

        /// SQL's `ORDER BY coalesce(utcTime, wallTime, localTime), path` (the camera's clock as
        /// corrected, the column `tripPhotoColumns` reads): no time first, then text
        /// compared byte by byte, as SQLite compares it.
        func sorted() -> [TripPhoto] {
            list.sorted { a, b in
                a.time != b.time ? a.time.utf8.lexicographicallyPrecedes(b.time.utf8)
                    : a.photo.path.utf8.lexicographicallyPrecedes(b.photo.path.utf8)
            }.map(\.photo)
        }
    }
}
