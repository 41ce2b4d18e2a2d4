import Foundation

/// What exiftool (`-json -n -G1`, run by scripts/make-sample-images.py) says about one file,
/// turned into the values geotrip reports. This is the independent truth the reader must match.
public struct ExiftoolRecord: Sendable {
    /// Path relative to the folder exiftool was run on.
    public var path: String
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    /// `YYYY-MM-DDTHH:MM:SS[.fff]`, from the first of DateTimeOriginal, CreateDate, ModifyDate
    /// with the SubSecTime tag of the same family.
    public var localTime: String?
    /// The OffsetTime tag of the same family.
    public var offset: String?
    /// GPSDateStamp + GPSTimeStamp as `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    public var gpsTime: String?
    public var make: String?
    public var model: String?
    public var orientation: Int?
    public var width: Int?
    public var height: Int?
    public var thumbnailOffset: Int?
    public var thumbnailLength: Int?
    /// Whether exiftool found any EXIF at all.
    public var hasExif: Bool

    /// Loads every record of an exiftool JSON file.
    public static func load(_ url: URL) throws -> [String: ExiftoolRecord] {
        let data = try Data(contentsOf: url)
        guard let objects = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var records: [String: ExiftoolRecord] = [:]
        for object in objects {
            let record = ExiftoolRecord(object)
            records[record.path] = record
        }
        return records
    }

    init(_ tags: [String: Any]) {
        func number(_ key: String) -> Double? {
            if let value = tags[key] as? NSNumber { return value.doubleValue }
            if let text = tags[key] as? String { return Double(text) }
            return nil
        }
        func text(_ key: String) -> String? {
            if let value = tags[key] as? String { return value.isEmpty ? nil : value }
            if let value = tags[key] as? NSNumber { return value.stringValue }
            return nil
        }
        var path = text("SourceFile") ?? ""
        if path.hasPrefix("./") { path.removeFirst(2) }
        self.path = path
        latitude = number("Composite:GPSLatitude")
        longitude = number("Composite:GPSLongitude")
        if latitude == nil || longitude == nil { latitude = nil; longitude = nil }
        altitude = number("Composite:GPSAltitude")
        if altitude == nil, let raw = number("GPS:GPSAltitude") {
            altitude = number("GPS:GPSAltitudeRef") == 1 ? -raw : raw
        }
        let families = [
            ("ExifIFD:DateTimeOriginal", "ExifIFD:SubSecTimeOriginal", "ExifIFD:OffsetTimeOriginal"),
            ("ExifIFD:CreateDate", "ExifIFD:SubSecTimeDigitized", "ExifIFD:OffsetTimeDigitized"),
            ("IFD0:ModifyDate", "ExifIFD:SubSecTime", "ExifIFD:OffsetTime"),
        ]
        for (dateKey, subSecondKey, offsetKey) in families {
            guard let date = text(dateKey), let iso = Self.isoDateTime(date) else { continue }
            localTime = iso + (text(subSecondKey).map(Self.milliseconds) ?? "")
            offset = text(offsetKey)
            break
        }
        if let date = text("GPS:GPSDateStamp"), let time = text("GPS:GPSTimeStamp"),
           let iso = Self.isoDateTime(date + " " + time.prefix(8)) {
            let fraction = time.count > 9 ? Self.milliseconds(String(time.dropFirst(9))) : ""
            gpsTime = iso + fraction + "Z"
        }
        make = text("IFD0:Make")
        model = text("IFD0:Model")
        orientation = number("IFD0:Orientation").map { Int($0) }
        // exiftool gives a PNG's size in its PNG group and a TIFF's as IFD0's.
        width = (number("File:ImageWidth") ?? number("PNG:ImageWidth") ?? number("IFD0:ImageWidth")).map { Int($0) }
        height = (number("File:ImageHeight") ?? number("PNG:ImageHeight") ?? number("IFD0:ImageHeight")).map { Int($0) }
        thumbnailOffset = number("IFD1:ThumbnailOffset").map { Int($0) }
        thumbnailLength = number("IFD1:ThumbnailLength").map { Int($0) }
        hasExif = tags.keys.contains { $0.hasPrefix("IFD0:") || $0.hasPrefix("ExifIFD:") || $0.hasPrefix("GPS:") }
    }

    /// "2025:06:10 10:07:15" -> "2025-06-10T10:07:15"; nil for anything else.
    static func isoDateTime(_ exif: String) -> String? {
        let parts = exif.split(whereSeparator: { $0 == ":" || $0 == " " })
        guard exif.count == 19, parts.count == 6, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return nil }
        return "\(parts[0])-\(parts[1])-\(parts[2])T\(parts[3]):\(parts[4]):\(parts[5])"
    }

    /// SubSecTime digits as geotrip prints them: the first three, padded (".5" -> ".500").
    static func milliseconds(_ digits: String) -> String {
        let padded = String((digits + "000").prefix(3))
        return "." + padded
    }
}
