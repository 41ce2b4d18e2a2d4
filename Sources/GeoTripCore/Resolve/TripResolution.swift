import Foundation

/// Options the person gives for the whole trip. `geotrip ingest` remembers them in the catalog,
/// so a rerun without them resolves the same way; giving one again replaces it.
public struct ResolutionSettings: Codable, Sendable, Equatable {
    /// `--tz`: the zone for photos nothing else can place in time.
    public var assumedZone: String?
    /// `--clock-offset`, as typed.
    public var clockOffsets: [String] = []
    /// `--track`, as absolute paths.
    public var tracks: [String] = []
    /// `--write-xmp`: keep XMP sidecars in step with inferred and tagged positions.
    public var writeXMP = false

    /// Creates settings.
    public init(assumedZone: String? = nil, clockOffsets: [String] = [], tracks: [String] = [], writeXMP: Bool = false) {
        self.assumedZone = assumedZone
        self.clockOffsets = clockOffsets
        self.tracks = tracks
        self.writeXMP = writeXMP
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        assumedZone = try c.decodeIfPresent(String.self, forKey: .assumedZone)
        clockOffsets = try c.decodeIfPresent([String].self, forKey: .clockOffsets) ?? []
        tracks = try c.decodeIfPresent([String].self, forKey: .tracks) ?? []
        writeXMP = try c.decodeIfPresent(Bool.self, forKey: .writeXMP) ?? false
    }
}

/// What the resolution stage did.
public struct ResolutionSummary: Sendable, Equatable, Encodable {
    /// Photos whose time or position changed in this run.
    public var updated = 0
    /// Photos by time source and by location source, over the whole folder.
    public var timeSources: [String: Int] = [:]
    public var locationSources: [String: Int] = [:]
    /// Track points read and kept.
    public var trackPoints = 0
    /// Track points left out, by reason, over all the track files.
    public var trackPointsDropped = DroppedTrackPoints()
    /// Problems with the run's inputs (an unreadable track file), one sentence each.
    public var problems: [String] = []
    /// Problems with single photos found while resolving (a capture time no camera can have
    /// taken), reported with the reader's diagnostics.
    public var photoProblems: [PhotoDiagnostic] = []
    /// The first and last instants of the track logs' points, when there are any.
    var trackSpan: ClosedRange<Date>?
    /// Cameras that one of the photos resolved may show kept on another zone's time
    /// (`TripResolution.clockCandidates`), for the library-wide look after resolution.
    var clockCandidates: Set<CameraName> = []

    private enum CodingKeys: String, CodingKey {
        case updated, timeSources, locationSources, trackPoints, trackPointsDropped, problems
    }
}

/// The instants a photo can have been taken: from 1826, the year of the first surviving
/// photograph, to a day after now (a clock a few hours fast, or a zone not yet known).
/// A camera date outside them (`0001:01:01` after a battery change, `9999:12:31` as a
/// placeholder), or one a clock offset pushes outside them, is reported and not used.
enum PlausibleCaptureTime {
    /// 1826-01-01T00:00:00Z.
    static let earliest = Date(timeIntervalSince1970: -4_544_208_000)

    /// The latest plausible instant, for a run starting at `now`.
    static func latest(now: Date) -> Date { now.addingTimeInterval(86_400) }

    /// The sentence for a photo of `camera` whose capture time, as resolved (`instant`), lies
    /// outside `earliest` to `latest`; nil when it lies inside. `written` is the time as the
    /// photo recorded it; `cameraTime`, whether that is the camera's clock (which clock offsets
    /// correct) rather than a GPS time (which they leave).
    static func problem(_ instant: Date, written: String?, cameraTime: Bool, camera: String?, corrections: [ClockCorrection],
                        latest: Date) -> String? {
        guard instant < earliest || instant > latest else { return nil }
        let corrected = cameraTime && corrections.contains { $0.camera == nil || $0.isOwn(of: camera) }
        // The bounds are instants: near one, the wall clock alone can read as either side of it
        // (2 December 20:00 in Tokyo is tomorrow there, and more than a day after a run on
        // 1 December at 06:00 UTC), so the instant is given.
        let utc = cameraTime ? instant.geotripISO8601.map { " (\($0) in UTC)" } ?? "" : ""
        return "its capture time \(written ?? "?")\(corrected ? " (after --clock-offset)" : "")"
            + (instant < earliest ? " is before 1826, the year of the earliest photograph\(utc)" : " is more than a day after this run\(utc)")
            + ", so it was not used; fix the camera's date or the clock offset"
    }
}

extension Catalog {
    /// The check of stored photos' capture times with the trip's remembered settings and
    /// tags, and the remembered verdicts on cameras' video clocks, as resolution used them.
    public func implausibleTimes(now: Date = Date()) throws(GeoTripError) -> ImplausibleTimes {
        try implausibleTimes(settings: storedResolutionSettings(), now: now)
    }

