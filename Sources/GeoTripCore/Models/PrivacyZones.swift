import Foundation

/// Places kept out of everything geotrip shares (`--hide-near LAT,LON[,RADIUS]`, remembered):
/// visits, route vertices, photo points, journal coordinates and thumbnails of photos taken
/// inside, and requests to an online geocoder. A track's route is cut where it enters a zone
/// (and taken back further, so no end lies on the zone's circle);
/// a straight or flown leg to or from a place inside is left out whole (`TripRoute.hiding`),
/// since its line, cut anywhere, still points at the door.
public struct PrivacyZones: Sendable, Equatable, Codable {
    /// One private circle.
    public struct Zone: Sendable, Equatable, Codable {
        /// The centre.
        public var centre: Coordinate
        /// Metres.
        public var radiusMeters: Double

        /// Creates a zone.
        public init(centre: Coordinate, radiusMeters: Double = PrivacyZones.defaultRadius) {
            self.centre = centre
            self.radiusMeters = radiusMeters
        }

        /// Parses `LAT,LON[,RADIUS]` (degrees, metres); nil for anything else.
        public init?(parsing text: String) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard (2...3).contains(parts.count), let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { return nil }
            var radius = PrivacyZones.defaultRadius
            if parts.count == 3 {
                guard let given = Double(parts[2]), PrivacyZones.radiusRange.contains(given) else { return nil }
                radius = given
            }
            self.init(centre: Coordinate(latitude: latitude, longitude: longitude), radiusMeters: radius)
        }

