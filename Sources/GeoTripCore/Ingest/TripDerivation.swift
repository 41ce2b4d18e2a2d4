import AsyncHTTPClient
import Foundation
import Synchronization

/// What the derive-the-trip tail did, for the summary.
struct DerivationResult {
    var resolution: ResolutionSummary?
    var sidecarsWritten = 0
    var trip: TripOverview?
    /// Every photo clustered again for newer clustering rules (`IngestSummary.reclusteredByNewRules`).
    var reclusteredByNewRules = false
    var diagnostics: [PhotoDiagnostic] = []
    /// What naming did.
    var named = NamingCounts()
    /// The person's names that went with their spots to other places, or lost their place.
    var manualNames: [ManualNames.Move] = []
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
    /// The online namer's time (turns, backoff, the slow notice).
    var namingClock: any NamingClock = SystemNamingClock()
    /// Photos a full resolution pass resolves at a time (`ResolutionBatches`).
    var resolutionBatchSize = ResolutionBatches.defaultSize
    /// When the run happens, for the latest plausible capture time (`PlausibleCaptureTime`).
    var now = Date()

    /// Runs the tail. `listing` is the scan's (ingest), for the sidecar stage's full sync;
    /// without one (tag), sidecars of the photos present are brought in step only.
    func run(settings: ResolutionSettings, clustering: ClusteringOptions, naming: NamingSettings = NamingSettings(),
             export: ExportSettings = ExportSettings(), listing: FolderScanner.Listing?, stages: StageList, interrupted: () -> GeoTripError) async throws -> DerivationResult {
        var result = DerivationResult()

        // Resolve, when the photos, the tags or the settings changed since the last resolution:
        // only the stretch of time the changed photos reach, when the settings are the same.
        // `resolved` keeps the stored results once the sidecar stage has read them, for clustering.
        var resolved: [ResolvedPhoto]?
        let (encodedSettings, inputs) = TripResolution.inputsKey(settings)
        // Photos refused a time that lay in the future then, and no longer does.
        try catalog.listTimesPlausibleAgain(settings: settings, now: now)
        let generation = try catalog.setting(Catalog.SettingKey.catalogGeneration) ?? "0"
        let resolvedInputs = try catalog.setting(Catalog.SettingKey.resolvedInputs)
        if try resolvedInputs != inputs || catalog.setting(Catalog.SettingKey.resolvedGeneration) != generation {
            let tags = try catalog.manualTags()
            // What every pass below needs, loaded once: the clock offsets (a bad remembered one
            // stops the stage here), the track logs and the gazetteer. Videos timed by their
            // movie header only are read as the stored resolution read them (or, before there
            // is one, as the stored votes say).
            var resolution = try await stages.run(.resolve) {
                try TripResolution(tags: tags, settings: settings, now: now, catalogPath: catalog.path, gazetteer: gazetteer)
            }
            resolution.videoClocks = try catalog.storedVideoClockCameras() ?? catalog.videoClockDecisions()
            var summary: ResolutionSummary
            // Cameras whose verdict turned once these results were stored (`VideoClock`): their
            // videos are listed as changed, to be read the new way below.
            let turned: Set<String>
            var changedIDs: Set<Int64> = []
            if resolvedInputs == inputs, let counts = try catalog.storedResolutionCounts() {
                // The photos changed since the last resolution and those they reach.
                let first = try await resolveLocally(resolution, counts: counts, generation: generation, encodedSettings: encodedSettings,
                                                     inputs: inputs, stages: stages)
                (summary, turned, changedIDs) = (first.summary, first.turned, first.changed)
            } else {
                // A full pass a batch at a time, each stored before the next is read: a library's
                // evidence and results are never held whole.
                summary = try await resolveInBatches(resolution, interrupted: interrupted, stages: stages)
                turned = try catalog.finishResolution(counts: ResolutionCounts(timeSources: summary.timeSources, locationSources: summary.locationSources),
                                                      generation: generation, settings: encodedSettings, inputs: inputs,
                                                      videoClocks: resolution.videoClocks ?? [])
            }
            // A camera's verdict turned: its videos, and the photos around them, are resolved
            // again the new way, once (votes depend on no verdict).
            if !turned.isEmpty, let counts = try catalog.storedResolutionCounts() {
                resolution.videoClocks = try catalog.videoClockDecisions()
                let again = try await resolveLocally(resolution, counts: counts, generation: generation, encodedSettings: encodedSettings,
                                                     inputs: inputs, stages: stages)
                summary.timeSources = again.summary.timeSources
                summary.locationSources = again.summary.locationSources
                // Rows written by both passes count once (a full pass in batches does not say
                // which rows it wrote: those of the second are counted with its own).
                summary.updated = changedIDs.isEmpty ? summary.updated + again.changed.count : changedIDs.union(again.changed).count
                // What the first pass said of a photo resolved again is what this pass says of
                // it now (a video it read as UTC, with no zone, is read as local time now).
                summary.photoProblems.removeAll { again.paths.contains($0.path) }
                let known = Set(summary.photoProblems.map { [$0.path, $0.message] })
                summary.photoProblems += again.summary.photoProblems.filter { !known.contains([$0.path, $0.message]) }
                summary.clockCandidates.formUnion(again.summary.clockCandidates)
            }
            // A camera some photo resolved showed on another zone's time is looked at whole.
            for candidate in summary.clockCandidates.sorted(by: { ($0.make ?? "", $0.model ?? "") < ($1.make ?? "", $1.model ?? "") }) {
                let camera = PhotoMetadata(make: candidate.make, model: candidate.model).camera
                if let camera, let note = TripResolution.cameraClockNote(camera: camera, rows: try catalog.clockEvidence(of: candidate),
                                                                          correction: resolution.timeResolver.correction(for: camera)) {
                    summary.photoProblems.append(note)
                }
            }
            result.resolution = summary
            // Every photo stored without a time was judged by this run's bound, or is later.
            try catalog.setSetting(Catalog.SettingKey.plausibleUntil, to: String(PlausibleCaptureTime.latest(now: now).timeIntervalSince1970))
            result.diagnostics += summary.problems.map { PhotoDiagnostic(path: folder, kind: .input, message: $0) } + summary.photoProblems
            // A track given, and photos in its hours it cannot place: said, with the way out.
            if let span = summary.trackSpan, case let untimed = try catalog.photosUntimedInTrack(span), untimed > 0 {
                result.diagnostics.append(PhotoDiagnostic(path: folder, kind: .input, message: "the track logs cannot place \(untimed) photo\(untimed == 1 ? "" : "s") "
                    + "that may have been taken in their hours: \(untimed == 1 ? "its" : "their") camera time has no time zone (no offset tag, no GPS time, no position "
                    + "near in time), so the instant is not known; give --tz ZONE, the zone the camera's clock showed (such as Europe/Madrid)"))
            }
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
        // With --no-write-xmp, an ingest still keeps the sidecars geotrip wrote before in step
        // with the positions (never making new ones), when the folder has any sidecar at all.
        let keepsOwn = !settings.writeXMP && !(listing?.sidecars.isEmpty ?? true)
        if settings.writeXMP || keepsOwn {
            let target = (settings.writeXMP ? "" : "own|") + generation + "|" + inputs
            let pending = try catalog.setting(Catalog.SettingKey.sidecarsSynced) != target
            if pending || !(listing?.leftoverTemporaryFiles.isEmpty ?? true) {
                var photos = try resolvedPhotos()
                let every = photos.map(\.path)
                if !settings.writeXMP, let listing {
                    let present = Set(listing.sidecars.map(PathKey.init))
                    photos = photos.filter { present.contains(PathKey($0.path + ".xmp")) }
                }
                let sync = SidecarSync(folder: folder, creating: settings.writeXMP)
                // Without --write-xmp the stage is not one of the run's listed stages: done quietly.
                let synced = settings.writeXMP
                    ? try await stages.run(.sidecars) {
                        sync.run(photos, present: every, sidecarFiles: listing?.sidecars, leftovers: listing?.leftoverTemporaryFiles ?? [],
                                 unreadFolders: listing?.unreadFolders ?? []) {
                            stages.report(.sidecars, done: $0, total: $1)
                        }
                    }
                    : sync.run(photos, present: every, sidecarFiles: listing?.sidecars, leftovers: listing?.leftoverTemporaryFiles ?? [],
                               unreadFolders: listing?.unreadFolders ?? [])
                result.sidecarsWritten = synced.written
                // Recorded before anything else can stop the run: a sidecar written and not
                // recorded would only cost its photo one read more.
                try catalog.restampOwnSidecars(synced.restamped)
                result.diagnostics += synced.problems
                guard synced.finished else { throw interrupted() }
                // Only a full sync (the scan's sidecars known) in which every sidecar is now in
                // step is complete; after a failure the next run syncs again.
                if listing != nil, synced.complete { try catalog.setSetting(Catalog.SettingKey.sidecarsSynced, to: target) }
            } else if settings.writeXMP {
                stages.report(.sidecars)
            }
        }

        // Cluster, when the photos, their resolution or the options changed since the last time:
        // only around the photos that changed, unless the options (or the rules, `clusteringRules`) did.
        // A few changes are read around themselves (`Catalog.clusteringNeighbourhood`); a full
        // recompute, or changes too many for reading around each to pay, read the whole layout.
        let rules = "\(Self.clusteringRules)|\(clustering.visitRadius)|\(clustering.visitGap)|\(clustering.placeRadius)|\(clustering.dayRule.dayStartMinutes)|"
        let key = rules + generation + "|" + inputs
        var changed = false
        let clusteredFor = try catalog.setting(Catalog.SettingKey.clusteredFor)
        if clusteredFor != key {
            let pending = clusteredFor?.hasPrefix(rules) == true ? try catalog.photosPendingClustering() : nil
            // Clustered before by older rules (not other options, which the person gave): said.
            if let clusteredFor, !clusteredFor.hasPrefix(Self.clusteringRules + "|") { result.reclusteredByNewRules = true }
            let change: LayoutChange
            if let pending, pending.count <= Self.localClusteringLimit {
                change = try await stages.run(.cluster) { () throws -> LayoutChange in
                    stages.report(.cluster, done: 0, total: pending.count)
                    let around = try stages.timed("reading around the changes") {
                        try catalog.clusteringNeighbourhood(pending: pending, gap: clustering.visitGap)
                    }
                    let rework = stages.timed("clustering them") {
                        Catalog.withoutUnchangedVisits(ClusterStage.rework(around.photos, visits: around.visits, changed: pending, options: clustering),
                                                       stored: around.stored)
                    }
                    let linked = try stages.timed("reading the places they reach") {
                        try catalog.visitsLinked(to: rework, radius: clustering.placeRadius)
                    }
                    let change = stages.timed("grouping the places") {
                        ClusterStage.regroup(rework, kept: linked.kept, places: linked.places, lastRevisions: linked.lastRevisions,
                                             reservedVisitIDs: linked.reservedVisitIDs, options: clustering)
                    }
                    stages.report(.cluster, done: pending.count, total: pending.count)
                    return change
                }
            } else {
                let photos = try resolved ?? stages.timed("reading the resolved photos") { try catalog.resolvedPhotos(forClustering: true) }
                let known = try stages.timed("reading the layout") { try catalog.knownLayout() }
                change = try await stages.run(.cluster) {
                    stages.report(.cluster, done: 0, total: photos.count)
                    let change = ClusterStage.change(photos, known: known, changed: pending, options: clustering)
                    stages.report(.cluster, done: photos.count, total: photos.count)
                    return change
                }
            }
            result.manualNames = try stages.timed("storing the layout") { try catalog.saveLayout(change, key: key, placeRadius: clustering.placeRadius) }
            changed = true
        } else {
            stages.report(.cluster)
        }
        if Task.isCancelled { throw interrupted() }

        // Name the places that have no name yet or moved more than 50 m since they were named,
        // and all of them when the zone index, or the way names are read from the gazetteer
        // (`Gazetteer.namesRevision`), is not the one they were named with.
        let zoneSource = ZoneIndex.sourceKey() + "|names \(Gazetteer.namesRevision)"
        let renameAll = try catalog.setting(Catalog.SettingKey.offlineNamesFor) != zoneSource
        let needing = renameAll ? try catalog.currentPlaces() : try catalog.placesNeedingNames(source: .offline)
        let named = try await stages.run(.name) { () async throws -> [(NamedFor, Result<PlaceName?, GeoTripError>)] in
            guard !needing.isEmpty else { return [] }
            return try await NameStage.run(needing, namer: OfflinePlaceNamer(gazetteer: try gazetteer()))
        }
        // The offline namer has no failures: every result is a name or nothing there.
        try catalog.saveNames(named.map { ($0.0, (try? $0.1.get()) ?? nil) }, source: .offline)
        if renameAll { try catalog.setSetting(Catalog.SettingKey.offlineNamesFor, to: zoneSource) }
        result.named.offline = named.count
        result.named.manual = try catalog.manuallyNamedPlaces().count

        // The overview, from what is stored (an unchanged rerun reads no photo rows at all).
        if !changed && named.isEmpty, let stored = try catalog.storedOverview() {
            result.trip = stored
        } else {
            let overview = try stages.timed("the overview") { try catalog.overview() }
            result.trip = try catalog.saveOverview(overview)
        }

        // Online names last, without the run lock (see `CatalogLock`): the person can tag and
        // rename meanwhile, and their changes win over the answers in flight.
        if naming.online, try await nameOnline(naming, export: export, stages: stages, into: &result, interrupted: interrupted) {
            // Names move no visit: the shared outputs' figures stay.
            result.trip = try catalog.overview().keepingShared(of: result.trip)
        }
        return result
    }

    /// Names from the online service for the places that have none in the trip's language, or
    /// moved more than 50 m since theirs was made, and have no manual name: the queue the
    /// catalog holds, so a run stopped at any point loses nothing and the next carries on.
    /// Asked a few at a time, each few stored at once through the stale-answer guard; places
    /// whose answers went stale are asked again as they are now (twice more at most). When the
    /// service cannot be used, that is said once and the places keep the names they have.
    /// Places inside a `--hide-near` zone or near home (`--hide-home`) are never sent anywhere; they keep offline names.
    /// Returns whether any name was stored.
    private func nameOnline(_ naming: NamingSettings, export: ExportSettings, stages: StageList, into result: inout DerivationResult,
                            interrupted: () -> GeoTripError) async throws -> Bool {
        var privacy = export.privacy
        // Places with a visit the outputs keep private, though the place's centre lies outside
        // the zones (every photo inside them, the centre between two): not sent either.
        var privateVisitsAt: Set<String> = []
        func queue(without skipped: Set<String>) throws(GeoTripError) -> [NamedFor] {
            let manual = try catalog.manuallyNamedPlaces()
            return try catalog.placesNeedingNames(source: .nominatim, language: naming.language)
                .filter { !manual.contains($0.placeID) && !skipped.contains($0.placeID) && !privacy.contains($0.centre) && !privateVisitsAt.contains($0.placeID) }
        }
        var needing = try queue(without: [])
        guard !needing.isEmpty else { return false }
        // Home is private too (`--hide-home`, the default), wherever the nights put it: found
        // only when there is something to ask, as it takes the whole trip.
        if export.hideHome || !privacy.isEmpty {
            let trip = try catalog.trip()
            if export.hideHome {
                let kept = catalog.keptHomesIfReadable()
                privacy = export.privacy(for: TripSplitting.split(trip, givenHome: export.home, keptHomes: kept), keptHomes: kept)
            }
            // What the outputs keep private (`Catalog.keptPrivate`): a visit whose every photo
            // lies inside the zones, and one placed only from a hidden neighbour.
            let kept = try catalog.keptPrivate(privacy, among: trip.visits)
            privacy = PrivacyZones(privacy.zones + kept.neighbourZones.map(\.zone))
            privateVisitsAt = Set(kept.shared.filter { privacy.contains($0.centre) }.map(\.placeId))
            needing = try queue(without: [])
            guard !needing.isEmpty else { return false }
        }
        // One run at a time asks for a catalog's names: a second run of the trip at once (another
        // terminal, a scheduled run) would ask for every place again. Taken before the run lock
        // is given up, so the two cannot both take it; a lock file that cannot be made (a
        // read-only folder beside a writable catalog) leaves the run to name without it.
        var namingLock: CatalogLock?
        do {
            namingLock = try CatalogLock(catalogPath: catalog.path, suffix: CatalogLock.namingSuffix)
        } catch {
            if case .catalogBusy(_, let pid) = error {
                let holder = pid.map { "another geotrip run (pid \($0))" } ?? "another geotrip run"
                result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .naming, message:
                    "\(holder) is asking the place-name service for this catalog's names now: this run leaves "
                    + "\(needing.count.grouped) place\(needing.count == 1 ? "" : "s") to it (they keep the names they have; "
                    + "a run after it names any it does not)"))
                return false
            }
        }
        defer { namingLock?.release() }
        let cache: NamingCache
        do {
            cache = try NamingCache.shared()
        } catch {
            result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .naming, message: error.description))
            cache = .inMemory()
        }
        let http = NominatimClient.makeHTTPClient()
        let client = NominatimClient(settings: naming, http: http, cache: cache, clock: namingClock,
                                     requestsPerSecond: naming.requestsPerSecond, timeoutSeconds: Int64(naming.timeoutSeconds))
        let namer = NominatimPlaceNamer(client: client, concurrency: naming.concurrency)
        catalog.releaseLock()

        let progress = Mutex((done: 0, total: needing.count))
        stages.report(.name, done: 0, total: needing.count)
        // Said while it happens: a person waiting on a slow service should know why.
        let clock = namingClock
        // So is a service that asks to wait (`Retry-After`) longer than that.
        let watch = Task { () async -> [String] in
            var said: [String] = []
            do {
                while true {
                    try await clock.sleep(until: clock.now() + 0.5)
                    let (done, total) = progress.withLock { ($0.done, $0.total) }
                    if let waited = client.tally.slowNotice(at: clock.now()) {
                        said.append(Self.slowSentence(waited: waited, queued: total - done, interval: client.interval, concurrency: naming.concurrency))
                        stages.notice(said.last!)
                    }
                    if let held = client.tally.holdNotice() {
                        said.append("the place-name service asked to be sent nothing for a while (Retry-After): waiting \(Int(held.rounded())) s; "
                                    + "\((total - done).grouped) place\(total - done == 1 ? "" : "s") queued")
                        stages.notice(said.last!)
                    }
                }
            } catch {
                return said  // cancelled: naming ended
            }
        }
        var stored = false
        var failure: (any Error)?
        var failed: Set<String> = []
        do {
            for _ in 0..<3 where !needing.isEmpty {
                for chunk in needing.chunked(max(8, 2 * naming.concurrency)) {
                    if Task.isCancelled { throw interrupted() }
                    var answers: [(NamedFor, PlaceName?)] = []
                    // The service became unusable: the answers in by then are stored first.
                    var outage: GeoTripError?, unanswered = 0
                    for (place, answer) in try await NameStage.run(Array(chunk), namer: namer) {
                        switch answer {
                        case .success(let name):
                            answers.append((place, name))
                        case .failure(let error):
                            if case .namingUnavailable = error {
                                outage = outage ?? error
                                unanswered += 1
                                continue
                            }
                            failed.insert(place.placeID)
                            result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .naming, message: error.description))
                        }
                    }
                    let stale = try catalog.saveAnswers(answers, source: .nominatim, language: naming.language)
                    result.named.stale += stale.count
                    for (place, name) in answers where !stale.contains(place.placeID) {
                        if name?.name == nil {
                            result.named.nameless += 1
                        } else if namer.wasCached(place.placeID) {
                            result.named.cached += 1
                        } else {
                            result.named.online += 1
                        }
                    }
                    stored = stored || answers.count > stale.count
                    let (done, total) = progress.withLock { $0.done += chunk.count - unanswered; return ($0.done, $0.total) }
                    stages.report(.name, done: done, total: total)
                    if let outage { throw outage }
                }
                // Answers that went stale in flight: their places, as they are now, once more.
                needing = try queue(without: failed)
                progress.withLock { $0.total += needing.count }
            }
        } catch {
            failure = error
        }
        watch.cancel()
        for sentence in await watch.value {
            result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .namingSlow, message: sentence))
        }
        // Shutting the client down fails only if it already was; nothing to report then.
        try? await http.shutdown()
        result.named.requests = client.tally.requests
        // A cache that opened but failed while the run used it (a damaged page): said once.
        if let problem = client.tally.cacheProblem, let path = cache.path {
            result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .naming,
                                                      message: GeoTripError.namingCacheUnusable(path: path, reason: problem).description))
        }
        result.named.failed = failed.count
        if let failure {
            if Task.isCancelled { throw interrupted() }
            // A service that cannot be used is said once; the places keep the names they have,
            // and the next run asks again. Anything else stops the run.
            guard case .namingUnavailable(_, _)? = failure as? GeoTripError else { throw failure }
            result.named.failed += progress.withLock { $0.total - $0.done }
            result.diagnostics.append(PhotoDiagnostic(path: naming.shownURL, kind: .naming, message: "\(failure)"))
        }
        return stored
    }

    /// A full resolution pass in batches (`TripResolution.resolveInBatches`), each batch's
    /// results stored in a transaction of its own. The caller marks the pass finished.
    private func resolveInBatches(_ loaded: TripResolution, interrupted: () -> GeoTripError, stages: StageList) async throws -> ResolutionSummary {
        try await stages.run(.resolve) { () throws -> ResolutionSummary in
            let keys = try stages.timed("reading the photos' keys") { try catalog.resolutionKeys() }
            var resolution = loaded
            // Batches are stored as they go, so until the pass is finished the catalog holds no
            // resolved inputs: a run stopped midway is followed by a full pass, whatever the
            // next run's settings (the old ones given again included).
            try catalog.removeSetting(Catalog.SettingKey.resolvedInputs)
            // Each batch is stored while the next is resolved.
            let writer = BatchWriter(catalog: catalog)
            // On the way out with an error, the write in flight ends first; its own error, if
            // any, comes second to the one being thrown.
            defer { _ = try? writer.waitForWrite() }
            var summary = try resolution.resolveInBatches(keyed: keys.keyed, keyless: keys.keyless, size: resolutionBatchSize) { ids throws(GeoTripError) in
                try catalog.resolutionEvidence(ids: ids)
            } store: { photos, votes in
                try writer.waitForWrite()
                if Task.isCancelled { throw interrupted() }
                writer.write(photos, votes: votes)
            } progress: {
                stages.report(.resolve, done: $0, total: $1)
            }
            summary.updated = try writer.waitForWrite()
            return summary
        }
    }

    /// Resolves the photos changed since the last resolution and those their changes reach
    /// (`resolveStretch`) with `resolution` (videos timed by their movie header read as its
    /// `videoClocks` say), from the stored resolution's `counts`, and stores the results that
    /// differ with the videos' votes. Returns the summary, the cameras whose verdict turned,
    /// and the ids of the rows written.
    private func resolveLocally(_ resolution: TripResolution, counts: ResolutionCounts, generation: String, encodedSettings: String,
                                inputs: String, stages: StageList) async throws
        -> (summary: ResolutionSummary, turned: Set<String>, changed: Set<Int64>, paths: Set<String>) {
        let pending = try catalog.pendingResolution()
        let outcome = try await stages.run(.resolve) {
            try await resolveStretch(pending: pending, counts: counts, resolution: resolution, stages: stages)
        }
        let saved = try stages.timed("storing the \(outcome.photos.count) results of the stretch that changed") {
            try catalog.saveResolution(outcome.photos, votes: outcome.votes, voters: outcome.voters, counts: outcome.counts,
                                       generation: generation, settings: encodedSettings, inputs: inputs, videoClocks: resolution.videoClocks ?? [])
        }
        var summary = outcome.summary
        summary.updated = saved.changed
        return (summary, saved.turned, Set(outcome.photos.map(\.id)), Set(outcome.photos.map(\.path)))
    }

    /// Resolves the photos the changes (`pending`) reach (`ResolutionWindow`) and keeps their
    /// results. Returns the summary, with the whole folder's counts by source (`counts`, as
    /// stored, adjusted by what changed), and those of the photos the changes reach whose
    /// results differ from their rows (`ResolutionRow`): the ones the catalog has to write; and
    /// the votes of the videos among the photos reached (`voters`).
    ///
    /// Without track logs, in two steps: the photos within `ResolutionWindow.near` of the
    /// changes, each stretch read with twice that around it; then the far-reaching ones
    /// (`reachesFar`) whose instant lies near a UTC that changed in the first step or before it
    /// (`UTCReach`), each from the photos within the whole reach of it. 300 edits over a
    /// library made a hundred stretches of five days, two thirds of its photos read and
    /// resolved again, where only a few photos without a position of their own can be reached
    /// that far. With track logs (which place photos at times others lend them), in one step
    /// as far as any change reaches.
    ///
    /// Each stretch holds everything its own reached photos depend on (that is how the window
    /// is drawn), so the stretches are read and resolved apart, one per core. The changed
    /// photos no stretch holds (without a time, or gone) come last, together.
    private func resolveStretch(pending: [PendingResolution], counts stored: ResolutionCounts, resolution: TripResolution,
                                stages: StageList) async throws
        -> (summary: ResolutionSummary, photos: [ResolvedPhoto], counts: ResolutionCounts, votes: [Int64: VideoClockVote], voters: [Int64]) {
        let pendingIDs = Set(pending.map(\.id))
        let catalog = self.catalog
        let done = Mutex(0)
        stages.report(.resolve, done: 0, total: pending.count)
        let changedKeys = pending.flatMap { [$0.before, $0.after].compactMap { $0 } }
        // Run to the end even when interrupted, as a single pass would: the catalog takes all
        // of the results or none.
        func resolve(_ stretches: [ClosedRange<Date>], counting: Bool,
                     _ choose: @escaping @Sendable (PhotoEvidence, Date?, ResolvedPhoto) -> StretchPart.Choice) async throws -> [StretchPart] {
            try await stretches.concurrentMap { stretch in
                var resolution = resolution
                let part = try StretchPart(catalog.resolutionState(in: [stretch], ids: []), stretch: stretch, pending: pendingIDs,
                                           resolution: &resolution, choose: choose)
                if counting {
                    let count = done.withLock { $0 += part.pendingSeen; return $0 }
                    stages.report(.resolve, done: min(pending.count, count), total: pending.count)
                }
                return part
            }
        }
        var parts: [StretchPart]
        if resolution.positioner != nil {
            let window = ResolutionWindow(changedKeys: changedKeys, corrections: resolution.corrections)
            parts = try await resolve(window.stretches, counting: true) { photo, key, _ in
                pendingIDs.contains(photo.id) || key.map(window.affects) == true ? .keep : .leave
            }
        } else {
            let near = ResolutionWindow.near(changedKeys: changedKeys, corrections: resolution.corrections)
            parts = try await resolve(near.stretches, counting: true) { photo, key, now in
                let isPending = pendingIDs.contains(photo.id)
                guard isPending || key.map(near.affects) == true else { return .leave }
                guard ResolutionWindow.reachesFar(photo) else { return .keep }
                // One whose own evidence times it borrows nothing here: only a UTC that changed
                // near its own can reach it (below).
                return isPending || !UTCReach.isExact(now.timeSource.rawValue, isMovieTime: photo.timeField == .quickTimeCreateDate)
                    ? .handOn : .leave
            }
            // Where a photo that places or outvotes others was, or now is.
            let moved = UTCReach(corrections: resolution.corrections,
                                 instants: pending.map { UTCReach.Instant(utc: $0.utcBefore, source: $0.timeSource, key: $0.before) }
                                     + parts.flatMap(\.moved))
            let handedOn = parts.flatMap(\.handedOn)
            var far = Set(handedOn.map(\.id))
            var keys = handedOn.compactMap(\.key)
            for photo in try (moved.spans.isEmpty ? [] : catalog.farReachingPhotos(keysIn: moved.keyStretches)) where !far.contains(photo.id) {
                guard moved.reaches(utc: photo.utc, source: photo.timeSource, key: photo.key, isMovieTime: photo.isMovieTime) else { continue }
                far.insert(photo.id)
                if let key = photo.key { keys.append(key) }
            }
            let chosen = far
            // Each holds all its own photo depends on: what the whole reach takes in around it.
            let wide = ResolutionWindow(changedKeys: keys, corrections: resolution.corrections)
            parts += try await resolve(wide.stretches(within: wide.reach), counting: false) { photo, _, _ in
                chosen.contains(photo.id) ? .keep : .leave
            }
        }
        // The changed photos no stretch held: they neither lend nor borrow (no key), or are gone.
        let held = Set(parts.flatMap(\.ids))
        var last = resolution
        let rest = try StretchPart(catalog.resolutionState(in: [], ids: pending.map(\.id).filter { !held.contains($0) }), stretch: nil,
                                   pending: pendingIDs, resolution: &last) { _, _, _ in .keep }
        stages.report(.resolve, done: pending.count, total: pending.count)

        // The counts lose what the changed photos were (removed ones included) and what the
        // others reached were, and gain what all of those are now.
        var counts = stored
        for photo in pending where photo.counted {
            counts.count(timeSource: photo.timeSource ?? TimeSource.none.rawValue, locationSource: photo.locationSource, -1)
        }
        var summary = resolution.inputSummary
        var changed: [ResolvedPhoto] = []
        var votes: [Int64: VideoClockVote] = [:]
        var voters: [Int64] = []
        for part in parts + [rest] {
            votes.merge(part.votes) { first, _ in first }
            voters += part.reached
            counts.add(part.counts)
            changed += part.changed
            // Problems of the photos resolved again only: the others were reported when they were.
            summary.photoProblems += part.problems
            summary.clockCandidates.formUnion(part.clockCandidates)
        }
        summary.timeSources = counts.timeSources
        summary.locationSources = counts.locationSources
        return (summary, changed.sorted { $0.id < $1.id }, counts, votes, voters)
    }

    /// The most changed photos clustering reads around one by one; more, and it reads the
    /// whole layout at once (a lookup per photo costs more than a pass then).
    static let localClusteringLimit = 20_000

    /// The clustering rules' revision, first in the key the layout was made for: a catalog
    /// clustered by other rules is clustered again from every photo, and the run says so.
    /// `places6`: strays, kept in the catalog.
    static let clusteringRules = "places6"

    /// The slow notice: how long, how many queued, and how long they take: a request at a
    /// time per `interval` (the rate) at best, and no faster than `concurrency` requests each
    /// as slow as the one waited on (the rate alone said 10 times too little for a service
    /// answering in 10 s).
    static func slowSentence(waited: Double, queued: Int, interval: Double, concurrency: Int = 1) -> String {
        let left = Double(queued) * max(interval, waited / Double(max(1, concurrency)))
        let time = left < 90 ? "\(Int(left.rounded())) s" : "\(Int((left / 60).rounded())) min"
        return String(format: "the place-name service is slow (%.1f s without an answer); ", waited)
            + "\(queued.grouped) place\(queued == 1 ? "" : "s") queued, about \(time) at the current rate"
    }
}