    func implausibleTimes(settings: ResolutionSettings, now: Date) throws(GeoTripError) -> ImplausibleTimes {
        let tags = try manualTags().mapValues(\.coordinate)
        var local = try storedVideoClockCameras()
        if local == nil { local = try videoClockDecisions() }
        return ImplausibleTimes(settings: settings, tags: tags, localVideoCameras: local ?? [], now: now)
    }

    /// Lists as changed the photos refused a capture time for lying past the latest plausible
    /// instant of an earlier run that lie before this run's (`now`'s): time passed, and this
    /// run resolves them as a fresh ingest would. Each resolution remembers the bound it judged
    /// by (`SettingKey.plausibleUntil`); when it is not known, or lies after this run's (a run
    /// with a clock set ahead), every photo without a time whose time is now plausible is
    /// listed, once: the resolution the listing forces then remembers this run's bound. Only
    /// photos stored without a time (`photo_moment`) whose camera or GPS
    /// time lies within a day (and the clock offsets) of that span are looked at, and not those
    /// listed already (read since the last resolution); nothing is written unless one is
    /// listed. Returns how many were.
    @discardableResult
    func listTimesPlausibleAgain(settings: ResolutionSettings, now: Date) throws(GeoTripError) -> Int {
        let latest = PlausibleCaptureTime.latest(now: now)
        let until = try setting(SettingKey.plausibleUntil).flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
            .flatMap { $0 > latest ? nil : $0 }
        if until == latest { return 0 }
        // The camera times that can mean an instant in (until, latest]: zones are at most a
        // day off, clock offsets as far as they go. A GPS time counts only without a camera
        // time (`TimeResolver`).
        let shifts = settings.clockOffsets.compactMap { try? ClockCorrection(parsing: $0) }.map { Double($0.seconds) } + [0]
        func text(_ date: Date, else fallback: String) -> String { date.geotripISO8601.map { String($0.prefix(19)) } ?? fallback }
        let low = text((until ?? PlausibleCaptureTime.earliest).addingTimeInterval(-86_400 - shifts.max()!), else: "")
        let high = text(latest.addingTimeInterval(86_400 - shifts.min()!), else: "99999")
        let candidates = try attempt {
            try database.read { db in
                try PhotoRecord.filter(sql: """
                    utcTime IS NULL AND removedAt IS NULL AND status = 'read'
                        AND ((localTime > :low AND localTime <= :high) OR (localTime IS NULL AND gpsTime > :low AND gpsTime <= :high))
                        AND id NOT IN (SELECT photoId FROM resolvePending)
                    """, arguments: ["low": low, "high": high]).fetchAll(db)
            }
        }
        guard !candidates.isEmpty else { return 0 }
        var check = try implausibleTimes(settings: settings, now: now)
        let listed = candidates.compactMap { record -> Int64? in
            guard let id = record.id, let instant = check.instant(of: CatalogPhoto(record)),
                  instant >= PlausibleCaptureTime.earliest, instant <= latest, until.map({ instant > $0 }) ?? true
            else { return nil }
            return id
        }
        guard !listed.isEmpty else { return 0 }
        try attempt {
            try database.write { db in
                try db.execute(sql: """
                    INSERT OR IGNORE INTO resolvePending (photoId, localTime, gpsTime, counted, timeSource, locationSource, utcTime)
                    SELECT id, localTime, gpsTime, 1, timeSource, locationSource, utcTime
                    FROM photo WHERE id IN (SELECT value FROM json_each(?))
                    """, arguments: [Self.jsonList(listed)])
                // A change like a photo's: resolved and clustered again, now or by the next run.
                try Self.bumpGeneration(db)
            }
        }
        return listed.count
    }
}

/// The implausible capture times of stored photos, told again when they are listed (`geotrip
/// photos --json`) and looked at again as time passes (`Catalog.listTimesPlausibleAgain`):
/// resolution stores such a photo with no time, and says why only in the run's summary. Each
/// photo without a resolved time has its own time resolved again as the run did (the camera's
/// time, its offset or GPS time or the zone of its own position or tag, the clock offsets
/// remembered, a movie header's time read as UTC unless its camera's videos are on local
/// clocks) and judged by the same rule (`PlausibleCaptureTime.problem`). The gazetteer, for
/// zones, is loaded only when a photo needs it.
public struct ImplausibleTimes {
    private var resolver: TimeResolver
    private let corrections: [ClockCorrection]
    private let tags: [Int64: Coordinate]
    private let localVideoCameras: Set<String>
    private let latest: Date

