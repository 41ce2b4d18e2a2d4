import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

@Suite("Catalog")
struct CatalogTests {
    @Test("a catalog from the v1 schema opens, migrates and keeps every photo")
    func v1CatalogMigrates() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = try copyCatalogFixture("v1-photos", into: temp)

        let catalog = try Catalog.open(at: path)
        let photos = try catalog.photos()
        let truth = SampleTripReadingTests.truth.values
        #expect(photos.count == truth.filter(\.hasExif).count + 1)  // + the truncated IMG_0099.JPG
        let heic = try #require(photos.first { $0.path == "IMG_0100.HEIC" })
        let expected = try #require(SampleTripReadingTests.truth["IMG_0100.HEIC"])
        #expect(heic.coordinate?.latitude.isClose(to: expected.latitude) == true)
        #expect(heic.localTime?.iso8601 == expected.localTime)
        let applied = try catalog.database.read { try CatalogMigrations.migrator.appliedIdentifiers($0) }
        #expect(applied == Set(CatalogMigrations.migrator.migrations))
        // v21 gave every row its stem's key, as a row written now gets it, without stamping
        // the rows as changed (v11's stamps start at 0; nothing else wrote them since).
        let stems = try catalog.database.read { try Row.fetchAll($0, sql: "SELECT path, stemKey, changeStamp FROM photo") }
        #expect(!stems.isEmpty && stems.allSatisfy { ($0[1] as Int64?) == LivePhotoPairing.stemKey($0[0]) })
        #expect(stems.allSatisfy { ($0[2] as Int64) == 0 })
        let trigger = try catalog.database.read { try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'photo_change_stamp')") }
        #expect(trigger == true)
    }

    @Test("a photo's change stamp follows every column the export renders from, and no other; the file's size and time only without a key of its pixels")
    func changeStampFollowsRenderedColumns() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        // Every photo column the export reads (`tripPhotoColumns`, and the zone and presence its
        // days and filters use) is watched by the trigger.
        let trigger = try #require(try catalog.database.read { try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'photo_change_stamp'") })
        let exported = try NSRegularExpression(pattern: #"\bp\.(\w+)"#)
            .matches(in: Catalog.tripPhotoColumns, range: NSRange(Catalog.tripPhotoColumns.startIndex..., in: Catalog.tripPhotoColumns))
            .map { String(Catalog.tripPhotoColumns[Range($0.range(at: 1), in: Catalog.tripPhotoColumns)!]) }
        // Every column but the visit's comes from the photo; the camera's clock from two (as
        // corrected, else as the camera wrote it).
        #expect(exported.count == Catalog.tripPhotoColumnCount, "\(exported)")
        #expect(exported.contains("wallTime") && exported.contains("localTime"))
        for column in Set(exported + ["timeZone", "status", "removedAt"]).subtracting(["id"]) {
            #expect(trigger.contains("OLD.\(column) IS NOT NEW.\(column)"), "\(column) is rendered but raises no stamp")
        }

        // And on a row: columns nothing renders leave the stamp; rendered ones raise it.
        let record = PhotoRecord(file: ScannedFile(relativePath: "a.jpg", size: 10, modifiedNanos: 1),
                                 reading: FileReading(status: .read, format: .jpeg, metadata: PhotoMetadata(), skipReason: nil, fingerprint: "f"))
        try catalog.save(new: [record], updated: [])
        func stamp(after sql: String) throws -> Int64 {
            try catalog.database.write { db in
                try db.execute(sql: sql)
                return try #require(try Int64.fetchOne(db, sql: "SELECT changeStamp FROM photo"))
            }
        }
        let start = try stamp(after: "UPDATE photo SET pixelKey = 42")
        for unrendered in ["make = 'Canon'", "diagnostics = '[\"x\"]'", "sidecars = 's'", "fingerprint = 'g'", "readerVersion = 99",
                           "fileSize = 11", "modifiedNanos = 2", "thumbnailOffset = 100", "altitude = 3", "utcOffset = '+01:00'"] {
            #expect(try stamp(after: "UPDATE photo SET \(unrendered)") == start, "\(unrendered)")
        }
        #expect(try stamp(after: "UPDATE photo SET path = 'b.jpg'") > start)
        let keyed = try stamp(after: "UPDATE photo SET path = 'a.jpg'")
        #expect(try stamp(after: "UPDATE photo SET orientation = 6") > keyed)
        // Without a key of its pixels, the file's size and time name its thumbnail; a video
        // has none.
        let unkeyed = try stamp(after: "UPDATE photo SET pixelKey = NULL")
        #expect(try stamp(after: "UPDATE photo SET fileSize = 12") > unkeyed)
        let video = try stamp(after: "UPDATE photo SET format = 'video'")
        #expect(try stamp(after: "UPDATE photo SET fileSize = 13, modifiedNanos = 3") == video)
    }

    @Test("the layout's upsert statements write every column of their tables, and replace a row whole")
    func layoutUpserts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        try catalog.database.write { db in
            // Every column of the table is named, so a column added later cannot be left out.
            for (table, sql) in [("visit", VisitRecord.upsertSQL), ("place", PlaceRecord.upsertSQL)] {
                let named = try #require(sql.split(separator: "(").dropFirst().first?.split(separator: ")").first)
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                #expect(Set(named) == Set(try db.columns(in: table).map(\.name)), "\(table)")
            }
            // Inserted, then every value replaced: read back as the records were written.
            let place = PlaceRecord(id: "p1", revision: 1, latitude: 38.7, longitude: -9.1, start: "2025-06-10T08:00:00Z")
            var visit = VisitRecord(id: "v1", placeId: "p1", revision: 1, latitude: 38.7, longitude: -9.1, radiusMeters: 20,
                                    arrival: "2025-06-10T08:00:00Z", departure: "2025-06-10T09:00:00Z", localDate: "2025-06-10",
                                    timeZone: "Europe/Lisbon", photoCount: 3)
            try db.execute(sql: PlaceRecord.upsertSQL, arguments: place.upsertArguments)
            try db.execute(sql: VisitRecord.upsertSQL, arguments: visit.upsertArguments)
            #expect(try VisitRecord.fetchAll(db) == [visit])
            let moved = PlaceRecord(id: "p1", revision: 2, latitude: 40.4, longitude: -3.7, start: "2025-06-12T08:00:00Z")
            visit = VisitRecord(id: "v1", placeId: "p1", revision: 2, latitude: 40.4, longitude: -3.7, radiusMeters: 35,
                                arrival: "2025-06-12T08:00:00Z", departure: "2025-06-12T10:00:00Z", localDate: "2025-06-12", timeZone: nil,
                                photoCount: 5)
            try db.execute(sql: PlaceRecord.upsertSQL, arguments: moved.upsertArguments)
            try db.execute(sql: VisitRecord.upsertSQL, arguments: visit.upsertArguments)
            #expect(try PlaceRecord.fetchAll(db) == [moved])
            #expect(try VisitRecord.fetchAll(db) == [visit])
        }
    }

    @Test("a statement SQLite refuses is reported as geotrip's bug, not as a damaged catalog to move aside")
    func statementErrors() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        for sql in ["SELECT noSuchColumn FROM photo", "SELECT * FROM photo WHERE id IN (" + Array(repeating: "?", count: 300_000).joined(separator: ",") + ")"] {
            do {
                _ = try catalog.database.read { try Row.fetchAll($0, sql: sql, arguments: StatementArguments(Array(repeating: 1, count: sql.filter { $0 == "?" }.count))) }
                Issue.record("SQLite took \(sql.prefix(40))")
            } catch {
                guard case .catalogRejected = Catalog.classify(error, path: catalog.path) else {
                    Issue.record("\(sql.prefix(40)): \(Catalog.classify(error, path: catalog.path))")
                    continue
                }
            }
        }
    }

    @Test("SQLite enforces the catalog's rules: one row per path, coordinates in range and in pairs")
    func constraints() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        let file = ScannedFile(relativePath: "a.jpg", size: 1, modifiedNanos: 1)
        var record = PhotoRecord(file: file, reading: FileReading(
            status: .read, format: .jpeg, metadata: PhotoMetadata(), skipReason: nil, fingerprint: "0"))
        try catalog.save(new: [record], updated: [])
        #expect(throws: GeoTripError.self) { try catalog.save(new: [record], updated: []) }
        record.path = "b.jpg"
        record.latitude = 91
        record.longitude = 0
        #expect(throws: GeoTripError.self) { try catalog.save(new: [record], updated: []) }
        record.latitude = 10
        record.longitude = nil
        #expect(throws: GeoTripError.self) { try catalog.save(new: [record], updated: []) }
        #expect(try catalog.photos().map(\.path) == ["a.jpg"])
    }
}

