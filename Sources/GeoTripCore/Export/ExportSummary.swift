/// What one export did, for the end of `ingest` and `export` (and as JSON with `--json`).
public struct ExportSummary: Sendable, Equatable, Encodable {
    /// The output folder, absolute.
    public var outputFolder = ""
    /// Files written because their content changed (or they were missing).
    public var written = 0
    /// Files whose content was already what geotrip would write: left untouched.
    public var unchanged = 0
    /// Day pages rendered; the others were already in their files as this export would write them.
    public var dayPagesRendered = 0
    /// Trips the library was split into (`trips/`); 0 for a folder that is one trip.
    public var trips = 0
    /// A folder that is one trip: its figures as its map and GeoJSON give them, privacy zones
    /// left out (also kept with the stored overview, for the summary of an unchanged rerun).
    /// Nil for a library, or when nothing was to be written.
    public var shared: TripOverview.Shared?
    /// How `--hide-near` changed the zones kept private in this run; nil when it did not.
    public var privacyChange: PrivacyZones.Report?
    /// Other geotrip output folders inside the folder (relative to it: a trip's or a library's,
    /// or a copy of one) whose journal pages hold notes, each with those pages: notes this
    /// catalog does not hold, which this export does not take in.
    public var notesInOtherOutputs: [NotesElsewhere] = []
    /// Thumbnails made in this run.
    public var thumbnails = 0
    /// Journal files removed because their day is no longer in the trip (their notes moved on).
    public var removed = 0
    /// Journal files that had been edited outside their notes blocks, or held words in a block
    /// that are not the note kept (`ExportStage.dropsWords`), kept as dated backups beside them
    /// (relative to the output folder) before they were rewritten or removed.
    public var backups: [String] = []
    /// Whether this export hid a home the last one did not (`--hide-home` again after
    /// `--no-hide-home`, or a home found or given for the first time): a zone added, as a
    /// `--hide-near` one is (`privacyChange`).
    public var homesNewlyHidden = false
    /// When this run added a privacy zone (`--hide-near`, or a home newly hidden): the dated
    /// backups kept in the output folder (this run's and earlier runs', relative paths). They
    /// are copies of pages as the person left them, never rewritten, so they may still show
    /// what lies inside the new zone.
    public var backupsBeforeZones: [String] = []
    /// Of those backups, the ones holding blocks opened and never closed (their end line
    /// changed or deleted): what was written there was not read as notes.
    public var unreadBlocks: [UnreadBlocks] = []
    /// Visits' headings a person wrote over in those backups (`JournalDocument.headingsWrittenOver`):
    /// geotrip writes headings anew, and the summary says how to name the place instead.
    public var headingsWrittenOver: [HeadingWrittenOver] = []
    /// Markdown files in a journal folder that are not geotrip's pages (a page renamed by the
    /// person) but hold words in notes blocks, which geotrip does not read (relative paths).
    public var unreadPages: [String] = []
    /// Files geotrip did not write (a person's own, a backup of an earlier run) in a library
    /// trip's folder that no trip writes any more, which stays for them (relative paths; not
    /// those said otherwise: this run's backups, `unreadPages`, `refused`).
    public var leftInFormerTrips: [String] = []
    /// The folder the catalog was remembered for, when `geotrip export` found it moved or
    /// copied to the folder exported (`Catalog.checkFolder`; `ingest` says it in its own summary).
    public var catalogFollowedFrom: String?
    /// The output folder `--out` moved away from in this run (absolute), when it is still there:
    /// its notes came along, and it is left as it is, never read again.
    public var formerOutputFolder: String?
    /// The file (relative to the output folder) keeping the words of notes that another copy
    /// outranked (`JournalNotes.replaced`; `replacedNoteCount` notes), when there were any.
    public var replacedNotes: String?
    /// How many notes `replacedNotes` keeps.
    public var replacedNoteCount = 0
    /// Saves a run stopped while writing had left under hidden names, where they are now (relative
    /// to the output folder): put back as their pages, or kept as dated backups beside them.
    public var rescued: [String] = []
    /// Notes whose visit or day is gone, in `journal/unplaced-notes.md`.
    public var unplacedNotes = 0
    /// Of those, the ids of blocks the person made up and named (`<!-- notes packing -->`),
    /// which no visit or day owns (`JournalNote.isGeotripsName`).
    public var ownBlocks: [String] = []
    /// Photos no day takes (no time found), listed in `journal/undated-photos.md` (those in a
    /// privacy zone left out, as the page leaves them out).
    public var undatedPhotos = 0
    /// In a library, the days with photos of which none has a position that lie in no trip:
    /// no trip takes a day without a placed photo but between its days, so theirs are on no
    /// page and no map (a camera without GPS on a trip of its own, or at home).
    public var daysInNoTrip: [String] = []
    /// In a library, a spot at least three trips are at alone, outside the privacy zones
    /// (`Library.tripsAtOneSpot`): a home photographed on few nights, not found as home, whose
    /// days are trips shown on their maps. With the command that makes it home.
    public var tripsAtOneSpot: TripsAtOneSpot?
    /// A folder made a library of trips only by a few photos dated far from the others
    /// (`Library.strayDays`), without `--home`: a stray date, whose home then takes days off
    /// the pages. Said on every run while it stands.
    public var libraryOnlyBy: StrayDates?
    /// A home found (not given) whose days fall in two stretches or fewer (`Library.homeLooksLikeAStay`):
    /// perhaps a hotel stayed at twice, whose days are then on no page. Said on every run.
    public var homeFromFewStays: HomeFromFewStays?
    /// `--home auto` given for a folder that is one trip, with no home found now or kept from
    /// an earlier export (home is the place of most nights over a library of trips).
    public var homeAutoNotFound = false
    /// Library trip folders this run took away whose days are now in other trips' folders (a
    /// trip whose first day moved, two trips merged, one split): links to them stop working.
    public var tripFoldersMoved: [TripFolderMove] = []
    /// Notes that went to another day's page with their visit, or came back from
    /// `journal/unplaced-notes.md` (`from` nil), in this run.
    public var movedNotes: [MovedNote] = []
    /// Notes the catalog did not know, found under an id that now names another visit (a
    /// catalog made again), put with the visit holding the photos shown above them.
    public var rehomedNotes: [RehomedNote] = []
    /// Places kept private as earlier homes that this export stopped hiding (`geotrip export
    /// --forget-old-homes`): none of today's homes, nor within 50 m of one.
    public var forgottenHomes: [Coordinate] = []
    /// Whether `--forget-old-homes` was followed (it is not in a folder with no home now: a
    /// problem says why); with no `forgottenHomes`, there was nothing to forget.
    public var forgettingFollowed = false
    /// Places shown with a name in another language than the trip's (`--lang`), for want of one in it.
    public var namesInOtherLanguages = 0
    /// Whether the trip's names are asked of an online service (`--geocoder nominatim`): if
    /// not, no name in another language than the gazetteer's will come.
    public var namesOnline = false
    /// The language of the journal's words and names.
    public var language = ""
    /// Paths (relative to the output folder) left alone because they are symbolic links or
    /// not regular files: never written through.
    public var refused: [String] = []

