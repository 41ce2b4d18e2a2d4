import Foundation

/// The clustering stage: photos, the identities the catalog knows and the options in, the
/// change to the catalog's visits and places out. Pure: no catalog, no gazetteer; the
/// pipeline stores what it returns.
///
/// A change costs what it touches. Given the photos whose resolution changed since the last
/// clustering (added, removed, moved in time or place), the stage reworks only:
/// - **the runs of photos around them**: the stretch of the timeline, before and after the
///   change, with no gap longer than `visitGap` (2 h) that holds a changed photo or a visit
///   that held one. Visits never reach across such a gap, so the rest of the timeline
///   clusters exactly as before and keeps its visits untouched;
/// - **the places around the reworked visits**: the visits linked to them (and to the visits
///   they replace) through chains of centres at most `placeRadius` apart. The place rule
///   (`VisitClustering.places`) depends on nothing else, so every other place is kept.
/// The result is the one a full recompute of the same photos gives (ids and revisions aside:
/// they depend on history); `ClusterStageTests` checks that on randomised changes.
///
/// It runs in two steps, so that a library's catalog is read only around the change: `rework`
/// takes the photos of the runs and the visits known there, and makes the runs' visits again;
/// `regroup` takes the kept visits linked to those (the catalog finds them by position:
/// `Catalog.visitsLinked`) and makes their places again. `change` is the two over a whole
/// layout held in memory.
public enum ClusterStage {
    /// Visits and places of `photos` from scratch, with ids carried over from `known`.
    public static func layout(_ photos: [ResolvedPhoto], known: KnownLayout, options: ClusteringOptions) -> TripLayout {
        let change = change(photos, known: known, changed: nil, options: options)
        return TripLayout(places: change.places, visits: change.visits, photoDays: change.photoDays.compactMapValues { $0 })
    }

    /// What changes in the catalog's layout (`known`, computed under the same `options`) when
    /// the photos are now `photos` (all of them) and `changed` are the ids whose resolution
    /// changed since (nil: everything, a full recompute). Photos that are new to clustering,
    /// or have left it, count as changed without being named.
    public static func change(_ photos: [ResolvedPhoto], known: KnownLayout, changed: Set<Int64>?,
                              options: ClusteringOptions) -> LayoutChange {
        let rework = rework(photos, visits: known.visits, changed: changed, options: options)
        let replaced = Set(rework.replaced.map(\.id))
        let kept = known.visits.filter { !replaced.contains($0.id) }
        return regroup(rework, kept: kept, places: known.places, lastRevisions: known.lastRevisions,
                       reservedVisitIDs: Set(kept.map(\.id)), options: options)
    }

