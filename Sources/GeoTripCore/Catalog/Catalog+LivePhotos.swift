import Foundation
import GRDB

/// Live Photo links kept in step with the files, around what changed.
///
/// A video's link (`LivePhotoPairing`) depends only on the stills and videos that share its
/// name stem or its content identifier, and on theirs in turn. So a change is paired again
/// over that group alone: the stems and identifiers of the rows written or removed (before
/// and after), and of the videos linked to them, are the seeds; the group is every present
/// video and still reached from them through shared stems and identifiers (`linkGroup`).
/// An iPhone library holds a video for every Live Photo: pairing the whole library again for
/// every day added read every still of it, seconds at a million photos.
///
/// Stems are looked up by `stemKey`, a 64-bit hash of the stem kept in each row and indexed
/// with the format (`photo_stem_key`): an index on the stem's text would add a tenth to a
/// library's catalog. A hash shared by two stems only brings more files into a group; the
/// pairing itself compares the stems.
extension Catalog {
    /// The stems (as `LivePhotoPairing.stemKey`) and content identifiers a change may re-pair.
    struct LivePhotoSeeds: Equatable {
        var stemKeys: Set<Int64> = []
        var identifiers: Set<String> = []

        var isEmpty: Bool { stemKeys.isEmpty && identifiers.isEmpty }

        mutating func formUnion(_ other: LivePhotoSeeds) {
            stemKeys.formUnion(other.stemKeys)
            identifiers.formUnion(other.identifiers)
        }
    }

    /// The seeds of rows about to be rewritten or removed (`ids`), read before they change:
    /// their own stems and identifiers, and those of the videos linked to them (what they
    /// become cannot say what they were).
    static func livePhotoSeeds(_ db: Database, formerly ids: [Int64]) throws -> LivePhotoSeeds {
        var seeds = LivePhotoSeeds()
        for chunk in ids.chunked(500) {
            let list = jsonList(chunk)
            let rows = try Row.fetchCursor(db, sql: formerSeedsSQL, arguments: [list])
            while let row = try rows.next() { seeds.add(stemKey: row[0], identifier: row[1]) }
        }
        return seeds
    }

    /// The seeds of rows just written (`records`): every video's, and a still's only when a
    /// present video shares its stem or identifier. A still read before its video (a fresh
    /// ingest's batches) is found by the video's own seeds.
    static func livePhotoSeeds(_ db: Database, written records: [PhotoRecord]) throws -> LivePhotoSeeds {
        var seeds = LivePhotoSeeds()
        var stillKeys = Set<Int64>(), stillIdentifiers = Set<String>()
        for record in records where record.status == .read {
            switch record.format {
            case .video?:
                seeds.add(stemKey: LivePhotoPairing.stemKey(record.path), identifier: record.contentIdentifier)
            case .jpeg?, .heif?:
                stillKeys.insert(LivePhotoPairing.stemKey(record.path))
                if let identifier = record.contentIdentifier { stillIdentifiers.insert(identifier) }
            default:
                break
            }
        }
        for chunk in Array(stillKeys).chunked(500) {
            seeds.stemKeys.formUnion(try Int64.fetchAll(db, sql: videoStemKeysAmongSQL, arguments: [jsonList(chunk)]))
        }
        for chunk in Array(stillIdentifiers).chunked(500) {
            seeds.identifiers.formUnion(try String.fetchAll(db, sql: videoIdentifiersAmongSQL, arguments: [textList(chunk)]))
        }
        return seeds
    }

    /// The stems and identifiers of some rows and of the videos linked to them (the primary
    /// key and `photo_live_still`).
    static let formerSeedsSQL = """
        SELECT stemKey, contentIdentifier FROM photo WHERE id IN (SELECT value FROM json_each(?1))
        UNION ALL
        SELECT stemKey, contentIdentifier FROM photo WHERE liveStillId IN (SELECT value FROM json_each(?1))
        """

    /// Which of some stems a present video has (`photo_stem_key`: the stills of a day added
    /// are looked up there without reading their rows). These queries name their index: with
    /// no statistics, SQLite would take `photo_present_format` and go through every video.
    static let videoStemKeysAmongSQL = """
        SELECT DISTINCT stemKey FROM photo INDEXED BY photo_stem_key WHERE stemKey IN (SELECT value FROM json_each(?)) AND format = 'video'
            AND removedAt IS NULL AND status = 'read'
        """

    /// Which of some content identifiers a present video has (`photo_content_identifier`).
    static let videoIdentifiersAmongSQL = """
        SELECT DISTINCT contentIdentifier FROM photo INDEXED BY photo_content_identifier WHERE contentIdentifier IN (SELECT value FROM json_each(?)) AND format = 'video'
            AND removedAt IS NULL AND status = 'read'
        """

    /// Keeps `seeds` for the run's last transaction (a read batch pairs nothing).
    static func addPendingLivePhotoSeeds(_ db: Database, _ seeds: LivePhotoSeeds) throws {
        let add = try db.cachedStatement(sql: "INSERT OR IGNORE INTO livePhotoPending (key) VALUES (?)")
        for key in seeds.stemKeys { try add.execute(arguments: ["s" + String(key)]) }
        for identifier in seeds.identifiers { try add.execute(arguments: ["i" + identifier]) }
    }

