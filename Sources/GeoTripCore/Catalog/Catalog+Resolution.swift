import Foundation
import GRDB

/// What the resolve stage reads and writes: the photos' evidence and stored results, the
/// manual tags, and the list of photos changed since the last resolution.
extension Catalog {
    /// Every photo present and read, in id order, with what resolution reads and what it last
    /// decided. One pass over the table in its own (rowid) order: it reads nearly every row,
    /// so an index would only add a lookup per row. The columns are named and read by
    /// position: decoding whole records (their diagnostics JSON included) cost most of a
    /// rerun's time at 200,000 photos.
    static let resolutionSQL = resolutionColumnsSQL + " ORDER BY id"

    /// The columns of a photo's stored result, first in every query resolution reads
    /// (`resolvedPhoto(_:)` decodes them).
    /// The third is the clock a photo's day is read from when its instant and zone do not
    /// give it (`ResolvedPhoto.cameraTime`): the camera's, as corrected (`wallTime`).
    static let resolvedColumns = """
        id, path, coalesce(wallTime, localTime), utcTime, timeZone, timeSource, resolvedLatitude, resolvedLongitude, locationSource,
        uncertaintyMeters, liveStillId, wallTime
        """

    /// `resolvedColumns` without the path, which clustering does not read, nor `wallTime` apart
    /// (it reads the corrected clock once, as the camera time).
    static let clusteringColumns = """
        id, '', coalesce(wallTime, localTime), utcTime, timeZone, timeSource, resolvedLatitude, resolvedLongitude, locationSource,
        uncertaintyMeters, liveStillId, NULL
        """

    /// The columns resolution reads (the stored result, then the evidence), from the photos
    /// present and read: `resolutionSQL` before its order, for `AND`-ing a condition to.
    static let resolutionColumnsSQL = """
        SELECT \(resolvedColumns), utcOffset, gpsTime, make, model, latitude, longitude, positionSource, format, timeField, localTime
        FROM photo WHERE removedAt IS NULL AND status = 'read'
        """

    /// A position from two nullable columns.
    private static func coordinate(_ latitude: Double?, _ longitude: Double?) -> Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A photo's stored result, from the first columns of a row (`resolvedColumns`).
    static func resolvedPhoto(_ row: Row) -> ResolvedPhoto {
        let uncertainty: Double? = row[9]
        // Sources are read as text: GRDB decodes text through its fast path, and its own enum
        // decoding, through a DatabaseValue per column, was a tenth of a library's rerun.
        return ResolvedPhoto(id: row[0], utc: UTCTimestamp.date(row[3]), zone: row[4], cameraTime: row[2],
                             coordinate: coordinate(row[6], row[7]),
                             uncertaintyMeters: uncertainty ?? 10, path: row[1],
                             timeSource: (row[5] as String?).flatMap(TimeSource.init(rawValue:)) ?? .none,
                             locationSource: (row[8] as String?).flatMap(LocationSource.init(rawValue:)), liveStillID: row[10],
                             wallTime: row[11])
    }

