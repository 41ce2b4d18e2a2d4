import Foundation
import Synchronization

/// The read stage: the planned files' metadata, read on all cores with bounded concurrency,
/// known paths first (a known path whose content changed may have given its row up to a new
/// path, and new paths can only claim rows once that is known). Records go to `commit` in
/// batches as they are read, so a stopped run keeps what it read; the rows whose place is
/// settled only at the end, and the ids of files that left the folder, are returned for the
/// pipeline's last write of the stage.
struct ReadStage {
    /// Files per reading task: large enough that task overhead vanishes, small enough to keep
    /// both cores busy to the end.
    static let filesPerTask = 48

    /// How many batches the records waiting for the catalog may grow to while a commit is in
    /// flight, before the readers wait for it.
    static let batchesAhead = 8

    let folder: String
    let concurrency: Int
    let batchSize: Int
    let reader = MetadataReader()

    /// What the stage leaves for the pipeline's last write.
    struct Outcome {
        /// Records not yet written, the deferred known paths among them.
        var remaining = RecordBatch()
        /// Rows of files that left the folder.
        var gone: [Int64] = []
        /// The readers' diagnostics, by path.
        var diagnostics: [PhotoDiagnostic] = []
    }

    /// Reads what `plan` says, counting in `summary`; `progress` gets (done, total) after each
    /// chunk. Throws `.interrupted` after committing what was read when the task is cancelled.
    ///
    /// A batch is committed while the next is read (one commit in flight at a time, in order):
    /// with the catalog written between chunks, the readers stood idle during every commit.
    func run(_ plan: inout ReadPlan, summary: inout IngestSummary, progress: (Int, Int) -> Void,
             commit: @escaping @Sendable (RecordBatch) throws -> Void) async throws -> Outcome {
        var outcome = Outcome()
        let total = plan.knownReads.count + plan.newReads.count
        var done = 0
        var batch = RecordBatch()
        var deferred: [PathKey: PhotoRecord] = [:]
        func record(_ planned: PlannedRead, _ reading: FileReading) -> PhotoRecord {
            if reading.status != .skipped {
                outcome.diagnostics += reading.metadata.diagnostics.map { PhotoDiagnostic(path: planned.file.relativePath, $0) }
            }
            return PhotoRecord(file: planned.file, reading: reading)
        }
        var committing: Task<Void, any Error>?
        let committed = CommitFlag()
        func afterChunk(_ count: Int) async throws {
            done += count
            progress(done, total)
            guard batch.count >= batchSize else { return }
            // While a commit is in flight the readers go on, and the batch grows up to a few
            // batches' worth: waiting for each commit starved them (four chunks read ahead at
            // most), and a fresh ingest kept one core idle for much of the stage.
            if let committing, !committed.isSet {
                guard batch.count >= batchSize * Self.batchesAhead else { return }
                try await committing.value
            } else {
                try await committing?.value  // finished: passes its error on, if any
            }
            let ready = batch
            batch = RecordBatch()
            committed.reset()
            committing = Task {
                defer { committed.set() }
                try commit(ready)
            }
        }
        progress(0, total)
        var completed = try await read(plan.knownReads) { results in
            for (planned, reading) in results {
                let photo = record(planned, reading)
                let signature = reading.status == .read ? reading.metadata.captureSignature : nil
                if let resolution = plan.admitKnown(planned, fingerprint: reading.fingerprint, captureSignature: signature) {
                    // A sidecar still unreadable stamps the row as before (`sidecarStamp`'s `unread`).
                    if let row = planned.existing, !planned.statChanged, !planned.sidecarsChanged || photo.sidecars == row.sidecars,
                       row.readerVersion == MetadataReader.version, row.status == reading.status, row.fingerprint == reading.fingerprint {
                        summary.unchanged += 1  // a retry that failed the same way: nothing to write
                        continue
                    }
                    batch.add(photo, resolution, statChanged: Self.changed(planned, reading), to: &summary)
                } else {
                    deferred[PathKey(planned.file.relativePath)] = photo
                }
            }
            try await afterChunk(results.count)
        }
        if completed {
            completed = try await read(plan.newReads) { results in
                for (planned, reading) in results {
                    let resolution = plan.resolveNew(planned, fingerprint: reading.fingerprint)
                    batch.add(record(planned, reading), resolution, statChanged: true, to: &summary)
                }
                try await afterChunk(results.count)
            }
        }
        try await committing?.value
        guard completed else {
            try commit(batch)
            throw GeoTripError.interrupted(.reading(saved: done - deferred.count))
        }
        // Settle the known paths whose content changed; what left the folder is retired by the
        // pipeline in the same last transaction.
        for (planned, resolution) in plan.resolveDeferred() {
            guard let photo = deferred[PathKey(planned.file.relativePath)] else { continue }
            batch.add(photo, resolution, statChanged: planned.statChanged || planned.sidecarsChanged, to: &summary)
        }
        outcome.remaining = batch
        outcome.gone = plan.stillMissing
        return outcome
    }

