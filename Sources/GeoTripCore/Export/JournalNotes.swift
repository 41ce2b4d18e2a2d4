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
///
/// Ids are the catalog's and can name other photos later (visits merged and split, a catalog
/// made again): a note goes with the photos it was written beside (`JournalNote.members`,
/// `settle`; for a note the catalog does not know, the photo links above its block:
/// `rehomed`), or is set apart under an id of its own (`JournalNote.setApart`) to wait on the
/// page of unplaced notes.
struct JournalNotes: Equatable {
    /// Every note worth keeping, by owner id: what the catalog should hold after this run.
    var all: [String: JournalNote] = [:]
    /// The notes of owners the trip no longer has, oldest day first (those with words).
    var gone: [JournalNote] = []
    /// When the person saved each note taken from a file, by owner (the file's time, in
    /// nanoseconds since 1970): the time the catalog keeps for its text.
    var writtenAt: [String: Int64] = [:]
    /// Copies of notes (with words) that another copy outranked, kept beside the journal as no
    /// file may hold them any more: the catalog's, replaced by an edit made over an older copy
    /// of the note (a page restored from a copy, two folders written in apart, a block copied
    /// into another page); and an edit in a folder geotrip no longer writes (`leftBehind`)
    /// that a later edit elsewhere outranked. (An edit in a page geotrip writes again that
    /// another outranked is kept with its page, as a backup: `ExportStage.dropsWords`.)
    var replaced: [JournalNote] = []
    /// The notes (with words) that went to another day's page with their visit in this run, or
    /// came back from the page of notes whose visit is gone, in visit id order.
    var moved: [MovedNote] = []
    /// The notes found under an id that now names another visit, put with the visit holding
    /// their photos, or set apart to wait on the page of unplaced notes (`rehomed`, `init`).
    var rehomed: [RehomedNote] = []
    /// The owners whose note was set apart this run, by the id it has now
    /// (`JournalNote.setApart`): their old blocks hold words the catalog keeps under the new id.
    var setApart: [String: String] = [:]
    /// The ids `rehomed` notes were found under, by the id each has now (a visit's or one set
    /// apart): their old blocks hold words the catalog keeps under the new id.
    var rehomedTo: [String: String] = [:]