    /// Calls `body` with each photo's evidence and stored resolution, for the rows `sql` (which
    /// selects the columns of `resolutionColumnsSQL`) returns, in its order.
    private func forEachResolutionRow(sql: String = resolutionSQL, arguments: StatementArguments = [],
                                      _ body: (PhotoEvidence, ResolvedPhoto, Row) -> Void) throws(GeoTripError) {
        try attempt {
            try database.read { db in
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    let resolved = Self.resolvedPhoto(row)
                    let format = (row[19] as String?).flatMap(ImageFormat.init(rawValue:))
                    var evidence = PhotoEvidence(id: resolved.id, path: resolved.path, localTime: row[21], utcOffset: row[12],
                                                 gpsTime: row[13], make: row[14], model: row[15],
                                                 exifCoordinate: Self.coordinate(row[16], row[17]),
                                                 positionSource: (row[18] as String?).flatMap(LocationSource.init(rawValue:))
                                                     ?? (format == .video ? .quicktime : .exif))
                    evidence.format = format
                    evidence.timeField = (row[20] as String?).flatMap(CaptureTimeField.init(rawValue:))
                    evidence.liveStillID = resolved.liveStillID
                    body(evidence, resolved, row)
                }
            }
        }
    }

    /// The manual tags, by photo id.
    func manualTags() throws(GeoTripError) -> [Int64: ResolvedLocation] {
        try attempt {
            try database.read { db in
                var tags: [Int64: ResolvedLocation] = [:]
                for tag in try ManualTagRecord.fetchAll(db) {
                    tags[tag.photoId] = ResolvedLocation(coordinate: Coordinate(latitude: tag.latitude, longitude: tag.longitude),
                                                         source: .manual, uncertaintyMeters: tag.uncertaintyMeters)
                }
                return tags
            }
        }
    }

    /// Every photo present and read, as resolution last left it, in id order: only the columns
    /// of its result (reading the evidence too, for clustering after a change that resolved a
    /// stretch only, was a tenth of a day added at a million photos).
    /// `forClustering` leaves out what clustering does not read, the path, and the camera time
    /// of a photo whose day its instant and zone give (`LocalDayRule`): a third of what a
    /// million photos take.
    func resolvedPhotos(forClustering: Bool = false) throws(GeoTripError) -> [ResolvedPhoto] {
        var photos: [ResolvedPhoto] = []
        let columns = forClustering ? Self.clusteringColumns : Self.resolvedColumns
        try attempt {
            try database.read { db in
                // The photos present and read, as the counting triggers keep them (no pass to count).
                photos.reserveCapacity(try Int.fetchOne(db, sql: "SELECT withGPS + withoutGPS FROM photoCounts WHERE id = 1") ?? 0)
                // One copy of each zone's name: most are longer than a string holds inline, and
                // a copy for every photo was 30 MB at a million. With it, whether the zone is
                // one the day can be worked out in.
                var zones: [String: (shared: String, known: Bool)] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM photo WHERE removedAt IS NULL AND status = 'read' ORDER BY id")
                while let row = try rows.next() {
                    var photo = Self.resolvedPhoto(row)
                    if let zone = photo.zone {
                        let entry: (shared: String, known: Bool)
                        if let seen = zones[zone] {
                            entry = seen
                        } else {
                            entry = (zone, LocalClock.offsetSeconds(zone, at: photo.utc ?? Date(timeIntervalSince1970: 0)) != nil)
                            zones[zone] = entry
                        }
                        photo.zone = entry.shared
                        if forClustering, photo.utc != nil, entry.known { photo.cameraTime = nil }
                    }
                    photos.append(photo)
                }
            }
        }
        return photos
    }

    /// Writes what resolution decided for `photos`, to the rows whose stored result differs,
    /// with the summary's counts over the whole folder and which catalog generation it
    /// resolved, in one transaction; the pending list is emptied in it (the writes above list
    /// the photos they change again). `votes` are the videos' votes among the photos `voters`
    /// names (`storeVotes`); `videoClocks` the cameras the photos were read with
    /// (`settleVideoClocks`). Returns how many rows changed and the cameras whose verdict turned.
    func saveResolution(_ photos: [ResolvedPhoto], votes: [Int64: VideoClockVote], voters: [Int64], counts: ResolutionCounts,
                        generation: String, settings: String, inputs: String,
                        videoClocks: Set<String>) throws(GeoTripError) -> (changed: Int, turned: Set<String>) {
        try attempt {
            try database.write { db in
                let changed = try Self.storeResolved(photos, db)
                try Self.storeVotes(votes, of: voters, db)
                let turned = try Self.finishResolution(counts: counts, generation: generation, settings: settings, inputs: inputs,
                                                       videoClocks: videoClocks, db)
                return (changed, turned)
            }
        }
    }

    /// Keeps the votes of the videos among the photos `voters` names that were resolved again
    /// (`VideoClock.vote`): theirs as `votes` gives them, and none for a photo without one (a
    /// video read again with a better time, or a photo).
    private static func storeVotes(_ votes: [Int64: VideoClockVote], of voters: [Int64], _ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM videoClockVote)") == true {
            let gone = voters.filter { votes[$0] == nil }
            for chunk in gone.chunked(10_000) {
                try db.execute(sql: "DELETE FROM videoClockVote WHERE photoId IN (SELECT value FROM json_each(?))", arguments: [Self.jsonList(chunk)])
            }
        }
        for (id, vote) in votes {
            try db.execute(sql: "INSERT OR REPLACE INTO videoClockVote (photoId, camera, vote) VALUES (?, ?, ?)",
                           arguments: [id, vote.camera, vote.vote])
        }
    }

    /// `camera`'s photos with a camera time but no offset, and a GPS time (a movie header's
    /// time aside), by path: what tells whether its clock was kept on another zone's time
    /// (`TripResolution.cameraClockNote`). A pass over the photos (0.3 s at a million; the index
    /// of GPS times holds most of them and is slower), made only for a camera some photo
    /// resolved showed on another zone's time.
    func clockEvidence(of camera: CameraName) throws(GeoTripError) -> [ClockEvidence] {
        try attempt {
            try database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT path, localTime, gpsTime, utcTime, timeSource FROM photo NOT INDEXED
                    WHERE gpsTime IS NOT NULL AND utcOffset IS NULL AND localTime IS NOT NULL AND timeField IS NOT 'QuickTime:CreateDate'
                        AND removedAt IS NULL AND status = 'read' AND make IS ? AND model IS ?
                    ORDER BY path
                    """, arguments: [camera.make, camera.model]).map {
                    ClockEvidence(path: $0["path"], localTime: $0["localTime"], gpsTime: $0["gpsTime"], utcTime: $0["utcTime"], timeSource: $0["timeSource"])
                }
            }
        }
    }

    /// The cameras whose movie-header times are local wall clocks, as the stored votes of
    /// their videos present decide (`VideoClock.localCameras`).
    func videoClockDecisions() throws(GeoTripError) -> Set<String> {
        try attempt { try database.read { db in try Self.videoClockDecisions(db) } }
    }

    private static func videoClockDecisions(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: """
            SELECT v.camera FROM videoClockVote v JOIN photo p ON p.id = v.photoId
            WHERE p.timeField = 'QuickTime:CreateDate' AND p.removedAt IS NULL AND p.status = 'read'
            GROUP BY v.camera HAVING sum(v.vote) > 0
            """))
    }

    /// The cameras the stored resolution read as local wall clocks; nil when none is stored.
    func storedVideoClockCameras() throws(GeoTripError) -> Set<String>? {
        guard let text = try setting(SettingKey.videoClockCameras) else { return nil }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))).map(Set.init)
    }

    /// The verdicts as the votes now stored give them, recorded as those of the stored results
    /// (`SettingKey.videoClockCameras`); returns the cameras whose verdict differs from
    /// `used`, those the photos just stored were read with. Every video of such a camera is listed as changed,
    /// so a local resolution reads them, and the photos around them, the new way: the caller
    /// runs one (votes depend on no verdict, so once is enough), and a run stopped first
    /// leaves them listed for the next.
    private static func settleVideoClocks(used: Set<String>, _ db: Database) throws -> Set<String> {
        let decided = try videoClockDecisions(db)
        try TripSettingRecord.set(db, SettingKey.videoClockCameras,
                                  to: String(decoding: try JSONEncoder.sorted.encode(decided.sorted()), as: UTF8.self))
        let turned = decided.symmetricDifference(used)
        guard !turned.isEmpty else { return [] }
        let list = String(decoding: try JSONEncoder().encode(turned.sorted()), as: UTF8.self)
        try db.execute(sql: """
            INSERT OR IGNORE INTO resolvePending (photoId, localTime, gpsTime, counted, timeSource, locationSource, utcTime)
            SELECT p.id, p.localTime, p.gpsTime, p.removedAt IS NULL AND p.status = 'read', p.timeSource, p.locationSource, p.utcTime
            FROM videoClockVote v JOIN photo p ON p.id = v.photoId
            WHERE v.camera IN (SELECT value FROM json_each(?)) AND p.timeField = 'QuickTime:CreateDate'
                AND p.removedAt IS NULL AND p.status = 'read'
            """, arguments: [list])
        return turned
    }

    /// Writes what resolution decided for one batch of a full pass (`ResolutionBatches`), in
    /// a transaction of its own; `finishResolution` marks the pass done once every batch is
    /// stored. The pass forgets the resolved inputs before its first batch, so a run stopped
    /// between them is followed by a full pass. Returns how many rows changed.
    func saveResolvedBatch(_ photos: [ResolvedPhoto], votes: [Int64: VideoClockVote]) throws(GeoTripError) -> Int {
        try attempt {
            try database.write { db in
                let changed = try Self.storeResolved(photos, db)
                try Self.storeVotes(votes, of: photos.map(\.id), db)
                return changed
            }
        }
    }

    /// Marks a full pass stored in batches done: empties the pending list and records the
    /// settings, inputs and counts it resolved, in one transaction.
    func finishResolution(counts: ResolutionCounts, generation: String, settings: String, inputs: String,
                          videoClocks: Set<String>) throws(GeoTripError) -> Set<String> {
        try attempt {
            try database.write { db in
                try Self.finishResolution(counts: counts, generation: generation, settings: settings, inputs: inputs,
                                          videoClocks: videoClocks, db)
            }
        }
    }

    /// Updates the rows whose stored result differs from `photos`' and returns how many.
    private static func storeResolved(_ photos: [ResolvedPhoto], _ db: Database) throws -> Int {
        // Bound values, not records: encoding whole records costs ten times more.
        // The rows take one change stamp for the whole transaction (`v11-photo-stamps`
        // asks only that it be larger than any before), set here so the stamping
        // trigger, which would update each row a second time, stays quiet: a fresh
        // ingest resolves every photo, and that second update was a third of the cost.
        // A row that already holds the result is left alone: same stamp, no trigger.
        // The values compare as stored (instants as their text, positions rounded), so
        // equal results are equal here.
        // A group of rows per statement (`executeInGroups`), each row's values as one tuple.
        return try stampingChanges(db) { stamp in try db.executeInGroups(photos, width: 10) { count in
            """
            UPDATE photo SET utcTime = r.column2, timeZone = r.column3, timeSource = r.column4, resolvedLatitude = r.column5,
                resolvedLongitude = r.column6, locationSource = r.column7, uncertaintyMeters = r.column8, wallTime = r.column9,
                changeStamp = r.column10
            FROM (VALUES \(Database.valuesList(count, width: 10))) AS r
            WHERE photo.id = r.column1 AND NOT (photo.utcTime IS r.column2 AND photo.timeZone IS r.column3 AND photo.timeSource IS r.column4
                AND photo.resolvedLatitude IS r.column5 AND photo.resolvedLongitude IS r.column6 AND photo.locationSource IS r.column7
                AND photo.uncertaintyMeters IS r.column8 AND photo.wallTime IS r.column9)
            """
        } values: { photo, values in
            let stored = ResolutionRow(photo)
            values.append(photo.id.databaseValue)
            values.append(stored.utc.databaseValue)
            values.append(stored.zone.databaseValue)
            values.append(stored.timeSource.databaseValue)
            values.append(stored.latitude.databaseValue)
            values.append(stored.longitude.databaseValue)
            values.append(stored.locationSource.databaseValue)
            values.append(stored.uncertaintyMeters.databaseValue)
            values.append(stored.wallTime.databaseValue)
            values.append(stamp.databaseValue)
        } }
    }

    /// Empties the pending list and records the settings, inputs and counts resolved.
    private static func finishResolution(counts: ResolutionCounts, generation: String, settings: String, inputs: String,
                                         videoClocks: Set<String>, _ db: Database) throws -> Set<String> {
        try db.execute(sql: "DELETE FROM resolvePending")
        let turned = try settleVideoClocks(used: videoClocks, db)
        // An interrupted run leaves the old ones (a pass in batches forgets the inputs first),
        // and the next run resolves again. While a camera's videos wait to be read the new way,
        // the resolved generation is none the catalog has, so a run stopped before that reads them.
        let encoded = String(decoding: try JSONEncoder.sorted.encode(counts), as: UTF8.self)
        for (key, value) in [(SettingKey.resolvedGeneration, turned.isEmpty ? generation : ""), (SettingKey.resolution, settings),
                             (SettingKey.resolvedInputs, inputs), (SettingKey.resolvedCounts, encoded)] {
            try TripSettingRecord.set(db, key, to: value)
        }
        return turned
    }

    /// Every photo present and read, as its id and key (`ResolutionWindow.key`), for dividing
    /// a full pass into batches: the keyed photos in key order (equal keys in id order), and
    /// the ids of those without a key. Two short columns a row, so a million photos take 16 MB.
    func resolutionKeys() throws(GeoTripError) -> (keyed: [ResolutionBatches.Key], keyless: [Int64]) {
        var keyed: [ResolutionBatches.Key] = [], keyless: [Int64] = []
        try attempt {
            try database.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT id, localTime, gpsTime FROM photo WHERE removedAt IS NULL AND status = 'read'")
                while let row = try rows.next() {
                    if let key = ResolutionWindow.key(localTime: row[1], gpsTime: row[2]) {
                        keyed.append(ResolutionBatches.Key(key: key, id: row[0]))
                    } else {
                        keyless.append(row[0])
                    }
                }
            }
        }
        keyed.sort { ($0.key, $0.id) < ($1.key, $1.id) }
        return (keyed, keyless.sorted())
    }

    /// What resolution needs of the photos `ids` names (ascending) that are present and read,
    /// in id order.
    func resolutionEvidence(ids: [Int64]) throws(GeoTripError) -> [PhotoEvidence] {
        var evidence: [PhotoEvidence] = []
        evidence.reserveCapacity(ids.count)
        let list = Self.jsonList(ids)
        try forEachResolutionRow(sql: Self.resolutionColumnsSQL + " AND id IN (SELECT value FROM json_each(?)) ORDER BY id",
                                 arguments: [list]) { photo, _, _ in evidence.append(photo) }
        return evidence
    }

    /// Runs `write` with a change stamp for the rows it writes together in one transaction,
    /// larger than every stamp before it (`v11-photo-stamps`), and returns what `write` returns:
    /// how many rows it changed. Rows given the stamp in their own update skip the stamping
    /// trigger, whose condition is an unchanged stamp. The stamp is drawn from the counter only
    /// when a row took it: a write that changed nothing leaves the counter, which says whether
    /// any photo changed since the last export (`exportSourceState`).
    static func stampingChanges(_ db: Database, _ write: (_ stamp: Int64) throws -> Int) throws -> Int {
        guard let last = try Int64.fetchOne(db, sql: "SELECT value FROM photoChangeCounter WHERE id = 1") else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the catalog's photoChangeCounter row is missing")
        }
        let changed = try write(last + 1)
        if changed > 0 { try db.execute(sql: "UPDATE photoChangeCounter SET value = max(value, ?) WHERE id = 1", arguments: [last + 1]) }
        return changed
    }

    /// The summary's counts as the last resolution stored them; nil when none did (a catalog
    /// last resolved by a geotrip before these were kept, which then resolves in full).
    func storedResolutionCounts() throws(GeoTripError) -> ResolutionCounts? {
        guard let text = try setting(SettingKey.resolvedCounts) else { return nil }
        return try? JSONDecoder().decode(ResolutionCounts.self, from: Data(text.utf8))
    }

    /// The photos whose resolution may have changed since the last one (`resolvePending`),
    /// each with its times then and now.
    func pendingResolution() throws(GeoTripError) -> [PendingResolution] {
        try attempt {
            try database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT r.photoId, r.localTime, r.gpsTime, r.counted, r.timeSource, r.locationSource, p.localTime, p.gpsTime, r.utcTime
                    FROM resolvePending r LEFT JOIN photo p ON p.id = r.photoId
                    """).map { row in
                    PendingResolution(id: row[0], before: ResolutionWindow.key(localTime: row[1], gpsTime: row[2]),
                                      after: ResolutionWindow.key(localTime: row[6], gpsTime: row[7]), counted: row[3],
                                      timeSource: row[4], locationSource: row[5], utcBefore: UTCTimestamp.date(row[8] as String?))
                }
            }
        }
    }

    /// Whether any photo present has only a movie header's time (`photo_movie_time`): the
    /// v18 migration's question.
    static let movieHeaderTimesSQL = """
        SELECT EXISTS (SELECT 1 FROM photo WHERE timeField = 'QuickTime:CreateDate' AND removedAt IS NULL AND status = 'read')
        """

    /// What resolution needs of the photos present and read whose key (`ResolutionWindow.key`)
    /// lies in one of `stretches`, and of those in `ids`, with what it decided last time, in id
    /// order (as `resolutionState()` gives the whole folder), both as a `ResolvedPhoto` and as
    /// its row holds it (`storedAs`). A superset: a photo whose camera time is in a stretch is
    /// read whatever its GPS time.
    func resolutionState(in stretches: [ClosedRange<Date>], ids: [Int64]) throws(GeoTripError)
        -> (evidence: [PhotoEvidence], stored: [ResolvedPhoto], storedAs: [ResolutionRow]) {
        // Gathered in arrays, then put in id order through a sorted list of positions: a
        // dictionary of a stretch's hundred thousand rows, sorted whole, was a third of this read.
        var evidence: [PhotoEvidence] = [], stored: [ResolvedPhoto] = [], storedAs: [ResolutionRow] = []
        var seen = Set<Int64>()
        func add(_ photo: PhotoEvidence, _ resolved: ResolvedPhoto, _ row: Row) {
            guard seen.insert(photo.id).inserted else { return }
            evidence.append(photo)
            stored.append(resolved)
            storedAs.append(ResolutionRow(row: row))
        }
        for chunk in stretches.chunked(100) {
            let query = Self.resolutionWindowQuery(chunk)
            try forEachResolutionRow(sql: query.sql, arguments: query.arguments, add)
        }
        for chunk in ids.chunked(500) {
            try forEachResolutionRow(sql: Self.resolutionColumnsSQL + " AND id IN (\(chunk.map { _ in "?" }.joined(separator: ",")))",
                                     arguments: StatementArguments(chunk), add)
        }
        let order = evidence.indices.sorted { evidence[$0].id < evidence[$1].id }
        return (order.map { evidence[$0] }, order.map { stored[$0] }, order.map { storedAs[$0] })
    }
}