    /// Whether a reading at a known path counts as a change: the photo's file changed, or a
    /// sidecar that is not geotrip's own did, or geotrip's own was edited by another program
    /// (geotrip rewriting its own changes nothing, and is not seen: it records the result).
    private static func changed(_ planned: PlannedRead, _ reading: FileReading) -> Bool {
        guard !planned.statChanged else { return true }
        guard planned.sidecarsChanged else { return false }
        let stamp = planned.existing?.sidecars
        let own = ScannedFile.geotripSidecars(inStamp: stamp)
        let foreignBefore = (stamp?.split(separator: "\n").count ?? 0) - own.count
        // An own sidecar recorded with its size and time changed: geotrip records its own
        // rewrites, so another program edited it; a change when it gave the photo another time.
        return foreignBefore > 0 || planned.file.sidecars.count > reading.geotripSidecars.count
            || own.values.contains(true) && reading.metadata.captureSignature != planned.existing?.captureSignature
    }

    /// Reads `planned` on all cores, in chunks, and hands each chunk's readings to `handle` on
    /// the calling task (so the handler needs no locking). Returns false when cancelled.
    private func read(
        _ planned: [PlannedRead],
        handle: ([(PlannedRead, FileReading)]) async throws -> Void
    ) async throws -> Bool {
        let root = Array(folder.utf8) + [UInt8(ascii: "/")]
        let reader = self.reader
        let chunks = planned.chunked(Self.filesPerTask).map(Array.init)
        return try await withThrowingTaskGroup(of: [(PlannedRead, FileReading)].self) { group in
            var next = 0
            func startNext() {
                guard next < chunks.count else { return }
                let chunk = chunks[next]
                next += 1
                group.addTask {
                    chunk.map { planned in
                        (planned, reader.read(pathBytes: root + planned.file.pathBytes,
                                              sidecars: planned.file.sidecars.map { root + Array($0.relativePath.utf8) }))
                    }
                }
            }
            for _ in 0..<concurrency * 2 { startNext() }
            while let results = try await group.next() {
                try await handle(results)
                if Task.isCancelled {
                    group.cancelAll()
                    return false
                }
                startNext()
            }
            return true
        }
    }
}

/// Records waiting for the next catalog transaction.
struct RecordBatch: Sendable {
    var new: [PhotoRecord] = []
    var updated: [PhotoRecord] = []
    var count: Int { new.count + updated.count }

    /// Adds `record` as `resolution` says, and counts it in `summary`.
    mutating func add(_ record: PhotoRecord, _ resolution: ReadPlan.Resolution, statChanged: Bool, to summary: inout IngestSummary) {
        var record = record
        record.id = resolution.id
        if resolution.id == nil { new.append(record) } else { updated.append(record) }
        switch resolution.outcome {
        case .changed where !statChanged: summary.unchanged += 1
        case .changed: summary.changed += 1
        case .returned: summary.new += 1; summary.returned += 1
        case .new: summary.new += 1
        case .moved: summary.moved += 1
        }
    }
}


/// Whether the read stage's commit in flight has finished, asked without waiting for it.
private final class CommitFlag: Sendable {
    private let done = Atomic<Bool>(true)
    var isSet: Bool { done.load(ordering: .acquiring) }
    func set() { done.store(true, ordering: .releasing) }
    func reset() { done.store(false, ordering: .releasing) }
}
