/// No thumbnails: photos are linked by name. The default until a thumbnail maker is plugged in.
public struct NoThumbnails: ThumbnailProvider {
    /// Creates the source.
    public init() {}

    /// Nothing, for every photo.
    public func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool) async throws(GeoTripError) -> Thumbnails {
        Thumbnails()
    }
}