        /// `LAT,LON,RADIUS`, as `--hide-near` takes it.
        public var text: String { "\(centre.latitude),\(centre.longitude),\(radiusMeters)" }
    }

    /// 500 m: a street or two around a home, enough that a marker on its edge does not name the house.
    public static let defaultRadius = 500.0
    /// Radii `--hide-near` accepts: a building to a city.
    public static let radiusRange = 1.0...100_000.0

    /// The zones, in the order given.
    public var zones: [Zone]

    /// Creates a set of zones (none: nothing is hidden).
    public init(_ zones: [Zone] = []) {
        self.zones = zones
    }

    /// Whether nothing is hidden.
    public var isEmpty: Bool { zones.isEmpty }

    /// What `--hide-near` asks of the remembered zones: a zone given is added to them (one
    /// around the same centre, within a metre, gives way to it: a new radius), and `none`
    /// forgets them all first. A zone is never dropped by giving another: a person adding
    /// their parents' house does not want their own flat shown again.
    public struct Change: Sendable, Equatable {
        /// `none` was given: the remembered zones go before `adding` is added.
        public var forgetting: Bool
        public var adding: [Zone]

        public init(forgetting: Bool = false, adding: [Zone] = []) {
            self.forgetting = forgetting
            self.adding = adding
        }

        /// `remembered` as this change leaves it: a zone around a remembered centre takes its
        /// place (the order, which the outputs' keys hold, stays), others come after.
        public func applied(to remembered: PrivacyZones) -> PrivacyZones {
            var zones = forgetting ? [] : remembered.zones
            for zone in adding {
                if let same = zones.firstIndex(where: { GreatCircle.distance($0.centre, zone.centre) < 1 }) {
                    zones[same] = zone
                    zones.removeAll { $0 != zone && GreatCircle.distance($0.centre, zone.centre) < 1 }
                } else {
                    zones.append(zone)
                }
            }
            return PrivacyZones(zones)
        }
    }

    /// How the zones kept private changed in a run, for its summary.
    public struct Report: Sendable, Equatable, Encodable {
        /// Zones kept private from now on that were not before, and those no longer kept.
        public var added: [Zone]
        public var forgotten: [Zone]
        /// The zones kept private after the run.
        public var count: Int

        /// What changed from `before` to `after`; nil when nothing did.
        public init?(from before: PrivacyZones, to after: PrivacyZones) {
            let added = after.zones.filter { !before.zones.contains($0) }
            self.added = added
            // A zone given a wider radius is said once, as added with it; one given a narrower
            // radius is also said as forgotten, since what lies between is shown again.
            forgotten = before.zones.filter { zone in
                !after.zones.contains(zone)
                    && !added.contains { GreatCircle.distance($0.centre, zone.centre) < 1 && $0.radiusMeters >= zone.radiusMeters }
            }
            count = after.zones.count
            if added.isEmpty && forgotten.isEmpty { return nil }
        }
    }

    /// Whether `coordinate` lies inside any zone (on its edge counts as inside).
    public func contains(_ coordinate: Coordinate) -> Bool {
        // A zone a latitude apart wider than its radius is passed over without the distance
        // (a great circle is never shorter than the meridian's part of it): a library keeps
        // tens of zones (its homes and the places slept at near them), asked of every visit.
        zones.contains { zone in
            abs(coordinate.latitude - zone.centre.latitude) * Self.metresPerDegree <= zone.radiusMeters + 1
                && GreatCircle.distance(zone.centre, coordinate) <= zone.radiusMeters
        }
    }

    /// Whether `photo` was taken inside a zone: then it is neither linked, shown nor counted,
    /// whatever visit it joined (one at the edge of a visit whose centre is outside, a stray).
    /// A photo without a position is not.
    func hides(_ photo: TripPhoto) -> Bool {
        photo.coordinate.map(contains) ?? false
    }

    /// Metres in a degree of latitude on geotrip's sphere.
    static let metresPerDegree = GreatCircle.earthRadius * .pi / 180

    /// `polyline` without what lies inside the zones: the pieces outside, each cut at the zone's
    /// edge. A polyline that never enters a zone comes back whole, as one piece.
    ///
    /// Each segment is intersected with each circle in a plane tangent at the circle's centre
    /// (metres east and north): right to well under a metre for zones up to a few kilometres and
    /// the segments a route has (track vertices metres apart, flight arcs cut every 50 km).
    public func cut(_ polyline: [Coordinate]) -> [[Coordinate]] {
        pieces(polyline).map(\.points)
    }

    /// `polyline` as `cut` gives it, each end cut at a zone then taken back along the way by a
    /// further 20 to 100% of that zone's radius (a share fixed by the piece's other end, so the
    /// same on every run and another for each way in or out); a piece no longer than that goes.
    /// Ends on a zone's circle itself, three of them, give its centre (a route's way out, way
    /// back and a walk through found a home within 0.2 m).
    public func cutAway(_ polyline: [Coordinate]) -> [[Coordinate]] {
        pieces(polyline).compactMap { piece in
            var line = piece.points
            if let radius = piece.leaving {
                guard let rest = Self.trimmed(line, by: radius * Self.share(fixedBy: line[line.count - 1])) else { return nil }
                line = rest
            }
            if let radius = piece.entering {
                guard let rest = Self.trimmed(line.reversed(), by: radius * Self.share(fixedBy: line[0])) else { return nil }
                line = rest.reversed()
            }
            return line
        }
    }

    /// A piece of a cut polyline: its points, and the radius of the zone it leaves at its start
    /// and of the one it enters at its end (nil for an end of the polyline itself).
    private struct Piece {
        var points: [Coordinate]
        var leaving: Double?
        var entering: Double?
    }

    /// The pieces of `polyline` outside every zone (`cut`).
    private func pieces(_ polyline: [Coordinate]) -> [Piece] {
        guard !zones.isEmpty else { return [Piece(points: polyline)] }
        var pieces: [Piece] = []
        var current = Piece(points: [])
        func close(entering radius: Double? = nil) {
            current.entering = radius
            if current.points.count >= 2 { pieces.append(current) }
            current = Piece(points: [])
        }
        for (a, b) in zip(polyline, polyline.dropFirst()) {
            let intervals = outsideIntervals(a, b)
            // The whole segment is inside a zone.
            if intervals.isEmpty { close() }
            for interval in intervals {
                // A piece that starts inside the segment is a new line: the route left a zone there.
                if interval.start > 0 { close() }
                if current.points.isEmpty {
                    current.points.append(interval.start == 0 ? a : GreatCircle.interpolate(a, b, fraction: interval.start))
                    current.leaving = interval.start == 0 ? nil : interval.leaving
                }
                current.points.append(interval.end == 1 ? b : GreatCircle.interpolate(a, b, fraction: interval.end))
                if interval.end < 1 { close(entering: interval.entering) }
            }
        }
        close()
        return pieces
    }

    /// A share of a zone's radius from 0.2 to 1, fixed by `anchor` (rounded to about 10 m).
    private static func share(fixedBy anchor: Coordinate) -> Double {
        let words = [anchor.latitude, anchor.longitude].map { Int64(($0 * 1e4).rounded()).littleEndian }
        let bytes = words.flatMap { word in withUnsafeBytes(of: word) { Array($0) } }
        return 0.2 + 0.8 * Double(Fingerprint.value(bytes, fileSize: 0) % 10_000) / 10_000
    }

    /// `line` without its first `metres` along the way; nil when it is no longer than that.
    private static func trimmed(_ line: some Collection<Coordinate>, by metres: Double) -> [Coordinate]? {
        let line = Array(line)
        var left = metres
        for index in line.indices.dropLast() {
            let step = GreatCircle.distance(line[index], line[index + 1])
            if step > left { return [GreatCircle.interpolate(line[index], line[index + 1], fraction: left / step)] + line[(index + 1)...] }
            left -= step
        }
        return nil
    }

    /// The parts of segment `a`–`b` (as fractions 0...1 along it) outside every zone, in order,
    /// each with the radius of the zone it leaves at its start and enters at its end (nil at
    /// the segment's own ends).
    private func outsideIntervals(_ a: Coordinate, _ b: Coordinate) -> [(start: Double, end: Double, leaving: Double?, entering: Double?)] {
        var inside: [(Double, Double, Double)] = []
        for zone in zones {
            // Both ends north, or both south, of the circle in the plane: no crossing.
            let reach = zone.radiusMeters / Self.metresPerDegree
            if min(a.latitude, b.latitude) > zone.centre.latitude + reach || max(a.latitude, b.latitude) < zone.centre.latitude - reach { continue }
            let p = Self.local(a, around: zone.centre), q = Self.local(b, around: zone.centre)
            let d = q - p
            let qa = (d * d).sum(), qb = 2 * (p * d).sum(), qc = (p * p).sum() - zone.radiusMeters * zone.radiusMeters
            if qa < 1e-9 {
                if qc <= 0 { inside.append((0, 1, zone.radiusMeters)) }
                continue
            }
            let discriminant = qb * qb - 4 * qa * qc
            guard discriminant >= 0 else { continue }
            let root = discriminant.squareRoot()
            let t0 = max(0, (-qb - root) / (2 * qa)), t1 = min(1, (-qb + root) / (2 * qa))
            if t0 < t1 || (t0 == t1 && qc <= 0) { inside.append((t0, t1, zone.radiusMeters)) }
        }
        var outside: [(start: Double, end: Double, leaving: Double?, entering: Double?)] = []
        var position = 0.0
        var left: Double?  // the radius of the zone left at `position`
        for (start, end, radius) in inside.sorted(by: { $0.0 < $1.0 }) {
            if start > position { outside.append((position, start, left, radius)) }
            if end >= position { (position, left) = (end, radius) }
        }
        if position < 1 { outside.append((position, 1, left, nil)) }
        return outside
    }

    /// Metres east and north of `centre` (an equirectangular plane tangent there; longitudes
    /// unwrapped across the antimeridian).
    private static func local(_ c: Coordinate, around centre: Coordinate) -> SIMD2<Double> {
        var dLon = c.longitude - centre.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return SIMD2(dLon * metresPerDegree * cos(centre.latitude * .pi / 180), (c.latitude - centre.latitude) * metresPerDegree)
    }
}

