import Foundation

/// A latitude/longitude rectangle that does not cross the antimeridian: the extent of a trip,
/// and the window the map's base layer is clipped to.
public struct GeoBox: Sendable, Equatable, Codable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    /// A box from its edges, in degrees.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The smallest box holding every coordinate; nil for none.
    public init?(enclosing coordinates: some Sequence<Coordinate>) {
        var box: GeoBox?
        for c in coordinates {
            if box == nil {
                box = GeoBox(south: c.latitude, west: c.longitude, north: c.latitude, east: c.longitude)
            } else {
                box!.south = min(box!.south, c.latitude)
                box!.north = max(box!.north, c.latitude)
                box!.west = min(box!.west, c.longitude)
                box!.east = max(box!.east, c.longitude)
            }
        }
        guard let box else { return nil }
        self = box
    }

    /// The whole world (as far as web maps draw it).
    public static let world = GeoBox(south: -90, west: -180, north: 90, east: 180)

    /// Width in degrees of longitude.
    public var width: Double { east - west }
    /// Height in degrees of latitude.
    public var height: Double { north - south }

    /// The box grown by `fraction` of its size on every side, by at least `minimum` degrees,
    /// and kept inside the world.
    public func expanded(by fraction: Double, atLeast minimum: Double) -> GeoBox {
        let dx = max(width * fraction, minimum), dy = max(height * fraction, minimum)
        return GeoBox(south: max(-90, south - dy), west: max(-180, west - dx),
                      north: min(90, north + dy), east: min(180, east + dx))
    }

    /// Whether the two boxes share any point.
    public func intersects(_ other: GeoBox) -> Bool {
        other.west <= east && other.east >= west && other.south <= north && other.north >= south
    }

    /// Whether `c` lies in the box (edges included).
    public func contains(_ c: Coordinate) -> Bool {
        c.latitude >= south && c.latitude <= north && c.longitude >= west && c.longitude <= east
    }
}