    /// The notes of `trip`, from `days` (each day's files read back, by date, the current
    /// folder's first), `unplaced` (the notes pages read back) and `stored` (the catalog's
    /// copies, each stored at `storedAt` nanoseconds since 1970 when known). A visit inside
    /// `privacy` is remembered without its place's name, as its day's page shows it, so the
    /// page of notes whose visit is gone never names it either.
    /// `photos` tells the photos of visits as the catalog has them now: a note goes back to, or
    /// stays with, a visit only if it holds photos the note was written beside.
    init(trip: Trip, days: [String: [JournalDocument]], unplaced: [JournalDocument], stored: [String: JournalNote],
         storedAt: [String: Int64] = [:], privacy: PrivacyZones = PrivacyZones(), photos: VisitPhotos = VisitPhotos()) {
        // A note the catalog does not know is put with the visit that holds the photos its page
        // showed above it, when its id now names another visit (the catalog made again).
        let (days, found, to, waitingWith) = Self.rehomed(days, unplaced: unplaced, stored: stored, photos: photos)
        rehomed = found
        rehomedTo = to
        // A note waiting on the page of unplaced notes that the catalog does not know (a
        // catalog made again) cannot tell its visit: it is set apart before anything else, so
        // it neither takes an id nor keeps one from the note whose photos it has.
        var unplaced = unplaced
        for (index, page) in unplaced.enumerated() {
            var blocks = page.blocks
            for position in blocks.indices where Self.isUnknown(blocks[position], stored: stored) {
                let apart = JournalNote.setApart(blocks[position].id, day: nil)
                rehomed.append(RehomedNote(written: blocks[position].id, visit: nil, day: ""))
                setApart[blocks[position].id] = apart
                blocks[position].id = apart
            }
            if blocks != page.blocks { unplaced[index].blocks = blocks }
        }
        // Every owner any source knows, each read from the first source that has its block.
        var owners = Set(stored.keys)
        for page in unplaced { owners.formUnion(page.notes.keys) }
        for files in days.values { for file in files { owners.formUnion(file.notes.keys) } }
        // The owners with words somewhere (a visit free of them may take a waiting note), in one
        // pass over the blocks: a library's pages hold hundreds of thousands of empty ones.
        func hasWords(_ text: String?) -> Bool { text?.contains { !$0.isWhitespace } ?? false }
        var worded = Set(stored.filter { $0.value.hasWords }.keys)
        for file in unplaced + days.values.joined() {
            for block in file.blocks where block.hasWords { worded.insert(block.id) }
        }
        // The visits now holding the photos the notes were written beside (`JournalNote.members`).
        let remembered = worded.flatMap { stored[$0]?.members ?? [] }
        var holderOf = remembered.isEmpty ? [:] : photos.visitOfPhotos(Array(Set(remembered)).sorted())
        // Where each owner is in the trip now: only owners with notes are looked for (a
        // library's trip has hundreds of thousands of visits, few of them with a note), and
        // the visits holding waiting notes' photos.
        let looked = owners.union(holderOf.values)
        var dayOf: [String: String] = [:]
        var placeOf: [String: String?] = [:]
        for day in trip.days {
            // Every day, not only those with a block: a day's note may follow its photos to a
            // day no page has shown yet.
            dayOf[day.date] = day.date
            for visit in day.visits where looked.contains(visit.id) {
                dayOf[visit.id] = day.date
                placeOf[visit.id] = privacy.contains(visit.centre) ? nil : visit.name
            }
        }
        // The photos of the visits that have notes with words, to remember with each note and
        // to check a waiting note's return against (a few hundred visits in a library).
        let noted = worded.filter { dayOf[$0] != nil && !JournalNote.isDay($0) }
        let photosOf = noted.isEmpty ? [:] : photos.ofEachVisit(noted.sorted())
        // The photos of each day with a note with words (its visits'), remembered with it as a
        // visit's note remembers its visit's: a day's note follows them to another day (a
        // camera's clock put right by a day).
        var photosOfDay: [String: [Int64]] = [:]
        let notedDays = worded.filter { dayOf[$0] != nil && JournalNote.isDay($0) }
        if !notedDays.isEmpty {
            let visitsOf = Dictionary(uniqueKeysWithValues: trip.days.filter { notedDays.contains($0.date) }.map { ($0.date, $0.visits.map(\.id)) })
            let ofVisit = photos.ofEachVisit(visitsOf.values.joined().sorted())
            for (date, visits) in visitsOf {
                let ids = visits.flatMap { ofVisit[$0]?.map(\.id) ?? [] }
                if !ids.isEmpty { photosOfDay[date] = ids.sorted() }
            }
        }
        var waitingOwners = Set<String>()
        let rehomedOwners = Set(rehomedTo.values)
        // The visit of every photo, by path: read once, only for a day's note written in this run.
        var everyPhoto: [String: String]?
        /// The photos `page` showed (`JournalNotes.photosShown(on:_:visitOf:)`, `everyPhoto` read
        /// at most once), for a day's note written in this run.
        func photosShown(on page: JournalDocument) -> [Int64]? {
            Self.photosShown(on: page, photos) {
                if everyPhoto == nil { everyPhoto = photos.everyPhoto() }
                return everyPhoto!
            }
        }
        // Each owner's files, by one pass over the files: day files in date order, then the
        // notes pages.
        var holders: [String: [(date: String?, file: JournalDocument)]] = [:]
        for date in days.keys.sorted() {
            for file in days[date]! { for owner in file.notes.keys { holders[owner, default: []].append((date, file)) } }
        }
        for page in unplaced { for owner in page.notes.keys { holders[owner, default: []].append((nil, page)) } }
        // In id order: two waiting notes after one visit, the same one takes it on every run.
        for owner in owners.sorted() {
            // The files holding its block, in the order they are looked at: its day's first.
            let held = holders[owner] ?? []
            let files = held.filter { $0.date != nil && $0.date == dayOf[owner] }.map(\.file)
                + held.filter { $0.date == nil || $0.date != dayOf[owner] }.map(\.file)
            let (text, from, outranked) = Self.text(of: owner, in: files, stored: stored[owner], storedAt: storedAt[owner])
            if let old = stored[owner], old.hasWords, let text, text != old.text, let from, !Self.isOverOwnCopy(from, of: owner, old) {
                replaced.append(old)
            }
            for file in outranked where file.leftBehind {
                guard let words = file.notes[owner], words != text, hasWords(words),
                      !replaced.contains(where: { $0.ownerID == owner && $0.text == words }) else { continue }
                var copy = JournalNote(ownerID: owner, text: words)
                copy.localDate = held.first { $0.file == file }?.date
                replaced.append(copy)
            }
            // Emptied: nothing to keep, unless the catalog held it: then it stays, empty (with
            // its owner or without), so the deletion outranks older copies elsewhere.
            guard let text, !text.isEmpty || stored[owner] != nil else { continue }
            var note = stored[owner] ?? JournalNote(ownerID: owner, text: text)
            note.text = text
            // Waiting on the page of notes whose visit is gone (not written in on a day's page
            // meanwhile): where it goes is settled below, with every note's photos at hand.
            if held.contains(where: { $0.date == nil }) && !held.contains(where: { $0.date != nil && hasWords($0.file.notes[owner]) }) {
                waitingOwners.insert(owner)
            }
            if let day = dayOf[owner] {
                if note.hasWords {
                    if held.contains(where: { $0.date == nil }) {
                        // Back from the page of unplaced notes, a visit's or a day's own.
                        moved.append(MovedNote(visit: owner, from: nil, to: day))
                    } else if !JournalNote.isDay(owner), let before = stored[owner]?.localDate
                                ?? (rehomedOwners.contains(owner) ? nil : from.flatMap({ source in held.first { $0.file == source }?.date })),
                              before != day {
                        // Known, from the day it was on; written in this run, from the page it
                        // was written in (a block moved there by hand, or its visit moved day
                        // in the same run: which, the notes cannot tell; one put with another
                        // visit is told as such: `rehomed`).
                        moved.append(MovedNote(visit: owner, from: before, to: day, writtenElsewhere: stored[owner]?.localDate == nil))
                    }
                }
                // Alive: remember where it is now, for the day it might disappear, and the
                // photos it is written beside: those of its visit when its words changed (or
                // were first seen), not later ones (a visit merged with others meanwhile).
                let kept = stored[owner].flatMap { $0.text == text ? $0.members : nil }
                if !JournalNote.isDay(owner) {
                    note.placeName = placeOf[owner] ?? nil
                    // Written in this run: the photos its page showed above it (a visit merged
                    // with others in the same run is not what the person saw).
                    let seen = from?.blocks.first { $0.id == owner }.flatMap { Self.members(linkedBy: $0.photoLinks, among: photosOf[owner] ?? []) }
                    note.members = note.hasWords ? kept ?? seen ?? photosOf[owner].map { $0.map(\.id).sorted() } : nil
                } else {
                    // Written in this run: the photos its page showed (a camera's clock put right
                    // by a day in the same run took them to another day, whose note it is then).
                    let seen = kept == nil && note.hasWords ? from.flatMap(photosShown(on:)) : nil
                    note.members = note.hasWords ? kept ?? seen ?? photosOfDay[owner] : nil
                }
                note.localDate = day
            } else if note.localDate == nil, let from, let date = held.first(where: { $0.file == from })?.date {
                // Written in the run its visit went (its photos moved away, its day now at
                // home): never shown with it here, it is known by the day of the page it was
                // written in, and by the photos above it when another visit took them
                // (`rehomed`), which its visit must hold to have it back. A day's note written
                // just before its day went (a one-day trip's clock put right by a day): by the
                // photos its page showed, whose day it follows (`settle`).
                note.localDate = date
                if note.members == nil, note.hasWords {
                    note.members = JournalNote.isDay(owner) ? photosShown(on: from) : waitingWith[owner]
                }
            }
            all[owner] = note
            if let saved = from?.modifiedNanos { writtenAt[owner] = saved }
        }
        // The photos of days' notes written in this run (`photosShown`), where they are now.
        let shown = Set(all.values.filter { JournalNote.isDay($0.ownerID) }.flatMap { $0.members ?? [] }).filter { holderOf[$0] == nil }
        if !shown.isEmpty { holderOf.merge(photos.visitOfPhotos(shown.sorted())) { old, _ in old } }
        settle(stored: stored, waiting: waitingOwners, holderOf: holderOf, dayOf: dayOf, placeOf: placeOf, owners: owners)
        // Only notes with words wait on the page of notes whose visit is gone.
        // Ids in the order of their numbers (v7 before v12), as `places` lists them.
        func before(_ a: String, _ b: String) -> Bool { a.compare(b, options: .numeric) == .orderedAscending }
        replaced.sort { before($0.ownerID, $1.ownerID) }
        moved.sort { before($0.visit, $1.visit) }
        rehomed.sort { ($0.day, $0.written) < ($1.day, $1.written) }
        gone = all.values.filter { dayOf[$0.ownerID] == nil && $0.hasWords }
            .sorted { a, b in
                let (first, second) = (a.localDate ?? a.ownerID, b.localDate ?? b.ownerID)
                return first != second ? first < second : before(a.ownerID, b.ownerID)
            }
    }

