/// Where every note goes: gathered from the journal files and the catalog, and handed to the
/// visit or day it belongs to now, or to the page of notes whose visit is gone. Pure.
///
/// A note is read from the journal first (that is where the person writes): from the file of
/// its owner's current day, else from any other day's file (the visit moved day), else from
/// `unplaced-notes.md`; only when no file has its block is the catalog's copy used (a deleted
/// file is rebuilt with its notes). A block emptied by the person deletes the note.
///
/// Which copy counts when they differ: a block whose text is what geotrip wrote there (the
/// file's footer records a hash of each note it wrote: `JournalDocument.writtenNotes`) is an
/// older state of the note, never an edit, in whatever folder and with whatever file time; a
/// block written in since is an edit: over the catalog's own copy it counts whatever the
/// file's time, over another it counts unless the catalog's copy changed after the file was
/// saved (by more than the 2 s a coarse file clock may be off). A note's time is that of the
/// file it was taken from (when the person saved it). Of several edits the latest counts. A
/// file whose footer records no notes (written by an older geotrip) counts when saved after the
/// catalog's copy changed. Hashes ignore line endings and trailing blanks, which editors change;
/// blanks added at a line's end of the catalog's own copy are the person's, and count.
/// A note emptied by the person stays in the catalog as an empty note, so an older copy
/// elsewhere does not bring it back.
struct JournalNotes: Equatable {
    /// Every note worth keeping, by owner id: what the catalog should hold after this run.
    var all: [String: JournalNote] = [:]
    /// The notes of owners the trip no longer has, oldest day first (those with words).
    var gone: [JournalNote] = []
    /// When the person saved each note taken from a file, by owner (the file's time, in
    /// nanoseconds since 1970): the time the catalog keeps for its text.
    var writtenAt: [String: Int64] = [:]
    /// The catalog's copies (with words) replaced by an edit made over an older copy of the
    /// note (a page restored from a copy, two folders written in apart): kept beside the
    /// journal, as no file may hold them any more.
    var replaced: [JournalNote] = []
    /// The notes (with words) that went to another day's page with their visit in this run, or
    /// came back from the page of notes whose visit is gone, in visit id order.
    var moved: [MovedNote] = []
    /// The notes found under an id that now names another visit, put with the visit holding
    /// their photos (`rehomed(_:trip:stored:)`).
    var rehomed: [RehomedNote] = []
    /// Notes left on the page of notes whose visit is gone though their id names a visit
    /// again: one at another place than theirs (see `init`). Not shown with that visit.
    var detached: Set<String> = []

