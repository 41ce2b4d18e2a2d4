import Foundation

/// Splits a folder of many trips into trips: the last stage before the export, pure (a `Trip`
/// in, a `Library` out).
///
/// - **A library or one trip.** A folder whose dated photos span more than `librarySpanDays`
///   (60) from first day to last, or for which `--home` was given, is a library (unless it has
///   no home and its days make one trip). A shorter folder is one trip, exported as before,
///   even if it is several cities long.
/// - **Home** is where most nights are spent: a day's night is where its last visit is, and
///   home is the night whose `awayMetres` (50 km) hold the most other nights (the earliest on a
///   tie); its centre is the place of most of those nights (the house, not the city's middle).
///   Only nights that span more than `homeSpanDays` (60) from first to last make a home,
///   leaving out at either end, once, nights more than a year from the others there while they
///   are at most a quarter of them (`span(ofNights:)`): a spot whose nights do not (a trip's
///   hotel, in a folder of trips alone, or with the photos of a camera whose clock reset to
///   years before) is passed over for the next densest. `--home LAT,LON` gives it instead.
/// - **No home.** With no such spot, every placed day is away, and the trips are the runs of
///   days apart by more than `gapDays` without a placed photo.
/// - **Homes over the years.** A person who moved has a home for each stretch of years: a
///   spot holding at least `homeNights` (30) nights within `awayMetres` is a candidate (the
///   densest first, each night counted for one), and each night's home is the candidate with
///   the most nights within `homeWindowDays` (182) either side of it, once one holds at least
///   `homeNights` there (before that, the first such). Each stretch of nights so given is the
///   home of the candidate with most of its nights; one whose home's own nights span less than
///   `homeStretchDays` (182) joins the neighbouring stretch whose home has more of its nights,
///   so a summer house or a season abroad is a trip, not a home. A new home begins on the
///   night that the most nights agree with (those before at the old home, those after at the
///   new one). Without a move there is one home, the one above; `--home` is home for all time.
/// - **A day is away** when any of its visits is farther than `awayMetres` from home, so the
///   days of leaving and coming back, with photos at both ends, belong to the trip. A day whose
///   visits are all near home is a home day; a day with photos but no visit (no positions) is
///   neither.
/// - **A trip** is a run of away days: it goes on across days without a placed photo, at most
///   `gapDays` (2) of them in a row (or any, when its photos on either side are less than
///   `gapDays + 1` days apart: `hoursApart`), and ends at a home day. Days without a placed photo
///   inside a trip belong to it; those outside belong to none. A run whose every visit lies at
///   a home kept private from earlier exports (inside its zone, `PrivacyZones.defaultRadius`:
///   the house of an earlier home, after `--home` named another for all time) is no trip but
///   days at that home: it would have nothing to show. A run with anything else (a café in
///   the old town, a trip that began there) is a trip, every day of it.
public enum TripSplitting {
    /// The rules' thresholds, with the defaults the README explains.
    public struct Rules: Sendable, Equatable {
        /// A folder spanning more days than this is a library.
        public var librarySpanDays = 60
        /// Farther than this from home is away.
        public var awayMetres = 50_000.0
        /// Days in a row without a placed photo that a trip goes on across.
        public var gapDays = 2
        /// Nights near one spot that make it a candidate home, and that it must hold around a
        /// night to be that night's home.
        public var homeNights = 30
        /// Days either side of a night in which its home holds the most nights.
        public var homeWindowDays = 182
        /// The shortest stretch of years one home has.
        public var homeStretchDays = 182
        /// Days that a spot's nights must span, first to last, to be a home (more than these);
        /// nil: any spot, as a folder shrunk to one trip finds the home its library had.
        public var homeSpanDays: Int? = 60

        /// The defaults.
        public init() {}
    }

