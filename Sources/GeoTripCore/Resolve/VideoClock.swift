import Foundation

/// Decides, camera by camera, how a video's `mvhd` creation time is to be read.
///
/// The QuickTime and ISO specifications define it as UTC, and phones write it so; many cameras
/// (compacts, action cameras, camcorders) write their local wall clock there instead, which is
/// why exiftool has its `QuickTimeUTC` option. The file does not say which, but the trip does:
/// the same camera's photos and the other photos of the trip were taken around the videos. For
/// each video both readings are made (as UTC, and as a wall clock in the zone its position or
/// its neighbours give), and the reading that lands nearer to a photo whose time a real rule
/// decided gets the video's vote. A video that knows where it was is compared with the photos
/// taken there (within `nearby`) when there are any: a morning at one sight and an afternoon
/// at another can each be an hour or two from the video, and only the place tells them apart.
/// A camera's videos are read the way most of them vote; a tie,
/// or no evidence at all, keeps the specification's UTC.
enum VideoClock {
    /// One video with an `mvhd` time.
    struct Candidate {
        /// "Make Model", or "" for videos that name no camera (they are decided together).
        var camera: String
        /// The time read as UTC.
        var asUTC: Date
        /// The time read as a wall clock in the zone found for it; nil when no zone was found.
        var asLocal: Date?
        /// The video's own position, when it has one.
        var position: Coordinate?
    }

    /// A photo whose time a real rule decided.
    struct Anchor {
        var instant: Date
        var position: Coordinate? = nil
    }

    /// How near a photo must have been taken to count as taken at the video's place: a visit's
    /// reach (the clustering's default radius is 250 m), with room for GPS error.
    static let nearby = 1000.0

    /// Readings closer than this are the same (a zone at UTC+0, or a wall clock in UTC):
    /// they say nothing about the camera.
    static let indistinct: TimeInterval = 60

    /// The cameras whose `mvhd` times are local wall clocks. `anchors` are the instants of the
    /// trip's photos (not these videos) whose time an offset tag, a GPS time or a position's
    /// zone decided.
    static func localCameras(_ candidates: [Candidate], anchors: [Anchor]) -> Set<String> {
        let all = anchors.map(\.instant).sorted()
        func distance(_ instant: Date, in sorted: [Date]) -> TimeInterval {
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] < instant { low = mid + 1 } else { high = mid }
            }
            return [low - 1, low].filter { sorted.indices.contains($0) }
                .map { abs(sorted[$0].timeIntervalSince(instant)) }.min() ?? .infinity
        }
        var votes: [String: Int] = [:]
        for candidate in candidates {
            guard let local = candidate.asLocal, abs(local.timeIntervalSince(candidate.asUTC)) >= indistinct else { continue }
            let here = candidate.position.map { position in
                anchors.filter { $0.position.map { GreatCircle.distance($0, position) <= nearby } ?? false }.map(\.instant).sorted()
            } ?? []
            let sorted = here.isEmpty ? all : here
            let utcDistance = distance(candidate.asUTC, in: sorted), localDistance = distance(local, in: sorted)
            if localDistance < utcDistance { votes[candidate.camera, default: 0] += 1 }
            if utcDistance < localDistance { votes[candidate.camera, default: 0] -= 1 }
        }
        return Set(votes.filter { $0.value > 0 }.keys)
    }
}
