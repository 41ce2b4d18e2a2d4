import AsyncHTTPClient
import Foundation

/// What the derive-the-trip tail did, for the summary.
struct DerivationResult {
    var resolution: ResolutionSummary?
    var sidecarsWritten = 0
    var trip: TripOverview?
    var diagnostics: [PhotoDiagnostic] = []
    /// Places named by the online service in this run, and answers discarded as stale.
    var namedOnline = 0
    var staleAnswers = 0
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
    func run(settings: ResolutionSettings, clustering: ClusteringOptions, naming: NamingSettings = NamingSettings(),
             privacy: PrivacyZones = PrivacyZones(), listing: FolderScanner.Listing?, stages: StageList, interrupted: () -> GeoTripError) async throws -> DerivationResult {
        var result = DerivationResult()

        // Resolve, when the photos, the tags or the settings changed since the last resolution.
        // `resolved` keeps the result for the later stages, so they need not read it back.
        var resolved: [ResolvedPhoto]?
        let (encodedSettings, inputs) = TripResolution.inputsKey(settings)
        let generation = try catalog.setting(Catalog.SettingKey.catalogGeneration) ?? "0"
        if try catalog.setting(Catalog.SettingKey.resolvedInputs) != inputs
            || catalog.setting(Catalog.SettingKey.resolvedGeneration) != generation {
            let (evidence, stored) = try catalog.resolutionState()
            let tags = try catalog.manualTags()
            let (summary, photos) = try await stages.run(.resolve) {
                try TripResolution.resolve(evidence, tags: tags, settings: settings, catalogPath: catalog.path, gazetteer: gazetteer)
            }
            let changed = zip(photos, stored).filter { !$0.storesSame(as: $1) }.map(\.0)
            try catalog.saveResolution(changed, generation: generation, settings: encodedSettings, inputs: inputs)
            var summaryWithUpdates = summary
            summaryWithUpdates.updated = changed.count
            result.resolution = summaryWithUpdates
            result.diagnostics += summary.problems.map { PhotoDiagnostic(path: folder, kind: .input, message: $0) } + summary.photoProblems
            resolved = photos
        } else {
            stages.report(.resolve)
        }
        if Task.isCancelled { throw interrupted() }
        func resolvedPhotos() throws(GeoTripError) -> [ResolvedPhoto] {
            if let resolved { return resolved }
            let read = try catalog.resolvedPhotos()
            resolved = read
            return read
        }

        // Sidecars, whenever the last full sync is behind the resolution (a killed run included).
        if settings.writeXMP {
            let target = generation + "|" + inputs
            let pending = try catalog.setting(Catalog.SettingKey.sidecarsSynced) != target
            if pending || !(listing?.leftoverTemporaryFiles.isEmpty ?? true) {
                let photos = try resolvedPhotos()
                let synced = try await stages.run(.sidecars) {
                    SidecarSync(folder: folder).run(photos, sidecarFiles: listing?.sidecars, leftovers: listing?.leftoverTemporaryFiles ?? []) {
                        stages.report(.sidecars, done: $0, total: $1)
                    }
                }
                result.sidecarsWritten = synced.written
                result.diagnostics += synced.problems
                guard synced.finished else { throw interrupted() }
                // Only a full sync (the scan's sidecars known) is complete.
                if listing != nil { try catalog.setSetting(Catalog.SettingKey.sidecarsSynced, to: target) }
            } else {
                stages.report(.sidecars)
            }
        }

        // Cluster, when the photos, their resolution or the options changed since the last time.
        let key = "\(clustering.visitRadius)|\(clustering.visitGap)|\(clustering.placeRadius)|\(clustering.dayRule.dayStartMinutes)|"
            + generation + "|" + inputs
        var changed = false
        if try catalog.setting(Catalog.SettingKey.clusteredFor) != key {
            let photos = try resolvedPhotos()
            let known = try catalog.knownLayout()
            let layout = try await stages.run(.cluster) { ClusterStage.layout(photos, known: known, options: clustering) }
            try catalog.saveLayout(layout, key: key)
            changed = true
        } else {
            stages.report(.cluster)
        }
        if Task.isCancelled { throw interrupted() }

        // Name the places that have no name yet or moved more than 50 m since they were named.
        let needing = NameStage.needingNames(try catalog.currentPlaces(), existing: try catalog.placeNames(source: .offline))
        let named = try await stages.run(.name) { () async throws -> [(NamedFor, PlaceName?)] in
            guard !needing.isEmpty else { return [] }
            return try await NameStage.run(needing, namer: OfflinePlaceNamer(gazetteer: try gazetteer()))
        }
        try catalog.saveNames(named, source: .offline)
        var namedOnline = false
        if naming.online {
            namedOnline = try await nameOnline(naming, privacy: privacy, into: &result, interrupted: interrupted)
        }

        // The overview, from what is stored (an unchanged rerun reads no photo rows at all).
        if !changed && named.isEmpty && !namedOnline, let stored = try catalog.storedOverview() {
            result.trip = stored
        } else {
            let overview = try catalog.trip().overview
            try catalog.saveOverview(overview)
            result.trip = overview
        }
        return result
    }

    /// Names from the online service for the places that have none in the trip's language, or
    /// moved more than 50 m since theirs was made. Asked a few at a time and stored after each
    /// few (through the stale-answer guard), so a stopped run loses little and the next carries
    /// on; when the service cannot be used, that is said once and the places keep the names
    /// they have. Returns whether any name was stored.
    private func nameOnline(_ naming: NamingSettings, privacy: PrivacyZones, into result: inout DerivationResult,
                            interrupted: () -> GeoTripError) async throws -> Bool {
        // Places inside a --hide-near zone are never sent anywhere; they keep offline names.
        let needing = NameStage.needingNames(try catalog.currentPlaces(),
                                             existing: try catalog.placeNames(source: .nominatim, language: naming.language))
            .filter { !privacy.contains($0.centre) }
        guard !needing.isEmpty else { return false }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let namer = NominatimPlaceNamer(settings: naming, client: client, requestsPerSecond: naming.requestsPerSecond,
                                        concurrency: naming.concurrency)
        var stored = false
        var failure: (any Error)?
        do {
            for chunk in needing.chunked(8) {
                if Task.isCancelled { throw interrupted() }
                let answers = try await NameStage.run(Array(chunk), namer: namer)
                let stale = try catalog.saveAnswers(answers, source: .nominatim, language: naming.language)
                result.staleAnswers += stale
                result.namedOnline += answers.count - stale
                stored = stored || answers.count > stale
            }
        } catch {
            failure = error
        }
        // Shutting the client down fails only if it already was; nothing to report then.
        try? await client.shutdown()
        if let slow = namer.notices.slow {
            result.diagnostics.append(PhotoDiagnostic(path: naming.nominatimURL, kind: .namingSlow, message: String(
                format: "the place-name service was slow (a request took %.1f s)", slow)))
        }
        if let failure {
            // A service that cannot be used is said once; the places keep the names they have,
            // and the next run asks again. Anything else stops the run.
            switch failure as? GeoTripError {
            case .namingUnavailable(_, _)?, .namingAnswerUnreadable(_, _)?:
                result.diagnostics.append(PhotoDiagnostic(path: naming.nominatimURL, kind: .naming, message: "\(failure)"))
            default:
                throw failure
            }
        }
        return stored
    }
}
