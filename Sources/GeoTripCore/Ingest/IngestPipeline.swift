import Foundation
import Logging

/// Options for one ingest run.
public struct IngestOptions: Sendable {
    /// The trip folder.
    public var folder: String
    /// The catalog file; `IngestOptions.defaultCatalogPath(for:)` unless `--catalog` was given.
    public var catalogPath: String
    /// How many reading tasks run at once; one per core by default.
    public var concurrency: Int
    /// How many files are written per catalog transaction.
    public var batchSize: Int
    /// `--tz`, `--clock-offset`, `--track`: nil keeps what the catalog remembers.
    public var assumedZone: String?
    public var clockOffsets: [String]?
    public var tracks: [String]?
    /// `--write-xmp` / `--no-write-xmp`: nil keeps what the catalog remembers.
    public var writeXMP: Bool?
    /// `--visit-radius`, `--visit-gap`, `--place-radius`: nil keeps what the catalog remembers.
    public var visitRadius: Double?
    public var visitGap: TimeInterval?
    public var placeRadius: Double?
    /// `--day-starts`: nil keeps what the catalog remembers.
    public var dayRule: LocalDayRule?

    /// Creates options with the defaults.
    public init(folder: String, catalogPath: String? = nil,
                concurrency: Int = ProcessInfo.processInfo.activeProcessorCount, batchSize: Int = 500) {
        self.folder = folder
        self.catalogPath = catalogPath ?? Self.defaultCatalogPath(for: folder)
        self.concurrency = max(1, concurrency)
        self.batchSize = max(1, batchSize)
    }

    /// `DIR/.geotrip/catalog.sqlite`.
    public static func defaultCatalogPath(for folder: String) -> String {
        (folder as NSString).appendingPathComponent(".geotrip/catalog.sqlite")
    }
}

/// `geotrip ingest`: the pipeline, stage by stage.
///
/// 1. Scan: list the folder's files with size and modification time, and its sidecars
///    (`FolderScanner`).
/// 2. Read: compare with the catalog; read the metadata of new and changed files only, on all
///    cores with bounded concurrency (`MetadataReader`), recognising moved files by fingerprint;
///    write what was read in batched transactions.
/// 3. Finish: mark files that left the folder as removed, and count.
/// 4. Resolve: every photo's UTC time and position (`TripResolution`), when anything changed.
/// 5. Sidecars: with `--write-xmp`, whenever the sidecars lag behind the resolution
///    (`SidecarSync`).
/// 6. Cluster: visits and places with stable ids, named offline (`TripClustering`).
///
/// Every stage after reading records what it finished in the catalog, so a run stopped at any
/// point (a signal cancels the task; it stops at the next batch or stage) is completed by the
/// next one.
public struct IngestPipeline: Sendable {
    /// How many diagnostics the summary carries; the rest are counted.
    public static let diagnosticsShown = 10
    /// Files per reading task: large enough that task overhead vanishes, small enough to keep
    /// both cores busy to the end.
    static let filesPerTask = 48

    public var options: IngestOptions
    let reader = MetadataReader()
    let logger: Logger

    /// Creates a pipeline.
    public init(options: IngestOptions, logger: Logger = Logger(label: "geotrip.ingest")) {
        self.options = options
        self.logger = logger
    }

