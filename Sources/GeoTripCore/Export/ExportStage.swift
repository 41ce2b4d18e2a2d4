import Foundation
import Synchronization

/// The export stage, last in every `ingest` and all of `geotrip export`: renders the trip from
/// the catalog into the output folder, without scanning or reading a photo.
///
/// 1. notes: every journal file's notes blocks are read back and merged with the catalog's
///    copies (`JournalNotes`); the catalog is brought in step before any file is written, so
///    nothing a person wrote depends on a write that might fail.
/// 2. thumbnails, through the `ThumbnailProvider` seam (none until a maker is plugged in).
/// 3. the journal: `journal/YYYY-MM-DD.md` per day, `journal/unplaced-notes.md` when notes have
///    lost their visit, `journal/undated-photos.md` when photos have no time for any day; a
///    file edited outside its notes blocks is kept as a dated backup first; a day that is gone
///    loses its file (its notes have moved on).
/// 4. `trip.geojson`, from the same trip, the `TripRoute` and the privacy zones.
/// 5. `index.html`, the trip map (`TripMapPage`), from the same trip, route, notes and thumbnails.
///
/// Every file is written only when its bytes change (`OutputFolder`).
public struct ExportStage: Sendable {
    let catalog: Catalog
    /// The trip folder as given.
    let folder: String
    /// `--catalog` when given, for the `geotrip tag` commands the journal offers.
    let explicitCatalog: String?
    let thumbnails: any ThumbnailProvider
    /// The gazetteer for the map's towns, shared with the run's other stages.
    let gazetteer: RunGazetteer
    /// Told (photos done, photos in all) as each trip to render is written.
    var progress: (@Sendable (Int, Int) -> Void)?

    /// The journal's folder inside the output folder.
    static let journalFolder = "journal"
    /// The page of notes whose visit is gone.
    static let unplacedNotesFile = "unplaced-notes.md"
    /// The page of photos no day takes (`Trip.undatedPhotos`).
    static let undatedPhotosFile = "undated-photos.md"
    /// The GeoJSON file.
    static let geoJSONFile = "trip.geojson"
    /// The map page.
    static let mapFile = "index.html"

    /// Creates the stage.
    public init(catalog: Catalog, folder: String, explicitCatalog: String? = nil, thumbnails: any ThumbnailProvider = NoThumbnails()) {
        self.init(catalog: catalog, folder: folder, explicitCatalog: explicitCatalog, thumbnails: thumbnails, gazetteer: RunGazetteer())
    }

    /// Creates the stage with the run's gazetteer, loaded at most once per run.
    init(catalog: Catalog, folder: String, explicitCatalog: String? = nil, thumbnails: any ThumbnailProvider, gazetteer: RunGazetteer) {
        self.catalog = catalog
        self.folder = folder
        self.explicitCatalog = explicitCatalog
        self.thumbnails = thumbnails
        self.gazetteer = gazetteer
    }

