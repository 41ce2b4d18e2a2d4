import Foundation
import GRDB

extension Catalog {
    /// Catalog coordinates are kept to 1e-7° (1 cm): no false precision.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// The whole trip, from the stored visits with their best names, the photos outside visits
    /// (by the trip's day rule) and the days clustering recorded. Without `photoPaths`, visits
    /// carry only their photo counts (what `places` prints), and a library's paths are not read.
    /// Without `outside`, days carry no unplaced photos and there are no undated ones (what
    /// splitting a library into trips needs: each trip reads its own when it is rendered).
    public func trip(photoPaths: Bool = true, outside withOutside: Bool = true, localTimes: Bool = true) throws(GeoTripError) -> Trip {
        let visits = try visits(withPhotos: photoPaths, localTimes: localTimes)
        let outside = withOutside ? try photosOutsideVisits(rule: try storedClusteringOptions().dayRule) : []
        let days: [String]
        do {
            days = try database.read { try String.fetchAll($0, sql: "SELECT localDate FROM tripDay ORDER BY localDate") }
        } catch {
            throw Self.classify(error, path: path)
        }
        return Trip(visits: visits, outside: outside, days: days)
    }

    /// The trip in a few figures, from the stored visits, names and days: the same figures as
    /// `trip().overview` without reading a photo row, and without making a value of each visit
    /// (at a million photos, 426,000 of them took seconds): the days recorded and visited, the
    /// route through the visits' centres in travel order (by arrival, then centre:
    /// `TripVisit.precedes`, `Trip.visitsInTravelOrder`), and the countries of the places'
    /// best names.
    func overview() throws(GeoTripError) -> TripOverview {
        let language = try storedNamingLanguage()
        return try attempt {
            try database.read { db in
                var overview = TripOverview()
                overview.days = try String.fetchAll(db, sql: "SELECT localDate FROM tripDay UNION SELECT localDate FROM visit ORDER BY 1")
                var previous: Coordinate?
                var metres = 0.0
                let centres = try Row.fetchCursor(db, sql: "SELECT latitude, longitude FROM visit ORDER BY \(UTCTimestamp.orderSQL("arrival")), latitude, longitude, id")
                while let row = try centres.next() {
                    let centre = Coordinate(latitude: row[0], longitude: row[1])
                    if let previous { metres += GreatCircle.distance(previous, centre) }
                    previous = centre
                    overview.visits += 1
                }
                overview.distanceKilometres = metres / 1000
                let visited = Set(try String.fetchAll(db, sql: "SELECT DISTINCT placeId FROM visit"))
                overview.places = visited.count
                // Each place's country: its best name's, else the next name's that has one.
                var counted: Set<String> = [], countries: Set<String> = []
                let names = try Row.fetchCursor(db, sql: Self.bestNamesSQL, arguments: [language])
                while let row = try names.next() {
                    let place: String = row[0]
                    guard visited.contains(place), !counted.contains(place), let code: String = row[4] else { continue }
                    counted.insert(place)
                    countries.insert(code)
                }
                overview.countries = countries.sorted()
                return overview
            }
        }
    }

    /// Stores `overview` (one worked out anew: the last derivation's, a rename's), for an
    /// unchanged rerun to report, with the shared outputs' figures the stored one holds
    /// (`TripOverview.keepingShared`); returns it as stored.
    @discardableResult
    func saveOverview(_ overview: TripOverview) throws(GeoTripError) -> TripOverview {
        let kept = overview.keepingShared(of: try storedOverview())
        try setJSONSetting(SettingKey.tripOverview, to: kept, what: "the trip overview")
        return kept
    }

    /// Keeps `shared` (the export's figures of a folder that is one trip; nil for a library)
    /// with the stored overview, when there is one.
    func saveSharedFigures(_ shared: TripOverview.Shared?) throws(GeoTripError) {
        guard var overview = try storedOverview(), overview.shared != shared else { return }
        overview.shared = shared
        try setJSONSetting(SettingKey.tripOverview, to: overview, what: "the trip overview")
    }