    /// Days from first to last of a spot's nights (`days`, day numbers), leaving out at either
    /// end, once, the nights more than `apart` days from all the others there while they are at
    /// most a quarter of them: a camera whose clock reset to years before (a photo or two at the
    /// hotel) makes no span, while a home photographed on a few nights, bunched or one a year,
    /// keeps its own. 0 for none.
    static func span(ofNights days: [Int], apart: Int = 365) -> Int {
        var nights = days.sorted()[...]
        let few = days.count / 4
        if let gap = nights.indices.dropLast().first(where: { nights[$0 + 1] - nights[$0] > apart }), gap - nights.startIndex + 1 <= few {
            nights = nights[(gap + 1)...]
        }
        if let gap = nights.indices.dropLast().last(where: { nights[$0 + 1] - nights[$0] > apart }), nights.endIndex - gap - 1 <= few {
            nights = nights[...gap]
        }
        guard let first = nights.first, let last = nights.last else { return 0 }
        return last - first
    }

    /// The library in `trip`, with home at `givenHome` when the person gave it. `keptHomes` are
    /// the homes kept private (`Catalog.keptHomes`: those of earlier exports, and the export's
    /// own): a run of days at one of them alone is no trip.
    public static func split(_ trip: Trip, givenHome: Coordinate? = nil, keptHomes: [Coordinate] = [], rules: Rules = Rules()) -> Library {
        let dated = trip.days.compactMap { day in LocalDate.dayNumber(day.date).map { (day, $0) } }
        guard let first = dated.first?.1, let last = dated.last?.1 else { return Library() }
        guard givenHome != nil || last - first + 1 > rules.librarySpanDays else { return Library() }
        let homes = givenHome.map { given in
            // The places slept at often near a given home are private as a found home's are.
            var home = Library.Home(centre: given, given: true)
            home.otherSpots = otherSpots(near: given, stays: Self.stays(trip.days), rules: rules, leavingOut: PrivacyZones.defaultRadius)
            return [home]
        } ?? Self.homes(trip.days, rules: rules)
        // Each home from its first day (day numbers; the first home's from the beginning).
        let starts = homes.map { home in home.from.flatMap(LocalDate.dayNumber) ?? Int.min }
        let homeVectors = homes.map { GreatCircle.unitVector($0.centre) }
        let awayChord = GreatCircle.chord(metres: rules.awayMetres)
        func isNear(_ visit: TripVisit, home: Int) -> Bool {
            let d = GreatCircle.unitVector(latitude: visit.latitude, longitude: visit.longitude) - homeVectors[home]
            return (d * d).sum() <= awayChord * awayChord
        }

        let kept = PrivacyZones(keptHomes.map { PrivacyZones.Zone(centre: $0) })
        var library = Library(home: Self.mostNights(homes, in: trip.days), homes: homes)
        var runs: [(first: Int, last: Int)] = []  // indices into `dated`
        var lastHomeDay: Int?  // the day number of the last day at home, ending `homeStretches`
        var open: (first: Int, last: Int)?
        for (index, (day, number)) in dated.enumerated() {
            guard !day.visits.isEmpty else { continue }  // neither home nor away
            let home = starts.partitioningIndex { $0 > number } - 1
            if !homes.isEmpty, day.visits.allSatisfy({ isNear($0, home: max(home, 0)) }) {
                library.homeDays += 1
                // Stretches of days at home, apart by more than `gapDays` days.
                if let end = lastHomeDay, number - end - 1 <= rules.gapDays {
                    library.homeStretches[library.homeStretches.count - 1].last = day.date
                    library.homeStretches[library.homeStretches.count - 1].days += 1
                } else {
                    library.homeStretches.append(Library.DaySpan(first: day.date, last: day.date))
                }
                lastHomeDay = number
                if let run = open { runs.append(run) }
                open = nil
                continue
            }
            // A run goes on across a few dates without a placed photo, or a few days lived
            // without one (`hoursApart`, looked at only when the dates say otherwise).
            if let run = open, case let last = dated[run.last],
               number - last.1 - 1 <= rules.gapDays || Self.hoursApart(last.0, day) < Double(rules.gapDays + 1) * 24 {
                open = (run.first, index)
            } else {
                if let run = open { runs.append(run) }
                open = (index, index)
            }
        }
        if let run = open { runs.append(run) }
        // Days whose every visit lies at a home kept private are days at that home at either
        // end of a run: a run of them alone is no trip, and those just before or after a trip
        // do not widen it (two evenings at the old flat beside a week in Rome). Between a
        // trip's days they are its days (a night at the old flat on the way), but more than
        // `gapDays` of them in a row end it, as days at home do.
        if !kept.isEmpty {
            /// Nil for a day without a visit (neither), else whether it was spent at a kept home.
            func atKeptHome(_ index: Int) -> Bool? {
                let visits = dated[index].0.visits
                return visits.isEmpty ? nil : visits.allSatisfy { kept.contains($0.centre) }
            }
            runs = runs.flatMap { run -> [(first: Int, last: Int)] in
                // The run's days with visits, cut into stretches away and stretches at kept homes.
                var pieces: [(first: Int, last: Int)] = [], awayFrom: Int?, awayTo = 0, keptDays = 0
                func closeAway() {
                    if let first = awayFrom { pieces.append((first, awayTo)) }
                    awayFrom = nil
                }
                for index in run.first...run.last {
                    guard let atKept = atKeptHome(index) else { continue }
                    if atKept {
                        keptDays += 1
                        library.homeDays += 1
                        continue
                    }
                    if awayFrom != nil, keptDays > rules.gapDays { closeAway() }
                    if awayFrom == nil { awayFrom = index } else { library.homeDays -= keptDays }
                    keptDays = 0
                    awayTo = index
                }
                closeAway()
                return pieces
            }
        }
        // Without a home, every placed day is away: the trips are the runs of days apart by
        // more than `gapDays` without a placed photo. One such run is one trip, as before.
        if homes.isEmpty, runs.count < 2 { return Library() }
        library.trips = runs.enumerated().map { number, run in
            let firstDay = dated[run.first].0.date, lastDay = dated[run.last].0.date
            return Library.Trip(number: number + 1, firstDay: firstDay, lastDay: lastDay,
                                trip: trip.days(from: firstDay, through: lastDay))
        }
        return library
    }