    /// For photos resolved with `settings` and manual positions `tags`, by photo id, the
    /// cameras whose movie-header times are local wall clocks `localVideoCameras`; `now` as the
    /// listing runs.
    init(settings: ResolutionSettings, tags: [Int64: Coordinate] = [:], localVideoCameras: Set<String> = [], now: Date = Date()) {
        // Offsets were checked when given; one that no longer parses corrects nothing here.
        corrections = settings.clockOffsets.compactMap { try? ClockCorrection(parsing: $0) }
        self.tags = tags
        self.localVideoCameras = localVideoCameras
        latest = PlausibleCaptureTime.latest(now: now)
        // A gazetteer that cannot be loaded gives no zone, as for a photo with no position.
        let gazetteer = RunGazetteer()
        resolver = TimeResolver(corrections: corrections, assumedZone: settings.assumedZone.flatMap(AssumedZone.init)) { coordinate in
            (try? gazetteer.get())?.timeZone(for: coordinate)
        }
    }

    /// The sentence for `photo` when its capture time is implausible: only a photo read, with
    /// a time, that resolution left without one.
    public mutating func sentence(for photo: CatalogPhoto) -> String? {
        instant(of: photo).flatMap {
            PlausibleCaptureTime.problem($0, written: photo.localTime?.iso8601 ?? photo.gpsTime?.iso8601, cameraTime: photo.localTime != nil,
                                         camera: photo.camera, corrections: corrections, latest: latest)
        }
    }

    /// The capture time of `photo` as resolution judged it (`TripResolution`: resolved from
    /// the photo's own evidence, else its corrected wall clock): only for a photo read, with a
    /// time, that resolution left without one.
    mutating func instant(of photo: CatalogPhoto) -> Date? {
        guard photo.status == .read, photo.utcTime == nil, photo.localTime != nil || photo.gpsTime != nil else { return nil }
        let wall = photo.localTime.map { resolver.wallClock($0, camera: photo.camera) }
        if photo.timeField == .quickTimeCreateDate, let wall, !localVideoCameras.contains(VideoClock.voter(camera: photo.camera, videoID: photo.id)) {
            return wall
        }
        let resolved = resolver.resolve(local: photo.localTime, offset: photo.offset, gpsTime: photo.gpsTime,
                                        position: tags[photo.id] ?? photo.ownCoordinate, camera: photo.camera)
        return resolved.utc ?? wall
    }
}

/// A camera as the catalog's rows name it.
struct CameraName: Sendable, Hashable {
    var make: String?
    var model: String?
}

/// What the catalog holds of one photo for the look at its camera's clock
/// (`TripResolution.cameraClockNote`): a camera time without an offset, a GPS time, and
/// how resolution read them.
struct ClockEvidence: Sendable {
    var path: String
    var localTime: String
    var gpsTime: String
    var utcTime: String?
    var timeSource: String?
}

extension TripResolution {
    /// The offset in minutes that a photo's GPS time puts its (corrected) clock `wall` at, with
    /// the offset its place's clock had, when resolution read the clock as the place's
    /// (`location`) and the GPS time disagrees by a whole offset (rule 2 refused it); else nil.
    private static func otherClock(wall: Date, gps: Date, utc: Date?, source: TimeSource) -> (clock: Int, place: Int)? {
        guard source == .location, let utc, let clock = TimeResolver.wholeOffset(of: wall, from: gps) else { return nil }
        let place = Int((wall.timeIntervalSince(utc) / 60).rounded())
        return place == clock ? nil : (clock, place)
    }

    /// The cameras of `rows` with a photo whose GPS time puts its clock at another offset than
    /// its place's (`otherClock`): whether the camera was kept on another zone's time is told
    /// from all its photos in the catalog, after resolution (`cameraClockNote`), since a run
    /// resolves only some. `walls` are the corrected clocks.
    static func clockCandidates(_ rows: [PhotoEvidence], times: [ResolvedTime], walls: [Date?]) -> Set<CameraName> {
        var cameras = Set<CameraName>()
        for index in rows.indices {
            let row = rows[index]
            guard row.utcOffset == nil, row.timeField != .quickTimeCreateDate, times[index].source == .location, let wall = walls[index],
                  let gps = row.gpsTime.flatMap(UTCTimestamp.init(iso8601:))?.date,
                  otherClock(wall: wall, gps: gps, utc: times[index].utc, source: times[index].source) != nil
            else { continue }
            cameras.insert(CameraName(make: row.make, model: row.model))
        }
        return cameras
    }

