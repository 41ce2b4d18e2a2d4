import Foundation

/// The way the traveller went, as one leg per pair of consecutive visits in time order: along
/// the GPS track where `--track` logs cover the leg, as a great-circle arc where the leg was
/// faster than a road allows (a flight), else straight from visit to visit. The journal's
/// GeoJSON and the HTML map both draw from this one model.
public struct TripRoute: Sendable, Equatable {
    /// How a leg is known.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// Along the track log's points between the two visits, simplified to `trackTolerance`.
        case track
        /// Straight from visit to visit: nothing better is known.
        case direct
        /// Faster than `flightSpeed`, or `flightDistance` or longer: drawn as a great-circle arc,
        /// not as a road; along the track log's points when a log was kept on board (a track
        /// faster than `flightSpeed`). Counted as flown.
        case flight
    }

    /// The way from one visit to the next.
    public struct Leg: Sendable, Equatable {
        /// The visits it joins.
        public var from: String
        public var to: String
        /// The local day of the arrival visit (`YYYY-MM-DD`): the day the leg was travelled.
        public var localDate: String
        /// How the leg is known.
        public var kind: Kind
        /// Two or more positions, in travel order (longitudes in -180...180, not unwrapped).
        public var coordinates: [Coordinate]
        /// Metres along the way: the track's own length, or the great circle's.
        public var distanceMeters: Double

        /// Creates a leg.
        public init(from: String, to: String, localDate: String, kind: Kind, coordinates: [Coordinate], distanceMeters: Double) {
            self.from = from
            self.to = to
            self.localDate = localDate
            self.kind = kind
            self.coordinates = coordinates
            self.distanceMeters = distanceMeters
        }

        /// The coordinates as lines that never jump across the antimeridian: a leg that crosses
        /// it is cut there, each part ending (or starting) on ±180° at the interpolated latitude
        /// (RFC 7946 section 3.1.9). One part for every leg that does not cross.
        public var partsSplitAtAntimeridian: [[Coordinate]] {
            RouteGeometry.splitAtAntimeridian(coordinates)
        }
    }

    /// About 300 km/h, in metres a second: faster than any road or train most trips take, so a
    /// leg between two visits at this speed or more was flown.
    public static let flightSpeed = 300_000.0 / 3600
    /// 2,000 km: a leg this long was flown whatever the time between its visits (a quiet day
    /// or two before the flight, without a photo), as no one goes that far by road or rail
    /// without a photo on the way. Shorter hops over sea with such a day between them (Fiji to
    /// Tonga) are drawn straight.
    public static let flightDistance = 2_000_000.0
    /// Track legs are simplified so no dropped point was more than 10 m off the line: finer
    /// than a street's width, and a day's walk keeps a few hundred points, not thousands.
    public static let trackTolerance = 10.0
    /// A flight's arc gets a vertex every 50 km, so it draws as a curve at any zoom.
    static let arcStep = 50_000.0

    /// The legs in time order.
    public var legs: [Leg]

    /// Creates a route from legs.
    public init(legs: [Leg]) {
        self.legs = legs
    }

    /// The route of `visits` (in time order), following `track` (points sorted by time) where it
    /// has points between a visit's departure and the next one's arrival.
    public init(visits: [TripVisit], track: [TrackPoint] = []) {
        var legs: [Leg] = []
        for (a, b) in zip(visits, visits.dropFirst()) {
            let start = Coordinate(latitude: a.latitude, longitude: a.longitude)
            let end = Coordinate(latitude: b.latitude, longitude: b.longitude)
            let departure = UTCTimestamp.date(a.departure), arrival = UTCTimestamp.date(b.arrival)
            let between = Self.points(of: track, from: departure, to: arrival)
            // A minute at least, so two visits stamped at the same second are not a flight.
            let seconds = max(60, (arrival ?? .distantFuture).timeIntervalSince(departure ?? .distantPast))
            if !between.isEmpty {
                let line = [start] + between.map(\.coordinate) + [end]
                let length = Self.length(line)
                // A log kept on board (a phone in flight mode still fixes): flown along its points.
                let kind: Kind = length / seconds > Self.flightSpeed ? .flight : .track
                legs.append(Leg(from: a.id, to: b.id, localDate: b.localDate, kind: kind,
                                coordinates: Self.simplified(line, tolerance: Self.trackTolerance), distanceMeters: length))
                continue
            }
            let distance = GreatCircle.distance(start, end)
            if distance / seconds > Self.flightSpeed || distance >= Self.flightDistance {
                legs.append(Leg(from: a.id, to: b.id, localDate: b.localDate, kind: .flight,
                                coordinates: Self.arc(start, end, distance: distance), distanceMeters: distance))
            } else {
                legs.append(Leg(from: a.id, to: b.id, localDate: b.localDate, kind: .direct, coordinates: [start, end], distanceMeters: distance))
            }
        }
        self.legs = legs
    }

    /// Metres travelled on the ground (track and direct legs) and flown.
    public var groundMeters: Double { legs.filter { $0.kind != .flight }.map(\.distanceMeters).reduce(0, +) }
    public var flownMeters: Double { legs.filter { $0.kind == .flight }.map(\.distanceMeters).reduce(0, +) }

    /// The route with nothing inside `zones`: each leg cut where it enters a zone (a leg may
    /// become several pieces, each with its own length; a leg wholly inside is gone). A leg to
    /// or from a place inside a zone is left out whole, a track's too: cut anywhere, a straight
    /// or great-circle line still runs to the door (extended by the zone's radius from where it
    /// stops, it found a home within 3 m), and a track's way home, cut at the zone, ended a few
    /// hundred metres from the house and told in the trip's distance how far away home is.
    /// A leg passing through a zone, a track's or another, is cut, each cut end taken back from
    /// the zone's circle (`PrivacyZones.cutAway`).
    public func hiding(_ zones: PrivacyZones) -> TripRoute {
        guard !zones.isEmpty else { return self }
        return TripRoute(legs: legs.flatMap { leg -> [Leg] in
            if let first = leg.coordinates.first, let last = leg.coordinates.last, zones.contains(first) || zones.contains(last) {
                return []
            }
            return zones.cutAway(leg.coordinates).map { piece in
                var part = leg
                part.coordinates = piece
                part.distanceMeters = Self.length(piece)
                return part
            }
        })
    }

    /// The track's points strictly between two instants (none when either is unknown).
    static func points(of track: [TrackPoint], from start: Date?, to end: Date?) -> ArraySlice<TrackPoint> {
        guard let start, let end, start < end, !track.isEmpty else { return [] }
        // The track is sorted by time: two binary searches.
        let first = track.partitioningIndex { $0.time > start }
        return track[first..<track[first...].partitioningIndex { $0.time >= end }]
    }

    /// Metres along a polyline (great circles between its vertices).
    static func length(_ line: [Coordinate]) -> Double {
        zip(line, line.dropFirst()).map { GreatCircle.distance($0, $1) }.reduce(0, +)
    }

    /// The great circle from `a` to `b` with a vertex every `arcStep`.
    static func arc(_ a: Coordinate, _ b: Coordinate, distance: Double) -> [Coordinate] {
        RouteGeometry.greatCircleArc(from: a, to: b, segments: min(256, max(1, Int((distance / arcStep).rounded(.up)))))
    }

    /// Douglas–Peucker: the fewest vertices of `line` such that no dropped vertex lies more than
    /// `tolerance` metres from the simplified line (in a plane tangent at the first vertex, with
    /// longitudes unwrapped, which is right for a day's travel anywhere but at the poles).
    static func simplified(_ line: [Coordinate], tolerance: Double) -> [Coordinate] {
        guard line.count > 2 else { return line }
        let origin = line[0]
        let metresPerDegree = GreatCircle.earthRadius * .pi / 180
        let scale = cos(origin.latitude * .pi / 180)
        var previousLongitude = origin.longitude
        var offset = 0.0
        let points: [SIMD2<Double>] = line.map { c in
            // Unwrap, so a track across the antimeridian is continuous in the plane.
            if c.longitude - previousLongitude > 180 { offset -= 360 } else if c.longitude - previousLongitude < -180 { offset += 360 }
            previousLongitude = c.longitude
            return SIMD2((c.longitude + offset - origin.longitude) * metresPerDegree * scale, (c.latitude - origin.latitude) * metresPerDegree)
        }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var ranges = [(0, line.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first], b = points[last], d = b - a
            let lengthSquared = (d * d).sum()
            var farthest = first, distance = 0.0
            for index in first + 1..<last {
                let p = points[index] - a
                let t = lengthSquared > 0 ? max(0, min(1, (p * d).sum() / lengthSquared)) : 0
                let off = p - t * d
                let e = (off * off).sum().squareRoot()
                if e > distance { distance = e; farthest = index }
            }
            if distance > tolerance {
                keep[farthest] = true
                ranges.append((first, farthest))
                ranges.append((farthest, last))
            }
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }
}