@Suite("Read plan")
struct ReadPlanTests {
    func row(_ id: Int64, _ path: String, size: Int64 = 10, fingerprint: String, removed: Bool = false,
             status: FileReading.Status = .read, version: Int = MetadataReader.version, captureSignature: String? = nil) -> CatalogedFile {
        CatalogedFile(id: id, path: path, fileSize: size, modifiedNanos: 5, fingerprint: fingerprint,
                      status: status, readerVersion: version, removed: removed, captureSignature: captureSignature)
    }

    func file(_ path: String, size: Int64 = 10) -> ScannedFile {
        ScannedFile(relativePath: path, size: size, modifiedNanos: 5)
    }

    /// Runs a whole plan: `contents` gives each on-disk file's fingerprint. Returns the row each
    /// path ends up with (nil: a new row) and the rows marked removed.
    func settle(_ files: [ScannedFile], _ known: [CatalogedFile], contents: [String: String], signatures: [String: String] = [:])
        -> (rows: [String: ReadPlan.Resolution], removed: [Int64], unchanged: Int) {
        var plan = ReadPlan(files: files, known: known, readerVersion: MetadataReader.version)
        var rows: [String: ReadPlan.Resolution] = [:]
        for planned in plan.knownReads {
            let path = planned.file.relativePath
            if let resolution = plan.admitKnown(planned, fingerprint: contents[path]!, captureSignature: signatures[path]) {
                rows[planned.file.relativePath] = resolution
            }
        }
        for planned in plan.newReads {
            rows[planned.file.relativePath] = plan.resolveNew(planned, fingerprint: contents[planned.file.relativePath]!)
        }
        for (planned, resolution) in plan.resolveDeferred() { rows[planned.file.relativePath] = resolution }
        return (rows, plan.stillMissing, plan.unchangedCount)
    }

