import Foundation
import Logging

/// Options for one ingest run.
public struct IngestOptions: Sendable {
    /// The value of `--tz`, `--clock-offset` or `--track` that forgets the remembered one.
    public static let forget = "none"
    /// The trip folder.
    public var folder: String
    /// The catalog file; `IngestOptions.defaultCatalogPath(for:)` unless `--catalog` was given.
    public var catalogPath: String
    /// How many reading tasks run at once; one per core by default.
    public var concurrency: Int
    /// How many files are written per catalog transaction.
    public var batchSize: Int
    /// How many photos a full resolution pass resolves at a time (`ResolutionBatches`).
    var resolutionBatchSize = ResolutionBatches.defaultSize
    /// When the run is taken to happen (the latest plausible capture time follows it); nil:
    /// when it starts. Tests set it.
    var now: Date?
    /// `--tz`, `--clock-offset`, `--track`: nil keeps what the catalog remembers; `forget`
    /// (alone) forgets it.
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
    /// `--geocoder`, `--nominatim-url`, `--lang`, `--contact`: nil keeps what the catalog remembers.
    public var geocoder: String?
    public var nominatimURL: String?
    public var language: String?
    public var contact: String?
    /// `--out`, `--hide-near`, `--photos`: nil keeps what the catalog remembers.
    public var outputFolder: String?
    public var privacy: PrivacyZones.Change?
    public var photoPoints: Bool?
    /// `--tiles` (`.some(nil)` forgets the layer) and `--thumbnails`: nil keeps what is remembered.
    public var tiles: TripMapInput.Tiles??
    public var makeThumbnails: Bool?
    /// `--home` (`.some(nil)` finds home again) and `--hide-home`: nil keeps what is remembered.
    public var home: Coordinate??
    public var hideHome: Bool?
    /// Whether `--catalog` was given (the journal's `geotrip tag` commands then name it).
    public var catalogGiven = false
    /// `--rate`, `--concurrency`, `--timeout`: for this run only.
    public var namingRate: Double?
    public var namingConcurrency: Int?
    public var namingTimeout: Int?

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

/// `geotrip ingest`: the pipeline, as a list of named stages in data order. Each stage is a
/// type in its own folder with one entry point, taking and returning values; the catalog is
/// written here, between stages.
///
/// 1. scan (`FolderScanner`): the folder's files with size and modification time, and its sidecars.
/// 2. plan (`ReadPlan`): compare with the catalog; what to read, which row each file belongs to
///    (moved files are recognised by fingerprint).
/// 3. read (`ReadStage`): the metadata of new and changed files on all cores, committed in
///    batches; then files that left the folder are retired.
/// 4. resolve (`TripResolution`): every photo's UTC time and position, when anything changed.
/// 5. sidecars (`SidecarSync`, with `--write-xmp` only): whenever they lag behind the resolution.
/// 6. cluster (`ClusterStage`): visits and places with stable ids.
/// 7. name (`NameStage`): a name for each place that has none or moved more than 50 m.
/// 8. export (`ExportStage`): the journal and `trip.geojson` in the output folder, from the
///    catalog; only files whose content changed are written.
///
/// Stages 4 to 7 are `TripDerivation`, which `tag` runs too. Every stage after reading records
/// what it finished in the catalog, so a run stopped at any point (a signal cancels the task; it
/// stops at the next batch or stage) is completed by the next one. Progress lines carry the
/// stage's number out of the run's real total (`[3/6] read`), and so do run errors.
public struct IngestPipeline: Sendable {
    /// How many diagnostics the summary carries; the rest are counted.
    public static let diagnosticsShown = 10

    public var options: IngestOptions
    let logger: Logger
    /// Makes the export's thumbnails; nil for `MadeThumbnails` of the trip folder.
    let thumbnails: (any ThumbnailProvider)?

    /// Creates a pipeline.
    public init(options: IngestOptions, thumbnails: (any ThumbnailProvider)? = nil, logger: Logger = Logger(label: "geotrip.ingest")) {
        self.options = options
        self.thumbnails = thumbnails
        self.logger = logger
    }

