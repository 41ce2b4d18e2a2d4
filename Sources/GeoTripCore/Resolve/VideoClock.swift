import Foundation

/// Decides, camera by camera, how a video's `mvhd` creation time is to be read.
///
/// The QuickTime and ISO specifications define it as UTC, and phones write it so; many cameras
/// (compacts, action cameras, camcorders) write their local wall clock there instead, which is
/// why exiftool has its `QuickTimeUTC` option. The file does not say which, but the trip does:
/// the photos were taken around the videos. For each video both readings are made (as UTC, and
/// as a wall clock in the zone its position or its neighbours give), and a reading is *borne
/// out* when it falls among photos whose time a real rule decided: within `close` of one, or
/// between two taken at most `shortGap` apart. A video votes for the reading that is borne out
/// when the other is not; when both or neither are, it does not vote. (Nearness alone is no
/// evidence: a phone clip shot a while after the last photo of a place is nearer to them when
/// read an hour early.) A video that knows where it was is compared with the photos taken there
/// (within `nearby`) around the same time when there are any (`vote`). A camera's videos are
/// read the way most of them vote; a tie, or no evidence at all, keeps the specification's UTC.
/// Each video's vote is kept in the catalog, so a library's rerun judges again only the videos
/// near its changes, and reads every video of a camera again only when the camera's verdict
/// turns.
enum VideoClock {
    /// One video with an `mvhd` time.
    struct Candidate {
        /// "Make Model", or for a video that names no camera one of its own (`voter`).
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

    /// A reading within this of a photo is borne out.
    static let close: TimeInterval = 5 * 60
    /// A reading between two photos at most this far apart is borne out: it falls inside a
    /// stretch of photos, not in a gap between outings.
    static let shortGap: TimeInterval = 30 * 60

    /// Readings closer than this are the same (a zone at UTC+0, or a wall clock in UTC):
    /// they say nothing about the camera.
    static let indistinct: TimeInterval = 60

    /// The name a video's vote is counted under: its camera's; a video with no make or model
    /// (most phones' and action cameras' alike) votes alone, under its own id, so that a
    /// phone's clip in UTC is not outvoted by another device's local clips.
    static func voter(camera: String?, videoID: Int64) -> String {
        camera ?? "\u{1F}video \(videoID)"
    }

    /// The cameras whose `mvhd` times are local wall clocks, by the votes of all their videos
    /// (`vote`). `anchors` are the instants of the trip's photos (not these videos) whose time
    /// an offset tag, a GPS time or a position's zone decided.
    static func localCameras(_ candidates: [Candidate], anchors: [Anchor]) -> Set<String> {
        let sorted = anchors.sorted { $0.instant < $1.instant }
        return localCameras(votes: candidates.map { ($0.camera, vote($0, anchors: sorted)) })
    }

    /// The cameras most of whose videos vote for the local reading (`vote`): a tie, or no
    /// evidence, keeps the specification's UTC.
    static func localCameras(votes: [(camera: String, vote: Int)]) -> Set<String> {
        var tally: [String: Int] = [:]
        for (camera, vote) in votes { tally[camera, default: 0] += vote }
        return Set(tally.filter { $0.value > 0 }.keys)
    }

    /// One video's vote: +1 when its local reading is borne out and its UTC reading is not,
    /// −1 the other way round, 0 otherwise. `anchors` sorted by instant.
    ///
    /// The photos it is compared with lie near it in time: a video that knows where it was is
    /// compared with the photos taken within `nearby` of it from `shortGap` before its earlier
    /// reading to `shortGap` after its later one, when there are any, and with all photos
    /// otherwise. Only photos within `shortGap` of a reading can bear it out, so the vote
    /// depends on nothing farther, and a library's rerun can judge a video in the stretch of
    /// time its changes reach (`ResolutionWindow`), keeping the others' votes as stored.
    static func vote(_ candidate: Candidate, anchors: [Anchor]) -> Int {
        guard let local = candidate.asLocal, abs(local.timeIntervalSince(candidate.asUTC)) >= indistinct else { return 0 }
        let earliest = min(local, candidate.asUTC).addingTimeInterval(-shortGap)
        let latest = max(local, candidate.asUTC).addingTimeInterval(shortGap)
        let near = anchors[anchors.partitioningIndex { $0.instant >= earliest }..<anchors.partitioningIndex { $0.instant > latest }]
        let here = candidate.position.map { position in
            near.filter { $0.position.map { GreatCircle.distance($0, position) <= nearby } ?? false }
        } ?? []
        let sorted = (here.isEmpty ? near : here[...]).map(\.instant)
        switch (borneOut(local, in: sorted), borneOut(candidate.asUTC, in: sorted)) {
        case (true, false): return 1
        case (false, true): return -1
        default: return 0
        }
    }

    /// Whether `instant` falls among the photos in `sorted`: within `close` of one, or between
    /// two at most `shortGap` apart.
    private static func borneOut(_ instant: Date, in sorted: [Date]) -> Bool {
        let low = sorted.partitioningIndex { $0 >= instant }
        let before = low > 0 ? sorted[low - 1] : nil, after = low < sorted.count ? sorted[low] : nil
        if let before, instant.timeIntervalSince(before) <= close { return true }
        if let after, after.timeIntervalSince(instant) <= close { return true }
        if let before, let after { return after.timeIntervalSince(before) <= shortGap }
        return false
    }
}

/// A video's vote on how its camera's movie-header times are read (`VideoClock.vote`), as the
/// catalog keeps it.
struct VideoClockVote: Sendable, Equatable {
    /// "Make Model", or for a video that names no camera one of its own (`voter`).
    var camera: String
    /// +1 for the local wall clock, −1 for UTC, 0 for neither.
    var vote: Int
}