    /// The first step: the runs of the timeline that hold a change, clustered again.
    ///
    /// `photos` are the photos of those runs at least (all of them for a full recompute, when
    /// `changed` is nil), and the changed photos that are present; `visits` are the known
    /// visits that held a changed photo or begin in those runs, at least. Photos beyond the
    /// runs, and visits beyond them, are left as they are.
    public static func rework(_ photos: [ResolvedPhoto], visits known: [KnownCluster], changed: Set<Int64>?,
                              options: ClusteringOptions) -> VisitRework {
        // The day of a photo given (a photo with a date counts for the trip's days, placed or
        // not; a Live Photo's video for none), found when asked: dictionaries of every photo's
        // day and zone were a hundred megabytes at a million photos.
        let byID = PhotosByID(photos)
        func localDate(_ id: Int64) -> String? {
            guard let photo = byID[id], photo.liveStillID == nil else { return nil }
            return options.dayRule.day(utc: photo.utc, zone: photo.zone, cameraTime: photo.cameraTime)
        }
        var rework = VisitRework(isFull: changed == nil)
        var clustered: [ClusterPhoto] = []
        // Room made once: grown by doubling, both held a copy and a half at their peak.
        clustered.reserveCapacity(photos.count)
        if changed == nil { rework.photoDays.reserveCapacity(photos.count) }
        for photo in photos {
            // A Live Photo's video is one moment with its still: it joins no visit of its own
            // and is not counted as a second photo (the exports find it by its link).
            if photo.liveStillID != nil { continue }
            if changed == nil, let day = options.dayRule.day(utc: photo.utc, zone: photo.zone, cameraTime: photo.cameraTime) {
                rework.photoDays[photo.id] = day
            }
            if let utc = photo.utc, let coordinate = photo.coordinate {
                clustered.append(ClusterPhoto(id: photo.id, utc: utc, coordinate: coordinate, uncertaintyMeters: photo.uncertaintyMeters,
                                              mayStray: photo.locationSource == .exif || photo.locationSource == .quicktime))
            }
        }
        clustered.sort(by: ClusterPhoto.precedes)

        // The runs of the timeline to rework.
        var ownerOf: [Int64: Int] = [:]
        for (index, visit) in known.enumerated() { for member in visit.members { ownerOf[member] = index } }
        var touchedVisits = Set<Int>()
        var dirtyTimes: [Date] = []
        if let changed {
            // The days of the photos that changed, or joined or left clustering unnamed.
            var considered = changed
            let inClustering = Set(clustered.map(\.id))
            for photo in clustered where changed.contains(photo.id) || ownerOf[photo.id] == nil {
                dirtyTimes.append(photo.utc)
                considered.insert(photo.id)
                if let owner = ownerOf[photo.id] { touchedVisits.insert(owner) }
            }
            for (member, owner) in ownerOf where changed.contains(member) || !inClustering.contains(member) {
                touchedVisits.insert(owner)
                considered.insert(member)
            }
            for id in considered { rework.photoDays[id] = .some(localDate(id)) }
        } else {
            dirtyTimes = clustered.map(\.utc)
            touchedVisits = Set(known.indices)
        }
        let runs = TimelineRuns.touched(photoTimes: clustered.map(\.utc), dirtyTimes: dirtyTimes,
                                        touchedSpans: touchedVisits.map { (known[$0].start, known[$0].end) },
                                        gap: options.visitGap)
        // A full recompute's runs hold every photo: not copied.
        rework.visits = VisitClustering.visits(changed == nil ? clustered : clustered.filter { runs.contains($0.utc) }, options: options).map { visit in
            VisitRework.Visit(cluster: visit,
                              localDate: localDate(visit.photoIDs[0]) ?? String(visit.arrival.geotripISO8601?.prefix(10) ?? ""),
                              timeZone: visit.photoIDs.lazy.compactMap { byID[$0]?.zone }.first)
        }
        rework.replaced = known.indices.filter { touchedVisits.contains($0) || runs.contains(known[$0].start) }.map { known[$0] }
        // A photo in a visit is of its visit's day, the day of its arrival, whatever its own
        // clock says: a night out past the day's start, or a camera kept on another zone's
        // clock, makes no day of its own. A photo that left its visit is of its own day again.
        var inVisits = Set<Int64>()
        for visit in rework.visits {
            for id in visit.cluster.photoIDs {
                inVisits.insert(id)
                rework.photoDays[id] = .some(visit.localDate)
            }
        }
        for visit in rework.replaced {
            for member in visit.members where !inVisits.contains(member) && byID[member] != nil { rework.photoDays[member] = .some(localDate(member)) }
        }
        return rework
    }