    /// A note's text from the `files` holding its block (in order of preference) and the
    /// catalog's copy (`stored`, its text changed at `storedAt`), with the file it was taken
    /// from (nil: the catalog's) and the files whose edits of it it outranked. See the type's
    /// notes; without a catalog copy, the latest copy with text.
    static func text(of owner: String, in files: [JournalDocument], stored: JournalNote?, storedAt: Int64?)
        -> (text: String?, from: JournalDocument?, outranked: [JournalDocument]) {
        // A file whose time is unknown counts as saved last; of equal times, the first.
        func latest(_ candidates: some Sequence<JournalDocument>) -> JournalDocument? {
            candidates.reduce(nil) { best, file in
                best.map { (file.modifiedNanos ?? .max) > ($0.modifiedNanos ?? .max) } ?? true ? file : best
            }
        }
        // Not in the catalog (new, or a catalog made again): every copy is the person's.
        guard let stored else {
            let worded = files.filter { !($0.notes[owner] ?? "").isEmpty }
            let chosen = latest(worded) ?? files.first
            return (chosen?.notes[owner], chosen, worded.filter { $0 != chosen })
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
        guard let chosen = latest(edits) else { return (stored.text, nil, []) }
        return (chosen.notes[owner], chosen, edits.filter { $0 != chosen })
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
    /// its footer records that text. A page without its footer, whose record was edited, or
    /// from before footers recorded notes, may be any older copy: one such page an earlier
    /// build wrote, put back from a copy with a new time (`cp`, `git checkout`), counted as
    /// written over the catalog's copy, and the note written since was lost without a word.
    static func isOverOwnCopy(_ file: JournalDocument, of owner: String, _ stored: JournalNote) -> Bool {
        guard let written = file.writtenNotes else { return false }
        return (written[owner] ?? JournalDocument.noteHash("")) == JournalDocument.noteHash(stored.text)
    }

    /// Each note goes with the photos it was written beside (`JournalNote.members`): to the
    /// visit now holding at least half of them, when that is not its id's (a visit split, or
    /// come back under another id). When several claim one visit, the greatest share of its
    /// photos there has it, then the note already there. A note waiting on the page of
    /// unplaced notes whose id names a visit again that does not hold its photos (or, kept
    /// before the photos were, is at a place of another name) is set apart under an id of its
    /// own (`JournalNote.setApart`), as is one that lost its own id to another note. A day's
    /// note goes the same way to the day holding more than half of its photos.
    private mutating func settle(stored: [String: JournalNote], waiting: Set<String>, holderOf: [Int64: String], dayOf: [String: String],
                                 placeOf: [String: String?], owners: Set<String>) {
        // Each note claims a visit: the one holding at least half of its photos, or its own
        // id's (weakly when its photos are mostly gone; firmly when it has none to tell by).
        struct Claim { var owner: String; var target: String; var share: Double; var count: Int }
        var claims: [Claim] = []
        var apart: [String] = []
        for owner in all.keys.sorted() where all[owner]!.hasWords && !owner.contains("@") {
            let alive = dayOf[owner] != nil, isWaiting = waiting.contains(owner)
            // A waiting note is told by the photos it was remembered with, never by those its
            // id's visit holds now (`init` gives it those, to remember if it goes back).
            let remembered = isWaiting ? stored[owner]?.members : all[owner]!.members ?? stored[owner]?.members
            /// How many of `members` each visit, or each day, now holds.
            func holding(_ members: [Int64], by owner: (String) -> String?) -> [String: Int] {
                var counts: [String: Int] = [:]
                for member in members { if let holder = holderOf[member].flatMap(owner) { counts[holder, default: 0] += 1 } }
                return counts
            }
            if JournalNote.isDay(owner) {
                // A day's note claims the day now holding more than half of its photos (a
                // camera's clock put right by a day), else its own; one waiting comes back to
                // its own day when nothing tells another.
                let members = remembered ?? []
                let counts = holding(members) { dayOf[$0] }
                // Its own day on a tie; another only with more than half of them (a camera put
                // back a day takes half of a two-camera day's photos, and the note stays).
                let most = counts.values.max() ?? 0
                let best = counts[owner] == most && most > 0 ? (key: owner, value: most)
                    : counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { $0.value * 2 > members.count ? $0 : nil }
                if let best, best.key != owner || best.value * 2 >= members.count {
                    claims.append(Claim(owner: owner, target: best.key, share: Double(best.value) / Double(members.count), count: best.value))
                } else if alive {
                    claims.append(Claim(owner: owner, target: owner, share: members.isEmpty ? 2 : 0, count: members.isEmpty ? .max : 0))
                }
                continue
            }
            if let members = remembered, !members.isEmpty {
                let counts = holding(members) { $0 }
                let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.flatMap { $0.value * 2 >= members.count ? $0 : nil }
                if let best, dayOf[best.key] != nil {
                    claims.append(Claim(owner: owner, target: best.key, share: Double(best.value) / Double(members.count), count: best.value))
                } else if alive && !isWaiting {
                    claims.append(Claim(owner: owner, target: owner, share: 0, count: 0))
                } else if alive {
                    apart.append(owner)
                }
            } else if isWaiting, alive, let was = stored[owner]?.placeName, let place = placeOf[owner] ?? nil, was != place {
                apart.append(owner)
            } else if alive {
                claims.append(Claim(owner: owner, target: owner, share: 2, count: .max))
            }
        }
        // Each visit goes to the note holding the greatest share of its photos there (then the
        // note already there, then the one with more photos there, then the first id).
        func before(_ a: Claim, _ b: Claim) -> Bool {
            (a.share, a.owner == a.target ? 1 : 0, a.count, b.owner) > (b.share, b.owner == b.target ? 1 : 0, b.count, a.owner)
        }
        var winner: [String: String] = [:]
        for (target, contenders) in Dictionary(grouping: claims, by: \.target) { winner[target] = contenders.sorted(by: before).first!.owner }
        // A note that lost the visit it claimed stays at its own id when that is free; else
        // (its id taken, or it was its id it lost) it is set apart, or waits when its id names
        // no visit.
        for claim in claims.sorted(by: before) where winner[claim.target] != claim.owner {
            if claim.target != claim.owner, dayOf[claim.owner] != nil, !waiting.contains(claim.owner), winner[claim.owner] == nil {
                winner[claim.owner] = claim.owner
            } else if dayOf[claim.owner] != nil {
                apart.append(claim.owner)
            }
        }
        let moves = winner.filter { $0.key != $0.value }.map { (owner: $0.value, target: $0.key) }.sorted { $0.owner < $1.owner }
        // Every note leaves its old id first, then each takes its new one (a note may move to
        // the id another leaves).
        var arriving: [(note: JournalNote, from: String)] = []
        var daysFollowed: [MovedNote] = []
        for (owner, target) in moves {
            var note = all[owner]!
            if JournalNote.isDay(owner) {
                // Its page is its day's: said as a note that followed its photos there.
                daysFollowed.append(MovedNote(visit: owner, from: waiting.contains(owner) ? nil : owner, to: target))
            } else {
                rehomed.append(RehomedNote(written: owner, visit: target, day: note.localDate ?? ""))
            }
            note.ownerID = target
            note.localDate = dayOf[target]
            note.placeName = placeOf[target] ?? nil
            arriving.append((note, owner))
        }
        for owner in apart {
            // Known by where it was last shown, not by the visit its id names now.
            var note = all[owner]!
            note.localDate = stored[owner]?.localDate ?? (waiting.contains(owner) ? nil : note.localDate)
            note.placeName = stored[owner]?.placeName
            note.members = stored[owner]?.members ?? note.members
            rehomed.append(RehomedNote(written: owner, visit: nil, day: note.localDate ?? ""))
            let arrived = Set(arriving.map(\.note.ownerID))
            note.ownerID = Self.freeID(JournalNote.setApart(owner, day: note.localDate)) { all[$0] != nil || owners.contains($0) || arrived.contains($0) }
            arriving.append((note, owner))
        }
        for (_, owner) in arriving {
            all[owner] = stored[owner] != nil ? JournalNote(ownerID: owner, text: "") : nil
            moved.removeAll { $0.visit == owner }
        }
        for (note, owner) in arriving {
            all[note.ownerID] = note
            setApart[owner] = note.ownerID
            if let saved = writtenAt[owner] { writtenAt[note.ownerID] = saved }
        }
        moved += daysFollowed
    }

    /// The ids of the photos of `photos` (a visit's) that `links` (a page's photo links above a
    /// block) lead to: the link is the photo's path, or ends with it (the way from the journal
    /// to the trip folder); nil when none.
    static func members(linkedBy links: [String], among photos: [(id: Int64, path: String)]) -> [Int64]? {
        guard !links.isEmpty else { return nil }
        let ids = photos.filter { photo in links.contains { $0 == photo.path || $0.hasSuffix("/" + photo.path) } }.map(\.id).sorted()
        return ids.isEmpty ? nil : ids
    }

    /// `id`, or `id-2`, `id-3`… the first that `isTaken` does not say is taken.
    private static func freeID(_ id: String, isTaken: (String) -> Bool) -> String {
        var candidate = id, suffix = 2
        while isTaken(candidate) {
            candidate = "\(id)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Whether a block may be under an id that now names another visit: a visit's note with
    /// words the catalog has no copy of (a note written since the last run, or every note of
    /// a catalog made again). Its page is read with its photo links (`JournalDocument.init(bytes:links:)`).
    static func isUnknown(_ block: JournalDocument.Block, stored: [String: JournalNote]) -> Bool {
        // A visit's id only: not a day's, one set apart, or a block the person named (`packing`).
        stored[block.id] == nil && JournalNote.isVisitID(block.id) && block.hasWords
    }

    /// `days` with each block `isUnknown` whose id names a visit holding none of the photos
    /// its page showed above it (by path: `members(linkedBy:among:)`) given the id of
    /// the visit, on any day, holding most of them (by path, else by a file name no other
    /// photo has); or, when no visit holds any, or the one that does has words of its own
    /// (in the catalog or in a block elsewhere) or is given to another block, an id of its own
    /// (`JournalNote.setApart`), to wait on the page of unplaced notes. Ids are the catalog's:
    /// one made again (deleted, the folders renamed or photos added, so photos read in
    /// another order) gives them to other visits. Empty blocks under an id given are dropped.
    ///
    /// A block whose id names no visit now, and whose photos a visit holds that is given or
    /// has words, waits under its own id instead (its visit merged into another in the run its
    /// note was written): it goes back with its visit, as a note the catalog knew does. Its
    /// photos, by id, come back as the fourth value, for the note to be known by.
    static func rehomed(_ days: [String: [JournalDocument]], unplaced: [JournalDocument], stored: [String: JournalNote], photos: VisitPhotos)
        -> ([String: [JournalDocument]], [RehomedNote], [String: String], [String: [Int64]]) {
        var unknownIDs = Set<String>()
        for files in days.values { for file in files { for block in file.blocks where isUnknown(block, stored: stored) { unknownIDs.insert(block.id) } } }
        guard !unknownIDs.isEmpty else { return (days, [], [:], [:]) }
        // The ids whose visit holds none of the photos above their block: the suspects.
        let own = photos.ofEachVisit(unknownIDs.sorted())
        var suspects: [(date: String, file: Int, block: Int)] = []
        for date in days.keys.sorted() {
            for (index, file) in days[date]!.enumerated() {
                for (position, block) in file.blocks.enumerated() where isUnknown(block, stored: stored) {
                    // Below no photo (a visit inside a privacy zone) there is nothing to check.
                    guard !block.photoLinks.isEmpty else { continue }
                    if members(linkedBy: block.photoLinks, among: own[block.id] ?? []) == nil { suspects.append((date, index, position)) }
                }
            }
        }
        guard !suspects.isEmpty else { return (days, [], [:], [:]) }
        let visitOf = photos.everyPhoto()
        var byName: [Substring: String?] = [:]
        for (path, visit) in visitOf {
            let name = fileName(path)
            if let known = byName[name], known != visit { byName[name] = .some(nil) } else { byName[name] = visit }
        }
        // Ids with words elsewhere are not given: the catalog's notes, and blocks with words
        // other than the suspects' own.
        let isSuspect = Set(suspects.map { "\($0.date)|\($0.file)|\($0.block)" })
        var taken = Set(stored.filter { $0.value.hasWords }.keys)
        // A waiting note the catalog does not know is set apart (`init`): it holds no id.
        for page in unplaced { for block in page.blocks where stored[block.id] != nil && block.hasWords { taken.insert(block.id) } }
        for (date, files) in days {
            for (index, file) in files.enumerated() {
                for (position, block) in file.blocks.enumerated() where !isSuspect.contains("\(date)|\(index)|\(position)") && block.hasWords {
                    taken.insert(block.id)
                }
            }
        }
        var days = days
        var found: [RehomedNote] = []
        var to: [String: String] = [:]
        var waiting: [String: [Int64]] = [:]
        var given = Set<String>()
        // Each suspect's claim: the visit holding most of the photos above it, with its share of
        // them and their count. Visits go to the greatest share, then the most photos, then the
        // first on the pages, as they do for the notes the catalog knows (`settle`): a note
        // beside one photo that joined a visit does not take it from the note beside five.
        let claims = suspects.enumerated().map { index, suspect -> (index: Int, best: String?, share: Double, count: Int) in
            let block = days[suspect.date]![suspect.file].blocks[suspect.block]
            var counts: [String: Int] = [:]
            for link in block.photoLinks {
                if let visit = visit(of: link, in: visitOf) ?? byName[fileName(link)] ?? nil { counts[visit, default: 0] += 1 }
            }
            let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
            return (index, best?.key, Double(best?.value ?? 0) / Double(block.photoLinks.count), best?.value ?? 0)
        }
        for claim in claims.sorted(by: { ($0.share, $0.count, $1.index) > ($1.share, $1.count, $0.index) }) {
            let suspect = suspects[claim.index], best = claim.best
            let block = days[suspect.date]![suspect.file].blocks[suspect.block]
            // Its own visit after all (its photos found by name only, a folder renamed); or no
            // visit holds them and its id names none now (its photos went in the same run): it
            // waits under its id, and goes back with its visit. Unless geotrip wrote it there
            // and the catalog does not know it (another catalog's note): that id proves nothing.
            let written = days[suspect.date]![suspect.file].writtenNotes?[block.id] != nil
            if best == block.id || best == nil && own[block.id] == nil && !written { continue }
            if let best, own[block.id] == nil, taken.contains(best) || given.contains(best),
               let members = members(linkedBy: block.photoLinks, among: photos.ofEachVisit([best])[best] ?? []) {
                waiting[block.id] = members
                continue
            }
            let id = best.flatMap { taken.contains($0) || given.contains($0) ? nil : $0 }
                ?? freeID(JournalNote.setApart(block.id, day: suspect.date)) { taken.contains($0) || given.contains($0) }
            given.insert(id)
            found.append(RehomedNote(written: block.id, visit: id.contains("@") ? nil : id, day: suspect.date))
            to[block.id] = id
            days[suspect.date]![suspect.file].blocks[suspect.block].id = id
        }
        // An empty block under an id given to a note is no note: it would shadow it.
        for date in days.keys {
            for index in days[date]!.indices {
                let blocks = days[date]![index].blocks
                var seen = Set<String>()
                let kept = blocks.filter { block in
                    guard given.contains(block.id) else { return true }
                    return block.hasWords && seen.insert(block.id).inserted
                }
                if kept.count != blocks.count { days[date]![index].blocks = kept }
            }
        }
        return (days, found.sorted { ($0.day, $0.written) < ($1.day, $1.written) }, to, waiting)
    }

    /// The last part of a path.
    private static func fileName(_ path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? Substring(path)
    }

    /// The photos (ids, sorted) `page` showed, all its photo lines (read with its links:
    /// `JournalDocument.init(bytes:links:)`), among those in visits now; nil for none.
    static func photosShown(on page: JournalDocument, _ photos: VisitPhotos, visitOf: () -> [String: String]) -> [Int64]? {
        let links = page.blocks.flatMap(\.photoLinks)
        guard !links.isEmpty else { return nil }
        let every = visitOf()
        let visits = Set(links.compactMap { visit(of: $0, in: every) })
        guard !visits.isEmpty else { return nil }
        return members(linkedBy: links, among: photos.ofEachVisit(visits.sorted()).values.flatMap { $0 })
    }

    /// The visit holding the photo a page's link leads to: the link without its leading `../`,
    /// whole, then without each further leading folder while a folder is left (the way from
    /// the journal to the trip folder has folders of its own with `--out`), looked up by path.
    /// A file name alone is not a path here: `byName` in `rehomed` takes it only when unique.
    static func visit(of link: String, in visitOf: [String: String]) -> String? {
        var path = Substring(link)
        while path.hasPrefix("../") { path = path.dropFirst(3) }
        // A photo at the top of the trip folder, linked without a folder.
        guard path.contains("/") else { return visitOf[String(path)] }
        while path.contains("/") {
            if let visit = visitOf[String(path)] { return visit }
            path = path[path.index(after: path.firstIndex(of: "/")!)...]
        }
        return nil
    }

    /// The text of each note, by owner id.
    var texts: [String: String] { all.mapValues(\.text) }

    /// Forgets the place names the notes of `owners` were remembered with (their visits are
    /// private now).
    mutating func forgetPlaces(of owners: Set<String>) {
        guard !owners.isEmpty else { return }
        for owner in owners { all[owner]?.placeName = nil }
        for index in gone.indices where owners.contains(gone[index].ownerID) { gone[index].placeName = nil }
    }
}

/// The photos of visits as the catalog has them now, for `JournalNotes` (the catalog's
/// queries in a run; a dictionary in tests).
struct VisitPhotos {
    /// The photos (id and path) of each of the visits given.
    var ofEachVisit: ([String]) -> [String: [(id: Int64, path: String)]] = { _ in [:] }
    /// The visit of every photo in one, by path (read only when a note's id names a visit
    /// holding none of the photos its page showed).
    var everyPhoto: () -> [String: String] = { [:] }
    /// The visit of each of the photos given (by id) that is in one.
    var visitOfPhotos: ([Int64]) -> [Int64: String] = { _ in [:] }
}
