import Foundation
import GRDB
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

@Suite("Live Photo links kept around what changed")
struct LivePhotoLinkTests {
    /// Every path the test may use: stems that repeat across folders and case, each as a
    /// video and as a still.
    static let paths: [String] = {
        let stems = ["DCIM/IMG_1", "DCIM/img_1", "DCIM/IMG_2", "other/IMG_1", "other/IMG_3", "DCIM/IMG_3"]
        return stems.flatMap { stem in [".MOV", ".mov", ".mp4", ".HEIC", ".JPG", ".jpg"].map { stem + $0 } }
    }()

    static func isVideo(_ path: String) -> Bool { [".MOV", ".mov", ".mp4"].contains { path.hasSuffix($0) } }

    /// Each present video's still (by the video's path) as a pairing over every file present
    /// gives it: the truth the links kept around each change are held to.
    static func wholePairing(_ catalog: Catalog) throws -> [String: Int64?] {
        try catalog.database.read { db in
            func media(_ format: String) throws -> [LivePhotoPairing.Media] {
                try Row.fetchAll(db, sql: "SELECT id, path, contentIdentifier, localTime FROM photo WHERE removedAt IS NULL AND status = 'read' AND format \(format) ORDER BY id")
                    .map { LivePhotoPairing.Media(id: $0[0], path: $0[1], contentIdentifier: $0[2], localTime: $0[3]) }
            }
            let videos = try media("= 'video'")
            let pairs = LivePhotoPairing.stills(videos: videos, stills: try media("IN ('jpeg', 'heif')"))
            return Dictionary(uniqueKeysWithValues: videos.map { ($0.path, pairs[$0.id]) })
        }
    }

    @Test("random adds, moves, edits and removals, in read batches and last transactions, leave the links a whole pairing gives")
    func randomChanges() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        var random = SplitMix(seed: 2107)
        let identifiers: [String?] = [nil, nil, "A", "B", "C"]
        let times: [String?] = [nil, "2025-06-10T10:00:00", "2025-06-10T10:00:04", "2025-06-10T10:01:00"]
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

