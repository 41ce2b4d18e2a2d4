import GeoTripCore

/// The human-readable end-of-run summary of `geotrip ingest`.
enum SummaryText {
    static func render(_ s: IngestSummary, folder: String) -> String {
        var lines = [
            "Ingested \(folder.terminalSafe) in \(String(format: "%.2f", s.seconds)) s: \(plural(s.scanned, "file")) scanned",
            "  \(n(s.new)) new\(s.returned > 0 ? " (\(n(s.returned)) back)" : ""), \(n(s.changed)) changed, \(n(s.unchanged)) unchanged, \(n(s.moved)) moved, \(n(s.removed)) removed",
            "  \(media(s)): \(n(s.withGPS)) with GPS, \(n(s.withoutGPS)) without; "
                + "\(n(s.skipped)) skipped, \(plural(s.errors, "error"))",
        ]
        if let r = s.resolution {
            func list(_ counts: [String: Int]) -> String {
                guard !counts.isEmpty else { return "none" }
                // Largest first; equal counts by name, so the line reads the same on every run.
                return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\(n($0.value)) \($0.key)" }.joined(separator: ", ")
            }
            lines.append("  times: \(list(r.timeSources)); positions: \(list(r.locationSources))" + trackPoints(r))
        }
        if let trip = s.trip, let line = tripLine(trip, trips: s.export?.trips ?? 0) { lines.append(line) }
        if s.reclusteredByNewRules {
            lines.append("  visits and places made again from every photo: this geotrip groups them by newer rules (README, Visits and places)")
        }
        if let line = namingLine(s.named) { lines.append(line) }
        lines += manualNameLines(s.manualNames)
        if s.sidecarsWritten > 0 { lines.append("  \(plural(s.sidecarsWritten, "XMP sidecar")) written") }
        if let export = s.export { lines += exportLines(export) }
        // By kind, problems first, so one damaged file is not buried under thousands of notes.
        for severity in [DiagnosticSeverity.problem, .note] {
            let kinds = s.diagnosticKinds.filter { $0.severity == severity }
            guard !kinds.isEmpty else { continue }
            let count = kinds.map(\.count).reduce(0, +)
            lines.append(severity == .problem ? "\(plural(count, "problem")):" : "\(plural(count, "note")):")
            for kind in kinds {
                let examples = kind.examples.map(\.terminalSafe).joined(separator: ", ") + (kind.count > kind.examples.count ? ", …" : "")
                let subject = kind.kind == .folder || kind.kind == .input ? "" : (kind.count == 1 ? "1 file: " : "\(kind.count.grouped) files: ")
                // A single one is shown with its own sentence; more are summed up by their label.
                if kind.count == 1, let only = s.diagnostics.first(where: { $0.kind == kind.kind }) {
                    lines.append("  \(only.path.terminalSafe): \(only.message.terminalSafe)")
                } else if kind.kind == .naming {
                    lines += namingProblemLines(s.diagnostics.filter { $0.kind == .naming }, label: kind.label)
                } else if kind.kind == .folder || kind.kind == .namingSlow {
                    // Each is told of the folder scanned: its sentence names what, so the first
                    // few are shown whole rather than the folder's path again and again.
                    // So are the place-name service's, each of a place, not of a file.
                    for one in s.diagnostics.lazy.filter({ $0.kind == kind.kind }).prefix(3) {
                        lines.append("  \(one.path.terminalSafe): \(one.message.terminalSafe)")
                    }
                    if kind.count > 3 {
                        lines.append("  … and \(n(kind.count - 3)) more " + (kind.kind == .folder ? "that \(kind.label)" : "(\(kind.label))"))
                    }
                } else {
                    lines.append("  \(subject)\(kind.label) (\(examples))")
                }
            }
        }
        // Only the photos' own sentences are kept with them; the others were all said above.
        let notOfPhotos: Set<DiagnosticKind> = [.folder, .input, .naming, .namingSlow, .output]
        if s.diagnosticKinds.contains(where: { !notOfPhotos.contains($0.kind) }) {
            lines.append("  `geotrip photos \(folder.terminalSafe) --json` lists every photo's own sentences")
        }
        if s.skipped > 0 {
            lines.append("  `geotrip photos \(folder.terminalSafe) --skipped` lists the \(plural(s.skipped, "file")) skipped, and why")
        }
        lines.append("Catalog: \(s.catalog.terminalSafe)" + (s.catalogFollowedFrom.map { " (\(Catalog.followedWords(from: $0, to: folder).terminalSafe))" } ?? ""))
        return lines.joined(separator: "\n")
    }

