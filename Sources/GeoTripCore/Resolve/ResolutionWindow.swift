import Foundation

/// The stretch of capture time a change to some photos can reach in resolution, so a library's
/// rerun resolves only that stretch and gets what a full pass would give (issue 15).
///
/// Every photo is placed on one axis by its *key*: its camera's wall clock read as if it were
/// UTC, or for a photo with no usable camera time its GPS time. Resolution ties photos together
/// in two ways only, each reaching a bounded distance along that axis:
/// - a photo whose time nothing decided borrows the offset of the timed photo with the nearest
///   corrected wall clock, within 30 minutes (`TripResolution.provisionalTimes`): keys at most
///   30 minutes plus twice the largest clock offset apart (`near(changedKeys:corrections:)`);
/// - a photo without a position is placed between the positioned photos just before and after
///   it in UTC, each within 30 minutes (`LocationResolver`): a UTC time lies within 16 hours of
///   its corrected wall clock (offset tags, GPS times and zones all do, the historical local mean
///   times of the date line's neighbours included), so keys at most 30 minutes plus 32 hours
///   plus twice the largest clock offset apart.
/// A photo's result follows from its own evidence and at most one of each, in that order (the
/// placing photo's time may be borrowed): nothing farther than `reach`, their sum, can change
/// it. So the photos within `reach` of a changed photo's key (before or after the change) are
/// the ones to resolve again, and resolving them needs only the photos within twice that.
///
/// Videos whose only time is the movie header's are read the way most of their camera's videos
/// across the library vote (`VideoClock`). A video's vote depends only on photos within 30
/// minutes of its readings, inside the reach of its key, so it is judged again in the stretch
/// like any result; the votes are stored, and a camera whose verdict turns has all its videos
/// resolved again as changed photos (`TripDerivation`).
///
/// Only two kinds of photo can be reached farther than the near window: those without a position of
/// their own (placed by their neighbours in UTC) and videos timed by their movie header (voting
/// by the photos around their readings): `reachesFar`. A rerun without track logs therefore
/// resolves in two steps (`UTCReach`): the photos within the near window of the changes, from the
/// photos within twice that; then, of the far-reaching kind only, those whose UTC lies near a
/// UTC that changed, each from the photos within `reach` of it.
struct ResolutionWindow {
    /// The largest difference between two photos' offsets from UTC, zones' old local mean times
    /// included (Manila's was −15:56, Sitka's +14:58 before 1867): 16 hours either side.
    static let offsetSpread: TimeInterval = 32 * 3600

    /// How far along the key axis a change reaches.
    let reach: TimeInterval
    /// The keys of the changed photos, before and after the change, sorted.
    let changedKeys: [Date]

    /// A window around `changedKeys` for the given clock offsets (`--clock-offset`): each shifts
    /// one camera's wall clock against the others.
    init(changedKeys: [Date], corrections: [ClockCorrection]) {
        let clock = Self.clock(corrections)
        let window = TripResolution.neighbourWindow
        self.init(changedKeys: changedKeys, reach: (window + 2 * clock) + (window + Self.offsetSpread + 2 * clock))
    }

    /// A window reaching `reach` either side of `changedKeys`.
    init(changedKeys: [Date], reach: TimeInterval) {
        self.reach = reach
        self.changedKeys = changedKeys.sorted()
    }

    /// The window of the photos whose offset a change can lend or take away: 30 minutes plus
    /// twice the largest clock offset either side. Every photo in it that `reachesFar` says
    /// nothing of is resolved by its own evidence and that borrowing alone.
    static func near(changedKeys: [Date], corrections: [ClockCorrection]) -> ResolutionWindow {
        ResolutionWindow(changedKeys: changedKeys, reach: TripResolution.neighbourWindow + 2 * clock(corrections))
    }

    /// The largest clock offset given, in seconds.
    static func clock(_ corrections: [ClockCorrection]) -> TimeInterval {
        TimeInterval(corrections.map { abs($0.seconds) }.max() ?? 0)
    }

    /// Whether a photo can be reached farther than `near`'s window: it has no position of its
    /// own (a tag aside), so its neighbours in UTC place it, or it is a video timed by its
    /// movie header, which votes by the photos around its readings.
    static func reachesFar(_ photo: PhotoEvidence) -> Bool {
        photo.exifCoordinate == nil || photo.timeField == .quickTimeCreateDate
    }

    /// A photo's key: its wall clock read as UTC, else its GPS time; nil when it has neither,
    /// and then it neither borrows nor lends anything.
    static func key(localTime: String?, gpsTime: String?) -> Date? {
        localTime.flatMap(LocalDateTime.init(iso8601:))?.readAsUTC ?? UTCTimestamp.date(gpsTime)
    }

    /// Whether a photo with `key` can resolve differently after the change.
    func affects(_ key: Date) -> Bool {
        let low = changedKeys.partitioningIndex { $0 >= key }
        return [low - 1, low].contains { changedKeys.indices.contains($0) && abs(changedKeys[$0].timeIntervalSince(key)) <= reach }
    }

