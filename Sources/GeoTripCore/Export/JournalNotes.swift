/// Where every note goes: gathered from the journal files and the catalog, and handed to the
/// visit or day it belongs to now, or to the page of notes whose visit is gone. Pure.
///
/// A note is read from the journal first (that is where the person writes): from the file of
/// its owner's current day, else from any other day's file (the visit moved day), else from
/// `unplaced-notes.md`; only when no file has its block is the catalog's copy used (a deleted
/// file is rebuilt with its notes). A block emptied by the person deletes the note.
///
/// A file's block that differs from the catalog's copy is taken only when the file was saved
/// after that copy was stored (`storedAt`): a file geotrip wrote before, in a folder no export
/// wrote since (an output folder used again, a trip's old folder), holds an older state of
/// the note, not an edit. Of several copies saved since, the latest is taken; a day's file
/// may be in more than one folder (a trip's old folder, saved from an editor still open).
struct JournalNotes: Equatable {
    /// Every note worth keeping, by owner id: what the catalog should hold after this run.
    var all: [String: JournalNote] = [:]
    /// The notes of owners the trip no longer has, oldest day first.
    var gone: [JournalNote] = []

    /// The notes of `trip`, from `days` (each day's files read back, by date, the current
    /// folder's first), `unplaced` (the notes pages read back) and `stored` (the catalog's
    /// copies, each stored at `storedAt` nanoseconds since 1970 when known).
    init(trip: Trip, days: [String: [JournalDocument]], unplaced: [JournalDocument], stored: [String: JournalNote],
         storedAt: [String: Int64] = [:]) {
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
                placeOf[visit.id] = visit.name
            }
        }
        let dates = days.keys.sorted()
        for owner in owners {
            // The files holding its block, in the order they are looked at.
            var files: [JournalDocument] = []
            if let day = dayOf[owner] { files += (days[day] ?? []).filter { $0.notes[owner] != nil } }
            for date in dates where date != dayOf[owner] { files += days[date]!.filter { $0.notes[owner] != nil } }
            files += unplaced.filter { $0.notes[owner] != nil }
            let text = Self.text(of: owner, in: files, stored: stored[owner], storedAt: storedAt[owner])
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

    /// A note's text from the `files` holding its block (in order of preference) and the
    /// catalog's copy (`stored`, stored at `storedAt`): the latest copy saved since the
    /// catalog's that says something else, else the catalog's. No catalog copy is an empty
    /// note stored at no known time.
    static func text(of owner: String, in files: [JournalDocument], stored: JournalNote?, storedAt: Int64?) -> String? {
        let known = stored?.text ?? ""
        let since = stored == nil ? Int64.min : storedAt ?? .min
        // A file whose time is unknown counts as saved since; of equal times, the first.
        var latest: JournalDocument?
        for file in files where file.notes[owner] != known && (file.modifiedNanos ?? .max) > since {
            if latest.map({ (file.modifiedNanos ?? .max) > ($0.modifiedNanos ?? .max) }) ?? true { latest = file }
        }
        return latest?.notes[owner] ?? known
    }

    /// The text of each note, by owner id.
    var texts: [String: String] { all.mapValues(\.text) }
}
