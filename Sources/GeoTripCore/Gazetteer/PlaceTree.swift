import Foundation

/// An implicit k-d tree over the places' unit vectors: exact nearest neighbours on the sphere.
///
/// Points live on the unit sphere, so straight-line (chord) distance in 3-D orders them exactly
/// as great-circle distance does, with no special case at the antimeridian or the poles. The
/// tree has no pointers: the node of a range [lo, hi) is its middle element, which the resource
/// script placed there with its split axis (scripts/gazetteer-format.md), so loading builds
/// nothing but the unit vectors.
struct PlaceTree: Sendable {
    /// x, y, z of each place, flat.
    private let vectors: [Double]
    private let axes: [UInt8]
    let count: Int

    /// Slack for the pruning test: the resource script computed the same unit vectors with
    /// another libm, which may differ in the last bit.
    private static let slack = 1e-12

    init(latitudeE5: [Int32], longitudeE5: [Int32], axes: [UInt8]) {
        count = axes.count
        self.axes = axes
        var vectors = [Double](repeating: 0, count: count * 3)
        for index in 0..<count {
            let v = GreatCircle.unitVector(latitude: Double(latitudeE5[index]) / 1e5, longitude: Double(longitudeE5[index]) / 1e5)
            vectors[index * 3] = v.x
            vectors[index * 3 + 1] = v.y
            vectors[index * 3 + 2] = v.z
        }
        self.vectors = vectors
    }

    /// The unit vector of place `index`.
    func vector(_ index: Int) -> SIMD3<Double> {
        SIMD3(vectors[index * 3], vectors[index * 3 + 1], vectors[index * 3 + 2])
    }

    /// Below this many places a subtree is scanned as a plain run: cheaper than descending.
    private static let bucket = 40

    /// The index of the nearest place and its squared chord distance.
    ///
    /// Iterative, with Arya and Mount's incremental distance: each pending subtree carries the
    /// squared distance from the query to its cell (the per-axis offsets summed), a much tighter
    /// bound than the splitting plane alone when the query is far from every place (at sea).
    func nearest(to q: SIMD3<Double>) -> (index: Int, chordSquared: Double) {
        let found = nearest(to: q, withinChordSquared: .infinity, accepting: AnyPlace())
        // A loaded resource has at least one place (checked on load), so an index is found.
        precondition(found.index >= 0, "the gazetteer has no places")
        return found
    }

    /// The nearest place that `filter` accepts, no farther than the chord whose square is
    /// `limit`; index -1 when there is none. Places `filter` refuses cost a test each, so a
    /// search for a kind of place that is nowhere near visits everything within `limit`.
    /// Generic rather than a closure, so the filter is passed borrowed, never copied.
    func nearest<Filter: PlaceFilter>(to q: SIMD3<Double>, withinChordSquared limit: Double,
                                      accepting filter: Filter) -> (index: Int, chordSquared: Double) {
        var bestIndex = -1
        var bestDistance = limit
        typealias Pending = (lo: Int, hi: Int, cell: Double, offset: SIMD3<Double>)
        vectors.withUnsafeBufferPointer { vectors in
            axes.withUnsafeBufferPointer { axes in
                // At most one pending far side per tree level: about 19 levels for 235,000 places.
                withUnsafeTemporaryAllocation(of: Pending.self, capacity: 64) { stack in
                    stack[0] = (0, count, 0, .zero)
                    var depth = 1
                    while depth > 0 {
                        depth -= 1
                        var (lo, hi, cell, offset) = stack[depth]
                        if cell > bestDistance + Self.slack { continue }
                        while hi - lo > Self.bucket {
                            let mid = (lo + hi) >> 1
                            let base = mid * 3
                            let dx = q.x - vectors[base], dy = q.y - vectors[base + 1], dz = q.z - vectors[base + 2]
                            let distance = dx * dx + dy * dy + dz * dz
                            if distance < bestDistance && filter.accepts(mid) {
                                bestDistance = distance
                                bestIndex = mid
                            }
                            let axis = Int(axes[mid])
                            let diff = axis == 0 ? dx : (axis == 1 ? dy : dz)
                            var farOffset = offset
                            farOffset[axis] = diff
                            let farCell = cell - offset[axis] * offset[axis] + diff * diff
                            let (farLo, farHi) = diff < 0 ? (mid + 1, hi) : (lo, mid)
                            if diff < 0 { hi = mid } else { lo = mid + 1 }
                            if farLo < farHi && farCell <= bestDistance + Self.slack {
                                stack[depth] = (farLo, farHi, farCell, farOffset)
                                depth += 1
                            }
                        }
                        for index in lo..<hi {
                            let base = index * 3
                            let dx = q.x - vectors[base], dy = q.y - vectors[base + 1], dz = q.z - vectors[base + 2]
                            let distance = dx * dx + dy * dy + dz * dz
                            if distance < bestDistance && filter.accepts(index) {
                                bestDistance = distance
                                bestIndex = index
                            }
                        }
                    }
                }
            }
        }
        return (bestIndex, bestDistance)
    }

    /// Calls `body` with the index and squared chord of every place within `chord` of `query`,
    /// in tree order, allocating nothing (naming asks this for every answer). Iterative: a
    /// recursive walk passed `body`'s captured context down every level, copying it each time.
    func forEach(within query: SIMD3<Double>, chord: Double, _ body: (Int, Double) -> Void) {
        let q = query, radiusSquared = chord * chord
        vectors.withUnsafeBufferPointer { vectors in
            axes.withUnsafeBufferPointer { axes in
                // One pending far side per level at most: about 19 levels for 235,000 places.
                withUnsafeTemporaryAllocation(of: (lo: Int, hi: Int).self, capacity: 64) { stack in
                    stack[0] = (0, count)
                    var depth = 1
                    while depth > 0 {
                        depth -= 1
                        var (lo, hi) = stack[depth]
                        while lo < hi {
                            let mid = (lo + hi) >> 1
                            let base = mid * 3
                            let dx = q.x - vectors[base], dy = q.y - vectors[base + 1], dz = q.z - vectors[base + 2]
                            let distance = dx * dx + dy * dy + dz * dz
                            if distance <= radiusSquared { body(mid, distance) }
                            let axis = Int(axes[mid])
                            let diff = axis == 0 ? dx : (axis == 1 ? dy : dz)
                            let near = diff < 0 ? (lo, mid) : (mid + 1, hi)
                            let far = diff < 0 ? (mid + 1, hi) : (lo, mid)
                            if diff * diff <= radiusSquared + Self.slack && far.0 < far.1 {
                                stack[depth] = far
                                depth += 1
                            }
                            (lo, hi) = near
                        }
                    }
                }
            }
        }
    }
}
