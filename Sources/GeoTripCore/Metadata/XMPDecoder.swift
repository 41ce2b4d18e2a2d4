import Foundation

/// What one XMP packet says about when and where a photo was taken, before it is weighed
/// against the photo's EXIF (`MetadataReader` lets EXIF win and XMP fill what EXIF lacks).
struct XMPValues: Equatable {
    /// The capture time: which property gave it, the wall clock, and the offset it carried.
    struct CaptureTime: Equatable {
        var field: CaptureTimeField
        var localTime: LocalDateTime
        var offset: UTCOffset?
    }

    var coordinate: Coordinate?
    var altitude: Double?
    var gpsTime: UTCTimestamp?
    var captureTime: CaptureTime?
    /// The packet holds a property in geotrip's namespace: it is a sidecar geotrip wrote (perhaps
    /// re-saved by another program since), whose position is geotrip's output, never input: only
    /// a capture time, which geotrip never writes, is read from it.
    var isGeotrips = false
    /// In a packet of geotrip's (`isGeotrips`), the position it holds: geotrip's output, read
    /// only to tell whether a sidecar another program edited still says the position geotrip has.
    var ownPosition: Coordinate?
    /// `xmpNote:HasExtendedXMP`: the GUID of the extended packet that continues this one
    /// (XMP Specification Part 3, 1.1.3.1).
    var extendedGUID: String?
    /// One sentence per value rejected, and for a packet that could not be read at all.
    var diagnostics: [Diagnostic] = []

    /// Whether the packet gave anything a photo can use.
    var isEmpty: Bool { coordinate == nil && altitude == nil && gpsTime == nil && captureTime == nil }
}

/// Decodes an XMP packet (from a JPEG APP1 segment, a HEIF `mime` item, a TIFF tag 700 or a
/// sidecar file: any bytes that hold one) with libxml2, through `XMLEventStream` as an untrusted
/// document: no network, no DTD, no entities, libxml2's default size limits.
///
/// Properties are read wherever XMP allows them at the top of a resource: as attributes of an
/// `rdf:Description` or as its simple child elements, in any number of `rdf:Description`
/// elements (exiftool writes one per namespace). The first value of a property wins.
///
/// What counts as a capture time: an XMP Date with at least hours and minutes (seconds, a
/// fraction and an offset are optional). A date alone (`2024-05-01`, common in
/// `photoshop:DateCreated` from IPTC tools) or a year and month name a day, not a moment, and are
/// reported and not used. Properties are tried in the order `exif:DateTimeOriginal`,
/// `photoshop:DateCreated`, `xmp:CreateDate`, the order of EXIF's own fields they mirror.
///
/// GPS values follow "EXIF 2.3 metadata for XMP" (CIPA DC-010): a GPSCoordinate is
/// `DDD,MM.mmmmk` or `DDD,MM,SSk` with the hemisphere letter last; GPSAltitude a Rational with
/// GPSAltitudeRef 0 or 1; GPSTimeStamp an XMP Date in UTC. The range checks are EXIF's
/// (`ExifDecoder`): minutes and seconds at most 60, |lat| ≤ 90, |lon| ≤ 180, never 0,0.
enum XMPDecoder {
    /// A packet larger than this is not read: a JPEG's main packet is under 64 KiB and an
    /// extended one rarely above a few hundred; 16 MiB leaves room for sidecars with long edit
    /// histories while keeping a crafted file from costing the run its memory.
    static let maximumPacketSize = 16 << 20

    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    static let photoshopNamespace = "http://ns.adobe.com/photoshop/1.0/"
    static let xmpNamespace = "http://ns.adobe.com/xap/1.0/"
    static let noteNamespace = "http://ns.adobe.com/xmp/note/"