extension Catalog {
    /// A bound on a key (`ResolutionWindow.key`) as the catalog keeps it as text: the camera's
    /// time without the `Z` the GPS time has; text order is time order. An instant outside
    /// years 1 to 9999 has no text, and bounds nothing (`unbounded`).
    static func keyBound(_ date: Date, _ unbounded: String, gps: Bool) -> String {
        guard let text = date.geotripISO8601 else { return unbounded }
        return gps ? text : String(text.dropLast())
    }

    /// The photos present and read whose camera time, or GPS time, lies in one of `stretches`:
    /// one search of `photo_camera_time` or `photo_gps_time` per bound pair.
    static func resolutionWindowQuery(_ stretches: some Collection<ClosedRange<Date>>) -> (sql: String, arguments: StatementArguments) {
        var terms: [String] = [], arguments: [String] = []
        for stretch in stretches {
            terms += ["localTime BETWEEN ? AND ?", "gpsTime BETWEEN ? AND ?"]
            arguments += [keyBound(stretch.lowerBound, "", gps: false), keyBound(stretch.upperBound, "~", gps: false),
                          keyBound(stretch.lowerBound, "", gps: true), keyBound(stretch.upperBound, "~", gps: true)]
        }
        return (resolutionColumnsSQL + " AND (\(terms.joined(separator: " OR ")))", StatementArguments(arguments))
    }
}

