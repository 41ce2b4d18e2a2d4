import Foundation

/// A position with its provenance and how far off it may be.
public struct ResolvedLocation: Sendable, Equatable {
    public var coordinate: Coordinate
    public var source: LocationSource
    /// Metres; for EXIF positions the receivers' typical 10 m.
    public var uncertaintyMeters: Double
}

/// What location resolution needs of one photo.
public struct PositionEvidence: Sendable, Equatable {
    public var utc: Date?
    /// The photo's own position (its EXIF or a video's QuickTime position, else its XMP, else a
    /// sidecar's).
    public var exif: Coordinate?
    /// Where `exif` came from: `.exif`, `.quicktime`, `.xmp` or `.sidecar`.
    public var ownSource: LocationSource
    public var manual: ResolvedLocation?

    public init(utc: Date?, exif: Coordinate?, ownSource: LocationSource = .exif, manual: ResolvedLocation?) {
        self.utc = utc
        self.exif = exif
        self.ownSource = ownSource
        self.manual = manual
    }
}

/// Positions at a moment: a GPS log (`TrackPositioner`), or a fake in tests.
public protocol TrackPositioning: Sendable {
    /// Where the log puts the moment `time`, and how far off that may be; nil when it cannot say.
    func position(at time: Date) -> (coordinate: Coordinate, uncertaintyMeters: Double)?
}

/// Gives every photo the best position there is, by source rank:
/// manual > exif (a video's quicktime) > xmp > sidecar > track > interpolated. The file's own
/// three are settled when it is read (`MetadataReader`: EXIF or QuickTime, else embedded XMP,
/// else another program's sidecar); here they rank as one, below a tag and above a track.
///
/// Interpolation takes the positioned photos just before and just after a photo in UTC time,
/// each at most `neighbourWindow` away, and places it along the great circle between them in
/// proportion to time. It refuses when the two imply a speed above `maximumSpeed` (a flight),
/// and the window keeps a photo taken on a long train ride from landing at the morning's hotel:
/// with no neighbour on both sides within 30 minutes, the photo keeps no position.
public struct LocationResolver: Sendable {
    /// EXIF positions (and XMP ones, which mostly copy a receiver's or a map's) are taken at
    /// the receivers' usual accuracy.
    public static let exifUncertainty = 10.0
    public var track: (any TrackPositioning)?
    public var neighbourWindow: TimeInterval
    public var maximumSpeed: Double

    /// Creates a resolver; 30 minutes and 300 km/h by default.
    public init(track: (any TrackPositioning)? = nil, neighbourWindow: TimeInterval = 1800, maximumSpeed: Double = 300_000.0 / 3600) {
        self.track = track
        self.neighbourWindow = neighbourWindow
        self.maximumSpeed = maximumSpeed
    }

    /// The position of each photo (nil when none can be had), in the order given.
    public func resolve(_ photos: [PositionEvidence]) -> [ResolvedLocation?] {
        var resolved: [ResolvedLocation?] = photos.map { photo in
            if let manual = photo.manual { return manual }
            if let exif = photo.exif { return ResolvedLocation(coordinate: exif, source: photo.ownSource, uncertaintyMeters: Self.exifUncertainty) }
            if let utc = photo.utc, let position = track?.position(at: utc) {
                return ResolvedLocation(coordinate: position.coordinate, source: .track, uncertaintyMeters: position.uncertaintyMeters)
            }
            return nil
        }
        // Anchors: positioned photos with a time, in time order; equal times by position (then
        // how sure), so which of two photos of the same instant lends its position depends on
        // the photos, not on their order or catalog ids: a stretch of the photos resolves as
        // the whole library does, and a library built up over runs as a fresh ingest. Anchors
        // tied on all of these lend the same position; the index only makes the order total.
        func key(_ index: Int) -> (Date, Double, Double, Double, Int) {
            let location = resolved[index]!
            return (photos[index].utc!, location.coordinate.latitude, location.coordinate.longitude, location.uncertaintyMeters, index)
        }
        let anchors = photos.indices.filter { resolved[$0] != nil && photos[$0].utc != nil }.sorted { key($0) < key($1) }
        let anchorTimes = anchors.map { photos[$0].utc! }
        for index in photos.indices where resolved[index] == nil {
            guard let time = photos[index].utc else { continue }
            // The last anchor at or before `time`, and the first at or after it.
            let low = anchorTimes.partitioningIndex { $0 > time }
            guard low > 0, low < anchors.count || anchorTimes[low - 1] == time else { continue }
            let before = anchors[low - 1]
            if anchorTimes[low - 1] == time {
                resolved[index] = ResolvedLocation(coordinate: resolved[before]!.coordinate, source: .interpolated,
                                                   uncertaintyMeters: resolved[before]!.uncertaintyMeters)
                continue
            }
            let after = anchors[low]
            let start = anchorTimes[low - 1], end = anchorTimes[low]
            guard time.timeIntervalSince(start) <= neighbourWindow, end.timeIntervalSince(time) <= neighbourWindow else { continue }
            let from = resolved[before]!, to = resolved[after]!
            let distance = GreatCircle.distance(from.coordinate, to.coordinate)
            let span = end.timeIntervalSince(start)
            guard span > 0, distance / span <= maximumSpeed else { continue }
            let fraction = time.timeIntervalSince(start) / span
            let nearer = fraction < 0.5 ? from : to
            resolved[index] = ResolvedLocation(
                coordinate: GreatCircle.interpolate(from.coordinate, to.coordinate, fraction: fraction),
                source: .interpolated,
                // The photo was somewhere along the way: as far off as it is from the nearer
                // neighbour, at worst, plus that neighbour's own uncertainty.
                uncertaintyMeters: nearer.uncertaintyMeters + distance * min(fraction, 1 - fraction))
        }
        return resolved
    }
}