    /// Runs the ingest. Throws `GeoTripError` for problems with the run; problems with single
    /// photos are in the summary. On task cancellation (Ctrl-C) it commits what it has read
    /// and throws `.interrupted`.
    public func run(progress: some IngestProgressReporting) async throws -> IngestSummary {
        let started = ContinuousClock.now
        defer { progress.finish() }
        var scanner = FolderScanner(root: options.folder)
        // Checked before the catalog folder is made, so a mistyped path creates nothing.
        try scanner.checkRoot()
        try Catalog.createFolder(for: options.catalogPath)
        scanner.excludedPaths = catalogFilesInsideFolder()
        let catalog = try Catalog.open(at: options.catalogPath)
        // Settled first, so a remembered threshold out of range stops the run before any work.
        let clustering = try catalog.clusteringOptions(visitRadius: options.visitRadius, visitGap: options.visitGap,
                                                       placeRadius: options.placeRadius, dayRule: options.dayRule)

        // [1/3] Scan
        progress.report(IngestProgress(stage: .scan, done: 0, total: nil))
        let listing = try scanner.scan()
        let files = listing.files
        logger.debug("scanned \(files.count) files in \(ContinuousClock.now - started)")
        var plan = ReadPlan(files: files, known: try catalog.files(), readerVersion: MetadataReader.version)
        var summary = IngestSummary()
        summary.scanned = files.count
        summary.unchanged = plan.unchangedCount
        summary.catalog = options.catalogPath
        var diagnostics = listing.problems.map { PhotoDiagnostic(path: options.folder, kind: .folder, message: $0) }

        // [2/3] Read, known paths first: a known path whose content changed may have given its
        // row up to a new path, and new paths can only claim rows once that is known.
        let total = plan.knownReads.count + plan.newReads.count
        var done = 0
        var batch = RecordBatch()
        var deferred: [PathKey: PhotoRecord] = [:]
        func record(_ planned: PlannedRead, _ reading: FileReading) -> PhotoRecord {
            if reading.status != .skipped {
                diagnostics += reading.metadata.diagnostics.map { PhotoDiagnostic(path: planned.file.relativePath, $0) }
            }
            return PhotoRecord(file: planned.file, reading: reading)
        }
        func afterChunk(_ count: Int) throws {
            done += count
            progress.report(IngestProgress(stage: .read, done: done, total: total))
            if batch.count >= options.batchSize { try catalog.save(new: batch.new, updated: batch.updated); batch = RecordBatch() }
        }
        progress.report(IngestProgress(stage: .read, done: 0, total: total))
        var completed = try await read(plan.knownReads) { results in
            for (planned, reading) in results {
                let photo = record(planned, reading)
                let signature = reading.status == .read ? reading.metadata.captureSignature : nil
                if let resolution = plan.admitKnown(planned, fingerprint: reading.fingerprint, captureSignature: signature) {
                    if let row = planned.existing, !planned.statChanged, row.readerVersion == MetadataReader.version,
                       row.status == reading.status, row.fingerprint == reading.fingerprint {
                        summary.unchanged += 1  // a retry that failed the same way: nothing to write
                        continue
                    }
                    batch.add(photo, resolution, statChanged: planned.statChanged, to: &summary)
                } else {
                    deferred[PathKey(planned.file.relativePath)] = photo
                }
            }
            try afterChunk(results.count)
        }
        if completed {
            completed = try await read(plan.newReads) { results in
                for (planned, reading) in results {
                    let resolution = plan.resolveNew(planned, fingerprint: reading.fingerprint)
                    batch.add(record(planned, reading), resolution, statChanged: true, to: &summary)
                }
                try afterChunk(results.count)
            }
        }
        guard completed else {
            try catalog.save(new: batch.new, updated: batch.updated)
            throw GeoTripError.interrupted(savedPhotos: done - deferred.count)
        }

        // [3/3] Finish: settle the known paths whose content changed, retire what left the
        // folder, all in the one last transaction.
        progress.report(IngestProgress(stage: .finish, done: 0, total: nil))
        for (planned, resolution) in plan.resolveDeferred() {
            guard let photo = deferred[PathKey(planned.file.relativePath)] else { continue }
            batch.add(photo, resolution, statChanged: planned.statChanged, to: &summary)
        }
        let gone = plan.stillMissing
        try catalog.finish(new: batch.new, updated: batch.updated, removing: gone, at: Date())
        summary.removed = gone.count

        let counts = try catalog.counts()
        summary.withGPS = counts.withGPS
        summary.withoutGPS = counts.withoutGPS
        summary.skipped = counts.skipped
        summary.errors = counts.unreadable
        // [4-7] Resolve, sidecars, cluster, name: the tail `tag` runs too. The gazetteer is
        // loaded once, and only if needed.
        let gazetteer = RunGazetteer()
        let present = counts.withGPS + counts.withoutGPS
        let derived = try await TripDerivation(catalog: catalog, folder: options.folder, gazetteer: gazetteer.get)
            .run(settings: try resolutionSettings(catalog), clustering: clustering, listing: listing, progress: progress,
                 interrupted: { .interrupted(savedPhotos: present) })
        summary.resolution = derived.resolution
        summary.sidecarsWritten = derived.sidecarsWritten
        summary.trip = derived.trip
        diagnostics += derived.diagnostics

        summary.diagnosticCount = diagnostics.count
        summary.diagnostics = Array(diagnostics.sorted { ($0.kind.severity, $0.path) < ($1.kind.severity, $1.path) }.prefix(Self.diagnosticsShown))
        summary.diagnosticKinds = DiagnosticCount.byKind(diagnostics)
        summary.seconds = (ContinuousClock.now - started).seconds
        logger.debug("ingest finished in \(summary.seconds) s")
        return summary
    }

