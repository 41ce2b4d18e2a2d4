/// Where every note goes: gathered from the journal files and the catalog, and handed to the
/// visit or day it belongs to now, or to the page of notes whose visit is gone. Pure.
///
/// A note is read from the journal first (that is where the person writes): from the file of
/// its owner's current day, else from any other day's file (the visit moved day), else from
/// `unplaced-notes.md`; only when no file has its block is the catalog's copy used (a deleted
/// file is rebuilt with its notes). A block emptied by the person deletes the note.
struct JournalNotes: Equatable {
    /// Every note worth keeping, by owner id: what the catalog should hold after this run.
    var all: [String: JournalNote] = [:]
    /// The notes of owners the trip no longer has, oldest day first.
    var gone: [JournalNote] = []

    /// The notes of `trip`, from `days` (each day file read back, by date), `unplaced` (the
    /// notes page read back) and `stored` (the catalog's copies).
    init(trip: Trip, days: [String: JournalDocument], unplaced: [JournalDocument], stored: [String: JournalNote]) {
        // Every owner any source knows, each read from the first source that has its block.
        let fileNotes = days.mapValues(\.notes)
        var owners = Set(stored.keys)
        for page in unplaced { owners.formUnion(page.notes.keys) }
        for notes in fileNotes.values { owners.formUnion(notes.keys) }
        // Where each owner is in the trip now: only owners with notes are looked for (a
        // library's trip has hundreds of thousands of visits, few of them with a note).
        var dayOf: [String: String] = [:]
        var placeOf: [String: String?] = [:]
        for day in trip.days {
            if owners.contains(day.date) { dayOf[day.date] = day.date }
            for visit in day.visits where owners.contains(visit.id) {
                dayOf[visit.id] = day.date
                placeOf[visit.id] = visit.name
            }
        }
        for owner in owners {
            var text: String?
            if let day = dayOf[owner] { text = fileNotes[day]?[owner] }
            if text == nil { text = fileNotes.keys.sorted().lazy.compactMap { fileNotes[$0]?[owner] }.first }
            if text == nil { text = unplaced.lazy.compactMap { $0.notes[owner] }.first }
            if text == nil { text = stored[owner]?.text }
            guard let text, !text.isEmpty else { continue }
            var note = stored[owner] ?? JournalNote(ownerID: owner, text: text)
            note.text = text
            if let day = dayOf[owner] {
                // Alive: remember where it is now, for the day it might disappear.
                if !JournalNote.isDay(owner) { note.placeName = placeOf[owner] ?? nil }
                note.localDate = day
            } else if !note.hasWords {
                // Only white space, and its owner gone: nothing to keep.
                continue
            }
            all[owner] = note
        }
        gone = all.values.filter { dayOf[$0.ownerID] == nil }
            .sorted { ($0.localDate ?? $0.ownerID, $0.ownerID) < ($1.localDate ?? $1.ownerID, $1.ownerID) }
    }

    /// The text of each note, by owner id.
    var texts: [String: String] { all.mapValues(\.text) }
}