    /// The names given with `rename` that went with their spots to other places, and those
    /// whose place is gone, with the command that lets one go.
    static func manualNameLines(_ moves: [ManualNames.Move]) -> [String] {
        moves.map { move in
            let name = "\"\(move.name.terminalSafe)\""
            if let away = move.awayMetres {
                let distance = away >= 1000 ? "\(n(Int((away / 1000).rounded()))) km" : "\(n(Int(away))) m"
                return "  \(name), the name you gave \(move.from), stays with it, though its place is now \(distance) from where you gave the name"
                    + (move.nearest.map { " (\($0) is nearer)" } ?? "")
                    + (move.clearCommand.map { "; `\($0.terminalSafe)` lets it go" } ?? "")
            }
            if let to = move.to {
                return "  \(name), the name you gave \(move.from), went with its spot to \(to) (visits merged or split)"
            }
            return "  \(name), the name you gave \(move.from), has no place now" + (move.nearest.map { " (the place nearest its spot is \($0))" } ?? "")
                + "; it comes back with its place" + (move.clearCommand.map { ", or `\($0.terminalSafe)` lets it go" } ?? "")
        }
    }

    /// `Catalog.followedWords` as a line of its own (`geotrip export`, `tag`).
    static func followed(_ former: String, folder: String) -> String {
        "  catalog: " + Catalog.followedWords(from: former, to: folder).terminalSafe
    }

    /// `  trip: 5 days (2025-06-10 to 2025-06-14), 13 visits at 11 places in 2 countries (ES, PT), 785 km`,
    /// with the map's figures after it when privacy zones leave visits or route out of them;
    /// for a folder exported as `trips` trips (a library), `  library: 12 trips, …` without a
    /// distance (the whole folder's would count every way home and back).
    static func tripLine(_ trip: TripOverview, trips: Int = 0) -> String? {
        guard let first = trip.days.first, let last = trip.days.last else { return nil }
        let countries = trip.countries.count == 1 ? "1 country" : "\(n(trip.countries.count)) countries"
        let visits = "\(plural(trip.visits, "visit")) at \(plural(trip.places, "place")) in \(countries) (\(trip.countries.joined(separator: ", ")))"
        if trips > 0 {
            return "  library: \(first) to \(last), \(plural(trips, "trip")) (`geotrip trips` lists them), \(visits) in all"
        }
        // Dated photos, none placed: no visits to count.
        guard trip.visits > 0 else { return "  trip: \(plural(trip.calendarDays, "day")) (\(first) to \(last)), no photo with a position" }
        let line = "  trip: \(plural(trip.calendarDays, "day")) (\(first) to \(last)), \(visits), \(n(Int(trip.distanceKilometres.rounded()))) km"
        // The map and GeoJSON leave out what lies inside privacy zones: said, so their figures
        // do not read as another trip's.
        guard let shared = trip.shared, shared.hiddenVisits > 0 || shared.routeCut else { return line }
        let left = shared.hiddenVisits > 0 ? "\(plural(shared.hiddenVisits, "visit")) inside privacy zones left out" : "the route inside privacy zones left out"
        // The map gives the ground and the flown distances apart: both, when there is a flight.
        let ground = Int(shared.groundKilometres.rounded()), flown = Int(shared.flownKilometres.rounded())
        let distance = flown > 0 ? "\(n(ground)) km on the ground and \(n(flown)) km flown" : "\(n(ground)) km"
        return line + "; on the map and in the GeoJSON, \(left): \(plural(shared.visits, "visit")) at \(plural(shared.places, "place")), " + distance
    }

