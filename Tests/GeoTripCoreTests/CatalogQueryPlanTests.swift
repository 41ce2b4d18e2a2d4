import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The plans SQLite makes for the catalog's hot queries, read with `EXPLAIN QUERY PLAN`: at a
/// million photos a query that scans or sorts the photo table where it meant to look one thing up
/// costs seconds. The plans come from the schema alone (a catalog has no `sqlite_stat1`), so a
/// small catalog shows the plan a large one gets.
@Suite("Catalog query plans")
struct CatalogQueryPlanTests {
    /// A migrated catalog with a few photos, a place and a visit.
    func catalog(in temp: TemporaryFolder) throws -> Catalog {
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        let records = (0..<20).map { index in
            PhotoRecord(file: ScannedFile(relativePath: "\(index).jpg", size: 1, modifiedNanos: Int64(index)),
                        reading: FileReading(status: .read, format: .jpeg, metadata: PhotoMetadata(), skipReason: nil, fingerprint: "\(index)"))
        }
        try catalog.save(new: records, updated: [])
        return catalog
    }

    /// The plan's lines (`detail` of each row).
    func plan(_ catalog: Catalog, _ sql: String, _ arguments: StatementArguments = []) throws -> [String] {
        try catalog.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    func plan(_ catalog: Catalog, _ request: QueryInterfaceRequest<PhotoRecord>) throws -> [String] {
        let (sql, arguments) = try catalog.database.read { db in
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            return (statement.sql, statement.arguments)
        }
        return try plan(catalog, sql, arguments)
    }

    @Test("a photo is found by its path through the index of present paths")
    func photoAtPath() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.photoAtPathSQL, ["3.jpg", "read"])
        #expect(plan == ["SEARCH photo USING INDEX photo_present_path (path=?)"])
    }

    @Test("a trip's videos are counted from its visits' and paths' own rows, never by a walk over every video")
    func videosAmongATripsMedia() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.videosAmongSQL, [#"["v1","v2"]"#, #"["a.mov"]"#])
        #expect(plan.contains("SEARCH vp USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"), "\(plan)")
        #expect(plan.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
        #expect(plan.contains("SEARCH p USING INDEX photo_present_path (path=?)"), "\(plan)")
        #expect(!plan.contains { $0.contains("photo_present_format") || $0.hasPrefix("SCAN p") || $0.hasPrefix("SCAN photo") }, "\(plan)")
    }

    @Test("a visit's photos are counted from visitPhoto's index on visitId; a place's name is found by placeName's key")
    func visitCountsAndNames() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        let recount = try plan(catalog, Catalog.recountVisitSQL, ["v1"])
        #expect(recount.contains("SEARCH visit USING INDEX sqlite_autoindex_visit_1 (id=?)"), "\(recount)")
        #expect(recount.contains("SEARCH visitPhoto USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"), "\(recount)")
        let names = try plan(catalog, Catalog.placesNamedElsewhereSQL, ["offline", ""])
        #expect(names.contains { $0.hasPrefix("SEARCH name USING INDEX sqlite_autoindex_placeName_1 (placeId=? AND source=? AND language=?)") }, "\(names)")
        #expect(!names.contains { $0.contains("TEMP B-TREE") }, "\(names)")
    }

    @Test("the Live Photo pairing finds the videos through photo_present_format, not a pass over every photo")
    func presentVideos() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.presentVideosSQL)
        #expect(plan == ["SEARCH photo USING INDEX photo_present_format (format=?)"])
    }

    @Test("a change's Live Photo group is found by stem and identifier through their indexes, without a pass over every photo")
    func livePhotoGroup() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        for sql in [Catalog.livePhotoGroupByStemSQL, Catalog.videoStemKeysAmongSQL] {
            let steps = try plan(catalog, sql, ["[1,2]"])
            #expect(steps.contains { $0.hasPrefix("SEARCH photo USING INDEX photo_stem_key (stemKey=?") }, "\(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN photo") }, "\(steps)")
        }
        for sql in [Catalog.livePhotoGroupByIdentifierSQL, Catalog.videoIdentifiersAmongSQL] {
            let steps = try plan(catalog, sql, ["[\"A\"]"])
            #expect(steps.contains { $0.hasPrefix("SEARCH photo USING INDEX photo_content_identifier (contentIdentifier=?)") }, "\(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN photo") }, "\(steps)")
        }
        let former = try plan(catalog, Catalog.formerSeedsSQL, ["[1,2]"])
        #expect(former.contains { $0.hasPrefix("SEARCH photo USING INTEGER PRIMARY KEY (rowid=?)") }, "\(former)")
        #expect(former.contains { $0.hasPrefix("SEARCH photo USING INDEX photo_live_still (liveStillId=?)") }, "\(former)")
        #expect(!former.contains { $0.hasPrefix("SCAN photo") }, "\(former)")
    }

    @Test("`photos` lists in path order from the index, with nothing to sort")
    func photosByPath() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.presentPhotosByPath)
        #expect(plan == ["SCAN photo USING INDEX photo_present_path"])
    }

    @Test("the visits' photos in time order (`places`, the journal) come from photo_time, with nothing to sort")
    func visitPhotosInTimeOrder() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // The query of `Catalog.visits()` (Catalog+Trip.swift).
        let plan = try plan(try catalog(in: temp), """
            SELECT vp.visitId, p.path FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId ORDER BY p.utcTime, p.path
            """)
        #expect(plan.contains("SCAN p USING COVERING INDEX photo_time"))
        #expect(!plan.contains { $0.contains("TEMP B-TREE") })
    }

    @Test("a place's visits and its names are looked up by place id")
    func byPlace() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        #expect(try plan(catalog, "SELECT id FROM visit WHERE placeId = ?", ["p1"]) == ["SEARCH visit USING INDEX visit_on_placeId (placeId=?)"])
        // Every place's best name (`Catalog.visits()`, `overview()`): one pass in place order
        // through the primary key, sorting only each place's few names.
        let names = try plan(catalog, Catalog.bestNamesSQL, ["en"])
        #expect(names.first == "SCAN n USING INDEX sqlite_autoindex_placeName_1")
        // An online name's place (its centre, for how far the name was made from it) by its key.
        #expect(names.contains { $0.hasPrefix("SEARCH p USING") && $0.hasSuffix("(id=?)") } && !names.contains { $0.hasPrefix("SCAN p") }, "\(names)")
        #expect(names.contains("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"))
    }

    @Test("a library trip's photos, and whether they changed, are found by their window of time, not a pass over every photo")
    func tripWindow() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        let window = MomentWindow(start: "2024-01-01", end: "2024-01-09")
        // `Catalog.photoChanges(in:)`: the window's rows, and the Live Photo videos of its stills,
        // each from two searches of the index alone (no row read, so no `MULTI-INDEX OR`).
        let both = ["SEARCH p USING COVERING INDEX photo_moment (utcTime>? AND utcTime<?)",
                    "SEARCH p USING COVERING INDEX photo_moment (utcTime=? AND localTime>? AND localTime<?)"]
        let bounds: StatementArguments = [window.start, window.end]
        let changes = try plan(catalog, Catalog.photoChangesSQL, bounds)
        #expect(changes.filter { $0.hasPrefix("SEARCH") } == both.map { $0.replacingOccurrences(of: "SEARCH p", with: "SEARCH photo") })
        #expect(!changes.contains { $0.contains("MULTI-INDEX") })
        let videos = try plan(catalog, Catalog.livePhotoChangesSQL, bounds)
        #expect(videos.filter { $0.hasPrefix("SEARCH s") } == both.map { $0.replacingOccurrences(of: "SEARCH p", with: "SEARCH s") })
        #expect(videos.filter { $0 == "SEARCH p USING INDEX photo_live_still (liveStillId=?)" }.count == 2)
        // `Catalog.tripPhotos(in:)` and `photosOutsideVisits(rule:in:)`.
        let photos = try plan(catalog, "SELECT \(Catalog.tripPhotoColumns) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id WHERE "
                              + window.condition("p"), window.arguments)
        #expect(photos.filter { $0.hasPrefix("SEARCH p") } == both.map { $0.replacingOccurrences(of: "COVERING ", with: "") })
        #expect(!photos.contains { $0.hasPrefix("SCAN") })
    }

    @Test("a library trip's days are told apart by their visits' photos and the photos of the window outside visits, searched, never a pass over every photo")
    func tripDayState() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        let window = MomentWindow(start: "2024-01-01", end: "2024-01-09")
        // `Catalog.dayPhotoState`: the photos outside visits in the window, from photo_moment
        // (a join grouped by photo made SQLite walk the table in id order for every trip).
        let unplaced = try plan(catalog, Catalog.unplacedStampsSQL + " AND " + window.condition("p"), window.arguments)
        #expect(unplaced.contains("SEARCH p USING INDEX photo_moment (utcTime>? AND utcTime<?)"), "\(unplaced)")
        #expect(unplaced.filter { $0 == "SEARCH v USING INDEX photo_live_still (liveStillId=?)" }.count == 2, "\(unplaced)")
        let visits = try plan(catalog, Catalog.visitStampsSQL, ["[\"v1\"]"])
        #expect(visits.contains("SEARCH vp USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"), "\(visits)")
        #expect(visits.contains("SEARCH v USING INDEX photo_live_still (liveStillId=?) LEFT-JOIN"), "\(visits)")
        // `Catalog.tripPhotos(ofVisits:ids:)` and `photoIDs(ofVisits:)`: the days rendered.
        let ofVisits = try plan(catalog, Catalog.visitsPhotosSQL, ["[\"v1\"]"])
        #expect(ofVisits.contains("SEARCH vp USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"), "\(ofVisits)")
        #expect(try plan(catalog, Catalog.photosByIDSQL, ["[1]"]).contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"))
        #expect(try plan(catalog, Catalog.livePhotoVideosOfSQL, ["[1]"]).contains("SEARCH p USING INDEX photo_live_still (liveStillId=?)"))
        #expect(try plan(catalog, Catalog.visitsPhotoIDsSQL, ["[\"v1\"]"]).contains("SEARCH visitPhoto USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"))
        #expect(try plan(catalog, Catalog.stillIDsSQL, ["[1]"]).contains("SEARCH photo USING INTEGER PRIMARY KEY (rowid=?)"))
        // `Catalog.shared`: the photos of the visits near a zone, and the strays, by their own index.
        #expect(try plan(catalog, Catalog.sharingMembersSQL, ["[\"v1\"]"]).contains("SEARCH vp USING INDEX visitPhoto_on_visitId (visitId=?)"))
        let strays = try plan(catalog, Catalog.straysSQL, [])
        #expect(strays.contains("SCAN vp USING INDEX visitPhoto_strays") && strays.contains("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)"), "\(strays)")
        for sql in [Catalog.unplacedStampsSQL + " AND " + window.condition("p"), Catalog.visitStampsSQL, Catalog.visitsPhotosSQL,
                    Catalog.photosByIDSQL, Catalog.livePhotoVideosOfSQL, Catalog.visitsPhotoIDsSQL, Catalog.stillIDsSQL, Catalog.sharingMembersSQL] {
            let steps = try plan(catalog, sql, sql.contains("utcTime >=") ? window.arguments : ["[1]"])
            #expect(!steps.contains { $0.hasPrefix("SCAN p") || $0.hasPrefix("SCAN photo") || $0.hasPrefix("SCAN visitPhoto") }, "\(steps)")
        }
    }

    @Test("whether the photos changed since the last export is read by key, without a pass over them")
    func exportSourceState() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.photoSourceStateSQL)
        #expect(plan.contains("SEARCH photoCounts USING INTEGER PRIMARY KEY (rowid=?)"), "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }

    @Test("the journal's undated photos are read through their partial index, not a pass over every photo")
    func undatedPhotos() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plan = try plan(try catalog(in: temp), Catalog.undatedPhotosSQL, ["1826-01-01T00:00:00", "2026-11-26T00:00:00"])
        #expect(plan.first == "SCAN p USING INDEX photo_undated", "\(plan)")
        #expect(plan.filter { $0.hasPrefix("SCAN") || $0.hasPrefix("SEARCH p") }.count == 1, "\(plan)")
    }

    @Test("a rerun's resolution finds the photos of its window by camera or GPS time, and those reached far off by their partial indexes, without a pass over every photo")
    func resolutionWindow() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        let day = Date(timeIntervalSince1970: 1_750_000_000)
        let query = Catalog.resolutionWindowQuery([day...day.addingTimeInterval(86_400), day.addingTimeInterval(9 * 86_400)...day.addingTimeInterval(10 * 86_400)])
        let window = try plan(catalog, query.sql, query.arguments)
        #expect(window.filter { $0.contains("INDEX photo_camera_time (localTime>? AND localTime<?)") }.count == 2)
        #expect(window.filter { $0.contains("INDEX photo_gps_time (gpsTime>? AND gpsTime<?)") }.count == 2)
        #expect(!window.contains { $0.hasPrefix("SCAN") })
        // The partial index holds only those videos: its scan reads nothing else.
        #expect(try plan(catalog, Catalog.movieHeaderTimesSQL).contains("SCAN photo USING INDEX photo_movie_time"))
        // The second step's photos (no position of their own, or a movie header's time) by
        // camera time from their partial index, which holds nothing else.
        let far = Catalog.farReachingQuery([day...day.addingTimeInterval(86_400), day.addingTimeInterval(9 * 86_400)...day.addingTimeInterval(10 * 86_400)])
        let farPlan = try plan(catalog, far.sql, far.arguments)
        #expect(farPlan.filter { $0.contains("INDEX photo_far_reaching (localTime>? AND localTime<?)") }.count == 2, "\(farPlan)")
        #expect(!farPlan.contains { $0.hasPrefix("SCAN") }, "\(farPlan)")
        let unkeyed = try plan(catalog, Catalog.farReachingByGPSTimeSQL)
        #expect(unkeyed.contains { $0.contains("INDEX photo_far_reaching (localTime=?)") }, "\(unkeyed)")
    }

    @Test("the far-reaching photos are found by camera time around the changes: only those without a position, the movie-header videos, and the GPS-timed")
    func farReachingByCameraTime() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        // Ten days of a photo an hour, every other one without a position; a video with a
        // position and only its movie header's time each noon; a photo with a GPS time and no
        // camera time; one with no time at all.
        var records: [PhotoRecord] = []
        func add(_ name: String, _ metadata: PhotoMetadata, format: ImageFormat = .jpeg) {
            records.append(PhotoRecord(file: ScannedFile(relativePath: name, size: 1, modifiedNanos: Int64(records.count)),
                                       reading: FileReading(status: .read, format: format, metadata: metadata, skipReason: nil, fingerprint: name)))
        }
        for day in 1...10 {
            for hour in 0..<24 {
                var metadata = PhotoMetadata()
                metadata.localTime = LocalDateTime(iso8601: String(format: "2024-05-%02dT%02d:00:00", day, hour))
                metadata.timeField = .dateTimeOriginal
                if hour % 2 == 0 { metadata.coordinate = Coordinate(latitude: 38.7, longitude: -9.1) }
                add(String(format: "%02d-%02d.jpg", day, hour), metadata)
            }
            var video = PhotoMetadata()
            video.localTime = LocalDateTime(iso8601: String(format: "2024-05-%02dT12:30:00", day))
            video.timeField = .quickTimeCreateDate
            video.coordinate = Coordinate(latitude: 38.7, longitude: -9.1)
            add(String(format: "%02d.mov", day), video, format: .video)
        }
        var gpsOnly = PhotoMetadata()
        gpsOnly.gpsTime = UTCTimestamp(iso8601: "2024-05-20T08:00:00Z")
        add("gps-only.jpg", gpsOnly)
        add("no-time.jpg", PhotoMetadata())
        try catalog.save(new: records, updated: [])

        let from = try #require(LocalDateTime(iso8601: "2024-05-03T10:00:00")).readAsUTC
        let found = try catalog.farReachingPhotos(keysIn: [from...from.addingTimeInterval(4 * 3600)])
        let paths = try catalog.database.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, path FROM photo").map { ($0[0] as Int64, $0[1] as String) })
        }
        #expect(Set(found.compactMap { paths[$0.id] }) == ["03-11.jpg", "03-13.jpg", "03.mov", "gps-only.jpg"])
        #expect(found.first { paths[$0.id] == "03.mov" }?.isMovieTime == true)
        #expect(found.first { paths[$0.id] == "gps-only.jpg" }?.key == UTCTimestamp.date("2024-05-20T08:00:00Z"))
    }

    @Test("a change's clustering walks the timeline through photo_time, and finds visits by arrival and by position, without a pass over photos or visits")
    func clusteringNeighbourhood() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        let time = "2025-06-10T08:00:00Z"
        // Either index led by utcTime serves (photo_time or photo_moment): a search, in its order.
        func byTime(_ plan: [String], _ range: String) -> Bool {
            plan.count == 1 && plan[0].hasPrefix("SEARCH photo USING INDEX photo_") && plan[0].hasSuffix("(\(range))")
        }
        #expect(byTime(try plan(catalog, Catalog.timelineBeforeSQL, [time]), "utcTime<?"))
        #expect(byTime(try plan(catalog, Catalog.timelineAfterSQL, [time]), "utcTime>?"))
        #expect(byTime(try plan(catalog, Catalog.photosBetweenSQL, [time, time]), "utcTime>? AND utcTime<?"))
        #expect(try plan(catalog, Catalog.visitsArrivingSQL, [time, time]) == ["SEARCH visit USING INDEX visit_arrival (arrival>? AND arrival<?)"])
        let near = try plan(catalog, Catalog.visitsNearSQL, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        #expect(near == ["SEARCH visit USING COVERING INDEX visit_position (unitX>? AND unitX<?)"])
        let members = try plan(catalog, Catalog.visitMembersSQL(count: 3), ["v1", "v2", "v3"])
        #expect(members == ["SEARCH visitPhoto USING COVERING INDEX visitPhoto_on_visitId (visitId=?)"], "\(members)")
    }

    @Test("the passes that read every photo go once through the table in its own order, never sorting it")
    func wholeTablePasses() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try catalog(in: temp)
        // The plan's comparison with the scan and the resolution's read: each reads nearly every
        // row, where an index would add a lookup per row.
        #expect(try plan(catalog, Catalog.fileStreamSQL) == ["SCAN photo"])
        #expect(try plan(catalog, Catalog.resolutionSQL) == ["SCAN photo"])
    }
}
