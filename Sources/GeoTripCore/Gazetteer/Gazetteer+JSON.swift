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

extension PlaceAnswer {
    /// The same object `encode(to:)` gives through `JSONEncoder` with `.sortedKeys`, as one
    /// JSON Lines record, written without the encoder's cost (`geotrip where` in batch).
    /// A key added to `encode(to:)` must be added here too, in sorted place: the tests compare
    /// the two byte for byte.
    public func writeJSONLine(to writer: inout JSONLineWriter) {
        writer.beginObject()
        writer.field("admin1", admin1)
        writer.field("country", country)
        writer.field("countryCode", countryCode)
        writer.field("distanceMeters", (distanceMeters * 10).rounded() / 10)
        writer.field("kind", kind.rawValue)
        writer.field("latitude", place?.coordinate.latitude)
        writer.field("longitude", place?.coordinate.longitude)
        writer.field("name", place?.name)
        writer.field("population", place?.population)
        writer.field("timeZone", timeZone)
        writer.endObjectLine()
    }
}

extension PlaceMatch: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, admin1, country, countryCode, timeZone, population, latitude, longitude, match, byOtherName
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
        try c.encode(byOtherName, forKey: .byOtherName)
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

extension Coordinate {
    /// Reads the common shape of a typed coordinate straight from its UTF-8 bytes, without
    /// making a `String`: two plain decimals (an optional `-`, digits, optionally `.` and
    /// digits; at most 15 digits each) with one comma between them, blanks or tabs allowed
    /// around the numbers, both in range. Nil for anything else, valid or not, which
    /// `init(parsing:)` then reads and words the error for; wherever this answers, it gives
    /// the very `Double`s `init(parsing:)` gives (the tests compare the two).
    public init?(plainDecimalUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        func skipBlanks() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }
        func decimal() -> Double? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var mantissa: Int64 = 0, digits = 0, fractionDigits = 0, seenPoint = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    guard digits < 15 else { return nil }  // before the mantissa could overflow
                    mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                    digits += 1
                    if seenPoint { fractionDigits += 1 }
                } else if byte == UInt8(ascii: "."), !seenPoint, digits > 0 {
                    seenPoint = true
                } else {
                    break
                }
                index += 1
            }
            // Up to 15 digits the mantissa and the power of ten are exact doubles, so one
            // division rounds correctly, as strtod does (Clinger's fast path); "5." and ".5"
            // are left to the general parser.
            guard digits > 0, !seenPoint || fractionDigits > 0 else { return nil }
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        skipBlanks()
        guard let latitude = decimal() else { return nil }
        skipBlanks()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
        index += 1
        skipBlanks()
        guard let longitude = decimal() else { return nil }
        skipBlanks()
        guard index == bytes.count, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
}

/// Why a typed coordinate was refused.
public struct CoordinateParseError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }
}