    /// Hours from the last visit of `earlier` to the first of `later` (by their UTC times):
    /// under `gapDays + 1` days apart, at most `gapDays` days were lived without a photo,
    /// whatever the dates say (a date the calendar skips crossing the date line eastward is no
    /// day lived).
    static func hoursApart(_ earlier: Trip.Day, _ later: Trip.Day) -> Double {
        guard let left = earlier.visits.lazy.compactMap({ UTCTimestamp.date($0.departure) }).max(),
              let arrived = later.visits.lazy.compactMap({ UTCTimestamp.date($0.arrival) }).min() else { return .infinity }
        return arrived.timeIntervalSince(left) / 3600
    }

    /// Where most nights are spent (see the type's notes): of several homes, the one of most
    /// nights; nil without any placed day.
    static func home(_ days: [Trip.Day], rules: Rules) -> Library.Home? {
        mostNights(homes(days, rules: rules), in: days)
    }

    /// The home of `homes` whose stretch holds the most nights (the earliest on a tie).
    static func mostNights(_ homes: [Library.Home], in days: [Trip.Day]) -> Library.Home? {
        guard homes.count > 1 else { return homes.first }
        var nights = [Int](repeating: 0, count: homes.count)
        for day in days where !day.visits.isEmpty {
            let index = homes.partitioningIndex { home in home.from.map { $0 > day.date } ?? false } - 1
            nights[max(index, 0)] += 1
        }
        return nights.indices.max { (nights[$0], -$0) < (nights[$1], -$1) }.map { homes[$0] }
    }