    /// The sentence for `camera` when its photos' GPS times (`rows`: all of its photos in the
    /// catalog with a camera time but no offset, and a GPS time) all put its clock at one
    /// whole offset from UTC that the places' clocks did not show, on the first of them: a
    /// camera kept on another zone's time (home's, abroad), or fixes hours old. Rule 2 cannot
    /// tell these apart photo by photo, so their clocks were read as the places'. Said for two
    /// such photos or more, and none whose GPS time agreed with its place (rule 2), with the
    /// `--clock-offset` that puts the camera on the places' clocks when one does for all of
    /// them: `correction` (seconds) is the one its clock has now, which a camera's own replaces.
    static func cameraClockNote(camera: String, rows: [ClockEvidence], correction: Int) -> PhotoDiagnostic? {
        var photos = 0, first: String?
        var clocks = Set<Int>(), places = Set<Int>()
        for row in rows {
            if row.timeSource == TimeSource.gps.rawValue { return nil }
            guard let local = LocalDateTime(iso8601: row.localTime), let gps = UTCTimestamp(iso8601: row.gpsTime)?.date,
                  let source = row.timeSource.flatMap(TimeSource.init(rawValue:)),
                  let other = otherClock(wall: local.readAsUTC.addingTimeInterval(TimeInterval(correction)), gps: gps,
                                         utc: row.utcTime.flatMap(UTCTimestamp.init(iso8601:))?.date, source: source)
            else { continue }
            photos += 1
            first = first ?? row.path
            clocks.insert(other.clock)
            places.insert(other.place)
        }
        guard photos >= 2, clocks.count == 1, let clock = clocks.first, let first else { return nil }
        func offset(_ minutes: Int) -> String { UTCOffset(minutes: minutes).map { "UTC" + $0.description } ?? "\(minutes) minutes" }
        var sentence = "the GPS times of \(photos) photos of \(camera) put its clock at \(offset(clock)), while the places' clocks showed "
            + places.sorted().map(offset).joined(separator: " or ") + ": their clocks were read as the places' and their GPS times not used "
            + "(fixes hours old look the same)"
        if places.count == 1, let place = places.first {
            sentence += "; if the camera showed another zone's time, --clock-offset \"\(camera)=\(clockOffsetText(correction + (place - clock) * 60))\" "
                + "puts it on the places' clocks"
        }
        return PhotoDiagnostic(path: first, kind: .gpsTimeIgnored, message: sentence)
    }

    /// `±HH:MM:SS`, or `±D HH:MM:SS` from a day on: as `--clock-offset` takes it.
    static func clockOffsetText(_ seconds: Int) -> String {
        let total = abs(seconds), days = total / 86_400, rest = total % 86_400
        return (seconds < 0 ? "-" : "+") + (days > 0 ? "\(days) " : "") + ASCIIDigits.padded(rest / 3600, 2) + ":"
            + ASCIIDigits.padded(rest / 60 % 60, 2) + ":" + ASCIIDigits.padded(rest % 60, 2)
    }
}

/// The resolve stage, between reading and clustering: every photo's UTC time and zone, and a
/// position for every photo that can have one, with provenance. Takes what the photos recorded
/// and the person's tags as values and returns resolved values; the pipeline decides when it
/// runs (`inputsKey`) and stores what changed. The only files it reads are the track logs the
/// settings name.
struct TripResolution: Sendable {
    /// The rules' revision, in every resolution's key: a catalog resolved by other rules is
    /// resolved again. 2: a photo's zone is its place's when known, whatever its offset tag
    /// or `--tz` says; a `--tz` reading stands where it places the photo itself. 3: a wall
    /// time the clocks skipped is read as the instant they moved on. 4: a photo timed by its GPS
    /// time alone takes the zone of the place it is put at.
    static let rulesRevision = 4

    /// What the settings and the track files looked like: resolution runs again when this (or
    /// the catalog's generation) differs from what the last run stored. An edited log counts.
    static func inputsKey(_ settings: ResolutionSettings) -> (settings: String, inputs: String) {
        let encoded = String(decoding: (try? JSONEncoder.sorted.encode(settings)) ?? Data(), as: UTF8.self)
        // The zone index decides the zone of every positioned photo: a new one resolves again.
        let inputs = "rules \(rulesRevision)|" + encoded + "|" + ZoneIndex.sourceKey() + settings.tracks.map { "|\($0):" + ResourceLocator.stamp($0) }.joined()
        return (encoded, inputs)
    }

    /// The clock offsets, parsed.
    let corrections: [ClockCorrection]
    /// The track logs' points, loaded once for every batch.
    let positioner: (any TrackPositioning)?
    let gazetteer: Gazetteer
    let tags: [Int64: ResolvedLocation]
    let now: Date
    var timeResolver: TimeResolver
    /// What loading the inputs found (track points, unreadable logs), for every batch's summary.
    let inputSummary: ResolutionSummary
    /// The cameras whose movie-header times are read as local wall clocks, as the votes of all
    /// their videos across the library decide (`VideoClock`, `Catalog.videoClockCameras`); nil
    /// to decide from the votes of the photos resolved (the whole library, resolved at once).
    var videoClocks: Set<String>?