    /// The notes of `trip`, from `days` (each day's files read back, by date, the current
    /// folder's first), `unplaced` (the notes pages read back) and `stored` (the catalog's
    /// copies, each stored at `storedAt` nanoseconds since 1970 when known). A visit inside
    /// `privacy` is remembered without its place's name, as its day's page shows it, so the
    /// page of notes whose visit is gone never names it either.
    /// `visitOfPhoto` gives the visit of each photo (by path) of the visits
    /// `rehomingVisits(days:trip:stored:)` names.
    init(trip: Trip, days: [String: [JournalDocument]], unplaced: [JournalDocument], stored: [String: JournalNote],
         storedAt: [String: Int64] = [:], privacy: PrivacyZones = PrivacyZones(), visitOfPhoto: [String: String] = [:]) {
        // A note the catalog does not know is put with the visit that holds the photos its page
        // showed above it, when its id now names another visit (the catalog made again).
        let (days, found) = Self.rehomed(days, trip: trip, stored: stored, visitOfPhoto: visitOfPhoto)
        rehomed = found
        // Every owner any source knows, each read from the first source that has its block.
        var owners = Set(stored.keys)
        for page in unplaced { owners.formUnion(page.notes.keys) }
        for files in days.values { for file in files { owners.formUnion(file.notes.keys) } }
        // Where each owner is in the trip now: only owners with notes are looked for (a
        // library's trip has hundreds of thousands of visits, few of them with a note).
        var dayOf: [String: String] = [:]
        var placeOf: [String: String?] = [:]
        for day in trip.days {
            if owners.contains(day.date) { dayOf[day.date] = day.date }
            for visit in day.visits where owners.contains(visit.id) {
                dayOf[visit.id] = day.date
                placeOf[visit.id] = privacy.contains(visit.centre) ? nil : visit.name
            }
        }
        // Each owner's files, by one pass over the files: day files in date order, then the
        // notes pages.
        var holders: [String: [(date: String?, file: JournalDocument)]] = [:]
        for date in days.keys.sorted() {
            for file in days[date]! { for owner in file.notes.keys { holders[owner, default: []].append((date, file)) } }
        }
        for page in unplaced { for owner in page.notes.keys { holders[owner, default: []].append((nil, page)) } }
        for owner in owners {
            // The files holding its block, in the order they are looked at: its day's first.
            let held = holders[owner] ?? []
            let files = held.filter { $0.date != nil && $0.date == dayOf[owner] }.map(\.file)
                + held.filter { $0.date == nil || $0.date != dayOf[owner] }.map(\.file)
            let (text, from) = Self.text(of: owner, in: files, stored: stored[owner], storedAt: storedAt[owner])
            if let old = stored[owner], old.hasWords, let text, text != old.text, let from, !Self.isOverOwnCopy(from, of: owner, old) {
                replaced.append(old)
            }
            // Emptied: nothing to keep, unless the catalog held it: then it stays, empty (with
            // its owner or without), so the deletion outranks older copies elsewhere.
            guard let text, !text.isEmpty || stored[owner] != nil else { continue }
            var note = stored[owner] ?? JournalNote(ownerID: owner, text: text)
            note.text = text
            // Waiting on the page of notes whose visit is gone, for a visit at another place
            // than the one it was written for: its id was given again to other photos (the
            // visit's first photo tagged elsewhere). It waits on, unless written in on a day's
            // page meanwhile.
            let waiting = held.contains { $0.date == nil } && !held.contains { $0.date != nil && ($0.file.notes[owner] ?? "").contains { !$0.isWhitespace } }
            if waiting, note.hasWords, let was = note.placeName, let now = placeOf[owner] ?? nil, was != now {
                detached.insert(owner)
            }
            if let day = dayOf[owner], !detached.contains(owner) {
                if !JournalNote.isDay(owner), note.hasWords {
                    if held.contains(where: { $0.date == nil }) {
                        moved.append(MovedNote(visit: owner, from: nil, to: day))
                    } else if let before = stored[owner]?.localDate, before != day {
                        moved.append(MovedNote(visit: owner, from: before, to: day))
                    }
                }
                // Alive: remember where it is now, for the day it might disappear.
                if !JournalNote.isDay(owner) { note.placeName = placeOf[owner] ?? nil }
                note.localDate = day
            } else if note.localDate == nil, let from, let date = held.first(where: { $0.file == from })?.date {
                // Written in the run its visit went (its photos moved away, its day now at
                // home): never shown with it here, it is known by the day of the page it was
                // written in.
                note.localDate = date
            }
            all[owner] = note
            if let saved = from?.modifiedNanos { writtenAt[owner] = saved }
        }
        // Only notes with words wait on the page of notes whose visit is gone.
        replaced.sort { $0.ownerID < $1.ownerID }
        moved.sort { $0.visit < $1.visit }
        gone = all.values.filter { (dayOf[$0.ownerID] == nil || detached.contains($0.ownerID)) && $0.hasWords }
            .sorted { ($0.localDate ?? $0.ownerID, $0.ownerID) < ($1.localDate ?? $1.ownerID, $1.ownerID) }
    }