    /// Decodes `packet`; `origin` names it in diagnostics ("XMP", "sidecar IMG_1234.xmp"), and
    /// `damage` is the kind said of a packet that cannot be read (a sidecar's damage is the
    /// sidecar's, `sidecarUnreadable`: the photo itself may be whole).
    static func decode(_ packet: [UInt8], origin: String, damage: DiagnosticKind = .damaged) -> XMPValues {
        var values = XMPValues()
        guard packet.count <= maximumPacketSize else {
            values.diagnostics.append(Diagnostic(damage, "\(origin) is \(packet.count) bytes, more than the \(maximumPacketSize >> 20) MiB geotrip reads; not read"))
            return values
        }
        // Some writers pad the segment after the packet with NUL bytes, which XML does not allow.
        // XMP may be UTF-16 with its byte order mark (XMP Specification Part 1, 7.1), which
        // libxml2 reads by that mark: there a NUL character is two NUL bytes, and the last
        // character's own NUL byte stays.
        var length = (packet.lastIndex { $0 != 0 } ?? -1) + 1
        if packet.starts(with: [0xFE, 0xFF]) || packet.starts(with: [0xFF, 0xFE]) {
            length = min(packet.count, length + length % 2)
        }
        let collector = XMPPropertyCollector()
        let end = XMLEventStream.read(data: Data(packet[..<length]), into: collector, untrusted: true)
        switch end {
        case .finished, .stoppedByHandler:
            break
        case .empty:
            values.diagnostics.append(Diagnostic(damage, "\(origin) is empty"))
            return values
        case .declaresEntities(let line), .declaresDocumentType(let line):
            values.diagnostics.append(Diagnostic(damage, "\(origin) has a DOCTYPE or entity declaration (line \(line)), which XMP never uses and which could expand without bound or reach other files; not read"))
            return values
        case .malformed(let problem, let line):
            values.diagnostics.append(Diagnostic(damage, "\(origin) is not well-formed XML (\(problem), line \(line)); not read"))
            return values
        case .tooManyAttributes(let line):
            values.diagnostics.append(Diagnostic(damage, "\(origin) has an element with more than \(StartTagScanner.maximumAttributes.grouped) attributes "
                + "(line \(line)), which no XMP writer makes and which the XML parser would take minutes over; not read"))
            return values
        case .readFailed:
            return values  // memory is never a failed read
        }
        var reader = PropertyReader(properties: collector.properties, origin: origin)
        if collector.sawGeotripNamespace {
            // geotrip's own position and GPS time are its output, never input. A capture time is
            // none of geotrip's: another program (or the person, with exiftool) put it there.
            values.isGeotrips = true
            values.captureTime = reader.captureTime()
            values.diagnostics = reader.diagnostics
            values.ownPosition = reader.coordinate()  // what is wrong with it is geotrip's to mend: not said
            return values
        }
        values.coordinate = reader.coordinate()
        // An altitude belongs to its fix, as in EXIF: none kept without a position.
        values.altitude = values.coordinate == nil ? nil : reader.altitude()
        values.gpsTime = reader.gpsTime()
        values.captureTime = reader.captureTime()
        values.extendedGUID = collector.properties[.init(noteNamespace, "HasExtendedXMP")]
        values.diagnostics = reader.diagnostics
        return values
    }
}

/// A property's namespace URI and local name.
private struct PropertyName: Hashable {
    var namespace: String
    var name: String
    init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }
}

/// Collects the simple top-level properties of every `rdf:Description`, and notes any name in
/// geotrip's namespace anywhere in the document.
private final class XMPPropertyCollector: XMLEventHandler {
    /// Values longer than this are no date or coordinate; they are cut, not kept whole.
    static let maximumValueLength = 256

    private(set) var properties: [PropertyName: String] = [:]
    private(set) var sawGeotripNamespace = false

    /// What each open element is, innermost last.
    private enum Open: Equatable { case rdf, description, property(PropertyName), other }
    private var stack: [Open] = []
    private var text: [UInt8] = []
    private var collecting: PropertyName?

    var wantsText: Bool { collecting != nil }

    func startElement(_ name: String, namespace: String, attributes: XMLAttributes) -> Bool {
        let all = attributes.all
        if namespace == XMPSidecar.geotripNamespace || all.contains(where: { $0.namespace == XMPSidecar.geotripNamespace }) {
            sawGeotripNamespace = true
        }
        let isRDF = namespace == XMPDecoder.rdfNamespace
        switch stack.last {
        case .rdf? where isRDF && name == "Description":
            stack.append(.description)
            for attribute in all where !attribute.namespace.isEmpty && attribute.namespace != XMPDecoder.rdfNamespace {
                let key = PropertyName(attribute.namespace, attribute.name)
                if properties[key] == nil { properties[key] = String(attribute.value.prefix(Self.maximumValueLength)) }
            }
        case .description?:
            let key = PropertyName(namespace, name)
            stack.append(.property(key))
            if properties[key] == nil {
                collecting = key
                text.removeAll(keepingCapacity: true)
            }
        default:
            // A property element that gains a child is a structure or an array, not a simple value.
            collecting = nil
            stack.append(isRDF && name == "RDF" ? .rdf : .other)
        }
        return true
    }