    /// The overview the last derivation stored; nil when there is none or it is in an older
    /// shape (it is derived data: the caller computes it again).
    func storedOverview() throws(GeoTripError) -> TripOverview? {
        try jsonSetting(SettingKey.tripOverview, as: TripOverview.self)
    }

    /// Photos that belong to no visit (no position, or no time), by local day under `rule` (the
    /// same day a visit at that moment would be on): they stay in the day's timeline. All of
    /// them, or those whose moment lies in `window`.
    public func photosOutsideVisits(rule: LocalDayRule, in window: MomentWindow? = nil) throws(GeoTripError) -> [(path: String, localDate: String?)] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT p.path, p.utcTime, p.timeZone, coalesce(p.wallTime, p.localTime) FROM photo p LEFT JOIN visitPhoto vp ON vp.photoId = p.id
                    WHERE vp.photoId IS NULL AND p.removedAt IS NULL AND p.status = 'read' AND p.liveStillId IS NULL
                    \(window.map { "AND " + $0.condition("p") } ?? "") ORDER BY coalesce(p.utcTime, p.wallTime, p.localTime), p.path
                    """, arguments: window?.arguments ?? []).map { row in
                    (row[0], rule.day(utc: UTCTimestamp.date(row[1]), zone: row[2], cameraTime: row[3]))
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// The photos no day takes (`Trip.undatedPhotos`, as `photosOutsideVisits` finds them:
    /// in no visit, and no day under `rule` from their time, zone or camera clock), by path,
    /// each with its camera time when it has one (an implausible one).
    /// Live Photo videos go with their stills. Read through the partial index `photo_undated`
    /// (no resolved time or no zone; named, as SQLite would rather walk the paths' index for
    /// the order), narrowed on its camera times to those missing or implausible as of `now`:
    /// a library of cameras without GPS has many photos without a zone, and those with a
    /// plausible camera time are not read.
    func undatedPhotos(rule: LocalDayRule, now: Date) throws(GeoTripError) -> [(photo: TripPhoto, cameraTime: String?)] {
        // Camera times are `YYYY-MM-DDTHH:MM:SS[.fff]`: compared as text with the bounds'
        // first 19 characters, a superset of the implausible ones, which `rule.day` decides.
        let bounds = [PlausibleCaptureTime.earliest, PlausibleCaptureTime.latest(now: now)].map { String(($0.geotripISO8601 ?? "").prefix(19)) }
        return try attempt {
            try database.read { db in
                var photos: [(photo: TripPhoto, cameraTime: String?)] = []
                let rows = try Row.fetchCursor(db, sql: Self.undatedPhotosSQL, arguments: StatementArguments(bounds))
                while let row = try rows.next() {
                    let day = rule.day(utc: UTCTimestamp.date(row[Self.tripPhotoUTCColumn]), zone: row[Self.tripPhotoColumnCount],
                                       cameraTime: row[Self.tripPhotoLocalTimeColumn])
                    if day == nil { photos.append((Self.tripPhoto(row), row[Self.tripPhotoColumnCount + 1])) }
                }
                return photos
            }
        }
    }

    /// How many photos without a position the track logs (`span`, their first and last points)
    /// cannot place for want of an instant: a camera time but no zone to read it in (no offset
    /// tag, no GPS time, no position to find one), that lies within the span in some zone
    /// (14 hours either side of it).
    func photosUntimedInTrack(_ span: ClosedRange<Date>) throws(GeoTripError) -> Int {
        let bounds = [span.lowerBound.addingTimeInterval(-14 * 3600), span.upperBound.addingTimeInterval(14 * 3600)]
            .map { String(($0.geotripISO8601 ?? "").prefix(19)) }
        return try attempt {
            try database.read { db in
                // The first condition is the partial index's own, so SQLite may use it.
                try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM photo p INDEXED BY photo_undated
                    WHERE (p.utcTime IS NULL OR p.timeZone IS NULL) AND p.utcTime IS NULL
                    AND coalesce(p.wallTime, p.localTime) >= ?1 AND coalesce(p.wallTime, p.localTime) <= ?2
                    AND p.resolvedLatitude IS NULL AND p.removedAt IS NULL AND p.status = 'read' AND p.liveStillId IS NULL
                    """, arguments: StatementArguments(bounds)) ?? 0
            }
        }
    }

    /// `undatedPhotos`' rows: `tripPhotoColumns`, the zone and the camera's own time, of the
    /// photos in `photo_undated` (no resolved time, or no zone to read it in) whose camera
    /// time as corrected is missing or outside the two bounds given.
    static let undatedPhotosSQL = """
        SELECT \(tripPhotoColumns), p.timeZone, p.localTime FROM photo p INDEXED BY photo_undated LEFT JOIN visitPhoto vp ON vp.photoId = p.id
        WHERE (p.utcTime IS NULL OR p.timeZone IS NULL)
        AND (coalesce(p.wallTime, p.localTime) IS NULL OR coalesce(p.wallTime, p.localTime) < ?1 OR coalesce(p.wallTime, p.localTime) > ?2)
        AND vp.photoId IS NULL AND p.removedAt IS NULL AND p.status = 'read' AND p.liveStillId IS NULL ORDER BY p.path
        """

    /// Every place's names, best first for each place: the person's own, then online ones (in
    /// `language` first), then the gazetteer's. An online answer without a name (the sea's
    /// `Unable to geocode`, or a service whose extract does not reach the place) comes after the
    /// gazetteer's: it keeps the place from being asked again, and hides nothing. So does an
    /// online name made for a centre more than `onlineNameReach` from the place's now (moved
    /// while the service could not answer): kept through a failed refresh for a place that
    /// moved a street's length, it would name another town, or country, for one moved farther.
    /// A name without a country takes the next one's (`PlaceLabel.fill`).
    static let bestNamesSQL = "SELECT n.placeId, n.name, n.admin1, n.country, n.countryCode, n.source FROM placeName n ORDER BY n.placeId, " + bestFirst

    /// How far from the centre its online name was made for a place shows that name (1 km).
    static let onlineNameReach = 1_000.0

    /// The order of one place's names (`placeName n`), best first, with the language preferred
    /// as its argument. The place's centre is looked up for online names alone.
    static let bestFirst = """
        CASE WHEN n.source = 'manual' THEN 0 WHEN n.name IS NULL THEN 3
        WHEN n.source = 'nominatim' AND \(outOfReach) THEN 2.5
        WHEN n.source = 'nominatim' THEN 1 ELSE 2 END, n.language <> ?, n.language
        """

    /// Whether a name `n` was made for a centre more than `onlineNameReach` from its place's now.
    static let outOfReach = """
        coalesce((SELECT \(CatalogFunctions.metres.name)(n.latitude, n.longitude, p.latitude, p.longitude)
            FROM place p WHERE p.id = n.placeId) > \(onlineNameReach), 0)
        """

    /// How many of each visit's photos are videos, for visits with any (a Live Photo's video is
    /// in no visit): the photos are read once for their videos, each joined to its visit.
    public func videoCountsByVisit() throws(GeoTripError) -> [String: Int] {
        try attempt {
            try database.read { db in
                var counts: [String: Int] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT vp.visitId, count(*) FROM photo p JOIN visitPhoto vp ON vp.photoId = p.id
                    WHERE p.format = 'video' AND p.removedAt IS NULL GROUP BY vp.visitId
                    """)
                while let row = try rows.next() { counts[row[0]] = row[1] }
                return counts
            }
        }
    }

    /// How many videos the visits (a JSON list of ids) and the paths (another) hold, read from
    /// the lists: from each visit's photos (`visitPhoto_on_visitId`) and each path
    /// (`photo_present_path`), the format looked at on the rows found. SQLite's own choice, the
    /// format's index, walked every video of the library for each trip: a second of a
    /// library's export when edits touch every trip.
    static let videosAmongSQL = """
        SELECT (SELECT count(*) FROM json_each(?1) j CROSS JOIN visitPhoto vp ON vp.visitId = j.value CROSS JOIN photo p ON p.id = vp.photoId
                WHERE +p.format = 'video' AND p.removedAt IS NULL)
             + (SELECT count(*) FROM json_each(?2) j CROSS JOIN photo p ON p.path = j.value WHERE +p.format = 'video' AND p.removedAt IS NULL)
        """

    /// The photos of `visits` as their privacy needs them (`VisitMember`), by visit id
    /// (`visitPhoto_on_visitId`): those present and read, with a position.
    func sharingMembers(of visits: [String]) throws(GeoTripError) -> [String: [VisitMember]] {
        guard !visits.isEmpty else { return [:] }
        return try attempt {
            try database.read { db in
                var members: [String: [VisitMember]] = [:]
                let rows = try Row.fetchCursor(db, sql: Self.sharingMembersSQL, arguments: [Self.textList(visits)])
                while let row = try rows.next() {
                    guard let time: String = row[1], let latitude: Double = row[2], let longitude: Double = row[3] else { continue }
                    members[row[0], default: []].append(VisitMember(
                        utcTime: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), uncertaintyMeters: row[4] ?? 0,
                        stray: row[5] ?? false, interpolated: row[6] == LocationSource.interpolated.rawValue, isVideo: row[7] == ImageFormat.video.rawValue))
                }
                return members
            }
        }
    }

    static let sharingMembersSQL = """
        SELECT vp.visitId, p.utcTime, p.resolvedLatitude, p.resolvedLongitude, p.uncertaintyMeters, vp.stray, p.locationSource, p.format
        FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId
        WHERE vp.visitId IN (SELECT value FROM json_each(?)) AND p.removedAt IS NULL AND p.status = 'read'
        """

    /// The visits with a stray photo inside one of `privacy`'s zones: a stray (a phone's
    /// position jumping for a moment) may lie anywhere, far from its visit. The strays first
    /// (`visitPhoto_strays`, and so the CROSS JOIN), then each one's row.
    func visitsOfStraysInside(_ privacy: PrivacyZones) throws(GeoTripError) -> Set<String> {
        try attempt {
            try database.read { db in
                var visits: Set<String> = []
                let rows = try Row.fetchCursor(db, sql: Self.straysSQL)
                while let row = try rows.next() {
                    guard let latitude: Double = row[1], let longitude: Double = row[2] else { continue }
                    if privacy.contains(Coordinate(latitude: latitude, longitude: longitude)) { visits.insert(row[0]) }
                }
                return visits
            }
        }
    }

    static let straysSQL = """
        SELECT vp.visitId, p.resolvedLatitude, p.resolvedLongitude FROM visitPhoto vp CROSS JOIN photo p ON p.id = vp.photoId
        WHERE vp.stray AND p.removedAt IS NULL AND p.status = 'read'
        """

    /// `trips` as their outputs share them: each visit with a photo taken inside a privacy
    /// zone (at its edge, or a stray) as `TripVisit.shared(by:privacy:hiddenSpans:)` makes it,
    /// read in one look at those visits' photos. The journal, the map, the GeoJSON, the page of
    /// trips and `trips` all show and count a visit so.
    public func shared(_ trips: [Trip], leavingOut privacy: PrivacyZones) throws(GeoTripError) -> [Trip] {
        try shared(trips, leavingOut: trips.map { _ in privacy })
    }

    /// The same, each trip by its own zones (`privacy`, in the same order: a library's trips
    /// each have their own neighbours' zones).
    func shared(_ trips: [Trip], leavingOut privacy: [PrivacyZones]) throws(GeoTripError) -> [Trip] {
        let members = try sharingMembers(of: Array(Set(try candidates(zip(trips.map(\.visits), privacy)))))
        return try withholdingPlaceNames(zip(trips, privacy).map { trip, privacy in trip.shared(members: members, privacy: privacy) }, privacy)
    }

    /// `trips` (shared, each by its zones in `privacy`) with each visit shown whose place's
    /// centre lies inside a zone named as the gazetteer names that place, never by the
    /// person's name for it or the service's: a place named "Our flat" and kept private would
    /// otherwise name the café 120 m away that joined it (a zone smaller than the place
    /// radius), and tell where the flat is. Every place's centre is looked at (a place's
    /// centre is its visits' mean, so one of them can lie far from it).
    private func withholdingPlaceNames(_ trips: [Trip], _ privacy: [PrivacyZones]) throws(GeoTripError) -> [Trip] {
        // Only a shown visit named by the person or the service can carry a name to withhold:
        // an offline library reads nothing here.
        func named(_ visit: TripVisit, _ zones: PrivacyZones) -> Bool { visit.nameSource != NameSource.offline.rawValue && !zones.contains(visit.centre) }
        guard zip(trips, privacy).contains(where: { trip, zones in !zones.zones.isEmpty && trip.visits.contains { named($0, zones) } }) else { return trips }
        let centres: [String: Coordinate] = try attempt {
            try database.read { db in
                var centres: [String: Coordinate] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM place") { centres[row[0]] = Coordinate(latitude: row[1], longitude: row[2]) }
                return centres
            }
        }
        func withheld(_ visit: TripVisit, _ zones: PrivacyZones) -> Bool { named(visit, zones) && centres[visit.placeId].map(zones.contains) == true }
        guard zip(trips, privacy).contains(where: { trip, zones in trip.visits.contains { withheld($0, zones) } }) else { return trips }
        let gazetteers = try placeNames(source: .offline)
        return zip(trips, privacy).map { trip, zones in
            trip.replacingVisits { visit in
                guard withheld(visit, zones) else { return nil }
                var shown = visit
                let offline = gazetteers[visit.placeId]?.name
                (shown.name, shown.admin1, shown.country, shown.countryCode) = (offline?.name, offline?.admin1, offline?.country, offline?.countryCode)
                shown.nameSource = offline == nil ? nil : NameSource.offline.rawValue
                shown.placeNameWithheld = true
                return shown
            }
        }
    }

    /// `visits` (a trip's and the days' beside it) shared by `privacy` (`TripVisit.shared(_:members:privacy:)`).
    func shared(visits: [TripVisit], leavingOut privacy: PrivacyZones) throws(GeoTripError) -> [TripVisit] {
        TripVisit.shared(visits, members: try sharingMembers(of: try candidates([(visits, privacy)])), privacy: privacy)
    }

    /// The visits of each list, outside its zones, that may hold a photo inside one: those near
    /// a zone (`TripVisit.mayHoldHiddenPhotos`) and those with a stray inside one.
    private func candidates<S: Sequence>(_ lists: S) throws(GeoTripError) -> [String] where S.Element == ([TripVisit], PrivacyZones) {
        let lists = Array(lists)
        guard lists.contains(where: { !$0.1.zones.isEmpty }) else { return [] }
        let visitRadius = try storedClusteringOptions().visitRadius
        // Strays inside any list's zones (those of every trip hold the zones all share).
        var every: [String: PrivacyZones.Zone] = [:]
        for zone in lists.flatMap(\.1.zones) { every[zone.text] = zone }
        let strays = try visitsOfStraysInside(PrivacyZones(Array(every.values)))
        return lists.flatMap { visits, privacy in
            visits.filter { visit in
                visit.mayHoldHiddenPhotos(privacy, visitRadius: visitRadius) || (strays.contains(visit.id) && !privacy.contains(visit.centre))
            }.map(\.id)
        }
    }

    /// What a trip's shared outputs (the page of trips, `trips`) count of its media: the
    /// photos and videos of its visits whose centres are outside `privacy`, and its photos
    /// without a position (`Trip.sharedMedia(leavingOut:)`), with the videos among them told
    /// apart by one read of those rows. A photo or video taken inside a zone but in a visit
    /// outside it is left out when `trip` is shared (`shared(_:leavingOut:)`), as the map and
    /// the journal leave it out.
    public func mediaCount(of trip: Trip, leavingOut privacy: PrivacyZones) throws(GeoTripError) -> MediaCount {
        let shared = trip.sharedMedia(leavingOut: privacy)
        guard shared.count > 0 else { return MediaCount(photos: 0, videos: 0) }
        let among = try attempt {
            try database.read { db in
                try Int.fetchOne(db, sql: Self.videosAmongSQL, arguments: [Self.textList(shared.visits), Self.textList(shared.unplaced)]) ?? 0
            }
        }
        let videos = max(0, among - shared.hiddenVideos)
        // The rows are read after the trip's counts were (another process may have ingested
        // between): the videos are never more than the media counted.
        return MediaCount(photos: max(0, shared.count - videos), videos: min(videos, shared.count))
    }

    /// The name `place` shows when the person has given it none: its best name but theirs.
    func automaticName(of place: String) throws(GeoTripError) -> String? {
        let language = try storedNamingLanguage()
        return try attempt {
            try database.read { db in
                try String.fetchOne(db, sql: "SELECT n.name FROM placeName n WHERE n.placeId = ? AND n.source <> 'manual' ORDER BY \(Self.bestFirst) LIMIT 1",
                                    arguments: [place, language])
            }
        }
    }

    /// A place's name as a visit shows it.
    private struct PlaceLabel {
        var name: String?
        var admin1: String?
        var country: String?
        var countryCode: String?
        var source: String?

        /// What this one lacks from a later row of `bestNamesSQL`: its country, when it has
        /// none; the country's name and the region, when it has that country's code without
        /// them (an online answer with `country_code` alone).
        mutating func fill(admin1: String?, country: String?, code: String?) {
            guard let code else { return }
            guard let own = countryCode else {
                (self.country, countryCode) = (country, code)
                return
            }
            // A code alone (no country's name): the name and region of that country's next row.
            guard own == code, self.country == nil else { return }
            self.country = country
            if self.admin1 == nil { self.admin1 = admin1 }
        }
    }

    /// The visits in time order, with their place's names and their photos' paths (or, without
    /// `withPhotos`, only how many photos each has), and their times on their zone's clock
    /// unless `localTimes` is false (`Trip.withLocalTimes()` adds them later).
    public func visits(withPhotos: Bool = true, localTimes: Bool = true) throws(GeoTripError) -> [TripVisit] {
        // Online names in the trip's language first (names are kept per language).
        let language = try storedNamingLanguage()
        do {
            return try database.read { db in
                var paths: [String: [String]] = [:]
                if withPhotos {
                    let rows = try Row.fetchCursor(db, sql: """
                        SELECT vp.visitId, p.path FROM visitPhoto vp JOIN photo p ON p.id = vp.photoId ORDER BY p.utcTime, p.path
                        """)
                    while let row = try rows.next() { paths[row[0], default: []].append(row[1]) }
                }
                // Each place's best name, in one pass over the names: a lookup per visit was
                // most of this read at a million photos (426,000 visits).
                var names: [String: PlaceLabel] = [:]
                let labels = try Row.fetchCursor(db, sql: Self.bestNamesSQL, arguments: [language])
                while let row = try labels.next() {
                    let place: String = row[0]
                    if names[place] == nil {
                        names[place] = PlaceLabel(name: row[1], admin1: row[2], country: row[3], countryCode: row[4], source: row[5])
                    } else {
                        names[place]?.fill(admin1: row[2], country: row[3], code: row[4])
                    }
                }
                var visits: [TripVisit] = []
                // In table order, sorted below: SQLite sorted by arrival and id in a temporary
                // tree, four fifths of this read (the ids and instants are ASCII, so Swift's
                // order is SQLite's byte order).
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone, photoCount FROM visit
                    """)
                while let row = try rows.next() {
                    let id: String = row[0], place: String = row[1]
                    let photos = paths[id] ?? []
                    let label = names[place]
                    var visit = TripVisit(id: id, placeId: place, revision: row[2], latitude: row[3], longitude: row[4], radiusMeters: row[5],
                                          arrival: row[6], departure: row[7], localDate: row[8], timeZone: row[9],
                                          localArrival: nil, localDeparture: nil, photoCount: withPhotos ? photos.count : row[10],
                                          photos: photos, name: label?.name, admin1: label?.admin1, country: label?.country,
                                          countryCode: label?.countryCode, nameSource: label?.source)
                    if localTimes { visit.setLocalTimes() }
                    visits.append(visit)
                }
                visits.sort(by: TripVisit.precedes)
                return visits
            }
        } catch {
            throw Self.classify(error, path: path)
        }
    }
}
