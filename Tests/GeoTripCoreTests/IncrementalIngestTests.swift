import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Reruns of `ingest` on a copy of the sample trip: only what changed is read, identities
/// survive moves, and the catalog is guarded against concurrent and newer writers.
@Suite("Incremental ingest")
struct IncrementalIngestTests {
    /// The sample trip's file count, from a listing of the folder (independent of geotrip),
    /// without what `make demo` left there.
    static let sampleFileCount = TestPaths.sampleFiles.count

    func ingest(_ folder: URL) async throws -> IngestSummary {
        try await IngestPipeline(options: IngestOptions(folder: folder.path)).run(progress: SilentProgress())
    }

    func photoIDs(_ folder: URL) throws -> [String: Int64] {
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: folder.path))
        // Keyed by String, which merges NFC and NFD spellings; tests look up plain ASCII names.
        return Dictionary(try catalog.photos().map { ($0.path, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("first run reads everything; an unchanged rerun reads nothing and reports the same folder")
    func unchangedRerun() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()

        let first = try await ingest(trip)
        #expect(first.scanned == Self.sampleFileCount)
        #expect(first.new == Self.sampleFileCount)
        #expect(first.errors == 1)  // IMG_0099.JPG, truncated
        #expect(first.withGPS == SampleTripReadingTests.truth.values.filter { $0.latitude != nil }.count)

        let second = try await ingest(trip)
        #expect(second.unchanged == Self.sampleFileCount)
        #expect(second.new == 0 && second.changed == 0 && second.removed == 0 && second.moved == 0)
        #expect((second.withGPS, second.withoutGPS, second.skipped, second.errors)
                == (first.withGPS, first.withoutGPS, first.skipped, first.errors))
        // Only the truncated photo is read again (unreadable files are retried every run).
        #expect(second.diagnosticCount == 1)
    }

    @Test("new, changed, removed and moved files are each recognised, and moved photos keep their identity")
    func changesAreRecognised() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let files = FileManager.default
        _ = try await ingest(trip)
        let before = try photoIDs(trip)

        // new: a copy of a photo under a new name elsewhere (its fingerprint matches a present
        // file, so it must not be taken for a move)
        try files.copyItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent("copy of IMG_0031.JPG"))
        // changed: same path, new content (a different photo's bytes)
        let changedPath = "IMG_0032.JPG"
        try files.removeItem(at: trip.appendingPathComponent(changedPath))
        try files.copyItem(at: trip.appendingPathComponent("IMG_0033.JPG"), to: trip.appendingPathComponent(changedPath))
        // removed
        try files.removeItem(at: trip.appendingPathComponent("IMG_0034.JPG"))
        // moved into a new folder and renamed
        try files.createDirectory(at: trip.appendingPathComponent("Madrid"), withIntermediateDirectories: true)
        try files.moveItem(at: trip.appendingPathComponent("IMG_0035.JPG"), to: trip.appendingPathComponent("Madrid/retiro.jpg"))
        try files.moveItem(at: trip.appendingPathComponent("IMG_0100.HEIC"), to: trip.appendingPathComponent("Madrid/IMG_0100.HEIC"))

        let summary = try await ingest(trip)
        #expect(summary.new == 1)
        #expect(summary.changed == 1)
        #expect(summary.removed == 1)
        #expect(summary.moved == 2)
        #expect(summary.unchanged == Self.sampleFileCount - 4)
        #expect(summary.scanned == Self.sampleFileCount)

        let after = try photoIDs(trip)
        #expect(after["Madrid/retiro.jpg"] == before["IMG_0035.JPG"])
        #expect(after["Madrid/IMG_0100.HEIC"] == before["IMG_0100.HEIC"])
        #expect(after[changedPath] == before[changedPath])
        #expect(after["IMG_0034.JPG"] == nil)
        #expect(after["copy of IMG_0031.JPG"] != nil && after["copy of IMG_0031.JPG"] != before["IMG_0031.JPG"])

        // The changed file now carries the other photo's values.
        let photos = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path)).photos()
        let changed = try #require(photos.first { $0.path == changedPath })
        let source = try #require(photos.first { $0.path == "IMG_0033.JPG" })
        #expect(changed.coordinate == source.coordinate && changed.localTime == source.localTime)

        // A removed photo that comes back keeps its old identity.
        try files.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0034.JPG"), to: trip.appendingPathComponent("IMG_0034.JPG"))
        let returned = try await ingest(trip)
        #expect(returned.new == 1 && returned.moved == 0)
        #expect(try photoIDs(trip)["IMG_0034.JPG"] == before["IMG_0034.JPG"])
    }

    @Test("renames that swap two names, and names in NFC and NFD, survive reruns on real files")
    func swapsAndUnicodeNames() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let files = FileManager.default
        let nfc = trip.appendingPathComponent("caf\u{E9}.jpg"), nfd = trip.appendingPathComponent("cafe\u{301}.jpg")
        try files.copyItem(at: trip.appendingPathComponent("IMG_0036.JPG"), to: nfc)
        try files.copyItem(at: trip.appendingPathComponent("IMG_0037.JPG"), to: nfd)
        let first = try await ingest(trip)
        #expect(first.new == Self.sampleFileCount + 2)
        let before = try photoIDs(trip)

        // Swap two photos' names through a third name.
        let a = trip.appendingPathComponent("IMG_0038.JPG"), b = trip.appendingPathComponent("IMG_0039.JPG")
        let parked = trip.appendingPathComponent("parked")
        try files.moveItem(at: a, to: parked)
        try files.moveItem(at: b, to: a)
        try files.moveItem(at: parked, to: b)
        // Touch both Unicode spellings, so both are read again.
        for url in [nfc, nfd] { try files.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path) }

        let second = try await ingest(trip)
        #expect(second.moved == 2)
        #expect(second.changed == 2)
        #expect(second.new == 0 && second.removed == 0)
        let after = try photoIDs(trip)
        #expect(after["IMG_0038.JPG"] == before["IMG_0039.JPG"])
        #expect(after["IMG_0039.JPG"] == before["IMG_0038.JPG"])
    }

    @Test("a file name that is not UTF-8 and a far-future modification time are read like any other")
    func awkwardFiles() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // "café.jpg" in Latin-1, as old Windows zips write it.
        let latin1 = Array(trip.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let source = try Data(contentsOf: trip.appendingPathComponent("IMG_0031.JPG"))
        let descriptor = open(latin1.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        _ = source.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // A modification time in the year 2603, past what nanoseconds since 1970 fit in 64 bits.
        let future = trip.appendingPathComponent("IMG_0032.JPG").path
        var times = [timespec(tv_sec: 20_000_000_000, tv_nsec: 0), timespec(tv_sec: 20_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, future, &times, 0) == 0)

        let first = try await ingest(trip)
        #expect(first.scanned == Self.sampleFileCount + 1)
        #expect(first.diagnostics.allSatisfy { !$0.message.contains("could not") })
        let photos = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path)).photos()
        let escaped = try #require(photos.first { $0.path == "caf%E9.jpg" })
        #expect(escaped.coordinate != nil)
        let second = try await ingest(trip)
        #expect(second.unchanged == Self.sampleFileCount + 1)
    }

    @Test("retagging with exiftool keeps the photo's identity and its _original backup is skipped",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func exiftoolRetag() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await ingest(trip)
        let before = try photoIDs(trip)
        let exiftool = Process()
        exiftool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        exiftool.arguments = ["-q", "-Rating=3", trip.appendingPathComponent("IMG_0031.JPG").path]
        try exiftool.run()
        exiftool.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: trip.appendingPathComponent("IMG_0031.JPG_original").path))

        let summary = try await ingest(trip)
        #expect(summary.changed == 1 && summary.moved == 0 && summary.new == 1)
        let after = try photoIDs(trip)
        #expect(after["IMG_0031.JPG"] == before["IMG_0031.JPG"])
        #expect(after["IMG_0031.JPG_original"] == nil)  // skipped, not a photo
    }

    @Test("a photo whose capture time was put right in another program keeps its thumbnail; one turned gets a new one",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool")))
    func thumbnailKeptThroughMetadataEdits() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let thumbs = trip.appendingPathComponent("geotrip/thumbs")
        func listing() throws -> [String: UInt64] {
            Dictionary(uniqueKeysWithValues: try FileManager.default.contentsOfDirectory(atPath: thumbs.path).map { name in
                (name, (try FileManager.default.attributesOfItem(atPath: thumbs.appendingPathComponent(name).path)[.systemFileNumber] as! NSNumber).uint64Value)
            })
        }
        let first = try await ingest(trip)
        #expect((first.export?.thumbnails ?? 0) > 0)
        let before = try listing()
        let id = try #require(try photoIDs(trip)["IMG_0031.JPG"])
        #expect(before.keys.contains { $0.hasPrefix("\(id)-") })

        // exiftool rewrites the file (another size and time) with the clock put right by two minutes.
        let photo = trip.appendingPathComponent("IMG_0031.JPG").path
        let exiftool = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                          ["-q", "-overwrite_original", "-AllDates+=0:0:0 0:2:0", photo])
        #expect(exiftool.status == 0, "exiftool: \(exiftool.stderr)")
        let edited = try await ingest(trip)
        #expect(edited.changed == 1)
        #expect(edited.export?.thumbnails == 0)
        #expect(try listing() == before, "the same thumbnails, none written again")

        // Turned a quarter: the thumbnail is made again, upright, and the old one goes.
        let turn = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-q", "-overwrite_original", "-n", "-Orientation=6", photo])
        #expect(turn.status == 0, "exiftool: \(turn.stderr)")
        let turned = try await ingest(trip)
        #expect(turned.export?.thumbnails == 1)
        let after = try listing()
        #expect(after.count == before.count)
        #expect(Set(after.keys).subtracting(before.keys).count == 1)
        #expect(Set(before.keys).subtracting(after.keys).allSatisfy { $0.hasPrefix("\(id)-") })
    }

    /// Writes `data` to the file at `path`, given as bytes (a name that is not UTF-8).
    static func writeFile(_ data: Data, at path: [UInt8]) throws {
        let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    @Test("a non-UTF-8 name whose escaped form is another file's name is left out with a sentence")
    func escapedNameClash() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let source = try Data(contentsOf: trip.appendingPathComponent("IMG_0031.JPG"))
        try source.write(to: trip.appendingPathComponent("caf%E9.jpg"))  // a real name with a %
        try Self.writeFile(source, at: Array(trip.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8))

        let first = try await ingest(trip)
        #expect(first.scanned == Self.sampleFileCount + 1)
        #expect(first.diagnostics.contains { $0.message.contains("caf%E9.jpg: two files are shown by this name: the one really so named, which is read, and one whose name is not UTF-8") })
        let second = try await ingest(trip)
        #expect(second.unchanged == Self.sampleFileCount + 1)
        #expect(second.new == 0 && second.changed == 0)
    }

    @Test("a folder whose name is not UTF-8 beside one named as its escaped form is left out with a sentence, not a failed run")
    func escapedFolderNameClash() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let source = try Data(contentsOf: trip.appendingPathComponent("IMG_0031.JPG"))
        // `%E9t%E9/` (a real name) and `été/` in Latin-1, each with a photo of the same name.
        try FileManager.default.createDirectory(at: trip.appendingPathComponent("%E9t%E9"), withIntermediateDirectories: true)
        try source.write(to: trip.appendingPathComponent("%E9t%E9/a.jpg"))
        let latin1 = Array(trip.path.utf8) + [UInt8(ascii: "/"), 0xE9, 0x74, 0xE9]
        #expect(mkdir(latin1.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
        try Self.writeFile(source, at: latin1 + Array("/a.jpg".utf8))

        let first = try await ingest(trip)
        #expect(first.scanned == Self.sampleFileCount + 1)
        #expect(first.diagnostics.contains { $0.message.contains("%E9t%E9: this folder's name is not UTF-8") })
        let second = try await ingest(trip)
        #expect(second.unchanged == Self.sampleFileCount + 1)
        #expect(second.new == 0 && second.changed == 0)
    }

    @Test("a second run on a busy catalog is refused with the holder's pid")
    func busyCatalog() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let catalogPath = IngestOptions.defaultCatalogPath(for: trip.path)
        try FileManager.default.createDirectory(atPath: (catalogPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let held = try CatalogLock(catalogPath: catalogPath)
        await #expect(throws: GeoTripError.catalogBusy(path: catalogPath, pid: Int(getpid()))) {
            try await ingest(trip)
        }
        withExtendedLifetime(held) {}
    }

    @Test("a catalog made by a newer geotrip is refused and left byte for byte as it was")
    func newerCatalogIsRefused() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await ingest(trip)
        let catalogPath = IngestOptions.defaultCatalogPath(for: trip.path)
        // A future geotrip would have registered more migrations; pretend one ran.
        let queue = try DatabaseQueue(path: catalogPath)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: catalogPath))

        await #expect(throws: GeoTripError.catalogTooNew(path: catalogPath, unknownMigrations: ["v99-from-the-future"])) {
            try await ingest(trip)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: catalogPath))
        #expect(after == before)
        // Nothing made beside it either.
        #expect(!FileManager.default.fileExists(atPath: catalogPath + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: catalogPath + "-wal"))
    }

    @Test("a file that is not a catalog gives a clear error, not a crash")
    func damagedCatalog() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path = temp.url.appendingPathComponent("catalog.sqlite").path
        try Data("this is not SQLite, just some words that are long enough".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: GeoTripError.catalogDamaged(path: path, reason: "it is not a geotrip catalog, or it is damaged")) {
            try Catalog.open(at: path)
        }
    }
}
