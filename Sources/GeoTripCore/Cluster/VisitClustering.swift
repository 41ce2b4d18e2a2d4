import Foundation

/// What clustering needs of one photo.
public struct ClusterPhoto: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    public var utc: Date
    public var coordinate: Coordinate
    /// Metres; inferred positions carry large ones and must not drag a visit's centre.
    public var uncertaintyMeters: Double
    /// Whether its position is a device's own fix, which can jump for a moment and so be a
    /// stray (`VisitClustering.visits`); a position the person gave, or one inferred from a log
    /// or from neighbours, never jumped.
    public var mayStray: Bool

    public init(id: Int64, utc: Date, coordinate: Coordinate, uncertaintyMeters: Double, mayStray: Bool = true) {
        self.id = id
        self.utc = utc
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
        self.mayStray = mayStray
    }

    /// The order photos are clustered in: by instant, and photos of the same instant by where
    /// they are (then how sure), so the order of a tie is a function of the photos' values,
    /// never of their catalog ids, which a fresh ingest gives in path order and a library built
    /// up over runs in order of arrival. Photos tied on all of these are interchangeable (they
    /// always fall into the same visit); the id only makes the order total.
    static func precedes(_ a: ClusterPhoto, _ b: ClusterPhoto) -> Bool {
        (a.utc, a.coordinate.latitude, a.coordinate.longitude, a.uncertaintyMeters, a.id)
            < (b.utc, b.coordinate.latitude, b.coordinate.longitude, b.uncertaintyMeters, b.id)
    }
}

/// The thresholds of `VisitClustering`, with the defaults the README explains.
public struct ClusteringOptions: Sendable, Equatable, Codable {
    /// A photo farther than this from the visit's centre starts a new visit.
    public var visitRadius: Double = 250
    /// A photo taken longer than this after the visit's last photo starts a new visit.
    public var visitGap: TimeInterval = 2 * 3600
    /// Visits whose centres are this close are one place.
    public var placeRadius: Double = 150
    /// When a traveller's day begins (`--day-starts`): which day a visit and a photo belong to.
    public var dayRule = LocalDayRule()

    public init(visitRadius: Double = 250, visitGap: TimeInterval = 2 * 3600, placeRadius: Double = 150,
                dayRule: LocalDayRule = LocalDayRule()) {
        self.visitRadius = visitRadius
        self.visitGap = visitGap
        self.placeRadius = placeRadius
        self.dayRule = dayRule
    }

    private enum CodingKeys: String, CodingKey { case visitRadius, visitGap, placeRadius, dayStartMinutes }

    /// Settings stored before `dayStartMinutes` existed read with the default day start.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        visitRadius = try c.decode(Double.self, forKey: .visitRadius)
        visitGap = try c.decode(Double.self, forKey: .visitGap)
        placeRadius = try c.decode(Double.self, forKey: .placeRadius)
        dayRule = LocalDayRule(dayStartMinutes: try c.decodeIfPresent(Int.self, forKey: .dayStartMinutes) ?? LocalDayRule.defaultDayStart)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(visitRadius, forKey: .visitRadius)
        try c.encode(visitGap, forKey: .visitGap)
        try c.encode(placeRadius, forKey: .placeRadius)
        try c.encode(dayRule.dayStartMinutes, forKey: .dayStartMinutes)
    }

    /// Radii from 1 m (finer than a phone's GPS) to 100 km (a whole region as one place).
    public static let radiusRange: ClosedRange<Double> = 1...100_000
    /// Gaps from a minute to 30 days, in seconds (the command line gives minutes).
    public static let gapRange: ClosedRange<Double> = 60...(30 * 86_400)

    /// A threshold as a person types it: a whole number without `.0`.
    public static func typed(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)" }

    /// (`ClosedRange.contains` is false for NaN and infinities too.)
    /// The thresholds outside their ranges, as the options that set them ("--place-radius and
    /// --day-starts") and a sentence for each in the option's own unit, or nil when all are
    /// valid. All are named at once: a run told of one, and given it, must not be told of the
    /// next only then.
    public var outOfRange: (option: String, problem: String)? {
        var bad: [(option: String, problem: String)] = []
        if !Self.radiusRange.contains(visitRadius) { bad.append(("--visit-radius", "\(Self.typed(visitRadius)) is outside 1 to 100000 metres")) }
        if !Self.gapRange.contains(visitGap) { bad.append(("--visit-gap", "\(Self.typed(visitGap / 60)) is outside 1 to 43200 minutes (30 days)")) }
        if !Self.radiusRange.contains(placeRadius) { bad.append(("--place-radius", "\(Self.typed(placeRadius)) is outside 1 to 100000 metres")) }
        if !dayRule.isValid { bad.append(("--day-starts", "\(dayRule.dayStartMinutes) minutes after midnight is not a time of day")) }
        guard !bad.isEmpty else { return nil }
        let options = bad.map(\.option)
        return (options.dropLast().joined(separator: ", ") + (options.count > 1 ? " and " : "") + options.last!,
                bad.map { options.count > 1 ? "\($0.option) \($0.problem)" : $0.problem }.joined(separator: "; "))
    }
}


