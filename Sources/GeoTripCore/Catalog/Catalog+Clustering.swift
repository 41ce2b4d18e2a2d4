import Foundation
import GRDB

/// What the clustering stage reads and writes: photos as resolution left them, visits and
/// places, the days of the photos, and the list of photos changed since the last clustering.
///
/// A change reads only around itself (`ClusterStage`'s two steps):
/// - `clusteringNeighbourhood`: the changed photos, the runs of the timeline around them
///   (walked through `photo_time` until a gap longer than `visitGap`), and the visits that
///   held a changed photo or begin in those runs (`visit_arrival`);
/// - `visitsLinked`: the visits linked to the reworked ones through chains of centres at most
///   `placeRadius` apart, found by position (`visit_position`, on each visit's point of the
///   unit sphere), and the ids and revisions a new visit or place could take.
extension Catalog {
    /// The photos clustering places (present, read, placed, not a Live Photo's video).
    private static let clusteredPhotos = "removedAt IS NULL AND status = 'read' AND resolvedLatitude IS NOT NULL AND liveStillId IS NULL"
    /// The slack in walking stored times, whose text puts milliseconds before a whole second's `Z`.
    private static let textOrderSlack: TimeInterval = 1

    /// The clustered photos' times back from one, and on from one: walked through `photo_time`.
    static let timelineBeforeSQL = "SELECT utcTime FROM photo WHERE utcTime <= ? AND \(clusteredPhotos) ORDER BY utcTime DESC"
    static let timelineAfterSQL = "SELECT utcTime FROM photo WHERE utcTime >= ? AND \(clusteredPhotos) ORDER BY utcTime"
    /// The photos present and read in a stretch of time, through `photo_time`.
    static let photosBetweenSQL = "SELECT \(resolvedColumns) FROM photo WHERE utcTime BETWEEN ? AND ? AND removedAt IS NULL AND status = 'read'"
    /// The visits that begin in a stretch of time, through `visit_arrival`.
    static let visitsArrivingSQL = "SELECT * FROM visit WHERE arrival BETWEEN ? AND ?"
    /// A visit's `photoCount` made again from its memberships, through `visitPhoto_on_visitId`.
    static let recountVisitSQL = "UPDATE visit SET photoCount = (SELECT count(*) FROM visitPhoto WHERE visitId = visit.id) WHERE id = ?"
    /// The visits whose centres lie in a box of the unit sphere, through `visit_position`.
    /// Read from the index alone (a dense city's box holds hundreds of visits, met again from
    /// each of their neighbours): a visit's row is read once, when it is first found.
    static let visitsNearSQL = "SELECT rowid, unitX, unitY, unitZ FROM visit WHERE unitX BETWEEN ? AND ? AND unitY BETWEEN ? AND ? AND unitZ BETWEEN ? AND ?"

