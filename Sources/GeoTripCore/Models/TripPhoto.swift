import Foundation

/// One photo of the trip as the exports show it: its catalog identity (thumbnails are named by
/// it), where it is, when and where it was taken, and how sure geotrip is of the place.
public struct TripPhoto: Sendable, Equatable {
    /// The photo's catalog id, which it keeps across moves and edits.
    public var id: Int64
    /// Relative to the trip folder.
    public var path: String
    /// The resolved instant (`…Z`), when known.
    public var utcTime: String?
    /// The resolved position, when known.
    public var coordinate: Coordinate?
    /// `manual`, `exif`, `track` or `interpolated`.
    public var locationSource: String?
    /// How far off the position may be.
    public var uncertaintyMeters: Double?
    /// The visit it belongs to, if any.
    public var visitID: String?
    /// EXIF orientation 1–8, for thumbnails shown upright.
    public var orientation: Int?
    /// Where the photo's embedded EXIF thumbnail is in the file, when it has one.
    public var embeddedThumbnail: (offset: Int, length: Int)? {
        guard let thumbnailOffset, let thumbnailLength else { return nil }
        return (thumbnailOffset, thumbnailLength)
    }
    /// The embedded thumbnail's offset and length, as the catalog keeps them.
    public var thumbnailOffset: Int?
    public var thumbnailLength: Int?
    /// The file's size, modification time and format as the catalog recorded them: whether a
    /// thumbnail on disk was made from the file as it is now, and how to decode it.
    public var fileSize: Int64 = 0
    public var modifiedNanos: Int64 = 0
    public var format: ImageFormat?
    /// A key of the photo's pixels (`FileReading.pixelKey`), when the reader took one: its
    /// thumbnail is named by it rather than by the file's size and time.
    public var pixelKey: Int64?
    /// A video's length in seconds (`format` is `video`).
    public var durationSeconds: Double?
    /// A Live Photo's video: the id of its still, with which it is one moment (it belongs to no
    /// visit of its own and is not counted as a photo of one).
    public var liveStillID: Int64?

    /// Creates a photo.
    public init(id: Int64, path: String, utcTime: String? = nil, coordinate: Coordinate? = nil, locationSource: String? = nil,
                uncertaintyMeters: Double? = nil, visitID: String? = nil, orientation: Int? = nil,
                thumbnailOffset: Int? = nil, thumbnailLength: Int? = nil) {
        self.id = id
        self.path = path
        self.utcTime = utcTime
        self.coordinate = coordinate
        self.locationSource = locationSource
        self.uncertaintyMeters = uncertaintyMeters
        self.visitID = visitID
        self.orientation = orientation
        self.thumbnailOffset = thumbnailOffset
        self.thumbnailLength = thumbnailLength
    }
}