    @Test("unchanged files are not read; changed, new, returning and unreadable files are")
    func whatIsRead() {
        let plan = ReadPlan(
            files: [file("same.jpg"), file("grown.jpg", size: 11), file("new.jpg"), file("back.jpg"),
                    file("broken.jpg"), file("old-reader.jpg")],
            known: [row(1, "same.jpg", fingerprint: "a"), row(2, "grown.jpg", fingerprint: "b"),
                    row(3, "back.jpg", fingerprint: "c", removed: true), row(4, "broken.jpg", fingerprint: "", status: .unreadable),
                    row(5, "old-reader.jpg", fingerprint: "e", version: MetadataReader.version - 1)],
            readerVersion: MetadataReader.version)
        #expect(plan.unchangedCount == 1)
        #expect(plan.knownReads.map(\.file.relativePath).sorted() == ["back.jpg", "broken.jpg", "grown.jpg", "old-reader.jpg"])
        #expect(plan.knownReads.filter(\.statChanged).map(\.file.relativePath).sorted() == ["back.jpg", "grown.jpg"])
        #expect(plan.newReads.map(\.file.relativePath) == ["new.jpg"])
        #expect(plan.stillMissing.isEmpty)
    }

    @Test("a chain of renames onto known paths keeps every photo's identity")
    func renameChain() {
        // IMG_1 deleted, IMG_2 -> IMG_1, IMG_3 -> IMG_2
        // (sizes follow content: a rename keeps a file's size and modification time)
        let result = settle([file("IMG_1", size: 2), file("IMG_2", size: 3)],
                            [row(1, "IMG_1", size: 1, fingerprint: "f1"), row(2, "IMG_2", size: 2, fingerprint: "f2"),
                             row(3, "IMG_3", size: 3, fingerprint: "f3")],
                            contents: ["IMG_1": "f2", "IMG_2": "f3"])
        #expect(result.rows["IMG_1"] == .init(id: 2, outcome: .moved))
        #expect(result.rows["IMG_2"] == .init(id: 3, outcome: .moved))
        #expect(result.removed == [1])
    }

    @Test("two swapped file names swap identities")
    func swap() {
        let result = settle([file("a.jpg", size: 2), file("b.jpg", size: 1)],
                            [row(1, "a.jpg", size: 1, fingerprint: "fa"), row(2, "b.jpg", size: 2, fingerprint: "fb")],
                            contents: ["a.jpg": "fb", "b.jpg": "fa"])
        #expect(result.rows["a.jpg"] == .init(id: 2, outcome: .moved))
        #expect(result.rows["b.jpg"] == .init(id: 1, outcome: .moved))
        #expect(result.removed.isEmpty)
    }