    func endElement() {
        if case .property(let key)? = stack.last, collecting == key {
            properties[key] = String(decoding: text, as: UTF8.self)
            collecting = nil
        }
        stack.removeLast()
    }

    func text(_ utf8: UnsafeRawBufferPointer) {
        let room = XMPPropertyCollector.maximumValueLength - text.count
        guard room > 0 else { return }
        text.append(contentsOf: utf8.prefix(room))
    }
}

/// Typed values of the collected properties, collecting diagnostics as it goes.
private struct PropertyReader {
    let properties: [PropertyName: String]
    let origin: String
    var diagnostics: [Diagnostic] = []

    func value(_ namespace: String, _ name: String) -> String? {
        guard let text = properties[PropertyName(namespace, name)]?.trimmingCharacters(), !text.isEmpty else { return nil }
        return text
    }

    // MARK: Position

    mutating func coordinate() -> Coordinate? {
        let latitudeText = value(XMPDecoder.exifNamespace, "GPSLatitude")
        let longitudeText = value(XMPDecoder.exifNamespace, "GPSLongitude")
        guard latitudeText != nil || longitudeText != nil else { return nil }
        let reported = diagnostics.count
        let latitude = latitudeText.flatMap { degrees($0, name: "exif:GPSLatitude", positive: "N", negative: "S", limit: 90) }
        let longitude = longitudeText.flatMap { degrees($0, name: "exif:GPSLongitude", positive: "E", negative: "W", limit: 180) }
        guard let latitude, let longitude else {
            if diagnostics.count == reported {
                diagnostics.append(Diagnostic(.positionIgnored, "\(origin) has only one of exif:GPSLatitude and exif:GPSLongitude; no position recorded"))
            }
            return nil
        }
        if latitude == 0 && longitude == 0 {
            diagnostics.append(Diagnostic(.nullIsland, "\(origin) gives the GPS position exactly 0,0 (\"null island\"), which devices write when they have no fix; no position recorded"))
            return nil
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// `DDD,MM.mmmmk` or `DDD,MM,SSk` (k the hemisphere letter), signed by the letter.
    private mutating func degrees(_ text: String, name: String, positive: Character, negative: Character, limit: Double) -> Double? {
        func reject(_ why: String) -> Double? {
            diagnostics.append(Diagnostic(.positionIgnored, "\(origin) \(name) '\(text)' \(why); no position recorded"))
            return nil
        }
        guard let letter = text.last?.uppercased().first else { return nil }
        let sign: Double
        switch letter {
        case positive: sign = 1
        case negative: sign = -1
        default: return reject("does not end in \(positive) or \(negative)")
        }
        let parts = text.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return reject("is not in the form DDD,MM.mmmm\(positive) or DDD,MM,SS\(positive)") }
        var numbers: [Double] = []
        for part in parts {
            guard let number = Self.decimal(part) else { return reject("is not in the form DDD,MM.mmmm\(positive) or DDD,MM,SS\(positive)") }
            numbers.append(number)
        }
        let minutes = numbers[1], seconds = numbers.count > 2 ? numbers[2] : 0
        // Exactly 60 is accepted, as in EXIF: a rounding artefact real writers produce.
        guard minutes <= 60 else { return reject("has minutes out of range (must be at most 60)") }
        guard seconds <= 60 else { return reject("has seconds out of range (must be at most 60)") }
        let total = numbers[0] + minutes / 60 + seconds / 3600
        guard total <= limit else { return reject("is beyond the \(Int(limit))° limit") }
        // Rounded to 1e-9° as EXIF positions are, so both print alike.
        return sign * (total * 1e9).rounded() / 1e9
    }

    /// A non-negative decimal of ASCII digits with at most one point; nil for anything else
    /// (signs, exponents, locale commas), so no text is read as a number it does not spell.
    static func decimal(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        let points = bytes.filter { $0 == UInt8(ascii: ".") }.count
        guard !bytes.isEmpty, bytes.count <= 32, points <= 1, bytes.contains(where: ASCIIDigits.isDigit),
              bytes.allSatisfy({ ASCIIDigits.isDigit($0) || $0 == UInt8(ascii: ".") })
        else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    mutating func altitude() -> Double? {
        guard let text = value(XMPDecoder.exifNamespace, "GPSAltitude") else { return nil }
        func reject(_ why: String) -> Double? {
            diagnostics.append(Diagnostic(.altitudeIgnored, "\(origin) exif:GPSAltitude '\(text)' \(why); no altitude recorded"))
            return nil
        }
        let metres: Double
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let numerator = Self.decimal(parts[0]), let denominator = Self.decimal(parts[1]) else { return reject("is not a rational") }
            guard denominator != 0 else { return reject("has a zero denominator") }
            metres = numerator / denominator
        } else {
            guard let plain = Self.decimal(text[...]) else { return reject("is not a rational") }
            metres = plain
        }
        let altitude: Double
        switch value(XMPDecoder.exifNamespace, "GPSAltitudeRef") {
        case nil, "0": altitude = metres
        case "1": altitude = -metres
        case let other?:
            diagnostics.append(Diagnostic(.altitudeIgnored, "\(origin) exif:GPSAltitudeRef is '\(other)', not 0 (above sea level) or 1 (below); no altitude recorded"))
            return nil
        }
        // The same bounds as EXIF's (`ExifDecoder.plausibleAltitudes`).
        guard ExifDecoder.plausibleAltitudes.contains(altitude) else {
            return reject("is \(ExifDecoder.altitudeOutOfBounds(altitude))")
        }
        return altitude
    }

    // MARK: Time

    /// exif:GPSTimeStamp, an XMP Date that is UTC unless it says otherwise.
    mutating func gpsTime() -> UTCTimestamp? {
        guard let text = value(XMPDecoder.exifNamespace, "GPSTimeStamp") else { return nil }
        switch XMPDate.parse(text) {
        case .moment(let time, let offset):
            guard let utc = XMPDate.utc(time, offset: offset) else {
                diagnostics.append(Diagnostic(.gpsTimeIgnored, "\(origin) exif:GPSTimeStamp '\(text)' is outside years 1 to 9999 in UTC; GPS time not recorded"))
                return nil
            }
            return UTCTimestamp(utc)
        case .dayOnly:
            diagnostics.append(Diagnostic(.gpsTimeIgnored, "\(origin) exif:GPSTimeStamp '\(text)' has no time of day; GPS time not recorded"))
        case .invalid:
            diagnostics.append(Diagnostic(.gpsTimeIgnored, "\(origin) exif:GPSTimeStamp '\(text)' is not a real date and time; GPS time not recorded"))
        case .invalidOffset(let zone):
            diagnostics.append(Diagnostic(.gpsTimeIgnored, "\(origin) exif:GPSTimeStamp '\(text)' ends in '\(zone)', not an offset between -12:00 and +14:00; GPS time not recorded"))
        }
        return nil
    }

    /// The first usable of exif:DateTimeOriginal, photoshop:DateCreated and xmp:CreateDate.
    mutating func captureTime() -> XMPValues.CaptureTime? {
        let candidates: [(CaptureTimeField, String, String)] = [
            (.xmpDateTimeOriginal, XMPDecoder.exifNamespace, "DateTimeOriginal"),
            (.xmpDateCreated, XMPDecoder.photoshopNamespace, "DateCreated"),
            (.xmpCreateDate, XMPDecoder.xmpNamespace, "CreateDate"),
        ]
        for (field, namespace, name) in candidates {
            guard let text = value(namespace, name) else { continue }
            switch XMPDate.parse(text) {
            case .moment(let time, _) where time.isUnixEpoch:
                diagnostics.append(Diagnostic(.timeIgnored, "\(origin) \(field.rawValue) '\(text)' is the first second of Unix time, "
                                              + "which a device whose clock was never set writes; not used"))
            case .moment(let time, let offset):
                return XMPValues.CaptureTime(field: field, localTime: time, offset: offset)
            case .dayOnly:
                diagnostics.append(Diagnostic(.timeIgnored, "\(origin) \(field.rawValue) '\(text)' names a day but no time of day; not used as a capture time"))
            case .invalid:
                diagnostics.append(Diagnostic(.timeIgnored, "\(origin) \(field.rawValue) '\(text)' is not a real date and time; not used"))
            case .invalidOffset(let zone):
                diagnostics.append(Diagnostic(.timeIgnored, "\(origin) \(field.rawValue) '\(text)' ends in '\(zone)', not an offset between -12:00 and +14:00; not used"))
            }
        }
        return nil
    }
}

/// The XMP Date form (XMP Specification Part 1, 7.3.2; a subset of ISO 8601):
/// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mm[:ss[.s+]][TZD]`, TZD `Z` or `±hh:mm`.
/// Colons in the date (`2024:05:01`, EXIF's form) and a space before the time are accepted,
/// since writers that copy EXIF dates into XMP produce them.
enum XMPDate: Equatable {
    /// A wall-clock time with the offset it carried, if any.
    case moment(LocalDateTime, UTCOffset?)
    /// A year, a month or a day with no time of day.
    case dayOnly
    /// Not an XMP Date, or not a real one.
    case invalid
    /// A real date and time whose offset (the text after the time) is not one: outside
    /// -12:00 to +14:00, or not `Z` or `±hh:mm`.
    case invalidOffset(String)

