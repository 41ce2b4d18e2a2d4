import Foundation

/// What the derive-the-trip tail did, for the summary.
struct DerivationResult {
    var resolution: ResolutionSummary?
    var sidecarsWritten = 0
    var trip: TripOverview?
    var diagnostics: [PhotoDiagnostic] = []
}

/// The stages after reading, shared by `ingest` and `tag` (and the coming `rename`): resolve
/// times and places, keep sidecars in step, cluster, name. Each records what it finished in
/// the catalog, so a stop between them loses nothing and the next run carries on. The catalog
/// is written only here, between stages; the stages themselves take and return values.
struct TripDerivation {
    let catalog: Catalog
    let folder: String
    /// The gazetteer, loaded once per run by whoever needs it first.
    let gazetteer: () throws(GeoTripError) -> Gazetteer

    /// Runs the tail. `listing` is the scan's (ingest), for the sidecar stage's full sync;
    /// without one (tag), sidecars of the photos present are brought in step only.
    func run(settings: ResolutionSettings, clustering: ClusteringOptions, listing: FolderScanner.Listing?,
             stages: StageList, interrupted: () -> GeoTripError) async throws -> DerivationResult {
        var result = DerivationResult()

        var resolution = TripResolution(catalog: catalog)
        if let summary = try await stages.run(.resolve, { try resolution.run(settings: settings, gazetteer: gazetteer) }) {
            result.resolution = summary
            result.diagnostics += summary.problems.map { PhotoDiagnostic(path: folder, kind: .input, message: $0) } + summary.photoProblems
        }
        if Task.isCancelled { throw interrupted() }

        // Sidecars, whenever the last sync is behind the catalog (a killed run included).
        if settings.writeXMP {
            let sync = SidecarSync(folder: folder, catalog: catalog)
            let synced = try await stages.run(.sidecars) { () async throws -> SidecarSync.Result? in
                guard try sync.isPending() || !(listing?.leftoverTemporaryFiles.isEmpty ?? true) else { return nil }
                return try sync.run(sidecarFiles: listing?.sidecars, leftovers: listing?.leftoverTemporaryFiles ?? []) { done, total in
                    stages.report(.sidecars, done: done, total: total)
                }
            }
            if let synced {
                result.sidecarsWritten = synced.written
                result.diagnostics += synced.problems
                guard synced.finished else { throw interrupted() }
            }
        }

        // Cluster, when the photos, their resolution or the options changed since the last time.
        let changed = try await stages.run(.cluster) { try cluster(clustering, resolvedRows: resolution.resolvedRows) }
        if Task.isCancelled { throw interrupted() }

        // Name the places that have no name yet or moved more than 50 m since they were named.
        let named = try await stages.run(.name) { () async throws -> Bool in
            let needing = NameStage.needingNames(try catalog.currentPlaces(), existing: try catalog.placeNames(source: .offline))
            guard !needing.isEmpty else { return false }
            let namer = OfflinePlaceNamer(gazetteer: try gazetteer())
            try catalog.saveNames(try await NameStage.run(needing, namer: namer), source: namer.source)
            return true
        }

        // The overview, from what is stored (an unchanged rerun reads no photo rows at all).
        if !changed && !named, let stored = try catalog.storedOverview() {
            result.trip = stored
        } else {
            let overview = try catalog.trip().overview
            try catalog.saveOverview(overview)
            result.trip = overview
        }
        return result
    }

    /// Clusters the trip if anything it depends on changed; returns whether it did.
    private func cluster(_ clustering: ClusteringOptions, resolvedRows: [PhotoRecord]?) throws(GeoTripError) -> Bool {
        let key = "\(clustering.visitRadius)|\(clustering.visitGap)|\(clustering.placeRadius)|\(clustering.dayRule.dayStartMinutes)|"
            + (try catalog.setting(Catalog.SettingKey.catalogGeneration) ?? "0") + "|"
            + (try catalog.setting(Catalog.SettingKey.resolvedInputs) ?? "")
        guard try catalog.setting(Catalog.SettingKey.clusteredFor) != key else { return false }
        let rows: [PhotoRecord]
        if let resolvedRows { rows = resolvedRows } else { rows = try catalog.resolutionRows() }
        let photos = rows.compactMap { row in
            row.id.map { id in
                ResolvedPhoto(id: id, utc: UTCTimestamp.date(row.utcTime), zone: row.timeZone, cameraTime: row.localTime,
                              coordinate: row.resolvedLatitude.flatMap { lat in row.resolvedLongitude.map { Coordinate(latitude: lat, longitude: $0) } },
                              uncertaintyMeters: row.uncertaintyMeters ?? 10)
            }
        }
        try catalog.saveLayout(ClusterStage.layout(photos, known: try catalog.knownLayout(), options: clustering), key: key)
        return true
    }
}
