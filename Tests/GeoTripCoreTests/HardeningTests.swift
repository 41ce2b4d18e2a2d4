import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Regression tests for what a hostile-user run of geotrip found (issue 9): killed sidecar runs,
/// options that trapped, files swapped for FIFOs, implausible dates, other programs' databases,
/// catalogs reached through links, and the messages for each.
@Suite("Hardening")
struct HardeningTests {
    /// Copies of the sample trip in numbered subfolders: 8 photos of each copy are placed by
    /// their neighbours, so `copies` × 8 sidecars are written with --write-xmp.
    static func largeTrip(in temp: TemporaryFolder, copies: Int) throws -> URL {
        let trip = temp.url.appendingPathComponent("large")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // Without what `make demo` leaves in SampleImages (its catalog and outputs).
        for copy in 0..<copies { _ = try temp.copySampleImages(to: String(format: "large/copy-%02d", copy)) }
        return trip
    }

    /// Every `.xmp` file under `folder`, relative paths.
    static func sidecars(in folder: URL) -> Set<String> {
        Set((FileManager.default.subpaths(atPath: folder.path) ?? []).filter { $0.hasSuffix(".xmp") })
    }

    /// Cancels the task that reports, once the sidecar stage has got `after` photos in: the same
    /// cancellation a signal causes, at a fixed point instead of a random one.
    struct StopDuringSidecars: IngestProgressReporting {
        let after: Int
        func report(_ progress: IngestProgress) {
            if progress.stage == .sidecars && progress.done >= after { withUnsafeCurrentTask { $0?.cancel() } }
        }
        func finish() {}
    }

    // MARK: 1, 2: killed runs

    @Test("a run stopped while writing sidecars leaves the rest pending; the next run writes them and removes leftover temporary files")
    func sidecarsResume() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.largeTrip(in: temp, copies: 30)
        // What a run killed between creating and renaming a temporary file leaves behind.
        let leftover = trip.appendingPathComponent("copy-03/.IMG_0031.JPG.xmp.geotrip-0A1B2C3D.tmp")
        try Data("<half a sidecar".utf8).write(to: leftover)
        // Not geotrip's naming: never touched.
        let stranger = trip.appendingPathComponent("copy-03/.IMG_0031.JPG.xmp.other-0A1B2C3D.tmp")
        try Data("someone else's".utf8).write(to: stranger)

        var options = IngestOptions(folder: trip.path)
        options.writeXMP = true
        let stopped = Task { try await IngestPipeline(options: options).run(progress: StopDuringSidecars(after: 64)) }
        await #expect(throws: GeoTripError.self) { try await stopped.value }
        let partial = Self.sidecars(in: trip)
        #expect(!partial.isEmpty)