    /// The homes of `days`, in time order (see the type's notes); empty without a placed day.
    /// Each day's night (its last visit), in day order.
    static func nights(_ days: [Trip.Day]) -> [(day: Int, date: String, visit: TripVisit)] {
        days.compactMap { day in
            day.visits.last.flatMap { visit in LocalDate.dayNumber(day.date).map { (day: $0, date: day.date, visit: visit) } }
        }
    }

    /// Each day's places, in day order: the day's last visit at each place it was at. A home's
    /// other spots are counted by these, not by nights alone: a house photographed each
    /// morning, before an office or a school photographed each afternoon, is never a night.
    static func stays(_ days: [Trip.Day]) -> [(day: Int, date: String, visit: TripVisit)] {
        days.flatMap { day -> [(day: Int, date: String, visit: TripVisit)] in
            guard let number = LocalDate.dayNumber(day.date) else { return [] }
            var seen = Set<String>()
            return day.visits.reversed().filter { seen.insert($0.placeId).inserted }.reversed().map { (day: number, date: day.date, visit: $0) }
        }
    }

    /// The places within `awayMetres` of `centre` at which `homeNights` of the days of some
    /// year were spent (any `2 * homeWindowDays` days; `stays`, a visit that day), each at the
    /// mean of its visits there, in the order first visited; those within `leavingOut` metres of
    /// `centre` (the home's own spot, or inside its zone) left out.
    static func otherSpots(near centre: Coordinate, stays: [(day: Int, date: String, visit: TripVisit)], rules: Rules,
                           leavingOut: Double) -> [Coordinate] {
        let vector = GreatCircle.unitVector(centre)
        let limit = GreatCircle.chord(metres: rules.awayMetres)
        var byPlace: [String: (count: Int, sum: SIMD3<Double>, first: Int, mostInAYear: Int)] = [:]
        var inWindow: [String: Int] = [:]
        var near: [Int] = []
        var low = 0  // the window's first stay, in `near`
        for (index, stay) in stays.enumerated() {
            let v = GreatCircle.unitVector(latitude: stay.visit.latitude, longitude: stay.visit.longitude)
            let d = v - vector
            guard (d * d).sum() <= limit * limit else { continue }
            let place = stay.visit.placeId
            near.append(index)
            inWindow[place, default: 0] += 1
            while stays[near[low]].day < stay.day - 2 * rules.homeWindowDays {
                inWindow[stays[near[low]].visit.placeId, default: 1] -= 1
                low += 1
            }
            let entry = byPlace[place] ?? (0, .zero, index, 0)
            byPlace[place] = (entry.count + 1, entry.sum + v, entry.first, max(entry.mostInAYear, inWindow[place] ?? 0))
        }
        // As many days as make a home's nights (`homeNights`) in some year.
        return byPlace.values.filter { $0.mostInAYear >= rules.homeNights }
            .sorted { $0.first < $1.first }
            .map { VisitClustering.coordinate(of: $0.sum / Double($0.count)) }
            .filter { GreatCircle.distance($0, centre) > leavingOut }
    }

