import Foundation

/// The JSON shapes of `geotrip where` and `geotrip find`. Every key is always present.
extension PlaceAnswer: Encodable {
    private enum CodingKeys: String, CodingKey {
        case kind, name, admin1, country, countryCode, timeZone, population, distanceMeters, latitude, longitude
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(place?.name, forKey: .name)
        try c.encode(admin1, forKey: .admin1)
        try c.encode(country, forKey: .country)
        try c.encode(countryCode, forKey: .countryCode)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(place?.population, forKey: .population)
        try c.encode((distanceMeters * 10).rounded() / 10, forKey: .distanceMeters)
        try c.encode(place?.coordinate.latitude, forKey: .latitude)
        try c.encode(place?.coordinate.longitude, forKey: .longitude)
    }
}

extension PlaceMatch: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, admin1, country, countryCode, timeZone, population, latitude, longitude, match
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(place.name, forKey: .name)
        try c.encode(place.admin1, forKey: .admin1)
        try c.encode(place.country, forKey: .country)
        try c.encode(place.countryCode, forKey: .countryCode)
        try c.encode(place.timeZone, forKey: .timeZone)
        try c.encode(place.population, forKey: .population)
        try c.encode(place.coordinate.latitude, forKey: .latitude)
        try c.encode(place.coordinate.longitude, forKey: .longitude)
        try c.encode(quality.rawValue, forKey: .match)
    }
}

extension Coordinate {
    /// Parses `LAT,LON` (or `LAT LON`) in decimal degrees, checking the ranges; the error is a
    /// sentence for the person who typed it.
    public init(parsing text: String) throws(CoordinateParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw CoordinateParseError(message: "empty line: expected LAT,LON such as 35.0116,135.7681") }
        // One comma, or blanks, between two plain decimal numbers (no hex, no exponents).
        let parts = trimmed.contains(",")
            ? trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            : trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let decimal = { (part: String) in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }
        }
        guard parts.count == 2, decimal(parts[0]), decimal(parts[1]),
              let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite else {
            throw CoordinateParseError(message: "'\(text)' is not LAT,LON in decimal degrees (such as 35.0116,135.7681)")
        }
        guard (-90...90).contains(latitude) else {
            throw CoordinateParseError(message: "latitude \(parts[0]) is out of range (-90 to 90)")
        }
        guard (-180...180).contains(longitude) else {
            throw CoordinateParseError(message: "longitude \(parts[1]) is out of range (-180 to 180)")
        }
        self.init(latitude: latitude, longitude: longitude)
    }
}

/// Why a typed coordinate was refused.
public struct CoordinateParseError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }
}