/// What resolving one stretch of a rerun gave (`TripDerivation.resolveStretch`).
private struct StretchPart: Sendable {
    /// What becomes of one of a stretch's photos.
    enum Choice {
        /// Its result is kept: the stretch holds all it depends on.
        case keep
        /// The change reaches it, but it `reachesFar`: resolved again in a stretch of its own.
        case handOn
        /// Not reached: as stored.
        case leave
    }

    /// The photos of the stretch: those read whose key lies in it (a photo is read for its
    /// camera time or its GPS time, and only the first may be its key).
    var ids: [Int64] = []
    /// How many of them are changed photos.
    var pendingSeen = 0
    /// The photos the changes reach whose results are kept.
    var reached: [Int64] = []
    /// What their results do to the counts by source: each adds what it is now and takes away
    /// what it was (a changed photo's old sources come from the pending list). Counted here,
    /// not kept: a camera whose verdict turns reaches most of a library's photos at once.
    var counts = ResolutionCounts()
    /// The results of the photos reached that differ from their rows (`ResolutionRow`).
    var changed: [ResolvedPhoto] = []
    /// Problems of the photos reached.
    var problems: [PhotoDiagnostic] = []
    /// `ResolutionSummary.clockCandidates` of the stretch.
    var clockCandidates: Set<CameraName> = []
    /// The votes of the videos among the photos reached (`VideoClock.vote`).
    var votes: [Int64: VideoClockVote] = [:]
    /// A photo reached and left for a stretch of its own (`Choice.handOn`), with its key.
    struct HandedOn: Sendable {
        var id: Int64
        var key: Date?
    }

