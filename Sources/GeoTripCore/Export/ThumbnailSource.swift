/// One file of the trip that the map and journal show a thumbnail for: what the catalog knows
/// about it, enough to make the thumbnail and to tell whether the one on disk is current.
public struct ThumbnailSource: Sendable, Equatable {
    /// What the file holds.
    public enum Media: Sendable, Equatable {
        /// A still photo.
        case photo(ImageFormat?)
        /// A video: no still is made (yet); pages show it as a link with its duration.
        case video(durationSeconds: Double?)
    }

    /// The photo's catalog id (its identity, kept through moves and edits).
    public var photoID: Int64
    /// Path relative to the trip folder.
    public var path: String
    /// What the file holds.
    public var media: Media
    /// Size in bytes and modification time, as the catalog recorded them: together they say
    /// whether a thumbnail on disk was made from the file as it is now.
    public var fileSize: Int64
    public var modifiedNanos: Int64
    /// EXIF orientation (1-8), when known.
    public var orientation: Int?
    /// The EXIF thumbnail inside the file (IFD1), when there is one.
    public var embeddedThumbnail: ThumbnailLocation?
    /// A key of the photo's pixels (`FileReading.pixelKey`), when the reader took one: the
    /// thumbnail is then named by it, its orientation and its EXIF thumbnail's length, and not
    /// by the file's size and time, so editing the metadata elsewhere makes no new thumbnail.
    public var pixelKey: Int64?

    /// Creates a source.
    public init(photoID: Int64, path: String, media: Media, fileSize: Int64, modifiedNanos: Int64,
                orientation: Int? = nil, embeddedThumbnail: ThumbnailLocation? = nil) {
        self.photoID = photoID
        self.path = path
        self.media = media
        self.fileSize = fileSize
        self.modifiedNanos = modifiedNanos
        self.orientation = orientation
        self.embeddedThumbnail = embeddedThumbnail
    }
}