        // Nothing changed in the folder: before the fix this run saw nothing to do.
        let rerun = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly)
        let inferred = try catalog.photos().filter { $0.locationSource != nil && $0.locationSource != .exif }
        let expected = Set(inferred.map { $0.path + ".xmp" })
        #expect(inferred.count >= 30 * 8)  // 8 photos of each copy are placed by neighbours or tracks
        #expect(partial.count < expected.count, "the first run was not stopped part-way; the test proved nothing")
        #expect(Self.sidecars(in: trip) == expected)
        #expect(rerun.sidecarsWritten == expected.count - partial.count)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: stranger.path))

        // And a third run has nothing left to do.
        let third = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        #expect(third.sidecarsWritten == 0)
    }

    @Test("a sidecar of a photo moved while no run was watching is removed by the next full sync")
    func orphanedSidecarRemoved() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        var options = IngestOptions(folder: trip.path)
        options.writeXMP = true
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let before = Self.sidecars(in: trip)
        let moved = try #require(before.first { $0.hasPrefix("2025-06-10") })
        let photo = String(moved.dropLast(4))
        try FileManager.default.moveItem(at: trip.appendingPathComponent(photo), to: trip.appendingPathComponent("renamed.JPG"))

        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let after = Self.sidecars(in: trip)
        #expect(!after.contains(moved))
        #expect(after.contains("renamed.JPG.xmp"))
        #expect(after.count == before.count)
    }

    @Test("a photo whose name is not UTF-8 gets a sentence saying why it has no sidecar, not 'there is no photo'")
    func sidecarOfANonUTF8Name() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        // The Sintra folder's photos from the camera are placed by neighbours, so they get sidecars.
        let old = trip.appendingPathComponent("2025-06-11 Sintra").path
        var bytes = Array(old.utf8) + [0xE9, 0]  // "Sintra" + a Latin-1 é: not UTF-8
        #expect(old.withCString { from in bytes.withUnsafeMutableBufferPointer { rename(from, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) } } == 0)
        var options = IngestOptions(folder: trip.path)
        options.writeXMP = true
        let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let notes = summary.diagnostics.filter { $0.kind == .sidecarFailed }
        #expect(!notes.isEmpty)
        #expect(notes.allSatisfy { $0.path.hasPrefix("2025-06-11 Sintra%E9/") && $0.message.contains("not valid UTF-8") })
    }

    // MARK: 3: option ranges

    @Test("clock offsets are bounded to 100 years and never overflow", arguments: [
        ("+106751991167301 00:00:00", true), ("+106751991167300 00:00:00", true), ("+99999999999999999999999 00:00:00", true),
        ("+36526 00:00:00", true), ("-36525 00:00:01", true), ("+36525 00:00:00", false), ("-1 02:00:00", false),
    ])
    func clockOffsetRange(text: String, outOfRange: Bool) throws {
        if outOfRange {
            #expect(throws: ClockCorrectionError(text: text, outOfRange: true)) { try ClockCorrection(parsing: text) }
        } else {
            #expect(abs(try ClockCorrection(parsing: text).seconds) <= ClockCorrection.maximumSeconds)
        }
    }

    @Test("a remembered threshold out of range is an error that names it, and giving a valid one repairs the catalog")
    func rememberedThresholdOutOfRange() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let (trip, path) = try await Self.ingestedSample(in: temp)
        // What an older geotrip (which accepted any positive radius) or a hand edit could store.
        try await Self.storeSetting(path, "clustering", #"{"placeRadius":1e-13,"visitGap":7200,"visitRadius":250}"#)

        await #expect(throws: GeoTripError.settingInvalid(catalog: path, option: "--place-radius", problem: "1e-13 is outside 1 to 100000 metres")) {
            try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        }
        await #expect(throws: GeoTripError.settingInvalid(catalog: path, option: "--place-radius", problem: "1e-13 is outside 1 to 100000 metres")) {
            try await PhotoTagger(folder: trip.path, catalogPath: path).tag(["IMG_0031.JPG"], with: .coordinate(Coordinate(latitude: 38.7, longitude: -9.1)))
        }
        var repair = IngestOptions(folder: trip.path)
        repair.placeRadius = 150
        let repaired = try await IngestPipeline(options: repair).run(progress: SilentProgress())
        #expect(repaired.trip?.places ?? 0 > 0)
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
    }

    /// A copy of the sample trip, ingested: its folder and its catalog's path.
    static func ingestedSample(in temp: TemporaryFolder) async throws -> (trip: URL, catalog: String) {
        let trip = try temp.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        return (trip, IngestOptions.defaultCatalogPath(for: trip.path))
    }

    /// Stores `value` under `key` in the trip's settings, as a hand edit would.
    static func storeSetting(_ path: String, _ key: String, _ value: String) async throws {
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO tripSetting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
        try queue.close()
    }

    @Test("a remembered day start or zone that makes no sense is named, not used")
    func rememberedDayStartAndZone() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let (trip, path) = try await Self.ingestedSample(in: temp)
        try await Self.storeSetting(path, "clustering", #"{"dayStartMinutes":-1,"placeRadius":150,"visitGap":7200,"visitRadius":250}"#)
        await #expect(throws: GeoTripError.settingInvalid(catalog: path, option: "--day-starts", problem: "-1 minutes after midnight is not a time of day")) {
            try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        }
        var repair = IngestOptions(folder: trip.path)
        repair.dayRule = LocalDayRule()
        _ = try await IngestPipeline(options: repair).run(progress: SilentProgress())

        try await Self.storeSetting(path, "resolution", #"{"assumedZone":"Mars/Olympus","clockOffsets":[],"tracks":[],"writeXMP":false}"#)
        await #expect(throws: GeoTripError.settingInvalid(catalog: path, option: "--tz", problem: "'Mars/Olympus' is not a time zone")) {
            try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        }
        // As the sentence says, a run given --tz (here `none`, forgetting it) replaces it.
        var forget = IngestOptions(folder: trip.path)
        forget.assumedZone = IngestOptions.forget
        _ = try await IngestPipeline(options: forget).run(progress: SilentProgress())
        #expect(try Catalog.open(at: path, access: .readOnly).storedResolutionSettings().assumedZone == nil)
        try await Self.storeSetting(path, "resolution", #"{"assumedZone":"Mars/Olympus","clockOffsets":[],"tracks":[],"writeXMP":false}"#)
        var zone = IngestOptions(folder: trip.path)
        zone.assumedZone = "Europe/Lisbon"
        _ = try await IngestPipeline(options: zone).run(progress: SilentProgress())
        #expect(try Catalog.open(at: path, access: .readOnly).storedResolutionSettings().assumedZone == "Europe/Lisbon")

        // Two thresholds out of range are named together, so one run given both repairs them.
        try await Self.storeSetting(path, "clustering", #"{"dayStartMinutes":2000,"placeRadius":0,"visitGap":7200,"visitRadius":250}"#)
        await #expect(throws: GeoTripError.settingInvalid(catalog: path, option: "--place-radius and --day-starts",
                                                          problem: "--place-radius 0 is outside 1 to 100000 metres; --day-starts 2000 minutes after midnight is not a time of day")) {
            try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        }
        var both = IngestOptions(folder: trip.path)
        (both.placeRadius, both.dayRule) = (150, LocalDayRule())
        _ = try await IngestPipeline(options: both).run(progress: SilentProgress())
    }

    @Test("remembered settings that cannot be read name the options that replace them, and giving those repairs the catalog")
    func unreadableSettings() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let (trip, path) = try await Self.ingestedSample(in: temp)
        try await Self.storeSetting(path, "clustering", "{not json")
        try await Self.storeSetting(path, "resolution", #"{"assumedZone": 7}"#)
        do {
            _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
            Issue.record("an unreadable setting was used")
        } catch let error as GeoTripError {
            guard case .settingUnreadable(_, let key, let options) = error else { Issue.record("\(error)"); return }
            #expect(key == "clustering" && options.contains("--day-starts"))
            #expect(!error.description.contains("Move it aside"))
        }
        var repair = IngestOptions(folder: trip.path)
        (repair.visitRadius, repair.visitGap, repair.placeRadius, repair.dayRule) = (250, 7200, 150, LocalDayRule())
        (repair.assumedZone, repair.writeXMP) = ("Europe/Lisbon", false)
        let repaired = try await IngestPipeline(options: repair).run(progress: SilentProgress())
        #expect(repaired.trip?.visits == 13)
        // Both are readable again, and a plain rerun works.
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
    }

    /// Cancels the run once reading has started: a run stopped before it resolves anything.
    struct StopDuringRead: IngestProgressReporting {
        func report(_ progress: IngestProgress) {
            if progress.stage == .read && progress.done > 0 { withUnsafeCurrentTask { $0?.cancel() } }
        }
        func finish() {}
    }

    @Test("settings given to a run that is stopped while reading are remembered for the next")
    func settingsOfAStoppedRun() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try Self.largeTrip(in: temp, copies: 20)
        var options = IngestOptions(folder: trip.path, batchSize: 10)
        options.assumedZone = "Asia/Tokyo"
        options.writeXMP = true
        let stopped = Task { try await IngestPipeline(options: options).run(progress: StopDuringRead()) }
        await #expect(throws: GeoTripError.self) { try await stopped.value }
        let remembered = try Catalog.open(at: options.catalogPath, access: .readOnly).storedResolutionSettings()
        #expect(remembered.assumedZone == "Asia/Tokyo")
        #expect(remembered.writeXMP)
        // The next run, given nothing, writes the sidecars the stopped one was asked for.
        let next = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        #expect(next.sidecarsWritten > 0)
    }

    @Test("thresholds outside their ranges are named, finite or not", arguments: [
        (ClusteringOptions(visitRadius: 0.5), "--visit-radius"), (ClusteringOptions(visitRadius: .nan), "--visit-radius"),
        (ClusteringOptions(visitGap: 1e308), "--visit-gap"), (ClusteringOptions(visitGap: 59), "--visit-gap"),
        (ClusteringOptions(placeRadius: 1e-300), "--place-radius"), (ClusteringOptions(placeRadius: .infinity), "--place-radius"),
    ])
    func thresholdRanges(options: ClusteringOptions, option: String) {
        #expect(options.outOfRange?.option == option)
        #expect(ClusteringOptions(visitRadius: 1, visitGap: 60, placeRadius: 100_000).outOfRange == nil)
    }

    @Test("several thresholds out of range are all named at once")
    func thresholdsNamedTogether() {
        let bad = ClusteringOptions(placeRadius: 0, dayRule: LocalDayRule(dayStartMinutes: 2000)).outOfRange
        #expect(bad?.option == "--place-radius and --day-starts")
        #expect(bad?.problem == "--place-radius 0 is outside 1 to 100000 metres; --day-starts 2000 minutes after midnight is not a time of day")
    }

    // MARK: 4: a file swapped for a FIFO

    @Test("a photo replaced by a FIFO after the scan is reported, never waited on", .timeLimit(.minutes(10)))
    func fifoIsNotOpenedForEver() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let fifo = temp.url.appendingPathComponent("IMG_0001.JPG")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // No writer ever opens the other end: a blocking open would wait for ever.
        let reading = MetadataReader().read(path: fifo.path)
        #expect(reading.status == .unreadable)
        #expect(reading.metadata.diagnostics.first?.message.contains("a named pipe (FIFO), not a photo file") == true)

        let folder = temp.url.appendingPathComponent("IMG_0002.JPG")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(MetadataReader().read(path: folder.path).metadata.diagnostics.first?.message.contains("a folder, not a photo file") == true)
    }

    @Test("entries named like photos that are no files (a FIFO, a dangling or looping link, a link to a folder), and any link to a folder, are each said, never read")
    func specialEntriesNamed() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url
        #expect(mkfifo(folder.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("gone.JPG").path, withDestinationPath: "nowhere.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop.heic").path, withDestinationPath: "loop.heic")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("album"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("album.mov").path, withDestinationPath: "album")
        // Not named like a photo: no news, but for a link to a folder, which a trip reached
        // through would be empty without a word.
        #expect(mkfifo(folder.appendingPathComponent("control").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("Camera").path, withDestinationPath: "album")
        // The output folder kept on another disk through a link is geotrip's own: not said.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("site").path, withDestinationPath: "album")
        var scanner = FolderScanner(root: folder.path)
        scanner.excludedFolders = ["site"]
        let listing = try scanner.scan()
        #expect(listing.files.isEmpty)
        #expect(listing.problems.sorted() == [
            "Camera: not scanned: it is a symbolic link to a folder, which geotrip does not follow (a loop, or another trip's photos, "
                + "could be behind one); ingest that folder itself, or move it here",
            "album.mov: not read: it is a link to a folder, not a photo file",
            "gone.JPG: not read: it is a symbolic link to nothing (no such file or directory), not a photo file",
            "loop.heic: not read: it is a symbolic link that loops, not a photo file",
            "pipe.jpg: not read: it is a named pipe (FIFO), not a photo file",
        ])
    }

    @Test("sidecars that are no files (a FIFO, a link to a device, a dangling link) are each said; a folder named like one is a folder")
    func specialSidecars() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url
        #expect(mkfifo(folder.appendingPathComponent("a.xmp").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("b.xmp").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("c.xmp").path, withDestinationPath: "nowhere.xmp")
        let album = folder.appendingPathComponent("d.xmp")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("2025-06-10 Lisboa/IMG_0001.JPG"),
                                        to: album.appendingPathComponent("IMG_0001.JPG"))
        let listing = try FolderScanner(root: folder.path).scan()
        #expect(listing.files.map(\.relativePath) == ["d.xmp/IMG_0001.JPG"])
        #expect(listing.problems.sorted() == [
            "a.xmp: not read: it is a named pipe (FIFO), not a sidecar file",
            "b.xmp: not read: it is a link to a device, not a sidecar file",
            "c.xmp: not read: it is a symbolic link to nothing, not a sidecar file",
        ])
    }

    /// A JPEG whose EXIF is a big-endian TIFF built here: IFD0 (Make, Model, `ifd0Extra`, and the
    /// Exif and GPS pointers), an Exif directory with DateTimeOriginal and its offset, and a GPS
    /// directory at 38°42'40"N 9°8'13"W; the pixels are the sample photo's.
    static func craftedJPEG(ifd0Extra: [(tag: UInt16, value: UInt32)], dateAsNumber: Bool = false) throws -> [UInt8] {
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(v >> UInt32($0) & 0xFF) } }
        typealias Entry = (tag: UInt16, type: Int, count: Int, bytes: [UInt8])
        func ascii(_ tag: UInt16, _ text: String) -> Entry { (tag, 2, text.utf8.count + 1, Array(text.utf8) + [0]) }
        func rationals(_ tag: UInt16, _ values: [UInt32]) -> Entry { (tag, 5, values.count, values.flatMap { be32($0) + be32(1) }) }
        func long(_ tag: UInt16, _ value: UInt32) -> Entry { (tag, 4, 1, be32(value)) }
        let exif = [dateAsNumber ? long(0x9003, 12_345) : ascii(0x9003, "2025:06:10 08:12:05"), ascii(0x9011, "+01:00")]
        let gps = [ascii(0x0001, "N"), rationals(0x0002, [38, 42, 40]), ascii(0x0003, "W"), rationals(0x0004, [9, 8, 13])]
        let ifd0Count = 4 + ifd0Extra.count
        let (ifd0At, exifAt) = (8, 8 + 2 + 12 * ifd0Count + 4)
        let gpsAt = exifAt + 2 + 12 * exif.count + 4
        let dataAt = gpsAt + 2 + 12 * gps.count + 4
        let ifd0 = ([ascii(0x010F, "Apple"), ascii(0x0110, "iPhone 13")] + ifd0Extra.map { long($0.tag, $0.value) }
            + [long(0x8769, UInt32(exifAt)), long(0x8825, UInt32(gpsAt))]).sorted { $0.tag < $1.tag }
        var data: [UInt8] = []
        func directory(_ entries: [Entry]) -> [UInt8] {
            var out = be16(entries.count)
            for entry in entries {
                out += be16(Int(entry.tag)) + be16(entry.type) + be32(UInt32(entry.count))
                if entry.bytes.count <= 4 {
                    out += entry.bytes + [UInt8](repeating: 0, count: 4 - entry.bytes.count)
                } else {
                    out += be32(UInt32(dataAt + data.count))
                    data += entry.bytes + (entry.bytes.count % 2 == 1 ? [0] : [])
                }
            }
            return out + be32(0)
        }
        let tiff = Array("MM".utf8) + [0, 0x2A] + be32(UInt32(ifd0At)) + directory(ifd0) + directory(exif) + directory(gps)
        let payload = Array("Exif".utf8) + [0, 0] + tiff + data
        // The sample photo without its own APP1 segments.
        let sample = [UInt8](try Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG")))
        var rest: [UInt8] = []
        var at = 2
        while at + 4 <= sample.count {
            let marker = sample[at + 1]
            if marker == 0xDA { rest += sample[at...]; break }
            let length = Int(sample[at + 2]) << 8 | Int(sample[at + 3])
            if marker != 0xE1 { rest += sample[at..<(at + 2 + length)] }
            at += 2 + length
        }
        return [0xFF, 0xD8, 0xFF, 0xE1] + be16(payload.count + 2) + payload + rest
    }

    @Test("a thumbnail pointer in IFD0 past the block's end, where libexif stops reading IFD0: the time and position are read past it, as exiftool reads them")
    func readPastLibexifStop() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for (name, extra) in [("far", [(UInt16(0x0201), UInt32(0xFFFF_FFF0)), (0x0202, 0xFFFF_FFFF)]),
                              ("long", [(UInt16(0x0201), UInt32(8)), (0x0202, 0xFFFF_FFFF)]),
                              ("plain", [])] {
            let photo = temp.url.appendingPathComponent(name + ".jpg")
            try Data(try Self.craftedJPEG(ifd0Extra: extra.map { (tag: $0.0, value: $0.1) })).write(to: photo)
            let reading = MetadataReader().read(path: photo.path)
            #expect(reading.metadata.localTime == LocalDateTime(iso8601: "2025-06-10T08:12:05"), "\(name): \(reading.metadata.diagnostics)")
            let latitude = try #require(reading.metadata.coordinate?.latitude, "\(name)")
            #expect(abs(latitude - (38 + 42.0 / 60 + 40.0 / 3600)) < 1e-6)
            #expect(reading.metadata.diagnostics.contains { $0.message.contains("read past it") } == (name != "plain"), "\(name)")
        }
        // A capture time stored as a number is said, not passed over.
        let numbered = temp.url.appendingPathComponent("number.jpg")
        try Data(try Self.craftedJPEG(ifd0Extra: [], dateAsNumber: true)).write(to: numbered)
        let reading = MetadataReader().read(path: numbered.path)
        #expect(reading.metadata.localTime == nil && reading.metadata.coordinate != nil)
        #expect(reading.metadata.diagnostics.map(\.message) == ["DateTimeOriginal is stored as Long, not as text; not used"])
    }

    // MARK: 7: dates no camera can have taken

    @Test("capture times before 1826 or after tomorrow are reported, not silently dropped, and the summary counts what is stored")
    func implausibleDates() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        for (name, date) in [("first.jpg", "0001:01:01 00:00:00"), ("last.jpg", "9999:12:31 23:59:59"), ("fine.jpg", "2025:06:10 10:00:00")] {
            let photo = trip.appendingPathComponent(name)
            try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
            // exiftool writes the dates, as a camera with a reset clock would have.
            _ = try XMPSidecarTests.run(XMPSidecarTests.exiftool, [
                "-q", "-overwrite_original", "-DateTimeOriginal=\(date)", "-OffsetTimeOriginal=+01:00", "-GPS:all=", photo.path,
            ])
        }
        // A GPS receiver's time only, years ahead: no clock offset touches it.
        let receiver = trip.appendingPathComponent("receiver.jpg")
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: receiver)
        _ = try XMPSidecarTests.run(XMPSidecarTests.exiftool, [
            "-q", "-overwrite_original", "-AllDates=", "-OffsetTime*=", "-SubSecTime*=", "-GPSDateStamp=2999:01:01", "-GPSTimeStamp=12:00:00",
            receiver.path,
        ])
        let summary = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let problems = summary.diagnostics.filter { ($0.message.contains(" is before 1826, the year of the earliest photograph") || $0.message.contains(" is more than a day after this run")) }
        #expect(Set(problems.map(\.path)) == ["first.jpg", "last.jpg", "receiver.jpg"])
        let photos = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly).photos()
        #expect(photos.first { $0.path == "fine.jpg" }?.utcTime != nil)
        var stored: [String: Int] = [:]
        for photo in photos { stored[(photo.timeSource ?? .none).rawValue, default: 0] += 1 }
        #expect(summary.resolution?.timeSources == stored)
        #expect(stored["offset-tag"] == 1)
        // `photos --json` tells each photo's sentence again, from what is stored, as the run did.
        func listed() throws -> [String: [String]] {
            let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly)
            var implausible = try catalog.implausibleTimes()
            return Dictionary(uniqueKeysWithValues: try catalog.photos().map { ($0.path, implausible.sentence(for: $0).map { [$0] } ?? []) })
        }
        let sentences = Dictionary(uniqueKeysWithValues: problems.map { ($0.path, [$0.message]) })
        #expect(try listed() == sentences.merging(["fine.jpg": []]) { $1 })

        // A clock offset that pushes a good date out of range is reported the same way.
        var pushed = IngestOptions(folder: trip.path)
        pushed.clockOffsets = ["+36525 00:00:00"]
        let again = try await IngestPipeline(options: pushed).run(progress: SilentProgress())
        let fine = try #require(again.diagnostics.first { $0.path == "fine.jpg" })
        #expect(fine.message.contains("(after --clock-offset)"))
        #expect(try listed()["fine.jpg"] == [fine.message])
        let gps = try #require(again.diagnostics.first { $0.path == "receiver.jpg" })
        #expect(gps.message.contains("2999-01-01T12:00:00Z is more than a day after this run, so"), "\(gps.message)")
        #expect(try listed()["receiver.jpg"] == [gps.message])
        // A camera's own offset, its name in another case, is said as one too.
        let late = Date(timeIntervalSince1970: 40_000_000_000)
        for name in ["FUJIFILM X-T30", "fujifilm x-t30"] {
            let message = PlausibleCaptureTime.problem(late, written: "3237-07-23T03:00:00", cameraTime: true, camera: "FUJIFILM X-T30",
                                                       corrections: [try ClockCorrection(parsing: "\(name)=+1000 00:00:00")], latest: Date())
            #expect(message?.contains("(after --clock-offset)") == true, "\(String(describing: message))")
        }
    }

    @Test("a photo dated just past tomorrow is refused, and given its time by the first run after that time became plausible, as a fresh ingest would")
    func futureTimeBecomesPlausible() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        let soon = start.addingTimeInterval(86_400 + 3_600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        // A copy of a sample photo taken at `date` on its camera's clock, with what exiftool is
        // told besides (no offset and no position unless given).
        func add(_ name: String, at date: Date, _ evidence: [String] = ["-OffsetTimeOriginal=+00:00"]) throws {
            let photo = trip.appendingPathComponent(name)
            try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0031.JPG"), to: photo)
            _ = try XMPSidecarTests.run(XMPSidecarTests.exiftool, [
                "-q", "-overwrite_original", "-DateTimeOriginal=\(formatter.string(from: date))", "-OffsetTime=", "-OffsetTimeOriginal=",
                "-OffsetTimeDigitized=", "-GPS:all=",
            ] + evidence + [photo.path])
        }
        let tokyo = ["-OffsetTimeOriginal=+09:00", "-GPSLatitude=35.6812", "-GPSLatitudeRef=N", "-GPSLongitude=139.7671", "-GPSLongitudeRef=E"]
        try add("soon.jpg", at: soon)
        try add("fine.jpg", at: Date(timeIntervalSince1970: 1_749_549_600))  // 2025-06-10 10:00
        // A camera without GPS or offset between two Tokyo photos, its clock just past tomorrow
        // read as UTC: refused; once plausible, placed between them and timed by Tokyo's zone.
        // Its own evidence (no position) decides when, not the position it was placed at.
        try add("tokyo-1.jpg", at: start.addingTimeInterval(86_400 + 80 * 60), tokyo)
        try add("tokyo-2.jpg", at: start.addingTimeInterval(86_400 + 90 * 60), [])
        try add("tokyo-3.jpg", at: start.addingTimeInterval(86_400 + 100 * 60), tokyo)
        // A photo with neither zone nor neighbours: its time stays floating (none stored), and
        // reruns leave it be.
        try add("floating.jpg", at: Date(timeIntervalSince1970: 1_577_880_000), [])  // 2020-01-01 12:00
        func ingest(at now: Date, catalog: String? = nil) async throws -> IngestSummary {
            var options = IngestOptions(folder: trip.path)
            options.now = now
            // A second catalog writes its own outputs: one journal is one catalog's.
            if let catalog { options.catalogPath = catalog; options.outputFolder = catalog + ".out" }
            return try await IngestPipeline(options: options).run(progress: SilentProgress())
        }
        let catalog = IngestOptions.defaultCatalogPath(for: trip.path)
        func time(of path: String, in catalog: String) throws -> String? {
            try Catalog.open(at: catalog, access: .readOnly).photos().first { $0.path == path }?.utcTime?.iso8601
        }
        func soonTime(_ catalog: String) throws -> String? { try time(of: "soon.jpg", in: catalog) }
        let first = try await ingest(at: start)
        #expect(Set(first.diagnostics.filter { ($0.message.contains(" is before 1826, the year of the earliest photograph") || $0.message.contains(" is more than a day after this run")) }.map(\.path)) == ["soon.jpg", "tokyo-2.jpg"])
        #expect(try soonTime(catalog) == nil)
        // Half an hour on, still too late: the rerun lists nothing, and changes nothing.
        func generation() throws -> String? {
            try Catalog.open(at: catalog, access: .readOnly).setting(Catalog.SettingKey.catalogGeneration)
        }
        let before = try generation()
        _ = try await ingest(at: start.addingTimeInterval(1_800))
        #expect(try soonTime(catalog) == nil)
        #expect(try time(of: "tokyo-2.jpg", in: catalog) == nil)
        #expect(try time(of: "floating.jpg", in: catalog) == nil)
        #expect(try generation() == before)
        // Two hours on: the time is plausible, and the rerun gives it, as a fresh ingest does.
        let later = start.addingTimeInterval(7_200)
        let again = try await ingest(at: later)
        #expect(!again.diagnostics.contains { $0.path == "soon.jpg" })
        // The sample photo's subseconds (.05) are kept.
        #expect(try soonTime(catalog) == soon.geotripISO8601.map { String($0.prefix(19)) + ".050Z" })
        let fresh = temp.url.appendingPathComponent("fresh.sqlite").path
        let freshSummary = try await ingest(at: later, catalog: fresh)
        func times(_ path: String) throws -> [String] {
            try Catalog.open(at: path, access: .readOnly).photos().map { photo in
                "\(photo.path) \(photo.utcTime?.iso8601 ?? "-") \(photo.timeSource?.rawValue ?? "-")"
            }
        }
        #expect(try times(catalog) == times(fresh))
        #expect(try time(of: "tokyo-2.jpg", in: catalog) != nil)
        #expect(again.trip?.days == freshSummary.trip?.days)
        #expect(again.trip?.visits == freshSummary.trip?.visits)

        // One run with the clock five days ahead gives a time (plausible then) and remembers
        // that far; with the clock right again, a photo refused meanwhile still gets its time
        // once plausible: the remembered bound, later than the run's, is not trusted.
        try add("ahead.jpg", at: later.addingTimeInterval(2 * 86_400))
        _ = try await ingest(at: later)
        _ = try await ingest(at: later.addingTimeInterval(5 * 86_400))
        #expect(try time(of: "ahead.jpg", in: catalog) != nil)
        try add("after.jpg", at: later.addingTimeInterval(86_400 + 3_600))
        _ = try await ingest(at: later)
        #expect(try time(of: "after.jpg", in: catalog) == nil)
        _ = try await ingest(at: later.addingTimeInterval(7_200))
        #expect(try time(of: "after.jpg", in: catalog) != nil)
    }

    @Test("--tz, --clock-offset and --track are remembered, and none forgets each; the track's problem is not told again")
    func forgetRemembered() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let track = temp.url.appendingPathComponent("walk.gpx")
        try FileManager.default.copyItem(at: TrackLogTests.url("logger.gpx"), to: track)
        var given = IngestOptions(folder: trip.path)
        given.assumedZone = "Europe/Lisbon"
        given.clockOffsets = ["+00:10:00"]
        given.tracks = [track.path]
        _ = try await IngestPipeline(options: given).run(progress: SilentProgress())
        func remembered() throws -> ResolutionSettings {
            try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly).storedResolutionSettings()
        }
        #expect(try remembered().assumedZone == "Europe/Lisbon" && remembered().clockOffsets == ["+00:10:00"] && remembered().tracks.count == 1)
        // The track moved away: every run says it cannot be read, until it is forgotten.
        try FileManager.default.removeItem(at: track)
        let missing = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        #expect(missing.diagnostics.contains { $0.message.contains("walk.gpx") })
        var forget = IngestOptions(folder: trip.path)
        forget.assumedZone = IngestOptions.forget
        forget.clockOffsets = [IngestOptions.forget]
        forget.tracks = [IngestOptions.forget]
        let forgotten = try await IngestPipeline(options: forget).run(progress: SilentProgress())
        #expect(!forgotten.diagnostics.contains { $0.message.contains("walk.gpx") })
        #expect(try remembered() == ResolutionSettings(assumedZone: nil, clockOffsets: [], tracks: [], writeXMP: remembered().writeXMP))
    }

    // MARK: 8, 11, 12: what is opened as a catalog

    @Test("another program's SQLite database is refused before anything is written, lock file included")
    func foreignDatabaseIsUntouched() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        for (index, tables) in [["CREATE TABLE notes (body TEXT)"], ["CREATE TABLE photo (x)", "CREATE TABLE album (y)"],
                                ["PRAGMA journal_mode = WAL", "CREATE TABLE notes (body TEXT)"]].enumerated() {
            let path = temp.url.appendingPathComponent("other-\(index).db").path
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { db in for sql in tables { try db.execute(sql: sql) } }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            var options = IngestOptions(folder: trip.path, catalogPath: path)
            options.writeXMP = false
            await #expect(throws: GeoTripError.self) { try await IngestPipeline(options: options).run(progress: SilentProgress()) }
            do {
                _ = try Catalog.open(at: path)
            } catch {
                #expect(error.description.contains("another program's SQLite database"))
                #expect(error.description.contains(index == 1 ? "album, photo" : "notes"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            for suffix in [".lock", "-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) was left beside \(path)")
            }
        }
    }

    @Test("a catalog with a second hard link is refused: two names mean two journals and a corrupted database")
    func hardLinkedCatalog() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let path = IngestOptions.defaultCatalogPath(for: trip.path)
        let link = temp.url.appendingPathComponent("linked.sqlite").path
        #expect(link.withCString { linked in path.withCString { Glibc.link($0, linked) } } == 0)
        #expect(throws: GeoTripError.catalogHardLinked(path: link, links: 2)) { try Catalog.open(at: link) }
        await #expect(throws: GeoTripError.catalogHardLinked(path: path, links: 2)) {
            try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        }
        #expect(!FileManager.default.fileExists(atPath: link + ".lock"))
    }

    @Test("a new catalog carries geotrip's application id, and an older one (v1 schema) gets it when migrated")
    func catalogMarker() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        func marker(_ path: String) throws -> Int32 {
            let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            defer { try? queue.close() }
            return try queue.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") ?? 0 }
        }
        let fresh = temp.url.appendingPathComponent("new.sqlite").path
        _ = try Catalog.open(at: fresh)
        #expect(try marker(fresh) == 0x4754_7270)

        let empty = temp.url.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        // Listing an empty file says there is nothing yet, and creates nothing.
        #expect(throws: GeoTripError.catalogEmpty(path: empty)) { try Catalog.open(at: empty, access: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: empty + ".lock"))
        _ = try Catalog.open(at: empty)
        #expect(try marker(empty) == 0x4754_7270)

        let old = temp.url.appendingPathComponent("v1.sqlite").path
        try FileManager.default.copyItem(atPath: TestPaths.fixtures.appendingPathComponent("catalogs/v1-photos.sqlite").path, toPath: old)
        #expect(try marker(old) == 0)
        _ = try Catalog.open(at: old)
        #expect(try marker(old) == 0x4754_7270)
    }

    @Test("a folder, a device or a FIFO as --catalog is named for what it is; nothing is created beside it",
          arguments: ["folder", "/dev/null", "fifo"])
    func catalogThatIsNotAFile(kind: String) throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let path: String
        switch kind {
        case "folder":
            path = temp.url.appendingPathComponent("catalog").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "fifo":
            path = temp.url.appendingPathComponent("catalog.sqlite").path
            #expect(mkfifo(path, 0o644) == 0)
        default:
            path = kind
        }
        let phrase = ["folder": "a folder", "fifo": "a named pipe (FIFO)"][kind] ?? "a device"
        #expect(throws: GeoTripError.catalogNotAFile(path: path, kind: phrase)) { try Catalog.open(at: path) }
        #expect(throws: GeoTripError.catalogNotAFile(path: path, kind: phrase)) { try Catalog.open(at: path, access: .readOnly) }
        for suffix in [".lock", "-journal", "-wal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    }

    @Test("the run lock is the real catalog's: the same catalog through a linked folder is busy, not a second writer")
    func lockFollowsLinks() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let link = temp.url.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: trip)
        let held = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path))
        let throughLink = IngestOptions.defaultCatalogPath(for: link.path)
        await #expect(throws: GeoTripError.catalogBusy(path: throughLink, pid: Int(getpid()))) {
            try await IngestPipeline(options: IngestOptions(folder: link.path)).run(progress: SilentProgress())
        }
        // A link to the catalog file itself, too.
        let fileLink = temp.url.appendingPathComponent("catalog-link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: fileLink.path, withDestinationPath: IngestOptions.defaultCatalogPath(for: trip.path))
        #expect(throws: GeoTripError.catalogBusy(path: fileLink.path, pid: Int(getpid()))) { try Catalog.open(at: fileLink.path) }
        withExtendedLifetime(held) {}
    }

    // Alone it takes the busy timeout, 10 s. The limit, like the others in the suite, catches a
    // hang, not slowness: with the whole suite on two cores, tests waiting on subprocesses hold
    // the shared threads, and one run under load took this test 333 s and a 3 s one 214 s.
    @Test("a catalog locked by another SQLite program says so, not 'another geotrip run'", .timeLimit(.minutes(10)))
    func catalogHeldByAnotherProgram() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let path = IngestOptions.defaultCatalogPath(for: trip.path)
        // An SQLite client that holds the write lock (as a database browser mid-edit does).
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            try db.execute(sql: "UPDATE tripSetting SET value = value WHERE key = 'catalogGeneration'")
        }
        await #expect(throws: GeoTripError.catalogHeldByOtherProgram(path: path)) {
            try await PhotoTagger(folder: trip.path, catalogPath: path).tag(["IMG_0031.JPG"], with: .clear)
        }
        try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        try other.close()
    }

    @Test("a folder or a FIFO where a sidecar would go is named for what it is, and left alone", .timeLimit(.minutes(10)),
          arguments: ["folder", "fifo"])
    func sidecarThatIsNotAFile(kind: String) throws {
        let scene = try XMPSidecarTests.Scene()
        if kind == "folder" {
            try FileManager.default.createDirectory(at: scene.sidecar, withIntermediateDirectories: false)
        } else {
            #expect(mkfifo(scene.sidecar.path, 0o644) == 0)
        }
        let phrase = kind == "folder" ? "a folder" : "a named pipe (FIFO)"
        #expect(throws: XMPSidecar.Failure.notAFile(path: scene.sidecar.path, kind: phrase)) {
            try XMPSidecar.write(forPhotoAt: scene.photo, coordinate: Coordinate(latitude: 38.7, longitude: -9.1), altitude: nil,
                                 utcTime: nil, source: "manual", uncertaintyMeters: 10)
        }
        // Nothing of geotrip's own there to remove, and nothing to say.
        #expect(try XMPSidecar.remove(forPhotoAt: scene.photo) == false)
        #expect(XMPSidecar.Failure.notAFile(path: "p", kind: phrase).description.hasPrefix("p is \(phrase), where the photo's XMP sidecar would be"))
        // Keeping geotrip's own sidecars in step (no --write-xmp), it is no news; asked to
        // write sidecars, it is named.
        let placed = ResolvedPhoto(id: 1, utc: nil, zone: nil, cameraTime: nil, coordinate: Coordinate(latitude: 38.7, longitude: -9.1),
                                   uncertaintyMeters: 50, path: scene.photo.lastPathComponent, locationSource: .interpolated)
        #expect(SidecarSync(folder: scene.folder.path, creating: false).run([placed]).problems.isEmpty)
        #expect(SidecarSync(folder: scene.folder.path, creating: true).run([placed]).problems.map(\.kind) == [.sidecarFailed])
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: scene.sidecar.path, isDirectory: &isFolder) && isFolder.boolValue == (kind == "folder"))
    }

    @Test("only geotrip's own temporary sidecar names count as leftovers", arguments: [
        (".IMG_1.jpg.xmp.geotrip-0A1B2C3D.tmp", true), (".a b.JPG.xmp.geotrip-deadbeef.tmp", true),
        (".IMG_1.jpg.xmp.geotrip-0A1B2C3.tmp", false), ("IMG_1.jpg.xmp.geotrip-0A1B2C3D.tmp", false),
        (".IMG_1.jpg.geotrip-0A1B2C3D.tmp", false), (".IMG_1.jpg.xmp.geotrip-0A1B2C3G.tmp", false),
    ])
    func leftoverNames(name: String, ours: Bool) {
        #expect(XMPSidecar.isOwnTemporaryFile(named: name) == ours)
    }

    // MARK: 13: bounded lines

    @Test("lines are read in bounded memory: an endless line is reported by its start and length")
    func boundedLines() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let long = 10_000_000
        let input = ends[1]
        let writer = Thread {
            let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 65_536)
            var left = long
            _ = "1,2\n".withCString { write(input, $0, 4) }
            while left > 0 {
                let count = min(left, chunk.count)
                left -= chunk.withUnsafeBytes { write(input, $0.baseAddress!, count) }
            }
            _ = "\r\n3,4\r\nend".withCString { write(input, $0, 10) }
            close(input)
        }
        writer.start()
        defer { close(ends[0]) }
        var reader = BoundedLineReader(descriptor: ends[0])
        var lines: [BoundedLineReader.Line] = []
        while let line = try reader.next() { lines.append(line) }
        #expect(lines == [
            .text("1,2"), .tooLong(prefix: String(repeating: "7", count: BoundedLineReader.prefixLength), length: long + 1),
            .text("3,4"), .text("end"),
        ])
    }

    @Test("a folder as standard input is an error, not an empty success")
    func unreadableInput() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let descriptor = open(temp.path, O_RDONLY)
        defer { close(descriptor) }
        var reader = BoundedLineReader(descriptor: descriptor)
        #expect(throws: BoundedLineReader.ReadError(code: EISDIR)) { try reader.next() }
    }

    // MARK: 14: tag paths

    @Test("tag paths are normalised relative to the folder as well as to the current directory", arguments: [
        ("./IMG_0031.JPG", "IMG_0031.JPG"), ("2025-06-10 Lisboa/../IMG_0031.JPG", "IMG_0031.JPG"),
        ("./2025-06-10 Lisboa/./IMG_0001.JPG", "2025-06-10 Lisboa/IMG_0001.JPG"), ("./-rf.jpg", "-rf.jpg"),
    ])
    func tagPaths(given: String, relative: String) {
        let tagger = PhotoTagger(folder: TestPaths.sampleImages.path, catalogPath: "/nonexistent")
        // The tests run from the package root, outside SampleImages.
        #expect(tagger.relativePath(given) == relative)
        #expect(tagger.relativePath(TestPaths.sampleImages.appendingPathComponent(relative).path) == relative)
    }
}

