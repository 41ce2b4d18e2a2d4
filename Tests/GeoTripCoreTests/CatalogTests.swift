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
        let path = temp.url.appendingPathComponent("catalog.sqlite").path
        try FileManager.default.copyItem(atPath: TestPaths.fixtures.appendingPathComponent("catalogs/v1-photos.sqlite").path, toPath: path)

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
        #expect(throws: DatabaseError.self) { try catalog.save(new: [record], updated: []) }
        record.path = "b.jpg"
        record.latitude = 91
        record.longitude = 0
        #expect(throws: DatabaseError.self) { try catalog.save(new: [record], updated: []) }
        record.latitude = 10
        record.longitude = nil
        #expect(throws: DatabaseError.self) { try catalog.save(new: [record], updated: []) }
        #expect(try catalog.photos().map(\.path) == ["a.jpg"])
    }
}

@Suite("Read plan")
struct ReadPlanTests {
    func known(_ id: Int64, size: Int64 = 10, fingerprint: String, removed: Bool = false) -> CatalogedFile {
        CatalogedFile(id: id, fileSize: size, modifiedNanos: 5, fingerprint: fingerprint, removed: removed)
    }

    func file(_ path: String, size: Int64 = 10) -> ScannedFile {
        ScannedFile(relativePath: path, size: size, modifiedNanos: 5)
    }

    @Test("unchanged files are not read; changed, new and returning files are")
    func whatIsRead() {
        let plan = ReadPlan(
            files: [file("same.jpg"), file("grown.jpg", size: 11), file("new.jpg"), file("back.jpg")],
            known: ["same.jpg": known(1, fingerprint: "a"), "grown.jpg": known(2, fingerprint: "b"),
                    "back.jpg": known(3, fingerprint: "c", removed: true)])
        #expect(plan.unchangedCount == 1)
        #expect(plan.reads.map(\.file.relativePath).sorted() == ["back.jpg", "grown.jpg", "new.jpg"])
        #expect(plan.stillMissing.isEmpty)
    }

    @Test("a new path with a departed file's fingerprint is that file moved; each departed file moves once")
    func moves() {
        var plan = ReadPlan(
            files: [file("x/one.jpg"), file("x/two.jpg"), file("x/three.jpg")],
            known: ["one.jpg": known(1, fingerprint: "dup"), "two.jpg": known(2, fingerprint: "dup"),
                    "old.jpg": known(7, fingerprint: "gone", removed: true), "lost.jpg": known(9, fingerprint: "lost")])
        let reads = Dictionary(uniqueKeysWithValues: plan.reads.map { ($0.file.relativePath, $0) })
        let first = plan.resolve(reads["x/one.jpg"]!, fingerprint: "dup")
        let second = plan.resolve(reads["x/two.jpg"]!, fingerprint: "dup")
        let third = plan.resolve(reads["x/three.jpg"]!, fingerprint: "dup")
        let movedIDs = [first, second].compactMap { if case .update(let id, .moved) = $0 { id } else { nil } }
        #expect(Set(movedIDs) == [1, 2])
        #expect(third == .insert)
        #expect(plan.stillMissing == [9])  // old.jpg was already removed; lost.jpg has gone now
    }

    @Test("a file removed in an earlier run is recognised when it reappears elsewhere")
    func moveOfRemovedFile() {
        var plan = ReadPlan(files: [file("new-name.jpg")], known: ["old.jpg": known(7, fingerprint: "f", removed: true)])
        #expect(plan.resolve(plan.reads[0], fingerprint: "f") == .update(id: 7, outcome: .moved))
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
    ])
    func subSeconds(text: String, milliseconds: Int) {
        #expect(DateText.parseSubSecond(text) == milliseconds)
    }

    @Test("offsets outside -12:00...+14:00 or badly formed are refused", arguments: [
        ("+09:00", 540), ("-03:30", -210), ("+14:00", 840), ("-12:00", -720), ("Z", 0),
        ("+14:15", nil), ("-12:30", nil), ("+25:00", nil), ("+0900", nil), ("09:00", nil), ("+09:60", nil),
    ] as [(String, Int?)])
    func offsets(text: String, minutes: Int?) {
        #expect(UTCOffset(parsing: text)?.minutes == minutes)
    }
}
