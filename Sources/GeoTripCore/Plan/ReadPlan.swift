import Foundation

/// A file the ingest reads, and the catalog row at its path if there is one.
struct PlannedRead: Sendable {
    var file: ScannedFile
    /// The row at this path: the present one, else the latest removed one.
    var existing: CatalogedFile?
    /// False when the file is re-read although its size and modification time did not change
    /// (a photo that could not be read last time, or one read by an older reader, or one whose
    /// sidecars changed).
    var statChanged: Bool
    /// Whether the XMP sidecars beside it changed (appeared, went, or were edited) since it was read.
    var sidecarsChanged = false
}

/// Decides, from the scan and the catalog, which files to read and which catalog row each
/// reading belongs to, so that a photo keeps its identity however it was moved or renamed.
///
/// Identity follows content (the fingerprint) where content says something, and the path
/// otherwise:
/// 1. A file whose size and modification time match its row is not read.
/// 2. A reading at a known path with the row's fingerprint is that row (changed, or back).
/// 3. Any other reading takes a row whose content has left its place (its path is gone, or
///    another file now sits there) and whose fingerprint matches: the photo was moved there.
///    Swaps and chains of renames resolve this way.
///    Before that, a reading at a known path whose capture signature (camera time to the
///    millisecond, make, model) is the row's is that photo edited in place (retagged, rotated),
///    even if a copy of its old content turns up elsewhere (exiftool's `_original` backup).
/// 4. A present row whose path now holds unmatched content keeps the path: the photo was
///    edited in place beyond recognition. A removed row is never revived by other content.
/// 5. Anything left is a new photo; present rows whose content went nowhere are removed.
///
/// Readings at known paths are resolved last (`resolveDeferred`), once every new path has
/// had its chance to claim a row, because only then is it known which rows were displaced.
struct ReadPlan {
    /// What a reading turns into.
    enum Outcome: Equatable { case changed, returned, moved, new }

    /// The row a reading belongs to (`id` nil: a new row) and why.
    struct Resolution: Equatable {
        var id: Int64?
        var outcome: Outcome
    }

    /// Files at paths the catalog knows; read first.
    private(set) var knownReads: [PlannedRead] = []
    /// Files at paths the catalog has never seen.
    private(set) var newReads: [PlannedRead] = []
    private(set) var unchangedCount = 0

    /// Rows whose content may have moved, by fingerprint.
    private var candidates: [String: [CatalogedFile]] = [:]
    /// Present rows that lose their place unless something claims them.
    private var homeless: Set<Int64> = []
    private var claimed: Set<Int64> = []
    private var deferred: [(PlannedRead, String)] = []

    /// A plan from the scan's files and the catalog's rows, given at once.
    init(files: [ScannedFile], known: [CatalogedFile], readerVersion: Int) {
        self.init(files: files, readerVersion: readerVersion) { (settled: (CatalogedStamp) -> Bool) in
            known.filter { !settled($0.stamp) }
        }
    }

    /// A plan from the scan's files and the catalog's rows as `rows` streams them. `rows` asks
    /// its argument of each row's stamp whether the file is settled (rule 1: present, unchanged,
    /// read by this reader) and returns only the rows that are not, so the catalog is never
    /// held whole: what the plan keeps grows with what changed, not with the library.
    ///
    /// A present row under a folder that could not be read (`unreadFolders`, relative paths)
    /// is not removed: its photo was not seen, which is not the same as gone. It still takes
    /// a photo found elsewhere with its content (one moved out of the folder keeps its
    /// identity, its tag and its notes). Only those rows: a folder that is never readable
    /// (`lost+found` at a drive's root) must not keep every deleted photo of the library.
    init<Failure: Error>(files: [ScannedFile], readerVersion: Int, unreadFolders: [String] = [],
                         rows: (_ settled: (CatalogedStamp) -> Bool) throws(Failure) -> [CatalogedFile]) throws(Failure) {
        var index: [PathKey: Int] = [:]
        index.reserveCapacity(files.count)
        for (position, file) in files.enumerated() { index[PathKey(file.relativePath)] = position }
        var settled = [Bool](repeating: false, count: files.count)
        var settledCount = 0
        let known = try rows { stamp in
            guard !stamp.removed, !stamp.unreadable, stamp.readerVersion >= readerVersion,
                  let position = index[PathKey(stamp.path)] else { return false }
            let file = files[position]
            guard file.size == stamp.fileSize, file.modifiedNanos == stamp.modifiedNanos,
                  Self.sameSidecars(file, stamp.sidecars) else { return false }
            settled[position] = true
            settledCount += 1
            return true
        }
        unchangedCount = settledCount

        var byPath: [PathKey: CatalogedFile] = [:]
        var displacedByPath: [CatalogedFile] = []
        for row in known {
            let key = PathKey(row.path)
            // A settled file's path belongs to its row; other (removed) rows there only wait for their content.
            if let position = index[key], settled[position] { displacedByPath.append(row); continue }
            guard let other = byPath[key] else { byPath[key] = row; continue }
            // One present row per path (the catalog enforces it); removed ones may share it.
            let keep = (!row.removed && other.removed) || (row.removed == other.removed && row.id > other.id)
            byPath[key] = keep ? row : other
            displacedByPath.append(keep ? other : row)
        }
        for (position, file) in files.enumerated() where !settled[position] {
            guard let row = byPath[PathKey(file.relativePath)] else {
                newReads.append(PlannedRead(file: file, existing: nil, statChanged: true))
                continue
            }
            let statChanged = row.removed || row.fileSize != file.size || row.modifiedNanos != file.modifiedNanos
            let sidecarsChanged = !Self.sameSidecars(file, row.sidecars)
            if statChanged || sidecarsChanged || row.status == .unreadable || row.readerVersion < readerVersion {
                knownReads.append(PlannedRead(file: file, existing: row, statChanged: statChanged, sidecarsChanged: sidecarsChanged))
            } else {
                unchangedCount += 1
            }
        }
        for (key, row) in byPath where index[key] == nil {
            addCandidate(row)
            if !row.removed { homeless.insert(row.id) }
            if !row.removed, FolderScanner.Listing.lies(row.path, inOneOf: unreadFolders) {
                unseen.insert(row.id)
            }
        }
        for row in displacedByPath { addCandidate(row) }
    }

