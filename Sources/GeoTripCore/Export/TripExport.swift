import Foundation

/// `geotrip export`: the export stage alone, re-rendering the journal and `trip.geojson` from
/// the catalog without scanning the folder. `--out`, `--lang`, `--hide-near` and `--photos`
/// given here are remembered for the trip, as `ingest` remembers them.
public struct TripExport: Sendable {
    /// The trip folder and its catalog.
    public var folder: String
    public var catalogPath: String
    /// Whether `--catalog` was given (the journal's `geotrip tag` commands then name it).
    public var catalogGiven = false
    /// `--out`, `--lang`, `--hide-near`, `--photos`: nil keeps what the catalog remembers.
    public var outputFolder: String?
    public var language: String?
    public var privacy: PrivacyZones.Change?
    public var photoPoints: Bool?
    /// `--tiles` (`.some(nil)` forgets the layer) and `--thumbnails`: nil keeps what is remembered.
    public var tiles: TripMapInput.Tiles??
    public var makeThumbnails: Bool?
    /// `--home` (`.some(nil)` finds home again) and `--hide-home`: nil keeps what is remembered.
    public var home: Coordinate??
    public var hideHome: Bool?
    /// `--forget-old-homes`: keep private only the homes found now (`ExportStage.run`).
    public var forgetOldHomes = false
    /// Makes the thumbnails; nil for `MadeThumbnails` of the trip folder.
    public var thumbnails: (any ThumbnailProvider)?

    /// Creates an export of the trip at `folder`.
    public init(folder: String, catalogPath: String) {
        self.folder = folder
        self.catalogPath = catalogPath
    }

    /// Exports. Throws `GeoTripError` for problems with the run; a given `--out` that cannot be
    /// used stops it before the catalog is opened.
    public func run(progress: some IngestProgressReporting = SilentProgress()) async throws(GeoTripError) -> ExportSummary {
        defer { progress.finish() }
        try FolderScanner(root: folder).checkRoot()
        guard FileManager.default.fileExists(atPath: catalogPath) else { throw .catalogMissing(path: catalogPath, folder: folder) }
        if let outputFolder { try OutputFolder(folder: folder, outputFolder: outputFolder).check() }
        let catalog = try Catalog.open(at: catalogPath)
        let followedFrom = try catalog.claim(folder: folder, outputFolder: outputFolder.map { OutputFolder.remembered($0, for: folder) })
        let naming = try catalog.namingSettings(language: language)
        var privacyReport: PrivacyZones.Report?
        let settings = try catalog.exportSettings(outputFolder: outputFolder.map { OutputFolder.remembered($0, for: folder) },
                                                  privacy: privacy, photoPoints: photoPoints,
                                                  tiles: tiles, thumbnails: makeThumbnails, home: home, hideHome: hideHome,
                                                  privacyReport: &privacyReport)
        var stage = ExportStage(catalog: catalog, folder: folder, explicitCatalog: catalogGiven ? catalogPath : nil, thumbnails: thumbnails ?? MadeThumbnails(tripFolder: folder))
        let stages = StageList([.export], writeXMP: false, reporter: progress)
        stage.progress = { stages.report(.export, done: $0, total: $1) }
        do {
            var summary = try await stages.run(.export) {
                try await stage.run(settings: settings, language: naming.language, checkEverything: true, forgettingOldHomes: forgetOldHomes)
            }
            summary.catalogFollowedFrom = followedFrom
            summary.privacyChange = privacyReport
            try ExportStage.listBackups(catalog, &summary, zonesAdded: privacyReport)
            ExportStage.sayHomeNotFound(given: home, catalog, &summary)
            return summary
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw .catalogRejected(path: catalogPath, reason: "\(error)")
        }
    }
}