    /// The run's settings: what was given now, else what the catalog remembers.
    private func resolutionSettings(_ catalog: Catalog) throws(GeoTripError) -> ResolutionSettings {
        let stored = try catalog.storedResolutionSettings()
        return ResolutionSettings(
            assumedZone: options.assumedZone ?? stored.assumedZone,
            clockOffsets: options.clockOffsets ?? stored.clockOffsets,
            tracks: options.tracks.map { $0.map { URL(fileURLWithPath: $0).standardizedFileURL.path } } ?? stored.tracks,
            writeXMP: options.writeXMP ?? stored.writeXMP)
    }

    /// Reads `planned` on all cores, in chunks, and hands each chunk's readings to `handle` on
    /// the calling task (so the handler needs no locking). Returns false when cancelled.
    private func read(
        _ planned: [PlannedRead],
        handle: ([(PlannedRead, FileReading)]) throws -> Void
    ) async throws -> Bool {
        let root = Array(options.folder.utf8) + [UInt8(ascii: "/")]
        let reader = self.reader
        let chunks = planned.chunked(Self.filesPerTask).map(Array.init)
        return try await withThrowingTaskGroup(of: [(PlannedRead, FileReading)].self) { group in
            var next = 0
            func startNext() {
                guard next < chunks.count else { return }
                let chunk = chunks[next]
                next += 1
                group.addTask {
                    chunk.map { planned in (planned, reader.read(pathBytes: root + planned.file.pathBytes)) }
                }
            }
            for _ in 0..<options.concurrency * 2 { startNext() }
            while let results = try await group.next() {
                try handle(results)
                if Task.isCancelled {
                    group.cancelAll()
                    return false
                }
                startNext()
            }
            return true
        }
    }

    /// The catalog's own files, when `--catalog` put them inside the trip folder.
    /// Paths are compared after resolving symbolic links, so a folder named through a link
    /// still recognises its own catalog.
    private func catalogFilesInsideFolder() -> Set<String> {
        func resolved(_ path: String) -> String {
            guard let real = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
            defer { free(real) }
            return String(cString: real)
        }
        let folder = resolved(options.folder)
        let catalogURL = URL(fileURLWithPath: options.catalogPath)
        let catalog = resolved(catalogURL.deletingLastPathComponent().path) + "/" + catalogURL.lastPathComponent
        guard catalog.hasPrefix(folder + "/") else { return [] }
        let relative = String(catalog.dropFirst(folder.count + 1))
        return [relative, relative + "-wal", relative + "-shm", relative + ".lock"]
    }
}

/// Records waiting for the next catalog transaction.
struct RecordBatch {
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
        case .returned, .new: summary.new += 1
        case .moved: summary.moved += 1
        }
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