    @Test("a photo edited in place keeps its identity; a removed row is not revived by other content")
    func editedAndReplaced() {
        let result = settle([file("edited.jpg", size: 12), file("reused.jpg")],
                            [row(1, "edited.jpg", fingerprint: "before"), row(2, "reused.jpg", fingerprint: "old", removed: true)],
                            contents: ["edited.jpg": "after", "reused.jpg": "unrelated"])
        #expect(result.rows["edited.jpg"] == .init(id: 1, outcome: .changed))
        #expect(result.rows["reused.jpg"] == .init(id: nil, outcome: .new))
        #expect(result.removed.isEmpty)
    }

    @Test("a photo retagged in place keeps its identity even when its old bytes reappear elsewhere")
    func editedWithBackup() {
        let edited = row(1, "IMG_1.JPG", fingerprint: "before", captureSignature: "2025-06-10T10:00:00.123|Apple|iPhone 13")
        let result = settle([file("IMG_1.JPG", size: 12), file("copy/IMG_1.JPG")], [edited],
                            contents: ["IMG_1.JPG": "after", "copy/IMG_1.JPG": "before"],
                            signatures: ["IMG_1.JPG": "2025-06-10T10:00:00.123|Apple|iPhone 13"])
        #expect(result.rows["IMG_1.JPG"] == .init(id: 1, outcome: .changed))
        #expect(result.rows["copy/IMG_1.JPG"] == .init(id: nil, outcome: .new))
    }

    @Test("a photo moved away from a path whose new content is unrelated is found at its new path")
    func movedAwayAndReplaced() {
        let result = settle([file("a.jpg", size: 99), file("elsewhere/a.jpg")],
                            [row(1, "a.jpg", fingerprint: "fa")],
                            contents: ["a.jpg": "other", "elsewhere/a.jpg": "fa"])
        #expect(result.rows["elsewhere/a.jpg"] == .init(id: 1, outcome: .moved))
        #expect(result.rows["a.jpg"] == .init(id: nil, outcome: .new))
        #expect(result.removed.isEmpty)
    }

    @Test("duplicates: each departed row moves once, the same file name first; copies are new")
    func duplicates() {
        let result = settle([file("x/two.jpg"), file("x/one.jpg"), file("x/three.jpg")],
                            [row(1, "one.jpg", fingerprint: "dup"), row(2, "two.jpg", fingerprint: "dup"),
                             row(7, "old.jpg", fingerprint: "gone", removed: true), row(9, "lost.jpg", fingerprint: "lost")],
                            contents: ["x/one.jpg": "dup", "x/two.jpg": "dup", "x/three.jpg": "dup"])
        #expect(result.rows["x/one.jpg"] == .init(id: 1, outcome: .moved))
        #expect(result.rows["x/two.jpg"] == .init(id: 2, outcome: .moved))
        #expect(result.rows["x/three.jpg"] == .init(id: nil, outcome: .new))
        #expect(result.removed == [9])
    }

    @Test("files that could not be read match nothing")
    func emptyFingerprintsNeverMatch() {
        let result = settle([file("new.jpg")], [row(1, "gone.jpg", fingerprint: "", status: .unreadable)], contents: ["new.jpg": ""])
        #expect(result.rows["new.jpg"] == .init(id: nil, outcome: .new))
        #expect(result.removed == [1])
    }

    @Test("paths are compared byte for byte: NFC and NFD spellings are two files")
    func unicodeNormalisation() {
        let nfc = "caf\u{E9}.jpg", nfd = "cafe\u{301}.jpg"
        #expect(nfc == nfd)  // Swift's String equality, which the plan must not use
        let plan = ReadPlan(files: [file(nfc), file(nfd)], known: [row(1, nfc, fingerprint: "a")],
                            readerVersion: MetadataReader.version)
        #expect(plan.unchangedCount == 1)
        #expect(plan.newReads.map { Array($0.file.relativePath.utf8) } == [Array(nfd.utf8)])
    }
}

@Suite("EXIF text forms")
struct DateTextTests {
    @Test("dates and times are validated against the calendar", arguments: [
        ("2024:02:29 23:59:59", "2024-02-29T23:59:59"),
        ("2023:02:29 12:00:00", nil),
        ("2024-06-01T08:00:00", "2024-06-01T08:00:00"),
        ("0000:00:00 00:00:00", nil),
        ("2014:09:259 0:00:00", nil),
        ("2024:06:01 24:00:00", nil),
        ("    :  :     :  :  ", nil),
        ("2024:06:01 08:00", nil),
    ] as [(String, String?)])
    func dateTimes(text: String, expected: String?) {
        #expect(DateText.parseDateTime(text)?.iso8601 == expected)
    }