    /// A note's text from the `files` holding its block (in order of preference) and the
    /// catalog's copy (`stored`, its text changed at `storedAt`), with the file it was taken
    /// from (nil: the catalog's). See the type's notes; without a catalog copy, the latest copy
    /// with text.
    static func text(of owner: String, in files: [JournalDocument], stored: JournalNote?, storedAt: Int64?)
        -> (text: String?, from: JournalDocument?) {
        // A file whose time is unknown counts as saved last; of equal times, the first.
        func latest(_ candidates: some Sequence<JournalDocument>) -> JournalDocument? {
            candidates.reduce(nil) { best, file in
                best.map { (file.modifiedNanos ?? .max) > ($0.modifiedNanos ?? .max) } ?? true ? file : best
            }
        }
        // Not in the catalog (new, or a catalog made again): every copy is the person's.
        guard let stored else {
            let chosen = latest(files.filter { !($0.notes[owner] ?? "").isEmpty }) ?? files.first
            return (chosen?.notes[owner], chosen)
        }
        let since = storedAt ?? .min
        let slack: Int64 = 2_000_000_000
        let known = JournalDocument.noteHash(stored.text)
        let edits = files.filter { file in
            guard let text = file.notes[owner], text != stored.text else { return false }
            let saved = file.modifiedNanos ?? .max
            guard let written = file.writtenNotes else { return saved > since }
            let writtenHash = written[owner] ?? JournalDocument.noteHash("")
            // As geotrip wrote it: an older state of the note, not an edit. Unless, written over
            // the catalog's own copy, the block has blanks at a line's end that copy lacks: an
            // editor strips trailing blanks and changes line endings on its own, but never adds
            // blanks, so those are the person's (a Markdown line break).
            if JournalDocument.noteHash(text) == writtenHash { return writtenHash == known && Self.addsTrailingBlanks(text, to: stored.text) }
            // Written over the catalog's own copy: whatever the file's time, an edit since.
            if writtenHash == known { return true }
            return since == .min || saved > since - slack
        }
        guard let chosen = latest(edits) else { return (stored.text, nil) }
        return (chosen.notes[owner], chosen)
    }

