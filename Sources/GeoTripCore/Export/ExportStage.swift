import Foundation
import Synchronization

/// The export stage, last in every `ingest` and all of `geotrip export`: renders the trip from
/// the catalog into the output folder, without scanning or reading a photo.
///
/// `run` reads as its steps:
/// 1. notes: every journal file's notes blocks are read back and merged with the catalog's
///    copies (`JournalNotes`); the catalog is brought in step before any file is written, so
///    nothing a person wrote depends on a write that might fail.
/// 2. each trip (`ExportStage+Trip.swift`): thumbnails, through the `ThumbnailProvider` seam;
///    the journal, `journal/YYYY-MM-DD.md` per day (a file edited outside its notes blocks is
///    kept as a dated backup first; a day that is gone loses its file, its notes having moved
///    on); `trip.geojson` and `index.html`, the trip map (`TripMapPage`), from the same trip,
///    `TripRoute`, notes and privacy zones.
/// 3. beside the journal: `journal/unplaced-notes.md` when notes have lost their visit,
///    `journal/undated-photos.md` when photos have no time for any day.
/// 4. what no trip writes any more is retired.
/// 5. a library's page of trips, and what was written, so the next run knows what changed.
///
/// Every file is written only when its bytes change (`OutputFolder`, `ExportStage+Files.swift`).
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
    ///
    /// The steps, each its own function below: nothing changed (`inputs`); the folder's trips
    /// and what stays private (`layout`); 1. notes (`gatherNotes`); 2. each trip's journal, map
    /// and GeoJSON (`writeTrips`); 3. the pages beside the journal (`writeNotesGone`,
    /// `writeUndatedPhotos`); 4. what no trip writes any more (`retireStale`); 5. a library's
    /// page of trips, and what this export wrote, for the next (`record`).
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
        try output.checkApart(from: folder, catalog: catalog.path)
        // The output folder; its own journal folder only once something goes there (a
        // library's holds only the notes whose visit or day is gone, and the undated photos).
        try output.create("")
        let former = try catalog.formerFolder()
        try output.claim(for: folder, former: former, writer: try catalog.writer())
        var summary = ExportSummary()
        summary.outputFolder = output.path
        summary.language = language

        // Nothing changed since the outputs were written (the catalog, the settings, and every
        // file in the output folder as the last export left it, notes included): nothing to do.
        let inputs = try self.inputs(settings: settings, language: language)
        let before = Self.listing(of: output.path, documentsOnly: true, leavingOut: folder)
        if let linked = Self.linkedOwnFolder(before.links, in: output.path) {
            throw .outputFolderLinked(path: output.path, folder: linked)
        }
        // With a journal page replaced by a link, the export runs, to say it again.
        if !checkEverything, !before.links.contains(where: Self.isJournalPage),
           try catalog.setting(Catalog.SettingKey.exportedFor) == inputs.key + "|" + before.key {
            summary.unchanged = before.documents
            summary.trips = try catalog.exportedTrips().keys.filter { $0.hasPrefix(Self.tripsFolder + "/") }.count
            if let standing = try catalog.jsonSetting(Catalog.SettingKey.standing, as: StandingFacts.self) { summary.standing = standing }
            return summary
        }
        // The map's resources (Leaflet, the base map, the towns) load on another core meanwhile.
        async let loading = Self.mapResources(gazetteer)
        var layout = try self.layout(settings: settings, clockOffsets: inputs.clockOffsets, output: output, forgettingOldHomes: forgettingOldHomes,
                                     &summary)
        let run = RunContext(output: output, written: written, before: before, now: now, settings: settings, language: language,
                             rendering: inputs.rendering, checkEverything: checkEverything, rule: try catalog.storedClusteringOptions().dayRule,
                             keptBackups: try Self.keptBackups(catalog))

        // 1. Notes, from every journal geotrip may have written and from the catalog, before
        // anything is written.
        let gathered = try gatherNotes(layout, run, &summary)
        let notesSaved = try catalog.notesSourceState()

        // 2. Each trip: its journal, map and GeoJSON, unless it is as its last export left it.
        let renderer = try JournalRenderer(language: language)
        let loaded = await loading
        if let problem = loaded.problem { summary.problems.append(PhotoDiagnostic(path: output.path, kind: .output, message: problem)) }
        let fresh = try await writeTrips(layout, gathered, run, renderer: renderer, resources: try loaded.resources.get(),
                                         track: trackPoints(inputs.trackFiles), &summary)
        // A trip's folder still written whose days partly went to other trips' folders (a trip
        // split in two by days at home added between): said, as a folder taken away is (step 4),
        // since links to those days' pages in it stop working.
        for part in layout.parts where part.number != nil {
            guard let before = layout.exported[part.folder]?.days?.keys else { continue }
            let left = Set(before).subtracting(part.trip.days.map(\.date))
            guard !left.isEmpty else { continue }
            var now: [String] = [], moved: [String] = []
            for other in layout.parts where other.folder != part.folder && other.number != nil {
                let taken = other.trip.days.map(\.date).filter(left.contains)
                if !taken.isEmpty { now.append(other.folder); moved += taken }
            }
            if !now.isEmpty { summary.tripFoldersMoved.append(TripFolderMove(from: part.folder, to: now, daysMoved: moved.sorted())) }
        }
        for (part, state) in zip(layout.parts, fresh) { layout.exported[part.folder] = state }
        // A folder that is one trip, written: its figures as its map and GeoJSON give them
        // (`exportPart`), kept for the summary of a rerun that writes nothing. A library has none.
        if layout.library.isLibrary {
            summary.shared = nil
            try catalog.saveSharedFigures(nil)
        } else if let shared = summary.shared {
            try catalog.saveSharedFigures(shared)
        }
        let named = try catalog.placesNamed(inLanguage: language)
        summary.namesInOtherLanguages = layout.whole.places.filter { $0.name != nil && !named.contains($0.id) }.count
        if summary.namesInOtherLanguages > 0 { summary.namesOnline = try catalog.storedNamingSettings().online }

        // 3. The pages beside a journal: notes whose owner is gone, photos no day takes.
        try writeNotesGone(gathered, renderer: renderer, run, &summary)
        try writeUndatedPhotos(privacy: layout.privacy, texts: gathered.texts, renderer: renderer, run, &summary)

        // 4. What no trip writes any more.
        try retireStale(&layout, gathered, run, &summary)
        // The headings written over in the pages kept as backups, written or retired.
        if !summary.headingsWrittenOver.isEmpty {
            summary.headingsWrittenOver = try namedOver(summary.headingsWrittenOver, visits: layout.whole.visits, words: JournalWords(language: language))
        }

        // 5. The library's page of trips, and what this export wrote: the inputs with the notes
        // step 1 saved, which the outputs were written from (the key from before them sent the
        // next run through every trip again, to write nothing).
        try record(layout, gathered, inputs: inputs.withNotes(notesSaved), run, &summary)
        return summary
    }

    /// `headings` as the summary says them, each with its visit's place and the command that
    /// gives the place the name written. A heading that kept geotrip's shape (`TIME · PLACE`)
    /// counts only when its place part, read as Markdown, begins with no name any place has had
    /// (from any source, in any language: geotrip renames places itself, so a page a person
    /// saved for a note can hold a name geotrip wrote) nor the words for a place without a name
    /// or a private one. Its name is that part without the region and country geotrip writes
    /// after the place's name, either or both (`Belém Tower, Lisboa, Portugal` and `Belém
    /// Tower, Portugal` name it `Belém Tower`). A heading whose visit is gone counts only when
    /// it was not in geotrip's shape.
    func namedOver(_ headings: [HeadingWrittenOver], visits: [TripVisit], words: JournalWords) throws(GeoTripError) -> [HeadingWrittenOver] {
        let byID = Dictionary(visits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let shaped = headings.contains { $0.placeWritten != nil }
        let known = shaped ? try catalog.namesEverGiven().union(visits.compactMap(\.name))
            .union(["en", "ko"].map { JournalWords(language: $0) }.flatMap { [$0.unnamedPlace, $0.privatePlace] }) : []
        return headings.compactMap { heading in
            var heading = heading
            let visit = byID[heading.visit]
            if let placeWritten = heading.placeWritten {
                guard let visit else { return nil }
                var written = MarkdownText.unescaped(placeWritten)
                if known.contains(where: { written == $0 || written.hasPrefix($0 + ", ") }) { return nil }
                // The place's region and country as geotrip writes them after the name, either
                // or both left at the end (`Torre de Belém, Portugal`), are no part of the name.
                let region = Set([visit.admin1, words.countryName(code: visit.countryCode, stored: visit.country), visit.country].compactMap { $0 })
                while let comma = written.range(of: ", ", options: .backwards), region.contains(String(written[comma.upperBound...])),
                      comma.lowerBound > written.startIndex {
                    written.removeSubrange(comma.lowerBound...)
                }
                heading.heading = written
            }
            heading.place = visit?.placeId
            heading.renameCommand = visit.map { command("rename", [$0.placeId, "--", heading.heading]) }
            return heading
        }
    }

    /// What one export run writes with, the same for all its steps.
    struct RunContext: Sendable {
        /// The output folder, noting each file written in `written`.
        var output: OutputFolder
        /// The files this run wrote, with their stamps (`isAsWritten`).
        var written: WrittenFiles
        /// The output folder's documents as the run found them.
        var before: Listing
        /// The run's time, which dates backups and the notes taken in.
        var now: Date
        /// The export's settings (`ExportSettings`).
        var settings: ExportSettings
        /// The language of the words and names.
        var language: String
        /// `renderingKey`.
        var rendering: String
        /// `geotrip export`: every trip rendered, every thumbnail looked at.
        var checkEverything: Bool
        /// How photos' local days are told (`ClusteringOptions.dayRule`).
        var rule: LocalDayRule
        /// The dated backups earlier exports kept, with their size and time then (`keptBackups`).
        var keptBackups: [String: String]
    }

    /// Everything the outputs are made from, as one key (the rendering, the folder, the catalog's
    /// state and the track logs, which draw the route, so an edited one is an input even when it moved
    /// no photo), with the track logs and the cameras' clock corrections it was read with.
    /// `withNotes` gives the key with another state of the notes (`Catalog.notesSourceState`,
    /// the catalog's state's own part): the outputs are recorded with the notes the export's
    /// first step saved, and everything else as the run began, so what another run changed
    /// meanwhile (names fetched online, without the run lock) is still news to the next.
    private func inputs(settings: ExportSettings, language: String) throws(GeoTripError)
        -> (key: String, rendering: String, trackFiles: [String], clockOffsets: [String], withNotes: @Sendable (String) -> String) {
        // The commands the pages give name the folder: one moved (`mv`) is written again.
        let rendering = Self.renderingKey(settings: settings, language: language) + "|" + tagCommand()
        let resolutionSettings = try catalog.storedResolutionSettings()
        let trackFiles = resolutionSettings.tracks
        let state = try catalog.exportSourceState()
        let head = rendering + "|index\(Self.indexPageRevision)|" + state.rest + "|"
        let tail = trackFiles.map { "|\($0):" + ResourceLocator.stamp($0) }.joined()
        return (head + state.notes + tail, rendering, trackFiles, resolutionSettings.clockOffsets, { head + $0 + tail })
    }

    /// The folder as this export writes it: its trips, what stays private, and what the last
    /// export left of each folder.
    struct Layout: Sendable {
        /// The trip's outline (visits and days, no photo read).
        var whole: Trip
        /// The trips of a library, its homes and days at home (`TripSplitting`).
        var library: Library
        /// The folders written: the output folder itself for one trip, one per library trip.
        var parts: [Part]
        /// The zones kept out of everything written, those around visits placed from a hidden
        /// neighbour included.
        var privacy: PrivacyZones
        /// What the last export left of each folder (`ExportedTrip`), brought up to date as
        /// this one writes.
        var exported: [String: ExportedTrip]
        /// Folders an earlier export wrote that no trip has now (the output folder itself, for
        /// a folder that became a library).
        var stale: [String]
        /// `privacy` without the zones around visits placed from a hidden neighbour, which are
        /// `neighbourZones`, each with the visit it hides.
        var baseZones: PrivacyZones
        var neighbourZones: [(visit: String, zone: PrivacyZones.Zone)]
        /// The homes kept private (`Catalog.SettingKey.homesHidden`).
        var homesHidden: [Coordinate]

        /// The zones `part`'s own outputs are written and keyed with: every zone but those
        /// around another trip's visits placed from a hidden neighbour. Such a zone hides its
        /// own trip's visit (`PrivacyZones.neighbourZones`); in another trip's outputs it could
        /// only hide that trip's own route or photos, which tell nothing of the visit. So a new
        /// trip's departure morning writes no other trip again (every trip's keys held every
        /// zone), and each trip's outputs depend on its own visits and the folder's zones alone.
        func privacy(of part: Part) -> PrivacyZones {
            guard part.number != nil, !neighbourZones.isEmpty else { return privacy }
            let visits = Set(part.trip.visits.map(\.id))
            return PrivacyZones(baseZones.zones + neighbourZones.filter { visits.contains($0.visit) }.map(\.zone))
        }
    }

    /// The folder's trips (the outline is enough to split a library into trips and tell which
    /// changed; each trip to render reads its own photos) and the privacy zones.
    private func layout(settings: ExportSettings, clockOffsets: [String], output: OutputFolder, forgettingOldHomes: Bool,
                        _ summary: inout ExportSummary) throws(GeoTripError) -> Layout {
        let whole = try catalog.trip(photoPaths: false, outside: false, localTimes: false)
        // Split with the homes kept so far, then again if this export keeps others (new homes
        // found, or old ones forgotten): the homes found do not depend on them, so neither does
        // what is kept, and the next run splits as this one does.
        let keptBefore = catalog.keptHomesIfReadable()
        var library = TripSplitting.split(whole, givenHome: settings.home, keptHomes: keptBefore)
        let exported = try catalog.exportedTrips()
        let kept = try keptHomes(library, whole, exported: exported, forgetting: forgettingOldHomes, &summary)
        if kept != keptBefore { library = TripSplitting.split(whole, givenHome: settings.home, keptHomes: kept) }
        // The zones, and one around each visit placed only from a hidden neighbour (whose
        // position it would give away: `PrivacyZones.neighbourZones`).
        let zones = settings.privacy(for: library, keptHomes: kept)
        // A home hidden now that the last export which finished did not hide is a zone added
        // (`homesNewlyHidden`), which the dated backups may show: told by what that export
        // recorded, so a run that failed (or `tag`, `rename`) does not take the news away.
        let homesHidden = settings.homesHidden(for: library, keptHomes: kept)
        // A catalog whose exports did not record them yet: the homes kept, as if hidden.
        let hiddenBefore = try catalog.jsonSetting(Catalog.SettingKey.homesHidden, as: [Coordinate].self) ?? keptBefore
        summary.homesNewlyHidden = homesHidden.contains { home in
            !hiddenBefore.contains { GreatCircle.distance($0, home) <= ExportSettings.sameHouse }
        }
        // A library's trips' visits, and those of the days next to them (`visitsBesideTrips`):
        // its other days at home are in no output, and each of their visits near the house
        // would be looked up.
        // Shared first (`Catalog.shared`), so a visit whose every photo lies inside the zones
        // hides the visits placed from it as one centred inside does.
        let shownVisits = library.isLibrary ? library.visitsBesideTrips(of: whole) : whole.visits
        let neighbourZones = try catalog.keptPrivate(zones, among: shownVisits).neighbourZones
        let privacy = PrivacyZones(zones.zones + neighbourZones.map(\.zone))
        let parts = library.isLibrary
            ? library.trips.map { Part(folder: $0.folder, trip: $0.trip, number: $0.number,
                                       window: Self.window(of: $0.trip, clockCorrections: clockOffsets)) }
            : [Part(folder: "", trip: whole, number: nil, window: nil)]
        summary.trips = library.trips.count
        if library.isLibrary {
            // Days of photos none of which has a position, in no trip: their photos are on no page.
            let spans = library.trips.map { ($0.firstDay, $0.lastDay) }
            summary.daysInNoTrip = whole.days.filter { day in
                day.visits.isEmpty && !spans.contains { $0.0 <= day.date && day.date <= $0.1 }
            }.map(\.date)
            // A home photographed on few nights, its days trips of their own shown on their maps.
            if let (spot, count) = library.tripsAtOneSpot(), !zones.contains(spot) {
                let point = String(format: "%.4f,%.4f", spot.latitude, spot.longitude)
                summary.tripsAtOneSpot = TripsAtOneSpot(latitude: spot.latitude, longitude: spot.longitude, trips: count,
                                                        homeCommand: command("export", ["--home", point]))
            }
            // A folder of one trip made a library by a stray date or two: said, with the photos.
            if settings.home == nil, let strays = Library.strayDays(of: whole) {
                let days = Set(strays.days)
                let visits = whole.days.filter { days.contains($0.date) }.flatMap(\.visits).map(\.id)
                let paths = try catalog.photos(ofEachVisit: visits).values.flatMap { $0.map(\.path) }.sorted()
                summary.libraryOnlyBy = StrayDates(days: strays.days, photos: strays.photos, others: strays.others, paths: Array(paths.prefix(3)),
                                                   homeFound: library.home != nil)
            } else if library.homeLooksLikeAStay(), let home = library.home {
                // A hotel stayed at twice, in a folder of trips alone, found as home: said.
                summary.homeFromFewStays = HomeFromFewStays(latitude: home.centre.latitude, longitude: home.centre.longitude,
                                                            stretches: library.homeStretches, days: library.homeStretches.map(\.days).reduce(0, +),
                                                            homeCommand: command("export", ["--home", "LAT,LON"]))
            }
        }
        let current = Set(parts.map(\.folder))
        let stale = ([""] + output.names(in: Self.tripsFolder, pages: { _ in false }).map { Self.tripsFolder + "/" + $0 }).filter { !current.contains($0) }
        var layout = Layout(whole: whole, library: library, parts: parts, privacy: privacy, exported: exported, stale: stale,
                            baseZones: zones, neighbourZones: neighbourZones, homesHidden: homesHidden)
        // Each trip as its outputs share it, by its own zones: a visit at a zone's edge without
        // the photos taken inside (its times, centre and count); its window stays the whole trip's.
        let shared = try catalog.shared(parts.map(\.trip), leavingOut: parts.map(layout.privacy(of:)))
        for (index, trip) in shared.enumerated() { layout.parts[index].trip = trip }
        // And the whole outline's visits as their trips share them: notes and headings judge
        // a visit private by its shared centre (one whose every photo is inside a zone is).
        var sharedVisits: [String: TripVisit] = [:]
        for trip in shared { sharedVisits.merge(trip.sharedVisits) { first, _ in first } }
        layout.whole = whole.sharingVisits(as: sharedVisits)
        return layout
    }

    /// The notes as step 1 gathered them, with what it read of the folders.
    struct GatheredNotes: Sendable {
        /// The notes merged from every copy (`JournalNotes`).
        let notes: JournalNotes
        /// Their texts, by owner id (`JournalNotes.texts`, made once for every step).
        let texts: [String: String]
        /// Words a block may hold besides its owner's note, by the block's id, that are kept
        /// elsewhere, so a page holding them there drops nothing (`dropsWords`): those of a
        /// note that now has another id (set apart, or put with the visit holding its photos),
        /// and the catalog's copy of each note as the run found it. That copy is the note still,
        /// or was written over by the person (an edit over that very copy), or is kept beside
        /// the journal (`JournalNotes.replaced`, an edit over an older copy); so a page left as
        /// geotrip wrote it in a trip's old folder, or an output folder used before, is not kept
        /// as a backup of an edit nobody made.
        let keptElsewhere: [String: Set<String>]
        /// The journals read back, by folder (relative to the output folder).
        var journals: [String: Journal]
        /// Each current folder's listing (`listing(of:)`'s key).
        var listings: [String: String]
        /// How many documents each current folder holds, for the summary of one not written.
        var documentsIn: [String: Int]
        /// The output folder's own page of notes whose visit is gone, as read back.
        var unplacedDocument: JournalDocument?
        /// The output folder this one replaced, whose notes came along (`SettingKey.notesLeftIn`).
        var notesLeftIn: String?

        init(notes: JournalNotes, found: [String: JournalNote], journals: [String: Journal], listings: [String: String],
             documentsIn: [String: Int], unplacedDocument: JournalDocument?, notesLeftIn: String?) {
            self.notes = notes
            texts = notes.texts
            var kept = found.mapValues { Set([$0.text]) }
            for (id, now) in notes.setApart.merging(notes.rehomedTo, uniquingKeysWith: { apart, _ in apart }) {
                if let note = notes.all[now] { kept[id, default: []].insert(note.text) }
            }
            keptElsewhere = kept
            self.journals = journals
            self.listings = listings
            self.documentsIn = documentsIn
            self.unplacedDocument = unplacedDocument
            self.notesLeftIn = notesLeftIn
        }
    }

    /// Step 1: notes, from every journal geotrip may have written (the output folder's own and
    /// each trip's, current or not) and from the catalog, merged (`JournalNotes`) and saved in
    /// the catalog before anything is written, so nothing a person wrote depends on a write
    /// that might fail.
    private func gatherNotes(_ layout: Layout, _ run: RunContext, _ summary: inout ExportSummary) throws(GeoTripError) -> GatheredNotes {
        let output = run.output, parts = layout.parts, stale = layout.stale, exported = layout.exported
        let current = Set(parts.map(\.folder))
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
                    // A day's note written since: the photos of its page are those it goes with.
                    || storedNotes[block.id] == nil && JournalNote.isDay(block.id) && block.hasWords
            }
        }
        for folder in parts.map(\.folder) + stale {
            if current.contains(folder) {
                // Also what the trip's key is compared with below.
                let listed = Self.listing(of: folder.isEmpty ? output.path : output.url(folder).path, documentsOnly: true, leavingOut: self.folder)
                let listing = listed.key
                listings[folder] = listing
                // The output folder's own pages of unplaced notes and undated photos are counted
                // when they are written, after the trips.
                documentsIn[folder] = listed.documents - (folder.isEmpty ? [Self.unplacedNotesFile, Self.undatedPhotosFile]
                    .map { Self.journalFolder + "/" + $0 }.filter { listed.files[$0] != nil && !listed.links.contains($0) }.count : 0)
                // A trip's folder as its last export left it is not read, unless a page there is
                // a link now (read, it is refused, and said, on every run).
                if !run.checkEverything, !folder.isEmpty, let known = exported[folder], known.key.hasSuffix("|" + listing),
                   !listed.links.contains(where: Self.isJournalPage) { continue }
            }
            journals[folder] = readJournal(in: folder, output, keptBackups: run.keptBackups, &summary, withLinks: withLinks)
        }
        // The output folder this one replaced (`--out` changed): the notes written there
        // since its last export come along, once. Nothing there is written (what a stopped run
        // left in its journal folders is tidied as in any: `journalNames`).
        let notesLeftIn = try catalog.setting(Catalog.SettingKey.notesLeftIn)
        var leftJournals: [Journal] = []
        if let notesLeftIn {
            let left = OutputFolder(folder: folder, outputFolder: notesLeftIn.isEmpty ? nil : notesLeftIn)
            var elsewhere = ExportSummary()
            // Not when another folder's outputs are there now: its notes are not this one's.
            if left.path != output.path, FileManager.default.fileExists(atPath: left.path), left.isUsable(by: folder, former: try catalog.formerFolder()) {
                summary.formerOutputFolder = left.path
                for sub in [""] + left.names(in: Self.tripsFolder, pages: { _ in false }).map({ Self.tripsFolder + "/" + $0 }) {
                    var journal = readJournal(in: sub, left, keptBackups: run.keptBackups, &elsewhere, withLinks: withLinks)
                    for date in journal.days.keys { journal.days[date]?.leftBehind = true }
                    journal.unplaced?.leftBehind = true
                    leftJournals.append(journal)
                }
            }
        }
        // Each day's files, the current folders' first: a day may be in a trip's old folder too.
        var dayFiles: [String: [JournalDocument]] = [:]
        for journal in (parts.map(\.folder) + stale).compactMap({ journals[$0] }) + leftJournals {
            for (date, document) in journal.days { dayFiles[date, default: []].append(document) }
        }
        // The notes of days no folder writes (a library's days at home: a trip's day that home
        // moved to, a day whose trip photos went) join the page of notes whose visit is gone,
        // so every note is in a file; they go back when their day is a trip's again.
        var shown = layout.whole
        if layout.library.isLibrary {
            let tripDays = Set(parts.flatMap { $0.trip.days.map(\.date) })
            shown.days = layout.whole.days.filter { tripDays.contains($0.date) }
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
        var notes = JournalNotes(trip: shown, days: dayFiles,
                                 unplaced: (parts.map(\.folder) + stale).compactMap { journals[$0]?.unplaced } + leftJournals.compactMap(\.unplaced),
                                 stored: storedNotes, storedAt: try catalog.journalNoteTimes(), privacy: layout.privacy, photos: visitPhotos)
        if let error = failure.error { throw error }
        // A gone note whose visit is still in the catalog, on a day now at home or inside a
        // private place, loses the name it was remembered with (a day's page shows such a
        // visit as "Private place"); so does one remembered with a name of the person's or the
        // service's for a place inside the zones, its visit gone ("Our flat, Rua Augusta 22").
        let named = notes.gone.filter { $0.placeName != nil }
        if !named.isEmpty && !layout.privacy.isEmpty {
            let owners = Set(named.map(\.ownerID))
            let privateNames = try catalog.namesGiven(inside: layout.privacy)
            notes.forgetPlaces(of: Set(layout.whole.visits.filter { owners.contains($0.id) && layout.privacy.contains($0.centre) }.map(\.id))
                .union(named.filter { $0.placeName.map(privateNames.contains) == true }.map(\.ownerID)))
        }
        // Copies another copy outranked (`JournalNotes.replaced`) go beside the journal first.
        if !notes.replaced.isEmpty {
            try output.create(Self.journalFolder)
            summary.replacedNotes = try keepReplaced(notes.replaced, output, run.now)
            summary.replacedNoteCount = Set(notes.replaced.map(\.ownerID)).count
        }
        try catalog.saveJournalNotes(notes.all, at: run.now, writtenAt: notes.writtenAt)
        summary.unplacedNotes = notes.gone.count
        summary.ownBlocks = notes.gone.map(\.ownerID).filter { !JournalNote.isGeotripsName($0) }
        summary.movedNotes = notes.moved
        summary.rehomedNotes = notes.rehomed
        return GatheredNotes(notes: notes, found: storedNotes, journals: journals, listings: listings, documentsIn: documentsIn,
                             unplacedDocument: journals[""]?.unplaced, notesLeftIn: notesLeftIn)
    }

    /// Step 2: each trip's journal, map and GeoJSON, unless it is as its last export left it
    /// (its content key and its folder's listing as recorded); the trips that changed as many
    /// at once as there are cores, each writing its own folder. Returns what each folder now
    /// holds (`ExportedTrip`, in `layout.parts`' order).
    ///
    /// Stopped (Ctrl-C on `ingest`): what the trips written left is kept, so the next run does
    /// not write them again, and `.interrupted` is thrown.
    private func writeTrips(_ layout: Layout, _ gathered: GatheredNotes, _ run: RunContext, renderer: JournalRenderer,
                            resources: TripMapResources, track: [TrackPoint], _ summary: inout ExportSummary) async throws(GeoTripError) -> [ExportedTrip?] {
        let output = run.output, parts = layout.parts, exported = layout.exported
        let texts = gathered.texts, keptElsewhere = gathered.keptElsewhere
        var fresh = [ExportedTrip?](repeating: nil, count: parts.count)
        var changed: [ChangedPart] = []
        let photoChanges = try catalog.photoChanges(in: parts.map(\.window))
        for (index, part) in parts.enumerated() {
            let privacy = layout.privacy(of: part)
            let content = Self.contentKey(part.trip, photoChanges: photoChanges[index], notes: texts,
                                          inputs: run.rendering, privacy: privacy, track: Self.track(track, during: part.trip))
            var partOutput = OutputFolder(folder: folder, outputFolder: part.folder.isEmpty ? output.path : output.url(part.folder).path)
            partOutput.written = run.written
            let listing = gathered.listings[part.folder] ?? ""
            if !run.checkEverything, let known = exported[part.folder], known.key == content + "|" + listing {
                let base = (part.folder.isEmpty ? "" : part.folder + "/") + Self.journalFolder
                // Every document of its folder, as an export with nothing to do counts them.
                summary.unchanged += gathered.documentsIn[part.folder]
                    ?? gathered.journals[part.folder]?.days.count ?? Self.journalNames(in: base, of: output, &summary).filter(Self.isDayFile).count
                fresh[index] = known
            } else {
                // A folder whose files are as the last export left them, with the pages it wrote
                // known: its day files need not be read (`exportPart`).
                let recorded = exported[part.folder]
                let unedited = recorded?.days != nil && recorded?.key.hasSuffix("|" + listing) == true
                let known = run.checkEverything ? nil : recorded
                changed.append(ChangedPart(index: index, part: part, output: partOutput, privacy: privacy, content: content,
                                           journal: gathered.journals[part.folder],
                                           filesAsWritten: unedited && !run.checkEverything, pagesUnedited: unedited,
                                           pagesWritten: known?.days ?? [:], dayKeysWritten: known?.dayKeys ?? [:], coverWritten: known?.coverWritten))
            }
        }
        let rendered: [PartResult?]
        let total = changed.map(\.part.photoCount).reduce(0, +)
        let done = Mutex(0)
        let progress = self.progress
        progress?(0, total)
        do {
            // Each trip's photos are read as it is written, so a library's are never all in memory.
            // Stopped (Ctrl-C on `ingest`): no trip is begun, and one still making thumbnails
            // (the long part of a first export) gives up; those writing pages finish (`nil`
            // for the others, whose folders keep their last export's state below).
            rendered = try await changed.concurrentMap(width: layout.library.isLibrary ? ProcessInfo.processInfo.activeProcessorCount : 1) { item -> PartResult? in
                if Task.isCancelled { return nil }
                // A changed trip's journal is read back here, beside its rendering, rather than
                // before: for edits spread over a library, that was every trip's, on one core.
                // A folder as its last export left it is not read at all.
                var reading = ExportSummary()
                let journal = item.journal ?? (item.filesAsWritten ? nil : readJournal(in: item.part.folder, output, keptBackups: run.keptBackups, &reading))
                let context = PartContext(journal: journal, listed: run.before.files, checkEverything: run.checkEverything, notes: texts,
                                          keptElsewhere: keptElsewhere, renderer: renderer, resources: resources, track: track, settings: run.settings,
                                          privacy: item.privacy, rendering: run.rendering, language: run.language, rule: run.rule, now: run.now)
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
            let after = Self.listing(of: item.output.path, documentsOnly: true, leavingOut: folder)
            let asLeft = Self.isAsWritten(after.files, in: item.part.folder, of: output, before: run.before.files, written: run.written)
            fresh[item.index] = ExportedTrip(key: item.content + "|" + (asLeft ? after.key : Self.editedMeanwhile), cover: result.cover, days: result.days,
                                             dayKeys: result.dayKeys.isEmpty ? nil : result.dayKeys, coverVisit: result.coverVisit,
                                             photos: result.media.photos, videos: result.media.videos,
                                             // Measured against every zone, as the page of trips and `trips` measure it.
                                             distance: MeasuredDistance(route: result.routeKilometres,
                                                                        centres: item.part.trip.distanceKilometres(outside: layout.privacy)))
        }
        // Stopped: what the trips written left is kept, so the next run does not write them
        // again; the export as a whole is not (its inputs are not marked as exported).
        if rendered.contains(where: { $0 == nil }) {
            var exported = exported
            for (part, state) in zip(parts, fresh) { exported[part.folder] = state }
            try catalog.saveExportedTrips(exported)
            try recordBackups(summary.backups, output)
            throw .interrupted(.elsewhere)
        }
        return fresh
    }

    /// Step 3: the page of notes whose owner is gone, beside the output folder's journal; it
    /// keeps the notes it lists, also under the ids they had before they went to another visit
    /// or apart (`JournalNotes.setApart`): their words are kept, not dropped. Without such
    /// notes, a page there is retired.
    private func writeNotesGone(_ gathered: GatheredNotes, renderer: JournalRenderer, _ run: RunContext,
                                _ summary: inout ExportSummary) throws(GeoTripError) {
        let notes = gathered.notes, output = run.output
        let path = Self.journalFolder + "/" + Self.unplacedNotesFile
        let kept = gathered.texts.merging(notes.gone.map { ($0.ownerID, $0.text) } + notes.setApart.compactMap { written, id in
            notes.all[id].map { (written, $0.text) } }) { _, waiting in waiting }
        if !notes.gone.isEmpty {
            try output.create(Self.journalFolder)
            try put(renderer.renderUnplacedNotes(notes.gone), at: path, replacing: gathered.unplacedDocument,
                    keeping: kept, output, run.now, &summary, listed: run.before.files)
        } else if gathered.unplacedDocument != nil {
            try retire(path, document: gathered.unplacedDocument, keeping: kept, output, run.now, &summary, listed: run.before.files)
        }
    }

    /// Step 3: photos no day takes (no time found) are on no day's page and no map: they are
    /// listed on a page of their own beside the journal, so none leaves it without a word.
    /// Those placed inside a privacy zone are left off, as a day's page leaves them.
    private func writeUndatedPhotos(privacy: PrivacyZones, texts: [String: String], renderer: JournalRenderer, _ run: RunContext,
                                    _ summary: inout ExportSummary) throws(GeoTripError) {
        let output = run.output
        let undatedRows = try catalog.undatedPhotos(rule: run.rule, now: run.now).filter { !privacy.hides($0.photo) }
        let undated = undatedRows.map(\.photo)
        summary.undatedPhotos = undated.count
        let undatedPath = Self.journalFolder + "/" + Self.undatedPhotosFile
        let undatedDocument = read(undatedPath, output, &summary)
        if !undated.isEmpty {
            try output.create(Self.journalFolder)
            let tripFolder = RealPath.of(folder)
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
            try put(text, at: undatedPath, replacing: undatedDocument, keeping: texts, output, run.now, &summary, listed: run.before.files)
        } else if undatedDocument != nil {
            try retire(undatedPath, document: undatedDocument, keeping: texts, output, run.now, &summary, listed: run.before.files)
        }
    }

    /// Step 4: what no trip writes any more: a trip's folder that is gone (its notes were
    /// gathered in step 1), and the single trip's files once the folder became a library.
    private func retireStale(_ layout: inout Layout, _ gathered: GatheredNotes, _ run: RunContext, _ summary: inout ExportSummary) throws(GeoTripError) {
        let output = run.output
        // A trip folder whose days are in other trips' folders now: said, since links to it stop working.
        // One the person renamed (`trips/Rome 2024`), which geotrip never wrote, is told by the
        // pages found in it: its notes went to the folders of their days, and its pages go.
        for folder in layout.stale where folder.hasPrefix(Self.tripsFolder + "/") {
            let name = folder.dropFirst(Self.tripsFolder.count + 1)
            let renamed = !JournalNote.isDay(String(name))
            guard let days = layout.exported[folder]?.days.map({ Set($0.keys) })
                    ?? gathered.journals[folder].map({ Set($0.days.keys) }), !days.isEmpty else { continue }
            let now = layout.parts.filter { $0.number != nil && $0.trip.days.contains { days.contains($0.date) } }.map(\.folder)
            if !now.isEmpty { summary.tripFoldersMoved.append(TripFolderMove(from: folder, to: now, renamed: renamed)) }
        }
        for folder in layout.stale {
            try retireJournal(gathered.journals[folder] ?? Journal(), in: folder, keeping: gathered.texts, keptElsewhere: gathered.keptElsewhere,
                              output, run.now, &summary, listed: run.before.files)
            layout.exported[folder] = nil
        }
        // A library that became one trip: `trips/` goes with its last trip's folder (only when
        // empty: a backup or a person's file keeps it).
        if !layout.library.isLibrary { rmdir(output.url(Self.tripsFolder).path) }
        // A library's own journal folder holds only the page of notes whose visit or day is
        // gone, the page of undated photos (and backups): empty, it goes.
        if layout.library.isLibrary { rmdir(output.url(Self.journalFolder).path) }
    }

    /// Step 5: a library's page of trips; then what this export wrote, for the next: each
    /// folder's state (`ExportedTrip`), and the inputs with the output folder's listing, which
    /// tell the next run that nothing changed.
    private func record(_ layout: Layout, _ gathered: GatheredNotes, inputs: String, _ run: RunContext,
                        _ summary: inout ExportSummary) throws(GeoTripError) {
        let output = run.output
        if layout.library.isLibrary {
            var entries: [LibraryIndexPage.Entry] = []
            for part in layout.parts {
                guard let number = part.number else { continue }
                let exported = layout.exported[part.folder]
                // A trip not written yet (an export stopped) is counted from its outline.
                let media: MediaCount
                if let recorded = exported?.media { media = recorded } else { media = try catalog.mediaCount(of: part.trip, leavingOut: layout.privacy) }
                entries.append(LibraryIndexPage.Entry(number: number, folder: part.folder, trip: part.trip, cover: exported?.cover, media: media,
                                                      kilometres: ExportedTrip.distance(of: part.trip, outside: layout.privacy, exported: exported)))
            }
            _ = output.names(in: "", pages: Self.isOwnFile)  // takes away what a run stopped while writing here left
            let words = JournalWords(language: run.language)
            try put(LibraryIndexPage(entries: entries, words: words, language: run.language, privacy: layout.privacy).render(), at: Self.mapFile,
                    replacing: nil, output, run.now, &summary)
        }
        try catalog.saveExportedTrips(layout.exported)
        try recordBackups(summary.backups, output)
        // What stands (notes waiting, photos without a date...), for an unchanged rerun to say.
        try catalog.setJSONSetting(Catalog.SettingKey.standing, to: summary.standing, what: "what the export found")
        if gathered.notesLeftIn != nil { try catalog.removeSetting(Catalog.SettingKey.notesLeftIn) }
        let after = Self.listing(of: output.path, documentsOnly: true, leavingOut: folder)
        let asLeft = Self.isAsWritten(after.files, in: "", of: output, before: run.before.files, written: run.written)
        try catalog.setSetting(Catalog.SettingKey.exportedFor, to: inputs + "|" + (asLeft ? after.key : Self.editedMeanwhile))
        try catalog.setJSONSetting(Catalog.SettingKey.homesHidden, to: layout.homesHidden, what: "the homes kept private")
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
            // Any spot, however short its nights' span: the library's home may have been photographed
            // on a few nights only of the weeks left.
            var rules = TripSplitting.Rules()
            rules.homeSpanDays = nil
            return TripSplitting.homes(whole.days, rules: rules).flatMap(\.privateSpots)
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
            summary.forgettingFollowed = true
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
        /// The zones it is written with (`Layout.privacy(of:)`).
        var privacy: PrivacyZones
        /// `contentKey`'s fingerprint.
        var content: String
        /// Its journal when step 1 read it already; otherwise read when the part is written,
        /// unless `filesAsWritten`.
        var journal: Journal?
        /// Whether its folder's files are as its last export left them (the same listing), and
        /// that export said which pages it wrote (`pagesWritten`).
        var filesAsWritten: Bool
        /// Whether its folder's files are as its last export left them, `geotrip export` too
        /// (which renders every page, so `filesAsWritten` is false): then no page holds an
        /// edit, whatever notes the catalog moved since (`put`'s `asWritten`).
        var pagesUnedited = false
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
        /// The trip's photos and videos, as the page of trips and `trips` count them
        /// (`Catalog.mediaCount(of:leavingOut:)`): those outside visits (no position) too,
        /// which the layout's outline of a library lacks. Nil from a build that counted them
        /// together (in `photos`), whose rendering key differs.
        var photos: Int?
        var videos: Int?

        /// `photos` and `videos`, when both were recorded.
        var media: MediaCount? {
            guard let photos, let videos else { return nil }
            return MediaCount(photos: photos, videos: videos)
        }
        /// Its distance as its map measured it (`PartResult.routeKilometres`), with the
        /// visit-to-visit one that tells whether it still holds.
        var distance: MeasuredDistance?

        /// The cover with the visit it came from, when both are known.
        var coverWritten: CoverWritten? {
            guard let cover, let coverVisit else { return nil }
            return CoverWritten(visit: coverVisit, path: cover)
        }

        /// `trip`'s distance outside `zones` as the page of trips and `trips` give it: the one
        /// its map gave when this export wrote it, while its visits still make the distance from
        /// visit to visit measured with it; otherwise that (`Trip.distanceKilometres(outside:)`).
        /// A trip exported by an earlier build, or changed since (an export stopped before it
        /// was written), gives that one too.
        static func distance(of trip: Trip, outside zones: PrivacyZones, exported: ExportedTrip?) -> Double {
            let centres = trip.distanceKilometres(outside: zones)
            // The same visits, in the same order and outside the same zones, give the same
            // figure to the last bit: the sum is made alike each time.
            guard let measured = exported?.distance, measured.centres == centres else { return centres }
            return measured.route
        }
    }

    /// A trip's distance as its map gave it, in kilometres: along its route (a track log's
    /// where there is one, great circles elsewhere), flown legs too, cut by the privacy zones
    /// (`TripOverview.Shared.kilometres`); and from visit to visit outside those zones, the
    /// figure that tells whether its visits are still those it was measured for.
    struct MeasuredDistance: Codable, Equatable {
        var route: Double
        var centres: Double
    }

    /// The journal files of `folder` (relative to the output folder) read back.
    /// A journal folder read back; a day's page for which `withLinks` says so is read again
    /// with its photo links (`JournalDocument.init(bytes:links:)`).
    private func readJournal(in folder: String, _ output: OutputFolder, keptBackups: [String: String], _ summary: inout ExportSummary,
                             withLinks: ((JournalDocument) -> Bool)? = nil) -> Journal {
        let base = (folder.isEmpty ? "" : folder + "/") + Self.journalFolder
        var journal = Journal()
        let names = Self.journalNames(in: base, of: output, &summary)
        for name in names where Self.isDayFile(name) {
            if let document = read(base + "/" + name, output, &summary, withLinks: withLinks) { journal.days[String(name.prefix(10))] = document }
        }
        journal.unplaced = read(base + "/" + Self.unplacedNotesFile, output, &summary)
        // A page renamed by the person (`2025-06-10 Lisbon.md`, `2025-06-10.MD`), or put in a
        // folder inside the journal's, is not read: said when it holds words in geotrip's
        // blocks, which would otherwise seem taken in.
        for name in names.filter(Self.mayBeRenamedPage) + Self.pagesInSubfolders(of: base, output) {
            if case .success(let bytes?) = output.contents(of: base + "/" + name), JournalDocument(bytes: bytes).blocks.contains(where: \.hasWords) {
                summary.unreadPages.append(base + "/" + name)
            }
        }
        // So is a dated backup written in since geotrip kept it (opened from the summary's
        // sentence, and notes typed there): said when a block holds words its page does not.
        // Written in: its size or time is not what the export that kept it recorded
        // (`recordBackups`); one kept before geotrip recorded them, changed more than two
        // minutes after the time in its name.
        func writtenInSinceKept(_ name: String) -> Bool {
            guard let made = Self.backupMade(name), let stamp = output.stamp(of: base + "/" + name) else { return false }
            if let kept = keptBackups[base + "/" + name] { return kept != Self.stampText(stamp) }
            return Double(stamp.modifiedNanos) / 1e9 > made.timeIntervalSince1970 + 120
        }
        for name in names where writtenInSinceKept(name) {
            guard case .success(let bytes?) = output.contents(of: base + "/" + name) else { continue }
            let page = name.hasPrefix(Self.unplacedNotesFile.dropLast(3) + ".") ? journal.unplaced : journal.days[String(name.prefix(10))]
            if JournalDocument(bytes: bytes).blocks.contains(where: { $0.hasWords && page?.notes[$0.id] != $0.text }) {
                summary.unreadPages.append(base + "/" + name)
            }
        }
        return journal
    }

    /// The dated backups the exports kept, with their size and time then (`stampText`), by
    /// path in the output folder.
    static func keptBackups(_ catalog: Catalog) throws(GeoTripError) -> [String: String] {
        try catalog.jsonSetting(Catalog.SettingKey.keptBackups, as: [String: String].self) ?? [:]
    }

    /// The dated backups kept in the output folder at `outputFolder` that are still there
    /// (relative paths, sorted), for a run that added a privacy zone (`backupsBeforeZones`).
    static func backupsStillKept(_ catalog: Catalog, outputFolder: String) throws(GeoTripError) -> [String] {
        try keptBackups(catalog).keys.filter { FileManager.default.fileExists(atPath: outputFolder + "/" + $0) }.sorted()
    }

    /// Sets `summary.homeAutoNotFound` when `--home auto` was given (`home` `.some(nil)`) for a
    /// folder that is one trip and has no home kept private (found now, or by an earlier export).
    static func sayHomeNotFound(given home: Coordinate??, _ catalog: Catalog, _ summary: inout ExportSummary) {
        if case .some(.none) = home, summary.trips == 0, catalog.keptHomesIfReadable().isEmpty { summary.homeAutoNotFound = true }
    }

    /// Fills `summary.backupsBeforeZones` when this run added a zone: `report`'s (`--hide-near`)
    /// or a home newly hidden (`homesNewlyHidden`).
    static func listBackups(_ catalog: Catalog, _ summary: inout ExportSummary, zonesAdded report: PrivacyZones.Report?) throws(GeoTripError) {
        guard report?.added.isEmpty == false || summary.homesNewlyHidden else { return }
        summary.backupsBeforeZones = try backupsStillKept(catalog, outputFolder: summary.outputFolder)
    }

    /// A file's size and modification time, as `keptBackups` records them.
    static func stampText(_ stamp: FileStamp) -> String { "\(stamp.size):\(stamp.modifiedNanos)" }

    /// Records the backups this run kept (`backups`) with their size and time, beside those
    /// earlier runs kept that are still there (as recorded then, so a later edit still shows).
    func recordBackups(_ backups: [String], _ output: OutputFolder) throws(GeoTripError) {
        let before = try Self.keptBackups(catalog)
        var kept = before.filter { output.stamp(of: $0.key) != nil }
        for backup in backups { if let stamp = output.stamp(of: backup) { kept[backup] = Self.stampText(stamp) } }
        guard kept != before else { return }
        try catalog.setJSONSetting(Catalog.SettingKey.keptBackups, to: kept, what: "the record of the backups kept")
    }

    /// When the dated backup `name` was made, from its name (`2025-06-10.edited-20250701-093000.md`,
    /// or `…-093000-2.md`: UTC, `OutputFolder.unusedName`); nil for any other name.
    static func backupMade(_ name: String) -> Date? {
        guard name.hasSuffix(".md"), let range = name.range(of: ".edited-", options: .backwards) else { return nil }
        let stamp = name[range.upperBound...].dropLast(3).prefix(15)
        guard stamp.count == 15, stamp.utf8.enumerated().allSatisfy({ $0.offset == 8 ? $0.element == UInt8(ascii: "-") : ASCIIDigits.isDigit($0.element) })
        else { return nil }
        let digits = Array(stamp.utf8)
        func number(_ range: Range<Int>) -> String { String(decoding: digits[range], as: UTF8.self) }
        return UTCTimestamp.date("\(number(0..<4))-\(number(4..<6))-\(number(6..<8))T\(number(9..<11)):\(number(11..<13)):\(number(13..<15))Z")
    }

    /// A Markdown file in a journal folder that is none of geotrip's pages or backups: `.md`
    /// or `.markdown` in any case (`2025-06-13.MD` is no page of geotrip's).
    static func mayBeRenamedPage(_ name: String) -> Bool {
        let lower = name.lowercased()
        return (lower.hasSuffix(".md") || lower.hasSuffix(".markdown")) && !isDayFile(name) && name != unplacedNotesFile
            && name != undatedPhotosFile && !name.hasPrefix("replaced-notes-") && !name.contains(".edited-")
    }

    /// The Markdown files in the folders inside the journal folder `base` (`journal/old/…`),
    /// paths relative to it: none is read, whatever its name.
    static func pagesInSubfolders(of base: String, _ output: OutputFolder) -> [String] {
        let root = output.url(base).path
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        var pages: [String] = []
        while let path = walk.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") { walk.skipDescendants(); continue }
            // geotrip's own backups moved there are no pages of the person's.
            if path.contains("/"), mayBeRenamedPage(name) || isDayFile(name) { pages.append(path) }
        }
        return pages.sorted()
    }

}

/// The first error a catalog read made while `JournalNotes` asked for visits' photos, which
/// its non-throwing lookups cannot throw (`ExportStage.gatherNotes` throws it afterwards).
private final class LookupFailure {
    var error: GeoTripError?
}