extension Catalog {
    /// What `photo_far_reaching` holds: the rows `ResolutionWindow.reachesFar` says a change can
    /// reach far off (no position of their own, or a movie header's time).
    static let farReachingCondition = "(latitude IS NULL OR timeField = 'QuickTime:CreateDate')"

    /// The photos present and read that a change can reach far off whose key may lie in one of
    /// `stretches` (camera time in one, or no camera time), with what decides whether it does
    /// (`UTCReach.reaches`): from `photo_far_reaching`, without reading another row.
    func farReachingPhotos(keysIn stretches: [ClosedRange<Date>]) throws(GeoTripError) -> [FarReachingPhoto] {
        var photos: [FarReachingPhoto] = []
        func add(_ row: Row) {
            photos.append(FarReachingPhoto(id: row[0], key: ResolutionWindow.key(localTime: row[1], gpsTime: row[2]),
                                           utc: UTCTimestamp.date(row[3] as String?), timeSource: row[4], isMovieTime: row[5]))
        }
        try attempt {
            try database.read { db in
                for chunk in stretches.chunked(100) {
                    let query = Self.farReachingQuery(chunk)
                    for row in try Row.fetchAll(db, sql: query.sql, arguments: query.arguments) { add(row) }
                }
                // Keyed by GPS time: few, and all of them.
                for row in try Row.fetchAll(db, sql: Self.farReachingByGPSTimeSQL) { add(row) }
            }
        }
        return photos
    }

