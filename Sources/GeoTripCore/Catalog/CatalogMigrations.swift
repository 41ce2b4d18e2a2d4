import GRDB

/// The catalog's schema, as named, append-only migrations. A migration is never edited once
/// it has landed: a change is a new migration (GRDB's Migrations guide). Tests keep a catalog
/// made by each released schema and check that it migrates.
enum CatalogMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-photos") { db in
            try db.create(table: "photo") { t in
                t.autoIncrementedPrimaryKey("id")
                // Unique among present files only (index below): a removed file keeps its row,
                // and its old path may be taken by another photo.
                t.column("path", .text).notNull()
                t.column("fileSize", .integer).notNull()
                t.column("modifiedNanos", .integer).notNull()
                t.column("fingerprint", .text).notNull().indexed()
                t.column("status", .text).notNull()
                    .check { ["read", "unreadable", "skipped"].contains($0) }
                t.column("format", .text)
                t.column("skipReason", .text)
                t.column("latitude", .double).check { $0 == nil || ($0 >= -90 && $0 <= 90) }
                t.column("longitude", .double).check { $0 == nil || ($0 >= -180 && $0 <= 180) }
                t.column("altitude", .double)
                t.column("gpsTime", .text)
                t.column("localTime", .text)
                t.column("utcOffset", .text)
                t.column("timeField", .text)
                t.column("make", .text)
                t.column("model", .text)
                t.column("orientation", .integer)
                t.column("width", .integer)
                t.column("height", .integer)
                t.column("thumbnailOffset", .integer)
                t.column("thumbnailLength", .integer)
                t.column("diagnostics", .jsonText).notNull().defaults(to: "[]")
                // Which MetadataReader.version read the file; older readings are read again.
                t.column("readerVersion", .integer).notNull()
                t.column("removedAt", .text)
                t.check(sql: "(latitude IS NULL) = (longitude IS NULL)")
            }
            try db.create(index: "photo_present_path", on: "photo", columns: ["path"], options: .unique,
                          condition: Column("removedAt") == nil)
            try db.create(index: "photo_path", on: "photo", columns: ["path"])
        }
        migrator.registerMigration("v2-resolution") { db in
            // What the time and location stage decided, beside what the photo said.
            try db.alter(table: "photo") { t in
                t.add(column: "utcTime", .text)
                t.add(column: "timeZone", .text)
                t.add(column: "timeSource", .text)
                t.add(column: "resolvedLatitude", .double)
                t.add(column: "resolvedLongitude", .double)
                t.add(column: "locationSource", .text)
                t.add(column: "uncertaintyMeters", .double)
            }
            // The person's own positions: never overwritten by anything geotrip infers.
            try db.create(table: "manualTag") { t in
                t.primaryKey("photoId", .integer).references("photo", onDelete: .cascade)
                t.column("latitude", .double).notNull().check { $0 >= -90 && $0 <= 90 }
                t.column("longitude", .double).notNull().check { $0 >= -180 && $0 <= 180 }
                t.column("place", .text)
                t.column("uncertaintyMeters", .double).notNull()
                t.column("taggedAt", .text).notNull()
            }
            // Options remembered for the trip (--tz, --clock-offset, --track) and bookkeeping.
            try db.create(table: "tripSetting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v3-visits") { db in
            // Visits and places are derived, rebuilt whenever photos or positions change; their
            // ids are carried over from the last run by StableIdentity, so notes can hang on them.
            try db.create(table: "place") { t in
                t.primaryKey("id", .text)
                t.column("revision", .integer).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("start", .text).notNull()
                t.column("name", .text)
                t.column("admin1", .text)
                t.column("country", .text)
                t.column("countryCode", .text)
                t.column("nameSource", .text)
            }
            try db.create(table: "visit") { t in
                t.primaryKey("id", .text)
                t.column("placeId", .text).notNull().references("place", onDelete: .cascade)
                t.column("revision", .integer).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("radiusMeters", .double).notNull()
                t.column("arrival", .text).notNull()
                t.column("departure", .text).notNull()
                t.column("localDate", .text).notNull()
            }
            try db.create(table: "visitPhoto") { t in
                t.primaryKey("photoId", .integer).references("photo", onDelete: .cascade)
                t.column("visitId", .text).notNull().indexed().references("visit", onDelete: .cascade)
            }
        }
        migrator.registerMigration("v4-visit-zone") { db in
            // The clock of each visit, so `places` shows the local times a traveller remembers.
            try db.alter(table: "visit") { t in t.add(column: "timeZone", .text) }
        }
        migrator.registerMigration("v5-place-names") { db in
            // Names live apart from the place rows that clustering rewrites, keyed by place id,
            // with what they were made for (revision, centre) and where they came from, so a
            // recluster never wipes a name and a name made for an older state is detectable.
            try db.create(table: "placeName") { t in
                t.column("placeId", .text).notNull()
                t.column("source", .text).notNull().check { ["offline", "nominatim", "manual"].contains($0) }
                // BCP 47 language of the name; "" for the gazetteer's, which has one name per place.
                t.column("language", .text).notNull()
                t.column("revision", .integer).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("name", .text)
                t.column("admin1", .text)
                t.column("country", .text)
                t.column("countryCode", .text)
                t.column("namedAt", .text).notNull()
                t.primaryKey(["placeId", "source", "language"])
            }
            try db.execute(sql: """
                INSERT INTO placeName (placeId, source, language, revision, latitude, longitude, name, admin1, country, countryCode, namedAt)
                SELECT id, coalesce(nameSource, 'offline'), '', revision, latitude, longitude, name, admin1, country, countryCode, start
                FROM place WHERE name IS NOT NULL OR country IS NOT NULL
                """)
            // The last revision of every visit and place id ever given, retired ones included,
            // so an id that comes back continues from it.
            try db.create(table: "clusterRevision") { t in
                t.primaryKey("id", .text)
                t.column("revision", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO clusterRevision (id, revision) SELECT id, revision FROM place UNION ALL SELECT id, revision FROM visit")
            for column in ["name", "admin1", "country", "countryCode", "nameSource"] {
                try db.execute(sql: "ALTER TABLE place DROP COLUMN \(column)")
            }
            // The trip's days, including those with only unplaced photos, for the overview.
            try db.create(table: "tripDay") { t in
                t.primaryKey("localDate", .text)
            }
            // geotrip's mark (Catalog.applicationID), so another program's database is never
            // taken for a catalog; set here for new catalogs and older ones alike.
            try db.execute(sql: "PRAGMA application_id = \(Catalog.applicationID)")
        }
        migrator.registerMigration("v6-journal-notes") { db in
            // What the person wrote in the journal's notes blocks, by owner: a visit id (`v17`)
            // or a day (`2025-06-10`). The journal files are where notes are written; this copy
            // rebuilds a deleted file with its notes, and keeps the last place name and day of a
            // visit so that, if the visit disappears, its notes can still be shown with them.
            try db.create(table: "journalNote") { t in
                t.primaryKey("ownerId", .text)
                t.column("kind", .text).notNull().check { ["visit", "day"].contains($0) }
                t.column("text", .text).notNull()
                t.column("placeName", .text)
                t.column("localDate", .text)
                t.column("updatedAt", .text).notNull()
            }
        }
        migrator.registerMigration("v7-xmp") { db in
            // Where the photo's own position came from (EXIF or a video's QuickTime boxes, its
            // embedded XMP, another program's sidecar): NULL in rows read before, which are all
            // EXIF and are read again anyway (MetadataReader.version 2).
            try db.alter(table: "photo") { t in
                t.add(column: "positionSource", .text).check { $0 == nil || ["exif", "quicktime", "xmp", "sidecar"].contains($0) }
                // The sidecars seen beside the photo when it was read (ScannedFile.sidecarStamp),
                // so an edited sidecar makes the photo read again.
                t.add(column: "sidecars", .text)
            }
        }
        migrator.registerMigration("v8-video") { db in
            // Videos (issue 13): their length, Apple's content identifier (which a Live Photo's
            // video shares with its still), and the still a Live Photo's video belongs to. The
            // link is derived (rebuilt after every read, `Catalog.linkLivePhotos`); a removed
            // still's row stays, so the link is cleared by the next derivation, not by a cascade.
            try db.alter(table: "photo") { t in
                t.add(column: "durationSeconds", .double)
                t.add(column: "contentIdentifier", .text)
                t.add(column: "liveStillId", .integer).references("photo", onDelete: .setNull)
            }
        }
        migrator.registerMigration("v9-library-indexes") { db in
            // Indexes for a library of a million photos (issue 15), each for a query that ran
            // over the whole table or sorted it (CatalogQueryPlanTests checks the plans):
            // - the Live Photo pairing's videos, looked up after every write of the read stage
            //   (without it, a scan of the table per batch of 500: a fresh ingest of 200,000
            //   photos was quadratic);
            try db.create(index: "photo_present_format", on: "photo", columns: ["format"], condition: Column("removedAt") == nil)
            // - a place's visits: retiring a place cascades to them, and each retired place
            //   scanned every visit without this;
            try db.create(index: "visit_on_placeId", on: "visit", columns: ["placeId"])
            // - photos in time order (the visits' photos for `places`, the journal), streamed
            //   from the index instead of sorted whole, and any window of time found directly.
            try db.create(index: "photo_time", on: "photo", columns: ["utcTime", "path"])
        }
        migrator.registerMigration("v10-cluster-pending") { db in
            // The photos changed since the last clustering (read again, removed, resolved
            // differently): the clustering stage reworks only the stretches of time and the
            // places around them, and empties the table in the transaction that stores the
            // result. No foreign key: a removed photo's row must stay listed.
            try db.create(table: "clusterPending") { t in
                t.primaryKey("photoId", .integer)
            }
        }
        migrator.registerMigration("v11-photo-stamps") { db in
            // A library's export renders only the trips whose photos changed (issue 15). Each
            // photo row carries the number of the last change to it, from one counter that
            // only grows, so a window of time has changed exactly when its rows' count or
            // largest stamp differ from what the last export saw: an added row raises the count,
            // any update (a removal keeps its row, with `removedAt` set) raises the stamp. A
            // trigger sets it, so no writer of the photo table can forget to.
            try db.alter(table: "photo") { t in t.add(column: "changeStamp", .integer).notNull().defaults(to: 0) }
            try db.create(table: "photoChangeCounter") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("value", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO photoChangeCounter (id, value) VALUES (1, 0)")
            // Recursive triggers are off (SQLite's default), so the trigger's own update of the
            // row does not set it off again; the WHEN clause guards it besides.
            try db.execute(sql: """
                CREATE TRIGGER photo_change_stamp AFTER UPDATE ON photo FOR EACH ROW WHEN NEW.changeStamp IS OLD.changeStamp
                BEGIN
                    UPDATE photoChangeCounter SET value = value + 1 WHERE id = 1;
                    UPDATE photo SET changeStamp = (SELECT value FROM photoChangeCounter WHERE id = 1) WHERE id = NEW.id;
                END
                """)
            // A trip's photos are a window of capture time (`MomentWindow`): found, and summed up
            // without reading their rows, through this index. Not an index on the expression
            // `coalesce(utcTime, localTime)`: SQLite 3.40 reads the rows behind one of those.
            try db.create(index: "photo_moment", on: "photo", columns: ["utcTime", "localTime", "changeStamp"])
            // A Live Photo's video, found from its still.
            try db.create(index: "photo_live_still", on: "photo", columns: ["liveStillId"], condition: Column("liveStillId") != nil)
        }
        migrator.registerMigration("v12-resolve-pending") { db in
            // The photos whose resolution may have changed since the last one (issue 15): the
            // resolve stage reworks only the stretch of capture time around them
            // (`ResolutionReach`). Each row keeps what the photo was when last resolved: its
            // camera and GPS times (the stretch it reached then), whether it was counted in the
            // summary's sources, and which. Triggers fill it, so no writer can forget: a new row,
            // a row whose evidence or stored result changed (a read again writes the result
            // empty), a manual tag set or cleared. The first change since the last resolution
            // wins (`OR IGNORE`); resolution empties the table in the transaction that stores
            // its result. No foreign key: a removed photo's row must stay listed.
            try db.create(table: "resolvePending") { t in
                t.primaryKey("photoId", .integer)
                t.column("localTime", .text)
                t.column("gpsTime", .text)
                t.column("counted", .boolean).notNull()
                t.column("timeSource", .text)
                t.column("locationSource", .text)
            }
            let was = "OLD.localTime, OLD.gpsTime, OLD.removedAt IS NULL AND OLD.status = 'read', OLD.timeSource, OLD.locationSource"
            let watched = ["localTime", "utcOffset", "gpsTime", "make", "model", "latitude", "longitude", "positionSource", "format",
                           "timeField", "removedAt", "status", "utcTime", "timeZone", "timeSource", "resolvedLatitude",
                           "resolvedLongitude", "locationSource", "uncertaintyMeters"]
            try db.execute(sql: """
                CREATE TRIGGER photo_resolve_new AFTER INSERT ON photo FOR EACH ROW
                BEGIN
                    INSERT OR IGNORE INTO resolvePending (photoId, counted) VALUES (NEW.id, 0);
                END;
                CREATE TRIGGER photo_resolve_changed AFTER UPDATE ON photo FOR EACH ROW
                WHEN \(watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    INSERT OR IGNORE INTO resolvePending (photoId, localTime, gpsTime, counted, timeSource, locationSource)
                    VALUES (OLD.id, \(was));
                END;
                CREATE TRIGGER photo_resolve_gone AFTER DELETE ON photo FOR EACH ROW
                BEGIN
                    INSERT OR IGNORE INTO resolvePending (photoId, localTime, gpsTime, counted, timeSource, locationSource)
                    VALUES (OLD.id, \(was));
                END;
                """)
            for (name, event, row) in [("manual_tag_resolve_new", "INSERT", "NEW"), ("manual_tag_resolve_changed", "UPDATE", "NEW"),
                                       ("manual_tag_resolve_gone", "DELETE", "OLD")] {
                try db.execute(sql: """
                    CREATE TRIGGER \(name) AFTER \(event) ON manualTag FOR EACH ROW
                    BEGIN
                        INSERT OR IGNORE INTO resolvePending (photoId, localTime, gpsTime, counted, timeSource, locationSource)
                        SELECT id, localTime, gpsTime, removedAt IS NULL AND status = 'read', timeSource, locationSource
                        FROM photo WHERE id = \(row).photoId;
                    END
                    """)
            }
            // The stretch around the changes is found by camera time (or GPS time, for a photo
            // with no camera time): `ResolutionWindow`.
            try db.create(index: "photo_camera_time", on: "photo", columns: ["localTime"], condition: Column("localTime") != nil)
            try db.create(index: "photo_gps_time", on: "photo", columns: ["gpsTime"], condition: Column("gpsTime") != nil)
            // Videos whose only time is the movie header's: their cameras are judged over the
            // whole library (`VideoClock`), so while there are any, resolution is a full pass.
            try db.execute(sql: "CREATE INDEX photo_movie_time ON photo (id) WHERE timeField = 'QuickTime:CreateDate'")
        }
        migrator.registerMigration("v13-local-clustering") { db in
            // A change to a library reads only the visits and photos around it (issue 15):
            // - each photo's day, kept by clustering for the photos it looks at, and the trip's
            //   days counted from them, so a day is added or dropped without reading every photo
            //   (the clustering rules' key changes with this, so the next run fills both);
            try db.create(table: "photoDay") { t in
                t.primaryKey("photoId", .integer)
                t.column("localDate", .text).notNull()
            }
            // The days are kept until that run (`places`, `trips` and `rename` read them), with
            // no count: the full pass counts every day again.
            try db.rename(table: "tripDay", to: "tripDayBefore")
            try db.create(table: "tripDay") { t in
                t.primaryKey("localDate", .text)
                t.column("photos", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO tripDay (localDate, photos) SELECT localDate, 0 FROM tripDayBefore")
            try db.drop(table: "tripDayBefore")
            // - the visits near a point, through their centres' points on the unit sphere (no
            //   seam at the antimeridian or the poles): the places around a change;
            try db.alter(table: "visit") { t in
                t.add(column: "unitX", .double)
                t.add(column: "unitY", .double)
                t.add(column: "unitZ", .double)
            }
            let update = try db.makeStatement(sql: "UPDATE visit SET unitX = ?, unitY = ?, unitZ = ? WHERE id = ?")
            for row in try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM visit") {
                let (x, y, z) = VisitRecord.unit(row[1], row[2])
                try update.execute(arguments: [x, y, z, row[0] as String])
            }
            try db.create(index: "visit_position", on: "visit", columns: ["unitX", "unitY", "unitZ"])
            // - the visits that begin in a stretch of time;
            try db.create(index: "visit_arrival", on: "visit", columns: ["arrival"])
            // - photos whose day may change without their resolution changing, listed for
            //   clustering: a new photo that resolves to nothing (its camera's clock still gives
            //   it a day), a row deleted outright (none is today: a removal keeps its row), and
            //   a Live Photo's video when its still is linked (it leaves clustering and the
            //   days) or unlinked (it joins them).
            try db.execute(sql: """
                CREATE TRIGGER photo_cluster_new AFTER INSERT ON photo FOR EACH ROW
                BEGIN
                    INSERT OR IGNORE INTO clusterPending (photoId) VALUES (NEW.id);
                END;
                CREATE TRIGGER photo_cluster_gone AFTER DELETE ON photo FOR EACH ROW
                BEGIN
                    INSERT OR IGNORE INTO clusterPending (photoId) VALUES (OLD.id);
                END;
                CREATE TRIGGER photo_live_link_cluster AFTER UPDATE OF liveStillId ON photo FOR EACH ROW
                WHEN OLD.liveStillId IS NOT NEW.liveStillId
                BEGIN
                    INSERT OR IGNORE INTO clusterPending (photoId) VALUES (NEW.id);
                END
                """)
        }
        migrator.registerMigration("v14-photo-counts") { db in
            // The summary's file counts, kept by triggers on every write of the photo table:
            // counting them after each change was a pass over a library's every row (0.9 s at a
            // million photos). Each trigger takes away what the old row counted (when present)
            // and adds what the new one counts; the terms are 0 or 1 (`Catalog.countTerms`).
            let counts = try Catalog.countPhotos(db)
            try db.create(table: "photoCounts") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                for column in Catalog.countTerms("NEW").map(\.column) { t.column(column, .integer).notNull() }
            }
            try db.execute(sql: "INSERT INTO photoCounts VALUES (1, ?, ?, ?, ?, ?, ?)",
                           arguments: [counts.withGPS, counts.withoutGPS, counts.unreadable, counts.skipped, counts.videos, counts.livePhotoVideos])
            try db.execute(sql: "DELETE FROM tripSetting WHERE key = 'fileCounts'")
            // Each term is 0 or 1: status is never NULL, the other tests are `IS` tests.
            let (old, new) = (Catalog.countTerms("OLD"), Catalog.countTerms("NEW"))
            func counted(_ row: String, _ term: String) -> String { "(\(row).removedAt IS NULL AND \(term))" }
            let added = new.map { "\($0.column) = \($0.column) + \(counted("NEW", $0.term))" }
            let taken = old.map { "\($0.column) = \($0.column) - \(counted("OLD", $0.term))" }
            let moved = zip(old, new).map { "\($1.column) = \($1.column) - \(counted("OLD", $0.term)) + \(counted("NEW", $1.term))" }
            let watched = ["removedAt", "status", "latitude", "format", "liveStillId"]
            try db.execute(sql: """
                CREATE TRIGGER photo_count_new AFTER INSERT ON photo FOR EACH ROW
                BEGIN
                    UPDATE photoCounts SET \(added.joined(separator: ", ")) WHERE id = 1;
                END;
                CREATE TRIGGER photo_count_gone AFTER DELETE ON photo FOR EACH ROW
                BEGIN
                    UPDATE photoCounts SET \(taken.joined(separator: ", ")) WHERE id = 1;
                END;
                CREATE TRIGGER photo_count_changed AFTER UPDATE OF \(watched.joined(separator: ", ")) ON photo FOR EACH ROW
                WHEN \(watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    UPDATE photoCounts SET \(moved.joined(separator: ", ")) WHERE id = 1;
                END;
                """)
        }
        migrator.registerMigration("v15-cluster-pending-triggers") { db in
            // The photos changed since the last clustering are listed by triggers alone, as
            // those for resolution are, so no writer can forget: every change to what
            // clustering reads of a photo (its resolved time, zone, camera time, position and
            // uncertainty, its Live Photo link, whether it is present and read). The read
            // stage and resolution listed the rows they wrote, and v13 added triggers for the
            // cases they missed; this one trigger replaces both.
            let watched = ["utcTime", "timeZone", "localTime", "resolvedLatitude", "resolvedLongitude", "uncertaintyMeters",
                           "liveStillId", "removedAt", "status"]
            try db.execute(sql: """
                DROP TRIGGER photo_live_link_cluster;
                CREATE TRIGGER photo_cluster_changed AFTER UPDATE ON photo FOR EACH ROW
                WHEN \(watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    INSERT OR IGNORE INTO clusterPending (photoId) VALUES (NEW.id);
                END;
                """)
        }
        migrator.registerMigration("v16-no-fingerprint-index") { db in
            // No query looks photos up by fingerprint: the read plan matches moved files in
            // memory, over the rows it loads anyway. The index only cost its upkeep, and that is
            // not small: a fingerprint is a hash, so each new row went to a random page of it,
            // the one index of the photo table without locality (issue 15's fresh ingest).
            try db.execute(sql: "DROP INDEX photo_on_fingerprint")
        }
        migrator.registerMigration("v17-visit-photo-counts") { db in
            // Each visit's number of photos, kept by `saveLayout` with its memberships: the
            // export's outline of a library had counted them with a `GROUP BY` over every
            // membership, the largest step of a day added to 200,000 photos (issue 15).
            try db.alter(table: "visit") { t in t.add(column: "photoCount", .integer).notNull().defaults(to: 0) }
            try db.execute(sql: "UPDATE visit SET photoCount = (SELECT count(*) FROM visitPhoto WHERE visitPhoto.visitId = visit.id)")
        }
        migrator.registerMigration("v18-video-clock-votes") { db in
            // Each video timed by its movie header only keeps its vote on how its camera's
            // times are read (`VideoClock.vote`), so a library's rerun judges only the videos
            // near its changes and the cameras' verdicts come from the stored votes (issue 15).
            // No foreign key: the decisions join the photos present.
            try db.create(table: "videoClockVote") { t in
                t.primaryKey("photoId", .integer)
                t.column("camera", .text).notNull()
                t.column("vote", .integer).notNull()
            }
            // A library with such videos resolves once in full, which stores every vote.
            if try Bool.fetchOne(db, sql: Catalog.movieHeaderTimesSQL) ?? false {
                try db.execute(sql: "DELETE FROM tripSetting WHERE key = ?", arguments: [Catalog.SettingKey.resolvedInputs])
            }
        }
        migrator.registerMigration("v19-resolution-two-axes") { db in
            // A rerun finds the photos a change reaches far off by UTC, not only by camera time
            // (`ResolutionWindow`, issue 15): each pending photo keeps the UTC it was resolved
            // to, and the photos that can be reached that far have an index of their own. Rows listed before this keep no
            // UTC, and are taken as reaching as far as their camera time can.
            try db.alter(table: "resolvePending") { t in t.add(column: "utcTime", .text) }
            let was = "OLD.localTime, OLD.gpsTime, OLD.removedAt IS NULL AND OLD.status = 'read', OLD.timeSource, OLD.locationSource, OLD.utcTime"
            let watched = ["localTime", "utcOffset", "gpsTime", "make", "model", "latitude", "longitude", "positionSource", "format",
                           "timeField", "removedAt", "status", "utcTime", "timeZone", "timeSource", "resolvedLatitude",
                           "resolvedLongitude", "locationSource", "uncertaintyMeters"]
            let columns = "photoId, localTime, gpsTime, counted, timeSource, locationSource, utcTime"
            try db.execute(sql: """
                DROP TRIGGER photo_resolve_changed;
                DROP TRIGGER photo_resolve_gone;
                CREATE TRIGGER photo_resolve_changed AFTER UPDATE ON photo FOR EACH ROW
                WHEN \(watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    INSERT OR IGNORE INTO resolvePending (\(columns)) VALUES (OLD.id, \(was));
                END;
                CREATE TRIGGER photo_resolve_gone AFTER DELETE ON photo FOR EACH ROW
                BEGIN
                    INSERT OR IGNORE INTO resolvePending (\(columns)) VALUES (OLD.id, \(was));
                END;
                """)
            for (name, event, row) in [("manual_tag_resolve_new", "INSERT", "NEW"), ("manual_tag_resolve_changed", "UPDATE", "NEW"),
                                       ("manual_tag_resolve_gone", "DELETE", "OLD")] {
                try db.execute(sql: """
                    DROP TRIGGER \(name);
                    CREATE TRIGGER \(name) AFTER \(event) ON manualTag FOR EACH ROW
                    BEGIN
                        INSERT OR IGNORE INTO resolvePending (\(columns))
                        SELECT id, localTime, gpsTime, removedAt IS NULL AND status = 'read', timeSource, locationSource, utcTime
                        FROM photo WHERE id = \(row).photoId;
                    END
                    """)
            }
            // The photos a change can reach far off (`ResolutionWindow.reachesFar`: no position
            // of their own, or a movie header's time), by camera time: a rerun looks only around
            // its changes, however many photos a camera without GPS took.
            try db.execute(sql: "CREATE INDEX photo_far_reaching ON photo (localTime) WHERE \(Catalog.farReachingCondition)")
        }
        migrator.registerMigration("v20-far-reaching-index-and-1826") { db in
            // v19 was first written with an index on the photos without a position by id; a
            // catalog migrated then has that one and not `photo_far_reaching`.
            try db.execute(sql: "DROP INDEX IF EXISTS photo_without_position")
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS photo_far_reaching ON photo (localTime) WHERE \(Catalog.farReachingCondition)")
            // The earliest plausible capture time was 1825-01-01 where the rule says 1826: a
            // catalog with photos dated near 1825 resolves once in full under the rule.
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE localTime BETWEEN '1824-12-30' AND '1826-01-02')") ?? false {
                try db.execute(sql: "DELETE FROM tripSetting WHERE key = ?", arguments: [Catalog.SettingKey.resolvedInputs])
            }
        }
        migrator.registerMigration("v21-live-photo-groups") { db in
            // Live Photos are paired again around what changed (`Catalog+LivePhotos`), not over
            // the whole library: each row keeps its stem's hash, indexed with the format, the
            // content identifiers have an index, and read batches keep what they may re-pair.
            try db.alter(table: "photo") { t in t.add(column: "stemKey", .integer) }
            let stemKey = DatabaseFunction("geotrip_stem_key", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(LivePhotoPairing.stemKey)
            }
            db.add(function: stemKey)
            // Without the change stamps' trigger: the key is no change to a photo, and stamping
            // every row would render every trip of a library again.
            let stamp = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'photo_change_stamp'")
            if stamp != nil { try db.execute(sql: "DROP TRIGGER photo_change_stamp") }
            try db.execute(sql: "UPDATE photo SET stemKey = geotrip_stem_key(path)")
            if let stamp { try db.execute(sql: stamp) }
            db.remove(function: stemKey)
            try db.execute(sql: """
                CREATE INDEX photo_stem_key ON photo (stemKey, format);
                CREATE INDEX photo_content_identifier ON photo (contentIdentifier) WHERE contentIdentifier IS NOT NULL;
                CREATE TABLE livePhotoPending (key TEXT PRIMARY KEY) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v22-undated-index") { db in
            // The photos no day can take, for the journal's page of them (`Catalog.undatedPhotos`),
            // by camera time: a library's export reads only these rows, and of them only those
            // whose camera time is missing or implausible.
            try db.execute(sql: "CREATE INDEX photo_undated ON photo (localTime) WHERE utcTime IS NULL OR timeZone IS NULL")
        }
        migrator.registerMigration("v23-pixel-key") { db in
            // A key of a JPEG's pixels (`FileReading.pixelKey`), which names its thumbnail, so a
            // photo whose metadata alone was edited elsewhere keeps it. Rows read before have
            // none (their thumbnails keep the names they have) until their file changes.
            try db.alter(table: "photo") { t in t.add(column: "pixelKey", .integer) }
        }
        migrator.registerMigration("v24-output-stamps") { db in
            // A photo's change stamp says its outputs may have changed: it is raised by a change
            // to a column the export renders from (`Catalog.tripPhotoColumns`, the day a photo
            // falls on, whether it is present), not by any update. A file another program
            // rewrote with its time, place and pixels as they were (a rating, keywords) is read
            // again and changes none of them: its journal day, its trip's map and the library's
            // page are left alone. The file's size, time and embedded thumbnail's offset name and
            // make a thumbnail only when the photo has no key of its pixels (`pixelKey`), and a
            // video has no thumbnail.
            let rendered = ["path", "status", "removedAt", "format", "utcTime", "timeZone", "localTime", "resolvedLatitude",
                            "resolvedLongitude", "locationSource", "uncertaintyMeters", "orientation", "thumbnailLength",
                            "durationSeconds", "liveStillId", "pixelKey"]
            let unkeyed = ["fileSize", "modifiedNanos", "thumbnailOffset"]
            let changed = rendered.map { "OLD.\($0) IS NOT NEW.\($0)" }
                + ["(NEW.pixelKey IS NULL AND NEW.format IS NOT 'video' AND ("
                   + unkeyed.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ") + "))"]
            try db.execute(sql: """
                DROP TRIGGER photo_change_stamp;
                CREATE TRIGGER photo_change_stamp AFTER UPDATE ON photo FOR EACH ROW
                WHEN NEW.changeStamp IS OLD.changeStamp AND (\(changed.joined(separator: " OR ")))
                BEGIN
                    UPDATE photoChangeCounter SET value = value + 1 WHERE id = 1;
                    UPDATE photo SET changeStamp = (SELECT value FROM photoChangeCounter WHERE id = 1) WHERE id = NEW.id;
                END
                """)
        }
        migrator.registerMigration("v25-note-members") { db in
            // The photos of a note's visit when last shown with it (`JournalNote.members`): a
            // note waiting for its visit goes back only to one holding some of them.
            try db.alter(table: "journalNote") { t in t.add(column: "members", .text) }
        }
        migrator.registerMigration("v26-wall-time") { db in
            // The camera's clock as `--clock-offset` corrects it, for a photo whose day that
            // clock gives (no instant, or no zone) when the correction moves it: its day, its
            // place in a day's list and whether it is undated follow the corrected clock
            // (`coalesce(wallTime, localTime)`). The undated photos' index holds it beside the camera's
            // own, so their page still reads only the rows it lists.
            try db.alter(table: "photo") { t in t.add(column: "wallTime", .text) }
            try db.execute(sql: """
                DROP INDEX photo_undated;
                CREATE INDEX photo_undated ON photo (localTime, wallTime) WHERE utcTime IS NULL OR timeZone IS NULL;
                """)
            // Clustering reads it (the photo's day) and the outputs show it: a change lists the
            // photo for clustering (v15's trigger) and raises its change stamp (v24's), each
            // trigger made again with the column added.
            let watched = ["utcTime", "timeZone", "localTime", "wallTime", "resolvedLatitude", "resolvedLongitude", "uncertaintyMeters",
                           "liveStillId", "removedAt", "status"]
            let rendered = ["path", "status", "removedAt", "format", "utcTime", "timeZone", "localTime", "wallTime", "resolvedLatitude",
                            "resolvedLongitude", "locationSource", "uncertaintyMeters", "orientation", "thumbnailLength",
                            "durationSeconds", "liveStillId", "pixelKey"]
            let unkeyed = ["fileSize", "modifiedNanos", "thumbnailOffset"]
            let changed = rendered.map { "OLD.\($0) IS NOT NEW.\($0)" }
                + ["(NEW.pixelKey IS NULL AND NEW.format IS NOT 'video' AND ("
                   + unkeyed.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ") + "))"]
            try db.execute(sql: """
                DROP TRIGGER photo_cluster_changed;
                CREATE TRIGGER photo_cluster_changed AFTER UPDATE ON photo FOR EACH ROW
                WHEN \(watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN
                    INSERT OR IGNORE INTO clusterPending (photoId) VALUES (NEW.id);
                END;
                DROP TRIGGER photo_change_stamp;
                CREATE TRIGGER photo_change_stamp AFTER UPDATE ON photo FOR EACH ROW
                WHEN NEW.changeStamp IS OLD.changeStamp AND (\(changed.joined(separator: " OR ")))
                BEGIN
                    UPDATE photoChangeCounter SET value = value + 1 WHERE id = 1;
                    UPDATE photo SET changeStamp = (SELECT value FROM photoChangeCounter WHERE id = 1) WHERE id = NEW.id;
                END;
                """)
            // A catalog with clock corrections and photos whose day their clock gives resolves
            // once in full, which stores their corrected clocks.
            if try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM tripSetting WHERE key = ? AND json_valid(value)
                                   AND coalesce(json_array_length(value, '$.clockOffsets'), 0) > 0)
                    AND EXISTS (SELECT 1 FROM photo WHERE (utcTime IS NULL OR timeZone IS NULL) AND localTime IS NOT NULL)
                """, arguments: [Catalog.SettingKey.resolution]) ?? false {
                try db.execute(sql: "DELETE FROM tripSetting WHERE key = ?", arguments: [Catalog.SettingKey.resolvedInputs])
            }
        }
        migrator.registerMigration("v27-note-line-endings") { db in
            // The journal reader leaves an editor's `\r` before a line's end out of a note
            // (`JournalDocument`); notes an earlier build kept with it would be other words
            // than their pages' blocks, and each page holding one kept as a backup on every write.
            // Until none is left: `\r\r\n` is `\r\n` after one pass.
            repeat {
                try db.execute(sql: "UPDATE journalNote SET text = replace(text, char(13, 10), char(10)) WHERE instr(text, char(13, 10)) > 0")
            } while db.changesCount > 0
        }
        migrator.registerMigration("v28-visit-strays") { db in
            // Which of a visit's photos are strays (`VisitCluster.strayIDs`): the clustering
            // rules' revision (`places6`) reclusters every photo on the next run, which fills it.
            try db.alter(table: "visitPhoto") { t in t.add(column: "stray", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v29-names-ever") { db in
            // Every name a place has had (`placeName` keeps only each source's latest): a journal
            // page a person saved for a note may hold a name geotrip wrote in a heading before
            // the place was renamed, which is no name the person wrote (`ExportStage.namedOver`).
            try db.execute(sql: """
                CREATE TABLE placeNameEver (name TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
                INSERT OR IGNORE INTO placeNameEver (name) SELECT name FROM placeName WHERE name IS NOT NULL;
                CREATE TRIGGER placeNameEverInsert AFTER INSERT ON placeName WHEN new.name IS NOT NULL
                BEGIN INSERT INTO placeNameEver (name) SELECT new.name WHERE NOT EXISTS (SELECT 1 FROM placeNameEver WHERE name = new.name); END;
                CREATE TRIGGER placeNameEverUpdate AFTER UPDATE OF name ON placeName WHEN new.name IS NOT NULL
                BEGIN INSERT INTO placeNameEver (name) SELECT new.name WHERE NOT EXISTS (SELECT 1 FROM placeNameEver WHERE name = new.name); END;
                """)
            // Not `INSERT OR IGNORE`: a trigger's statements take the conflict policy of the
            // statement that fired them (the names' upsert), so a name already kept failed it.
        }
        migrator.registerMigration("v30-zero-lengths") { db in
            // A video length of 0 is a fragmented file's header, which says its length lies in
            // the fragments: unknown, as the reader now keeps it (`QuickTimeReader`), so a
            // catalog read before is what a fresh ingest gives.
            try db.execute(sql: "UPDATE photo SET durationSeconds = NULL WHERE durationSeconds = 0")
        }
        migrator.registerMigration("v31-stray-index") { db in
            // The few strays, found without a pass over every visit's photos: a stray inside a
            // privacy zone hides with it (`Catalog.visitsOfStraysInside`).
            try db.execute(sql: "CREATE INDEX visitPhoto_strays ON visitPhoto(visitId) WHERE stray")
        }
        migrator.registerMigration("v32-png-xmp") { db in
            // PNGs skipped for want of an eXIf chunk are read again once: one with XMP, or a
            // sidecar, is a photo now (`MetadataReader`). Only they: the reader's version, which
            // would read every file of a library again, stays.
            try db.execute(sql: "UPDATE photo SET readerVersion = 0 WHERE status = 'skipped' AND lower(path) LIKE '%.png' AND removedAt IS NULL")
        }
        migrator.registerMigration("v33-former-names") { db in
            // The names of the person's and the service's that a place no longer has (renamed,
            // `rename --clear`, named again), with the spot each was made for (a name made again
            // for a moved spot keeps the old spot too): a note remembered with one ("Our flat,
            // Rua Augusta 22") forgets it once a zone covers that spot, though the place now
            // goes by another name (`Catalog.namesGiven(inside:)`). Names replaced before this
            // build are not known.
            try db.execute(sql: """
                CREATE TABLE placeNameFormer (
                    name TEXT NOT NULL, placeId TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
                    PRIMARY KEY (name, placeId, latitude, longitude)) WITHOUT ROWID;
                CREATE TRIGGER placeNameFormerUpdate AFTER UPDATE ON placeName
                WHEN old.name IS NOT NULL AND old.source != 'offline'
                    AND (new.name IS NOT old.name OR new.latitude != old.latitude OR new.longitude != old.longitude)
                BEGIN INSERT INTO placeNameFormer (name, placeId, latitude, longitude)
                    SELECT old.name, old.placeId, old.latitude, old.longitude WHERE NOT EXISTS (SELECT 1 FROM placeNameFormer
                    WHERE name = old.name AND placeId = old.placeId AND latitude = old.latitude AND longitude = old.longitude); END;
                CREATE TRIGGER placeNameFormerDelete AFTER DELETE ON placeName
                WHEN old.name IS NOT NULL AND old.source != 'offline'
                BEGIN INSERT INTO placeNameFormer (name, placeId, latitude, longitude)
                    SELECT old.name, old.placeId, old.latitude, old.longitude WHERE NOT EXISTS (SELECT 1 FROM placeNameFormer
                    WHERE name = old.name AND placeId = old.placeId AND latitude = old.latitude AND longitude = old.longitude); END;
                """)
        }
        migrator.registerMigration("v34-own-sidecar-stamps") { db in
            // Photos whose own sidecar was stamped by name only (`path geotrip`, before sizes and
            // times were kept: `ScannedFile.sidecarStamp`) are read again once, which stamps it
            // whole: until then, a date another program wrote into it went unread.
            try db.execute(sql: """
                UPDATE photo SET readerVersion = 0 WHERE removedAt IS NULL AND sidecars IS NOT NULL
                AND (sidecars LIKE '% geotrip' OR instr(sidecars, ' geotrip' || char(10)) > 0)
                """)
        }
        return migrator
    }
}