    @Test("sub-second digits are a decimal fraction", arguments: [
        ("5", 500), ("05", 50), ("123", 123), ("123456", 123), ("000", 0),
        ("9999999999999999999999999", 999),
    ])
    func subSeconds(text: String, milliseconds: Int) {
        #expect(DateText.parseSubSecond(text) == milliseconds)
    }

    @Test("digit runs too long for an Int are refused, not trapped on")
    func overlongDigits() {
        #expect(ASCIIDigits.parse(Array("99999999999999999999".utf8)) == nil)
        #expect(ASCIIDigits.parse(Array("9223372036854775807".utf8)) == Int.max)
    }

    @Test("offsets outside -12:00...+14:00 or badly formed are refused", arguments: [
        ("+09:00", 540), ("-03:30", -210), ("+14:00", 840), ("-12:00", -720), ("Z", 0),
        ("+14:15", nil), ("-12:30", nil), ("+25:00", nil), ("+0900", nil), ("09:00", nil), ("+09:60", nil),
    ] as [(String, Int?)])
    func offsets(text: String, minutes: Int?) {
        #expect(UTCOffset(parsing: text)?.minutes == minutes)
    }
}

/// Every released schema's catalog opens, migrates to the current one and keeps what it held.
@Suite("Catalog migrations")
struct CatalogMigrationTests {
    @Test("catalogs from the v2, v3, v5 and v23 schemas migrate, keep every photo, v3's place names move to placeName, v5's names stay, v23's stamps follow the rendered columns",
          arguments: ["v2-resolution", "v3-visits", "v5-place-names", "v23-pixel-key"])
    func olderSchemasMigrate(name: String) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = try copyCatalogFixture("\(name)", into: temp)
        let before = try DatabaseQueue(path: path)
        let photoCount = try before.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM photo") }
        let namesBySource = name == "v5-place-names"
            ? try before.read { try Row.fetchAll($0, sql: "SELECT source, count(*) FROM placeName GROUP BY source ORDER BY source") }.map { "\($0[0] as String)=\($0[1] as Int)" }
            : []
        let oldNames = name == "v3-visits"
            ? try before.read { try Row.fetchAll($0, sql: "SELECT id, name, countryCode FROM place ORDER BY id") }.map { row -> [String?] in [row[0], row[1], row[2]] }
            : []
        try before.close()

        let catalog = try Catalog.open(at: path)
        let applied = try catalog.database.read { try CatalogMigrations.migrator.appliedIdentifiers($0) }
        #expect(applied == Set(CatalogMigrations.migrator.migrations))
        #expect(try catalog.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM photo") } == photoCount)
        if name != "v2-resolution" {
            // Each visit's count (v17) is its memberships': 51 photos in 13 visits.
            let counts = try catalog.database.read { db in
                try Row.fetchAll(db, sql: "SELECT photoCount, (SELECT count(*) FROM visitPhoto WHERE visitId = visit.id) FROM visit").map { [$0[0] as Int, $0[1] as Int] }
            }
            #expect(counts.count == 13 && counts.allSatisfy { $0[0] == $0[1] } && counts.map { $0[0] }.reduce(0, +) == 51)
        }
        if name == "v3-visits" {
            #expect(oldNames.count == 11)
            let moved = try catalog.placeNames(source: .offline)
            for old in oldNames {
                #expect(moved[old[0]!]?.name.name == old[1])
                #expect(moved[old[0]!]?.name.countryCode == old[2])
            }
            // The visits list with their names right after the migration, before any rerun.
            #expect(try catalog.visits().allSatisfy { $0.name != nil && $0.nameSource == "offline" })
        }
        if name == "v23-pixel-key" {
            // v24 replaced the stamping trigger: a column nothing renders leaves the stamp.
            let trigger = try catalog.database.read { try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'photo_change_stamp'") }
            #expect(trigger?.contains("OLD.pixelKey IS NOT NEW.pixelKey") == true)
            let stamps = try catalog.database.write { db -> (Int64?, Int64?) in
                let before = try Int64.fetchOne(db, sql: "SELECT max(changeStamp) FROM photo")
                try db.execute(sql: "UPDATE photo SET make = make || ' (edited)', sidecars = 'x'")
                return (before, try Int64.fetchOne(db, sql: "SELECT max(changeStamp) FROM photo"))
            }
            #expect(stamps.0 != nil && stamps.0 == stamps.1)
        }
        if name == "v5-place-names" {
            // Made with online names (the tests' server, English) and one manual name.
            #expect(namesBySource == ["manual=1", "nominatim=11", "offline=11"])
            let after = try catalog.database.read { try Row.fetchAll($0, sql: "SELECT source, count(*) FROM placeName GROUP BY source ORDER BY source") }
                .map { "\($0[0] as String)=\($0[1] as Int)" }
            #expect(after == namesBySource)
            #expect(try catalog.visits().contains { $0.name == "Our tower" && $0.nameSource == "manual" })
        }
    }