    /// The photos reached that are left for a stretch of their own.
    var handedOn: [HandedOn] = []
    /// The instants, as stored and as resolved now, of the photos reached whose results differ
    /// or that changed (as resolved now only: `PendingResolution` keeps what they were), kept
    /// or handed on: a photo that places or outvotes others at a time of its own has its
    /// instant from its own evidence, right here. A photo reached whose time is borrowed (now
    /// or as stored) adds the stretch its borrowed instant may lie in, whatever its row says.
    var moved: [UTCReach.Instant] = []

    /// Resolves `state` (the photos of `stretch` as `Catalog.resolutionState` reads them, or
    /// with no stretch the changed photos none holds) and keeps the results of those of its
    /// own photos that `choose` keeps (given each photo, its key and its result here).
    init(_ state: (evidence: [PhotoEvidence], stored: [ResolvedPhoto], storedAs: [ResolutionRow]), stretch: ClosedRange<Date>?,
         pending: Set<Int64>, resolution: inout TripResolution, choose: (PhotoEvidence, Date?, ResolvedPhoto) -> Choice) {
        let (evidence, stored, storedAs) = state
        guard !evidence.isEmpty else { return }
        let result = resolution.resolve(evidence)
        var paths = Set<String>()
        for index in evidence.indices {
            let key = ResolutionWindow.key(localTime: evidence[index].localTime, gpsTime: evidence[index].gpsTime)
            if let stretch {
                // Another stretch's photo, read here for its GPS time, is resolved there.
                guard let key, stretch.contains(key) else { continue }
            }
            ids.append(evidence[index].id)
            let isPending = pending.contains(evidence[index].id)
            if isPending { pendingSeen += 1 }
            let now = result.photos[index]
            let choice = choose(evidence[index], key, now)
            guard choice != .leave else { continue }
            let differs = ResolutionRow(now) != storedAs[index]
            // A changed photo's row no longer holds what it was (a read again empties the
            // result): the pending list's copy says that.
            if differs && !isPending { moved.append(UTCReach.Instant(utc: stored[index].utc, source: stored[index].timeSource.rawValue, key: key)) }
            if differs || isPending { moved.append(UTCReach.Instant(utc: now.utc, source: now.timeSource.rawValue, key: key)) }
            // A photo with a position of its own (or a tag) whose time nothing decided places
            // others at an instant it borrows, which no row keeps: a lender within reach may
            // have moved it with its row unchanged. (A changed photo's time before is the
            // pending list's, added with it.)
            if Self.placesAtBorrowedTime(now) || (!isPending && Self.placesAtBorrowedTime(stored[index])) {
                moved.append(UTCReach.Instant(utc: nil, source: nil, key: key))
            }
            guard choice == .keep else {
                handedOn.append(HandedOn(id: now.id, key: key))
                continue
            }
            reached.append(now.id)
            if let vote = result.votes[now.id] { votes[now.id] = vote }
            if !isPending { counts.count(timeSource: stored[index].timeSource.rawValue, locationSource: stored[index].locationSource?.rawValue, -1) }
            counts.count(timeSource: now.timeSource.rawValue, locationSource: now.locationSource?.rawValue)
            if differs { changed.append(now) }
            paths.insert(evidence[index].path)
        }
        problems = result.summary.photoProblems.filter { paths.contains($0.path) }
        clockCandidates = result.summary.clockCandidates
    }

