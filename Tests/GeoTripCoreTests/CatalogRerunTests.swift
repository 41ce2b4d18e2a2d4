import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// What an unchanged rerun asks of the catalog: one streamed pass that keeps no row, and the
/// counts the last change stored.
@Suite("Catalog on an unchanged rerun")
struct CatalogRerunTests {
    @Test("the summary's counts are stored with each change and read back, not counted again, until the next change")
    func storedCounts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        func record(_ path: String, latitude: Double?) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: .read, format: .jpeg, metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.latitude = latitude
            record.longitude = latitude
            return record
        }
        try catalog.save(new: [record("a.jpg", latitude: 1), record("b.jpg", latitude: nil)], updated: [])
        #expect(try catalog.counts() == CatalogCounts(withGPS: 1, withoutGPS: 1))

        // What is stored is what an unchanged run reports: a hand-made value shows it is not counted again.
        let generation = try #require(try catalog.setting(Catalog.SettingKey.catalogGeneration))
        try catalog.setSetting(Catalog.SettingKey.fileCounts, to: generation + "|{\"withGPS\":7,\"withoutGPS\":0,\"unreadable\":0,\"skipped\":0,\"videos\":0,\"livePhotoVideos\":0}")
        #expect(try catalog.counts().withGPS == 7)

        // A change stores them anew; counts from another generation (a `tag` since) are counted again.
        try catalog.save(new: [record("c.jpg", latitude: 2)], updated: [])
        #expect(try catalog.counts() == CatalogCounts(withGPS: 2, withoutGPS: 1))
        try catalog.setSetting(Catalog.SettingKey.fileCounts, to: "0|{\"withGPS\":7,\"withoutGPS\":0,\"unreadable\":0,\"skipped\":0,\"videos\":0,\"livePhotoVideos\":0}")
        #expect(try catalog.counts() == CatalogCounts(withGPS: 2, withoutGPS: 1))
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