/// A cluster of photos before identities are given.
public struct VisitCluster: Sendable, Equatable {
    /// Member photo ids, in time order.
    public var photoIDs: [Int64]
    public var centre: Coordinate
    /// Farthest member from the centre, metres (members with large uncertainty and strays aside).
    public var radiusMeters: Double
    public var arrival: Date
    public var departure: Date
    /// The members that are strays (`VisitClustering.visits`), in time order: kept in the
    /// catalog, so what is judged of a visit's own photos leaves them out.
    public var strayIDs: [Int64] = []
}

/// Groups photos into visits and visits into places.
///
/// Photos are sparse samples, not a GPS log, so the stay-point rules tuned for logs (200 m,
/// 20-30 minutes) are loosened: in time order, a photo joins the current visit when it is
/// within `visitRadius` (250 m) of the visit's centre and of the visit's first photo, and at
/// most `visitGap` (2 h) after its last photo; otherwise it starts a new visit. The first-photo
/// test is what keeps a slow walking tour from chaining into one visit across a city: a visit
/// spans at most twice the radius. One photo out of reach followed by one back within reach,
/// within 30 minutes of the visit's last photo, is a stray (a device's fix jumping for a moment
/// indoors) unless the photo after that sides with it: it joins the visit without moving its
/// centre or widening its radius, so one bad position does not cut a visit in three. The
/// centre is the mean of the members weighted by 1/uncertainty², so a photo placed by its
/// neighbours (hundreds of metres of uncertainty) cannot drag it. Photos out of file order or from two interleaved cameras are sorted by UTC
/// first, so they cluster as if shot in one stream.
///
/// A run of photos with no gap longer than `visitGap` is clustered on its own: what happens
/// before a gap cannot change what comes after it, so a change reclusters only the run it
/// falls in (`ClusterStage`).
///
/// Places: visits within `placeRadius` (150 m) of the heaviest visit near them are one place
/// (the hotel you come back to each evening); see `places(_:options:)`.
public enum VisitClustering {
    /// Visits, in time order.
    public static func visits(_ photos: [ClusterPhoto], options: ClusteringOptions = ClusteringOptions()) -> [VisitCluster] {
        let sorted = photos.sorted(by: ClusterPhoto.precedes)
        var visits: [VisitCluster] = []
        var members: [ClusterPhoto] = []
        /// The members that are strays (below): they count for neither the centre nor the radius.
        var strays: Set<Int64> = []
        var sum = SIMD3<Double>.zero, weights = 0.0
        var centre = Coordinate(latitude: 0, longitude: 0)

        func close() {
            guard let first = members.first, let last = members.last else { return }
            // The centre as the catalog keeps it (1e-7°): a rerun groups the visits it keeps by
            // their stored centres, so a fresh run must group by the same values.
            centre = Coordinate(latitude: Catalog.rounded(centre.latitude), longitude: Catalog.rounded(centre.longitude))
            let radius = members.filter { $0.uncertaintyMeters <= options.visitRadius && !strays.contains($0.id) }
                .map { GreatCircle.distance($0.coordinate, centre) }.max() ?? 0
            visits.append(VisitCluster(photoIDs: members.map(\.id), centre: centre, radiusMeters: radius,
                                       arrival: first.utc, departure: last.utc, strayIDs: members.map(\.id).filter(strays.contains)))
            members.removeAll(keepingCapacity: true)
            strays.removeAll(keepingCapacity: true)
            sum = .zero
            weights = 0
        }

        /// Whether `photo` joins the current visit, `since` its last photo.
        func joins(_ photo: ClusterPhoto, since last: ClusterPhoto, within gap: TimeInterval) -> Bool {
            guard let first = members.first else { return false }
            let reach = options.visitRadius + min(photo.uncertaintyMeters, options.visitRadius)
            return photo.utc.timeIntervalSince(last.utc) <= gap
                && GreatCircle.distance(photo.coordinate, centre) <= reach
                && GreatCircle.distance(photo.coordinate, first.coordinate) <= reach
        }

        var index = sorted.startIndex
        while index < sorted.endIndex {
            let photo = sorted[index]
            if let last = members.last, !joins(photo, since: last, within: options.visitGap) {
                // A stray: one photo out of reach, after which the next is back within reach,
                // within `strayWindow` of the visit's last photo (a phone's position jumping for
                // a moment indoors), and the one after that does not side with the stray (a
                // second camera still on the last place's position as the person arrives at the
                // next). It joins the visit without moving its centre or its radius, rather than
                // cutting it in three.
                let window = min(VisitClustering.strayWindow, options.visitGap)
                /// Whether the photo after the one back sides with the stray: near it, within the
                /// gap, and out of the visit's reach.
                func sidesWithStray(after back: Int) -> Bool {
                    guard back + 1 < sorted.endIndex else { return false }
                    let next = sorted[back + 1]
                    return next.utc.timeIntervalSince(sorted[back].utc) <= options.visitGap
                        && GreatCircle.distance(next.coordinate, photo.coordinate) <= options.visitRadius
                        && !joins(next, since: sorted[back], within: options.visitGap)
                }
                if photo.mayStray, index + 1 < sorted.endIndex, joins(sorted[index + 1], since: last, within: window),
                   !sidesWithStray(after: index + 1) {
                    members.append(photo)
                    strays.insert(photo.id)
                    index += 1
                    continue
                }
                close()
            }
            members.append(photo)
            let weight = Self.weight(uncertainty: photo.uncertaintyMeters)
            sum += weight * GreatCircle.unitVector(photo.coordinate)
            weights += weight
            centre = Self.coordinate(of: sum / weights)
            index += 1
        }
        close()
        return visits
    }

