import Foundation

/// The stretch of capture time a change to some photos can reach in resolution, so a library's
/// rerun resolves only that stretch and gets what a full pass would give (issue 15).
///
/// Every photo is placed on one axis by its *key*: its camera's wall clock read as if it were
/// UTC, or for a photo with no usable camera time its GPS time. Resolution ties photos together
/// in two ways only, each reaching a bounded distance along that axis:
/// - a photo whose time nothing decided borrows the offset of the timed photo with the nearest
///   corrected wall clock, within 30 minutes (`TripResolution.provisionalTimes`): keys at most
///   30 minutes plus twice the largest clock offset apart;
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
        let clock = TimeInterval(corrections.map { abs($0.seconds) }.max() ?? 0)
        let window = TripResolution.neighbourWindow
        reach = (window + 2 * clock) + (window + Self.offsetSpread + 2 * clock)
        self.changedKeys = changedKeys.sorted()
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
    var stretches: [ClosedRange<Date>] {
        let margin = 2 * reach + 60
        var merged: [ClosedRange<Date>] = []
        for key in changedKeys {
            let stretch = key.addingTimeInterval(-margin)...key.addingTimeInterval(margin)
            if let last = merged.last, stretch.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, stretch.upperBound)
            } else {
                merged.append(stretch)
            }
        }
        return merged
    }
}
