/// Lines as a web map must be given them: flights as great-circle arcs, and every line cut
/// where it crosses the antimeridian (RFC 7946 section 3.1.9 asks the same of GeoJSON), so
/// that a flight from Tokyo to Honolulu is not drawn the long way round the world.
public enum RouteGeometry {
    /// The great circle from `a` to `b` as `segments` straight pieces.
    public static func greatCircleArc(from a: Coordinate, to b: Coordinate, segments: Int = 64) -> [Coordinate] {
        let count = max(1, segments)
        // The ends exactly as given (interpolation would round them).
        return (0...count).map { $0 == 0 ? a : $0 == count ? b : GreatCircle.interpolate(a, b, fraction: Double($0) / Double(count)) }
    }

    /// `line` in pieces that never cross longitude ±180: where a step between two points is
    /// shorter across the antimeridian than along the map, the piece ends at 180 (or -180) and
    /// the next starts on the other side at the latitude where the step crosses. A point the
    /// same as the one before is left out, and so is a piece of one point (a leg between two
    /// visits on one spot, or the stub of a line that starts on the seam): each piece has
    /// length (valid to OGC simple features, which RFC 7946's lines alone need not be).
    public static func splitAtAntimeridian(_ line: [Coordinate]) -> [[Coordinate]] {
        guard var previous = line.first else { return [] }
        var pieces: [[Coordinate]] = []
        var current = [previous]
        func add(_ point: Coordinate) { if current.last != point { current.append(point) } }
        for point in line.dropFirst() {
            let delta = point.longitude - previous.longitude
            if abs(delta) > 180 {
                // Unwrap the step, find where it meets the seam, and cut there.
                let eastward = delta < 0   // e.g. 170 -> -170 goes east across 180
                let seam = eastward ? 180.0 : -180.0
                let unwrapped = point.longitude + (eastward ? 360 : -360)
                // A step from -180 to 180 (one meridian, written both ways) is on the seam
                // from its start: cut there, never at 0/0.
                let run = unwrapped - previous.longitude
                let t = run == 0 ? 0 : (seam - previous.longitude) / run
                let latitude = previous.latitude + t * (point.latitude - previous.latitude)
                add(Coordinate(latitude: latitude, longitude: seam))
                pieces.append(current)
                current = [Coordinate(latitude: latitude, longitude: -seam)]
            }
            add(point)
            previous = point
        }
        pieces.append(current)
        return pieces.filter { $0.count >= 2 }
    }
}
