import Foundation

/// The thumbnails the export shows, made by `ThumbnailMaker` (`thumbs/` in the output folder):
/// only for new or changed photos, since a thumbnail's name says which file it was made from;
/// the ones no photo uses any more are removed.
public struct MadeThumbnails: ThumbnailProvider {
    /// The trip folder, where the photos are.
    let tripFolder: String

    /// Creates the provider for the trip at `tripFolder`.
    public init(tripFolder: String) {
        self.tripFolder = tripFolder
    }

    public func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool) async throws(GeoTripError) -> Thumbnails {
        try await thumbnails(for: photos, in: outputFolder, checkingEach: checkingEach, keepingAlso: [])
    }

    public func thumbnails(for photos: [TripPhoto], in outputFolder: String, checkingEach: Bool,
                           keepingAlso: Set<Int64>) async throws(GeoTripError) -> Thumbnails {
        let maker = ThumbnailMaker(tripFolder: URL(fileURLWithPath: tripFolder), outputFolder: URL(fileURLWithPath: outputFolder))
        // A name that is not UTF-8 is kept as `%XX` in the catalog, which is not its name on
        // disk: such photos get no thumbnail (as they get no sidecar), and no complaint either.
        let photos = photos.filter { !$0.path.utf8.contains(UInt8(ascii: "%")) || FileManager.default.fileExists(atPath: tripFolder + "/" + $0.path) }
        let sources = photos.map { photo in
            var source = ThumbnailSource(photoID: photo.id, path: photo.path, media: photo.format == .video ? .video(durationSeconds: photo.durationSeconds) : .photo(photo.format), fileSize: photo.fileSize,
                                         modifiedNanos: photo.modifiedNanos, orientation: photo.orientation,
                                         embeddedThumbnail: photo.embeddedThumbnail.map { ThumbnailLocation(offset: $0.offset, length: $0.length) })
            source.pixelKey = photo.pixelKey
            return source
        }
        // The folder read once, before any is made: which are there already, then which are stale.
        let listing = checkingEach ? nil : maker.listing()
        // Stopped midway (Ctrl-C), nothing is removed: the next run finds what was made.
        let outcomes = try await maker.makeAll(sources, listing: listing)
        var result = Thumbnails()
        for (photo, outcome) in zip(photos, outcomes) {
            if let path = outcome.relativePath { result.paths[photo.id] = path }
            if outcome.status == .madeFromEmbedded || outcome.status == .madeFromImage { result.made += 1 }
            if let diagnostic = outcome.diagnostic {
                result.problems.append(PhotoDiagnostic(path: photo.path, kind: diagnostic.kind, message: diagnostic.message))
            }
        }
        // Kept by their names' numbers: a library trip has thousands.
        maker.removeStale(keeping: Set(zip(sources, outcomes).compactMap { $1.relativePath == nil ? nil : maker.numbers(for: $0) }),
                          keepingIDs: keepingAlso, listing: listing)
        // The names geotrip writes, by their photo ids: a page links no other.
        if !keepingAlso.isEmpty {
            result.missingAmongKept = listing.map { keepingAlso.subtracting($0.numbers.map(\.photoID)) } ?? keepingAlso
        }
        return result
    }
}