    /// Photos whose thumbnail could not be made, each with its sentence (the ingest's summary
    /// lists them with its other diagnostics).
    public var problems: [PhotoDiagnostic] = []

    /// Creates an empty summary.
    public init() {}

    /// Counts and lists of `other`, one part of the same export, added to these.
    mutating func add(_ other: ExportSummary) {
        shared = other.shared ?? shared
        written += other.written
        unchanged += other.unchanged
        dayPagesRendered += other.dayPagesRendered
        thumbnails += other.thumbnails
        removed += other.removed
        backups += other.backups
        unreadBlocks += other.unreadBlocks
        headingsWrittenOver += other.headingsWrittenOver
        unreadPages += other.unreadPages
        leftInFormerTrips += other.leftInFormerTrips
        rescued += other.rescued
        refused += other.refused.filter { !refused.contains($0) }
        problems += other.problems
    }
}

/// Another geotrip output folder inside the folder ingested, and its journal pages with notes.
public struct NotesElsewhere: Sendable, Equatable, Encodable {
    /// Relative to the folder ingested.
    public var folder: String
    /// Relative to `folder`.
    public var pages: [String]
}

/// What an export found that stands until something changes, which every run says: kept with
/// the outputs' record (`Catalog.SettingKey.standing`) for an unchanged rerun to say again.
struct StandingFacts: Codable, Equatable {
    var unplacedNotes = 0
    /// Optional, so a record written before it was kept still reads.
    var ownBlocks: [String]?
    var undatedPhotos = 0
    var daysInNoTrip: [String] = []
    var tripsAtOneSpot: TripsAtOneSpot?
    var libraryOnlyBy: StrayDates?
    var homeFromFewStays: HomeFromFewStays?
}