    /// The seeds the run's read batches kept (`addPendingLivePhotoSeeds`).
    static func pendingLivePhotoSeeds(_ db: Database) throws -> LivePhotoSeeds {
        var seeds = LivePhotoSeeds()
        for key in try String.fetchAll(db, sql: "SELECT key FROM livePhotoPending") {
            let value = key.dropFirst()
            if key.hasPrefix("s"), let stemKey = Int64(value) { seeds.stemKeys.insert(stemKey) }
            if key.hasPrefix("i") { seeds.identifiers.insert(String(value)) }
        }
        return seeds
    }

    /// The present videos and stills that share a stem or an identifier with the seeds, and
    /// with one another, as far as that reaches: every file whose link a change of the seeds'
    /// files can alter, and every file those links depend on; each in id order.
    static func livePhotoGroup(_ db: Database, around seeds: LivePhotoSeeds) throws
        -> (videos: [LivePhotoPairing.Media], stills: [LivePhotoPairing.Media]) {
        var videos: [Int64: LivePhotoPairing.Media] = [:], stills: [Int64: LivePhotoPairing.Media] = [:]
        var known = seeds, next = seeds
        while !next.isEmpty {
            var found = LivePhotoSeeds()
            func take(_ rows: RowCursor) throws {
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    guard videos[id] == nil && stills[id] == nil else { continue }
                    let media = LivePhotoPairing.Media(id: id, path: row[1], contentIdentifier: row[2], localTime: row[3])
                    if (row[4] as String?) == ImageFormat.video.rawValue { videos[id] = media } else { stills[id] = media }
                    let stemKey: Int64? = row[5]
                    if let stemKey, !known.stemKeys.contains(stemKey) { found.stemKeys.insert(stemKey) }
                    if let identifier = media.contentIdentifier, !known.identifiers.contains(identifier) { found.identifiers.insert(identifier) }
                }
            }
            for chunk in Array(next.stemKeys).chunked(500) {
                try take(try Row.fetchCursor(db, sql: livePhotoGroupByStemSQL, arguments: [jsonList(chunk)]))
            }
            for chunk in Array(next.identifiers).chunked(500) {
                try take(try Row.fetchCursor(db, sql: livePhotoGroupByIdentifierSQL, arguments: [textList(chunk)]))
            }
            known.formUnion(found)
            next = found
        }
        // In id order, as the whole pairing reads them: of two stills with one identifier, the
        // first by id is the one a video takes.
        return (videos.values.sorted { $0.id < $1.id }, stills.values.sorted { $0.id < $1.id })
    }

    private static let livePhotoGroupColumns = "id, path, contentIdentifier, localTime, format, stemKey"
    private static let livePhotoGroupFilter = "removedAt IS NULL AND status = 'read' AND format IN ('video', 'jpeg', 'heif')"

    /// The present videos and stills of some stems (`photo_stem_key`).
    static let livePhotoGroupByStemSQL = """
        SELECT \(livePhotoGroupColumns) FROM photo INDEXED BY photo_stem_key WHERE stemKey IN (SELECT value FROM json_each(?)) AND \(livePhotoGroupFilter)
        """

    /// The present videos and stills of some content identifiers (`photo_content_identifier`).
    static let livePhotoGroupByIdentifierSQL = """
        SELECT \(livePhotoGroupColumns) FROM photo INDEXED BY photo_content_identifier WHERE contentIdentifier IN (SELECT value FROM json_each(?)) AND \(livePhotoGroupFilter)
        """

    /// Pairs the group around `seeds` (`livePhotoGroup`) again and stores its videos' links.
    static func linkLivePhotos(_ db: Database, around seeds: LivePhotoSeeds) throws {
        guard !seeds.isEmpty else { return }
        let group = try livePhotoGroup(db, around: seeds)
        guard !group.videos.isEmpty else { return }
        try storeLinks(db, videos: group.videos, pairs: LivePhotoPairing.stills(videos: group.videos, stills: group.stills))
    }

    /// Each of `videos` linked to its still in `pairs`, or to none; rows already so are not written.
    /// The rows written take one change stamp (`stampingChanges`), so the stamping trigger's
    /// two writes a row are left out: a fresh library's 10,000 Live Photos were 0.7 s of its
    /// read's last transaction, which every other core waits on.
    static func storeLinks(_ db: Database, videos: [LivePhotoPairing.Media], pairs: [Int64: Int64]) throws {
        guard !videos.isEmpty else { return }
        _ = try stampingChanges(db) { stamp in
            let link = try db.cachedStatement(sql: "UPDATE photo SET liveStillId = ?, changeStamp = ? WHERE id = ? AND liveStillId IS NOT ?")
            var changed = 0
            for video in videos {
                try link.execute(arguments: [pairs[video.id], stamp, video.id, pairs[video.id]])
                changed += db.changesCount
            }
            return changed
        }
    }

    /// `texts` as a JSON array, for `json_each(?)`.
    static func textList(_ texts: some Collection<String>) -> String {
        String(decoding: (try? JSONEncoder().encode(Array(texts))) ?? Data("[]".utf8), as: UTF8.self)
    }
}

extension Catalog.LivePhotoSeeds {
    mutating func add(stemKey: Int64?, identifier: String?) {
        if let stemKey { stemKeys.insert(stemKey) }
        if let identifier { identifiers.insert(identifier) }
    }
}