    /// Whether the sidecars beside `file` are those stored with its reading. A sidecar counts as
    /// part of the photo: editing it (a position set on a map in another program) changes the
    /// photo. geotrip's own sidecars count only by name.
    private static func sameSidecars(_ file: ScannedFile, _ stored: String?) -> Bool {
        if file.sidecars.isEmpty && stored == nil { return true }  // most files: nothing to compare
        return file.sidecarStamp(geotrips: ScannedFile.geotripSidecars(inStamp: stored)) == stored
    }

    private mutating func addCandidate(_ row: CatalogedFile) {
        guard !row.fingerprint.isEmpty else { return }  // nothing was read: matches nothing
        candidates[row.fingerprint, default: []].append(row)
    }

    /// A reading at a known path: resolved now when its content is the row's, else deferred
    /// (returns nil) and the row becomes a candidate for a move elsewhere.
    mutating func admitKnown(_ planned: PlannedRead, fingerprint: String, captureSignature: String?) -> Resolution? {
        let row = planned.existing!
        let sameContent = fingerprint == row.fingerprint
        let samePhoto = captureSignature != nil && captureSignature == row.captureSignature
        if sameContent || samePhoto {
            claimed.insert(row.id)
            return Resolution(id: row.id, outcome: row.removed ? .returned : .changed)
        }
        addCandidate(row)
        if !row.removed { homeless.insert(row.id) }
        deferred.append((planned, fingerprint))
        return nil
    }

    /// A reading at a new path: a moved photo when a departed row has its fingerprint.
    mutating func resolveNew(_ planned: PlannedRead, fingerprint: String) -> Resolution {
        if let row = takeCandidate(fingerprint, for: planned.file, excluding: nil) {
            return Resolution(id: row.id, outcome: .moved)
        }
        return Resolution(id: nil, outcome: .new)
    }

    /// The deferred readings at known paths, once every new path is resolved.
    mutating func resolveDeferred() -> [(PlannedRead, Resolution)] {
        var resolved: [(PlannedRead, Resolution)] = []
        var unmatched: [PlannedRead] = []
        for (planned, fingerprint) in deferred {
            if let row = takeCandidate(fingerprint, for: planned.file, excluding: planned.existing!.id) {
                resolved.append((planned, Resolution(id: row.id, outcome: .moved)))
            } else {
                unmatched.append(planned)
            }
        }
        for planned in unmatched {
            let row = planned.existing!
            if !row.removed && !claimed.contains(row.id) {
                claimed.insert(row.id)  // edited in place
                resolved.append((planned, Resolution(id: row.id, outcome: .changed)))
            } else {
                resolved.append((planned, Resolution(id: nil, outcome: .new)))
            }
        }
        deferred.removeAll()
        return resolved
    }

    /// Present rows under a folder that could not be read: kept unless something claims them.
    private var unseen: Set<Int64> = []

    /// Present rows to mark removed once everything is resolved.
    var stillMissing: [Int64] { homeless.subtracting(claimed).subtracting(unseen).sorted() }

    /// Present rows not seen and kept, because their folder could not be read.
    var unseenKept: Int { unseen.subtracting(claimed).count }

    /// The best unclaimed row with this fingerprint: the same file name first (a folder was
    /// renamed), then a row that was present at the last run, then the oldest.
    private mutating func takeCandidate(_ fingerprint: String, for file: ScannedFile, excluding excluded: Int64?) -> CatalogedFile? {
        guard !fingerprint.isEmpty, let rows = candidates[fingerprint] else { return nil }
        let name = file.relativePath.split(separator: "/").last.map(String.init) ?? file.relativePath
        let best = rows
            .filter { !claimed.contains($0.id) && $0.id != excluded }
            .min { a, b in
                let aName = a.path.hasSuffix("/" + name) || a.path == name, bName = b.path.hasSuffix("/" + name) || b.path == name
                if aName != bName { return aName }
                if a.removed != b.removed { return !a.removed }
                return a.id < b.id
            }
        if let best {
            claimed.insert(best.id)
        }
        return best
    }
}

/// A path compared byte for byte. Swift's `String ==` treats NFC and NFD spellings as equal,
/// but the file system and SQLite's UNIQUE index do not: `café.jpg` in both forms are two files.
struct PathKey: Hashable {
    private var path: String
    init(_ path: String) { self.path = path }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        var a = lhs.path, b = rhs.path
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }

    func hash(into hasher: inout Hasher) {
        var path = self.path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
