import Foundation

/// One ring or line of the base map, as the page draws it.
public struct BaseMapShape: Sendable, Equatable, Encodable {
    /// What it is.
    public var kind: BaseMap.Kind
    /// ISO 3166-1 alpha-2, for countries.
    public var code: String?
    /// Flattened (latitude, longitude) pairs in stored units (degrees times the scale): the
    /// order Leaflet takes, in whole numbers to keep the page small.
    public var points: [Int32]

    init(kind: BaseMap.Kind, code: String?, points: [ScaledPoint]) {
        self.kind = kind
        self.code = code
        self.points = points.flatMap { [$0.lat, $0.lon] }
    }

    /// The points as coordinates.
    public func coordinates(scale: Int) -> [Coordinate] {
        stride(from: 0, to: points.count - 1, by: 2).map {
            Coordinate(latitude: Double(points[$0]) / Double(scale), longitude: Double(points[$0 + 1]) / Double(scale))
        }
    }

    private enum CodingKeys: String, CodingKey { case kind = "k", code = "c", points = "p" }
}

/// What one trip's map draws of the base layer (`BaseMap.extract`).
public struct BaseMapExtract: Sendable, Equatable, Encodable {
    /// The window detail was clipped to.
    public var window: GeoBox
    /// Stored units per degree.
    public var scale: Int
    /// Land, lakes, islands in lakes, ponds and ice fronts in drawing order, clipped to `window`.
    public var shores: [BaseMapShape] = []
    /// Country borders within `window`.
    public var borders: [BaseMapShape] = []
    /// Every country of the world overview (a hole follows the ring it belongs to).
    public var countries: [BaseMapShape] = []

    /// Points in all shapes, a measure of what the page will carry.
    public var pointCount: Int { (shores + borders + countries).reduce(0) { $0 + $1.points.count / 2 } }

    /// The extract as JSON with sorted keys, byte for byte what `JSONEncoder` writes, written
    /// directly: its hundreds of thousands of whole numbers took `JSONEncoder` a quarter of a
    /// library's export (each number is wrapped and unwrapped on its way).
    public func json() throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pointCount * 12 + 256)
        func shapes(_ list: [BaseMapShape]) throws {
            out.append(UInt8(ascii: "["))
            for (index, shape) in list.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += Array("{".utf8)
                if let code = shape.code { out += Array(("\"c\":" + (try Self.encoded(code)) + ",").utf8) }
                out += Array("\"k\":\(shape.kind.rawValue),\"p\":[".utf8)
                for (position, value) in shape.points.enumerated() {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    out += Array(String(value).utf8)
                }
                out += Array("]}".utf8)
            }
            out.append(UInt8(ascii: "]"))
        }
        out += Array("{\"borders\":".utf8)
        try shapes(borders)
        out += Array(",\"countries\":".utf8)
        try shapes(countries)
        out += Array(",\"scale\":\(scale),\"shores\":".utf8)
        try shapes(shores)
        out += Array((",\"window\":" + (try Self.encoded(window)) + "}").utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// One small value as `JSONEncoder` writes it (sorted keys, slashes as they are).
    private static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