        func record(_ path: String) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: .read, format: Self.isVideo(path) ? .video : (path.lowercased().hasSuffix(".heic") ? .heif : .jpeg),
                                                          metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.contentIdentifier = pick(identifiers)
            record.localTime = pick(times)
            return record
        }
        func rows() throws -> [PhotoRecord] { try catalog.database.read { try PhotoRecord.fetchAll($0) } }
        func links() throws -> [String: Int64?] {
            try catalog.database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, liveStillId FROM photo WHERE format = 'video' AND removedAt IS NULL AND status = 'read'")
                    .map { ($0[0] as String, $0[1] as Int64?) })
            }
        }
        func whole() throws -> [String: Int64?] { try Self.wholePairing(catalog) }

        var paired = 0
        for step in 0..<150 {
            // Changes in up to two read batches, then the run's last transaction with its own.
            let batches = Int(random.next() % 3)
            for part in 0...batches {
                let isLast = part == batches
                let all = try rows()
                var used = Set(all.map(\.path))
                var new: [PhotoRecord] = [], updated: [PhotoRecord] = [], removed: [Int64] = []
                var touched = Set<Int64>()
                for _ in 0..<Int(1 + random.next() % 3) {
                    let present = all.filter { $0.removedAt == nil && $0.status == .read && !touched.contains($0.id!) }
                    switch random.next() % 5 {
                    case 0, 1:
                        // A new file, or one that left the folder come back (its row kept).
                        let gone = all.filter { $0.removedAt != nil && !touched.contains($0.id!) }
                        if random.next() % 3 == 0, let back = gone.randomElement(using: &random) {
                            touched.insert(back.id!)
                            var row = record(back.path)
                            row.id = back.id
                            updated.append(row)
                        } else if let path = Self.paths.filter({ !used.contains($0) }).randomElement(using: &random) {
                            used.insert(path)
                            new.append(record(path))
                        }
                    case 2:
                        // A file moved (to a free name of its kind) or read again with other values
                        // (an emptied one read as a photo again).
                        guard let changed = all.filter({ $0.removedAt == nil && !touched.contains($0.id!) }).randomElement(using: &random) else { continue }
                        touched.insert(changed.id!)
                        var path = changed.path
                        let free = Self.paths.filter { !used.contains($0) && Self.isVideo($0) == Self.isVideo(changed.path) }
                        if random.next() % 2 == 0, let other = free.randomElement(using: &random) {
                            used.insert(other)
                            path = other
                        }
                        var row = record(path)  // a file read again carries no link
                        row.id = changed.id
                        updated.append(row)
                    case 3:
                        // Read again as no photo at all.
                        guard var emptied = present.randomElement(using: &random) else { continue }
                        touched.insert(emptied.id!)
                        emptied.format = nil
                        emptied.status = .unreadable
                        emptied.liveStillId = nil
                        updated.append(emptied)
                    default:
                        guard isLast, let gone = present.randomElement(using: &random) else { continue }
                        touched.insert(gone.id!)
                        removed.append(gone.id!)
                    }
                }
                if isLast {
                    try catalog.finish(new: new, updated: updated, removing: removed, at: Date())
                } else {
                    try catalog.save(new: new, updated: updated)
                }
            }
            let expected = try whole()
            #expect(try links() == expected, "step \(step)")
            paired += expected.values.compactMap { $0 }.count
        }
        // The walk paired videos often enough to mean something.
        #expect(paired > 100, "\(paired)")
    }

    @Test("a stem's key is the hash of `stem`, on an ASCII path's bytes as on any other")
    func stemKeys() {
        func reference(_ path: String) -> Int64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in LivePhotoPairing.stem(path).utf8 { hash ^= UInt64(byte); hash &*= 0x0000_0100_0000_01b3 }
            return Int64(bitPattern: hash)
        }
        for path in ["DCIM/IMG_1234.HEIC", "dcim/img_1234.mov", "IMG_1.JPG", ".hidden", "a/.MOV", "a.b/c", "x.", "a/b/", "",
                     "Été/Photo.JPG", "été/photo.mov", "ÉTÉ/PHOTO.MOV", "旅行/IMG_0001.HEIC", "a/b.c.d.JPG"] {
            #expect(LivePhotoPairing.stemKey(path) == reference(path), "\(path)")
        }
        #expect(LivePhotoPairing.stemKey("Été/Photo.JPG") == LivePhotoPairing.stemKey("été/photo.mov"))
        #expect(LivePhotoPairing.stemKey("DCIM/IMG_1.HEIC") != LivePhotoPairing.stemKey("DCIM/IMG_2.HEIC"))
    }

    @Test("a change re-pairs only the files that share a stem or an identifier with it, however many videos the library has")
    func groupAroundChange() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        func record(_ path: String, _ format: ImageFormat, _ identifier: String? = nil) -> PhotoRecord {
            var record = PhotoRecord(file: ScannedFile(relativePath: path, size: 1, modifiedNanos: 1),
                                     reading: FileReading(status: .read, format: format, metadata: PhotoMetadata(), skipReason: nil, fingerprint: path))
            record.contentIdentifier = identifier
            record.localTime = "2025-06-10T10:00:00"
            return record
        }
        // Two thousand Live Photos, and a chain: B.MOV shares its identifier with C.HEIC,
        // whose stem is C.MOV's.
        var many: [PhotoRecord] = []
        for number in 0..<2_000 { many += [record("lib/IMG_\(number).MOV", .video), record("lib/IMG_\(number).HEIC", .heif)] }
        try catalog.finish(new: many + [record("B.MOV", .video, "K"), record("C.HEIC", .heif, "K"), record("C.MOV", .video)],
                           updated: [], removing: [], at: Date())
        let group = try catalog.database.read { db in
            try Catalog.livePhotoGroup(db, around: Catalog.LivePhotoSeeds(stemKeys: [LivePhotoPairing.stemKey("b.mov")]))
        }
        #expect(Set(group.videos.map(\.path)) == ["B.MOV", "C.MOV"])
        #expect(Set(group.stills.map(\.path)) == ["C.HEIC"])
        // A still added beside one of the two thousand seeds its stem alone.
        let seeds = try catalog.database.write { db in
            try PhotoRecord.insert([record("lib/IMG_7.JPG", .jpeg)], in: db)
            return try Catalog.livePhotoSeeds(db, written: [record("lib/IMG_7.JPG", .jpeg), record("lib/lonely.JPG", .jpeg)])
        }
        #expect(seeds == Catalog.LivePhotoSeeds(stemKeys: [LivePhotoPairing.stemKey("lib/IMG_7.MOV")]))
    }
}