    /// Exports the trip with `settings`, words and names in `language`; `now` dates backups.
    /// A folder of many trips (`TripSplitting`) is exported as one journal and map per trip
    /// under `trips/`, with `index.html` listing them; a trip whose outputs are as its last
    /// export left them and whose catalog content did not change is not rendered again.
    ///
    /// What the last export left is judged from the documents' sizes and times; thumbnails are
    /// checked only when their trip is rendered (a library trip's by one read of its folder),
    /// and `checkEverything` (`geotrip export`) renders every trip and looks at each thumbnail,
    /// so any deleted by hand, or left empty, are made again.
    ///
    /// A cancelled task (Ctrl-C on `ingest`) begins no other trip and makes no other thumbnail;
    /// the trips written by then are recorded as written, and `.interrupted` is thrown.
    ///
    /// `forgettingOldHomes` (`geotrip export --forget-old-homes`) keeps private only the homes
    /// found now, not those earlier exports kept (`keptHomes`).
    public func run(settings: ExportSettings, language: String, now: Date = Date(),
                    checkEverything: Bool = false, forgettingOldHomes: Bool = false) async throws(GeoTripError) -> ExportSummary {
        // Every file this run writes is noted with its stamp once written, so the listings it
        // keeps (what tells the next run which folders are as this one left them) never take
        // in an edit a person made while it ran (`isAsWritten`).
        let written = WrittenFiles()
        let output = {
            var output = OutputFolder(folder: folder, outputFolder: settings.outputFolder)
            output.written = written
            return output
        }()
        try output.check()
        // The output folder; its own journal folder only once something goes there (a
        // library's holds only the notes whose visit or day is gone, and the undated photos).
        try output.create("")
        var summary = ExportSummary()
        summary.outputFolder = output.path
        summary.language = language

        // Nothing changed since the outputs were written (the catalog, the settings, and every
        // file in the output folder as the last export left it, notes included): nothing to do.
        let rendering = Self.renderingKey(settings: settings, language: language)
        // The track logs draw the route, so an edited one is an input even when it moved no photo.
        let resolutionSettings = try catalog.storedResolutionSettings()
        let trackFiles = resolutionSettings.tracks
        let inputs = rendering + "|" + (try catalog.exportSourceState()) + trackFiles.map { "|\($0):" + ResourceLocator.stamp($0) }.joined()
        let before = Self.listing(of: output.path, documentsOnly: true)
        if !checkEverything, try catalog.setting(Catalog.SettingKey.exportedFor) == inputs + "|" + before.key {
            summary.unchanged = before.documents
            summary.trips = try catalog.exportedTrips().keys.filter { $0.hasPrefix(Self.tripsFolder + "/") }.count
            return summary
        }

        // The map's resources (Leaflet, the base map, the towns) load on another core meanwhile.
        async let loading = Self.mapResources(gazetteer)

        // The trip's outline (visits and days, no photo read): enough to split a library into
        // trips and tell which changed; each trip to render reads its own photos.
        let whole = try catalog.trip(photoPaths: false, outside: false, localTimes: false)
        let library = TripSplitting.split(whole, givenHome: settings.home)
        var exported = try catalog.exportedTrips()
        // The zones, and one around each visit placed only from a hidden neighbour (whose
        // position it would give away: `hidingNeighbours`).
        let zones = settings.privacy(for: library, keptHomes: try keptHomes(library, whole, exported: exported, forgetting: forgettingOldHomes, &summary))
        // A library's trips' visits only: its days at home are in no output, and each of their
        // visits near the house would be looked up.
        let shownVisits = library.isLibrary ? library.trips.flatMap(\.trip.visits) : whole.visits
        let privacy = try catalog.privacy(zones, hidingNeighboursIn: shownVisits)
        let parts = library.isLibrary
            ? library.trips.map { Part(folder: $0.folder, trip: $0.trip, number: $0.number,
                                       window: Self.window(of: $0.trip, clockCorrections: resolutionSettings.clockOffsets)) }
            : [Part(folder: "", trip: whole, number: nil, window: nil)]
        summary.trips = library.trips.count

        // 1. Notes, from every journal geotrip may have written (the output folder's own and
        // each trip's, current or not) and from the catalog, before anything is written.
        let current = Set(parts.map(\.folder))
        let stale = ([""] + output.names(in: Self.tripsFolder, pages: { _ in false }).map { Self.tripsFolder + "/" + $0 }).filter { !current.contains($0) }
        // A library trip's folder whose files are as its last export left them (the same
        // listing) holds the notes the catalog has already (that export saved them, then wrote
        // them into these files): it is not read back unless the trip is rendered. At a million
        // photos, reading every trip's thousands of day files was most of this step. The output
        // folder's own journal and folders no trip has any more are always read: their
        // documents decide what is replaced and retired.
        var listings: [String: String] = [:]
        // How many documents each trip's folder holds, for the summary of a trip not written.
        var documentsIn: [String: Int] = [:]
        var journals: [String: Journal] = [:]
        // A page holding a note the catalog does not know, or one written in since, is read with
        // its photo links: the photos the person wrote beside (`JournalNotes`).
        let storedNotes = try catalog.journalNotes()
        let withLinks: (JournalDocument) -> Bool = { document in
            document.blocks.contains { block in
                JournalNotes.isUnknown(block, stored: storedNotes)
                    || storedNotes[block.id].map { $0.text != block.text && block.hasWords } ?? false
            }
        }
        for folder in parts.map(\.folder) + stale {
            if current.contains(folder) {
                // Also what the trip's key is compared with below.
                let listed = Self.listing(of: folder.isEmpty ? output.path : output.url(folder).path, documentsOnly: true)
                let listing = listed.key
                listings[folder] = listing
                documentsIn[folder] = listed.documents
                if !checkEverything, !folder.isEmpty, let known = exported[folder], known.key.hasSuffix("|" + listing) { continue }
            }
            journals[folder] = readJournal(in: folder, output, &summary, withLinks: withLinks)
        }
        // The output folder this one replaced (`--out` changed): the notes written there
        // since its last export come along, once. Nothing there is written (what a stopped run
        // left in its journal folders is tidied as in any: `journalNames`).
        let notesLeftIn = try catalog.setting(Catalog.SettingKey.notesLeftIn)
        var leftJournals: [Journal] = []
        if let notesLeftIn {
            let left = OutputFolder(folder: folder, outputFolder: notesLeftIn.isEmpty ? nil : notesLeftIn)
            var elsewhere = ExportSummary()
            if left.path != output.path, FileManager.default.fileExists(atPath: left.path) {
                for sub in [""] + left.names(in: Self.tripsFolder, pages: { _ in false }).map({ Self.tripsFolder + "/" + $0 }) {
                    leftJournals.append(readJournal(in: sub, left, &elsewhere, withLinks: withLinks))
                }
            }
        }
        // Each day's files, the current folders' first: a day may be in a trip's old folder too.
        var dayFiles: [String: [JournalDocument]] = [:]
        for journal in (parts.map(\.folder) + stale).compactMap({ journals[$0] }) + leftJournals {
            for (date, document) in journal.days { dayFiles[date, default: []].append(document) }
        }
        let unplacedDocument = journals[""]?.unplaced
        // The notes of days no folder writes (a library's days at home: a trip's day that home
        // moved to, a day whose trip photos went) join the page of notes whose visit is gone,
        // so every note is in a file; they go back when their day is a trip's again.
        var shown = whole
        if library.isLibrary {
            let tripDays = Set(parts.flatMap { $0.trip.days.map(\.date) })
            shown.days = whole.days.filter { tripDays.contains($0.date) }
        }
        // The catalog's photos of visits, asked only as the notes need them (`VisitPhotos`). A
        // read that fails stops the export with its sentence, before any note is saved: notes
        // placed without their photos could go where they do not belong.
        let catalog = self.catalog
        let failure = LookupFailure()
        func asked<Key: Hashable, Value>(_ read: () throws(GeoTripError) -> [Key: Value]) -> [Key: Value] {
            do throws(GeoTripError) { return try read() } catch { failure.error = failure.error ?? error; return [:] }
        }
        let visitPhotos = VisitPhotos(ofEachVisit: { visits in asked { () throws(GeoTripError) in try catalog.photos(ofEachVisit: visits) } },
                                      everyPhoto: { asked { () throws(GeoTripError) in try catalog.visitOfEveryPhoto() } },
                                      visitOfPhotos: { ids in asked { () throws(GeoTripError) in try catalog.visits(ofPhotos: ids) } })
        let notes = JournalNotes(trip: shown, days: dayFiles,
                                 unplaced: (parts.map(\.folder) + stale).compactMap { journals[$0]?.unplaced } + leftJournals.compactMap(\.unplaced),
                                 stored: storedNotes, storedAt: try catalog.journalNoteTimes(), privacy: privacy, photos: visitPhotos)
        if let error = failure.error { throw error }
        // Copies an edit over an older copy replaced go beside the journal first.
        if !notes.replaced.isEmpty {
            try output.create(Self.journalFolder)
            summary.replacedNotes = try keepReplaced(notes.replaced, output, now)
            summary.replacedNoteCount = notes.replaced.count
        }
        try catalog.saveJournalNotes(notes.all, at: now, writtenAt: notes.writtenAt)
        summary.unplacedNotes = notes.gone.count
        summary.movedNotes = notes.moved
        summary.rehomedNotes = notes.rehomed

        // 2. Each trip: its journal, map and GeoJSON, unless it is as its last export left it.
        let renderer = try JournalRenderer(language: language)
        let loaded = await loading
        if let problem = loaded.problem { summary.problems.append(PhotoDiagnostic(path: output.path, kind: .output, message: problem)) }
        let resources = try loaded.resources.get()
        let track = trackPoints(trackFiles)
        let texts = notes.texts
        // The words of blocks whose note now has another id (set apart, or put with the visit
        // holding its photos): a page holding them there drops nothing (`dropsWords`).
        let movedAway = notes.setApart.merging(notes.rehomedTo) { apart, _ in apart }
            .reduce(into: [String: String]()) { kept, move in if let note = notes.all[move.value] { kept[move.key] = note.text } }
        var fresh = [ExportedTrip?](repeating: nil, count: parts.count)
        var changed: [ChangedPart] = []
        let photoChanges = try catalog.photoChanges(in: parts.map(\.window))
        for (index, part) in parts.enumerated() {
            let content = Self.contentKey(part.trip, photoChanges: photoChanges[index], notes: texts,
                                          inputs: rendering, privacy: privacy, track: Self.track(track, during: part.trip))
            var partOutput = OutputFolder(folder: folder, outputFolder: part.folder.isEmpty ? output.path : output.url(part.folder).path)
            partOutput.written = written
            if !checkEverything, let known = exported[part.folder], known.key == content + "|" + (listings[part.folder] ?? "") {
                let base = (part.folder.isEmpty ? "" : part.folder + "/") + Self.journalFolder
                // Every document of its folder, as an export with nothing to do counts them.
                summary.unchanged += documentsIn[part.folder]
                    ?? journals[part.folder]?.days.count ?? Self.journalNames(in: base, of: output, &summary).filter(Self.isDayFile).count
                fresh[index] = known
            } else {
                // A folder whose files are as the last export left them, with the pages it wrote
                // known: its day files need not be read (`exportPart`).
                let known = checkEverything ? nil : exported[part.folder]
                let asWritten = known?.days != nil && known?.key.hasSuffix("|" + (listings[part.folder] ?? "")) == true
                changed.append(ChangedPart(index: index, part: part, output: partOutput, content: content, journal: journals[part.folder],
                                           filesAsWritten: asWritten, pagesWritten: known?.days ?? [:], dayKeysWritten: known?.dayKeys ?? [:],
                                           coverWritten: known?.coverWritten))
            }
        }
        // The trips that changed, as many at once as there are cores: each writes its own folder.
        let rendered: [PartResult?]
        let total = changed.map(\.part.photoCount).reduce(0, +)
        let done = Mutex(0)
        let progress = self.progress
        let rule = try catalog.storedClusteringOptions().dayRule
        progress?(0, total)
        do {
            // Each trip's photos are read as it is written, so a library's are never all in memory.
            // Stopped (Ctrl-C on `ingest`): no trip is begun, and one still making thumbnails
            // (the long part of a first export) gives up; those writing pages finish (`nil`
            // for the others, whose folders keep their last export's state below).
            rendered = try await changed.concurrentMap(width: library.isLibrary ? ProcessInfo.processInfo.activeProcessorCount : 1) { item -> PartResult? in
                if Task.isCancelled { return nil }
                // A changed trip's journal is read back here, beside its rendering, rather than
                // before: for edits spread over a library, that was every trip's, on one core.
                // A folder as its last export left it is not read at all.
                var reading = ExportSummary()
                let journal = item.journal ?? (item.filesAsWritten ? nil : readJournal(in: item.part.folder, output, &reading))
                let context = PartContext(journal: journal, listed: before.files, checkEverything: checkEverything, notes: texts, movedAway: movedAway,
                                          renderer: renderer, resources: resources, track: track, settings: settings, privacy: privacy,
                                          rendering: rendering, language: language, rule: rule, now: now)
                var result: PartResult
                do {
                    result = try await exportPart(item, plan: try plan(item, output, context), of: output, context)
                } catch GeoTripError.interrupted {
                    return nil
                }
                result.summary.add(reading)
                let count = done.withLock { $0 += item.part.photoCount; return $0 }
                progress?(count, total)
                return result
            }
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw .outputUnusable(path: output.path, reason: "\(error)")
        }
        for (item, result) in zip(changed, rendered) {
            guard let result else {
                // Not written, or given up: its folder's state is what its last export left, or
                // else its files' listing no longer matches that state's, and the next run reads
                // its journal back (`exportPart`).
                fresh[item.index] = exported[item.part.folder]
                continue
            }
            summary.add(result.summary)
            let after = Self.listing(of: item.output.path, documentsOnly: true)
            let asLeft = Self.isAsWritten(after.files, in: item.part.folder, of: output, before: before.files, written: written)
            fresh[item.index] = ExportedTrip(key: item.content + "|" + (asLeft ? after.key : Self.editedMeanwhile), cover: result.cover, days: result.days,
                                             dayKeys: result.dayKeys.isEmpty ? nil : result.dayKeys, coverVisit: result.coverVisit)
        }
        // Stopped: what the trips written left is kept, so the next run does not write them
        // again; the index page, the retired folders and the export's own state are the next
        // run's (its inputs are not marked as exported).
        if rendered.contains(where: { $0 == nil }) {
            for (part, state) in zip(parts, fresh) { exported[part.folder] = state }
            try catalog.saveExportedTrips(exported)
            throw .interrupted(savedPhotos: 0)
        }
        var entries: [LibraryIndexPage.Entry] = []
        for (part, state) in zip(parts, fresh) {
            exported[part.folder] = state
            if let number = part.number {
                entries.append(LibraryIndexPage.Entry(number: number, folder: part.folder, trip: part.trip, cover: state?.cover))
            }
        }
        let named = try catalog.placesNamed(inLanguage: language)
        summary.namesInOtherLanguages = whole.places.filter { $0.name != nil && !named.contains($0.id) }.count

        // 3. Notes whose owner is gone, beside the output folder's journal.
        let journal = Self.journalFolder + "/"
        // The page keeps the notes it lists, also under the ids they had before they went to
        // another visit or apart (`JournalNotes.setApart`): their words are kept, not dropped.
        let keptOnUnplaced = texts.merging(notes.gone.map { ($0.ownerID, $0.text) } + notes.setApart.compactMap { written, id in
            notes.all[id].map { (written, $0.text) } }) { _, waiting in waiting }
        if !notes.gone.isEmpty {
            try output.create(Self.journalFolder)
            try put(renderer.renderUnplacedNotes(notes.gone), at: journal + Self.unplacedNotesFile, replacing: unplacedDocument,
                    keeping: keptOnUnplaced, output, now, &summary, listed: before.files)
        } else if unplacedDocument != nil {
            try retire(journal + Self.unplacedNotesFile, document: unplacedDocument, keeping: keptOnUnplaced, output, now, &summary, listed: before.files)
        }
        // Photos no day takes (no time found) are on no day's page and no map: they are listed
        // on a page of their own beside it, so none leaves the journal without a word. Those
        // placed inside a privacy zone are left off, as a day's page leaves them.
        let undatedRows = try catalog.undatedPhotos(rule: rule, now: now).filter { !($0.photo.coordinate.map(privacy.contains) ?? false) }
        let undated = undatedRows.map(\.photo)
        let undatedPath = journal + Self.undatedPhotosFile
        let undatedDocument = read(undatedPath, output, &summary)
        if !undated.isEmpty {
            try output.create(Self.journalFolder)
            let tripFolder = Self.resolved(folder)
            let rawNames = Self.rawNames(undated.map(\.path), in: tripFolder)
            // The command is written for the first whose name is UTF-8 (geotrip reads no
            // sidecar beside any other) and that has no camera time (an implausible one, in
            // the file's EXIF, counts over a sidecar's).
            let example = undatedRows.first { rawNames[$0.photo.path] == nil && $0.cameraTime == nil }.map(\.photo).map { photo in
                let path = Array((tripFolder + "/" + photo.path).utf8)
                return JournalRenderer.UndatedExample(photo: path, newSidecar: Self.sidecarPath(of: path), sidecar: Self.existingSidecar(of: path))
            }
            let text = renderer.renderUndatedPhotos(undated, rawNames: rawNames, tripFolderLink: tripFolderLink(from: output.url(Self.journalFolder).path),
                                                    example: example, namesToRename: !rawNames.isEmpty)
            try put(text, at: undatedPath, replacing: undatedDocument, keeping: texts, output, now, &summary, listed: before.files)
        } else if undatedDocument != nil {
            try retire(undatedPath, document: undatedDocument, keeping: texts, output, now, &summary, listed: before.files)
        }

        // 4. What no trip writes any more: a trip's folder that is gone (its notes were gathered
        // in step 1), and the single trip's files once the folder became a library.
        for folder in stale {
            try retireJournal(journals[folder] ?? Journal(), in: folder, keeping: texts, movedAway: movedAway, output, now, &summary, listed: before.files)
            exported[folder] = nil
        }
        // A library that became one trip: `trips/` goes with its last trip's folder (only when
        // empty: a backup or a person's file keeps it).
        if !library.isLibrary { rmdir(output.url(Self.tripsFolder).path) }
        // A library's own journal folder holds only the page of notes whose visit or day is
        // gone, the page of undated photos (and backups): empty, it goes.
        if library.isLibrary { rmdir(output.url(Self.journalFolder).path) }

        // 5. The library's page of trips.
        if library.isLibrary {
            _ = output.names(in: "", pages: Self.isOwnFile)  // takes away what a run stopped while writing here left
            let words = JournalWords(language: language)
            try put(LibraryIndexPage(entries: entries, words: words, language: language, privacy: privacy).render(), at: Self.mapFile, replacing: nil,
                    output, now, &summary)
        }
        try catalog.saveExportedTrips(exported)
        if notesLeftIn != nil { try catalog.removeSetting(Catalog.SettingKey.notesLeftIn) }
        let after = Self.listing(of: output.path, documentsOnly: true)
        let asLeft = Self.isAsWritten(after.files, in: "", of: output, before: before.files, written: written)
        try catalog.setSetting(Catalog.SettingKey.exportedFor, to: inputs + "|" + (asLeft ? after.key : Self.editedMeanwhile))
        return summary
    }