    static let farReachingColumnsSQL = """
        SELECT id, localTime, gpsTime, utcTime, timeSource, timeField IS 'QuickTime:CreateDate' FROM photo
            WHERE \(farReachingCondition) AND removedAt IS NULL AND status = 'read'
        """

    /// `farReachingColumnsSQL` over the photos keyed by their GPS time (no camera time).
    static let farReachingByGPSTimeSQL = farReachingColumnsSQL + " AND localTime IS NULL AND gpsTime IS NOT NULL"

    /// `farReachingColumnsSQL` over the photos whose camera time lies in one of `stretches`.
    static func farReachingQuery(_ stretches: some Collection<ClosedRange<Date>>) -> (sql: String, arguments: StatementArguments) {
        let terms = stretches.map { _ in "localTime BETWEEN ? AND ?" }
        let arguments = stretches.flatMap { [keyBound($0.lowerBound, "", gps: false), keyBound($0.upperBound, "~", gps: false)] }
        return (farReachingColumnsSQL + " AND (\(terms.joined(separator: " OR ")))", StatementArguments(arguments))
    }
}

/// A photo a change can reach far off (`Catalog.farReachingPhotos`).
struct FarReachingPhoto: Equatable {
    var id: Int64
    var key: Date?
    var utc: Date?
    var timeSource: String?
    var isMovieTime: Bool
}