    static func parse(_ text: String) -> XMPDate {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? { range.upperBound <= b.count ? ASCIIDigits.parse(b[range]) : nil }
        let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: ":")]
        guard let year = digits(0..<4), year >= 1 else { return .invalid }
        if b.count == 4 { return .dayOnly }
        guard b.count >= 7, separators.contains(b[4]), let month = digits(5..<7), (1...12).contains(month) else { return .invalid }
        if b.count == 7 { return .dayOnly }
        guard b.count >= 10, b[7] == b[4], let date = DateText.parseDate(String(decoding: b[0..<10], as: UTF8.self)) else { return .invalid }
        if b.count == 10 { return .dayOnly }
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), b[13] == UInt8(ascii: ":"),
              let hour = digits(11..<13), let minute = digits(14..<16)
        else { return .invalid }
        var index = 16, second = 0
        var millisecond: Int?
        if index < b.count, b[index] == UInt8(ascii: ":") {
            guard let value = digits(17..<19) else { return .invalid }
            second = value
            index = 19
            if index < b.count, b[index] == UInt8(ascii: ".") {
                let start = index + 1
                var end = start
                while end < b.count, ASCIIDigits.isDigit(b[end]) { end += 1 }
                guard end > start, let fraction = DateText.parseSubSecond(String(decoding: b[start..<end], as: UTF8.self)) else { return .invalid }
                millisecond = fraction
                index = end
            }
        }
        var offset: UTCOffset?
        if index < b.count {
            let zoneText = String(decoding: b[index...], as: UTF8.self)
            guard let zone = UTCOffset(parsing: zoneText) else {
                let real = LocalDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute,
                                         second: second, millisecond: millisecond) != nil
                return real ? .invalidOffset(zoneText) : .invalid
            }
            offset = zone
        }
        guard let time = LocalDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute,
                                       second: second, millisecond: millisecond)
        else { return .invalid }
        return .moment(time, offset)
    }

    /// `time` at `offset` (none: already UTC) as a UTC date-time; nil outside years 1...9999.
    static func utc(_ time: LocalDateTime, offset: UTCOffset?) -> LocalDateTime? {
        guard let offset, offset.minutes != 0 else { return time }
        let minutes = (Date.daysSince1970(year: time.year, month: time.month, day: time.day) * 1440
                       + time.hour * 60 + time.minute) - offset.minutes
        let (days, inDay) = minutes.quotientAndRemainder(dividingBy: 1440)
        let (day, minute) = inDay < 0 ? (days - 1, inDay + 1440) : (days, inDay)
        let civil = Date.civilDate(daysSince1970: day)
        return LocalDateTime(year: civil.year, month: civil.month, day: civil.day, hour: minute / 60, minute: minute % 60,
                             second: time.second, millisecond: time.millisecond)
    }
}