    /// The second step: ids for the visits made again, and the places around them grouped
    /// again. `kept` are the known visits not replaced, with their members: those linked to the
    /// reworked visits through chains of centres at most `placeRadius` apart at least (others
    /// are left as they are); `places` are every known place; `lastRevisions` holds the last
    /// revision of every id `rework` could give anew; `reservedVisitIDs` are the ids of visits
    /// outside the rework, among them every one a new visit's id could collide with.
    public static func regroup(_ rework: VisitRework, kept: [KnownCluster], places: [KnownCluster], lastRevisions: [String: Int],
                               reservedVisitIDs: Set<String>, options: ClusteringOptions) -> LayoutChange {
        let replaced = rework.replaced
        let visits = rework.visits.map(\.cluster)
        let visitIDs = StableIdentity.assign(prefix: "v", clusters: visits.map { ($0.photoIDs, $0.centre) }, known: replaced,
                                             lastRevisions: lastRevisions, reserved: reservedVisitIDs)

        // The places around the reworked visits: candidates are the kept visits, then the new
        // ones, then the replaced ones (as markers of where something changed, not as visits).
        var candidates = kept.map { visit in
            VisitClustering.PlaceCandidate(centre: visit.centre, photoCount: visit.members.count, arrival: visit.start,
                                           firstPhotoID: visit.members.min() ?? 0)
        }
        candidates += visits.map { VisitClustering.PlaceCandidate($0) }
        let markers = replaced.map(\.centre)
        let seeds = Array(kept.count..<(candidates.count + markers.count))
        let reach = VisitClustering.linked(from: seeds, centres: candidates.map(\.centre) + markers, options: options)
        let regrouped = (0..<candidates.count).filter { reach.contains($0) }  // kept first, then new, in order
        let placeOf = VisitClustering.places(regrouped.map { candidates[$0] }, options: options)

        // Places: members are all their visits' photos, so a place's identity follows its visits.
        func photoIDs(_ candidate: Int) -> [Int64] {
            candidate < kept.count ? Array(kept[candidate].members) : visits[candidate - kept.count].photoIDs
        }
        var groups: [Int: [Int]] = [:]  // place number -> candidates
        for (position, candidate) in regrouped.enumerated() { groups[placeOf[position], default: []].append(candidate) }
        let numbers = groups.keys.sorted()
        let placeClusters: [(members: [Int64], centre: Coordinate)] = numbers.map { number in
            var sum = SIMD3<Double>.zero
            for candidate in groups[number]! { sum += GreatCircle.unitVector(candidates[candidate].centre) * Double(candidates[candidate].photoCount) }
            return (groups[number]!.flatMap(photoIDs).sorted(), VisitClustering.coordinate(of: sum))
        }
        let oldPlaces = Set(regrouped.compactMap { $0 < kept.count ? kept[$0].placeID : nil } + replaced.compactMap(\.placeID))
        // A known place's members are its visits' photos, gathered here for the places
        // regrouped only: each of their visits is linked to the change, so among those given.
        var placeMembers: [String: Set<Int64>] = [:]
        for visit in kept + replaced {
            if let place = visit.placeID, oldPlaces.contains(place) { placeMembers[place, default: []].formUnion(visit.members) }
        }
        let knownPlaces = places.filter { oldPlaces.contains($0.id) }.map { place in
            var place = place
            place.members = placeMembers[place.id] ?? []
            return place
        }
        let placeIDs = StableIdentity.assign(prefix: "p", clusters: placeClusters, known: knownPlaces, lastRevisions: lastRevisions,
                                             reserved: Set(places.map(\.id)).subtracting(oldPlaces))

        var result = LayoutChange(isFull: rework.isFull)
        var placeOfCandidate: [Int: String] = [:]
        for (position, number) in numbers.enumerated() {
            let members = groups[number]!
            for candidate in members { placeOfCandidate[candidate] = placeIDs[position].id }
            result.places.append(TripLayout.Place(id: placeIDs[position].id, revision: placeIDs[position].revision,
                                                  centre: placeClusters[position].centre,
                                                  start: members.map { candidates[$0].arrival }.min()!))
        }
        result.places.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        for (candidate, visit) in kept.enumerated() {
            if let place = placeOfCandidate[candidate], place != visit.placeID { result.movedVisits[visit.id] = place }
        }
        result.visits = rework.visits.enumerated().map { index, visit in
            TripLayout.Visit(id: visitIDs[index].id, placeID: placeOfCandidate[kept.count + index]!, revision: visitIDs[index].revision,
                             cluster: visit.cluster, localDate: visit.localDate, timeZone: visit.timeZone)
        }
        let stays = Set(result.visits.map(\.id))
        result.retiredVisits = Set(replaced.map(\.id)).subtracting(stays)
        result.retiredPlaces = oldPlaces.subtracting(result.places.map(\.id))
        result.photoDays = rework.photoDays
        return result
    }
}

