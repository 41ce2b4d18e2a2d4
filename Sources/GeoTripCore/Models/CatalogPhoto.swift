/// One photo as `geotrip photos` reports it: what the catalog holds, in the trip's terms.
public struct CatalogPhoto: Sendable, Equatable, Encodable {
    public var id: Int64
    /// Path relative to the trip folder.
    public var path: String
    public var status: FileReading.Status
    public var format: ImageFormat?
    public var coordinate: Coordinate?
    public var altitude: Double?
    public var localTime: LocalDateTime?
    public var offset: UTCOffset?
    public var timeField: CaptureTimeField?
    public var gpsTime: UTCTimestamp?
    public var make: String?
    public var model: String?
    public var orientation: Int?
    public var width: Int?
    public var height: Int?
    public var thumbnail: ThumbnailLocation?
    public var diagnostics: [String]
    /// The instant the photo was taken, when resolution could tell.
    public var utcTime: UTCTimestamp?
    /// IANA zone, or `±HH:MM` when only the offset is known.
    public var timeZone: String?
    public var timeSource: TimeSource?
    /// Where `coordinate` came from.
    public var locationSource: LocationSource?
    public var uncertaintyMeters: Double?
    /// A video's length in seconds.
    public var durationSeconds: Double?
    /// A Live Photo's video: the path of its still.
    public var livePhotoStill: String?
    /// The position the file itself recorded (EXIF, QuickTime), whatever resolution decided:
    /// what resolution takes a zone from (not listed).
    var ownCoordinate: Coordinate?

    /// "Make Model" as `PhotoMetadata.camera` builds it.
    public var camera: String? { PhotoMetadata(make: make, model: model).camera }

    init(_ record: PhotoRecord) {
        id = record.id ?? 0
        path = record.path
        status = record.status
        format = record.format
        // The resolved position (any source); before resolution has run, the photo's own.
        if let latitude = record.resolvedLatitude, let longitude = record.resolvedLongitude {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
            locationSource = record.locationSource
            uncertaintyMeters = record.uncertaintyMeters
        } else if let latitude = record.latitude, let longitude = record.longitude {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
            locationSource = record.positionSource ?? (record.format == .video ? .quicktime : .exif)
            uncertaintyMeters = LocationResolver.exifUncertainty
        }
        if let latitude = record.latitude, let longitude = record.longitude {
            ownCoordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        utcTime = record.utcTime.flatMap(UTCTimestamp.init(iso8601:))
        timeZone = record.timeZone
        timeSource = record.timeSource
        altitude = record.altitude
        localTime = record.localTime.flatMap(LocalDateTime.init(iso8601:))
        // A video whose mvhd time was read as UTC recorded no wall clock: it is shown on the
        // clock of its resolved zone, as the photos taken beside it are.
        if record.timeSource == .movieHeaderUTC, let utc = UTCTimestamp.date(record.utcTime),
           let wall = LocalClock.wallClock(utc, zone: record.timeZone)?.geotripISO8601 {
            localTime = LocalDateTime(iso8601: String(wall.dropLast())) ?? localTime
        }
        offset = record.utcOffset.flatMap(UTCOffset.init(parsing:))
        timeField = record.timeField
        gpsTime = record.gpsTime.flatMap(UTCTimestamp.init(iso8601:))
        make = record.make
        model = record.model
        orientation = record.orientation
        width = record.width
        height = record.height
        if let offset = record.thumbnailOffset, let length = record.thumbnailLength {
            thumbnail = ThumbnailLocation(offset: Int(offset), length: Int(length))
        }
        diagnostics = record.diagnostics
        durationSeconds = record.durationSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case id, path, status, format, latitude, longitude, altitude, localTime, offset, timeField, gpsTime
        case camera, make, model, orientation, width, height, thumbnail, locationSource, diagnostics
        case utcTime, timeZone, timeSource, uncertaintyMeters, durationSeconds, livePhotoStill
    }

    /// Every key is written, `null` when absent, so consumers see a stable shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(path, forKey: .path)
        try c.encode(status, forKey: .status)
        try c.encode(format, forKey: .format)
        try c.encode(coordinate?.latitude, forKey: .latitude)
        try c.encode(coordinate?.longitude, forKey: .longitude)
        try c.encode(altitude, forKey: .altitude)
        try c.encode(localTime?.iso8601, forKey: .localTime)
        try c.encode(offset?.description, forKey: .offset)
        try c.encode(timeField, forKey: .timeField)
        try c.encode(gpsTime?.iso8601, forKey: .gpsTime)
        try c.encode(camera, forKey: .camera)
        try c.encode(make, forKey: .make)
        try c.encode(model, forKey: .model)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(thumbnail, forKey: .thumbnail)
        try c.encode(locationSource, forKey: .locationSource)
        try c.encode(uncertaintyMeters, forKey: .uncertaintyMeters)
        try c.encode(utcTime?.iso8601, forKey: .utcTime)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(timeSource, forKey: .timeSource)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(livePhotoStill, forKey: .livePhotoStill)
        try c.encode(diagnostics, forKey: .diagnostics)
    }
}