    /// What a kept listing says of a folder in which a file changed while the export ran: no
    /// listing is ever this, so the next run reads the folder back.
    static let editedMeanwhile = "edited while written"

    /// Whether every file of the listing `after` of `folder` (relative to `output`, empty for
    /// itself) is as this export left it: written by it and unchanged since (`written`), or not
    /// written and as the export's first listing of the output folder (`before`) had it. A
    /// journal page a person saved while the export ran is neither: the folder's listing is
    /// then not kept, so the next run reads the page back, and the note in it is never taken
    /// for one already known.
    static func isAsWritten(_ after: [String: FileStamp], in folder: String, of output: OutputFolder, before: [String: FileStamp],
                            written: WrittenFiles) -> Bool {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return after.allSatisfy { relative, stamp in
            if let mine = written.stamp(of: output.path + "/" + prefix + relative) { return mine == stamp }
            return before[prefix + relative] == stamp
        }
    }

    /// The homes kept private whatever the folder is now (`ExportSettings.privacy(for:keptHomes:)`):
    /// every home it has had as a library, recorded as they change (`ExportSettings.merged`).
    /// A folder whose last export wrote trips (`exported`) but which has none recorded
    /// (exported by an older build) finds its homes as a library's would be.
    /// A setting that cannot be read is left as it is (no home in it is forgotten by writing
    /// over it) and said in `summary`; this run hides the homes it finds (in a folder without a
    /// home now, the place of most nights, as a library's home would be found).
    ///
    /// `forgetting`: only the homes found now are kept (a kept one within 50 m of one of them
    /// stays as kept, so its zone does not move); those left go in `summary.forgottenHomes`.
    /// A folder without a home now (one trip), or whose setting cannot be read, forgets
    /// nothing, and says so: that would publish every home.
    private func keptHomes(_ library: Library, _ whole: Trip, exported: [String: ExportedTrip], forgetting: Bool,
                           _ summary: inout ExportSummary) throws(GeoTripError) -> [Coordinate] {
        var current = library.homes.flatMap(\.privateSpots)
        // The homes a folder that was a library had (or, `anyway`, may have had), found again
        // from its nights, when none is kept.
        func foundAgain(anyway: Bool = false) -> [Coordinate] {
            guard current.isEmpty, anyway || exported.keys.contains(where: { $0.hasPrefix(Self.tripsFolder + "/") }) else { return current }
            return TripSplitting.homes(whole.days, rules: TripSplitting.Rules()).flatMap(\.privateSpots)
        }
        let kept: [Coordinate]
        do {
            kept = try catalog.keptHomes()
        } catch .settingUnreadable {
            summary.problems.append(PhotoDiagnostic(path: catalog.path, kind: .output, message: "the homes kept private from earlier exports "
                + "cannot be read (the catalog's 'keptHome' setting was changed by hand); this export hides the homes it finds, and leaves the setting as it is"
                + (forgetting ? " (--forget-old-homes was not followed)" : "")))
            // What it held is not known: a folder with no home now hides the place of its most
            // nights, which may be the home an earlier export hid.
            return foundAgain(anyway: true)
        }
        if kept.isEmpty { current = foundAgain() }
        if forgetting, library.homes.isEmpty, !kept.isEmpty || !current.isEmpty {
            // Forgetting keeps today's homes only: with none, that would publish every one.
            summary.problems.append(PhotoDiagnostic(path: catalog.path, kind: .output, message: "--forget-old-homes was not followed: the folder has "
                + "no home now (it is one trip), so every earlier one, your own included, would be published; give --home LAT,LON with it to name "
                + "the home to keep private"))
        } else if forgetting {
            let forgotten = ExportSettings.earlier(kept, than: current)
            let homes = ExportSettings.merged(kept.filter { !forgotten.contains($0) }, current)
            summary.forgottenHomes = forgotten
            if homes != kept { try catalog.keepHomes(homes) }
            return homes
        }
        let homes = ExportSettings.merged(kept, current)
        if homes != kept { try catalog.keepHomes(homes) }
        return homes
    }

    /// The map's resources with the run's towns; without towns (and why, for the summary) when
    /// the gazetteer cannot be loaded.
    static func mapResources(_ gazetteer: RunGazetteer) -> (resources: Result<TripMapResources, GeoTripError>, problem: String?) {
        let towns: Gazetteer?, problem: String?
        do {
            towns = try gazetteer.get()
            problem = nil
        } catch {
            towns = nil
            problem = "the map shows no towns: \(error)"
        }
        return (Result { () throws(GeoTripError) in try TripMapResources.load(gazetteer: towns) }, problem)
    }

    /// The trips' folder inside the output folder of a library.
    static let tripsFolder = Library.tripsFolder

    /// One folder's worth of export: the whole trip into the output folder, or one trip of a
    /// library into `trips/<first day>/`.
    struct Part: Sendable {
        /// Relative to the output folder; empty for the output folder itself.
        var folder: String
        /// Its outline (visits with photo counts, days without photos) until it is rendered.
        var trip: Trip
        /// The library trip's number; nil for a folder that is one trip.
        var number: Int?
        /// The stretch of time its photos lie in; nil for a folder that is one trip (all of them).
        var window: MomentWindow?

        /// The photos in its visits: the measure of the export's progress.
        var photoCount: Int { trip.visits.map(\.photoCount).reduce(0, +) }
    }

    /// A part whose content or files changed since its last export, to be written.
    struct ChangedPart: Sendable {
        var index: Int
        var part: Part
        var output: OutputFolder
        /// `contentKey`'s fingerprint.
        var content: String
        /// Its journal when step 1 read it already; otherwise read when the part is written,
        /// unless `filesAsWritten`.
        var journal: Journal?
        /// Whether its folder's files are as its last export left them (the same listing), and
        /// that export said which pages it wrote (`pagesWritten`).
        var filesAsWritten: Bool
        /// `ExportedTrip.days` of its last export (none when every page is to be rendered).
        var pagesWritten: [String: String]
        /// `ExportedTrip.dayKeys` of its last export.
        var dayKeysWritten: [String: String] = [:]
        /// The cover its last export chose, and the visit it came from.
        var coverWritten: CoverWritten?
    }

