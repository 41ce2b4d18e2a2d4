import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Videos among a trip's photos: how their mvhd clock is read, which is a Live Photo's, and
/// that a catalog whose reader skipped them reads them again.
@Suite("Videos of the trip")
struct VideoTripTests {
    static let noon = Date(timeIntervalSince1970: 1_749_556_800)  // 2025-06-10T12:00:00Z

    @Test("a camera whose videos land among the photos when read as local time is read so; a phone's stay UTC")
    func cameraClock() {
        // Photos every 10 minutes from 08:00Z to 10:00Z; a zone two hours east of UTC.
        let anchors = (0...12).map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-4 * 3600 + $0 * 600))) }
        func video(_ camera: String, wall: TimeInterval) -> VideoClock.Candidate {
            // `wall` seconds after noon on the clock: as UTC that instant, as local two hours earlier.
            VideoClock.Candidate(camera: camera, asUTC: Self.noon.addingTimeInterval(wall), asLocal: Self.noon.addingTimeInterval(wall - 7200))
        }
        // The camera's clocks read 10:05 and 11:35: as local (08:05Z, 09:35Z) among the
        // photos, as UTC two hours after the last. The phone's read 09:05Z and 09:25Z as UTC,
        // among the photos, and as local before the first.
        let candidates = [video("Canon PowerShot G7 X", wall: -6900), video("Canon PowerShot G7 X", wall: -1500),
                          video("Pixel 7", wall: -10500), video("Pixel 7", wall: -9300)]
        #expect(VideoClock.localCameras(candidates, anchors: anchors) == ["Canon PowerShot G7 X"])
        // No evidence (no zone for the local reading, or no photos at all) keeps UTC.
        #expect(VideoClock.localCameras(candidates.map { var c = $0; c.asLocal = nil; return c }, anchors: anchors).isEmpty)
        #expect(VideoClock.localCameras(candidates, anchors: []).isEmpty)
        // In a zone at UTC+0 both readings are the same: no vote.
        let london = VideoClock.Candidate(camera: "Canon PowerShot G7 X", asUTC: Self.noon, asLocal: Self.noon)
        #expect(VideoClock.localCameras([london], anchors: anchors).isEmpty)
    }

    @Test("a video that knows its place is compared with the photos taken there")
    func cameraClockByPlace() {
        let tower = Coordinate(latitude: 38.6916, longitude: -9.2160), monastery = Coordinate(latitude: 38.6979, longitude: -9.2067)
        // Photos at the tower 09:05Z–09:25Z, at the monastery (800 m away) 10:00Z–10:30Z.
        let anchors = [300, 900, 1500].map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-10_800 + $0)), position: tower) }
            + [0, 900, 1800].map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-7200 + $0)), position: monastery) }
        // A phone video at the monastery whose mvhd says 10:05: as UTC among the monastery's
        // photos; as Lisbon time (09:05Z) among the tower's, which were not taken where it was.
        let phone = VideoClock.Candidate(camera: "Pixel 7", asUTC: Self.noon.addingTimeInterval(-6900),
                                         asLocal: Self.noon.addingTimeInterval(-10_500), position: monastery)
        #expect(VideoClock.localCameras([phone], anchors: anchors).isEmpty)
        // Without its place, both readings fall among photos (the tower's, the monastery's):
        // no evidence, and the specification's UTC stays.
        var lost = phone
        lost.position = nil
        #expect(VideoClock.localCameras([lost], anchors: anchors).isEmpty)
    }

    @Test("a video is judged by the photos near it in time: its place's photos of another day do not count, and its vote is its own")
    func cameraClockNearInTime() {
        let tower = Coordinate(latitude: 38.6916, longitude: -9.2160), monastery = Coordinate(latitude: 38.6979, longitude: -9.2067)
        // Today, photos at the tower 10:00Z–10:30Z only; the monastery's photos were taken the
        // day before. A camera video at the monastery whose mvhd says 11:15 (its wall clock at
        // +01:00: 10:15Z, among today's photos).
        let today = [0, 600, 1200, 1800].map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-7200 + $0)), position: tower) }
        let yesterday = [0, 600].map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-86_400 + $0)), position: monastery) }
        let video = VideoClock.Candidate(camera: "Canon PowerShot G7 X", asUTC: Self.noon.addingTimeInterval(-2700),
                                         asLocal: Self.noon.addingTimeInterval(-6300), position: monastery)
        // Photos taken where it was exist, but not around its time: it is compared with all
        // the photos around its readings, and the local one falls among them.
        #expect(VideoClock.vote(video, anchors: (yesterday + today).sorted { $0.instant < $1.instant }) == 1)
        #expect(VideoClock.vote(video, anchors: today) == 1)
        // Photos a week away change nothing: a library's rerun may judge it in its stretch alone.
        let weekAway = (0..<20).map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(7 * 86_400 + $0 * 300)), position: monastery) }
        #expect(VideoClock.vote(video, anchors: today + weekAway) == 1)
        #expect(VideoClock.localCameras(votes: [("Canon PowerShot G7 X", 1), ("Canon PowerShot G7 X", -1), ("Pixel 7", -1)]).isEmpty)
        #expect(VideoClock.localCameras(votes: [("Canon PowerShot G7 X", 1), ("Canon PowerShot G7 X", 0), ("Pixel 7", -1)])
            == ["Canon PowerShot G7 X"])
    }

    @Test("a phone clip shot a while after the last photo stays UTC, though read an hour early it would be nearer")
    func clipAfterThePhotos() {
        // Photos 08:40Z–08:50Z at +01:00; the clip's mvhd says 10:05 (UTC, as phones write it).
        let anchors = [0, 300, 600].map { VideoClock.Anchor(instant: Self.noon.addingTimeInterval(Double(-12_000 + $0))) }
        let clip = VideoClock.Candidate(camera: "Google Pixel 7", asUTC: Self.noon.addingTimeInterval(-6900),
                                        asLocal: Self.noon.addingTimeInterval(-10_500))
        #expect(VideoClock.localCameras([clip], anchors: anchors).isEmpty)
    }

    @Test("a Live Photo's video pairs with the still of its stem in its folder taken at the same moment, one video per still")
    func pairing() {
        typealias Media = LivePhotoPairing.Media
        let at = "2025-06-13T12:45:30", second = "2025-06-13T12:45:31.500"
        let stills = [Media(id: 1, path: "DCIM/IMG_0001.HEIC", localTime: at), Media(id: 2, path: "DCIM/IMG_0002.JPG", localTime: at),
                      Media(id: 3, path: "other/IMG_0003.HEIC", contentIdentifier: "A"), Media(id: 4, path: "DCIM/IMG_0004.HEIC", contentIdentifier: "B"),
                      Media(id: 5, path: "DCIM/IMG_0005.JPG", localTime: "2025-06-14T09:00:00"), Media(id: 6, path: "DCIM/IMG_0006.JPG")]
        let videos = [Media(id: 10, path: "DCIM/IMG_0001.MOV", localTime: second), Media(id: 11, path: "DCIM/img_0002.mov", localTime: second),
                      Media(id: 12, path: "DCIM/IMG_0001.mp4", localTime: second), Media(id: 13, path: "elsewhere/IMG_0001.MOV", localTime: second),
                      Media(id: 14, path: "DCIM/renamed.MOV", contentIdentifier: "A"), Media(id: 15, path: "DCIM/IMG_0004.MOV", contentIdentifier: "C"),
                      Media(id: 16, path: "DCIM/IMG_0005.MOV", localTime: second), Media(id: 17, path: "DCIM/IMG_0006.MOV", localTime: second)]
        let pairs = LivePhotoPairing.stills(videos: videos, stills: stills)
        #expect(pairs[16] == nil)    // same stem, another day: a camera's photo and a phone's clip
        #expect(pairs[17] == nil)    // a still without a time cannot be the same moment
        #expect(pairs[10] == 1)      // same folder, same stem
        #expect(pairs[11] == 2)      // case of the name folded
        #expect(pairs[12] == nil)    // a second video of the same stem is a video of its own
        #expect(pairs[13] == nil)    // another folder
        #expect(pairs[14] == 3)      // the content identifier wins across names and folders
        #expect(pairs[15] == nil)    // same stem, but identifiers that differ
    }

    @Test("Live Photos are paired in the run's last transaction; a run stopped after its read batches pairs them on the next")
    func pairedOnceARun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        func record(_ path: String, _ format: ImageFormat) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: .read, format: format, metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.contentIdentifier = "4E0F"
            return record
        }
        func link() throws -> Int64? {
            try catalog.database.read { try Int64.fetchOne($0, sql: "SELECT liveStillId FROM photo WHERE path = 'IMG_1.MOV'") }
        }
        // Two read batches, the video's before its still's: neither pairs (each would have read
        // the whole library's videos and stills).
        try catalog.save(new: [record("IMG_1.MOV", .video)], updated: [])
        try catalog.save(new: [record("IMG_1.HEIC", .heif)], updated: [])
        #expect(try link() == nil)
        // A first read into an empty catalog keeps no seeds: its last transaction pairs whole.
        #expect(try catalog.setting(Catalog.SettingKey.livePhotoLinksStale) != nil)
        #expect(try catalog.database.read { try Catalog.pendingLivePhotoSeeds($0) }.isEmpty)
        // The run stopped there. The next finds every file known, so its last transaction
        // writes no row, and still pairs them: the batches kept what they may re-pair.
        try catalog.finish(new: [], updated: [], removing: [], at: Date())
        let still = try catalog.database.read { try Int64.fetchOne($0, sql: "SELECT id FROM photo WHERE path = 'IMG_1.HEIC'") }
        #expect(try link() == still && still != nil)
        #expect(try catalog.setting(Catalog.SettingKey.livePhotoLinksStale) == nil)
    }

    @Test("a change no video can pair with leaves the links as they are; any other gives the links a whole pairing gives")
    func pairedOnlyWhenItCanChange() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        func record(_ path: String, _ format: ImageFormat, _ identifier: String?) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: .read, format: format, metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.contentIdentifier = identifier
            return record
        }
        func stored(_ path: String) throws -> PhotoRecord {
            try #require(try catalog.database.read { try PhotoRecord.filter(Column("path") == path).fetchOne($0) })
        }
        func links() throws -> [String: Int64?] {
            try catalog.database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, liveStillId FROM photo WHERE format = 'video' AND removedAt IS NULL")
                    .map { ($0[0] as String, $0[1] as Int64?) })
            }
        }
        /// The links of a whole pairing over the files present, as `linkLivePhotos` makes them.
        func expectWholePairing(_ comment: Comment) throws {
            let whole = try LivePhotoLinkTests.wholePairing(catalog)
            #expect(try links() == whole, comment)
        }
        try catalog.finish(new: [record("A.MOV", .video, "X"), record("A.HEIC", .heif, "X"), record("C.MP4", .video, "Y"),
                                 record("C.JPG", .jpeg, "Y"), record("B.JPG", .jpeg, nil)], updated: [], removing: [], at: Date())
        try expectWholePairing("first read")
        #expect(try links()["A.MOV"] == (try stored("A.HEIC").id))

        // A photo no video can pair with: the links are not worked out again (a planted wrong
        // link stays, which shows the pairing did not run).
        try catalog.database.write { try $0.execute(sql: "UPDATE photo SET liveStillId = NULL WHERE path = 'A.MOV'") }
        try catalog.finish(new: [record("D.JPG", .jpeg, nil), record("other/D.HEIC", .heif, "Z")], updated: [], removing: [], at: Date())
        #expect(try links()["A.MOV"] == .some(nil))
        // A still of a video's stem, in another case, pairs them all again.
        try catalog.finish(new: [record("a.jpg", .jpeg, "Q")], updated: [], removing: [], at: Date())
        try expectWholePairing("a still of a video's stem")
        #expect(try links()["A.MOV"] == (try stored("A.HEIC").id))
        // A still with a video's identifier in another folder; then the video's own still gone,
        // so the video takes the other; then that one moved.
        try catalog.finish(new: [record("other/A copy.HEIC", .heif, "X")], updated: [], removing: [], at: Date())
        try expectWholePairing("an identifier's second still")
        try catalog.finish(new: [], updated: [], removing: [try stored("A.HEIC").id!], at: Date())
        try expectWholePairing("the still removed")
        #expect(try links()["A.MOV"] == (try stored("other/A copy.HEIC").id))
        var moved = try stored("C.JPG")
        moved.path = "elsewhere/C.JPG"
        moved.contentIdentifier = nil
        try catalog.finish(new: [], updated: [moved], removing: [], at: Date())
        try expectWholePairing("a paired still moved and read again without its identifier")
        #expect(try links()["C.MP4"] == .some(nil))
        try catalog.finish(new: [], updated: [], removing: [try stored("C.MP4").id!], at: Date())
        try expectWholePairing("a video removed")
        // Two videos of one identifier compete for its still, and the first by path takes it;
        // that one read again as no video at all (emptied) frees the still for the other.
        try catalog.finish(new: [record("F copy.MOV", .video, "F"), record("F.MOV", .video, "F"), record("F.HEIC", .heif, "F")],
                           updated: [], removing: [], at: Date())
        #expect(try links()["F copy.MOV"] == (try stored("F.HEIC").id))
        var emptied = try stored("F copy.MOV")
        emptied.format = nil
        emptied.status = .unreadable
        try catalog.finish(new: [], updated: [emptied], removing: [], at: Date())
        try expectWholePairing("a linked video read again as no video")
        #expect(try links()["F.MOV"] == (try stored("F.HEIC").id))
        // Read batches: one no video can pair with keeps nothing for later; a video's keeps its
        // stem and identifier for the run's last transaction, which pairs it.
        func pending() throws -> Catalog.LivePhotoSeeds { try catalog.database.read { try Catalog.pendingLivePhotoSeeds($0) } }
        try catalog.save(new: [record("E.JPG", .jpeg, nil)], updated: [])
        #expect(try pending().isEmpty)
        try catalog.save(new: [record("E.MOV", .video, "E")], updated: [])
        try catalog.save(new: [record("E.HEIC", .heif, "E")], updated: [])
        #expect(try pending() == Catalog.LivePhotoSeeds(stemKeys: [LivePhotoPairing.stemKey("E.MOV")], identifiers: ["E"]))
        try catalog.finish(new: [], updated: [], removing: [], at: Date())
        #expect(try pending().isEmpty)
        try expectWholePairing("batches, then a last transaction with nothing to write")
        #expect(try links()["E.MOV"] == (try stored("E.HEIC").id))
    }

    @Test("videos a version-1 reader skipped are read on the next ingest")
    func readAgain() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: VideoReadingTests.folder.appendingPathComponent("video-android.mp4"), to: trip.appendingPathComponent("VID_1.mp4"))
        let options = IngestOptions(folder: trip.path)
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        // What the version 1 reader left: the file skipped as a video not read yet.
        // (A queue of its own, without the catalog's run lock, which the next ingest takes.)
        try await DatabaseQueue(path: options.catalogPath).write { db in
            try db.execute(sql: """
                UPDATE photo SET status = 'skipped', format = NULL, latitude = NULL, longitude = NULL, localTime = NULL, timeField = NULL,
                    durationSeconds = NULL, readerVersion = 1, skipReason = 'video and other ISO media files (brand ''isom'') are not read yet'
                """)
        }
        let summary = try await IngestPipeline(options: options).run(progress: SilentProgress())
        #expect(summary.videos == 1 && summary.skipped == 0)
        let video = try #require(try Catalog.open(at: options.catalogPath).photos().first)
        #expect(video.format == .video && video.status == .read && video.durationSeconds != nil && video.coordinate != nil)
    }
}