    /// A photo's weight in its visit's centre: the inverse square of its uncertainty, 10 m at
    /// least (an inferred position, hundreds of metres uncertain, barely moves it).
    static func weight(uncertainty metres: Double) -> Double { 1 / pow(max(metres, 10), 2) }

    /// A stray is taken only when the photo back within reach comes at most this long after the
    /// visit's last photo (30 minutes, or the visit gap when that is shorter): a photo an hour
    /// away and back is an outing, not a moment of bad position.
    static let strayWindow: TimeInterval = 30 * 60

    /// For each visit (by index), the index of its place (places numbered in order of their
    /// first visit).
    ///
    /// The rule depends on the set of visits only, never on their order, and is local: a
    /// visit's place is decided by the visits linked to it through chains of centres at most
    /// `placeRadius` apart, so a change reworks only the places around it (`linked(from:)`).
    /// Visits are taken heaviest first (most photos, then earliest arrival, then southernmost and
    /// westernmost centre, then smallest photo id: visits tied on all but the last are
    /// interchangeable, so the rule does not depend on the ids' history):
    /// one with no chosen centre within `placeRadius` becomes the centre of a place, and each
    /// visit then joins the place of its nearest centre. A place spans at most twice the
    /// radius, so a row of visits along a street is not chained into one place across a
    /// city, and the spot a person photographed most (the hotel, the home) anchors its place.
    /// Neighbours are found through cubes of the unit sphere `placeRadius` wide (the 27
    /// around a point), which have no seams at the antimeridian or the poles.
    public static func places(_ visits: [VisitCluster], options: ClusteringOptions = ClusteringOptions()) -> [Int] {
        places(visits.map { PlaceCandidate($0) }, options: options)
    }

    /// What the place rule needs of one visit.
    public struct PlaceCandidate: Sendable, Equatable {
        public var centre: Coordinate
        public var photoCount: Int
        public var arrival: Date
        /// Its smallest photo id: the last tie-break, so the rule is a function of the set.
        public var firstPhotoID: Int64

        public init(centre: Coordinate, photoCount: Int, arrival: Date, firstPhotoID: Int64) {
            self.centre = centre
            self.photoCount = photoCount
            self.arrival = arrival
            self.firstPhotoID = firstPhotoID
        }

        init(_ visit: VisitCluster) {
            self.init(centre: visit.centre, photoCount: visit.photoIDs.count, arrival: visit.arrival, firstPhotoID: visit.photoIDs.min() ?? 0)
        }

        /// Heaviest first: the order in which visits may become a place's centre.
        func comesBefore(_ other: PlaceCandidate) -> Bool {
            (-photoCount, arrival, centre.latitude, centre.longitude, firstPhotoID)
                < (-other.photoCount, other.arrival, other.centre.latitude, other.centre.longitude, other.firstPhotoID)
        }
    }