    /// A trip's cover as an export chose it: the thumbnail, and the visit it came from.
    struct CoverWritten: Sendable, Equatable {
        var visit: String
        var path: String
    }

    /// A journal folder as read back: its day files by date and its unplaced notes page.
    struct Journal: Sendable {
        var days: [String: JournalDocument] = [:]
        var unplaced: JournalDocument?
    }

    /// What the last export of one trip's folder left: the key it was written for (content and
    /// the folder's files) and the index page's cover thumbnail.
    struct ExportedTrip: Codable, Equatable {
        var key: String
        var cover: String?
        /// Each day page as it was written, by date: the page's fingerprint
        /// (`JournalRenderer.DayPage`) and the footer of the file written for it.
        var days: [String: String]?
        /// A library trip's day keys (`dayKeys`) as its pages and map were written for them.
        var dayKeys: [String: String]?
        /// The visit the cover came from, when it was found.
        var coverVisit: String?

        /// The cover with the visit it came from, when both are known.
        var coverWritten: CoverWritten? {
            guard let cover, let coverVisit else { return nil }
            return CoverWritten(visit: coverVisit, path: cover)
        }
    }

    /// The journal files of `folder` (relative to the output folder) read back.
    /// A journal folder read back; a day's page for which `withLinks` says so is read again
    /// with its photo links (`JournalDocument.init(bytes:links:)`).
    private func readJournal(in folder: String, _ output: OutputFolder, _ summary: inout ExportSummary,
                             withLinks: ((JournalDocument) -> Bool)? = nil) -> Journal {
        let base = (folder.isEmpty ? "" : folder + "/") + Self.journalFolder
        var journal = Journal()
        let names = Self.journalNames(in: base, of: output, &summary)
        for name in names where Self.isDayFile(name) {
            if let document = read(base + "/" + name, output, &summary, withLinks: withLinks) { journal.days[String(name.prefix(10))] = document }
        }
        journal.unplaced = read(base + "/" + Self.unplacedNotesFile, output, &summary)
        // A page renamed by the person (`2025-06-10 Lisbon.md`) is not read: said when it
        // holds words in geotrip's blocks, which would otherwise seem taken in.
        for name in names where Self.mayBeRenamedPage(name) {
            if case .success(let bytes?) = output.contents(of: base + "/" + name),
               JournalDocument(bytes: bytes).blocks.contains(where: \.hasWords) {
                summary.unreadPages.append(base + "/" + name)
            }
        }
        return journal
    }

    /// A Markdown file in a journal folder that is none of geotrip's pages or backups.
    static func mayBeRenamedPage(_ name: String) -> Bool {
        name.hasSuffix(".md") && !isDayFile(name) && name != unplacedNotesFile && name != undatedPhotosFile
            && !name.hasPrefix("replaced-notes-") && !name.contains(".edited-")
    }

    /// What writing one part did.
    struct PartResult: Sendable {
        /// The cover thumbnail's path relative to the output folder.
        var cover: String?
        /// The visit the cover came from.
        var coverVisit: String?
        var summary: ExportSummary
        /// `ExportedTrip.days` for the part.
        var days: [String: String]
        /// `ExportedTrip.dayKeys` for the part.
        var dayKeys: [String: String] = [:]
    }

    /// What every part of one export is written with.
    struct PartContext: Sendable {
        /// The part's journal as read back; nil when its files are as its last export left them.
        var journal: Journal?
        /// The run's first listing of the output folder.
        var listed: [String: FileStamp]
        var checkEverything: Bool
        var notes: [String: String]
        /// The words of notes that left an id this run (`JournalNotes.setApart`), by that id:
        /// a page holding them there drops nothing (`dropsWords`).
        var movedAway: [String: String] = [:]
        var renderer: JournalRenderer
        var resources: TripMapResources
        var track: [TrackPoint]
        var settings: ExportSettings
        var privacy: PrivacyZones
        /// `renderingKey`.
        var rendering: String
        var language: String
        var rule: LocalDayRule
        var now: Date
    }

    /// What a changed part renders, and from what.
    struct PartPlan: Sendable {
        /// Its trip (visits with their photos on the days rendered) and the photos those show.
        var contents: TripContents
        /// The days rendered; nil for every day.
        var days: Set<String>?
        /// `dayKeys` of the part (a library trip's; none for a folder that is one trip).
        var dayKeys: [String: String]
        /// Its route, cut by the privacy zones.
        var route: TripRoute
        /// Its map page as the last export left it.
        var previousMap: [UInt8]?
        /// The photos of the days not rendered, whose thumbnails stay as they are.
        var keptThumbnails: Set<Int64>
    }

    /// What to render of `item` and its photos. A library trip whose folder is as its last
    /// export left it (no journal read back, not `geotrip export`, no photo points in the
    /// GeoJSON) renders only the days whose key (`dayKeys`) differs from the one its page was
    /// written for, or whose part of the map the page before does not hold
    /// (`TripMapPage.reusableDays`); only their photos are read. A long trip with one day
    /// changed was read and rendered whole. Any other part renders every day.
    private func plan(_ item: ChangedPart, _ root: OutputFolder, _ context: PartContext) throws(GeoTripError) -> PartPlan {
        let part = item.part
        let prefix = part.folder.isEmpty ? "" : part.folder + "/"
        let previousMap = try? root.contents(of: prefix + Self.mapFile).get()
        func route(_ trip: Trip) -> TripRoute {
            TripRoute(visits: trip.visits, track: Array(Self.track(context.track, during: trip))).hiding(context.privacy)
        }
        func whole() throws(GeoTripError) -> TripContents { try Self.contents(of: part, from: catalog, rule: context.rule) }
        guard part.number != nil, let window = part.window else {
            let contents = try whole()
            return PartPlan(contents: contents, days: nil, dayKeys: [:], route: route(contents.trip), previousMap: previousMap, keptThumbnails: [])
        }
        let state = try catalog.dayPhotoState(visits: part.trip.visits.map(\.id), rule: context.rule, in: window)
        var outline = part.trip
        for index in outline.days.indices {
            outline.days[index].unplacedPhotos = state.unplaced[outline.days[index].date]?.map(\.path) ?? []
        }
        outline = outline.withLocalTimes()
        let keys = Self.dayKeys(outline, state: state, notes: context.notes, globals: dayGlobals(item.output, context))
        let outlineRoute = route(outline)
        guard context.journal == nil, !context.checkEverything, !context.settings.photoPoints else {
            let contents = try whole()
            return PartPlan(contents: contents, days: nil, dayKeys: keys, route: route(contents.trip), previousMap: previousMap, keptThumbnails: [])
        }
        var days = Set(outline.days.filter { keys[$0.date] != item.dayKeysWritten[$0.date] || item.pagesWritten[$0.date] == nil }.map(\.date))
        var page = TripMapPage(input: mapInput(outline, route: outlineRoute, byPath: [:], thumbnails: [:], rawNames: [:], part: part,
                                               output: item.output, context))
        page.dayKeys = keys
        days.formUnion(Set(outline.days.map(\.date)).subtracting(page.reusableDays(in: previousMap)))

        let rendered = outline.days.filter { days.contains($0.date) }
        let unrendered = outline.days.filter { !days.contains($0.date) }
        let rows = try catalog.tripPhotos(ofVisits: rendered.flatMap(\.visits).map(\.id),
                                          ids: rendered.flatMap { state.unplaced[$0.date]?.map(\.id) ?? [] })
        let kept = Set(try catalog.photoIDs(ofVisits: unrendered.flatMap(\.visits).map(\.id))
                       + unrendered.flatMap { state.unplaced[$0.date]?.map(\.id) ?? [] })
        let trip = outline.withVisitPhotos(from: rows, onDays: days)
        var shown = trip
        shown.days = trip.days.filter { days.contains($0.date) }
        return PartPlan(contents: TripContents(trip: trip, photos: Self.photos(of: shown, in: PhotoIndex(rows))), days: days, dayKeys: keys,
                        route: outlineRoute, previousMap: previousMap, keptThumbnails: kept)
    }

    /// What every day key of a part's days holds besides the day: the run's rendering inputs
    /// (`renderingKey`), the privacy zones, the links from the part's journal and map to the
    /// photos, the `geotrip tag` command and how thumbnails are named.
    private func dayGlobals(_ partOutput: OutputFolder, _ context: PartContext) -> String {
        var key = KeyBytes()
        key.add(context.rendering)
        key.add(Int64(context.privacy.zones.count))
        for zone in context.privacy.zones { key.add(zone.text) }
        key.add(tripFolderLink(from: partOutput.url(Self.journalFolder).path))
        key.add(tripFolderLink(from: partOutput.path))
        key.add(tagCommand())
        key.add(Int64(ThumbnailMaker.version))
        return Fingerprint.of(key.bytes, fileSize: key.bytes.count)
    }

    /// Each day's key, by date: a fingerprint of everything its journal page and its part of
    /// the map are made from, read without its photos: `globals` (`dayGlobals`), the day and
    /// its notes, each of its visits as the outline has it (place, centre, times, zone, names,
    /// revision, photo count) with its notes and the state of its photos and their videos
    /// (`Catalog.DayPhotoState`), and its photos outside visits with theirs. Whatever a day's
    /// page or part comes to show must be here, or in its photos' rows.
    static func dayKeys(_ trip: Trip, state: Catalog.DayPhotoState, notes: [String: String], globals: String) -> [String: String] {
        var keys: [String: String] = [:]
        for day in trip.days {
            var key = KeyBytes()
            key.add(globals)
            key.add(day.date)
            key.add(notes[day.date])
            key.add(Int64(day.visits.count))
            for visit in day.visits {
                key.add(visit, note: notes[visit.id])
                key.add(state.visits[visit.id])
            }
            let unplaced = state.unplaced[day.date] ?? []
            key.add(Int64(unplaced.count))
            for photo in unplaced { key.add(photo.path); key.add(photo.stamp) }
            keys[day.date] = Fingerprint.of(key.bytes, fileSize: key.bytes.count)
        }
        return keys
    }