extension ExportSummary {
    /// Its `StandingFacts`.
    var standing: StandingFacts {
        get {
            StandingFacts(unplacedNotes: unplacedNotes, ownBlocks: ownBlocks.isEmpty ? nil : ownBlocks, undatedPhotos: undatedPhotos, daysInNoTrip: daysInNoTrip,
                          tripsAtOneSpot: tripsAtOneSpot, libraryOnlyBy: libraryOnlyBy, homeFromFewStays: homeFromFewStays)
        }
        set {
            unplacedNotes = newValue.unplacedNotes
            ownBlocks = newValue.ownBlocks ?? []
            undatedPhotos = newValue.undatedPhotos
            daysInNoTrip = newValue.daysInNoTrip
            tripsAtOneSpot = newValue.tripsAtOneSpot
            libraryOnlyBy = newValue.libraryOnlyBy
            homeFromFewStays = newValue.homeFromFewStays
        }
    }
}

/// A library trip's folder taken away, and the folders its days are in now
/// (`ExportSummary.tripFoldersMoved`).
public struct TripFolderMove: Sendable, Equatable, Encodable {
    public var from: String
    public var to: [String]
    /// Whether `from` is a name geotrip never gives (`trips/Rome 2024`): a folder the person
    /// renamed, whose pages were read for notes and removed.
    public var renamed = false
    /// When `from` is still a trip's folder (a trip split in two): the days whose pages went
    /// to `to`. Empty when the whole folder was taken away.
    public var daysMoved: [String] = []
}

/// A spot that trips are at alone (`ExportSummary.tripsAtOneSpot`).
public struct TripsAtOneSpot: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var trips: Int
    /// `geotrip export DIR --home LAT,LON`, which makes them days at home and keeps the spot private.
    public var homeCommand: String
}

/// A home found by its nights whose days fall in a few stretches (`ExportSummary.homeFromFewStays`).
public struct HomeFromFewStays: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var stretches: [Library.DaySpan]
    /// Its days, on no page and no map.
    public var days: Int
    /// `geotrip export DIR --home LAT,LON`, with the place to write in.
    public var homeCommand: String
}

/// The few photos whose dates alone make a folder a library of trips
/// (`ExportSummary.libraryOnlyBy`).
public struct StrayDates: Sendable, Equatable, Codable {
    /// Their days, `YYYY-MM-DD`.
    public var days: [String]
    /// How many photos those days hold, and how many the others.
    public var photos: Int
    public var others: Int
    /// Up to three of them, by path (those placed: an unplaced one is on its day's page).
    public var paths: [String]
    /// Whether a home was found (whose days are then on no page); nil in a record from before.
    public var homeFound: Bool?
}

