import Foundation

/// Geometry on the sphere, shared by resolution, clustering and the gazetteer: points as unit
/// vectors (no seam at the antimeridian or the poles), chord lengths and great-circle metres.
enum GreatCircle {
    /// Mean Earth radius (IUGG), metres.
    static let earthRadius = 6_371_008.8

    /// The point on the unit sphere for a latitude and longitude in degrees.
    static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let lat = latitude * .pi / 180, lon = longitude * .pi / 180
        return SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    /// The point on the unit sphere for a coordinate.
    static func unitVector(_ c: Coordinate) -> SIMD3<Double> {
        unitVector(latitude: c.latitude, longitude: c.longitude)
    }

    /// Great-circle metres for a chord length on the unit sphere.
    static func metres(chord: Double) -> Double { 2 * earthRadius * asin(min(1, chord / 2)) }

    /// Chord length on the unit sphere for great-circle metres.
    static func chord(metres: Double) -> Double { 2 * sin(min(.pi / 2, metres / (2 * earthRadius))) }

    /// Metres between two coordinates.
    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let d = unitVector(a) - unitVector(b)
        return metres(chord: (d * d).sum().squareRoot())
    }

    /// The point `fraction` of the way from `a` to `b` along the great circle (slerp), which
    /// is right across the antimeridian where averaging longitudes is not.
    static func interpolate(_ a: Coordinate, _ b: Coordinate, fraction: Double) -> Coordinate {
        let p = unitVector(a), q = unitVector(b)
        let cosine = max(-1, min(1, (p * q).sum()))
        let angle = acos(cosine)
        let v: SIMD3<Double>
        if angle < 1e-12 {
            v = p
        } else {
            v = (sin((1 - fraction) * angle) * p + sin(fraction * angle) * q) / sin(angle)
        }
        let latitude = atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * 180 / .pi
        let longitude = atan2(v.y, v.x) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