    /// Writes one part: thumbnails, days, GeoJSON and map into `partOutput`. A day page is
    /// rendered only when its fingerprint or its file differs from what `pagesWritten` (the last
    /// export's `ExportedTrip.days`) says was written (`isWritten`).
    ///
    /// Without a `journal`, the folder's files are as the last export left them: every file
    /// `pagesWritten` names is there as written, intact and holding the notes its fingerprint
    /// was taken with. A page is then as written when its fingerprint is, and only the files
    /// of pages replaced or retired are read (a backup is kept of any that changed meanwhile).
    /// Edits spread over a library change a few days of every trip: reading each trip's
    /// every day file back cost more than rendering the days that changed.
    ///
    /// `listed` is the run's first listing of the output folder: a day's file saved since is
    /// left as it is (`savedMeanwhile`).
    private func exportPart(_ item: ChangedPart, plan: PartPlan, of root: OutputFolder, _ c: PartContext) async throws(GeoTripError) -> PartResult {
        let part = item.part, partOutput = item.output, journal = c.journal, pagesWritten = item.pagesWritten
        let privacy = c.privacy, notes = c.notes, listed = c.listed, now = c.now, movedAway = c.movedAway
        var summary = ExportSummary()
        try partOutput.create(Self.journalFolder)
        _ = partOutput.names(in: "", pages: Self.isOwnFile)  // takes away what a run stopped while writing here left
        let trip = plan.contents.trip, photos = plan.contents.photos, route = plan.route
        // The GeoJSON needs no thumbnail: it is put together on another core from the start.
        async let geoJSON = GeoJSONDocument(visits: trip.visits, route: route, photos: c.settings.photoPoints ? photos : [], notes: notes,
                                            privacy: privacy).text()
        let visible = photos.filter { !($0.coordinate.map(privacy.contains) ?? false) }
        // A library trip's thumbnails, thousands for a few changed days, are found by one read
        // of its folder; a single trip's, and every one by `geotrip export`, are each looked at.
        // Those of the days not rendered stay as they are.
        let made = try await (c.settings.thumbnails ? thumbnails : NoThumbnails())
            .thumbnails(for: visible, in: partOutput.path, checkingEach: c.checkEverything || part.number == nil, keepingAlso: plan.keptThumbnails)
        summary.thumbnails = made.made
        summary.problems = made.problems
        if c.settings.thumbnails {
            try await remakeGoneThumbnails(made.missingAmongKept, kept: plan.keptThumbnails, keeping: visible, in: partOutput, privacy: privacy,
                                           &summary)
        } else {
            // Without thumbnails, those an earlier run made are no output's: geotrip's own go,
            // and their folder once empty.
            ThumbnailMaker(tripFolder: URL(fileURLWithPath: folder), outputFolder: partOutput.url("")).removeStale(keeping: [])
            rmdir(partOutput.url(ThumbnailMaker.folderName).path)
        }
        let prefix = part.folder.isEmpty ? "" : part.folder + "/"
        // Made once for the days, the map and the cover: a library trip's thousands of paths.
        let byPath = Dictionary(photos.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

        let context = JournalRenderer.Context(
            notes: notes, photos: byPath,
            livePhotoVideos: Dictionary(photos.compactMap { video in video.liveStillID.map { ($0, video.path) } },
                                        uniquingKeysWith: { first, _ in first }),
            privacy: privacy, thumbnails: made.paths, tripFolderLink: tripFolderLink(from: partOutput.url(Self.journalFolder).path),
            tagCommand: tagCommand(), rawNames: Self.rawNames(photos.lazy.map(\.path), in: Self.resolved(folder)))
        var page = TripMapPage(input: mapInput(trip, route: route, byPath: byPath, thumbnails: made.paths, rawNames: context.rawNames,
                                               part: part, output: partOutput, c))
        page.dayKeys = plan.dayKeys
        // The map is put together on another core while the days are rendered, with the base
        // layer and the days' parts of the page there when those still fit.
        async let map = page.render(with: c.resources, previous: plan.previousMap)
        let renderedDays = plan.days.map { days in trip.days.filter { days.contains($0.date) } } ?? trip.days
        let pages = try await Self.render(renderedDays, with: c.renderer, context) { day, fingerprint, notes in
            guard let journal else { return pagesWritten[day.date]?.hasPrefix(fingerprint + " ") == true }
            return Self.isWritten(fingerprint, notes: notes, as: pagesWritten[day.date], in: journal.days[day.date])
        }
        let pagesByDate = Dictionary(zip(renderedDays.map(\.date), pages), uniquingKeysWith: { first, _ in first })
        let days = Set(trip.days.map(\.date))
        let journalPath = prefix + Self.journalFolder + "/"
        // A day's file as it is now: from the journal read back, or read for this alone.
        func file(of date: String) -> JournalDocument? {
            guard let journal else { return read(journalPath + date + ".md", root, &summary) }
            return journal.days[date]
        }
        // Unread, the folder still says what reading it back would: the files in it that the
        // last export did not write (a link, refused again) and its notes page are read.
        if journal == nil {
            for name in Self.journalNames(in: prefix + Self.journalFolder, of: root, &summary) where Self.isDayFile(name) && pagesWritten[String(name.prefix(10))] == nil {
                _ = read(journalPath + name, root, &summary)
            }
            _ = read(journalPath + Self.unplacedNotesFile, root, &summary)
        }
        var pagesNow: [String: String] = [:]
        for day in trip.days {
            // A day not rendered is as its page was written (`plan`).
            guard let page = pagesByDate[day.date], let text = page.text else {
                summary.unchanged += 1
                pagesNow[day.date] = pagesWritten[day.date]
                continue
            }
            let path = journalPath + day.date + ".md"
            let put = try put(text, at: path, replacing: file(of: day.date), keeping: notes, movedAway: movedAway, root, now, &summary, listed: listed)
            summary.dayPagesRendered += 1
            // A file refused (a link) holds no page of geotrip's: it is tried, and told, again;
            // so is one left as a person saved it meanwhile.
            if put && !summary.refused.contains(path) { pagesNow[day.date] = Self.pageWritten(page.fingerprint, text: text) }
        }
        for date in (journal.map { Array($0.days.keys) } ?? Array(pagesWritten.keys)).sorted() where !days.contains(date) {
            try retire(journalPath + date + ".md", document: file(of: date), keeping: notes, movedAway: movedAway, root, now, &summary, listed: listed)
        }
        try put(await geoJSON, at: prefix + Self.geoJSONFile, replacing: nil, root, now, &summary)
        try put(await map, at: prefix + Self.mapFile, replacing: nil, root, now, &summary)
        // The last export's cover, relative to this folder as the thumbnails' paths are.
        let kept = item.coverWritten.flatMap { written in
            written.path.hasPrefix(prefix) ? CoverWritten(visit: written.visit, path: String(written.path.dropFirst(prefix.count))) : nil
        }
        let cover = c.settings.thumbnails
            ? try await cover(of: trip, byPath: byPath, made: made, plan: plan, kept: kept, visible: visible, in: partOutput, privacy: privacy, &summary)
            : nil
        return PartResult(cover: cover.map { prefix + $0.path }, coverVisit: cover?.visit, summary: summary, days: pagesNow, dayKeys: plan.dayKeys)
    }

    /// The map page's input for `trip` of `part`, its media from `byPath` and `thumbnails`.
    private func mapInput(_ trip: Trip, route: TripRoute, byPath: [String: TripPhoto], thumbnails: [Int64: String],
                          rawNames: [String: [UInt8]], part: Part, output partOutput: OutputFolder, _ c: PartContext) -> TripMapInput {
        TripMapInput.from(trip: trip, route: route, notes: c.notes, byPath: byPath, thumbnails: thumbnails,
                          tripFolderLink: tripFolderLink(from: partOutput.path), privacy: c.privacy, language: c.language,
                          tiles: c.settings.tiles, libraryIndex: part.number == nil ? nil : "../../" + Self.mapFile, rawNames: rawNames)
    }

    /// `ExportedTrip.days`' entry for a page with `fingerprint` written as `text`.
    static func pageWritten(_ fingerprint: String, text: String) -> String {
        fingerprint + " " + (JournalDocument.renderedFooter(text) ?? "")
    }

    /// Whether `file` (the day's file as read back) already holds the page of `fingerprint`
    /// (`JournalRenderer.inputKey`) with `notes` in its blocks, by what the last export wrote
    /// (`written`): the same fingerprint, the file intact with the footer written then (so its
    /// lines outside the notes blocks are as rendered), and every block holding the page's
    /// notes. A page edited anywhere, missing, or written for other values is rendered.
    static func isWritten(_ fingerprint: String, notes: [String: String], as written: String?, in file: JournalDocument?) -> Bool {
        guard let written, let file, file.isIntact, let footer = file.footer, written == fingerprint + " " + footer else { return false }
        let blocks = file.notes
        return blocks.count == notes.count && notes.allSatisfy { blocks[$0.key] == $0.value }
    }

    /// Takes away what geotrip wrote in `folder` that no trip writes any more: day files and the
    /// notes page (removed as written, kept as backups when edited), the map, the GeoJSON and
    /// the thumbnails; the folder goes when nothing else is left in it.
    private func retireJournal(_ journal: Journal, in folder: String, keeping notes: [String: String], movedAway: [String: String] = [:],
                               _ output: OutputFolder, _ now: Date,
                               _ summary: inout ExportSummary, listed: [String: FileStamp]) throws(GeoTripError) {
        let prefix = folder.isEmpty ? "" : folder + "/"
        for (date, document) in journal.days.sorted(by: { $0.key < $1.key }) {
            try retire(prefix + Self.journalFolder + "/" + date + ".md", document: document, keeping: notes, movedAway: movedAway, output, now, &summary, listed: listed)
        }
        // The output folder's own unplaced notes page stays: step 3 keeps it.
        guard !folder.isEmpty else {
            try output.remove(Self.geoJSONFile)
            ThumbnailMaker(tripFolder: URL(fileURLWithPath: self.folder), outputFolder: output.url("")).removeStale(keeping: [])
            rmdir(output.url(ThumbnailMaker.folderName).path)  // only when empty, as below
            return
        }
        if let unplaced = journal.unplaced {
            try retire(prefix + Self.journalFolder + "/" + Self.unplacedNotesFile, document: unplaced, keeping: notes, movedAway: movedAway, output, now, &summary, listed: listed)
        }
        try output.remove(prefix + Self.geoJSONFile)
        try output.remove(prefix + Self.mapFile)
        ThumbnailMaker(tripFolder: URL(fileURLWithPath: self.folder), outputFolder: output.url(folder)).removeStale(keeping: [])
        for empty in [prefix + ThumbnailMaker.folderName, prefix + Self.journalFolder, folder] {
            rmdir(output.url(empty).path)  // only when empty: a backup or a person's file keeps it
        }
    }

    /// A part as it is rendered: its trip with every visit's photos and every day's unplaced
    /// photos, and the photos it shows (`photos(of:in:)`), read from `catalog` for its
    /// window alone.
    static func contents(of part: Part, from catalog: Catalog, rule: LocalDayRule) throws(GeoTripError) -> TripContents {
        guard let window = part.window else {
            let rows = try catalog.tripPhotos()
            return TripContents(trip: try catalog.trip(photoPaths: false).withVisitPhotos(from: rows), photos: rows)
        }
        let rows = try catalog.tripPhotos(in: window)
        var outside: [String: [String]] = [:]
        for photo in try catalog.photosOutsideVisits(rule: rule, in: window) {
            if let day = photo.localDate { outside[day, default: []].append(photo.path) }
        }
        var trip = part.trip
        for index in trip.days.indices { trip.days[index].unplacedPhotos = outside[trip.days[index].date] ?? [] }
        trip = trip.withVisitPhotos(from: rows).withLocalTimes()
        return TripContents(trip: trip, photos: photos(of: trip, in: PhotoIndex(rows)))
    }

    /// What a part renders: its trip, photos in place, and the photos it shows.
    struct TripContents: Equatable {
        var trip: Trip
        var photos: [TripPhoto]
    }

    /// The stretch of capture time that holds every photo of a library's trip: its days, two
    /// more before and after, widened to its visits' arrivals and departures (a visit
    /// may run on past its day). A day's photos lie from 14 hours before its date (the
    /// largest offset east of UTC) to 36 hours after its end (a day rule starting the day up to
    /// 24 hours late, and the largest offset west). Nil when a day is not a date.
    /// A photo without a zone is in it by its camera's own clock, whose day the clock
    /// corrections (`--clock-offset`, as typed) move: the window is wider by the largest.
    static func window(of trip: Trip, clockCorrections: [String] = []) -> MomentWindow? {
        guard let first = trip.days.first.flatMap({ LocalDate.dayNumber($0.date) }),
              let last = trip.days.last.flatMap({ LocalDate.dayNumber($0.date) }) else { return nil }
        let reach = clockCorrections.compactMap { try? ClockCorrection(parsing: $0) }.map { abs($0.seconds) }.max() ?? 0
        let days = (reach + 86_399) / 86_400
        func text(_ day: Int) -> String? { Date(timeIntervalSince1970: Double(day) * 86_400).geotripISO8601.map { String($0.prefix(10)) } }
        guard let start = text(first - 2 - days), let end = text(last + 3 + days) else { return nil }
        var window = MomentWindow(start: start, end: end)
        for visit in trip.visits {
            window.start = min(window.start, visit.arrival)
            // Past every instant at the departure, milliseconds included ("~" sorts after them).
            window.end = max(window.end, visit.departure + "~")
        }
        return window
    }

    /// The photos a library trip shows: those of its visits, its days' unplaced photos and the
    /// videos of their Live Photos (a folder that is one trip shows every photo).
    static func photos(of trip: Trip, in index: PhotoIndex) -> [TripPhoto] {
        var chosen = trip.visits.flatMap { index.byVisit[$0.id] ?? [] }
        chosen += trip.days.flatMap(\.unplacedPhotos).compactMap { index.unplaced[$0] }
        chosen += chosen.flatMap { index.liveVideos[$0.id] ?? [] }
        // In the catalog's order, as a whole folder's are.
        return chosen.sorted { index.order[$0.id, default: 0] < index.order[$1.id, default: 0] }
    }

    /// Photos grouped by what a trip takes them for: its visits, its days, its stills' videos.
    struct PhotoIndex {
        var byVisit: [String: [TripPhoto]] = [:]
        var unplaced: [String: TripPhoto] = [:]
        var liveVideos: [Int64: [TripPhoto]] = [:]
        /// Each photo's place in the catalog's order.
        var order: [Int64: Int] = [:]

        init(_ photos: [TripPhoto]) {
            for (position, photo) in photos.enumerated() {
                order[photo.id] = position
                if let still = photo.liveStillID {
                    liveVideos[still, default: []].append(photo)
                } else if let visit = photo.visitID {
                    byVisit[visit, default: []].append(photo)
                } else {
                    unplaced[photo.path] = photo
                }
            }
        }
    }

    /// The track points (`points` sorted by time) from a day before the trip's first visit to
    /// a day after its last.
    static func track(_ points: [TrackPoint], during trip: Trip) -> ArraySlice<TrackPoint> {
        let visits = trip.visits
        guard let first = visits.first.flatMap({ UTCTimestamp.date($0.arrival) }),
              let last = visits.last.flatMap({ UTCTimestamp.date($0.departure) }) else { return [] }
        let from = first.addingTimeInterval(-86_400), to = last.addingTimeInterval(86_400)
        // Each trip of a library takes its own stretch of what may be a long log: two binary searches.
        let start = points.partitioningIndex { $0.time >= from }, end = points.partitioningIndex { $0.time > to }
        return start < end ? points[start..<end] : []
    }

    /// The index page's picture of a trip, with the visit it comes from: the middle photo that
    /// has a thumbnail of its visit with the most photos outside the privacy zones (the
    /// earliest of those with as many; the next when one has no thumbnail). A visit on a day
    /// `plan` does not render gives the last export's cover (`kept`) when that came from it (its
    /// day is as it was); otherwise its photos are read and their thumbnails found, or made, here.
    private func cover(of trip: Trip, byPath: [String: TripPhoto], made: Thumbnails, plan: PartPlan, kept: CoverWritten?,
                       visible: [TripPhoto], in partOutput: OutputFolder, privacy: PrivacyZones,
                       _ summary: inout ExportSummary) async throws(GeoTripError) -> CoverWritten? {
        var keeping = plan.keptThumbnails.union(visible.map(\.id))
        for visit in Self.coverOrder(trip.visits, privacy: privacy) {
            let paths: [String]
            if plan.days?.contains(visit.localDate) ?? true {
                paths = visit.photos.compactMap { byPath[$0] }.compactMap { made.paths[$0.id] }
            } else if let kept, kept.visit == visit.id {
                return kept
            } else {
                let photos = try catalog.tripPhotos(ofVisits: [visit.id], ids: [])
                    .filter { $0.visitID == visit.id && !($0.coordinate.map(privacy.contains) ?? false) }
                keeping.formUnion(photos.map(\.id))
                let found = try await thumbnails.thumbnails(for: photos, in: partOutput.path, checkingEach: false, keepingAlso: keeping)
                summary.thumbnails += found.made
                summary.problems += found.problems
                paths = photos.compactMap { found.paths[$0.id] }
            }
            if !paths.isEmpty { return CoverWritten(visit: visit.id, path: paths[paths.count / 2]) }
        }
        return nil
    }

    /// Makes again the thumbnails of `missing`, photos of the days not rendered (`kept`, whose
    /// pages link theirs) that the part's folder lacks: deleted by hand, say. Videos have none.
    private func remakeGoneThumbnails(_ missing: Set<Int64>, kept: Set<Int64>, keeping visible: [TripPhoto], in partOutput: OutputFolder,
                                      privacy: PrivacyZones, _ summary: inout ExportSummary) async throws(GeoTripError) {
        guard !missing.isEmpty else { return }
        let gone = try catalog.stillIDs(among: missing)
        guard !gone.isEmpty else { return }
        let photos = try catalog.tripPhotos(ofVisits: [], ids: Array(gone)).filter { !($0.coordinate.map(privacy.contains) ?? false) }
        let again = try await thumbnails.thumbnails(for: photos, in: partOutput.path, checkingEach: false,
                                                    keepingAlso: kept.union(visible.map(\.id)))
        summary.thumbnails += again.made
        summary.problems += again.problems
    }

    /// The visits a cover is looked for in, in turn: the most photos first, then the earliest,
    /// outside the privacy zones.
    static func coverOrder(_ visits: [TripVisit], privacy: PrivacyZones) -> [TripVisit] {
        visits.sorted(by: { ($0.photoCount, $1.arrival) > ($1.photoCount, $0.arrival) }).filter { !privacy.contains($0.centre) }
    }

    /// A fingerprint of everything a part renders from besides its files: the run's inputs, the
    /// privacy zones, the trip's visits and days, the notes of its owners, and the state of its
    /// photos (`Catalog.photoChanges(in:)`: any change to one of them changes it). A visit's
    /// revision grows whenever its photos change, so the outline is enough for the rest. `track`
    /// is the part of the track logs its route may follow (`track(_:during:)`).
    static func contentKey(_ trip: Trip, photoChanges: String, notes: [String: String], inputs: String, privacy: PrivacyZones,
                           track: ArraySlice<TrackPoint> = []) -> String {
        var key = KeyBytes()
        key.add(inputs)
        key.add(photoChanges)
        for zone in privacy.zones { key.add(zone.text) }
        key.add(Int64(track.count))
        for point in track {
            key.add(point.time.timeIntervalSince1970); key.add(point.coordinate.latitude); key.add(point.coordinate.longitude)
        }
        for day in trip.days {
            key.add(day.date)
            key.add(notes[day.date])
            for visit in day.visits {
                key.add(visit, note: notes[visit.id])
            }
        }
        return Fingerprint.of(key.bytes, fileSize: key.bytes.count)
    }

    /// The bytes a content key is the fingerprint of: each value with a tag for its kind and
    /// absence, so no two different sequences of values give the same bytes.
    struct KeyBytes {
        var bytes: [UInt8] = []

        mutating func add(_ text: String?) {
            guard let text else { return bytes.append(0) }
            bytes.append(1)
            add(Int64(text.utf8.count))
            bytes += text.utf8
        }

        mutating func add(_ number: Int64?) {
            guard let number else { return bytes.append(0) }
            bytes.append(2)
            withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
        }

        mutating func add(_ number: Double?) {
            guard let number else { return bytes.append(0) }
            bytes.append(3)
            withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes += $0 }
        }

        /// A visit as the outline has it (place, centre, times, zone, names, revision, photo
        /// count), with its note.
        mutating func add(_ visit: TripVisit, note: String?) {
            add(visit.id); add(visit.placeId); add(Int64(visit.revision))
            add(visit.latitude); add(visit.longitude); add(visit.radiusMeters)
            add(visit.arrival); add(visit.departure); add(visit.timeZone)
            add(visit.name); add(visit.admin1); add(visit.country); add(visit.countryCode); add(visit.nameSource)
            add(note)
            add(Int64(visit.photoCount))
        }
    }