    /// Runs the ingest. Throws `GeoTripError` for problems with the run; problems with single
    /// photos are in the summary. On task cancellation (a signal) it commits what it has read
    /// and throws `.interrupted`.
    public func run(progress: some IngestProgressReporting) async throws -> IngestSummary {
        let started = ContinuousClock.now
        defer { progress.finish() }
        var scanner = FolderScanner(root: options.folder)
        // Checked before the catalog folder is made, so a mistyped path creates nothing.
        try scanner.checkRoot()
        // A given --out is checked before the catalog is touched, so a bad one changes nothing:
        // one that cannot be written, or that cannot be used apart from the photos.
        if let out = options.outputFolder {
            try OutputFolder(folder: options.folder, outputFolder: out).check()
            if let given = OutputFolder.remembered(out, for: options.folder) {
                try OutputFolder(folder: options.folder, outputFolder: given).checkApart(from: options.folder, catalog: options.catalogPath)
            }
        }
        // Without a catalog yet (whose folder it may have followed), an output folder holding
        // another folder's outputs, or the journal another catalog writes, is refused now,
        // before one is made: a new catalog matches no other's identity.
        if !FileManager.default.fileExists(atPath: options.catalogPath) {
            try OutputFolder(folder: options.folder, outputFolder: options.outputFolder)
                .checkOwner(photoFolder: options.folder, former: nil, writer: .init(path: RealPath.ofFile(options.catalogPath), identity: ""))
        }
        try Catalog.createFolder(for: options.catalogPath)
        scanner.excludedPaths = catalogFilesInsideFolder()
        let catalog = try Catalog.open(at: options.catalogPath)
        // Another folder's catalog, or an output folder another folder's outputs are in (given,
        // or remembered), is refused before anything is written to the catalog.
        let followedFrom = try catalog.claim(folder: options.folder, outputFolder: options.outputFolder.map { OutputFolder.remembered($0, for: options.folder) })
        // Settled first, so a remembered setting out of range stops the run before any work.
        let clustering = try catalog.clusteringOptions(visitRadius: options.visitRadius, visitGap: options.visitGap,
                                                       placeRadius: options.placeRadius, dayRule: options.dayRule)
        let settings = try resolutionSettings(catalog)
        var naming = try catalog.namingSettings(geocoder: options.geocoder, nominatimURL: options.nominatimURL,
                                                language: options.language, contact: options.contact)
        if let rate = options.namingRate { naming.requestsPerSecond = rate }
        if let concurrency = options.namingConcurrency { naming.concurrency = concurrency }
        if let timeout = options.namingTimeout { naming.timeoutSeconds = timeout }
        var privacyReport: PrivacyZones.Report?
        // A remembered --out that cannot be used apart from the photos is refused before the
        // scan passes over it (a given one was checked above).
        let given = options.outputFolder.map { OutputFolder.remembered($0, for: options.folder) }
        let exporting = try catalog.exportSettings(outputFolder: given,
                                                   privacy: options.privacy, photoPoints: options.photoPoints,
                                                   tiles: options.tiles, thumbnails: options.makeThumbnails,
                                                   home: options.home, hideHome: options.hideHome, privacyReport: &privacyReport)
        let output = OutputFolder(folder: options.folder, outputFolder: exporting.outputFolder)
        try output.check()
        if given == nil { try output.checkApart(from: options.folder, catalog: options.catalogPath) }
        if let inside = Self.relative(output.path, inside: options.folder) { scanner.excludedFolders = [inside] }
        // The person's own `geotrip/` of photos, the outputs being elsewhere, is read as theirs.
        let named = OutputFolder(folder: options.folder, outputFolder: nil)
        if named.path != output.path, !named.photosNotOurs().isEmpty { scanner.skipsOutputFolderName = false }
        // Output folders used before, inside the trip folder: geotrip's thumbnails are no photos.
        for earlier in try catalog.earlierOutputFolders() where !earlier.isEmpty {
            let path = OutputFolder(folder: options.folder, outputFolder: earlier).path
            if let inside = Self.relative(path, inside: options.folder) { scanner.excludedFolders.insert(inside) }
        }
        let stages = StageList(IngestStage.allCases, writeXMP: settings.writeXMP, reporter: progress, logger: logger)
        var summary = IngestSummary()
        summary.catalog = options.catalogPath
        summary.catalogFollowedFrom = followedFrom

        var listing = try await stages.run(.scan) { try scanner.scan() }
        summary.scanned = listing.files.count
        // Photos copied into geotrip's own output folder inside the trip are never read (the
        // scan passes over it): said, from a look at its top and its journal.
        if let inside = Self.relative(output.path, inside: options.folder), case let copied = output.mediaCopiedIn(), let first = copied.first {
            listing.problems.append("\(inside)/: \(copied.count == 1 ? "a photo or video here is" : "\(copied.count) photos or videos here are") not read "
                + "(\(copied.count == 1 ? "" : "the first, ")\(first)): this is geotrip's own folder of outputs, which the scan passes over; "
                + "move \(copied.count == 1 ? "it" : "them") beside the trip's other photos to read \(copied.count == 1 ? "it" : "them")")
        }
        logger.debug("scanned \(listing.files.count) files in \(ContinuousClock.now - started)")

        // The file list and the plan are the size of the folder (a few hundred MB at a million
        // files); nothing after the read needs them, so they go before the later stages run.
        let read: ReadStage.Outcome
        let gazetteer = RunGazetteer()
        do {
            var plan = try await stages.run(.plan) {
                try ReadPlan(files: listing.files, readerVersion: MetadataReader.version, unreadFolders: listing.unreadFolders) { settled throws(GeoTripError) in
                    try catalog.files(unlessSettled: settled)
                }
            }
            listing.files = []
            summary.unchanged = plan.unchangedCount

            // Photos to read mean resolution, which needs the gazetteer first thing: it loads
            // on another thread while they are read (about 50 ms, the most of resolving a day
            // added to a library). An unchanged rerun never loads it.
            let reads = !plan.knownReads.isEmpty || !plan.newReads.isEmpty
            async let preloaded: Void = reads ? gazetteer.preload() : ()
            let reading = ReadStage(folder: options.folder, concurrency: options.concurrency, batchSize: options.batchSize)
            read = try await stages.run(.read) {
                try await reading.run(&plan, summary: &summary, progress: { stages.report(.read, done: $0, total: $1) },
                                      commit: { try catalog.save(new: $0.new, updated: $0.updated) })
            }
            await preloaded
            // Photos not seen because a folder could not be read are kept: counted as they were.
            summary.unchanged += plan.unseenKept
        }
        try stages.timed("the read's last transaction") {
            try catalog.finish(new: read.remaining.new, updated: read.remaining.updated, removing: read.gone, at: Date())
        }
        summary.removed = read.gone.count
        let counts = try stages.timed("counting the photos") { try catalog.counts() }
        summary.withGPS = counts.withGPS
        summary.withoutGPS = counts.withoutGPS
        summary.videos = counts.videos
        summary.livePhotoVideos = counts.livePhotoVideos
        summary.skipped = counts.skipped
        summary.errors = counts.unreadable

        let present = counts.withGPS + counts.withoutGPS
        var derivation = TripDerivation(catalog: catalog, folder: options.folder, gazetteer: gazetteer.get)
        derivation.resolutionBatchSize = options.resolutionBatchSize
        if let now = options.now { derivation.now = now }
        let derived = try await derivation
            .run(settings: settings, clustering: clustering, naming: naming, export: exporting, listing: listing, stages: stages,
                 interrupted: { .interrupted(.afterReading(present: present)) })
        summary.resolution = derived.resolution
        summary.sidecarsWritten = derived.sidecarsWritten
        summary.trip = derived.trip
        summary.reclusteredByNewRules = derived.reclusteredByNewRules
        summary.manualNames = derived.manualNames
        summary.named = derived.named
        if Task.isCancelled { throw GeoTripError.interrupted(.afterReading(present: present)) }

        // The online naming phase gave the run lock up (see `CatalogLock`); the export writes
        // notes to the catalog and files beside it, so it takes the lock again first.
        try await catalog.reacquireLock()
        var exportStage = ExportStage(catalog: catalog, folder: options.folder, explicitCatalog: options.catalogGiven ? options.catalogPath : nil,
                                      thumbnails: thumbnails ?? MadeThumbnails(tripFolder: options.folder), gazetteer: gazetteer)
        // A name whose place is gone, with the command that lets it go.
        for index in summary.manualNames.indices where summary.manualNames[index].mayBeLetGo {
            summary.manualNames[index].clearCommand = exportStage.command("rename", [summary.manualNames[index].from, "--clear"])
        }
        exportStage.progress = { stages.report(.export, done: $0, total: $1) }
        do {
            summary.export = try await stages.run(.export) { try await exportStage.run(settings: exporting, language: naming.language) }
            if let shared = summary.export?.shared { summary.trip?.shared = shared }
            summary.export?.privacyChange = privacyReport
            if summary.export != nil {
                try ExportStage.listBackups(catalog, &summary.export!, zonesAdded: privacyReport)
                ExportStage.sayHomeNotFound(given: options.home, catalog, &summary.export!)
            }
            // Another trip's outputs inside this folder (a trip ingested on its own before the
            // library around it): its notes are its own catalog's, and stay there.
            summary.export?.notesInOtherOutputs = listing.otherOutputFolders.compactMap { folder in
                let pages = ExportStage.pagesWithNotes(inOutputFolder: options.folder + "/" + folder)
                return pages.isEmpty ? nil : NotesElsewhere(folder: folder, pages: pages)
            }
        } catch GeoTripError.interrupted {
            // The export stopped between trips (Ctrl-C): the next run writes the rest.
            throw GeoTripError.interrupted(.afterReading(present: present))
        }

        let zoneFallback = gazetteer.zoneIndexProblem.map { problem in
            [PhotoDiagnostic(path: options.folder, kind: .folder, message: Gazetteer.fallbackSentence(problem))]
        } ?? []
        let diagnostics = listing.problems.map { PhotoDiagnostic(path: options.folder, kind: .folder, message: $0) }
            + zoneFallback + read.diagnostics + derived.diagnostics + (summary.export?.problems ?? []) + (try unmatchedCameras(catalog))
        summary.diagnosticCount = diagnostics.count
        summary.diagnostics = Array(diagnostics.sorted { ($0.kind.severity, $0.path) < ($1.kind.severity, $1.path) }.prefix(Self.diagnosticsShown))
        summary.diagnosticKinds = DiagnosticCount.byKind(diagnostics)
        summary.seconds = (ContinuousClock.now - started).seconds
        logger.debug("ingest finished in \(summary.seconds) s")
        return summary
    }