    /// Loads what every batch needs: the parsed clock offsets, the track logs, the gazetteer.
    /// `tags` are the manual positions by photo id; `now` bounds the plausible capture times;
    /// `catalogPath` names the catalog in the error for a bad remembered setting.
    init(tags: [Int64: ResolvedLocation], settings: ResolutionSettings, now: Date = Date(), catalogPath: String,
         gazetteer loadGazetteer: () throws(GeoTripError) -> Gazetteer) throws(GeoTripError) {
        var corrections: [ClockCorrection] = []
        for text in settings.clockOffsets {
            // Given offsets are checked when parsed, so a bad one here was remembered.
            do {
                corrections.append(try ClockCorrection(parsing: text))
            } catch {
                throw .settingInvalid(catalog: catalogPath, option: "--clock-offset", problem: error.description)
            }
        }
        var summary = ResolutionSummary()
        positioner = Self.loadTracks(settings.tracks, into: &summary)
        inputSummary = summary
        let gazetteer = try loadGazetteer()
        self.gazetteer = gazetteer
        self.corrections = corrections
        self.tags = tags
        self.now = now
        timeResolver = TimeResolver(corrections: corrections, assumedZone: settings.assumedZone.flatMap(AssumedZone.init),
                                    zoneAt: { gazetteer.timeZone(for: $0) })
    }