    /// `  export: 7 written, 0 unchanged, 0 thumbnails (/trips/lisbon/geotrip)`, then what needs the person's eye.
    /// `standing`: whether to say what stands from earlier runs (photos without a date), as
    /// `ingest` and `export` do; `tag` and `rename` say only what they did.
    static func exportLines(_ e: ExportSummary, standing: Bool = true) -> [String] {
        var lines = ["  export: " + (e.trips > 0 ? "\(plural(e.trips, "trip")) in trips/, " : "") + "\(n(e.written)) written, \(n(e.unchanged)) unchanged, \(plural(e.thumbnails, "thumbnail"))"
            + (e.removed > 0 ? ", \(n(e.removed)) removed" : "") + " (\(e.outputFolder.terminalSafe))"]
        if let change = e.privacyChange {
            // Said whenever the zones change, so a zone given to replace another is seen to add to it.
            func zones(_ list: [PrivacyZones.Zone]) -> String {
                list.map { String(format: "%.4f, %.4f", $0.centre.latitude, $0.centre.longitude) + " (\(n(Int($0.radiusMeters.rounded()))) m)" }
                    .joined(separator: "; ")
            }
            if !change.added.isEmpty {
                lines.append("  kept private from now on (--hide-near): \(zones(change.added)); \(plural(change.count, "zone")) in all"
                    + " (`--hide-near none` forgets them)")
            }
            if !change.forgotten.isEmpty {
                lines.append("  no longer kept private, as asked (--hide-near): \(zones(change.forgotten)); what lies there is shown again")
            }
        }
        if !e.backupsBeforeZones.isEmpty {
            // Copies of pages as the person left them are never rewritten: they may show the new
            // zone (`--hide-near`'s, or a home newly kept private).
            let one = e.backupsBeforeZones.count == 1
            let zone = [e.privacyChange?.added.isEmpty == false ? "the new zone" : nil, e.homesNewlyHidden ? "the home kept private from now on" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            lines.append("  \(one ? "1 dated copy of a journal page" : "\(n(e.backupsBeforeZones.count)) dated copies of journal pages") may still show "
                + "what lies inside \(zone) (coordinates, photos): geotrip never rewrites such copies, so look at \(one ? "it" : "them") "
                + "before you share the folder: " + e.backupsBeforeZones.map(\.terminalSafe).joined(separator: ", "))
        }
        if !e.forgottenHomes.isEmpty {
            lines.append("  no longer kept private, as asked (--forget-old-homes): \(plural(e.forgottenHomes.count, "earlier home")) that "
                + "\(e.forgottenHomes.count == 1 ? "is" : "are") no home now, at "
                + e.forgottenHomes.map { String(format: "%.4f, %.4f", $0.latitude, $0.longitude) }.joined(separator: "; "))
        } else if e.forgettingFollowed {
            lines.append("  --forget-old-homes: no place is kept private as an earlier home that is not a home now; nothing was forgotten")
        }
        if !e.backups.isEmpty {
            lines.append("  \(plural(e.backups.count, "journal file")) had been edited outside the notes blocks, or held words "
                + "that are not the notes kept, and \(e.backups.count == 1 ? "was" : "were") kept as \(e.backups.map(\.terminalSafe).joined(separator: ", "))")
        }
        if !e.unreadPages.isEmpty {
            lines.append("  not read, as geotrip reads only the pages it names (journal/YYYY-MM-DD.md): the notes in "
                + e.unreadPages.map(\.terminalSafe).joined(separator: ", ") + ". Copy them into the blocks of the day's page")
        }
        for unread in e.unreadBlocks {
            lines.append("  in \(unread.backup.terminalSafe), the notes of \(unread.ids.joined(separator: ", ").terminalSafe) were not read, or not all: "
                + "\(unread.ids.count == 1 ? "a line marking its block was" : "lines marking their blocks were") changed, deleted or repeated "
                + "(of a block repeated, the first copy was read). Copy what they say into the new page's blocks")
        }
        for over in e.headingsWrittenOver.prefix(5) {
            lines.append("  in \(over.backup.terminalSafe), the heading of \(over.visit) was written over (\"\(over.heading.terminalSafe)\"), "
                + "and geotrip writes headings anew on every run"
                + (over.renameCommand.map { ". To give its place that name: \($0.terminalSafe)" } ?? "")
                + ". Words about the visit go in its notes block")
        }
        // Lists of which a sentence names the first five.
        func more(_ count: Int) -> String { count > 5 ? ", and \(n(count - 5)) more (--json lists them)" : "" }
        if !e.leftInFormerTrips.isEmpty {
            let shown = e.leftInFormerTrips.prefix(5).map(\.terminalSafe).joined(separator: ", ")
            lines.append("  \(plural(e.leftInFormerTrips.count, "file")) geotrip did not write \(e.leftInFormerTrips.count == 1 ? "stays" : "stay") "
                + "in a folder that is no trip now, and nothing links to it: \(shown)\(more(e.leftInFormerTrips.count)). "
                + "Move \(e.leftInFormerTrips.count == 1 ? "it" : "them") where you keep them")
        }
        if let former = e.formerOutputFolder {
            lines.append("  the outputs moved here from \(former.terminalSafe): its notes came along. That folder is left as it is, "
                + "and what is written there from now on is not read")
        }
        if let replaced = e.replacedNotes {
            lines.append("  \(plural(e.replacedNoteCount, "note")) written differently in two copies (the latest edit counts): "
                + "the words outranked are kept in \(replaced.terminalSafe)")
        }
        if !e.rescued.isEmpty {
            lines.append("  \(plural(e.rescued.count, "page")) saved while a stopped run was writing \(e.rescued.count == 1 ? "was" : "were") "
                + "found under a hidden name, and \(e.rescued.count == 1 ? "is" : "are") now \(e.rescued.map(\.terminalSafe).joined(separator: ", "))")
        }
        let followed = e.movedNotes.filter { $0.from != nil && !$0.writtenElsewhere && !$0.isDayNote }, back = e.movedNotes.filter { $0.from == nil }
        // A day's own note goes with its day's photos (a camera's clock put right by a day).
        let daysFollowed = e.movedNotes.filter { $0.from != nil && $0.isDayNote }
        let putBack = e.movedNotes.filter { $0.from != nil && $0.writtenElsewhere }
        if !putBack.isEmpty {
            let each = putBack.prefix(5).map { "\($0.visit) from \($0.from ?? "") to \($0.to)" }
            lines.append("  \(plural(putBack.count, "note")) written on another day's page than \(putBack.count == 1 ? "its visit's" : "their visits'") "
                + "went to \(putBack.count == 1 ? "its visit's page" : "their visits' pages"): " + each.joined(separator: ", ") + more(putBack.count))
        }
        if !followed.isEmpty {
            let each = followed.prefix(5).map { "\($0.visit) from \($0.from ?? "") to \($0.to)" }
            lines.append("  \(plural(followed.count, "note")) followed \(followed.count == 1 ? "its visit" : "their visits") to another day's page: "
                + each.joined(separator: ", ") + more(followed.count))
        }
        if !daysFollowed.isEmpty {
            let each = daysFollowed.prefix(5).map { "the note of the day \($0.visit) to \($0.to)" }
            lines.append("  \(n(daysFollowed.count)) \(daysFollowed.count == 1 ? "day's note" : "days' notes") followed \(daysFollowed.count == 1 ? "its day's" : "their days'") "
                + "photos to another day: " + each.joined(separator: ", ") + more(daysFollowed.count))
        }
        if !back.isEmpty {
            // A day's own note is named by its day, which is also the page it went back to
            // unless it followed its photos to another.
            let each = back.prefix(5).map { !$0.isDayNote ? "\($0.visit) to \($0.to)"
                : $0.visit == $0.to ? "the note of the day \($0.to)" : "the note of the day \($0.visit) to \($0.to)" }
            lines.append("  \(plural(back.count, "note")) came back from journal/unplaced-notes.md to \(back.count == 1 ? "its day's page" : "their days' pages"): "
                + each.joined(separator: ", ") + more(back.count))
        }
        // Notes found under an id that names another visit now: those put with the visit
        // holding their photos, then those waiting apart, each in a sentence of its own.
        let went = e.rehomedNotes.filter { $0.visit != nil }, apart = e.rehomedNotes.filter { $0.visit == nil }
        func written(_ note: RehomedNote) -> String { note.written + (note.day.isEmpty ? "" : " (\(note.day))") }
        if !went.isEmpty {
            lines.append("  \(plural(went.count, "note")) went with the photos \(went.count == 1 ? "it was" : "they were") written beside to another visit: "
                + went.prefix(5).map { written($0) + " to " + ($0.visit ?? "") }.joined(separator: ", ") + more(went.count))
        }
        let visitsApart = apart.filter { !$0.isDayNote }, daysApart = apart.filter(\.isDayNote)
        if !visitsApart.isEmpty {
            let said = visitsApart.count == 1
                ? "1 note under a visit's id that no longer names its visit (merged into another, or split) found no visit of its own and waits"
                : "\(n(visitsApart.count)) notes under visits' ids that no longer name their visits (merged into another, or split) found no visit of their own and wait"
            lines.append("  \(said) in journal/unplaced-notes.md: " + visitsApart.prefix(5).map(written).joined(separator: ", ") + more(visitsApart.count))
        }
        if !daysApart.isEmpty {
            let said = daysApart.count == 1
                ? "1 day's note whose day now holds other photos than it was written beside (a camera's clock put right) found no day of its own and waits"
                : "\(n(daysApart.count)) days' notes whose days now hold other photos than they were written beside (a camera's clock put right) found no day of their own and wait"
            lines.append("  \(said) in journal/unplaced-notes.md: " + daysApart.prefix(5).map(\.written).joined(separator: ", ") + more(daysApart.count))
        }
        // The notes on that page besides those just named, said on every run while they wait.
        if !e.ownBlocks.isEmpty {
            let each = e.ownBlocks.prefix(5).map { "<!-- notes \($0.terminalSafe) -->" }.joined(separator: ", ")
            lines.append("  \(plural(e.ownBlocks.count, "block")) of your own naming (\(each)\(e.ownBlocks.count > 5 ? ", …" : "")) "
                + "\(e.ownBlocks.count == 1 ? "waits" : "wait") in journal/unplaced-notes.md: geotrip keeps words only in the blocks it writes, "
                + "each visit's and each day's; move them into one")
        }
        let gone = max(0, e.unplacedNotes - apart.count - e.ownBlocks.count)
        if gone > 0 {
            // In a library, a day that became a day at home (home moved there) is in no trip.
            lines.append("  \(plural(gone, "note")) whose visit or day is "
                + (e.trips > 0 ? "in no trip now (gone, or a day at home)" : "gone") + ": journal/unplaced-notes.md")
        }
        for move in e.tripFoldersMoved.prefix(5) {
            if !move.daysMoved.isEmpty {
                // Listed when few (a trip split in three moves days that need not be one stretch).
                let days = move.daysMoved.count == 1 ? "day \(move.daysMoved[0]) is"
                    : move.daysMoved.count <= 4 ? "days \(move.daysMoved.joined(separator: ", ")) are"
                    : "\(move.daysMoved.count) days, \(move.daysMoved[0]) to \(move.daysMoved[move.daysMoved.count - 1]), are"
                lines.append("  \(move.from.terminalSafe)'s \(days) now in " + move.to.map(\.terminalSafe).joined(separator: " and ")
                    + " (the trip was split in two), with their notes: links to their pages in the old folder no longer work")
            } else if move.renamed {
                lines.append("  \(move.from.terminalSafe) is no folder geotrip writes (a trip's folder is named by its first day): its trip is written "
                    + "again in " + move.to.map(\.terminalSafe).joined(separator: " and ")
                    + ", with the notes written in it, and the pages geotrip wrote there were removed")
            } else {
                lines.append("  \(move.from.terminalSafe) is now " + move.to.map(\.terminalSafe).joined(separator: " and ")
                    + " (its days went there): links to the old folder no longer work")
            }
        }
        if e.tripFoldersMoved.count > 5 { lines.append("  and \(n(e.tripFoldersMoved.count - 5)) more trip folders moved (--json lists them)") }
        if standing, let spot = e.tripsAtOneSpot {
            lines.append("  \(n(spot.trips)) trips are days at one spot alone, " + String(format: "%.4f,%.4f", spot.latitude, spot.longitude)
                + ", shown on their maps: if that is your home (photographed on few nights, so not found as one), `\(spot.homeCommand.terminalSafe)` "
                + "makes them days at home and keeps it private (`geotrip trips` says more)")
        }
        if standing, let strays = e.libraryOnlyBy {
            let which = strays.paths.isEmpty ? "" : ", " + strays.paths.map(\.terminalSafe).joined(separator: ", ") + (strays.photos > strays.paths.count ? "…" : "")
            let one = strays.photos == 1
            lines.append("  the folder is a library of trips only because of \(plural(strays.photos, "photo")) dated far from the other \(n(strays.others)) "
                + "(\(strays.days.joined(separator: ", "))\(which)): if \(one ? "that date is" : "those dates are") wrong (a camera's clock reset), "
                + "correct \(one ? "it" : "them") in the photo\(one ? "" : "s"), or with --clock-offset when every photo of the camera is off, and the folder is one "
                + "trip again" + (strays.homeFound == false ? "" : "; as a library, the days at its home (the place of most nights) are on no page and no map"))
        }
        if e.homeAutoNotFound {
            lines.append("  --home auto: no home was found, as the folder is one trip (home is the place of most nights over a library of trips, "
                + "and none is kept private from earlier runs); "
                + "give --home LAT,LON to name it (the folder is then a library, its days at home on no page), or --hide-near LAT,LON to keep a place private")
        }
        if standing, let home = e.homeFromFewStays {
            let spans = home.stretches.map { $0.first == $0.last ? $0.first : "\($0.first) to \($0.last)" }.joined(separator: ", ")
            lines.append("  home was found at " + String(format: "%.3f, %.3f", home.latitude, home.longitude)
                + " (the place of most nights), whose \(plural(home.days, "day")) fall in \(home.stretches.count == 1 ? "one stretch" : "\(home.stretches.count) stretches") "
                + "only (\(spans)): days at home are on no page and no map, so if it is a place stayed at, not your home, "
                + "`\(home.homeCommand.terminalSafe)` with your home's position makes them trips' days again")
        }
        if standing, !e.daysInNoTrip.isEmpty {
            let count = e.daysInNoTrip.count
            lines.append("  \(plural(count, "day")) with photos, none of them with a position, \(count == 1 ? "is" : "are") in no trip, "
                + "so \(count == 1 ? "its" : "their") photos are on no page and no map: " + e.daysInNoTrip.prefix(5).joined(separator: ", ") + more(count)
                + " (a trip is made of days with placed photos; `geotrip tag` gives photos a position)")
        }
        if standing, e.undatedPhotos > 0 {
            lines.append("  \(plural(e.undatedPhotos, "photo")) without a date, on no day and not on the map: journal/undated-photos.md lists "
                + (e.undatedPhotos == 1 ? "it" : "them") + " and says how to give " + (e.undatedPhotos == 1 ? "it one" : "them one"))
        }
        for elsewhere in e.notesInOtherOutputs {
            // A trip ingested on its own before the library around it, or a copy of its outputs.
            let shown = elsewhere.pages.prefix(5).map { (elsewhere.folder + "/" + $0).terminalSafe }.joined(separator: ", ")
            lines.append("  notes in \(plural(elsewhere.pages.count, "page")) of another geotrip journal in this folder stay there, not in these pages: "
                + shown + more(elsewhere.pages.count)
                + " (geotrip reads only the journals it writes for this folder; copy what you want into these pages)")
        }
        if e.namesInOtherLanguages > 0 {
            let language = e.language.terminalSafe
            lines.append("  \(plural(e.namesInOtherLanguages, "place")) shown with the best name known, "
                + (e.namesOnline ? "none being in '\(language)' yet"
                    : "none being in '\(language)': names in it are asked for online only, with --geocoder nominatim"))
        }
        if !e.refused.isEmpty {
            // Of a journal page, the notes written there are said too (the map and GeoJSON hold none).
            let pages = e.refused.contains(where: ExportStage.isJournalPage)
            lines.append("  left alone, never read or written through (symbolic links, not files, or over 256 MiB): \(e.refused.map(\.terminalSafe).joined(separator: ", "))"
                + (pages ? "; notes written in a page there are not taken in (not on the map or in the GeoJSON): put a file in the page's place, "
                    + "or choose another output folder with --out" : ""))
        }
        return lines
    }

    /// A count with the progress line's digit grouping (`4,210`, in every locale).
    static func n(_ value: Int) -> String { value.grouped }

    /// `120 photos`, or with videos `120 photos and 14 videos (3 of Live Photos)`: together
    /// the files with and without GPS that the line goes on to count.
    static func media(_ s: IngestSummary) -> String {
        // Photos and videos add up to the files with and without GPS that follow.
        let photos = plural(s.withGPS + s.withoutGPS - s.videos, "photo")
        guard s.videos > 0 else { return photos }
        let live = s.livePhotoVideos == 0 ? "" : s.livePhotoVideos == s.videos ? (s.videos == 1 ? " (of a Live Photo)" : " (all of Live Photos)")
            : " (\(n(s.livePhotoVideos)) of \(s.livePhotoVideos == 1 ? "a Live Photo" : "Live Photos"))"
        return "\(photos) and \(plural(s.videos, "video"))\(live)"
    }

    /// `1 photo`, `4,210 photos`.
    static func plural(_ value: Int, _ word: String) -> String { "\(n(value)) \(word)\(value == 1 ? "" : "s")" }

    /// " (12,340 track points; 3 dropped: 2 at 0,0, 1 too fast)", or "" when no track gave a point.
    static func trackPoints(_ r: ResolutionSummary) -> String {
        let d = r.trackPointsDropped
        guard r.trackPoints > 0 || d.total > 0 else { return "" }
        let kept = "\(n(r.trackPoints)) track \(r.trackPoints == 1 ? "point" : "points")"
        guard d.total > 0 else { return " (\(kept))" }
        let reasons = [(d.untimed, "without a time"), (d.invalid, "with an invalid position"),
                       (d.nullIsland, "at 0,0"), (d.tooFast, "too fast")]
            .filter { $0.0 > 0 }.map { "\(n($0.0)) \($0.1)" }
        return " (\(kept); \(n(d.total)) dropped: \(reasons.joined(separator: ", ")))"
    }


    /// The place-name service's problems: those of the service itself first (that it cannot
    /// be used now: the one to act on), then those of single places, each sentence once, the
    /// places it was said of after it (`not JSON` for every place of Spain is one line), at
    /// most three lines and a count of the rest.
    static func namingProblemLines(_ problems: [PhotoDiagnostic], label: String) -> [String] {
        // A place's own sentence names it (`place p29`).
        let placed = problems.map { problem in (problem, problem.message.firstMatch(of: /place (p[0-9]+)/).map { String($0.1) }) }
        var groups: [(first: PhotoDiagnostic, places: [String])] = []
        var index: [String: Int] = [:]
        for (problem, place) in placed.filter({ $0.1 == nil }) + placed.filter({ $0.1 != nil }) {
            // The sentence with its place's id taken out: the same fault of other places.
            let key = problem.path + "\u{0}" + (place.map { problem.message.replacingOccurrences(of: "place \($0) ", with: "place ") } ?? problem.message)
            if let at = index[key], let place {
                groups[at].places.append(place)
            } else {
                index[key] = groups.count
                groups.append((problem, []))
            }
        }
        var lines = groups.prefix(3).map { group in
            "  \(group.first.path.terminalSafe): \(group.first.message.terminalSafe)"
                + (group.places.isEmpty ? "" : " The same for \(plural(group.places.count, "more place")): "
                    + group.places.prefix(5).joined(separator: ", ") + (group.places.count > 5 ? ", …" : ""))
        }
        if groups.count > 3 {
            let rest = groups.dropFirst(3).map { 1 + $0.places.count }.reduce(0, +)
            lines.append("  … and \(n(rest)) more (\(label))")
        }
        return lines
    }

    /// `  names: 9 online, 2 from the cache, 1 manual (11 named offline first); 1 stale answer
    /// discarded; 14 requests sent`, when online naming asked anything or answers went stale.
    /// Every new or moved place is named offline before it is asked about, so the offline
    /// count is said apart: added to the others, it read as twice the places there are.
    static func namingLine(_ named: NamingCounts) -> String? {
        guard named.online + named.cached + named.stale + named.failed + named.requests > 0 else { return nil }
        var line = "  names: \(n(named.online)) online, \(n(named.cached)) from the cache, \(n(named.manual)) manual"
        if named.offline > 0 { line += " (\(n(named.offline)) named offline first)" }
        if named.nameless > 0 { line += "; \(plural(named.nameless, "place")) it has no name for (offline names kept)" }
        if named.failed > 0 { line += "; \(plural(named.failed, "place")) without an answer" }
        if named.stale > 0 { line += "; \(plural(named.stale, "stale answer")) discarded" }
        return line + "; \(plural(named.requests, "request")) sent"
    }
}
