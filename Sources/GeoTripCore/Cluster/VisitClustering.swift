import Foundation

/// What clustering needs of one photo.
public struct ClusterPhoto: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    public var utc: Date
    public var coordinate: Coordinate
    /// Metres; inferred positions carry large ones and must not drag a visit's centre.
    public var uncertaintyMeters: Double

    public init(id: Int64, utc: Date, coordinate: Coordinate, uncertaintyMeters: Double) {
        self.id = id
        self.utc = utc
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
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

    /// (`ClosedRange.contains` is false for NaN and infinities too.)
    /// The first threshold outside its range, as the option that sets it and a sentence in
    /// the option's own unit, or nil when all are valid.
    public var outOfRange: (option: String, problem: String)? {
        if !Self.radiusRange.contains(visitRadius) { return ("--visit-radius", "\(visitRadius) is outside 1 to 100000 metres") }
        if !Self.gapRange.contains(visitGap) { return ("--visit-gap", "\(visitGap / 60) is outside 1 to 43200 minutes (30 days)") }
        if !Self.radiusRange.contains(placeRadius) { return ("--place-radius", "\(placeRadius) is outside 1 to 100000 metres") }
        if !dayRule.isValid { return ("--day-starts", "\(dayRule.dayStartMinutes) minutes after midnight is not a time of day") }
        return nil
    }
}


/// A cluster of photos before identities are given.
public struct VisitCluster: Sendable, Equatable {
    /// Member photo ids, in time order.
    public var photoIDs: [Int64]
    public var centre: Coordinate
    /// Farthest member from the centre, metres (members with large uncertainty aside).
    public var radiusMeters: Double
    public var arrival: Date
    public var departure: Date
}

/// Groups photos into visits and visits into places.
///
/// Photos are sparse samples, not a GPS log, so the stay-point rules tuned for logs (200 m,
/// 20-30 minutes) are loosened: in time order, a photo joins the current visit when it is
/// within `visitRadius` (250 m) of the visit's centre and of the visit's first photo, and at
/// most `visitGap` (2 h) after its last photo; otherwise it starts a new visit. The first-photo
/// test is what keeps a slow walking tour from chaining into one visit across a city: a visit
/// spans at most twice the radius. The centre is the mean of the members weighted by
/// 1/uncertainty², so a photo placed by its neighbours (hundreds of metres of uncertainty)
/// cannot drag it. Photos out of file order or from two interleaved cameras are sorted by UTC
/// first, so they cluster as if shot in one stream.
///
/// Places: a visit within `placeRadius` (150 m) of a place's centre is another visit to that
/// place (the hotel you come back to each evening); places are looked up through cubes of the
/// unit sphere `placeRadius` wide, so each visit is compared with nearby places only.
public enum VisitClustering {
    /// Visits, in time order.
    public static func visits(_ photos: [ClusterPhoto], options: ClusteringOptions = ClusteringOptions()) -> [VisitCluster] {
        let sorted = photos.sorted { ($0.utc, $0.id) < ($1.utc, $1.id) }
        var visits: [VisitCluster] = []
        var members: [ClusterPhoto] = []
        var sum = SIMD3<Double>.zero, weights = 0.0
        var centre = Coordinate(latitude: 0, longitude: 0)

        func close() {
            guard let first = members.first, let last = members.last else { return }
            let radius = members.filter { $0.uncertaintyMeters <= options.visitRadius }
                .map { GreatCircle.distance($0.coordinate, centre) }.max() ?? 0
            visits.append(VisitCluster(photoIDs: members.map(\.id), centre: centre, radiusMeters: radius,
                                       arrival: first.utc, departure: last.utc))
            members.removeAll(keepingCapacity: true)
            sum = .zero
            weights = 0
        }

        for photo in sorted {
            if let first = members.first, let last = members.last {
                let reach = options.visitRadius + min(photo.uncertaintyMeters, options.visitRadius)
                let joins = photo.utc.timeIntervalSince(last.utc) <= options.visitGap
                    && GreatCircle.distance(photo.coordinate, centre) <= reach
                    && GreatCircle.distance(photo.coordinate, first.coordinate) <= reach
                if !joins { close() }
            }
            members.append(photo)
            let weight = 1 / pow(max(photo.uncertaintyMeters, 10), 2)
            sum += weight * GreatCircle.unitVector(photo.coordinate)
            weights += weight
            centre = Self.coordinate(of: sum / weights)
        }
        close()
        return visits
    }

    /// For each visit (by index), the index of its place (places numbered in order of their
    /// first visit). In time order, a visit joins the place whose centre is nearest, if that
    /// centre is within `placeRadius`; else it founds a place. Comparing with the place's
    /// centre, not with any one of its visits, keeps places from chaining across a city.
    /// Centres are found through cubes of the unit sphere `placeRadius` wide (the 27 around a
    /// point), which have no seams at the antimeridian or the poles.
    public static func places(_ visits: [VisitCluster], options: ClusteringOptions = ClusteringOptions()) -> [Int] {
        let side = GreatCircle.chord(metres: options.placeRadius)
        func cube(_ v: SIMD3<Double>) -> SIMD3<Int> {
            SIMD3(Int((v.x / side).rounded(.down)), Int((v.y / side).rounded(.down)), Int((v.z / side).rounded(.down)))
        }
        var sums: [SIMD3<Double>] = [], weights: [Double] = [], centres: [SIMD3<Double>] = []
        var grid: [SIMD3<Int>: [Int]] = [:]
        var placeOf = [Int](repeating: 0, count: visits.count)
        let order = visits.indices.sorted { (visits[$0].arrival, $0) < (visits[$1].arrival, $1) }
        for index in order {
            let v = GreatCircle.unitVector(visits[index].centre)
            let home = cube(v)
            var best: (place: Int, distance: Double)?
            for dx in -1...1 { for dy in -1...1 { for dz in -1...1 {
                for place in grid[home &+ SIMD3(dx, dy, dz)] ?? [] {
                    let d = centres[place] - v
                    let distance = GreatCircle.metres(chord: (d * d).sum().squareRoot())
                    if distance <= options.placeRadius && (best == nil || distance < best!.distance) { best = (place, distance) }
                }
            } } }
            let weight = Double(visits[index].photoIDs.count)
            if let best {
                let place = best.place
                let oldCube = cube(centres[place])
                sums[place] += weight * v
                weights[place] += weight
                let length = (sums[place] * sums[place]).sum().squareRoot()
                centres[place] = length > 0 ? sums[place] / length : v
                let newCube = cube(centres[place])
                if newCube != oldCube {
                    grid[oldCube]?.removeAll { $0 == place }
                    grid[newCube, default: []].append(place)
                }
                placeOf[index] = place
            } else {
                let place = centres.count
                sums.append(weight * v)
                weights.append(weight)
                centres.append(v)
                grid[home, default: []].append(place)
                placeOf[index] = place
            }
        }
        return placeOf
    }

    static func coordinate(of vector: SIMD3<Double>) -> Coordinate {
        Coordinate(latitude: atan2(vector.z, (vector.x * vector.x + vector.y * vector.y).squareRoot()) * 180 / .pi,
                   longitude: atan2(vector.y, vector.x) * 180 / .pi)
    }
}