/// A photo whose resolution may have changed since the last one.
struct PendingResolution: Equatable {
    var id: Int64
    /// Its key (`ResolutionWindow.key`) when it was last resolved, and now (nil when it has
    /// none, or is no longer present).
    var before: Date?
    var after: Date?
    /// Whether it was among the photos the last resolution counted, and with which sources.
    var counted: Bool
    var timeSource: String?
    var locationSource: String?
    /// The UTC it was resolved to then, when it had one and its row kept it (rows listed
    /// before `v19-resolution-two-axes` did not).
    var utcBefore: Date? = nil
}

/// The resolution summary's counts over the whole folder, kept so a run that resolves a
/// stretch of it can say them without reading the rest.
struct ResolutionCounts: Codable, Equatable {
    var timeSources: [String: Int] = [:]
    var locationSources: [String: Int] = [:]

    /// Adds `other`'s counts (some may be negative: what a change took away).
    mutating func add(_ other: ResolutionCounts) {
        for (source, count) in other.timeSources {
            timeSources[source, default: 0] += count
            if timeSources[source] == 0 { timeSources[source] = nil }
        }
        for (source, count) in other.locationSources {
            locationSources[source, default: 0] += count
            if locationSources[source] == 0 { locationSources[source] = nil }
        }
    }