extension PrivacyZones {
    /// How long before or after a visit its neighbours may lend their position to a photo
    /// without one (`LocationResolver.neighbourWindow`).
    static let neighbourReach: TimeInterval = 1800

    /// The times within `neighbourReach` of hidden visits (from arrival to departure) and
    /// hidden photos: a photo placed between its neighbours at such a time lies on the line
    /// from the hidden one (the GeoJSON gives it no point; a shared visit's centre does not
    /// weigh it). Merged in time order and searched by halves: a trip's days at home hold
    /// thousands of hidden photos, asked of every placed photo.
    struct HiddenTimes {
        private let spans: [ClosedRange<Date>]

        init(visits: [TripVisit] = [], times: [Date] = []) {
            spans = ResolutionWindow.merged(visits.compactMap { visit -> ClosedRange<Date>? in
                guard let arrival = UTCTimestamp.date(visit.arrival), let departure = UTCTimestamp.date(visit.departure), arrival <= departure else { return nil }
                return arrival.addingTimeInterval(-neighbourReach)...departure.addingTimeInterval(neighbourReach)
            } + times.map { $0.addingTimeInterval(-neighbourReach)...$0.addingTimeInterval(neighbourReach) })
        }

        func holds(_ time: Date) -> Bool {
            // The first span ending at or after `time` is the only one that can hold it.
            let index = spans.partitioningIndex { $0.upperBound >= time }
            return index < spans.endIndex && spans[index].contains(time)
        }
    }

