import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// What an unchanged rerun asks of the catalog: one streamed pass that keeps no row, and the
/// counts the last change stored.
@Suite("Catalog on an unchanged rerun")
struct CatalogRerunTests {
    @Test("the summary's counts are kept with every write of the photo table, and equal a count of the rows")
    func keptCounts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        func record(_ path: String, latitude: Double?, format: ImageFormat = .jpeg, status: FileReading.Status = .read) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: status, format: format, metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.latitude = latitude
            record.longitude = latitude
            return record
        }
        func recounted() throws -> CatalogCounts { try catalog.database.read { try Catalog.countPhotos($0) } }
        try catalog.save(new: [record("a.jpg", latitude: 1), record("b.jpg", latitude: nil), record("c.mov", latitude: 2, format: .video),
                               record("d.txt", latitude: nil, status: .skipped), record("e.jpg", latitude: nil, status: .unreadable)], updated: [])
        #expect(try catalog.counts() == CatalogCounts(withGPS: 2, withoutGPS: 1, unreadable: 1, skipped: 1, videos: 1))
        // Every kind of write: a position lost, a file now unreadable, a Live Photo link, a
        // removal, a row deleted outright; after each, the kept counts are a recount's.
        let writes = [
            "UPDATE photo SET latitude = NULL, longitude = NULL WHERE path = 'a.jpg'",
            "UPDATE photo SET status = 'unreadable' WHERE path = 'b.jpg'",
            "UPDATE photo SET liveStillId = (SELECT id FROM photo WHERE path = 'a.jpg') WHERE path = 'c.mov'",
            "UPDATE photo SET removedAt = '2026-01-01T00:00:00Z' WHERE path = 'e.jpg'",
            "UPDATE photo SET status = 'read', latitude = 5, longitude = 5 WHERE path = 'e.jpg'",
            "DELETE FROM photo WHERE path = 'd.txt'",
        ]
        for sql in writes {
            try catalog.database.write { try $0.execute(sql: sql) }
            #expect(try catalog.counts() == recounted(), "after \(sql)")
        }
        #expect(try catalog.counts() == CatalogCounts(withGPS: 1, withoutGPS: 1, unreadable: 1, skipped: 0, videos: 1, livePhotoVideos: 1))
    }

    @Test("an unchanged folder's plan keeps no catalog row: every row is settled as it streams past")
    func unchangedPlanHoldsNothing() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        let files = (0..<50).map { ScannedFile(relativePath: "\($0).jpg", size: 10, modifiedNanos: Int64($0)) }
        try catalog.save(new: files.map { PhotoRecord(file: $0, reading: FileReading(status: .read, format: .jpeg, metadata: PhotoMetadata(),
                                                                                      skipReason: nil, fingerprint: $0.relativePath)) },
                         updated: [])
        var kept = -1
        var changed = files
        changed[7].size = 11
        let plan = try ReadPlan(files: changed, readerVersion: MetadataReader.version) { settled throws(GeoTripError) in
            let rows = try catalog.files(unlessSettled: settled)
            kept = rows.count
            return rows
        }
        #expect(kept == 1)
        #expect(plan.unchangedCount == 49)
        #expect(plan.knownReads.map(\.file.relativePath) == ["7.jpg"])
    }
}