/// The end-of-run report groups diagnostics by kind (issue 10): thousands of harmless notes
/// must not bury the one damaged file.
@Suite("Diagnostics by kind")
struct DiagnosticKindTests {
    @Test("notes are counted by kind with a few examples, and a damaged file comes first")
    func countedByKind() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        // exiftool wrote this fixture's GPSTimeStamp without a GPSDateStamp (Fixtures/README.md).
        for index in 0..<25 {
            try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("gps-time-no-date.jpg"),
                                             to: trip.appendingPathComponent(String(format: "n%02d.jpg", index)))
        }
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0099.JPG"),
                                         to: trip.appendingPathComponent("z-truncated.jpg"))
        let summary = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let kinds = summary.diagnosticKinds
        #expect(kinds.first?.kind == .damaged)
        #expect(kinds.first?.severity == .problem)
        #expect(kinds.first?.examples == ["z-truncated.jpg"])
        let noDate = try #require(kinds.first { $0.kind == .gpsTimeWithoutDate })
        #expect(noDate.count == 25)
        #expect(noDate.severity == .note)
        #expect(noDate.examples == ["n00.jpg", "n01.jpg", "n02.jpg"])
        #expect(kinds.map(\.count).reduce(0, +) == summary.diagnosticCount)
        // The first diagnostics shown are the problems.
        #expect(summary.diagnostics.first?.path == "z-truncated.jpg")
    }
}