    static func homes(_ days: [Trip.Day], rules: Rules) -> [Library.Home] {
        // A day's night is its last visit.
        let nights = Self.nights(days)
        guard !nights.isEmpty else { return [] }
        let stays = Self.stays(days)
        let vectors = nights.map { GreatCircle.unitVector(latitude: $0.visit.latitude, longitude: $0.visit.longitude) }
        let limit = GreatCircle.chord(metres: rules.awayMetres)

        // Candidates, densest first: the night with the most nights within the limit among
        // those no candidate has yet, with them; until one has fewer than `homeNights`.
        var candidates: [Int] = []  // each one's densest night
        var candidateOf = [Int?](repeating: nil, count: nights.count)
        var left = Array(nights.indices)
        // A spot whose nights all fall within `homeSpanDays` is a stay, not a home (the hotel
        // of a trip, in a folder of trips alone): passed over, its nights no candidate's. So is
        // one whose nights do only with a few nights years from the others (a camera whose
        // clock reset to 2000-01-01, at the hotel).
        while !left.isEmpty, candidates.count < 64 {
            let (best, members) = densest(vectors, among: left, limit: limit)
            if !candidates.isEmpty, members.count < rules.homeNights { break }
            let taken = Set(members)
            left.removeAll(where: taken.contains)
            let days = members.map { nights[$0].day }
            if let span = rules.homeSpanDays, Self.span(ofNights: days) <= span { continue }
            for member in members { candidateOf[member] = candidates.count }
            candidates.append(best)
        }
        guard !candidates.isEmpty else { return [] }

        // Each night's home: the candidate with the most nights in the window around it, once
        // one holds `homeNights` there (a night before any does takes the first that does).
        var homeOf = [Int](repeating: 0, count: nights.count)
        if candidates.count > 1 {
            var counts = [Int](repeating: 0, count: candidates.count)
            var low = 0, high = 0
            var current: Int?
            var undecided = 0
            for index in nights.indices {
                let day = nights[index].day
                while high < nights.count, nights[high].day <= day + rules.homeWindowDays {
                    if let candidate = candidateOf[high] { counts[candidate] += 1 }
                    high += 1
                }
                while nights[low].day < day - rules.homeWindowDays {
                    if let candidate = candidateOf[low] { counts[candidate] -= 1 }
                    low += 1
                }
                let top = counts.indices.max { (counts[$0], -$0) < (counts[$1], -$1) }!
                if counts[top] >= rules.homeNights { current = top }
                guard let current else { undecided += 1; continue }
                for earlier in (index - undecided)..<index { homeOf[earlier] = current }
                undecided = 0
                homeOf[index] = current
            }
        }

        // Stretches of one home, each the home of the candidate with most of its nights (the
        // densest on a tie: for a single stretch, the densest of all). A stretch whose home's
        // own nights in it span less than `homeStretchDays` joins the neighbour whose home has
        // more of its nights (the earlier on a tie), until none does: six weeks somewhere, even
        // with a home sparsely photographed around them, is a trip.
        func owner(_ first: Int, _ last: Int) -> Int {
            var held = [Int](repeating: 0, count: candidates.count)
            for index in first...last { if let candidate = candidateOf[index] { held[candidate] += 1 } }
            return held.indices.max { (held[$0], -$0) < (held[$1], -$1) } ?? 0
        }
        func span(_ stretch: (home: Int, first: Int, last: Int)) -> Int {
            let own = (stretch.first...stretch.last).filter { candidateOf[$0] == stretch.home }
            guard let first = own.first, let last = own.last else { return 0 }
            return nights[last].day - nights[first].day + 1
        }
        // Owners given, and two stretches of one home side by side made one.
        func settled(_ stretches: [(home: Int, first: Int, last: Int)]) -> [(home: Int, first: Int, last: Int)] {
            var merged: [(home: Int, first: Int, last: Int)] = []
            for var stretch in stretches {
                stretch.home = owner(stretch.first, stretch.last)
                if let last = merged.last, last.home == stretch.home { merged[merged.count - 1].last = stretch.last } else { merged.append(stretch) }
            }
            return merged
        }
        var stretches: [(home: Int, first: Int, last: Int)] = []  // night indices
        for index in nights.indices {
            if let last = stretches.last, last.home == homeOf[index] { stretches[stretches.count - 1].last = index } else {
                stretches.append((homeOf[index], index, index))
            }
        }
        stretches = settled(stretches)
        while stretches.count > 1, let short = stretches.indices.filter({ span(stretches[$0]) < rules.homeStretchDays })
                .min(by: { (span(stretches[$0]), $0) < (span(stretches[$1]), $1) }) {
            let neighbours = [short - 1, short + 1].filter(stretches.indices.contains)
            let held = neighbours.map { neighbour in
                (stretches[short].first...stretches[short].last).filter { candidateOf[$0] == stretches[neighbour].home }.count
            }
            let into = neighbours.count == 2 && held[1] > held[0] ? neighbours[1] : neighbours[0]
            if into < short { stretches[into].last = stretches[short].last } else { stretches[into].first = stretches[short].first }
            stretches.remove(at: short)
            stretches = settled(stretches)
        }

        // The move between two stretches is on the night that most nights agree with: those
        // before at the first home, those after at the second (the window's counts lag the
        // move, all the more when trips go back to the old city).
        for index in stretches.indices.dropLast() {
            let (old, new) = (stretches[index].home, stretches[index + 1].home)
            let (low, high) = (stretches[index].first, stretches[index + 1].last)
            var score = (low...high).filter { candidateOf[$0] == new }.count
            var best = (night: low + 1, score: Int.min)
            for night in (low + 1)...high {
                score += (candidateOf[night - 1] == old ? 1 : 0) - (candidateOf[night - 1] == new ? 1 : 0)
                if score > best.score { best = (night, score) }
            }
            stretches[index].last = best.night - 1
            stretches[index + 1].first = best.night
        }

        // Each home's spot: the place of most of its stretch's nights near its candidate, at
        // the mean of those nights' visits; and the other places near it at which a home's share
        // of the days of some year were spent (a flat moved to within the city, a partner's, an
        // office), kept private with it (`otherSpots`).
        return stretches.enumerated().compactMap { number, stretch -> Library.Home? in
            let centre = vectors[candidates[stretch.home]]
            var byPlace: [String: (count: Int, sum: SIMD3<Double>, first: Int)] = [:]
            for index in stretch.first...stretch.last {
                let d = vectors[index] - centre
                guard (d * d).sum() <= limit * limit else { continue }
                let entry = byPlace[nights[index].visit.placeId] ?? (0, .zero, index)
                byPlace[nights[index].visit.placeId] = (entry.count + 1, entry.sum + vectors[index], entry.first)
            }
            guard let spot = byPlace.values.max(by: { ($0.count, -$0.first) < ($1.count, -$1.first) }) else { return nil }
            let next = number + 1 < stretches.count ? stretches[number + 1].first : nil
            var home = Library.Home(centre: VisitClustering.coordinate(of: spot.sum / Double(spot.count)), given: false,
                                    from: number == 0 ? nil : nights[stretch.first].date,
                                    through: next.flatMap { LocalDate.dayBefore(nights[$0].date) })
            // The days of its stretch, from its first night to its last.
            let (firstDay, lastDay) = (nights[stretch.first].day, nights[stretch.last].day)
            let start = stays.partitioningIndex { $0.day >= firstDay }, end = stays.partitioningIndex { $0.day > lastDay }
            home.otherSpots = otherSpots(near: home.centre, stays: Array(stays[start..<end]), rules: rules, leavingOut: PrivacyZones.defaultRadius)
            return home
        }
    }

    /// Of the nights `among` (indices into `vectors`), the one with the most of them within
    /// `limit` (the earliest on a tie), and those nights.
    static func densest(_ vectors: [SIMD3<Double>], among: [Int], limit: Double) -> (best: Int, members: [Int]) {
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
        for index in among { grid[cell(vectors[index]), default: []].append(index) }
        func forEachNear(_ i: Int, _ body: (Int) -> Void) {
            let v = vectors[i], home = cell(v)
            for dx in -1...1 {
                for dy in -1...1 {
                    for dz in -1...1 {
                        for j in grid[home &+ SIMD3(dx, dy, dz)] ?? [] {
                            let d = vectors[j] - v
                            if (d * d).sum() <= limitSquared { body(j) }
                        }
                    }
                }
            }
        }
        var best = among[0], bestCount = -1
        for i in among {
            var count = 0
            forEachNear(i) { _ in count += 1 }
            if count > bestCount { (best, bestCount) = (i, count) }
        }
        var members: [Int] = []
        forEachNear(best) { members.append($0) }
        return (best, members.sorted())
    }
}