    /// What the outputs render from besides the catalog and the output folder: the settings,
    /// the language, and geotrip's version (a new version may render differently).
    static func renderingKey(settings: ExportSettings, language: String) -> String {
        let encoded = (try? JSONEncoder.sorted.encode(settings)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return [GeoTripVersion.current, String(outputRevision), language, encoded].joined(separator: "|")
    }

    /// Bumped when what the export writes for the same catalog and files changes within a
    /// version, so outputs an earlier build left are written again once: in the trips' keys
    /// (`renderingKey`) and the day pages' (`JournalRenderer.inputKey`). 2: the page of undated
    /// photos, links by the bytes of names that are not UTF-8, commands on one line. 3: the map's
    /// visit numbers past 99 fit their markers. 4: a visit's times name its day after midnight
    /// and both zones across a change of the clocks (`TripVisit.localTimeSpan`). 5: a home for
    /// each stretch of years, each kept private, and no trip named after a private visit
    /// (outputs an earlier build wrote could show a person's earlier home). 6: the map's base
    /// layer reaches further past the trip and closes the slivers between countries beyond it,
    /// and counts a trip's days from first to last. 7: no leg runs to a hidden place, no route
    /// ends on a zone's circle, and a visit or photo placed from a hidden neighbour is hidden
    /// (outputs an earlier build wrote could give a home away).
    static let outputRevision = 7

    /// The file names of the photos at `paths` whose names are not UTF-8, by catalogued path
    /// (`FolderScanner.rawBytes`): only paths with a `%` are looked at.
    static func rawNames(_ paths: some Sequence<String>, in tripFolder: String) -> [String: [UInt8]] {
        var names: [String: [UInt8]] = [:]
        for path in paths where path.utf8.contains(UInt8(ascii: "%")) {
            if let raw = FolderScanner.rawBytes(of: path, in: tripFolder) { names[path] = raw }
        }
        return names
    }

    /// The sidecar beside the photo at `path` (absolute, its bytes) that geotrip reads as
    /// Lightroom's: its name without the extension, then `.xmp`.
    static func sidecarPath(of path: [UInt8]) -> [UInt8] {
        let slash = path.lastIndex(of: UInt8(ascii: "/")) ?? -1
        guard let dot = path.lastIndex(of: UInt8(ascii: ".")), dot > slash + 1 else { return path + Array(".xmp".utf8) }
        return Array(path[..<dot]) + Array(".xmp".utf8)
    }

    /// That sidecar, `.xmp` or `.XMP`, when there is anything by that name: a link counts as
    /// it is, unfollowed, so the command edits it (and fails on a dangling one) rather than
    /// writing a new file wherever it points.
    static func existingSidecar(of path: [UInt8]) -> [UInt8]? {
        let xmp = sidecarPath(of: path)
        return [xmp, xmp.dropLast(3) + Array("XMP".utf8)].first(where: FolderScanner.entryExists)
    }

    /// Every file under `folder` with its size and modification time, as one fingerprint, and
    /// how many of them are documents (not thumbnails).
    /// With `documentsOnly`, thumbnails are left out (the folder's own and each trip's): a
    /// library has hundreds of thousands, and they are checked whenever their trip is rendered;
    /// their folders' times are in the key.
    static func listing(of folder: String, documentsOnly: Bool = false) -> (key: String, documents: Int, files: [String: FileStamp]) {
        // The scan's own walk (readdir + fstatat): Foundation's enumerator costs half a second
        // for a trip's 10,000 thumbnails.
        var scanner = FolderScanner(root: folder)
        let trips = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + tripsFolder))?.filter { !$0.hasPrefix(".") } ?? []
        if documentsOnly {
            scanner.excludedFolders = Set([ThumbnailMaker.folderName] + trips.map { tripsFolder + "/" + $0 + "/" + ThumbnailMaker.folderName })
        }
        guard let files = try? scanner.scan().files else { return ("", 0, [:]) }
        var lines: [UInt8] = []
        // The scan skips hidden names; what a stopped run left in a journal folder (a person's
        // save among it: `journalNames`) is in the key, so the run that finds it reads it.
        for journal in [journalFolder] + trips.map({ tripsFolder + "/" + $0 + "/" + journalFolder }) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + journal)) ?? []).sorted()
            where name.hasPrefix(".") && OutputFolder.leftoverPage(name) != nil {
                lines += Array("\(journal)/\(name) hidden\n".utf8)
            }
        }
        var documents = 0
        var stamps: [String: FileStamp] = [:]
        stamps.reserveCapacity(files.count)
        for file in files {
            stamps[file.relativePath] = FileStamp(size: file.size, modifiedNanos: file.modifiedNanos)
            let thumbnails = ThumbnailMaker.folderName + "/"
            if !file.relativePath.hasPrefix(thumbnails) && !file.relativePath.contains("/" + thumbnails) { documents += 1 }
            lines += Array("\(file.relativePath) \(file.size) \(file.modifiedNanos)\n".utf8)
        }
        // The thumbnails' folders by their own times, which a thumbnail added, deleted or
        // renamed moves: one deleted by hand gets its trip written again (and made again)
        // though the thumbnails themselves are not listed.
        for excluded in scanner.excludedFolders.sorted() {
            var info = stat()
            if lstat(folder + "/" + excluded, &info) == 0 { lines += Array("\(excluded)/ \(FileStamp(info).modifiedNanos)\n".utf8) }
        }
        return (Fingerprint.of(lines, fileSize: lines.count), documents, stamps)
    }

    /// A day's page: its fingerprint, and its text unless its file already holds it.
    struct RenderedPage: Sendable {
        var fingerprint: String
        var text: String?
    }

    /// The pages of `days`, on every core (a day's page depends on nothing else), in the days'
    /// order; a page that `isWritten` says its file holds (by the day's input key and notes)
    /// is neither made nor rendered.
    static func render(_ days: [Trip.Day], with renderer: JournalRenderer, _ context: JournalRenderer.Context,
                       isWritten: @escaping @Sendable (Trip.Day, String, [String: String]) -> Bool) async throws(GeoTripError) -> [RenderedPage] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (days.count + width - 1) / width)
        do {
            return try await withThrowingTaskGroup(of: (Int, [RenderedPage]).self) { group in
                for (index, start) in stride(from: 0, to: days.count, by: size).enumerated() {
                    let slice = Array(days[start..<min(days.count, start + size)])
                    group.addTask {
                        (index, try slice.map { day throws(GeoTripError) in
                            let key = renderer.inputKey(day, context)
                            if isWritten(day, key, renderer.notes(of: day, context)) { return RenderedPage(fingerprint: key, text: nil) }
                            let page = try renderer.page(day, context, fingerprint: key)
                            return RenderedPage(fingerprint: page.fingerprint, text: renderer.render(page))
                        })
                    }
                }
                var parts: [(Int, [RenderedPage])] = []
                for try await part in group { parts.append(part) }
                return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
            }
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw .catalogRejected(path: "journal", reason: "\(error)")
        }
    }

    /// Brings the outputs in step after `tag` or `rename` changed the trip, with the trip's
    /// remembered settings and language; a failure is the caller's to report, never to stop it
    /// (the change itself is saved, and the next `ingest` or `export` writes the outputs).
    static func refresh(_ catalog: Catalog, folder: String) async -> Result<ExportSummary, GeoTripError> {
        do {
            let settings = try catalog.storedExportSettings()
            let stage = ExportStage(catalog: catalog, folder: folder, thumbnails: MadeThumbnails(tripFolder: folder))
            return .success(try await stage.run(settings: settings, language: try catalog.storedNamingLanguage()))
        } catch {
            return .failure(error)
        }
    }

    /// The names in a journal folder, with what a run killed while writing there left taken
    /// away (`OutputFolder.names(in:pages:holdsSave:rescued:)`): a page a person saved in that
    /// moment (anything but an empty file or a page as geotrip wrote it) is put back, or kept
    /// as a backup; the summary lists where (`ExportSummary.rescued`).
    static func journalNames(in folder: String, of output: OutputFolder, _ summary: inout ExportSummary) -> [String] {
        output.names(in: folder, pages: { isDayFile($0) || $0 == unplacedNotesFile || $0 == undatedPhotosFile || $0.hasPrefix("replaced-notes-") },
                     holdsSave: { !$0.isEmpty && !JournalDocument(bytes: $0).isAsWritten }, rescued: &summary.rescued)
    }

    /// The files geotrip writes in a trip's folder, and in a library's.
    static func isOwnFile(_ name: String) -> Bool { name == mapFile || name == geoJSONFile }

    /// `YYYY-MM-DD.md`.
    static func isDayFile(_ name: String) -> Bool {
        name.utf8.count == 13 && name.hasSuffix(".md") && JournalNote.isDay(String(name.prefix(10)))
    }

    /// A journal file read back; nil when missing, or refused (a link: noted, never read through).
    private func read(_ relative: String, _ output: OutputFolder, _ summary: inout ExportSummary,
                      withLinks: ((JournalDocument) -> Bool)? = nil) -> JournalDocument? {
        switch output.contents(of: relative) {
        case .success(let bytes?):
            var document = JournalDocument(bytes: bytes)
            if let withLinks, withLinks(document) { document = JournalDocument(bytes: bytes, links: true) }
            document.modifiedNanos = output.stamp(of: relative)?.modifiedNanos
            return document
        case .success(nil): return nil
        case .failure:
            if !summary.refused.contains(relative) { summary.refused.append(relative) }
            return nil
        }
    }

    /// Writes `text` at `relative`, first keeping the file there as a backup when it was edited
    /// outside its notes blocks, or holds words in a block that no note keeps (`notes`, the
    /// run's notes by owner: `dropsWords`); `replacing` is what was read from it. A journal file
    /// (given with the run's first listing, `listed`) that was saved since that listing is left
    /// as it is (`savedMeanwhile`); returns whether the file was put.
    @discardableResult
    private func put(_ text: String, at relative: String, replacing existing: JournalDocument?, keeping notes: [String: String] = [:],
                     movedAway: [String: String] = [:], _ output: OutputFolder, _ now: Date, _ summary: inout ExportSummary,
                     listed: [String: FileStamp]? = nil) throws(GeoTripError) -> Bool {
        if let listed, Self.savedMeanwhile(relative, output, listed: listed) { return false }
        let bytes = Array(text.utf8)
        // What the file must still be when this one replaces it: as first listed (nothing, once
        // kept as a backup). Saved in between, it is left as saved.
        var expecting: FileStamp?? = nil
        if let listed { expecting = .some(listed[relative]) }
        if let existing, !existing.isIntact || Self.dropsWords(existing, keeping: notes, movedAway: movedAway),
           case .success(let current?) = output.contents(of: relative), current != bytes {
            let backup = try output.keepBackup(of: relative, at: now)
            summary.backups.append(backup)
            if !existing.unclosed.isEmpty { summary.unreadBlocks.append(UnreadBlocks(backup: backup, ids: existing.unclosed)) }
            if expecting != nil { expecting = .some(nil) }
        }
        switch try output.store(bytes, at: relative, expecting: expecting) {
        case .written: summary.written += 1
        case .unchanged: summary.unchanged += 1
        case .refused: if !summary.refused.contains(relative) { summary.refused.append(relative) }
        case .savedMeanwhile: return false
        }
        return true
    }

    /// Whether the file at `relative` was saved since the run's first listing of the output
    /// folder (`listed`): it is there now with another size or time, or was not there then. A
    /// person wrote in it while the export ran, after its notes were gathered: replacing or
    /// removing it now would lose what they wrote, so it is left for this run, and the next
    /// reads it back (its folder's listing is not kept as the export's own: `isAsWritten`).
    static func savedMeanwhile(_ relative: String, _ output: OutputFolder, listed: [String: FileStamp]) -> Bool {
        guard let now = output.stamp(of: relative) else { return false }
        return listed[relative] != now
    }

    /// Takes away a journal file the trip no longer has (its notes were gathered already): removed
    /// when it is as geotrip wrote it, kept as a backup when the person changed it outside its
    /// blocks or it holds words no note keeps (`notes`: `dropsWords`), left as it is when saved
    /// since the run's first listing (`savedMeanwhile`).
    private func retire(_ relative: String, document: JournalDocument?, keeping notes: [String: String], movedAway: [String: String] = [:],
                        _ output: OutputFolder, _ now: Date,
                        _ summary: inout ExportSummary, listed: [String: FileStamp]) throws(GeoTripError) {
        guard let document, !Self.savedMeanwhile(relative, output, listed: listed) else { return }
        if document.isIntact && !Self.dropsWords(document, keeping: notes, movedAway: movedAway) {
            // Only the file listed: one saved since, even in the moment before, stays. (A file
            // the run's first listing lacks is not there: `savedMeanwhile` left it otherwise.)
            if let stamp = listed[relative], try output.remove(relative, expecting: stamp) { summary.removed += 1 }
        } else {
            let backup = try output.keepBackup(of: relative, at: now)
            summary.backups.append(backup)
            if !document.unclosed.isEmpty { summary.unreadBlocks.append(UnreadBlocks(backup: backup, ids: document.unclosed)) }
        }
    }

    /// Writes the catalog's copies of `notes`, which edits over older copies replaced, to
    /// `journal/replaced-notes-YYYYMMDD-HHMMSS.md` (a backup, never read back); returns its path.
    private func keepReplaced(_ notes: [JournalNote], _ output: OutputFolder, _ now: Date) throws(GeoTripError) -> String {
        let relative = output.unusedName(Self.journalFolder + "/replaced-notes-", at: now, extension: "md")
        var text = "# Notes replaced by an older copy\n\nEach of these notes was replaced by an edit made in an older copy of its page "
            + "(a page put back from a copy, or two output folders written in apart). What it said before is kept here.\n"
        for note in notes {
            text += "\n## \(note.ownerID)\(note.localDate.map { " (\($0))" } ?? "")\n\n" + note.text + (note.text.hasSuffix("\n") ? "" : "\n")
        }
        _ = try output.store(Array(text.utf8), at: relative)
        return relative
    }

    /// Whether replacing or removing `file` would drop words a person wrote: a block with words
    /// that is not the note the run keeps for its owner (`notes`). A copy of a note older than
    /// the one taken (a folder no export wrote since), or one of two copies edited apart, is
    /// kept in a backup rather than lost.
    static func dropsWords(_ file: JournalDocument, keeping notes: [String: String], movedAway: [String: String] = [:]) -> Bool {
        file.blocks.contains { block in block.hasWords && notes[block.id] != block.text && movedAway[block.id] != block.text }
    }

    /// The way from the journal folder to the trip folder (`../..` for `DIR/geotrip/journal`),
    /// both with links resolved, so links work wherever the output folder is.
    private func tripFolderLink(from journal: String) -> String {
        let link = OutputFolder.relativePath(from: Self.resolved(journal), to: Self.resolved(folder) + "/x")
        return String(link.dropLast(link == "x" ? 1 : 2))
    }

    /// `geotrip tag 'FOLDER'` (with `--catalog 'PATH'` when the trip's catalog is elsewhere).
    private func tagCommand() -> String {
        var command = "geotrip tag " + MarkdownText.shellQuoted(Self.resolved(folder))
        if let explicitCatalog { command += " --catalog " + MarkdownText.shellQuoted(URL(fileURLWithPath: explicitCatalog).standardizedFileURL.path) }
        return command
    }

    /// The trip's track points, sorted by time, from the `--track` logs it remembers (`paths`).
    /// A log that cannot be read was reported by the resolution stage; the route goes without it.
    private func trackPoints(_ paths: [String]) -> [TrackPoint] {
        var points: [TrackPoint] = []
        for path in paths {
            if let file = try? TrackLog.load(contentsOf: URL(fileURLWithPath: path)) { points += file.points }
        }
        return TrackLog.sortedByTime(points)
    }

    /// `path` absolute, with symbolic links resolved when it exists.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real)
    }
}

/// The first error a catalog read made while `JournalNotes` asked for visits' photos, which
/// its non-throwing lookups cannot throw (`ExportStage.run` throws it afterwards).
private final class LookupFailure {
    var error: GeoTripError?
}