    /// Counts a photo's sources (`sign` -1 takes them away).
    mutating func count(timeSource: String, locationSource: String?, _ sign: Int = 1) {
        timeSources[timeSource, default: 0] += sign
        if timeSources[timeSource] == 0 { timeSources[timeSource] = nil }
        if let locationSource {
            locationSources[locationSource, default: 0] += sign
            if locationSources[locationSource] == 0 { locationSources[locationSource] = nil }
        }
    }
}

/// A photo's resolution in the form its row keeps it: the seven values `storeResolved` writes,
/// instants as their text and positions as resolution rounded them (to 1e-7°), compared as the
/// `UPDATE`'s `IS` compares them. A
/// stretch's rerun (`TripDerivation.resolveStretch`) sends the catalog only the photos whose
/// values differ from their rows': comparing a hundred thousand photos in the catalog's
/// `UPDATE` cost more than resolving them (issue 15's 300 photos edited).
struct ResolutionRow: Equatable {
    /// `utcTime`: the instant as `geotripISO8601` writes it.
    var utc: String?
    /// `timeZone`.
    var zone: String?
    /// `timeSource`'s raw value; "" for a row never resolved.
    var timeSource: String
    /// `resolvedLatitude` and `resolvedLongitude`.
    var latitude: Double?
    var longitude: Double?
    /// `locationSource`'s raw value.
    var locationSource: String?
    /// Only with a position.
    var uncertaintyMeters: Double?
    /// `wallTime`: the camera's clock as corrected, when the correction moved it and it gives
    /// the photo's day (`ResolvedPhoto.wallTime`).
    var wallTime: String?

    /// What `storeResolved` writes for `photo`.
    init(_ photo: ResolvedPhoto) {
        utc = photo.utc?.geotripISO8601
        zone = photo.zone
        timeSource = photo.timeSource.rawValue
        latitude = photo.coordinate?.latitude
        longitude = photo.coordinate?.longitude
        locationSource = photo.locationSource?.rawValue
        uncertaintyMeters = photo.coordinate == nil ? nil : photo.uncertaintyMeters
        wallTime = photo.wallTime
    }

    /// What a row of `resolutionColumnsSQL` holds. A row never resolved has no time source
    /// (NULL), which no result equals.
    init(row: Row) {
        utc = row[3]
        zone = row[4]
        timeSource = row[5] ?? ""
        latitude = row[6]
        longitude = row[7]
        locationSource = row[8]
        uncertaintyMeters = row[9]
        wallTime = row[11]
    }
}
