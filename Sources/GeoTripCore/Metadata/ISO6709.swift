/// Positions written as ISO 6709 strings, the form QuickTime keeps them in
/// (`com.apple.quicktime.location.ISO6709`, `©xyz`): `+48.8584+002.2945+035.000/`.
enum ISO6709 {
    /// Parses `±DD[.D…]±DDD[.D…]` (degrees unpadded too: `+8.98-79.52/`), or the same with
    /// degrees and minutes (`±DDMM.M…±DDDMM.M…`) or
    /// degrees, minutes and seconds (`±DDMMSS±DDDMMSS`), then an optional altitude `±A[.A…]`, an
    /// optional `CRS…` name and the closing `/` (ISO 6709:2008 annex H). Anything else, minutes
    /// or seconds of 60 and more, or a position out of range, is nil: a reading is never guessed.
    static func parse(_ text: String) -> (coordinate: Coordinate, altitude: Double?)? {
        var bytes = Array(text.utf8)[...]
        while let last = bytes.last, last == 0 { bytes.removeLast() }
        guard let latitude = angle(&bytes, degreeDigits: 2), abs(latitude) <= 90,
              let longitude = angle(&bytes, degreeDigits: 3), abs(longitude) <= 180
        else { return nil }
        var altitude: Double?
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            guard let value = number(&bytes) else { return nil }
            altitude = value.value
        }
        if bytes.starts(with: "CRS".utf8) {
            while let first = bytes.first, first != UInt8(ascii: "/") { bytes.removeFirst() }
        }
        if bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
        guard bytes.isEmpty else { return nil }
        return (Coordinate(latitude: latitude, longitude: longitude), altitude)
    }

    /// A signed angle whose whole part has `degreeDigits` digits (degrees), two more (and
    /// minutes), or four more (and seconds).
    private static func angle(_ bytes: inout ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
        let start = bytes
        guard let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-"),
              let (value, wholeDigits) = number(&bytes)
        else { return nil }
        let hasFraction = start.prefix(start.count - bytes.count).contains(UInt8(ascii: "."))
        let sign = value < 0 ? -1.0 : 1.0
        let magnitude = abs(value)
        switch wholeDigits - degreeDigits {
        case 0:
            return value
        case ..<0 where hasFraction:
            // Degrees with fewer digits than the standard's padding (`+48.8584+2.2945/`, as
            // some writers leave them): too few for minutes, so no other reading. Without a
            // fraction (`+48.8584+2`) it is more likely a value cut short, and refused.
            return value
        case 2:
            let degrees = (magnitude / 100).rounded(.down), minutes = magnitude - degrees * 100
            guard minutes < 60 else { return nil }
            return sign * (degrees + minutes / 60)
        case 4:
            let degrees = (magnitude / 10_000).rounded(.down)
            let minutes = ((magnitude - degrees * 10_000) / 100).rounded(.down)
            let seconds = magnitude - degrees * 10_000 - minutes * 100
            guard minutes < 60, seconds < 60 else { return nil }
            return sign * (degrees + minutes / 60 + seconds / 3600)
        default:
            return nil
        }
    }

    /// A sign, digits, and optionally `.` and more digits; the value and the count of whole digits.
    private static func number(_ bytes: inout ArraySlice<UInt8>) -> (value: Double, wholeDigits: Int)? {
        guard let sign = bytes.popFirst() else { return nil }
        let whole = bytes.prefix { ASCIIDigits.isDigit($0) }
        guard !whole.isEmpty, whole.count <= 9 else { return nil }
        bytes.removeFirst(whole.count)
        var text = String(decoding: whole, as: UTF8.self)
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            let fraction = bytes.prefix { ASCIIDigits.isDigit($0) }
            // As many digits as a Double's shortest form has and more (exiftool writes what it
            // is given: `+52.3702+004.90153369096734/`), never a runaway.
            guard !fraction.isEmpty, fraction.count <= 24 else { return nil }
            bytes.removeFirst(fraction.count)
            text += "." + String(decoding: fraction, as: UTF8.self)
        }
        guard let magnitude = Double(text) else { return nil }
        return (sign == UInt8(ascii: "-") ? -magnitude : magnitude, whole.count)
    }
}
