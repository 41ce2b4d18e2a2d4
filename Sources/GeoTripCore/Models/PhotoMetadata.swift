/// A position on the WGS 84 ellipsoid, in signed decimal degrees (north and east positive).
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Creates a coordinate; callers validate the ranges (see `ExifDecoder`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Which field a capture time came from. Cameras write EXIF `DateTimeOriginal`; scanners and
/// editors sometimes leave only the later two, which are weaker evidence of when the photo was
/// taken. The XMP ones are named as exiftool's `-G1` names them (`XMP-exif:DateTimeOriginal`:
/// the `exif:DateTimeOriginal` property of an XMP packet, embedded or in another program's
/// sidecar), so they never read as the EXIF tag of the same name.
public enum CaptureTimeField: String, Sendable, Codable, CaseIterable {
    case dateTimeOriginal = "DateTimeOriginal"
    case dateTimeDigitized = "DateTimeDigitized"
    case dateTime = "DateTime"
    /// XMP `exif:DateTimeOriginal`.
    case xmpDateTimeOriginal = "XMP-exif:DateTimeOriginal"
    /// XMP `photoshop:DateCreated` (IPTC's Date Created).
    case xmpDateCreated = "XMP-photoshop:DateCreated"
    /// XMP `xmp:CreateDate`.
    case xmpCreateDate = "XMP-xmp:CreateDate"
    /// A video's `com.apple.quicktime.creationdate`: the wall clock with its offset.
    case quickTimeCreationDate = "QuickTime:CreationDate"
    /// A video's `mvhd` creation time, which the specification defines as UTC and many cameras
    /// write as their local wall clock; resolution decides which (`TimeSource.movieHeaderUTC`).
    /// Kept as written, as a wall clock, like the EXIF dates.
    case quickTimeCreateDate = "QuickTime:CreateDate"
}

/// Where a photo's position came from, ranked `manual > exif = quicktime > xmp > sidecar > track
/// > interpolated`: a higher source is never overwritten by a lower one.
public enum LocationSource: String, Sendable, Codable, CaseIterable {
    /// Tagged by the person (`geotrip tag`); survives every rerun.
    case manual
    /// The photo's own GPS tags.
    case exif
    /// A video's own position (Apple's ISO 6709 key, `©xyz` or `loci`), ranked as `exif`: the
    /// file's own record of where it was made.
    case quicktime
    /// The photo's own embedded XMP packet (`exif:GPSLatitude`/`exif:GPSLongitude`), where its
    /// EXIF has no usable position.
    case xmp
    /// An XMP sidecar another program wrote beside the photo (`IMG_1234.xmp`, `IMG_1234.JPG.xmp`),
    /// where the photo itself has no usable position. geotrip's own sidecars are never read.
    case sidecar
    /// A GPS log (`--track`), at the photo's UTC time.
    case track
    /// Between the positioned photos just before and after it in time.
    case interpolated

    /// A position the photo's file or its sidecar carries, rather than one geotrip worked out:
    /// geotrip writes no sidecar for these, since the photo already says where it was taken.
    public var isPhotosOwn: Bool { self == .exif || self == .quicktime || self == .xmp || self == .sidecar }
}

/// Byte range of the JPEG thumbnail embedded in EXIF IFD1, as an absolute offset in the file,
/// so a later stage can cut it out with one read instead of decoding the photo.
public struct ThumbnailLocation: Sendable, Hashable, Codable {
    /// Absolute byte offset of the thumbnail's first byte in the photo file.
    public var offset: Int
    /// Length of the thumbnail in bytes.
    public var length: Int

    /// Creates a thumbnail location.
    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
}

/// Everything geotrip reads from one photo's metadata. Absent or invalid values are `nil`;
/// each invalid value leaves a sentence in `diagnostics` instead of a made-up value.
public struct PhotoMetadata: Sendable, Equatable {
    /// Signed position from the GPS IFD (present only when both Ref tags are), else from XMP.
    public var coordinate: Coordinate?
    /// Where `coordinate` came from: `.exif`, `.xmp` or `.sidecar`; nil without a coordinate.
    public var positionSource: LocationSource?
    /// Metres above sea level (negative below), from GPSAltitude and GPSAltitudeRef.
    public var altitude: Double?
    /// The GPS receiver's UTC time, from GPSDateStamp and GPSTimeStamp.
    public var gpsTime: UTCTimestamp?
    /// The camera's wall-clock time, from the field named by `timeField`.
    public var localTime: LocalDateTime?
    /// The offset from UTC that the camera recorded for `localTime` (OffsetTimeOriginal and kin).
    public var offset: UTCOffset?
    /// The EXIF or XMP field `localTime` was read from.
    public var timeField: CaptureTimeField?
    /// Camera maker, as written by the camera (trimmed).
    public var make: String?
    /// Camera model, as written by the camera (trimmed).
    public var model: String?
    /// EXIF orientation, 1...8.
    public var orientation: Int?
    /// Pixel width of the primary image.
    public var width: Int?
    /// Pixel height of the primary image.
    public var height: Int?
    /// Where the EXIF thumbnail sits in the file, when there is one.
    public var thumbnail: ThumbnailLocation?
    /// One sentence per problem found in this photo's metadata.
    public var diagnostics: [Diagnostic]
    /// A video's length (mvhd duration / timescale); nil for photos.
    public var durationSeconds: Double?
    /// Apple's `com.apple.quicktime.content.identifier`, which a Live Photo's video shares with
    /// its still.
    public var contentIdentifier: String?

    /// Creates metadata with every field empty.
    public init(
        coordinate: Coordinate? = nil, altitude: Double? = nil, gpsTime: UTCTimestamp? = nil,
        localTime: LocalDateTime? = nil, offset: UTCOffset? = nil, timeField: CaptureTimeField? = nil,
        make: String? = nil, model: String? = nil, orientation: Int? = nil,
        width: Int? = nil, height: Int? = nil, thumbnail: ThumbnailLocation? = nil,
        diagnostics: [Diagnostic] = []
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.gpsTime = gpsTime
        self.localTime = localTime
        self.offset = offset
        self.timeField = timeField
        self.make = make
        self.model = model
        self.orientation = orientation
        self.width = width
        self.height = height
        self.thumbnail = thumbnail
        self.diagnostics = diagnostics
    }

    /// What identifies the moment a photo was taken, and so the photo, through edits of its
    /// file: camera time to the millisecond, make and model. Nil without a camera time.
    public var captureSignature: String? {
        Self.captureSignature(localTime: localTime?.iso8601, make: make, model: model)
    }

    /// The signature from the catalog's stored forms of the same fields.
    static func captureSignature(localTime: String?, make: String?, model: String?) -> String? {
        guard let localTime else { return nil }
        return [localTime, make ?? "", model ?? ""].joined(separator: "|")
    }

    /// "Make Model", without repeating the maker when the model already starts with it
    /// ("Canon" + "Canon EOS R5" is "Canon EOS R5").
    public var camera: String? {
        switch (make, model) {
        case (nil, nil): return nil
        case let (make?, nil): return make
        case let (nil, model?): return model
        case let (make?, model?):
            if model.lowercased().hasPrefix(make.lowercased()) { return model }
            return "\(make) \(model)"
        }
    }
}