    /// Whether `photo` places others (it has a position of its own or a tag: an interpolated
    /// one places no one) at a time nothing decided.
    static func placesAtBorrowedTime(_ photo: ResolvedPhoto) -> Bool {
        !UTCReach.isOwn(photo.timeSource.rawValue) && photo.locationSource != nil && photo.locationSource != .interpolated
    }
}

/// Stores a full resolution pass's batches on a thread of its own, one at a time, so the next
/// batch is resolved meanwhile (`TripDerivation.resolveInBatches`).
private final class BatchWriter: Sendable {
    private let catalog: Catalog
    private let queue = DispatchQueue(label: "geotrip.resolution-writer")
    private let idle = DispatchSemaphore(value: 1)
    /// Rows changed so far, or the first write's error (after which nothing more is written).
    private let outcome = Mutex<Result<Int, GeoTripError>>(.success(0))

    init(catalog: Catalog) { self.catalog = catalog }

    /// Starts storing `photos` once the write before has finished (call `waitForWrite` first).
    func write(_ photos: [ResolvedPhoto], votes: [Int64: VideoClockVote]) {
        idle.wait()
        queue.async { [self] in
            defer { idle.signal() }
            guard case .success = outcome.withLock({ $0 }) else { return }
            do throws(GeoTripError) {
                let changed = try catalog.saveResolvedBatch(photos, votes: votes)
                outcome.withLock { $0 = $0.map { $0 + changed } }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
    }

    /// Waits for the write in flight; returns the rows changed so far, or throws the error
    /// a write met.
    @discardableResult
    func waitForWrite() throws(GeoTripError) -> Int {
        idle.wait()
        idle.signal()
        return try outcome.withLock { $0 }.get()
    }
}
