/// Where the export gets thumbnails from: the seam a thumbnail maker plugs into. The export
/// stage asks once per run, for the photos it may show (never those inside a `--hide-near`
/// zone), and links each photo to the thumbnail path it is given; a photo without one is
/// linked by name.
public protocol ThumbnailProvider: Sendable {
    /// Thumbnails of `photos` in `outputFolder` (absolute): made for new or changed photos,
    /// found for the others. Paths are relative to the output folder (`thumbs/12-ab34.jpg`).
    /// With `checkingEach`, every file is looked at (and one left empty made again); without,
    /// one read of the folder says which are there.
    func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool) async throws(GeoTripError) -> Thumbnails

    /// The same, for some of a trip's photos: the thumbnails of the photos of `keepingAlso`
    /// (ids), which are not among `photos`, are left as they are, and those of `photos` are
    /// made or found; only thumbnails of neither go. Those of `keepingAlso` the folder lacks
    /// are told (`Thumbnails.missingAmongKept`), so the export can make them again.
    func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool, keepingAlso: Set<Int64>) async throws(GeoTripError) -> Thumbnails
}

extension ThumbnailProvider {
    /// A provider that makes thumbnails as it is asked, and removes none, needs only the first.
    public func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool,
                           keepingAlso: Set<Int64>) async throws(GeoTripError) -> Thumbnails {
        try await thumbnails(for: photos, in: outputFolder, checkingEach: checkingEach)
    }

    /// `thumbnails(for:in:checkingEach:)`, every file looked at.
    public func thumbnails(for photos: [TripPhoto], in outputFolder: String) async throws(GeoTripError) -> Thumbnails {
        try await thumbnails(for: photos, in: outputFolder, checkingEach: true)
    }
}