    /// The stretches of key to read to resolve the affected photos: twice the reach around each
    /// changed key (and a minute more, for the text bounds' precision), overlapping ones merged.
    var stretches: [ClosedRange<Date>] { stretches(within: 2 * reach) }

    /// The stretches of key within `distance` of a changed key (and a minute more), merged.
    func stretches(within distance: TimeInterval) -> [ClosedRange<Date>] {
        ResolutionWindow.merged(changedKeys.map { $0.addingTimeInterval(-(distance + 60))...$0.addingTimeInterval(distance + 60) })
    }

    /// `spans` sorted and with overlapping ones merged.
    static func merged(_ spans: [ClosedRange<Date>]) -> [ClosedRange<Date>] {
        var merged: [ClosedRange<Date>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}

/// The second axis of a rerun's reach: the stretches of UTC in which a photo that can place or
/// outvote others (one with a position, and a time) was, or now is. A photo of the kind that
/// `ResolutionWindow.reachesFar` is reached by a change only when the instant it is placed or
/// judged at lies within 30 minutes of one of them.
///
/// Instants are known to the minute either way when the time came from the photo itself (an
/// offset tag, GPS time, its place's zone, a movie header read as UTC): the stored UTC. A time
/// nothing decided (`assumed`, `none`, an implausible one too) is placed by a borrowed offset,
/// which lies within 16 hours and the clock offsets of its key: that whole stretch counts, and
/// it counts whenever the first step reaches such a photo, since no row keeps the borrowed
/// instant (a nearer lender moves it while the row stays as it was).
struct UTCReach {
    /// An instant a photo was placed at, or is now: its UTC, the time source that gave it, its key.
    struct Instant: Sendable {
        var utc: Date?
        var source: String?
        var key: Date?
    }

    /// Merged, sorted.
    let spans: [ClosedRange<Date>]
    /// The clock offsets' largest, in seconds.
    let clock: TimeInterval

    /// The spans of `instants`: the minute around each, or around one with a borrowed time the
    /// stretch it may lie in.
    init(corrections: [ClockCorrection], instants: [Instant]) {
        clock = ResolutionWindow.clock(corrections)
        let borrowed = Self.borrowed(clock: clock)
        spans = ResolutionWindow.merged(instants.compactMap { instant in
            if let utc = instant.utc, Self.isOwn(instant.source) { return utc.addingTimeInterval(-60)...utc.addingTimeInterval(60) }
            return instant.key.map { $0.addingTimeInterval(-(borrowed + 60))...$0.addingTimeInterval(borrowed + 60) }
        })
    }

    /// How far a borrowed offset may put a photo's instant from its key.
    private var borrowed: TimeInterval { Self.borrowed(clock: clock) }

    /// The same with the clock offsets' largest, `clock`.
    private static func borrowed(clock: TimeInterval) -> TimeInterval { ResolutionWindow.offsetSpread / 2 + clock }

    /// Whether `source` is a time the photo's own evidence decided, so the stored UTC is the
    /// instant it was placed and judged at.
    static func isOwn(_ source: String?) -> Bool {
        guard let source, let time = TimeSource(rawValue: source) else { return false }
        return time != .assumed && time != .none
    }

    /// Whether a far-reaching photo resolved from `source` is placed at the UTC stored for it,
    /// which its own evidence decided: an offset tag's or GPS time's, never a video's (judged
    /// at two readings).
    static func isExact(_ source: String?, isMovieTime: Bool) -> Bool {
        !isMovieTime && (source == TimeSource.offsetTag.rawValue || source == TimeSource.gps.rawValue)
    }

    /// The stretches of key a photo that `reaches` a span may have: each span widened by as far
    /// as a UTC may lie from its key, and the 30 minutes, merged. An offset tag's or GPS time
    /// lies within 16 hours and the clock offsets of the key too.
    var keyStretches: [ClosedRange<Date>] {
        let margin = borrowed + TripResolution.neighbourWindow + 60
        return ResolutionWindow.merged(spans.map { $0.lowerBound.addingTimeInterval(-margin)...$0.upperBound.addingTimeInterval(margin) })
    }

    /// Whether a far-reaching photo stored with `utc` from `source`, and `key`, lies within 30
    /// minutes of a span: placed at its stored UTC when an offset tag or GPS time decided it;
    /// otherwise anywhere a borrowed offset or a video's two readings may put it (a time taken
    /// from the zone of the place its neighbours gave it was borrowed when it was placed).
    func reaches(utc: Date?, source: String?, key: Date?, isMovieTime: Bool) -> Bool {
        let window = TripResolution.neighbourWindow
        let span: ClosedRange<Date>
        if let utc, Self.isExact(source, isMovieTime: isMovieTime) {
            span = utc.addingTimeInterval(-window)...utc.addingTimeInterval(window)
        } else if let key {
            span = key.addingTimeInterval(-(borrowed + window))...key.addingTimeInterval(borrowed + window)
        } else {
            return false
        }
        let index = spans.partitioningIndex { $0.upperBound >= span.lowerBound }
        return index < spans.count && spans[index].lowerBound <= span.upperBound
    }
}
