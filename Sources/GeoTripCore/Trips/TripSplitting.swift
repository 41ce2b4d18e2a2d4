import Foundation

/// Splits a folder of many trips into trips: the last stage before the export, pure (a `Trip`
/// in, a `Library` out).
///
/// - **A library or one trip.** A folder whose dated photos span more than `librarySpanDays`
///   (60) from first day to last, or for which `--home` was given, is a library. A shorter
///   folder is one trip, exported as before, even if it is several cities long.
/// - **Home** is where most nights are spent: a day's night is where its last visit is, and
///   home is the night whose `awayMetres` (50 km) hold the most other nights (the earliest on a
///   tie); its centre is the place of most of those nights (the house, not the city's middle).
///   `--home LAT,LON` gives it instead.
/// - **A day is away** when any of its visits is farther than `awayMetres` from home, so the
///   days of leaving and coming back, with photos at both ends, belong to the trip. A day whose
///   visits are all near home is a home day; a day with photos but no visit (no positions) is
///   neither.
/// - **A trip** is a run of away days: it goes on across days without a placed photo, at most
///   `gapDays` (2) of them in a row, and ends at a home day. Days without a placed photo
///   inside a trip belong to it; those outside belong to none.
public enum TripSplitting {
    /// The rules' thresholds, with the defaults the README explains.
    public struct Rules: Sendable, Equatable {
        /// A folder spanning more days than this is a library.
        public var librarySpanDays = 60
        /// Farther than this from home is away.
        public var awayMetres = 50_000.0
        /// Days in a row without a placed photo that a trip goes on across.
        public var gapDays = 2

        /// The defaults.
        public init() {}
    }

    /// The library in `trip`, with home at `givenHome` when the person gave it.
    public static func split(_ trip: Trip, givenHome: Coordinate? = nil, rules: Rules = Rules()) -> Library {
        let dated = trip.days.compactMap { day in LocalDate.dayNumber(day.date).map { (day, $0) } }
        guard let first = dated.first?.1, let last = dated.last?.1 else { return Library() }
        guard givenHome != nil || last - first + 1 > rules.librarySpanDays else { return Library() }
        guard let home = givenHome.map({ Library.Home(centre: $0, given: true) }) ?? Self.home(trip.days, rules: rules) else {
            return Library()
        }
        let homeVector = GreatCircle.unitVector(home.centre)
        let awayChord = GreatCircle.chord(metres: rules.awayMetres)
        func isNear(_ visit: TripVisit) -> Bool {
            let d = GreatCircle.unitVector(latitude: visit.latitude, longitude: visit.longitude) - homeVector
            return (d * d).sum() <= awayChord * awayChord
        }

        var library = Library(home: home)
        var runs: [(first: Int, last: Int)] = []  // indices into `dated`
        var open: (first: Int, last: Int)?
        for (index, (day, number)) in dated.enumerated() {
            guard !day.visits.isEmpty else { continue }  // neither home nor away
            if day.visits.allSatisfy(isNear) {
                library.homeDays += 1
                if let run = open { runs.append(run) }
                open = nil
                continue
            }
            if let run = open, number - dated[run.last].1 - 1 <= rules.gapDays {
                open = (run.first, index)
            } else {
                if let run = open { runs.append(run) }
                open = (index, index)
            }
        }
        if let run = open { runs.append(run) }
        library.trips = runs.enumerated().map { number, run in
            let firstDay = dated[run.first].0.date, lastDay = dated[run.last].0.date
            return Library.Trip(number: number + 1, firstDay: firstDay, lastDay: lastDay,
                                trip: trip.days(from: firstDay, through: lastDay))
        }
        return library
    }

    /// Where most nights are spent (see the type's notes); nil without any placed day.
    static func home(_ days: [Trip.Day], rules: Rules) -> Library.Home? {
        let nights = days.compactMap(\.visits.last)
        guard !nights.isEmpty else { return nil }
        let vectors = nights.map { GreatCircle.unitVector(latitude: $0.latitude, longitude: $0.longitude) }
        let limit = GreatCircle.chord(metres: rules.awayMetres)
        let limitSquared = limit * limit
        // Each night against the nights in its cell of a grid `limit` wide and the 26 around
        // it, which hold every night within `limit`: the same count as against every night,
        // where comparing every pair was a tenth of a day added to 200,000 photos' export.
        // A limit too small to make cells of (zero, or under a metre: `Rules` is public) puts
        // every night in one cell, which is comparing every pair.
        let width = limit * 1.001  // a hair wider, so rounding cannot put a neighbour two cells away
        let gridded = width.isFinite && width > 1e-6
        func cell(_ v: SIMD3<Double>) -> SIMD3<Int> {
            guard gridded else { return .zero }
            return SIMD3(Int((v.x / width).rounded(.down)), Int((v.y / width).rounded(.down)), Int((v.z / width).rounded(.down)))
        }
        var grid: [SIMD3<Int>: [Int]] = [:]
        for (index, v) in vectors.enumerated() { grid[cell(v), default: []].append(index) }
        var best = 0, bestCount = -1
        for i in vectors.indices {
            let v = vectors[i], home = cell(v)
            var count = 0
            for dx in -1...1 {
                for dy in -1...1 {
                    for dz in -1...1 {
                        for j in grid[home &+ SIMD3(dx, dy, dz)] ?? [] {
                            let d = vectors[j] - v
                            if (d * d).sum() <= limitSquared { count += 1 }
                        }
                    }
                }
            }
            if count > bestCount { (best, bestCount) = (i, count) }
        }
        // The spot: the place of most of those nights, at the mean of its nights' visits.
        var byPlace: [String: (count: Int, sum: SIMD3<Double>, first: Int)] = [:]
        for (index, night) in nights.enumerated() {
            let d = vectors[index] - vectors[best]
            guard (d * d).sum() <= limitSquared else { continue }
            let entry = byPlace[night.placeId] ?? (0, .zero, index)
            byPlace[night.placeId] = (entry.count + 1, entry.sum + vectors[index], entry.first)
        }
        guard let spot = byPlace.values.max(by: { ($0.count, -$0.first) < ($1.count, -$1.first) }) else { return nil }
        return Library.Home(centre: VisitClustering.coordinate(of: spot.sum / Double(spot.count)), given: false)
    }
}
