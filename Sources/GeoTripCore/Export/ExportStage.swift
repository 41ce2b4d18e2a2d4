import Foundation

/// The export stage, last in every `ingest` and all of `geotrip export`: renders the trip from
/// the catalog into the output folder, without scanning or reading a photo.
///
/// 1. notes: every journal file's notes blocks are read back and merged with the catalog's
///    copies (`JournalNotes`); the catalog is brought in step before any file is written, so
///    nothing a person wrote depends on a write that might fail.
/// 2. thumbnails, through the `ThumbnailProvider` seam (none until a maker is plugged in).
/// 3. the journal: `journal/YYYY-MM-DD.md` per day, `journal/unplaced-notes.md` when notes have
///    lost their visit; a file edited outside its notes blocks is kept as a dated backup first;
///    a day that is gone loses its file (its notes have moved on).
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

    /// The journal's folder inside the output folder.
    static let journalFolder = "journal"
    /// The page of notes whose visit is gone.
    static let unplacedNotesFile = "unplaced-notes.md"
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
    public func run(settings: ExportSettings, language: String, now: Date = Date()) async throws(GeoTripError) -> ExportSummary {
        let output = OutputFolder(folder: folder, outputFolder: settings.outputFolder)
        try output.check()
        try output.create(Self.journalFolder)
        var summary = ExportSummary()
        summary.outputFolder = output.path
        summary.language = language

        // Nothing changed since the outputs were written (the catalog, the settings, and every
        // file in the output folder as the last export left it, notes included): nothing to do.
        let inputs = try inputsKey(settings: settings, language: language)
        let before = Self.listing(of: output.path)
        if try catalog.setting(Catalog.SettingKey.exportedFor) == inputs + "|" + before.key {
            summary.unchanged = before.documents
            return summary
        }

        let trip = try catalog.trip()
        let photos = try catalog.tripPhotos()
        let privacy = settings.privacy

        // 1. Notes, from the files and the catalog.
        let journal = Self.journalFolder + "/"
        var dayFiles: [String: JournalDocument] = [:]
        let existingDays = output.names(in: Self.journalFolder).filter { Self.isDayFile($0) }
        for name in existingDays {
            if let document = read(journal + name, output, &summary) { dayFiles[String(name.prefix(10))] = document }
        }
        let unplacedDocument = read(journal + Self.unplacedNotesFile, output, &summary)
        let notes = JournalNotes(trip: trip, days: dayFiles, unplaced: unplacedDocument, stored: try catalog.journalNotes())
        try catalog.saveJournalNotes(notes.all, at: now)
        summary.unplacedNotes = notes.gone.count

        // 2. Thumbnails of the photos that may be shown.
        let visible = photos.filter { !($0.coordinate.map(privacy.contains) ?? false) }
        let made = try await (settings.thumbnails ? thumbnails : NoThumbnails()).thumbnails(for: visible, in: output.path)
        summary.thumbnails = made.made
        summary.problems = made.problems

        // 3. The journal.
        let renderer = try JournalRenderer(language: language)
        let context = JournalRenderer.Context(
            notes: notes.texts, photos: Dictionary(photos.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }),
            livePhotoVideos: Dictionary(photos.compactMap { video in video.liveStillID.map { ($0, video.path) } },
                                        uniquingKeysWith: { first, _ in first }),
            privacy: privacy, thumbnails: made.paths, tripFolderLink: tripFolderLink(from: output.url(Self.journalFolder).path),
            tagCommand: tagCommand())
        // The map page's input, so the page renders beside the journal's days (step 5).
        let route = TripRoute(visits: trip.visits, track: try trackPoints()).hiding(privacy)
        // Without the gazetteer the page goes without its towns, and the summary says why.
        let towns: Gazetteer?
        do {
            towns = try gazetteer.get()
        } catch {
            towns = nil
            summary.problems.append(PhotoDiagnostic(path: output.path, kind: .output, message: "the map shows no towns: \(error)"))
        }
        let resources = try TripMapResources.load(gazetteer: towns)
        let input = TripMapInput.from(trip: trip, route: route, notes: notes.texts, photos: photos, thumbnails: made.paths,
                                      tripFolderLink: tripFolderLink(from: output.path), privacy: privacy, language: language,
                                      tiles: settings.tiles)
        async let page = TripMapPage(input: input).render(with: resources)
        let pages = try await Self.render(trip.days, with: renderer, context)
        let days = Set(trip.days.map(\.date))
        for (day, text) in zip(trip.days, pages) {
            try put(text, at: journal + day.date + ".md", replacing: dayFiles[day.date], output, now, &summary)
        }
        for name in existingDays where !days.contains(String(name.prefix(10))) {
            try retire(journal + name, document: dayFiles[String(name.prefix(10))], output, now, &summary)
        }
        if !notes.gone.isEmpty {
            try put(renderer.renderUnplacedNotes(notes.gone), at: journal + Self.unplacedNotesFile, replacing: unplacedDocument,
                    output, now, &summary)
        } else if unplacedDocument != nil {
            try retire(journal + Self.unplacedNotesFile, document: unplacedDocument, output, now, &summary)
        }
        let named = try catalog.placesNamed(inLanguage: language)
        summary.namesInOtherLanguages = trip.places.filter { $0.name != nil && !named.contains($0.id) }.count

        // 4. GeoJSON.
        let geoJSON = GeoJSONDocument(visits: trip.visits, route: route, photos: settings.photoPoints ? photos : [],
                                      notes: notes.texts, privacy: privacy)
        try put(try geoJSON.text(), at: Self.geoJSONFile, replacing: nil, output, now, &summary)

        // 5. The map page: Leaflet, the trip and the base layer inline; the gazetteer's towns
        // when it can be loaded (the page goes without them otherwise).
        try put(await page, at: Self.mapFile, replacing: nil, output, now, &summary)
        try catalog.setSetting(Catalog.SettingKey.exportedFor, to: inputs + "|" + Self.listing(of: output.path).key)
        return summary
    }

    /// What the outputs render from besides the output folder: the catalog's state, the
    /// settings, the language, and geotrip's version (a new version may render differently).
    private func inputsKey(settings: ExportSettings, language: String) throws(GeoTripError) -> String {
        let encoded = (try? JSONEncoder.sorted.encode(settings)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return [GeoTripVersion.current, language, encoded, try catalog.exportSourceState()].joined(separator: "|")
    }

    /// Every file under `folder` with its size and modification time, as one fingerprint, and
    /// how many of them are documents (not thumbnails).
    static func listing(of folder: String) -> (key: String, documents: Int) {
        // The scan's own walk (readdir + fstatat): Foundation's enumerator costs half a second
        // for a trip's 10,000 thumbnails.
        guard let files = try? FolderScanner(root: folder).scan().files else { return ("", 0) }
        var lines: [UInt8] = []
        var documents = 0
        for file in files {
            if !file.relativePath.hasPrefix(ThumbnailMaker.folderName + "/") { documents += 1 }
            lines += Array("\(file.relativePath) \(file.size) \(file.modifiedNanos)\n".utf8)
        }
        return (Fingerprint.of(lines, fileSize: lines.count), documents)
    }

    /// The pages of `days`, rendered on every core (a day's page depends on nothing else), in
    /// the days' order.
    static func render(_ days: [Trip.Day], with renderer: JournalRenderer, _ context: JournalRenderer.Context) async throws(GeoTripError) -> [String] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (days.count + width - 1) / width)
        do {
            return try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
                for (index, start) in stride(from: 0, to: days.count, by: size).enumerated() {
                    let slice = Array(days[start..<min(days.count, start + size)])
                    group.addTask { (index, try slice.map { day throws(GeoTripError) in try renderer.render(day, context) }) }
                }
                var parts: [(Int, [String])] = []
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

    /// `YYYY-MM-DD.md`.
    static func isDayFile(_ name: String) -> Bool {
        name.utf8.count == 13 && name.hasSuffix(".md") && JournalNote.isDay(String(name.prefix(10)))
    }

    /// A journal file read back; nil when missing, or refused (a link: noted, never read through).
    private func read(_ relative: String, _ output: OutputFolder, _ summary: inout ExportSummary) -> JournalDocument? {
        switch output.contents(of: relative) {
        case .success(let bytes?): return JournalDocument(bytes: bytes)
        case .success(nil): return nil
        case .failure:
            if !summary.refused.contains(relative) { summary.refused.append(relative) }
            return nil
        }
    }

    /// Writes `text` at `relative`, first keeping the file there as a backup when it was edited
    /// outside its notes blocks (`replacing` is what was read from it).
    private func put(_ text: String, at relative: String, replacing existing: JournalDocument?, _ output: OutputFolder, _ now: Date,
                     _ summary: inout ExportSummary) throws(GeoTripError) {
        let bytes = Array(text.utf8)
        if let existing, !existing.isIntact, case .success(let current?) = output.contents(of: relative), current != bytes {
            summary.backups.append(try output.keepBackup(of: relative, at: now))
        }
        switch try output.store(bytes, at: relative) {
        case .written: summary.written += 1
        case .unchanged: summary.unchanged += 1
        case .refused: if !summary.refused.contains(relative) { summary.refused.append(relative) }
        }
    }

    /// Takes away a journal file the trip no longer has (its notes were gathered already): removed
    /// when it is as geotrip wrote it, kept as a backup when the person changed it outside its blocks.
    private func retire(_ relative: String, document: JournalDocument?, _ output: OutputFolder, _ now: Date,
                        _ summary: inout ExportSummary) throws(GeoTripError) {
        guard let document else { return }
        if document.isIntact {
            try output.remove(relative)
            summary.removed += 1
        } else {
            summary.backups.append(try output.keepBackup(of: relative, at: now))
        }
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

    /// The trip's track points, sorted by time, from the `--track` logs it remembers. A log
    /// that cannot be read was reported by the resolution stage; the route goes without it.
    private func trackPoints() throws(GeoTripError) -> [TrackPoint] {
        var points: [TrackPoint] = []
        for path in try catalog.storedResolutionSettings().tracks {
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