    /// The run's settings: what was given now, else what the catalog remembers. What was given
    /// is remembered at once, so a run stopped before resolving still leaves it for the next.
    private func resolutionSettings(_ catalog: Catalog) throws(GeoTripError) -> ResolutionSettings {
        let tracks = options.tracks == [IngestOptions.forget] ? [] : options.tracks.map { $0.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
        let stored: ResolutionSettings
        do {
            stored = try catalog.storedResolutionSettings(replacingZone: options.assumedZone != nil)
        } catch {
            // Remembered settings that cannot be read are replaced when the run gives them all
            // (offsets and tracks are then only those given).
            guard case .settingUnreadable = error, let zone = options.assumedZone, let writeXMP = options.writeXMP else { throw error }
            stored = ResolutionSettings(assumedZone: zone, clockOffsets: options.clockOffsets ?? [], tracks: tracks ?? [], writeXMP: writeXMP)
        }
        let settings = ResolutionSettings(
            assumedZone: options.assumedZone.map { $0 == IngestOptions.forget ? nil : $0 } ?? stored.assumedZone,
            clockOffsets: (options.clockOffsets == [IngestOptions.forget] ? [] : options.clockOffsets) ?? stored.clockOffsets,
            tracks: tracks ?? stored.tracks,
            writeXMP: options.writeXMP ?? stored.writeXMP)
        try catalog.remember(settings)
        return settings
    }

    /// A sentence for each `--clock-offset` given now for a camera no photo present was taken
    /// with (a name mistyped corrects nothing, silently otherwise), with the cameras there are.
    private func unmatchedCameras(_ catalog: Catalog) throws(GeoTripError) -> [PhotoDiagnostic] {
        let named = (options.clockOffsets ?? []).compactMap { text in (try? ClockCorrection(parsing: text)).flatMap { $0.camera.map { (text, $0) } } }
        guard !named.isEmpty else { return [] }
        let cameras = try catalog.cameras()
        let known = Set(cameras.map { $0.lowercased() })
        let list = cameras.sorted().joined(separator: ", ")
        return named.filter { !known.contains($0.1.lowercased()) }.map { text, camera in
            PhotoDiagnostic(path: options.folder, kind: .input,
                            message: "--clock-offset \"\(text)\" corrects no photo: no photo here was taken with a camera named \"\(camera)\""
                                + (list.isEmpty ? "" : " (the cameras here: \(list))"))
        }
    }

    /// `path` relative to `folder` when it lies inside it (links resolved on both), else nil.
    static func relative(_ path: String, inside folder: String) -> String? {
        let base = RealPath.of(folder), full = RealPath.of(path)
        guard full.hasPrefix(base + "/") else { return nil }
        return String(full.dropFirst(base.count + 1))
    }

    /// The catalog's own files, when `--catalog` put them inside the trip folder.
    /// Paths are compared after resolving symbolic links, so a folder named through a link
    /// still recognises its own catalog.
    private func catalogFilesInsideFolder() -> Set<String> {
        let folder = RealPath.of(options.folder)
        let catalog = RealPath.inFolder(options.catalogPath)
        guard catalog.hasPrefix(folder + "/") else { return [] }
        let relative = String(catalog.dropFirst(folder.count + 1))
        return [relative, relative + "-wal", relative + "-shm", relative + CatalogLock.runSuffix, relative + CatalogLock.namingSuffix]
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
