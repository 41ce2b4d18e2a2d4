import Foundation
import GRDB

extension Catalog {
    /// The catalog's own id, 16 hex digits drawn at random the first time it is asked and
    /// kept: the output folder's owner file names the catalog writing its journal
    /// (`OutputFolder.checkOwner`, which refuses a second one). A copy of the file shares it.
    func identity() throws(GeoTripError) -> String {
        // Read first: every run that writes asks (`claim`), and an unchanged rerun writes nothing.
        if let id = try setting(SettingKey.identity), Self.isIdentity(Substring(id)) { return id }
        return try attempt {
            try database.write { db in
                if let id = try TripSettingRecord.value(db, SettingKey.identity), Self.isIdentity(Substring(id)) { return id }
                let id = String(format: "%016llx", UInt64.random(in: 1...UInt64.max))
                try TripSettingRecord.set(db, SettingKey.identity, to: id)
                return id
            }
        }
    }

    /// Whether `word` is shaped like a catalog's `identity`.
    static func isIdentity(_ word: Substring) -> Bool {
        word.utf8.count == 16 && word.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Every stored journal note, by owner id.
    func journalNotes() throws(GeoTripError) -> [String: JournalNote] {
        do {
            return try database.read { db in
                Dictionary(uniqueKeysWithValues: try JournalNoteRecord.fetchAll(db).map { ($0.ownerId, $0.note) })
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// When each stored note's text last changed, by owner id, in nanoseconds since 1970
    /// (`JournalNotes` weighs the journal files' copies against it).
    func journalNoteTimes() throws(GeoTripError) -> [String: Int64] {
        try attempt {
            try database.read { db in
                var times: [String: Int64] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT ownerId, updatedAt FROM journalNote") {
                    if let date = UTCTimestamp.date(row[1] as String?) { times[row[0]] = Int64((date.timeIntervalSince1970 * 1e9).rounded()) }
                }
                return times
            }
        }
    }

    /// Makes the stored notes `notes` (by owner id), writing only what differs: changed notes
    /// are updated, new ones inserted, and owners no longer among them deleted. Returns whether
    /// anything was written.
    @discardableResult
    func saveJournalNotes(_ notes: [String: JournalNote], at time: Date = Date(), writtenAt: [String: Int64] = [:]) throws(GeoTripError) -> Bool {
        let records = try attempt { try database.read { db in try JournalNoteRecord.fetchAll(db) } }
        let stored = Dictionary(uniqueKeysWithValues: records.map { ($0.ownerId, $0) })
        let changed = notes.values.filter { stored[$0.ownerID]?.note != $0 }
        let gone = stored.keys.filter { notes[$0] == nil }
        guard !changed.isEmpty || !gone.isEmpty else { return false }
        let stamp = time.geotripISO8601 ?? ""
        do {
            try database.write { db in
                for chunk in gone.chunked(500) { try JournalNoteRecord.filter(chunk.contains(JournalNoteRecord.Columns.ownerId)).deleteAll(db) }
                for note in changed {
                    // `updatedAt` is when the text changed (`journalNoteTimes`): when the person
                    // saved the file it came from (`writtenAt`), else now; a note that only
                    // moved day or place keeps its time.
                    let before = stored[note.ownerID]
                    let changedAt = writtenAt[note.ownerID].flatMap { Date(timeIntervalSince1970: Double($0) / 1e9).geotripISO8601 } ?? stamp
                    try JournalNoteRecord(ownerId: note.ownerID, kind: note.isDayNote ? "day" : "visit", text: note.text,
                                          placeName: note.placeName, localDate: note.localDate,
                                          updatedAt: before.map { $0.text == note.text ? $0.updatedAt : changedAt } ?? changedAt,
                                          members: JournalNoteRecord.membersText(note.members)).upsert(db)
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
        return true
    }

    /// The photos present and read, in time order (resolved time, else the camera's clock;
    /// then path), with their resolved places and visits: all of them, or those whose moment
    /// lies in `window` with the Live Photo videos of the stills among them (wherever their
    /// own moment lies).
    public func tripPhotos(in window: MomentWindow? = nil) throws(GeoTripError) -> [TripPhoto] {
        do {
            // A cursor, not fetchAll: copying each of a library's rows before decoding it was
            // most of the export's reading time. Sorted here, not by SQLite: its sort of the
            // wide rows took four times as long as reading them (no index has this order).
            return try database.read { db in
                // Each photo once: a Live Photo's video may lie in the window too.
                var photos = TripPhotoList(deduplicating: window != nil)
                let present = "p.removedAt IS NULL AND p.status = 'read'"
                if let window {
                    try photos.add(db, "SELECT \(Self.tripPhotoColumns) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id WHERE "
                                   + window.condition("p") + " AND " + present, window.arguments)
                    try photos.add(db, "SELECT \(Self.tripPhotoColumns) FROM photo s JOIN photo p ON p.liveStillId = s.id "
                                   + "LEFT JOIN visitPhoto vp ON vp.photoId = p.id WHERE " + window.condition("s") + " AND " + present,
                                   window.arguments)
                } else {
                    try photos.add(db, "SELECT \(Self.tripPhotoColumns) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id WHERE " + present, [])
                }
                return photos.sorted()
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The columns `tripPhoto(_:)` decodes, of `photo p` joined with `visitPhoto vp`.
    static let tripPhotoColumns = """
        p.id, p.path, p.utcTime, p.resolvedLatitude, p.resolvedLongitude, p.locationSource, p.uncertaintyMeters,
        vp.visitId, p.orientation, p.thumbnailOffset, p.thumbnailLength, p.fileSize, p.modifiedNanos, p.format,
        p.durationSeconds, p.liveStillId, coalesce(p.wallTime, p.localTime), p.pixelKey
        """

    /// How many columns `tripPhotoColumns` names, and where its times are (the camera's clock as
    /// corrected: `ResolvedPhoto.cameraTime`).
    static let tripPhotoColumnCount = 18
    static let tripPhotoUTCColumn = 2
    static let tripPhotoLocalTimeColumn = 16

    /// One row of `tripPhotoColumns`.
    static func tripPhoto(_ row: Row) -> TripPhoto {
        let latitude: Double? = row[3], longitude: Double? = row[4]
        var photo = TripPhoto(id: row[0], path: row[1], utcTime: row[2],
                              coordinate: latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } },
                              locationSource: row[5], uncertaintyMeters: row[6], visitID: row[7], orientation: row[8],
                              thumbnailOffset: row[9], thumbnailLength: row[10])
        photo.fileSize = row[11]
        photo.modifiedNanos = row[12]
        photo.format = (row[13] as String?).flatMap(ImageFormat.init(rawValue:))
        photo.durationSeconds = row[14]
        photo.liveStillID = row[15]
        photo.pixelKey = row[17]
        return photo
    }

    /// Whether the photos of each window (nil: all photos) changed, as text to compare with the
    /// last export's: how many rows and the largest change stamp (`v11-photo-stamps`), over the
    /// window's rows, removed ones included, and over the Live Photo videos of its stills.
    /// From the `photo_moment` and `photo_live_still` indexes, without reading a photo row, and
    /// in one read for all the windows (a library has a trip for every few thousand photos).
    /// A library's windows are read in two halves at once: the export waits on this, and its
    /// other core is free by then (the export reads under the run lock, so both halves see
    /// the same catalog).
    func photoChanges(in windows: [MomentWindow?]) throws(GeoTripError) -> [String] {
        try inHalves(windows, from: 8) { part throws(GeoTripError) in try photoChanges(inOneRead: part) }.flatMap { $0 }
    }

    /// `photoChanges(in:)` in one read.
    private func photoChanges(inOneRead windows: [MomentWindow?]) throws(GeoTripError) -> [String] {
        do {
            return try database.read { db in
                let rows = try db.cachedStatement(sql: Self.photoChangesSQL)
                let videos = try db.cachedStatement(sql: Self.livePhotoChangesSQL)
                func figures(_ statement: Statement, _ arguments: StatementArguments) throws -> String {
                    guard let row = try Row.fetchOne(statement, arguments: arguments) else { return "" }
                    return "\((row[0] as Int64?) ?? 0),\((row[1] as Int64?) ?? -1)"
                }
                return try windows.map { window in
                    guard let window else {
                        return try figures(try db.cachedStatement(sql: "SELECT count(*), max(changeStamp) FROM photo"), [])
                    }
                    let bounds: StatementArguments = [window.start, window.end]
                    return try figures(rows, bounds) + ";" + figures(videos, bounds)
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// A window's rows counted and their largest change stamp: `MomentWindow.condition` as two
    /// searches of `photo_moment` added up. The condition's `OR` made SQLite collect the rows'
    /// ids and read each row from the table, three times the work of the two index searches.
    static let photoChangesSQL = """
        SELECT sum(n), max(m) FROM (
            SELECT count(*) AS n, max(changeStamp) AS m FROM photo WHERE utcTime >= ?1 AND utcTime < ?2
            UNION ALL SELECT count(*), max(changeStamp) FROM photo WHERE utcTime IS NULL AND localTime >= ?1 AND localTime < ?2)
        """

    /// The same over the Live Photo videos of the window's stills.
    static let livePhotoChangesSQL = """
        SELECT sum(n), max(m) FROM (
            SELECT count(*) AS n, max(p.changeStamp) AS m FROM photo s JOIN photo p ON p.liveStillId = s.id
                WHERE s.utcTime >= ?1 AND s.utcTime < ?2
            UNION ALL SELECT count(*), max(p.changeStamp) FROM photo s JOIN photo p ON p.liveStillId = s.id
                WHERE s.utcTime IS NULL AND s.localTime >= ?1 AND s.localTime < ?2)
        """

    /// The options whose values the `export` setting remembers.
    static let exportOptionNames = "--out, --hide-near, --photos (or --no-photos), --tiles with --tiles-attribution, and --thumbnails (or --no-thumbnails)"

    /// Every home the folder has had as a library of trips (`SettingKey.keptHome`: one, as an
    /// older geotrip kept it, or a list); empty when it never had one. Throws
    /// `settingUnreadable` for a setting in another form (a hand edit): the caller keeps it as
    /// it is, so no earlier home is forgotten by overwriting it.
    func keptHomes() throws(GeoTripError) -> [Coordinate] {
        guard let text = try setting(SettingKey.keptHome) else { return [] }
        let data = Data(text.utf8)
        if let list = try? JSONDecoder().decode([Coordinate].self, from: data) { return list }
        if let one = try? JSONDecoder().decode(Coordinate.self, from: data) { return [one] }
        throw .settingUnreadable(catalog: path, key: SettingKey.keptHome, options: "--home")
    }

    /// Remembers `homes` as the homes kept private (`keptHomes`).
    func keepHomes(_ homes: [Coordinate]) throws(GeoTripError) {
        try setJSONSetting(SettingKey.keptHome, to: homes, what: "the homes kept private")
    }

    /// `library`'s trips as the export shares them, each by its own zones: those kept private
    /// (`ExportSettings.privacy(for:keptHomes:)`, with the remembered settings and homes), and
    /// around the visits of that trip placed only from a hidden neighbour
    /// (`PrivacyZones.neighbourZones`, among `whole`'s visits `Library.visitsBesideTrips`, as
    /// shared: `shared(visits:leavingOut:)`); each trip's visits shared by them
    /// (`shared(_:leavingOut:)`). `zones` holds every trip's.
    public func sharedLibrary(_ library: Library, of whole: Trip) throws(GeoTripError) -> (library: Library, zones: PrivacyZones, privacy: [PrivacyZones]) {
        let base = try storedExportSettings().privacy(for: library, keptHomes: keptHomes())
        let neighbours = try keptPrivate(base, among: library.visitsBesideTrips(of: whole)).neighbourZones
        let privacy = library.trips.map { trip in
            let visits = Set(trip.trip.visits.map(\.id))
            return PrivacyZones(base.zones + neighbours.filter { visits.contains($0.visit) }.map(\.zone))
        }
        var shared = library
        for (index, trip) in try self.shared(library.trips.map(\.trip), leavingOut: privacy).enumerated() { shared.trips[index].trip = trip }
        return (shared, PrivacyZones(base.zones + neighbours.map(\.zone)), privacy)
    }

    /// The homes kept private from earlier exports that are none of `library`'s now (nor within
    /// 50 m of one): what `geotrip export --forget-old-homes` would stop hiding.
    public func earlierHomes(than library: Library) throws(GeoTripError) -> [Coordinate] {
        try ExportSettings.earlier(keptHomes(), than: library.homes.flatMap(\.privateSpots))
    }

    /// `keptHomes`, or none when the setting cannot be read (the export says so, once).
    func keptHomesIfReadable() -> [Coordinate] {
        do { return try keptHomes() } catch { return [] }
    }

    /// The trip's remembered export settings, without writing.
    public func storedExportSettings() throws(GeoTripError) -> ExportSettings {
        try storedJSON(SettingKey.export, options: Self.exportOptionNames) ?? ExportSettings()
    }

    /// The trip's export settings: each one given now, else the one remembered, else the
    /// default; what is given is remembered. `outputFolder` `.some(nil)` is the default folder.
    /// The privacy zones are the remembered ones as `privacy` changes them; how they changed
    /// goes in `privacyReport`.
    func exportSettings(outputFolder: String?? = nil, privacy: PrivacyZones.Change? = nil, photoPoints: Bool? = nil,
                        tiles: TripMapInput.Tiles?? = nil, thumbnails: Bool? = nil, home: Coordinate?? = nil,
                        hideHome: Bool? = nil, privacyReport: inout PrivacyZones.Report?) throws(GeoTripError) -> ExportSettings {
        let stored: ExportSettings?
        do {
            stored = try storedExportSettings()
        } catch {
            // Every value given (the zones afresh, with `none`): what was remembered does not
            // matter, even if it cannot be read.
            guard case .settingUnreadable = error, outputFolder != nil, privacy?.forgetting == true, photoPoints != nil else { throw error }
            stored = nil
        }
        let fallback = stored ?? ExportSettings()
        var settings = ExportSettings(outputFolder: outputFolder ?? fallback.outputFolder, privacy: privacy?.applied(to: fallback.privacy) ?? fallback.privacy,
                                      photoPoints: photoPoints ?? fallback.photoPoints)
        privacyReport = PrivacyZones.Report(from: fallback.privacy, to: settings.privacy)
        settings.tiles = tiles ?? fallback.tiles
        settings.thumbnails = thumbnails ?? fallback.thumbnails
        settings.home = home ?? fallback.home
        settings.hideHome = hideHome ?? fallback.hideHome
        let storedText = try setting(SettingKey.export)
        if let stored, stored.outputFolder != settings.outputFolder { try leave(outputFolder: stored.outputFolder, for: settings.outputFolder) }
        if settings != stored || storedText == nil { try setJSONSetting(SettingKey.export, to: settings, what: "the export settings") }
        return settings
    }

    /// Remembers that the output folder `old` was left for `new` (nil: the default): the notes
    /// written in `old` are read by the next export, and the scan never takes it for photos.
    private func leave(outputFolder old: String?, for new: String?) throws(GeoTripError) {
        let earlier = try earlierOutputFolders().filter { $0 != (new ?? "") && $0 != (old ?? "") } + [old ?? ""]
        try setJSONSetting(SettingKey.earlierOutputFolders, to: earlier, what: "the earlier output folders")
        try setSetting(SettingKey.notesLeftIn, to: old ?? "")
    }

    /// The output folders used before the current one (`ExportSettings.outputFolder`, "" for
    /// the default), oldest first.
    func earlierOutputFolders() throws(GeoTripError) -> [String] {
        guard let text = try setting(SettingKey.earlierOutputFolders) else { return [] }
        // Unreadable (a hand edit): forgotten, as no option could give it again; the next
        // change of --out starts the list anew.
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}

/// A stretch of capture time in the catalog's order of photos (`coalesce(utcTime, localTime)`,
/// the resolved instant, else the camera's clock): from `start` up to, not including, `end`,
/// both in the catalog's ISO 8601 text. A library trip's photos lie in one.
public struct MomentWindow: Sendable, Equatable {
    public var start: String
    public var end: String

    /// The condition on `table`'s photos, with `arguments`: `coalesce(utcTime, localTime)` in
    /// the window, spelled out so that SQLite finds it in `photo_moment` (one search for each side).
    func condition(_ table: String) -> String {
        "((\(table).utcTime >= ? AND \(table).utcTime < ?) OR (\(table).utcTime IS NULL AND \(table).localTime >= ? AND \(table).localTime < ?))"
    }

    var arguments: StatementArguments { [start, end, start, end] }
}

extension Catalog {
    /// Places with a name in `language`: the person's own, or an online one in that language
    /// that the place still shows (`Catalog.outOfReach`); for English also the gazetteer's,
    /// whose names are English or the local ones travellers use.
    func placesNamed(inLanguage language: String) throws(GeoTripError) -> Set<String> {
        let english = language.lowercased() == "en" || language.lowercased().hasPrefix("en-")
        do {
            return try database.read { db in
                Set(try String.fetchAll(db, sql: """
                    SELECT DISTINCT n.placeId FROM placeName n
                    WHERE n.name IS NOT NULL AND (n.source = 'manual' OR (n.source = 'nominatim' AND n.language = ? AND NOT \(Self.outOfReach))
                        OR (? AND n.source = 'offline'))
                    """, arguments: [language, english]))
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}

extension Catalog {
    /// The state of the catalog the outputs render from, in two parts, the notes' apart
    /// (`notesSourceState`; the export records the notes it saved): the photos' (the last
    /// change stamp given, `v24-output-stamps`, the last row added and the counts of rows
    /// present), the layout's stamp (`SettingKey.layoutStamp`), the clustering options (the
    /// export places photos on days by their rule), and a summary of the names and notes. A
    /// run that read files again without changing what they are made into (another program's
    /// rating) leaves it. Read without a pass over the photos: a million rows took 0.2 s.
    func exportSourceState() throws(GeoTripError) -> (rest: String, notes: String) {
        do {
            return try database.read { db in
                let photos = try Row.fetchOne(db, sql: Self.photoSourceStateSQL)
                    .map { row in (0..<8).map { "\((row[$0] as Int64?) ?? -1)" }.joined(separator: ",") } ?? ""
                let layout = try TripSettingRecord.value(db, SettingKey.layoutStamp) ?? ""
                let rule = try TripSettingRecord.value(db, SettingKey.clustering) ?? ""
                let clustered = photos + "|" + layout + "|" + rule
                let names = try Row.fetchOne(db, sql: """
                    SELECT count(*), max(namedAt), total(length(coalesce(name, ''))), total(revision) FROM placeName
                    """).map { "\($0[0] as Int),\(($0[1] as String?) ?? ""),\($0[2] as Double),\($0[3] as Double)" } ?? ""
                return (clustered + "|" + names, try Self.notesSourceState(db))
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}

extension Catalog {
    /// The notes' part of `exportSourceState`, apart: what the export's first step saves
    /// (`ExportStage.run`) is recorded with the outputs written from it.
    func notesSourceState() throws(GeoTripError) -> String {
        try attempt { try database.read { db in try Self.notesSourceState(db) } }
    }

    static func notesSourceState(_ db: Database) throws -> String {
        try Row.fetchOne(db, sql: "SELECT count(*), max(updatedAt), total(length(text)) FROM journalNote")
            .map { "\($0[0] as Int),\(($0[1] as String?) ?? ""),\($0[2] as Double)" } ?? ""
    }

    /// The photos' part of `exportSourceState`: three lookups by key, no pass over the photos.
    static let photoSourceStateSQL = """
        SELECT (SELECT value FROM photoChangeCounter WHERE id = 1), (SELECT max(id) FROM photo),
            withGPS, withoutGPS, unreadable, skipped, videos, livePhotoVideos FROM photoCounts WHERE id = 1
        """
}

extension Catalog {
    /// Each trip folder's last export, by folder; empty when none is stored or it is in an
    /// older shape (derived data: the trips are exported again).
    func exportedTrips() throws(GeoTripError) -> [String: ExportStage.ExportedTrip] {
        guard let stored = try setting(SettingKey.exportedTrips) else { return [:] }
        return (try? JSONDecoder().decode([String: ExportStage.ExportedTrip].self, from: Data(stored.utf8))) ?? [:]
    }

    /// Each of `library`'s trips' distance outside `zones`, as the page of trips gives it: its
    /// map's when its last export measured it (`ExportStage.ExportedTrip.distance`).
    public func distances(of library: Library, outside zones: [PrivacyZones]) throws(GeoTripError) -> [Double] {
        let exported = try exportedTrips()
        return zip(library.trips, zones).map { ExportStage.ExportedTrip.distance(of: $0.trip, outside: $1, exported: exported[$0.folder]) }
    }

    /// Stores each trip folder's last export.
    func saveExportedTrips(_ trips: [String: ExportStage.ExportedTrip]) throws(GeoTripError) {
        try setJSONSetting(SettingKey.exportedTrips, to: trips, what: "the trips' export state")
    }

    /// The trip and the library it splits into, with the remembered `--home`; without
    /// `photoPaths`, visits carry only their photo counts (`trip(photoPaths:)`).
    public func library(photoPaths: Bool = true) throws(GeoTripError) -> (trip: Trip, library: Library) {
        let trip = try trip(photoPaths: photoPaths)
        return (trip, TripSplitting.split(trip, givenHome: try storedExportSettings().home, keptHomes: keptHomesIfReadable()))
    }
}