    /// The place rule over candidates (see `places(_:options:)`).
    public static func places(_ visits: [PlaceCandidate], options: ClusteringOptions = ClusteringOptions()) -> [Int] {
        // Only centres are looked at around a visit, and centres are more than `placeRadius`
        // apart, so a few share the 27 cubes: a home with twenty thousand visits in one cube
        // costs twenty thousand looks, not their square (44 s at a million photos).
        var centres = SphereGrid(visits.map(\.centre), cell: options.placeRadius, filled: false)
        let order = visits.indices.sorted { visits[$0].comesBefore(visits[$1]) }
        for index in order where !centres.neighbours(of: index).contains(where: { centres.distance($0, index) <= options.placeRadius }) {
            centres.insert(index)
        }
        // Each visit joins its nearest centre (itself, for a centre); ties go to the heavier.
        var rank = [Int](repeating: 0, count: visits.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        let centreOf = visits.indices.map { index in
            centres.neighbours(of: index).filter { centres.distance($0, index) <= options.placeRadius }
                .min { (centres.distance($0, index), rank[$0]) < (centres.distance($1, index), rank[$1]) }!
        }
        // Places numbered by their first visit.
        var firstArrival: [Int: (Date, Int64)] = [:]
        for index in visits.indices {
            let key = (visits[index].arrival, visits[index].firstPhotoID)
            if let current = firstArrival[centreOf[index]], current <= key { continue }
            firstArrival[centreOf[index]] = key
        }
        let numbered = firstArrival.keys.sorted { firstArrival[$0]! < firstArrival[$1]! }
        let number = Dictionary(uniqueKeysWithValues: numbered.enumerated().map { ($1, $0) })
        return centreOf.map { number[$0]! }
    }

    /// The visits linked to `seeds` (indexes into `centres`) through chains of centres at most
    /// `placeRadius` apart, seeds included: everything a change at the seeds can move between
    /// places. Only the linked visits are visited.
    public static func linked(from seeds: [Int], centres: [Coordinate], options: ClusteringOptions = ClusteringOptions()) -> Set<Int> {
        // The grid holds the centres not found yet, and each found one leaves it: a centre is
        // looked at from the visits near it only until it is found, so a dense spot (a home
        // seen on thousands of days) is not searched once for each of its visits.
        var unfound = SphereGrid(centres, cell: options.placeRadius)
        var found = Set(seeds), queue = seeds
        for seed in seeds { unfound.remove(seed) }
        while let index = queue.popLast() {
            for other in unfound.neighbours(of: index) where unfound.distance(other, index) <= options.placeRadius {
                unfound.remove(other)
                found.insert(other)
                queue.append(other)
            }
        }
        return found
    }

    static func coordinate(of vector: SIMD3<Double>) -> Coordinate {
        Coordinate(latitude: atan2(vector.z, (vector.x * vector.x + vector.y * vector.y).squareRoot()) * 180 / .pi,
                   longitude: atan2(vector.y, vector.x) * 180 / .pi)
    }
}

/// Points on the unit sphere in cubes `cell` metres wide: the points near one are in the 27
/// cubes around it, with no seam at the antimeridian or the poles.
/// Which of the points the cubes hold can change (`insert`, `remove`); distances are between
/// any two points.
struct SphereGrid {
    private let vectors: [SIMD3<Double>]
    private let side: Double
    private var cubes: [SIMD3<Int>: [Int]] = [:]
    /// Where each point held sits in its cube's list; -1 when not held.
    private var slots: [Int]

    /// A grid over `points`, holding all of them, or none when not `filled`.
    init(_ points: [Coordinate], cell metres: Double, filled: Bool = true) {
        vectors = points.map(GreatCircle.unitVector)
        side = GreatCircle.chord(metres: metres)
        slots = [Int](repeating: -1, count: points.count)
        if filled { for index in vectors.indices { insert(index) } }
    }

    /// Puts point `index` in its cube.
    mutating func insert(_ index: Int) {
        guard slots[index] < 0 else { return }
        let key = cube(vectors[index])
        slots[index] = cubes[key]?.count ?? 0
        cubes[key, default: []].append(index)
    }

    /// Takes point `index` out of its cube, in constant time (the cube's last point takes its
    /// slot, so the order within a cube is not kept).
    mutating func remove(_ index: Int) {
        let slot = slots[index]
        guard slot >= 0 else { return }
        let key = cube(vectors[index])
        if let last = cubes[key]!.popLast(), last != index {
            cubes[key]![slot] = last
            slots[last] = slot
        }
        slots[index] = -1
    }

    private func cube(_ v: SIMD3<Double>) -> SIMD3<Int> {
        SIMD3(Int((v.x / side).rounded(.down)), Int((v.y / side).rounded(.down)), Int((v.z / side).rounded(.down)))
    }

    /// The points held in the 27 cubes around point `index` (itself included, when held).
    func neighbours(of index: Int) -> [Int] {
        let home = cube(vectors[index])
        var found: [Int] = []
        for dx in -1...1 { for dy in -1...1 { for dz in -1...1 { found += cubes[home &+ SIMD3(dx, dy, dz)] ?? [] } } }
        return found
    }

    /// Metres between two points along the great circle.
    func distance(_ a: Int, _ b: Int) -> Double {
        let d = vectors[a] - vectors[b]
        return GreatCircle.metres(chord: (d * d).sum().squareRoot())
    }
}
