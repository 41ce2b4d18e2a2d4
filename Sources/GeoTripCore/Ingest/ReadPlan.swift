/// A file the ingest has to read, and what the catalog already knew at its path.
struct PlannedRead: Sendable {
    var file: ScannedFile
    /// The catalog row at this path: changed, or back after having been removed.
    var existing: (id: Int64, removed: Bool)?
}

/// Decides, from the scan and the catalog, which files to read and what each reading means.
///
/// A file whose size and modification time match the catalog is not read. A file at a new path
/// whose fingerprint matches a file that has left the folder (in this run or earlier) is the
/// same photo moved or renamed: it keeps its row and identity.
struct ReadPlan {
    /// What a reading turns into in the catalog.
    enum Resolution: Equatable {
        enum Outcome { case changed, returned, moved }
        case update(id: Int64, outcome: Outcome)
        case insert
    }

    private(set) var reads: [PlannedRead] = []
    private(set) var unchangedCount = 0
    /// Rows whose file is gone, by fingerprint: candidates for a move.
    private var departed: [String: [Int64]] = [:]
    /// Rows present at the last run whose file is now gone, not (yet) explained by a move.
    private var missing: Set<Int64> = []

    init(files: [ScannedFile], known: [String: CatalogedFile]) {
        var seen = Set<String>()
        seen.reserveCapacity(files.count)
        for file in files {
            seen.insert(file.relativePath)
            if let entry = known[file.relativePath] {
                if !entry.removed && entry.fileSize == file.size && entry.modifiedNanos == file.modifiedNanos {
                    unchangedCount += 1
                } else {
                    reads.append(PlannedRead(file: file, existing: (entry.id, entry.removed)))
                }
            } else {
                reads.append(PlannedRead(file: file, existing: nil))
            }
        }
        for (path, entry) in known where !seen.contains(path) {
            departed[entry.fingerprint, default: []].append(entry.id)
            if !entry.removed { missing.insert(entry.id) }
        }
    }

    /// What to do with the reading of `planned`, whose content has `fingerprint`.
    mutating func resolve(_ planned: PlannedRead, fingerprint: String) -> Resolution {
        if let existing = planned.existing {
            return .update(id: existing.id, outcome: existing.removed ? .returned : .changed)
        }
        guard var candidates = departed[fingerprint], let id = candidates.popLast() else { return .insert }
        departed[fingerprint] = candidates
        missing.remove(id)
        return .update(id: id, outcome: .moved)
    }

    /// Rows to mark removed once every reading is resolved.
    var stillMissing: [Int64] { missing.sorted() }
}
