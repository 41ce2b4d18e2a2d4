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

    /// The notes of `trip`, from `days` (each day's files read back, by date, the current
    /// folder's first), `unplaced` (the notes pages read back) and `stored` (the catalog's
    /// copies, each stored at `storedAt` nanoseconds since 1970 when known). A visit inside
    /// `privacy` is remembered without its place's name, as its day's page shows it, so the
    /// page of notes whose visit is gone never names it either.
    init(trip: Trip, days: [String: [JournalDocument]], unplaced: [JournalDocument], stored: [String: JournalNote],
         storedAt: [String: Int64] = [:], privacy: PrivacyZones = PrivacyZones()) {
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
            if let day = dayOf[owner] {
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
        gone = all.values.filter { dayOf[$0.ownerID] == nil && $0.hasWords }
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

    /// The text of each note, by owner id.
    var texts: [String: String] { all.mapValues(\.text) }
}