    /// Whether `text` has more blanks (spaces, tabs) at the end of some line than the same line
    /// of `original`, line endings aside; false when their lines differ otherwise.
    static func addsTrailingBlanks(_ text: String, to original: String) -> Bool {
        func lines(_ text: String) -> [(body: ArraySlice<UInt8>, blanks: Int)] {
            Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
                var body = line
                while body.last == UInt8(ascii: "\r") { body.removeLast() }
                var blanks = 0
                while let last = body.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { body.removeLast(); blanks += 1 }
                return (body, blanks)
            }
        }
        let new = lines(text), old = lines(original)
        guard new.count == old.count, zip(new, old).allSatisfy({ $0.body == $1.body }) else { return false }
        return zip(new, old).contains { $0.blanks > $1.blanks }
    }

    /// Whether an edit in `file` was made over the catalog's own copy of the note (`stored`):
    /// its footer records that text, or it is an intact page from before footers recorded
    /// notes. A page without its footer, or whose record was edited, may be any older copy.
    static func isOverOwnCopy(_ file: JournalDocument, of owner: String, _ stored: JournalNote) -> Bool {
        if let written = file.writtenNotes { return (written[owner] ?? JournalDocument.noteHash("")) == JournalDocument.noteHash(stored.text) }
        return file.isIntact && file.footer != nil && !file.writtenNotesDamaged
    }

    /// `days` with each block the catalog has no copy of (`stored`) and whose id now names a
    /// visit holding none of the photos shown above it on its page, given the id of the visit
    /// of that day holding most of them. Ids are the catalog's: one made again (deleted, the
    /// folders renamed, so photos read in another order) gives them to other visits, and a
    /// note would otherwise sit under a visit it was not written for. A block whose id is the
    /// day's, whose photos no visit of its day holds, or whose new id another block of its page
    /// has or is given, stays as it is.
    static func rehomed(_ days: [String: [JournalDocument]], trip: Trip, stored: [String: JournalNote], visitOfPhoto: [String: String])
        -> ([String: [JournalDocument]], [RehomedNote]) {
        let dates = datesToRehome(days, stored: stored)
        guard !dates.isEmpty else { return (days, []) }
        var days = days
        var found: [RehomedNote] = []
        for day in trip.days where dates.contains(day.date) {
            let date = day.date
            let onDay = Set(day.visits.map(\.id))
            let visitOf = visitOfPhoto.filter { onDay.contains($0.value) }
            // A link into a folder renamed since finds its photo by its name, when one visit
            // of the day alone has a photo of that name.
            var byName: [Substring: String?] = [:]
            for (path, visit) in visitOf {
                let name = Self.fileName(path)
                if let known = byName[name], known != visit { byName[name] = .some(nil) } else { byName[name] = visit }
            }
            for (index, file) in days[date]!.enumerated() where file.blocks.contains(where: { isUnknown($0, stored) }) {
                var ids = file.blocks.map(\.id)
                for (position, block) in file.blocks.enumerated() where isUnknown(block, stored) {
                    var counts: [String: Int] = [:]
                    for link in block.photoLinks {
                        if let visit = Self.visit(of: link, in: visitOf) ?? byName[Self.fileName(link)] ?? nil { counts[visit, default: 0] += 1 }
                    }
                    guard let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), counts[block.id] == nil else { continue }
                    ids[position] = best.key
                }
                // Two blocks of a page under one id would leave one unread: those keep theirs.
                let given = Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +)
                var blocks = file.blocks
                for position in blocks.indices where ids[position] != blocks[position].id && given[ids[position]] == 1 {
                    found.append(RehomedNote(written: blocks[position].id, visit: ids[position], day: date))
                    blocks[position].id = ids[position]
                }
                days[date]![index].blocks = blocks
            }
        }
        return (days, found.sorted { ($0.day, $0.written) < ($1.day, $1.written) })
    }

    /// Whether a block may be under an id that now names another visit: a visit's note with
    /// words the catalog has no copy of, below photos.
    private static func isUnknown(_ block: JournalDocument.Block, _ stored: [String: JournalNote]) -> Bool {
        !block.photoLinks.isEmpty && stored[block.id] == nil && !JournalNote.isDay(block.id) && block.text.contains { !$0.isWhitespace }
    }

    /// The days whose pages hold a block `isUnknown`.
    private static func datesToRehome(_ days: [String: [JournalDocument]], stored: [String: JournalNote]) -> Set<String> {
        Set(days.filter { $0.value.contains { $0.blocks.contains { isUnknown($0, stored) } } }.keys)
    }

    /// The visits whose photos `init` needs (`visitOfPhoto`): those of the days whose pages
    /// hold a note the catalog does not know; none in an ordinary run.
    static func rehomingVisits(days: [String: [JournalDocument]], trip: Trip, stored: [String: JournalNote]) -> [String] {
        let dates = datesToRehome(days, stored: stored)
        guard !dates.isEmpty else { return [] }
        return trip.days.filter { dates.contains($0.date) }.flatMap { $0.visits.map(\.id) }
    }

    /// The last part of a path.
    private static func fileName(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? Substring(path)
    }

    /// The visit holding the photo a page's link leads to: the link without its leading `../`,
    /// then without each further leading folder (the way from the journal to the trip folder
    /// has any folders), looked up by path.
    static func visit(of link: String, in visitOf: [String: String]) -> String? {
        var path = Substring(link)
        while path.hasPrefix("../") { path = path.dropFirst(3) }
        while !path.isEmpty {
            if let visit = visitOf[String(path)] { return visit }
            guard let slash = path.firstIndex(of: "/") else { return nil }
            path = path[path.index(after: slash)...]
        }
        return nil
    }

    /// The text of each note, by owner id.
    var texts: [String: String] { all.filter { !detached.contains($0.key) }.mapValues(\.text) }
}
