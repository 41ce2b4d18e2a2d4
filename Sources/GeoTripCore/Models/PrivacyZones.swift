import Foundation

/// Places kept out of everything geotrip shares (`--hide-near LAT,LON[,RADIUS]`, remembered):
/// visits, route vertices, photo points, journal coordinates and thumbnails of photos taken
/// inside, and requests to an online geocoder. A track's route is cut where it enters a zone;
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

    /// Metres in a degree of latitude on geotrip's sphere.
    static let metresPerDegree = GreatCircle.earthRadius * .pi / 180

    /// `polyline` without what lies inside the zones: the pieces outside, each cut at the zone's
    /// edge. A polyline that never enters a zone comes back whole, as one piece.
    ///
    /// Each segment is intersected with each circle in a plane tangent at the circle's centre
    /// (metres east and north): right to well under a metre for zones up to a few kilometres and
    /// the segments a route has (track vertices metres apart, flight arcs cut every 50 km).
    public func cut(_ polyline: [Coordinate]) -> [[Coordinate]] {
        guard !zones.isEmpty else { return [polyline] }
        var pieces: [[Coordinate]] = []
        var current: [Coordinate] = []
        func close() {
            if current.count >= 2 { pieces.append(current) }
            current = []
        }
        for (a, b) in zip(polyline, polyline.dropFirst()) {
            let intervals = outsideIntervals(a, b)
            // The whole segment is inside a zone.
            if intervals.isEmpty { close() }
            for (start, end) in intervals {
                // A piece that starts inside the segment is a new line: the route left a zone there.
                if start > 0 { close() }
                if current.isEmpty { current.append(start == 0 ? a : GreatCircle.interpolate(a, b, fraction: start)) }
                current.append(end == 1 ? b : GreatCircle.interpolate(a, b, fraction: end))
                if end < 1 { close() }
            }
        }
        close()
        return pieces
    }

    /// The parts of segment `a`–`b` (as fractions 0...1 along it) outside every zone, in order.
    private func outsideIntervals(_ a: Coordinate, _ b: Coordinate) -> [(Double, Double)] {
        var inside: [(Double, Double)] = []
        for zone in zones {
            // Both ends north, or both south, of the circle in the plane: no crossing.
            let reach = zone.radiusMeters / Self.metresPerDegree
            if min(a.latitude, b.latitude) > zone.centre.latitude + reach || max(a.latitude, b.latitude) < zone.centre.latitude - reach { continue }
            let p = Self.local(a, around: zone.centre), q = Self.local(b, around: zone.centre)
            let d = q - p
            let qa = (d * d).sum(), qb = 2 * (p * d).sum(), qc = (p * p).sum() - zone.radiusMeters * zone.radiusMeters
            if qa < 1e-9 {
                if qc <= 0 { inside.append((0, 1)) }
                continue
            }
            let discriminant = qb * qb - 4 * qa * qc
            guard discriminant >= 0 else { continue }
            let root = discriminant.squareRoot()
            let t0 = max(0, (-qb - root) / (2 * qa)), t1 = min(1, (-qb + root) / (2 * qa))
            if t0 < t1 || (t0 == t1 && qc <= 0) { inside.append((t0, t1)) }
        }
        var outside: [(Double, Double)] = []
        var position = 0.0
        for (start, end) in inside.sorted(by: { $0.0 < $1.0 }) {
            if start > position { outside.append((position, start)) }
            position = max(position, end)
        }
        if position < 1 { outside.append((position, 1)) }
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