    /// Resolves `photos` in one go (`init`, then `resolve(_:progress:)`).
    static func resolve(_ photos: [PhotoEvidence], tags: [Int64: ResolvedLocation], settings: ResolutionSettings,
                        now: Date = Date(), catalogPath: String,
                        gazetteer loadGazetteer: () throws(GeoTripError) -> Gazetteer,
                        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws(GeoTripError)
        -> (summary: ResolutionSummary, photos: [ResolvedPhoto], votes: [Int64: VideoClockVote]) {
        var resolution = try TripResolution(tags: tags, settings: settings, now: now, catalogPath: catalogPath, gazetteer: loadGazetteer)
        return resolution.resolve(photos, progress: progress)
    }

    /// Resolves `photos`, in id order: the whole library, or a stretch of it holding every photo
    /// within `ResolutionWindow`'s reach of the ones whose results are kept. `progress` hears how
    /// many photos have their time, of how many, as the work goes on. The summary counts these
    /// photos only, with the inputs' problems and track figures. `votes` are the votes of the
    /// videos among them timed by their movie header only (`VideoClock.vote`), by id.
    mutating func resolve(_ photos: [PhotoEvidence], progress: (_ done: Int, _ total: Int) -> Void = { _, _ in })
        -> (summary: ResolutionSummary, photos: [ResolvedPhoto], votes: [Int64: VideoClockVote]) {
        var summary = inputSummary
        let corrections = corrections, tags = tags, gazetteer = gazetteer, now = now, positioner = positioner
        var timeResolver = timeResolver
        defer { self.timeResolver = timeResolver }
        let rows = photos
        // Time first, from what the photo itself (or the person) says about where it was.
        func resolveTime(_ row: PhotoEvidence, position: Coordinate?) -> ResolvedTime {
            timeResolver.resolve(local: row.localTime.flatMap(LocalDateTime.init(iso8601:)),
                                 offset: row.utcOffset.flatMap(UTCOffset.init(parsing:)),
                                 gpsTime: row.gpsTime.flatMap(UTCTimestamp.init(iso8601:)),
                                 position: position, camera: PhotoMetadata(make: row.make, model: row.model).camera)
        }
        // The camera's clock as corrected (`--clock-offset`), when a correction moves it.
        func correctedClock(_ row: PhotoEvidence) -> String? {
            guard let local = row.localTime.flatMap(LocalDateTime.init(iso8601:)) else { return nil }
            let camera = PhotoMetadata(make: row.make, model: row.model).camera
            guard timeResolver.correction(for: camera) != 0, let text = timeResolver.wallClock(local, camera: camera).geotripISO8601 else { return nil }
            return String(text.dropLast())  // the instant's "Z": a wall clock has no zone
        }
        // Most of the stage's time: reported as it goes, so a library's run is never silent.
        var times: [ResolvedTime] = []
        times.reserveCapacity(rows.count)
        for row in rows {
            times.append(resolveTime(row, position: tags[row.id]?.coordinate ?? row.exifCoordinate))
            if times.count % 8_192 == 0 { progress(times.count, rows.count) }
        }
        // Videos whose only time is mvhd's were resolved above as wall clocks; their cameras
        // decide whether that was right or whether the time is the UTC the specification says.
        var walls = rows.map { row in
            row.localTime.flatMap(LocalDateTime.init(iso8601:)).map {
                timeResolver.wallClock($0, camera: PhotoMetadata(make: row.make, model: row.model).camera)
            }
        }
        let movieTimes = rows.indices.filter { rows[$0].timeField == .quickTimeCreateDate && walls[$0] != nil }
        var votes: [Int64: VideoClockVote] = [:]
        if !movieTimes.isEmpty {
            let isMovieTime = Set(movieTimes)
            let decided: Set<TimeSource> = [.offsetTag, .gps, .location]
            let neighbours = Self.provisionalTimes(
                times: times.indices.map { isMovieTime.contains($0) || !decided.contains(times[$0].source) ? nil : times[$0].utc }, walls: walls)
            let anchors = rows.indices.compactMap { index in
                isMovieTime.contains(index) || !decided.contains(times[index].source) ? nil
                    : times[index].utc.map { VideoClock.Anchor(instant: $0, position: tags[rows[index].id]?.coordinate ?? rows[index].exifCoordinate) }
            }.sorted { $0.instant < $1.instant }
            func camera(_ index: Int) -> String {
                VideoClock.voter(camera: PhotoMetadata(make: rows[index].make, model: rows[index].model).camera, videoID: rows[index].id)
            }
            for index in movieTimes {
                let candidate = VideoClock.Candidate(camera: camera(index), asUTC: walls[index]!,
                                                     asLocal: times[index].source == .location ? times[index].utc : neighbours[index],
                                                     position: tags[rows[index].id]?.coordinate ?? rows[index].exifCoordinate)
                votes[rows[index].id] = VideoClockVote(camera: candidate.camera, vote: VideoClock.vote(candidate, anchors: anchors))
            }
            let local = videoClocks ?? VideoClock.localCameras(votes: votes.values.map { ($0.camera, $0.vote) })
            for index in movieTimes where !local.contains(camera(index)) {
                let position = tags[rows[index].id]?.coordinate ?? rows[index].exifCoordinate
                times[index] = ResolvedTime(utc: walls[index], zone: position.flatMap { gazetteer.timeZone(for: $0) }, source: .movieHeaderUTC)
            }
        }
        let latest = PlausibleCaptureTime.latest(now: now)
        var implausible = Set<Int>()
        for index in rows.indices {
            // A floating time (no zone known) is judged by its corrected wall clock.
            let camera = PhotoMetadata(make: rows[index].make, model: rows[index].model).camera
            let instant = times[index].utc ?? rows[index].localTime.flatMap(LocalDateTime.init(iso8601:)).map {
                timeResolver.wallClock($0, camera: camera)
            }
            guard let instant, let message = PlausibleCaptureTime.problem(instant, written: rows[index].localTime ?? rows[index].gpsTime,
                                                                          cameraTime: rows[index].localTime != nil, camera: camera,
                                                                          corrections: corrections, latest: latest)
            else { continue }
            summary.photoProblems.append(PhotoDiagnostic(path: rows[index].path, kind: .implausibleTime, message: message))
            times[index] = ResolvedTime(utc: nil, zone: nil, source: .none)
            implausible.insert(index)
        }
        summary.clockCandidates = Self.clockCandidates(rows, times: times, walls: walls)
        // Then positions, which need times for tracks and neighbours. A photo whose time nothing
        // decided (a camera without GPS or offset) borrows, for this step only, the offset of the
        // photo whose wall clock is nearest to its own (within 30 minutes): both cameras show
        // the local time, so the same offset is the best guess of when it was taken. A video
        // read as UTC has no wall clock to compare.
        // Made in a function of their own, so that their arrays (16 bytes a photo each) are gone
        // before the results are made.
        // `trying`: instants to place some photos at instead (by index). Also the instant each
        // photo whose time was guessed (`--tz`, or none) was placed at by a track or neighbours.
        func locate(trying: [Int: Date] = [:]) -> (locations: [ResolvedLocation?], guessedAt: [Int: Date]) {
            let wallClocks = rows.indices.map { times[$0].source == .movieHeaderUTC ? nil : walls[$0] }
            // An assumed zone (--tz) is a weaker guess than a neighbour's offset on the same day.
            let guessed = times.map { $0.source == .assumed || $0.source == .none }
            let provisional = Self.provisionalTimes(times: times.indices.map { guessed[$0] ? nil : times[$0].utc }, walls: wallClocks)
            let instants = rows.indices.map { trying[$0] ?? provisional[$0] ?? times[$0].utc }
            let locations = LocationResolver(track: positioner).resolve(rows.indices.map { index in
                PositionEvidence(utc: instants[index], exif: rows[index].exifCoordinate,
                                 ownSource: rows[index].positionSource, manual: tags[rows[index].id])
            })
            var guessedAt: [Int: Date] = [:]
            for index in rows.indices where guessed[index] && (locations[index]?.source == .track || locations[index]?.source == .interpolated) {
                guessedAt[index] = instants[index]
            }
            return (locations, guessedAt)
        }
        let located = locate()
        var locations = located.locations
        // A photo placed by a track or its neighbours:
        // - one whose time nothing decided has its clock read in that place's zone;
        // - one with a `--tz` reading (the zone its camera's clock showed) placed at that very
        //   instant keeps it, on the place's clock and day (a camera kept on home time abroad);
        //   placed at a neighbour's borrowed offset instead, it is read in that place's zone
        //   when that gives the instant it was placed at (the neighbours showed its clock was
        //   the place's), else placed again at its `--tz` instant (a neighbour of another
        //   clock misled it);
        // - one whose instant an offset tag decided keeps it, in the place's zone, as does one
        //   whose GPS time alone decided it (it had no camera time to give a zone).
        var replacing: [Int: Date] = [:]
        func takeZone(of place: ResolvedLocation, _ index: Int) {
            if let zone = gazetteer.timeZone(for: place.coordinate) { times[index].zone = zone }
        }
        for index in rows.indices where !implausible.contains(index) {
            guard let location = locations[index], location.source == .track || location.source == .interpolated else { continue }
            switch times[index].source {
            case .none:
                let again = resolveTime(rows[index], position: location.coordinate)
                if again.source == .location { times[index] = again }
            case .assumed:
                if located.guessedAt[index] == times[index].utc {
                    takeZone(of: location, index)
                } else if case let again = resolveTime(rows[index], position: location.coordinate), again.source == .location,
                          again.utc == located.guessedAt[index] {
                    times[index] = again
                } else if let own = times[index].utc {
                    replacing[index] = own
                }
            case .offsetTag:
                takeZone(of: location, index)
            case .gps where times[index].zone == nil:
                // A GPS time alone (no camera time): placed, it is read in the place's zone.
                takeZone(of: location, index)
            default:
                break
            }
        }
        if !replacing.isEmpty {
            let placedAgain = locate(trying: replacing).locations
            for index in replacing.keys {
                guard let place = placedAgain[index], place.source == .track || place.source == .interpolated else { continue }
                locations[index] = place
                takeZone(of: place, index)
            }
        }
        walls = []
        // A video read as UTC takes the zone of the place it was put; put nowhere, the zone the
        // person named for the trip (`--tz`), as a photo nothing else gives one does. With
        // neither, its UTC date is its day, which is said: east of UTC a morning clip would
        // land on the day before.
        for index in rows.indices where times[index].source == .movieHeaderUTC && times[index].zone == nil {
            if let location = locations[index] { times[index].zone = gazetteer.timeZone(for: location.coordinate) }
            if times[index].zone == nil { times[index].zone = timeResolver.assumedZone?.identifier }
            if times[index].zone == nil, let utc = times[index].utc?.geotripISO8601 {
                let time = utc.prefix(10) + " " + utc.dropFirst(11).prefix(5)
                summary.photoProblems.append(PhotoDiagnostic(
                    path: rows[index].path, kind: .zoneUnknown,
                    message: "its movie header gives the time in UTC, and nothing gives its zone (no position, no --tz): its day is reckoned "
                        + "from its UTC time, \(time) UTC. Give it a position with `geotrip tag`, or the trip's zone with --tz"))
            }
        }

        var resolved: [ResolvedPhoto] = []
        resolved.reserveCapacity(rows.count)
        for index in rows.indices {
            let time = times[index], location = locations[index]
            // Stored as text: an instant outside years 1 to 9999 has none and counts as no time.
            let utc = time.utc.flatMap { $0.geotripISO8601 == nil ? nil : $0 }
            let source = utc == nil ? TimeSource.none : time.source
            let zone = utc == nil ? nil : time.zone
            // A photo whose day its camera's clock gives has that clock as corrected.
            let wallTime = utc != nil && zone != nil ? nil : correctedClock(rows[index])
            // Inferred positions rounded to 1e-7° (1 cm): no false precision in the catalog.
            resolved.append(ResolvedPhoto(
                id: rows[index].id, utc: utc.map(Self.millisecondPrecision), zone: zone, cameraTime: wallTime ?? rows[index].localTime,
                coordinate: location.map { Coordinate(latitude: Catalog.rounded($0.coordinate.latitude), longitude: Catalog.rounded($0.coordinate.longitude)) },
                uncertaintyMeters: location.map { ($0.uncertaintyMeters * 10).rounded() / 10 } ?? 10,
                path: rows[index].path, timeSource: source, locationSource: location?.source, liveStillID: rows[index].liveStillID,
                wallTime: wallTime))
            // What was stored, so the summary agrees with the catalog.
            summary.timeSources[source.rawValue, default: 0] += 1
            if let source = location?.source { summary.locationSources[source.rawValue, default: 0] += 1 }
        }
        progress(rows.count, rows.count)
        return (summary, resolved, votes)
    }

    /// A full pass a batch at a time (`ResolutionBatches`), so memory is bounded by a batch:
    /// `evidence` reads the photos of the ids given (ascending), in id order; `store` takes
    /// each batch's results (for the photos of its core) before the next batch is read. The
    /// photos without a key come last, `size` at a time. Returns the summary over all of them.
    /// Videos timed by their movie header only are read as `videoClocks` says; `store` gets
    /// their votes with their results.
    mutating func resolveInBatches(keyed: [ResolutionBatches.Key], keyless: [Int64], size: Int = ResolutionBatches.defaultSize,
                                   evidence: ([Int64]) throws -> [PhotoEvidence],
                                   store: ([ResolvedPhoto], [Int64: VideoClockVote]) throws -> Void,
                                   progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) rethrows -> ResolutionSummary {
        var summary = inputSummary
        let total = keyed.count + keyless.count
        var done = 0
        func resolveBatch(_ ids: [Int64], keeping count: Int, _ kept: (Int64) -> Bool) throws {
            let result = resolve(try evidence(ids)) { resolved, of in progress(done + resolved * count / max(1, of), total) }
            let photos = result.photos.filter { kept($0.id) }
            for photo in photos {
                summary.timeSources[photo.timeSource.rawValue, default: 0] += 1
                if let source = photo.locationSource { summary.locationSources[source.rawValue, default: 0] += 1 }
            }
            summary.clockCandidates.formUnion(result.summary.clockCandidates)
            if !result.summary.photoProblems.isEmpty {
                // A problem belongs to the batch whose core holds its photo.
                let keptPaths = Set(photos.map(\.path))
                summary.photoProblems += result.summary.photoProblems.filter { keptPaths.contains($0.path) }
            }
            try store(photos, result.votes.filter { kept($0.key) })
            done += photos.count
            progress(done, total)
        }
        let reach = ResolutionWindow(changedKeys: [], corrections: corrections).reach
        for batch in ResolutionBatches.plan(keyed, reach: reach, size: size) {
            let core = Set(keyed[batch.core].lazy.map(\.id))
            try resolveBatch(keyed[batch.window].map(\.id).sorted(), keeping: batch.core.count, core.contains)
        }
        for chunk in keyless.chunked(max(1, size)) {
            try resolveBatch(Array(chunk), keeping: chunk.count) { _ in true }
        }
        return summary
    }

    /// An instant as the catalog's text keeps it (milliseconds), so a value resolved now and
    /// one read back compare equal.
    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// How near in time a neighbour must be to lend a photo its offset or its position.
    static let neighbourWindow: TimeInterval = 1800

    /// For photos without a time: their wall clock minus the offset of the timed photo whose
    /// wall clock is nearest, within 30 minutes; nil otherwise (and for timed photos). Equal
    /// wall clocks are taken by their offsets, so which neighbour lends its offset depends on
    /// the photos, not on their order or catalog ids: a stretch of the photos resolves as the
    /// whole library does (`ResolutionWindow`), and a library built up over runs as a fresh
    /// ingest. Neighbours tied on both lend the same offset.
    static func provisionalTimes(times: [Date?], walls: [Date?]) -> [Date?] {
        func key(_ index: Int) -> (Date, TimeInterval, Int) { (walls[index]!, times[index]!.timeIntervalSince(walls[index]!), index) }
        let timed = times.indices.filter { times[$0] != nil && walls[$0] != nil }.sorted { key($0) < key($1) }
        let timedWalls = timed.map { walls[$0]! }
        return times.indices.map { index in
            guard times[index] == nil, let wall = walls[index], !timed.isEmpty else { return nil }
            let low = timedWalls.partitioningIndex { $0 >= wall }
            let nearest = [low - 1, low].filter { timedWalls.indices.contains($0) }
                .min { abs(timedWalls[$0].timeIntervalSince(wall)) < abs(timedWalls[$1].timeIntervalSince(wall)) }!
            guard abs(timedWalls[nearest].timeIntervalSince(wall)) <= neighbourWindow else { return nil }
            let neighbour = timed[nearest]
            return wall.addingTimeInterval(times[neighbour]!.timeIntervalSince(walls[neighbour]!))
        }
    }

    /// Every point of every track file; a file that cannot be read is reported and skipped.
    private static func loadTracks(_ paths: [String], into summary: inout ResolutionSummary) -> (any TrackPositioning)? {
        var points: [TrackPoint] = []
        for path in paths {
            do {
                let file = try TrackLog.load(contentsOf: URL(fileURLWithPath: path))
                // The one file's array as it is: a long log's points are not copied.
                if points.isEmpty { points = file.points } else { points += file.points }
                summary.trackPointsDropped += file.dropped
            } catch {
                // The trip remembers its logs: one moved or deleted since is said each run, with
                // the way out (a --track given replaces the whole list).
                let gone = !FileManager.default.fileExists(atPath: path)
                summary.problems.append(error.description + (gone ? " The trip remembers its --track logs: give them all again with --track, "
                                                                + "this one at its new path, or --track none to forget them all." : ""))
            }
        }
        summary.trackPoints = points.count
        guard !points.isEmpty else { return nil }
        let times = points.lazy.map(\.time)
        summary.trackSpan = times.min()!...times.max()!
        return TrackPositioner(points: points)
    }
}

extension TrackPositioner: TrackPositioning {}


extension JSONEncoder {
    /// An encoder with sorted keys, for stable stored JSON.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
