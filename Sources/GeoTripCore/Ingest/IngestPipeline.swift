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
/// 1. Scan: list the folder's files with size and modification time (`FolderScanner`).
/// 2. Read: compare with the catalog; read the metadata of new and changed files only, on all
///    cores with bounded concurrency (`MetadataReader`), recognising moved files by fingerprint;
///    write what was read in batched transactions.
/// 3. Finish: mark files that left the folder as removed, and count.
///
/// Later issues add stages after these (time and place resolution, clustering, naming, export).
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
        let scanner = FolderScanner(root: options.folder, excludedPaths: catalogFilesInsideFolder())
        // Checked before the catalog folder is made, so a mistyped path creates nothing.
        try scanner.checkRoot()
        try Catalog.createFolder(for: options.catalogPath)
        let lock = try CatalogLock(catalogPath: options.catalogPath)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try Catalog.open(at: options.catalogPath)

        progress.report(IngestProgress(stage: .scan, done: 0, total: nil))
        let (files, scanProblems) = try scanner.scan()
        logger.debug("scanned \(files.count) files in \(ContinuousClock.now - started)")

        var plan = try ReadPlan(files: files, known: catalog.filesByPath())
        var summary = IngestSummary()
        summary.scanned = files.count
        summary.unchanged = plan.unchangedCount
        summary.catalog = options.catalogPath
        var diagnostics = scanProblems.map { PhotoDiagnostic(path: options.folder, message: $0) }

        progress.report(IngestProgress(stage: .read, done: 0, total: plan.reads.count))
        var pendingNew: [PhotoRecord] = []
        var pendingUpdated: [PhotoRecord] = []
        var saved = 0
        func flush() throws {
            guard !pendingNew.isEmpty || !pendingUpdated.isEmpty else { return }
            try catalog.save(new: pendingNew, updated: pendingUpdated)
            saved += pendingNew.count + pendingUpdated.count
            pendingNew.removeAll(keepingCapacity: true)
            pendingUpdated.removeAll(keepingCapacity: true)
        }

        var done = 0
        let root = options.folder
        let reader = self.reader
        let chunks = stride(from: 0, to: plan.reads.count, by: Self.filesPerTask).map {
            Array(plan.reads[$0..<min($0 + Self.filesPerTask, plan.reads.count)])
        }
        var interrupted = false
        try await withThrowingTaskGroup(of: [(PlannedRead, FileReading)].self) { group in
            var nextChunk = 0
            func startNext() {
                guard nextChunk < chunks.count else { return }
                let chunk = chunks[nextChunk]
                nextChunk += 1
                group.addTask {
                    chunk.map { planned in (planned, reader.read(path: root + "/" + planned.file.relativePath)) }
                }
            }
            for _ in 0..<options.concurrency * 2 { startNext() }
            while let results = try await group.next() {
                for (planned, reading) in results {
                    var record = PhotoRecord(file: planned.file, reading: reading)
                    switch plan.resolve(planned, fingerprint: reading.fingerprint) {
                    case .update(let id, let outcome):
                        record.id = id
                        pendingUpdated.append(record)
                        switch outcome {
                        case .changed: summary.changed += 1
                        case .returned: summary.new += 1
                        case .moved: summary.moved += 1
                        }
                    case .insert:
                        pendingNew.append(record)
                        summary.new += 1
                    }
                    let problems = reading.status == .skipped ? [] : reading.metadata.diagnostics
                    diagnostics += problems.map { PhotoDiagnostic(path: planned.file.relativePath, message: $0) }
                }
                done += results.count
                progress.report(IngestProgress(stage: .read, done: done, total: plan.reads.count))
                if pendingNew.count + pendingUpdated.count >= options.batchSize { try flush() }
                if Task.isCancelled {
                    interrupted = true
                    group.cancelAll()
                    break
                }
                startNext()
            }
        }
        try flush()
        if interrupted { throw GeoTripError.interrupted(savedPhotos: saved) }

        progress.report(IngestProgress(stage: .finish, done: 0, total: nil))
        let gone = plan.stillMissing
        try catalog.markRemoved(ids: gone, at: Date())
        summary.removed = gone.count

        let counts = try catalog.counts()
        summary.withGPS = counts.withGPS
        summary.withoutGPS = counts.withoutGPS
        summary.skipped = counts.skipped
        summary.errors = counts.unreadable
        summary.diagnosticCount = diagnostics.count
        summary.diagnostics = Array(diagnostics.sorted { $0.path < $1.path }.prefix(Self.diagnosticsShown))
        summary.seconds = (ContinuousClock.now - started).seconds
        logger.debug("ingest finished in \(summary.seconds) s")
        return summary
    }

    /// The catalog's own files, when `--catalog` put them inside the trip folder.
    private func catalogFilesInsideFolder() -> Set<String> {
        let folder = URL(fileURLWithPath: options.folder).standardizedFileURL.path
        let catalog = URL(fileURLWithPath: options.catalogPath).standardizedFileURL.path
        guard catalog.hasPrefix(folder + "/") else { return [] }
        let relative = String(catalog.dropFirst(folder.count + 1))
        return [relative, relative + "-wal", relative + "-shm", relative + ".lock"]
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