/// A note that followed its visit to another day's page (`ExportSummary.movedNotes`).
public struct MovedNote: Sendable, Equatable, Encodable {
    /// The visit's id (`v17`); for a day's own note, its day (`YYYY-MM-DD`, as its block is named).
    public var visit: String
    /// The day whose page held it (`YYYY-MM-DD`), or nil: the page of notes whose visit is gone.
    public var from: String?
    /// The day whose page holds it now.
    public var to: String
    /// Whether it was written in this run on `from`'s page, which was not its visit's (a block
    /// moved there by hand, or its visit moved day in the same run): put on its visit's page,
    /// not known to have followed it.
    public var writtenElsewhere = false

    /// Whether it is a day's own note (`visit` is its day).
    public var isDayNote: Bool { JournalNote.isDay(visit) }

    /// Creates one.
    public init(visit: String, from: String?, to: String, writtenElsewhere: Bool = false) {
        self.visit = visit
        self.from = from
        self.to = to
        self.writtenElsewhere = writtenElsewhere
    }
}

/// A note found under an id that now names another visit: put with the visit that holds the
/// photos its page showed above it, or set apart to wait on the page of unplaced notes
/// (`ExportSummary.rehomedNotes`).
public struct RehomedNote: Sendable, Equatable, Encodable {
    /// The id its block had in the page (`v53`).
    public var written: String
    /// The visit it is with now; nil when no visit could take it: it waits on
    /// `journal/unplaced-notes.md`, under an id of its own (`v17@2025-06-10`).
    public var visit: String?
    /// The day of its page.
    public var day: String

    /// Whether it is a day's note (`written` a day), which waits when its day holds other
    /// photos now (a camera's clock put right), not a visit's.
    public var isDayNote: Bool { JournalNote.isDay(written) }

    /// Creates one.
    public init(written: String, visit: String?, day: String) {
        self.written = written
        self.visit = visit
        self.day = day
    }

    private enum CodingKeys: String, CodingKey { case written, visit, day }

    /// `visit` as JSON `null` when the note was set apart, rather than left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(written, forKey: .written)
        try container.encode(visit, forKey: .visit)
        try container.encode(day, forKey: .day)
    }
}

/// A journal page kept as a backup whose blocks `ids` were never closed: what they held is
/// there only (`ExportSummary.unreadBlocks`).
/// A visit's heading a person wrote over in a journal page, found in the page's backup
/// (`ExportSummary.headingsWrittenOver`).
public struct HeadingWrittenOver: Sendable, Equatable, Encodable {
    /// The backup, relative to the output folder.
    public var backup: String
    /// The visit whose section it heads (`v17`), and its place (`p4`; nil when the visit is gone).
    public var visit: String
    public var place: String?
    /// The heading as the person wrote it, without its `## `.
    public var heading: String
    /// `geotrip rename FOLDER PLACE 'HEADING'`, which names the place so (nil with no place).
    public var renameCommand: String?
    /// What followed ` · ` in a heading that kept geotrip's shape (`TIME · PLACE`), while it
    /// is not known whether the person wrote over the place's name there; not in `--json`.
    var placeWritten: String?

    init(backup: String, visit: String, place: String?, heading: String, renameCommand: String? = nil, placeWritten: String? = nil) {
        (self.backup, self.visit, self.place, self.heading, self.renameCommand, self.placeWritten) = (backup, visit, place, heading, renameCommand, placeWritten)
    }

    enum CodingKeys: String, CodingKey { case backup, visit, place, heading, renameCommand }
}

public struct UnreadBlocks: Sendable, Equatable, Encodable {
    /// The backup, relative to the output folder.
    public var backup: String
    /// The ids of the blocks whose end line is gone.
    public var ids: [String]

    /// Creates one.
    public init(backup: String, ids: [String]) {
        self.backup = backup
        self.ids = ids
    }
}