    /// A zone around each visit placed only by its neighbours next to a hidden visit, with the
    /// id of the visit it hides, in order: a camera without GPS between leaving home and the next stop is placed on the
    /// line between them in proportion to the time, so its visit, run back to the hour it
    /// left, gives the house within a metre. Such a visit (every photo of it `interpolated`,
    /// per `placedByNeighbours`, which is asked only about the visits within reach), and one
    /// within reach of it, is hidden as the visit it was placed from: a zone of its own
    /// radius and 50 m more around its centre. `visits` are the trip's, in any order.
    func neighbourZones(of visits: [TripVisit],
                        placedByNeighbours: ([String]) throws(GeoTripError) -> Set<String>) throws(GeoTripError) -> [(visit: String, zone: Zone)] {
        guard !isEmpty else { return [] }
        let ordered = visits.sorted(by: TripVisit.precedes)
        var hidden = ordered.map { contains($0.centre) }
        guard hidden.contains(true) else { return [] }
        // Whether the later of two visits in time order began within reach of the earlier's end.
        func within(_ earlier: Int, _ later: Int) -> Bool {
            guard let end = UTCTimestamp.date(ordered[earlier].departure), let start = UTCTimestamp.date(ordered[later].arrival) else { return false }
            return start.timeIntervalSince(end) <= Self.neighbourReach
        }
        // The visits within reach of a hidden one, through others within reach: those asked about.
        var reached = Set<Int>()
        for index in ordered.indices where hidden[index] {
            var next = index + 1
            while next < ordered.count, !hidden[next], within(next - 1, next) { reached.insert(next); next += 1 }
            var previous = index - 1
            while previous >= 0, !hidden[previous], within(previous, previous + 1) { reached.insert(previous); previous -= 1 }
        }
        guard !reached.isEmpty else { return [] }
        let byNeighbours = try placedByNeighbours(reached.map { ordered[$0].id }.sorted())
        guard !byNeighbours.isEmpty else { return [] }
        // From each hidden visit outwards, the run of visits placed by neighbours.
        var added: [(visit: String, zone: Zone)] = []
        let original = hidden
        for index in ordered.indices where original[index] {
            for step in [1, -1] {
                var at = index + step
                while ordered.indices.contains(at), !hidden[at], byNeighbours.contains(ordered[at].id),
                      step > 0 ? within(at - 1, at) : within(at, at + 1) {
                    hidden[at] = true
                    added.append((ordered[at].id, Zone(centre: ordered[at].centre, radiusMeters: ordered[at].radiusMeters + 50)))
                    at += step
                }
            }
        }
        return added
    }
}