    /// Visits and places as the last clustering left them, and every id's last revision: what a
    /// full recompute needs.
    func knownLayout() throws(GeoTripError) -> KnownLayout {
        do {
            return try database.read { db in
                // In visit order from the index on visitId, so each visit's photos come together
                // and its set is made once (a million rows, one hash insert each, otherwise).
                var members: [String: Set<Int64>] = [:]
                var visit = "", photos: [Int64] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT visitId, photoId FROM visitPhoto ORDER BY visitId")
                while let row = try rows.next() {
                    let id: String = row[0]
                    if id != visit {
                        if !photos.isEmpty { members[visit] = Set(photos) }
                        visit = id
                        photos.removeAll(keepingCapacity: true)
                    }
                    photos.append(row[1])
                }
                if !photos.isEmpty { members[visit] = Set(photos) }
                var layout = KnownLayout()
                for visit in try VisitRecord.fetchAll(db) {
                    layout.visits.append(visit.known(members: members[visit.id] ?? []))
                }
                // A place's members (its visits' photos) are gathered by the clustering stage for
                // the places it regroups: for all of them, a million photos' worth of set inserts.
                layout.places = try Self.knownPlaces(db)
                for row in try Row.fetchAll(db, sql: "SELECT id, revision FROM clusterRevision") { layout.lastRevisions[row[0]] = row[1] }
                return layout
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The photos of `count` visits (`visitPhoto_on_visitId` covers it).
    static func visitMembersSQL(count: Int) -> String {
        "SELECT visitId, photoId FROM visitPhoto WHERE visitId IN (\(databaseQuestionMarks(count: count)))"
    }

    /// The photos of each of `visits`, 500 visits a query (`visitMembersSQL`):
    /// the places around a million photos' changes reach tens of thousands of visits, and a
    /// query each was most of reading them. A visit without photos has an empty set.
    private static func members(_ db: Database, of visits: [String]) throws -> [String: Set<Int64>] {
        var members = Dictionary(uniqueKeysWithValues: visits.map { ($0, Set<Int64>()) })
        for chunk in visits.chunked(500) {
            let rows = try Row.fetchCursor(db, sql: visitMembersSQL(count: chunk.count), arguments: StatementArguments(chunk))
            while let row = try rows.next() { members[row[0], default: []].insert(row[1]) }
        }
        return members
    }

    /// Every place, without members.
    private static func knownPlaces(_ db: Database) throws -> [KnownCluster] {
        try PlaceRecord.fetchAll(db).map { place in
            KnownCluster(id: place.id, members: [], revision: place.revision,
                         start: UTCTimestamp.date(place.start) ?? .distantPast,
                         centre: Coordinate(latitude: place.latitude, longitude: place.longitude))
        }
    }

    /// What the first clustering step needs around the photos `pending` (changed since the last
    /// clustering): those of them present and read, every photo of the runs of the timeline
    /// around them, and the known visits (with their photos) that held one of them or begin
    /// in those runs.
    ///
    /// A run is found from the changes (the pending photos' times now, and the spans of the
    /// visits that held them) by walking the clustered photos' times out to a gap longer than
    /// `gap`, as `TimelineRuns` does over the whole timeline. Times are stored as text in which
    /// milliseconds sort before a whole second's `Z`, so the walk allows a second more, and
    /// the runs may take in a run beyond them: the first step leaves any run without a change
    /// as it is. `stored` holds the visits' rows, for `withoutUnchangedVisits`.
    /// The runs' photos and visits are read in two halves at once when there are at least
    /// `halvesFrom` runs.
    func clusteringNeighbourhood(pending: Set<Int64>, gap: TimeInterval, halvesFrom: Int = 64) throws(GeoTripError)
        -> (photos: [ResolvedPhoto], visits: [KnownCluster], stored: [String: VisitRecord]) {
        // The changes themselves, the visits that held them, and the runs around them.
        let (changed, runs, owners) = try attempt {
            try database.read { db in
                var photos: [Int64: ResolvedPhoto] = [:]
                var spans: [(start: Date, end: Date)] = []
                let photo = try db.cachedStatement(sql: "SELECT \(Self.resolvedColumns) FROM photo WHERE id = ? AND removedAt IS NULL AND status = 'read'")
                let owner = try db.cachedStatement(sql: "SELECT visitId FROM visitPhoto WHERE photoId = ?")
                var owners = Set<String>()
                for id in pending {
                    if let row = try Row.fetchOne(photo, arguments: [id]) {
                        let resolved = Self.resolvedPhoto(row)
                        photos[id] = resolved
                        if resolved.liveStillID == nil, resolved.coordinate != nil, let utc = resolved.utc { spans.append((utc, utc)) }
                    }
                    if let visit = try String.fetchOne(owner, arguments: [id]) { owners.insert(visit) }
                }
                var records: [String: VisitRecord] = [:]
                for id in owners {
                    if let record = try VisitRecord.fetchOne(db, key: id) {
                        records[id] = record
                        let visit = record.known(members: [])
                        spans.append((visit.start, visit.end))
                    }
                }
                return (photos, try Self.timelineRuns(db, around: spans, gap: gap), records)
            }
        }
        // The runs' photos, the visits arriving in them and every visit's members. Changes
        // spread over a library make many runs, read in two halves at once (the other core
        // waits on this otherwise; the run lock keeps the catalog still between the reads).
        // The runs are found once, so the halves read what one read would.
        let read = try inHalves(runs, from: halvesFrom) { part throws(GeoTripError) in
            try attempt {
                try database.read { db in
                    var photos: [ResolvedPhoto] = []  // the runs are disjoint: no photo twice
                    var records: [String: VisitRecord] = [:]
                    for run in part {
                        let range: StatementArguments = [run.start.addingTimeInterval(-Self.textOrderSlack).geotripISO8601,
                                                         run.end.addingTimeInterval(Self.textOrderSlack).geotripISO8601]
                        let rows = try Row.fetchCursor(db, sql: Self.photosBetweenSQL, arguments: range)
                        while let row = try rows.next() { photos.append(Self.resolvedPhoto(row)) }
                        for record in try VisitRecord.fetchAll(db, sql: Self.visitsArrivingSQL, arguments: range) where records[record.id] == nil {
                            records[record.id] = record
                        }
                    }
                    photos.sort { $0.id < $1.id }
                    return RunsRead(photos: photos, records: records, members: try Self.members(db, of: Array(records.keys)))
                }
            }
        }
        var lists = [changed.values.sorted { $0.id < $1.id }], records = owners, members: [String: Set<Int64>] = [:]
        for part in read {
            lists.append(part.photos)
            records.merge(part.records) { first, _ in first }
            members.merge(part.members) { first, _ in first }
        }
        // Each owner arrives in its run (the runs hold the owners' spans); one that did not
        // would have its members read here.
        let unread = owners.keys.filter { members[$0] == nil }
        if !unread.isEmpty { members.merge(try attempt { try database.read { db in try Self.members(db, of: unread) } }) { first, _ in first } }
        let visits = records.values.map { $0.known(members: members[$0.id] ?? []) }
        return (Self.mergedByID(lists), visits.sorted { ($0.start, $0.id) < ($1.start, $1.id) }, records)
    }

    /// Lists of photos each in id order, merged into one in id order with each id once (a photo
    /// read twice is the same row).
    static func mergedByID(_ lists: [[ResolvedPhoto]]) -> [ResolvedPhoto] {
        var merged: [ResolvedPhoto] = []
        merged.reserveCapacity(lists.map(\.count).max() ?? 0)
        var next = [Int](repeating: 0, count: lists.count)
        while true {
            var least: Int?
            for list in lists.indices where next[list] < lists[list].count {
                if least.map({ lists[list][next[list]].id < lists[$0][next[$0]].id }) ?? true { least = list }
            }
            guard let least else { return merged }
            let photo = lists[least][next[least]]
            next[least] += 1
            if merged.last?.id != photo.id { merged.append(photo) }
        }
    }

    /// What one read of `clusteringNeighbourhood` found in its runs.
    private struct RunsRead: Sendable {
        /// In id order.
        var photos: [ResolvedPhoto] = []
        var records: [String: VisitRecord] = [:]
        var members: [String: Set<Int64>] = [:]
    }

    /// The stretches of the timeline of clustered photos (present, read, placed, dated, not a
    /// Live Photo's video) that hold `spans`, each walked out to a gap longer than `gap`
    /// (a second more: see `clusteringNeighbourhood`); in order, disjoint.
    private static func timelineRuns(_ db: Database, around spans: [(start: Date, end: Date)], gap: TimeInterval) throws -> [(start: Date, end: Date)] {
        let reach = gap + textOrderSlack
        let spans = spans.sorted { $0.start < $1.start }
        var runs: [(start: Date, end: Date)] = []
        var next = 0
        while next < spans.count {
            // Back from the first change of the run.
            var start = spans[next].start
            let before = try String.fetchCursor(db, sql: timelineBeforeSQL,
                                                arguments: [start.addingTimeInterval(textOrderSlack).geotripISO8601])
            while let text = try before.next() {
                guard let time = UTCTimestamp.date(text) else { continue }
                if time >= start { continue }
                if start.timeIntervalSince(time) > reach { break }
                start = time
            }
            // Forward through photos and changes alike.
            var end = spans[next].end
            next += 1
            let after = try String.fetchCursor(db, sql: timelineAfterSQL,
                                               arguments: [end.addingTimeInterval(-textOrderSlack).geotripISO8601])
            func absorbSpans(upTo time: Date) {
                while next < spans.count && spans[next].start <= time && spans[next].start.timeIntervalSince(end) <= reach {
                    end = max(end, spans[next].end)
                    next += 1
                }
            }
            while let text = try after.next() {
                guard let time = UTCTimestamp.date(text) else { continue }
                absorbSpans(upTo: time)
                if time <= end { continue }
                if time.timeIntervalSince(end) > reach { break }
                end = time
            }
            absorbSpans(upTo: .distantFuture)
            if let last = runs.last, start <= last.end {
                runs[runs.count - 1].end = max(last.end, end)
            } else {
                runs.append((start, end))
            }
        }
        return runs
    }

    /// What the second clustering step needs around what the first made again: the known
    /// visits (with their photos, `replaced` aside) linked to the new visits' and the replaced
    /// visits' centres through chains of centres at most `radius` metres apart, every place,
    /// the last revisions of the ids a new visit or place could take, and the ids of visits
    /// outside the rework that a new visit's id could collide with.
    func visitsLinked(to rework: VisitRework, radius: Double, halvesFrom: Int = 64) throws(GeoTripError)
        -> (kept: [KnownCluster], places: [KnownCluster], lastRevisions: [String: Int], reservedVisitIDs: Set<String>) {
        let replaced = Set(rework.replaced.map(\.id))
        // The chains are followed from each centre; many centres (changes spread over a
        // library) in two halves of their time at once, each with what it has seen (a visit
        // made again and the one it replaces lie together). A chain both halves reach is
        // followed by both: the union is what one walk finds.
        let seeds = (rework.visits.map { ($0.cluster.arrival, GreatCircle.unitVector($0.cluster.centre)) }
            + rework.replaced.map { ($0.start, GreatCircle.unitVector($0.centre)) }).sorted { $0.0 < $1.0 }.map(\.1)
        let walked = try inHalves(seeds, from: halvesFrom) { part throws(GeoTripError) in
            try attempt { try database.read { db in try Self.visitsLinked(db, from: part, radius: radius, leaving: replaced) } }
        }
        var linked: [String: KnownCluster] = [:]
        for part in walked { linked.merge(part) { first, _ in first } }
        let kept = linked.values.sorted { $0.id < $1.id }
        return try attempt {
            try database.read { db in
                // Ids a new visit could take are its first photo's (`StableIdentity`): `v12`, or
                // `v12-2` and on when that is taken; a place's are any `p`.
                var lastRevisions: [String: Int] = [:]
                var reserved = Set<String>()
                let revisions = try db.cachedStatement(sql: "SELECT id, revision FROM clusterRevision WHERE id >= ? AND id < ?")
                let taken = try db.cachedStatement(sql: "SELECT id FROM visit WHERE id >= ? AND id < ?")
                for visit in rework.visits {
                    let base = "v\(visit.cluster.photoIDs.first ?? 0)"
                    let range: StatementArguments = [base, base + "."]  // `-` sorts before `.`, digits after it
                    for row in try Row.fetchAll(revisions, arguments: range) { lastRevisions[row[0]] = row[1] }
                    reserved.formUnion(try String.fetchAll(taken, arguments: range))
                }
                for row in try Row.fetchAll(revisions, arguments: ["p", "q"]) { lastRevisions[row[0]] = row[1] }
                return (kept, try Self.knownPlaces(db), lastRevisions, reserved.subtracting(replaced))
            }
        }
    }

    /// The known visits (with their photos, `replaced` aside) linked to `points` (unit vectors
    /// of centres) through chains of centres at most `radius` metres apart.
    private static func visitsLinked(_ db: Database, from points: [SIMD3<Double>], radius: Double,
                                     leaving replaced: Set<String>) throws -> [String: KnownCluster] {
        // A metre more than the rule's radius: the stage decides the links; this only
        // has to find every one.
        let chord = GreatCircle.chord(metres: radius + 1)
        let near = try db.cachedStatement(sql: visitsNearSQL)
        let byRow = try db.cachedStatement(sql: "SELECT * FROM visit WHERE rowid = ?")
        var seen = Set<Int64>()
        var found: [String: VisitRecord] = [:]
        var queue = points
        while let point = queue.popLast() {
            let box: StatementArguments = [point.x - chord, point.x + chord, point.y - chord, point.y + chord, point.z - chord, point.z + chord]
            let rows = try Row.fetchCursor(near, arguments: box)
            while let row = try rows.next() {
                let rowID: Int64 = row[0]
                guard !seen.contains(rowID) else { continue }
                let other = SIMD3<Double>(row[1], row[2], row[3])
                let d = other - point
                guard (d * d).sum().squareRoot() <= chord else { continue }
                seen.insert(rowID)
                guard let record = try VisitRecord.fetchOne(byRow, arguments: [rowID]), !replaced.contains(record.id) else { continue }
                found[record.id] = record
                queue.append(other)
            }
        }
        let members = try Self.members(db, of: Array(found.keys))
        return found.mapValues { $0.known(members: members[$0.id] ?? []) }
    }

    /// Stores what a clustering run changed in one transaction: places and visits made again
    /// upserted by id (their names, kept apart, are untouched), untouched visits moved to their
    /// new places, retired ids deleted (their last revision stays in `clusterRevision`), the
    /// memberships of the visits made again brought to what they now hold (only the photos that
    /// joined, left or changed their stray mark are written), the days of the photos it looked at (and
    /// the trip's days counted from them), what the layout was computed from, and the list of
    /// photos waiting for clustering emptied. A full change retires every visit and place it
    /// does not list, and replaces every photo's day. Each visit's `photoCount` is kept with its
    /// memberships. The person's names then go with their spots (`followManualNames`, within
    /// `placeRadius`), and what they did is returned.
    @discardableResult
    func saveLayout(_ change: LayoutChange, key: String, placeRadius: Double = ClusteringOptions().placeRadius) throws(GeoTripError) -> [ManualNames.Move] {
        do {
            return try database.write { db in
                let changesBefore = db.totalChangesCount
                let remember = try db.cachedStatement(sql: """
                    INSERT INTO clusterRevision (id, revision) VALUES (?, ?)
                    ON CONFLICT(id) DO UPDATE SET revision = max(revision, excluded.revision)
                    """)
                let putPlace = try db.cachedStatement(sql: PlaceRecord.upsertSQL)
                let putVisit = try db.cachedStatement(sql: VisitRecord.upsertSQL)
                for place in change.places {
                    try putPlace.execute(arguments: PlaceRecord(id: place.id, revision: place.revision, latitude: Self.rounded(place.centre.latitude),
                                                                longitude: Self.rounded(place.centre.longitude),
                                                                start: place.start.geotripISO8601 ?? "").upsertArguments)
                    try remember.execute(arguments: [place.id, place.revision])
                }
                if change.isFull { try db.execute(sql: "DELETE FROM visitPhoto") }
                for visit in change.visits {
                    try putVisit.execute(arguments: VisitRecord(visit.cluster, id: visit.id, placeId: visit.placeID, revision: visit.revision,
                                                                localDate: visit.localDate, timeZone: visit.timeZone).upsertArguments)
                    try remember.execute(arguments: [visit.id, visit.revision])
                }
                // The memberships that differ from those stored: a local change's visits are
                // mostly made again with the photos they had (a photo's time moved by minutes
                // remakes its visit of sixty), and only the photos that joined, left or changed
                // their stray mark are written. A photo taken from a visit the change does not
                // list leaves that visit one photo short: its count is made again below.
                let members = change.visits.lazy.flatMap { visit in
                    let strays = Set(visit.cluster.strayIDs)
                    return visit.cluster.photoIDs.lazy.map { (photo: $0, visit: visit.id, stray: strays.contains($0)) }
                }
                // A photo is in one visit, so the order between visits does not matter.
                func write<Rows: Collection>(_ rows: Rows) throws where Rows.Element == (photo: Int64, visit: String, stray: Bool) {
                    _ = try db.executeInGroups(rows, width: 3) {
                        "INSERT INTO visitPhoto (photoId, visitId, stray) VALUES \(Database.valuesList($0, width: 3)) "
                            + "ON CONFLICT(photoId) DO UPDATE SET visitId = excluded.visitId, stray = excluded.stray"
                    } values: { member, values in
                        values.append(member.photo.databaseValue)
                        values.append(member.visit.databaseValue)
                        values.append(member.stray.databaseValue)
                    }
                }
                var recount: Set<String> = []
                if change.isFull {
                    try write(members)
                } else {
                    let stored = try Self.memberships(db, ofVisits: change.visits.map(\.id))
                    var leaving = Set(stored.keys)
                    var writes: [(photo: Int64, visit: String, stray: Bool)] = []
                    var joining: [Int64] = []
                    for member in members {
                        leaving.remove(member.photo)
                        let before = stored[member.photo]
                        guard before?.visit != member.visit || before?.stray != member.stray else { continue }
                        writes.append(member)
                        if before == nil { joining.append(member.photo) }
                    }
                    for chunk in joining.chunked(500) {
                        recount.formUnion(try String.fetchAll(db, sql: "SELECT DISTINCT visitId FROM visitPhoto WHERE photoId IN (\(databaseQuestionMarks(count: chunk.count)))",
                                                              arguments: StatementArguments(chunk)))
                    }
                    let leave = try db.cachedStatement(sql: "DELETE FROM visitPhoto WHERE photoId = ?")
                    for photo in leaving { try leave.execute(arguments: [photo]) }
                    try write(writes)
                    recount.formUnion(change.visits.map(\.id))
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
                // A local change's visits, and those that lost a photo to them, counted from the
                // memberships as stored. A full change's counts are its visits' own photo ids,
                // written with them: it replaced every membership, and clustering puts a photo
                // in one visit only.
                let count = try db.cachedStatement(sql: Self.recountVisitSQL)
                for visit in recount.subtracting(retiredVisits) { try count.execute(arguments: [visit]) }
                try Self.saveDays(db, change.photoDays, isFull: change.isFull)
                if db.totalChangesCount != changesBefore {
                    try db.execute(sql: """
                        INSERT INTO tripSetting (key, value) VALUES (?, '1')
                        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                        """, arguments: [SettingKey.layoutStamp])
                }
                try db.execute(sql: "DELETE FROM clusterPending")
                try TripSettingRecord.set(db, SettingKey.clusteredFor, to: key)
                // The person's names go with their spots, in the same transaction: a run stopped
                // between the two would leave them on the wrong places.
                return try Self.followManualNames(db, radius: placeRadius)
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Each photo's day (`photoDay`) and the trip's days with their photo counts (`tripDay`):
    /// a full change replaces both; an incremental one moves each photo it lists from its old
    /// day to its new, so a day is dropped when its last photo leaves it.
    private static func saveDays(_ db: Database, _ days: [Int64: String?], isFull: Bool) throws {
        if isFull {
            try db.execute(sql: "DELETE FROM photoDay")
            // In row order: the dictionary's own order sends each insert to a random page.
            let dated = days.compactMap { photo, day in day.map { (photo, $0) } }.sorted { $0.0 < $1.0 }
            _ = try db.executeInGroups(dated, width: 2) { "INSERT INTO photoDay (photoId, localDate) VALUES \(Database.valuesList($0, width: 2))" } values: { day, values in
                values.append(day.0.databaseValue)
                values.append(day.1.databaseValue)
            }
            try db.execute(sql: "DELETE FROM tripDay")
            try db.execute(sql: "INSERT INTO tripDay (localDate, photos) SELECT localDate, count(*) FROM photoDay GROUP BY localDate")
            return
        }
        // The days as stored, read at once (a change around a few hundred photos lists tens of
        // thousands, most on the day they were), and each day's count moved by its net change.
        var was: [Int64: String] = [:]
        for chunk in days.keys.sorted().chunked(500) {
            let rows = try Row.fetchCursor(db, sql: "SELECT photoId, localDate FROM photoDay WHERE photoId IN (\(databaseQuestionMarks(count: chunk.count)))",
                                           arguments: StatementArguments(chunk))
            while let row = try rows.next() { was[row[0]] = row[1] }
        }
        let set = try db.cachedStatement(sql: "INSERT INTO photoDay (photoId, localDate) VALUES (?, ?) ON CONFLICT(photoId) DO UPDATE SET localDate = excluded.localDate")
        let unset = try db.cachedStatement(sql: "DELETE FROM photoDay WHERE photoId = ?")
        var moved: [String: Int] = [:]
        for (photo, day) in days {
            let before = was[photo]
            guard before != day else { continue }
            if let before { moved[before, default: 0] -= 1 }
            if let day {
                try set.execute(arguments: [photo, day])
                moved[day, default: 0] += 1
            } else {
                try unset.execute(arguments: [photo])
            }
        }
        let join = try db.cachedStatement(sql: "INSERT INTO tripDay (localDate, photos) VALUES (?, ?) ON CONFLICT(localDate) DO UPDATE SET photos = photos + excluded.photos")
        let empty = try db.cachedStatement(sql: "DELETE FROM tripDay WHERE localDate = ? AND photos <= 0")
        for (day, count) in moved where count != 0 {
            try join.execute(arguments: [day, count])
            if count < 0 { try empty.execute(arguments: [day]) }
        }
    }

    /// The stored memberships of `visits`, by photo.
    private static func memberships(_ db: Database, ofVisits visits: [String]) throws -> [Int64: (visit: String, stray: Bool)] {
        var stored: [Int64: (visit: String, stray: Bool)] = [:]
        for chunk in visits.chunked(500) {
            let rows = try Row.fetchCursor(db, sql: "SELECT photoId, visitId, stray FROM visitPhoto WHERE visitId IN (\(databaseQuestionMarks(count: chunk.count)))",
                                           arguments: StatementArguments(chunk))
            while let row = try rows.next() { stored[row[0]] = (row[1], row[2]) }
        }
        return stored
    }
}

extension Catalog {
    /// `rework` without the visits it made again exactly as they are stored (`stored`, by id):
    /// the same photos, centre, radius, times, day and zone as a visit it replaces. Such a
    /// visit is left in the catalog as it is, a kept visit like those outside the rework, so
    /// the places are sought around the visits that really changed and only those are
    /// written. A run around a change is a day or so of photos, and most of its visits come out
    /// as they were: 300 edits scattered over a 200,000-photo library made 3,000 visits again,
    /// and the places around them reached 7,000 visits and 110,000 photos.
    static func withoutUnchangedVisits(_ rework: VisitRework, stored: [String: VisitRecord]) -> VisitRework {
        guard !rework.isFull else { return rework }
        // A visit's photos are its own: one photo finds the one replaced visit that can match.
        var replacedByPhoto: [Int64: Int] = [:]
        for (index, visit) in rework.replaced.enumerated() { if let first = visit.members.min() { replacedByPhoto[first] = index } }
        var unchanged = Set<Int>()
        var result = rework
        result.visits = rework.visits.filter { visit in
            // A visit with strays is written again: which photos are strays is not in its row.
            guard visit.cluster.strayIDs.isEmpty, let first = visit.cluster.photoIDs.min(), let index = replacedByPhoto[first] else { return true }
            let old = rework.replaced[index]
            guard let record = stored[old.id], old.members.count == visit.cluster.photoIDs.count,
                  visit.cluster.photoIDs.allSatisfy(old.members.contains),
                  VisitRecord(visit.cluster, id: record.id, placeId: record.placeId, revision: record.revision,
                              localDate: visit.localDate, timeZone: visit.timeZone) == record else { return true }
            unchanged.insert(index)
            return false
        }
        result.replaced = rework.replaced.enumerated().filter { !unchanged.contains($0.offset) }.map(\.element)
        return result
    }
}

extension VisitRecord {
    /// The row of a visit clustering made: its centre rounded as the catalog keeps positions,
    /// its radius to a decimetre, its times as text.
    init(_ cluster: VisitCluster, id: String, placeId: String, revision: Int, localDate: String, timeZone: String?) {
        self.init(id: id, placeId: placeId, revision: revision, latitude: Catalog.rounded(cluster.centre.latitude),
                  longitude: Catalog.rounded(cluster.centre.longitude), radiusMeters: (cluster.radiusMeters * 10).rounded() / 10,
                  arrival: cluster.arrival.geotripISO8601 ?? "", departure: cluster.departure.geotripISO8601 ?? "",
                  localDate: localDate, timeZone: timeZone, photoCount: cluster.photoIDs.count)
    }

    /// The visit as the clustering stage knows it, with `members`.
    func known(members: Set<Int64>) -> KnownCluster {
        KnownCluster(id: id, members: members, revision: revision, start: UTCTimestamp.date(arrival) ?? .distantPast,
                     centre: Coordinate(latitude: latitude, longitude: longitude), end: UTCTimestamp.date(departure), placeID: placeId)
    }
}
