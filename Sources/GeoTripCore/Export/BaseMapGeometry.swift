import Foundation

/// A base map point in stored units (degrees times `BaseMap.scale`).
struct ScaledPoint: Equatable {
    var lon: Int32
    var lat: Int32
}

/// A rectangle in stored units.
struct ScaledBox: Equatable {
    var west: Int32
    var south: Int32
    var east: Int32
    var north: Int32

    func intersects(_ other: ScaledBox) -> Bool {
        other.west <= east && other.east >= west && other.south <= north && other.north >= south
    }

    func contains(_ p: ScaledPoint) -> Bool {
        p.lon >= west && p.lon <= east && p.lat >= south && p.lat <= north
    }
}

/// The plane geometry the base map's clipping needs, in stored units (a window of a trip is
/// small enough for longitude and latitude to be treated as plane coordinates).
enum BaseMapGeometry {
    /// The part of a closed ring inside `box` (Sutherland–Hodgman, one box edge at a time).
    /// Where land runs past the window the result follows the window's edge; the page strokes
    /// only the edges that are not on the window's border, so no false coast is drawn.
    static func clip(ring: [ScaledPoint], to box: ScaledBox) -> [ScaledPoint] {
        if ring.allSatisfy(box.contains) { return ring }
        var points = ring
        if points.first == points.last { points.removeLast() }
        typealias Edge = (inside: (ScaledPoint) -> Bool, cross: (ScaledPoint, ScaledPoint) -> ScaledPoint)
        func atLon(_ x: Int32) -> (ScaledPoint, ScaledPoint) -> ScaledPoint {
            { a, b in
                let t = Double(x - a.lon) / Double(b.lon - a.lon)
                return ScaledPoint(lon: x, lat: Int32((Double(a.lat) + t * Double(b.lat - a.lat)).rounded()))
            }
        }
        func atLat(_ y: Int32) -> (ScaledPoint, ScaledPoint) -> ScaledPoint {
            { a, b in
                let t = Double(y - a.lat) / Double(b.lat - a.lat)
                return ScaledPoint(lon: Int32((Double(a.lon) + t * Double(b.lon - a.lon)).rounded()), lat: y)
            }
        }
        let edges: [Edge] = [
            ({ $0.lon >= box.west }, atLon(box.west)), ({ $0.lon <= box.east }, atLon(box.east)),
            ({ $0.lat >= box.south }, atLat(box.south)), ({ $0.lat <= box.north }, atLat(box.north)),
        ]
        for edge in edges {
            guard let last = points.last else { return [] }
            var output: [ScaledPoint] = []
            output.reserveCapacity(points.count)
            var previous = last
            for point in points {
                let inside = edge.inside(point), previousInside = edge.inside(previous)
                if inside {
                    if !previousInside { output.append(edge.cross(previous, point)) }
                    output.append(point)
                } else if previousInside {
                    output.append(edge.cross(previous, point))
                }
                previous = point
            }
            points = output
        }
        guard let first = points.first else { return [] }
        points.append(first)
        return points
    }

    /// The runs of a line that pass through `box`: each point inside, with its neighbours
    /// outside kept so the line reaches the window's edge.
    static func runs(of line: [ScaledPoint], inside box: ScaledBox) -> [[ScaledPoint]] {
        var runs: [[ScaledPoint]] = []
        var current: [ScaledPoint] = []
        for (index, point) in line.enumerated() {
            let near = box.contains(point)
                || (index > 0 && box.contains(line[index - 1]))
                || (index + 1 < line.count && box.contains(line[index + 1]))
            if near {
                current.append(point)
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs.filter { $0.count >= 2 }
    }

    /// Douglas–Peucker thinning: keeps the points that stand more than `tolerance` off the line
    /// through their kept neighbours, so straight coasts lose their vertices and headlands keep
    /// theirs. The first and last points stay; a closed ring that shrinks below a triangle is
    /// dropped (returned empty).
    static func simplify(_ points: [ScaledPoint], tolerance: Double, closed: Bool) -> [ScaledPoint] {
        guard points.count > 2, tolerance >= 1 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        // A closed ring's ends are one point; its farthest point splits it into two open runs.
        var spans: [(Int, Int)] = []
        if closed {
            let start = points[0]
            var far = 1, farthest = -1.0
            for index in 1..<(points.count - 1) {
                let dx = Double(points[index].lon - start.lon), dy = Double(points[index].lat - start.lat)
                if dx * dx + dy * dy > farthest { (far, farthest) = (index, dx * dx + dy * dy) }
            }
            keep[far] = true
            spans = [(0, far), (far, points.count - 1)]
        } else {
            spans = [(0, points.count - 1)]
        }
        let squared = tolerance * tolerance
        while let (first, last) = spans.popLast() {
            guard last - first > 1 else { continue }
            let a = points[first], b = points[last]
            let ax = Double(a.lon), ay = Double(a.lat)
            let dx = Double(b.lon) - ax, dy = Double(b.lat) - ay
            let length = dx * dx + dy * dy
            var worst = first, worstDistance = -1.0
            for index in (first + 1)..<last {
                let px = Double(points[index].lon) - ax, py = Double(points[index].lat) - ay
                let distance: Double
                if length == 0 {
                    distance = px * px + py * py
                } else {
                    let cross = px * dy - py * dx
                    distance = cross * cross / length
                }
                if distance > worstDistance { (worst, worstDistance) = (index, distance) }
            }
            if worstDistance > squared {
                keep[worst] = true
                spans.append((first, worst))
                spans.append((worst, last))
            }
        }
        let kept = zip(points, keep).compactMap { $1 ? $0 : nil }
        if closed && kept.count < 4 { return [] }
        return kept
    }
}