    @Test("a length of 0 an older reader kept (a fragmented file's header) is unknown after the migration, as a fresh ingest has it")
    func zeroLengthsMigrate() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = try copyCatalogFixture("v25-note-members", into: temp)
        let before = try DatabaseQueue(path: path)
        try before.write { try $0.execute(sql: "UPDATE photo SET durationSeconds = CASE WHEN id = (SELECT min(id) FROM photo) THEN 0 ELSE 12.5 END") }
        try before.close()
        let catalog = try Catalog.open(at: path)
        let lengths = try catalog.database.read { try Row.fetchAll($0, sql: "SELECT durationSeconds FROM photo ORDER BY id").map { $0[0] as Double? } }
        #expect(lengths == [nil, 12.5])
    }

    @Test("a v25 catalog with a clock correction and photos without a zone resolves once in full, and its triggers watch the corrected clock")
    func correctedClockMigration() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = try copyCatalogFixture("v25-note-members", into: temp)
        let before = try DatabaseQueue(path: path)
        #expect(try before.read { try String.fetchOne($0, sql: "SELECT value FROM tripSetting WHERE key = 'resolvedInputs'") } != nil)
        try before.close()

        let catalog = try Catalog.open(at: path)
        #expect(try catalog.setting(Catalog.SettingKey.resolvedInputs) == nil)
        #expect(try catalog.storedResolutionSettings().clockOffsets == ["+01:00:00"])
        // No corrected clock yet (the full pass stores them); a change to one lists the photo
        // for clustering and raises its stamp.
        let changes = try catalog.database.write { db -> (stamp: [Int64?], pending: Int?, stored: [String?]) in
            let stored = try String?.fetchAll(db, sql: "SELECT wallTime FROM photo ORDER BY path")
            try db.execute(sql: "DELETE FROM clusterPending")
            let before = try Int64.fetchOne(db, sql: "SELECT max(changeStamp) FROM photo")
            try db.execute(sql: "UPDATE photo SET wallTime = '2025-06-12T04:30:00.050' WHERE path = 'early.jpg'")
            return ([before, try Int64.fetchOne(db, sql: "SELECT max(changeStamp) FROM photo")],
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM clusterPending"), stored)
        }
        #expect(changes.stored == [nil, nil])
        #expect(changes.pending == 1)
        #expect(changes.stamp[0] != nil && changes.stamp[1]! > changes.stamp[0]!)
    }

    @Test("notes an earlier build kept with an editor's CRLF line endings lose the \\r once, as the journal reader now reads them; a \\r inside a line stays")
    func noteLineEndingsMigration() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = try copyCatalogFixture("v25-note-members", into: temp)
        let before = try DatabaseQueue(path: path)
        try before.write { db in
            for (owner, text) in [("v1", "Belem\r\ntower\r\r\n"), ("v2", "a\rb\n"), ("2025-06-10", "day\n")] {
                try db.execute(sql: "INSERT INTO journalNote (ownerId, kind, text, updatedAt) VALUES (?, ?, ?, '2025-06-10T00:00:00Z')",
                               arguments: [owner, owner.hasPrefix("v") ? "visit" : "day", text])
            }
        }
        try before.close()
        let notes = try Catalog.open(at: path).journalNotes().mapValues(\.text)
        #expect(notes == ["v1": "Belem\ntower\n", "v2": "a\rb\n", "2025-06-10": "day\n"])
    }
}

/// A copy of the catalog fixture `name` (`Fixtures/catalogs/NAME.sqlite`, a released schema's)
/// in `temp`, to migrate; its path.
func copyCatalogFixture(_ name: String, into temp: TemporaryFolder) throws -> String {
    let path = temp.url.appendingPathComponent("catalog.sqlite").path
    try FileManager.default.copyItem(atPath: TestPaths.fixtures.appendingPathComponent("catalogs/\(name).sqlite").path, toPath: path)
    return path
}