/// Photos found by id: binary search over their positions in id order, eight bytes a photo
/// where a dictionary by id took about fifty; none at all when they come in id order, as the
/// catalog and resolution give them.
private struct PhotosByID {
    let photos: [ResolvedPhoto]
    let order: [Int]

    init(_ photos: [ResolvedPhoto]) {
        self.photos = photos
        // The catalog gives them in id order already: then no order is kept.
        order = zip(photos, photos.dropFirst()).allSatisfy { $0.id < $1.id } ? [] : photos.indices.sorted { photos[$0].id < photos[$1].id }
    }

    subscript(id: Int64) -> ResolvedPhoto? {
        func index(_ position: Int) -> Int { order.isEmpty ? position : order[position] }
        let low = photos.indices.partitioningIndex { photos[index($0)].id >= id }
        return low < photos.count && photos[index(low)].id == id ? photos[index(low)] : nil
    }
}

/// What the first step of clustering made (`ClusterStage.rework`): the runs' visits made
/// again, the known visits they replace, and the days of the photos it looked at.
public struct VisitRework: Sendable, Equatable {
    /// A visit made again, before it has an id or a place.
    public struct Visit: Sendable, Equatable {
        public var cluster: VisitCluster
        /// The traveller's day of its first photo (`LocalDayRule`).
        public var localDate: String
        /// The zone of its first photo with one.
        public var timeZone: String?
    }

    /// Whether everything was made again.
    public var isFull: Bool
    /// In time order.
    public var visits: [Visit] = []
    /// The known visits that held a changed photo or lay in a reworked run.
    public var replaced: [KnownCluster] = []
    /// The day of each photo whose day may have changed (every photo, when full); nil: it
    /// counts for no day (undated, gone, or a Live Photo's video).
    public var photoDays: [Int64: String?] = [:]

    public init(isFull: Bool) { self.isFull = isFull }
}

/// Stretches of a timeline to rework: maximal runs of photo times, changed times and spans
/// of touched visits with no gap longer than `gap`, each holding something changed.
struct TimelineRuns {
    /// Closed intervals, in order, disjoint.
    private(set) var intervals: [(start: Date, end: Date)] = []

    /// The runs through `photoTimes` (the photos as they are now, sorted) that hold a
    /// `dirtyTimes` instant or overlap a `touchedSpans` span (the visits that held a changed
    /// photo, as they were).
    static func touched(photoTimes: [Date], dirtyTimes: [Date], touchedSpans: [(Date, Date)], gap: TimeInterval) -> TimelineRuns {
        // The changes, as spans of the union timeline (a changed photo's instant is one).
        var spans = touchedSpans.map { (start: $0.0, end: max($0.0, $0.1)) }
        spans += dirtyTimes.map { (start: $0, end: $0) }
        spans.sort { $0.start < $1.start }
        var runs = TimelineRuns()
        guard !spans.isEmpty else { return runs }
        // Walk the photo times and the spans together, in time order.
        var current: (start: Date, end: Date, changed: Bool)?
        func add(_ start: Date, _ end: Date, _ changed: Bool) {
            if let run = current, start.timeIntervalSince(run.end) <= gap {
                current = (run.start, max(run.end, end), run.changed || changed)
            } else {
                if let run = current, run.changed { runs.intervals.append((run.start, run.end)) }
                current = (start, end, changed)
            }
        }
        var next = 0
        for time in photoTimes {
            while next < spans.count && spans[next].start <= time {
                add(spans[next].start, spans[next].end, true)
                next += 1
            }
            add(time, time, false)
        }
        while next < spans.count {
            add(spans[next].start, spans[next].end, true)
            next += 1
        }
        if let run = current, run.changed { runs.intervals.append((run.start, run.end)) }
        return runs
    }

    /// Whether `time` falls in a run.
    func contains(_ time: Date) -> Bool {
        let low = intervals.partitioningIndex { $0.end >= time }
        return low < intervals.count && intervals[low].start <= time
    }
}
