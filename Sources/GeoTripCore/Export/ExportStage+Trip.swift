import Foundation

/// One trip's folder of an export (`ExportStage.writeTrips`): what it renders and from what
/// (`plan`), its day keys, writing it (`exportPart`), and the keys that tell whether it changed.
extension ExportStage {
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
        /// `ExportedTrip.photos` and `videos` for the part.
        var media: MediaCount
        /// `MeasuredDistance.route` for the part: its map's kilometres.
        var routeKilometres: Double
    }

    /// What every part of one export is written with.
    struct PartContext: Sendable {
        /// The part's journal as read back; nil when its files are as its last export left them.
        var journal: Journal?
        /// The run's first listing of the output folder.
        var listed: [String: FileStamp]
        var checkEverything: Bool
        var notes: [String: String]
        /// `GatheredNotes.keptElsewhere`: words a page may hold that replacing it drops nothing of.
        var keptElsewhere: [String: Set<String>] = [:]
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
        /// A folder that is one trip: the kilometres of its route before the zones cut it
        /// (`TripOverview.Shared.routeCut`).
        var kilometresBeforeZones: Double?
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
    func plan(_ item: ChangedPart, _ root: OutputFolder, _ context: PartContext) throws(GeoTripError) -> PartPlan {
        let part = item.part
        let prefix = part.folder.isEmpty ? "" : part.folder + "/"
        let previousMap = try? root.contents(of: prefix + Self.mapFile).get()
        func route(_ trip: Trip) -> TripRoute {
            TripRoute(visits: trip.visitsInTravelOrder, track: Array(Self.track(context.track, during: trip))).hiding(context.privacy)
        }
        func whole() throws(GeoTripError) -> TripContents { try Self.contents(of: part, from: catalog, rule: context.rule) }
        guard part.number != nil, let window = part.window else {
            let contents = try whole()
            // Made once, for the map and for the summary's figures (a long track log's route
            // takes a while).
            let full = TripRoute(visits: contents.trip.visitsInTravelOrder, track: Array(Self.track(context.track, during: contents.trip)))
            return PartPlan(contents: contents, days: nil, dayKeys: [:], route: full.hiding(context.privacy),
                            kilometresBeforeZones: TripOverview.Shared.kilometres(full.legs), previousMap: previousMap, keptThumbnails: [])
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
            return PartPlan(contents: contents, days: nil, dayKeys: keys, route: route(contents.trip), kilometresBeforeZones: nil, previousMap: previousMap,
                            keptThumbnails: [])
        }
        var days = Set(outline.days.filter { keys[$0.date] != item.dayKeysWritten[$0.date] || item.pagesWritten[$0.date] == nil }.map(\.date))
        var page = TripMapPage(input: mapInput(outline, route: outlineRoute, byPath: PhotosByPath(), thumbnails: [:], rawNames: [:], part: part,
                                               output: item.output, context))
        page.dayKeys = keys
        days.formUnion(Set(outline.days.map(\.date)).subtracting(page.reusableDays(in: previousMap)))

        let rendered = outline.days.filter { days.contains($0.date) }
        let unrendered = outline.days.filter { !days.contains($0.date) }
        let rows = try catalog.tripPhotos(ofVisits: rendered.flatMap(\.visits).map(\.id),
                                          ids: rendered.flatMap { state.unplaced[$0.date]?.map(\.id) ?? [] })
        let kept = Set(try catalog.photoIDs(ofVisits: unrendered.flatMap(\.visits).map(\.id)))
        let trip = outline.withVisitPhotos(from: rows, onDays: days)
        var shown = trip
        shown.days = trip.days.filter { days.contains($0.date) }
        return PartPlan(contents: TripContents(trip: trip, photos: Self.photos(of: shown, in: PhotoIndex(rows))), days: days, dayKeys: keys,
                        route: outlineRoute, kilometresBeforeZones: nil, previousMap: previousMap, keptThumbnails: kept)
    }

    /// What every day key of a part's days holds besides the day: the run's rendering inputs
    /// (`renderingKey` and the `geotrip tag` command, `inputs`), the privacy zones, the links
    /// from the part's journal and map to the photos, and how thumbnails are named.
    private func dayGlobals(_ partOutput: OutputFolder, _ context: PartContext) -> String {
        var key = KeyBytes()
        key.add(context.rendering)
        key.add(Int64(context.privacy.zones.count))
        for zone in context.privacy.zones { key.add(zone.text) }
        key.add(tripFolderLink(from: partOutput.url(Self.journalFolder).path))
        key.add(tripFolderLink(from: partOutput.path))
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
    func exportPart(_ item: ChangedPart, plan: PartPlan, of root: OutputFolder, _ c: PartContext) async throws(GeoTripError) -> PartResult {
        let part = item.part, partOutput = item.output, journal = c.journal, pagesWritten = item.pagesWritten
        let privacy = c.privacy, notes = c.notes, listed = c.listed, now = c.now, keptElsewhere = c.keptElsewhere
        var summary = ExportSummary()
        try partOutput.create(Self.journalFolder)
        _ = partOutput.names(in: "", pages: Self.isOwnFile)  // takes away what a run stopped while writing here left
        let trip = plan.contents.trip, photos = plan.contents.photos, route = plan.route
        if let before = plan.kilometresBeforeZones {
            summary.shared = TripOverview.Shared(trip: trip, privacy: privacy, route: route, kilometresBeforeZones: before)
        }
        // The GeoJSON needs no thumbnail: it is put together on another core from the start.
        async let geoJSON = GeoJSONDocument(visits: trip.visits, route: route, photos: c.settings.photoPoints ? photos : [], notes: notes,
                                            privacy: privacy).text()
        // A library trip's thumbnails, thousands for a few changed days, are found by one read
        // of its folder; a single trip's, and every one by `geotrip export`, are each looked at.
        // Those of the days not rendered stay as they are. Only a visit's photos have one: the
        // journal lists the others by name (`JournalRenderer.photoLine`), and a thumbnail no
        // page shows would travel unseen with a folder shared as it is.
        let thumbnailed = photos.filter { $0.visitID != nil && !privacy.hides($0) }
        let made = try await (c.settings.thumbnails ? thumbnails : NoThumbnails())
            .thumbnails(for: thumbnailed, in: partOutput.path, checkingEach: c.checkEverything || part.number == nil, keepingAlso: plan.keptThumbnails)
        summary.thumbnails = made.made
        summary.problems = made.problems
        if c.settings.thumbnails {
            try await remakeGoneThumbnails(made.missingAmongKept, kept: plan.keptThumbnails, keeping: thumbnailed, in: partOutput, privacy: privacy,
                                           &summary)
        } else {
            // Without thumbnails, those an earlier run made are no output's: geotrip's own go,
            // and their folder once empty.
            ThumbnailMaker(tripFolder: URL(fileURLWithPath: folder), outputFolder: partOutput.url("")).removeStale(keeping: [])
            rmdir(partOutput.url(ThumbnailMaker.folderName).path)
        }
        let prefix = part.folder.isEmpty ? "" : part.folder + "/"
        // Made once for the days, the map and the cover: a library trip's thousands of paths.
        let byPath = PhotosByPath(photos)

        let context = JournalRenderer.Context(
            notes: notes, photos: byPath,
            livePhotoVideos: Dictionary(photos.compactMap { video in video.liveStillID.map { ($0, video.path) } },
                                        uniquingKeysWith: { first, _ in first }),
            privacy: privacy, thumbnails: made.paths, tripFolderLink: tripFolderLink(from: partOutput.url(Self.journalFolder).path),
            tagCommand: tagCommand(), rawNames: Self.rawNames(photos.lazy.map(\.path), in: RealPath.of(folder)))
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
            // Pages as the last export left them (their folder's listing as it recorded) hold no
            // edit, though their notes moved on since: a run stopped after moving notes with
            // their photos, before writing their pages, leaves such pages.
            let put = try put(text, at: path, replacing: file(of: day.date), keeping: notes, keptElsewhere: keptElsewhere, asWritten: item.pagesUnedited,
                              root, now, &summary, listed: listed)
            summary.dayPagesRendered += 1
            // A file refused (a link) holds no page of geotrip's: it is tried, and told, again;
            // so is one left as a person saved it meanwhile.
            if put && !summary.refused.contains(path) { pagesNow[day.date] = Self.pageWritten(page.fingerprint, text: text) }
        }
        for date in (journal.map { Array($0.days.keys) } ?? Array(pagesWritten.keys)).sorted() where !days.contains(date) {
            try retire(journalPath + date + ".md", document: file(of: date), keeping: notes, keptElsewhere: keptElsewhere, asWritten: item.pagesUnedited,
                       root, now, &summary, listed: listed)
        }
        try put(await geoJSON, at: prefix + Self.geoJSONFile, replacing: nil, root, now, &summary)
        try put(await map, at: prefix + Self.mapFile, replacing: nil, root, now, &summary)
        // The last export's cover, relative to this folder as the thumbnails' paths are.
        let kept = item.coverWritten.flatMap { written in
            written.path.hasPrefix(prefix) ? CoverWritten(visit: written.visit, path: String(written.path.dropFirst(prefix.count))) : nil
        }
        let cover = c.settings.thumbnails
            ? try await cover(of: trip, byPath: byPath, made: made, plan: plan, kept: kept, visible: thumbnailed, in: partOutput, privacy: privacy, &summary)
            : nil
        return PartResult(cover: cover.map { prefix + $0.path }, coverVisit: cover?.visit, summary: summary, days: pagesNow, dayKeys: plan.dayKeys,
                          media: try catalog.mediaCount(of: trip, leavingOut: privacy),
                          routeKilometres: summary.shared.map { $0.groundKilometres + $0.flownKilometres } ?? TripOverview.Shared.kilometres(route.legs))
    }

    /// The map page's input for `trip` of `part`, its media from `byPath` and `thumbnails`.
    private func mapInput(_ trip: Trip, route: TripRoute, byPath: PhotosByPath, thumbnails: [Int64: String],
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
    func retireJournal(_ journal: Journal, in folder: String, keeping notes: [String: String], keptElsewhere: [String: Set<String>] = [:],
                               _ output: OutputFolder, _ now: Date,
                               _ summary: inout ExportSummary, listed: [String: FileStamp]) throws(GeoTripError) {
        let prefix = folder.isEmpty ? "" : folder + "/"
        for (date, document) in journal.days.sorted(by: { $0.key < $1.key }) {
            try retire(prefix + Self.journalFolder + "/" + date + ".md", document: document, keeping: notes, keptElsewhere: keptElsewhere, output, now, &summary, listed: listed)
        }
        // The output folder's own unplaced notes page stays: step 3 keeps it.
        guard !folder.isEmpty else {
            try output.remove(Self.geoJSONFile)
            ThumbnailMaker(tripFolder: URL(fileURLWithPath: self.folder), outputFolder: output.url("")).removeStale(keeping: [])
            rmdir(output.url(ThumbnailMaker.folderName).path)  // only when empty, as below
            return
        }
        if let unplaced = journal.unplaced {
            try retire(prefix + Self.journalFolder + "/" + Self.unplacedNotesFile, document: unplaced, keeping: notes, keptElsewhere: keptElsewhere, output, now, &summary, listed: listed)
        }
        try output.remove(prefix + Self.geoJSONFile)
        try output.remove(prefix + Self.mapFile)
        ThumbnailMaker(tripFolder: URL(fileURLWithPath: self.folder), outputFolder: output.url(folder)).removeStale(keeping: [])
        for empty in [prefix + ThumbnailMaker.folderName, prefix + Self.journalFolder, folder] {
            rmdir(output.url(empty).path)  // only when empty: a backup or a person's file keeps it
        }
        // What keeps it is said, unless said already: no page links to this folder any more.
        // (Listed by the scan's own walk, which passes over hidden names; a folder it cannot
        // list names nothing here, and stays as it is.)
        let said = Set(summary.backups + summary.unreadPages + summary.refused)
        var scanner = FolderScanner(root: output.url(folder).path)
        scanner.collectsLinks = true
        if let listing = try? scanner.scan() {
            summary.leftInFormerTrips += (listing.files.map(\.relativePath) + listing.links).map { prefix + $0 }.filter { !said.contains($0) }.sorted()
        }
    }

    /// A part as it is rendered: its trip with every visit's photos and every day's unplaced
    /// photos, and the photos it shows (`photos(of:in:)`), read from `catalog` for its
    /// window alone.
    static func contents(of part: Part, from catalog: Catalog, rule: LocalDayRule) throws(GeoTripError) -> TripContents {
        guard let window = part.window else {
            let rows = try catalog.tripPhotos()
            // Read again with its photos outside visits and local times; its visits as `part`
            // shares them, on their zones' clocks too (the outline they were shared from has none).
            let trip = try catalog.trip(photoPaths: false).sharingVisits(as: part.trip.sharedVisits).withLocalTimes()
            return TripContents(trip: trip.withVisitPhotos(from: rows), photos: rows)
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
        chosen += trip.days.flatMap(\.unplacedPhotos).compactMap { index.unplaced[PathKey($0)] }
        chosen += chosen.flatMap { index.liveVideos[$0.id] ?? [] }
        // In the catalog's order, as a whole folder's are.
        return chosen.sorted { index.order[$0.id, default: 0] < index.order[$1.id, default: 0] }
    }

    /// Photos grouped by what a trip takes them for: its visits, its days, its stills' videos.
    struct PhotoIndex {
        var byVisit: [String: [TripPhoto]] = [:]
        /// By path, byte for byte (`PhotosByPath`).
        var unplaced: [PathKey: TripPhoto] = [:]
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
                    unplaced[PathKey(photo.path)] = photo
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
    private func cover(of trip: Trip, byPath: PhotosByPath, made: Thumbnails, plan: PartPlan, kept: CoverWritten?,
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
                    .filter { $0.visitID == visit.id && !privacy.hides($0) }
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
        let photos = try catalog.tripPhotos(ofVisits: [], ids: Array(gone)).filter { !privacy.hides($0) }
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
    /// (outputs an earlier build wrote could give a home away). 8: the map shows notes' Markdown
    /// formatted (`NoteMarkup`), and its script's data no longer holds them. 9: the map stays
    /// in view on a phone, is cut where the trip never goes (`TripMapPage.seam`), and draws a
    /// leg of 2,000 km or more as a flight. 10: the map for keyboards and screen readers
    /// (thumbnails named, markers as buttons, focus shown, numbers in a colour that contrasts),
    /// and no photo taken inside a zone is linked from the map, nor is a photo placed beside
    /// one a point in the GeoJSON (outputs an earlier build wrote could show them). 11: markers
    /// that would overlap are grouped (Leaflet.markercluster), visits on one spot fan out, and
    /// the legs' casings lie under every leg. 12: a group's rings and a fan's legs follow the
    /// system into dark and back, and a drag, the wheel or the map's keys end a visit's reveal.
    /// 13: no thumbnail of a photo without a position (none showed it, and it travelled with a
    /// folder shared as it is), and the page of trips counts such photos (`ExportedTrip.photos`,
    /// recorded as each trip is written). 14: the page of trips and `trips` give each trip's
    /// distance as its map does, along a track log (`ExportedTrip.distance`, recorded as each
    /// trip is written). 15: a map's group of one visit and its videos shows the visit's number;
    /// a town visited is named beside its dot when its label would cover a marker, and no
    /// town's label covers a leg's arrow; a control character in a name on a journal page is
    /// U+FFFD, a tab a space. 16: the page of trips and `trips` say a trip's videos apart from
    /// its photos, and count none of a visit inside a privacy zone, as its map does
    /// (`ExportedTrip.videos`, recorded as each trip is written); a day page's front matter
    /// counts the photos its visits count (none taken inside a zone); a visit's "+22" on the map
    /// links to its day's journal page, which lists them all; a visit's times in the journal
    /// and on the map are those of the photos shown (none taken inside a zone). 17: so are its
    /// times, point and count in the GeoJSON, and its point everywhere (`TripVisit.shared`);
    /// a visit whose every photo lies inside zones is private; the map's day buttons say what
    /// they show to a screen reader. 18: such a visit's times in a single trip's journal are on
    /// its zone's clock, not UTC. 19: a visit shown whose place's centre lies inside a zone is
    /// named as the gazetteer names the place, never by the person's or the service's name.
    /// 20: the map of a day with nothing on it shows the trip, not the world, and says so in the
    /// timeline; a map with nothing on it says why; no coast drawn along Antarctica's cut.
    /// 21: a note's HTML comments are left out of the map and the GeoJSON; no line of one
    /// point (a leg between visits on one spot, a stub cut at the seam) in either. 22: the
    /// export records how many notes wait and how many photos have no date, which an unchanged
    /// rerun says. 23: a track's leg to or from a private visit is left out whole, as others
    /// are (it ended near the house, and its length told the distance from home).
    static let outputRevision = 23

    /// Bumped when a library's page of trips alone changes: in the export's inputs only, so
    /// the first run after the upgrade writes the page again and no trip. 2: a trip's distance
    /// leaves out the legs to and from private places, as its map does. 3: nor its countries
    /// and places a private visit's, and the years run to the last trip's last day. 4: the
    /// cover, a second link to the map, is out of the keyboard's way; the credit contrasts 5.5:1.
    /// 5: a trip's journal link opens its first day's page, not the bare folder.
    static let indexPageRevision = 5
}
