import Foundation

/// A folder of many trips, split (`TripSplitting`): where home is, and each run of days away
/// from it. A folder that is one trip has no library trips and is exported as before.
public struct Library: Sendable, Equatable {
    /// Where most nights are spent, or `--home`; for a person who moved, one home for each
    /// stretch of years (`TripSplitting`).
    public struct Home: Sendable, Equatable, Codable {
        /// The place of home (the spot of most nights, or the given point).
        public var centre: Coordinate
        /// Whether the person gave it (`--home`) rather than geotrip finding it.
        public var given: Bool
        /// The first day (`YYYY-MM-DD`) it is home, nil from the beginning; and the last, nil
        /// to the end. Nil both for the only home.
        public var from: String?
        public var through: String?
        /// Other places near it at which a home's share of the days of some year were spent (a
        /// flat moved to within the city, a partner's, an office, the house photographed by
        /// day only): not home for trips, but kept private as home is (`TripSplitting.otherSpots`).
        public var otherSpots: [Coordinate] = []

        /// Every spot kept private for this home: its own, then the others.
        public var privateSpots: [Coordinate] { [centre] + otherSpots }

        /// Creates a home.
        public init(centre: Coordinate, given: Bool, from: String? = nil, through: String? = nil) {
            self.centre = centre
            self.given = given
            self.from = from
            self.through = through
        }
    }

    /// One trip of the library.
    public struct Trip: Sendable, Equatable {
        /// 1 for the earliest trip, in time order (`places --trip N`).
        public var number: Int
        /// `YYYY-MM-DD`.
        public var firstDay: String
        public var lastDay: String
        /// The trip's days, visits and places only.
        public var trip: GeoTripCore.Trip

        /// The trip's folder inside the output folder, `trips/<first day>`: no other trip can
        /// share its first day.
        public var folder: String { Library.tripsFolder + "/" + firstDay }

        /// Calendar days from the first to the last, both counted.
        public var length: Int { trip.calendarDays }
    }

    /// Home, when the folder is a library (and whenever `--home` was given): of several
    /// (`homes`), the one of most nights.
    public var home: Home?
    /// Every home, in time order: one, or one for each stretch of years between moves (`home`
    /// is one of them; both are set, or neither).
    public var homes: [Home] = []
    /// The trips, in time order; empty when the folder is one trip.
    public var trips: [Trip] = []
    /// Days with photos spent at home (every visit of the day near it), which belong to no trip.
    public var homeDays = 0
    /// Those days in stretches, apart by more than `TripSplitting.Rules.gapDays` days.
    public var homeStretches: [DaySpan] = []

    /// From one day to another (`YYYY-MM-DD`), both in it, and how many days with photos it holds.
    public struct DaySpan: Sendable, Equatable, Codable {
        /// Its first day and its last.
        public var first: String
        public var last: String
        /// Its days with photos (a day between them without any is not counted).
        public var days = 1
    }

    /// Whether the home found (not given) has its days in `most` stretches or fewer: a hotel
    /// stayed at twice, in a folder of trips alone, whose nights spanning months made it home,
    /// and whose days then are on no page. A home photographed on few nights looks the same,
    /// so this is said, never acted on.
    public func homeLooksLikeAStay(most: Int = 2) -> Bool {
        guard let home, !home.given, homes.count == 1, !homeStretches.isEmpty else { return false }
        return homeStretches.count <= most
    }

    /// The folder of the trips' folders inside the output folder.
    public static let tripsFolder = "trips"

    /// Of `homes` (earlier homes, say), the one that most trips lie around, every visit of
    /// theirs within `TripSplitting.Rules.awayMetres`, with how many; nil when no trip does.
    public func tripsAround(_ homes: [Coordinate]) -> (home: Coordinate, trips: Int)? {
        let away = TripSplitting.Rules().awayMetres
        let counted = homes.map { home in
            (home: home, trips: trips.filter { trip in
                let visits = trip.trip.visits
                return !visits.isEmpty && visits.allSatisfy { GreatCircle.distance($0.centre, home) <= away }
            }.count)
        }
        guard let most = counted.max(by: { $0.trips < $1.trips }), most.trips > 0 else { return nil }
        return most
    }

    /// The spot that the most trips are at alone, at least `least` of them, with how many:
    /// trips whose every visit lies within `metres` of its first, those first visits within
    /// `metres` of one another's. A home photographed on few nights, not found as home (the
    /// nights of a hotel, or of none, made another), turns each day photographed there into a
    /// trip of its own. The spot is the mean of those trips' visits.
    public func tripsAtOneSpot(least: Int = 3, within metres: Double = PrivacyZones.defaultRadius) -> (spot: Coordinate, trips: Int)? {
        // Each trip that stays within `metres` of its first visit, by that visit's centre.
        let alone = trips.compactMap { trip -> (centre: Coordinate, visits: [TripVisit])? in
            let visits = trip.trip.visits
            guard let first = visits.first, visits.allSatisfy({ GreatCircle.distance($0.centre, first.centre) <= metres }) else { return nil }
            return (first.centre, visits)
        }
        let best = alone.map { candidate in alone.filter { GreatCircle.distance($0.centre, candidate.centre) <= metres } }
            .max { $0.count < $1.count }
        guard let best, best.count >= least else { return nil }
        let visits = best.flatMap(\.visits)
        let sum = visits.map { GreatCircle.unitVector($0.centre) }.reduce(SIMD3<Double>.zero, +)
        return (VisitClustering.coordinate(of: sum / Double(visits.count)), best.count)
    }

    /// Whether the folder is exported as a library of trips.
    public var isLibrary: Bool { !trips.isEmpty }

    /// The days of the few photos (at most `most`, and at most a twentieth of them) without
    /// which `trip`'s dated photos would span `rules.librarySpanDays` or fewer, with how many
    /// photos they hold: a folder of one trip made a library by a stray date (a camera's clock
    /// reset to 2000-01-01 after its battery died, a photo of another year copied in), whose
    /// home, found by nights, then takes the trip's own days off every page. Nil when no such
    /// few make it one (a library's years of trips), or for a folder of one trip. The days kept
    /// are the span of most photos.
    public static func strayDays(of trip: GeoTripCore.Trip, rules: TripSplitting.Rules = TripSplitting.Rules(), most: Int = 5)
        -> (days: [String], photos: Int, others: Int)? {
        let days = trip.days.compactMap { day -> (date: String, number: Int, photos: Int)? in
            guard let number = LocalDate.dayNumber(day.date) else { return nil }
            return (day.date, number, max(1, day.visits.map(\.photoCount).reduce(0, +) + day.unplacedPhotos.count))
        }
        guard let first = days.first, let last = days.last, last.number - first.number + 1 > rules.librarySpanDays else { return nil }
        // The span of at most `librarySpanDays` holding the most photos (two pointers).
        var best = (from: 0, to: 0, photos: 0), start = 0, inside = 0
        for end in days.indices {
            inside += days[end].photos
            while days[end].number - days[start].number + 1 > rules.librarySpanDays {
                inside -= days[start].photos
                start += 1
            }
            if inside > best.photos { best = (start, end, inside) }
        }
        let total = days.map(\.photos).reduce(0, +), strays = total - best.photos
        guard strays <= most, strays * 20 <= total else { return nil }
        let kept = best.from...best.to
        // Far: each more than a month from the days kept (a trip's first days a week before
        // the rest are no stray dates).
        let far = rules.librarySpanDays / 2
        guard days.indices.allSatisfy({ kept.contains($0) || days[$0].number < days[best.from].number - far || days[$0].number > days[best.to].number + far })
        else { return nil }
        return (days.indices.filter { !kept.contains($0) }.map { days[$0].date }, strays, best.photos)
    }

    /// The trip numbered `number`, if there is one.
    public func trip(number: Int) -> Trip? {
        trips.indices.contains(number - 1) ? trips[number - 1] : nil
    }
}

/// `YYYY-MM-DD` dates as day numbers, for counting days between them.
enum LocalDate {
    /// Days since 1970-01-01; nil for text that is not a date.
    static func dayNumber(_ date: String) -> Int? {
        let parts = date.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return Date.daysSince1970(year: year, month: month, day: day)
    }

    /// Calendar days from `first` to `last`, both counted (a day between them without photos
    /// too): how a trip's days are counted everywhere. Nil when either is not a date.
    static func calendarDays(from first: String?, to last: String?) -> Int? {
        guard let first = first.flatMap(dayNumber), let last = last.flatMap(dayNumber) else { return nil }
        return last - first + 1
    }

    /// The date before `date`; nil for text that is not a date.
    static func dayBefore(_ date: String) -> String? {
        guard let number = dayNumber(date) else { return nil }
        let civil = Date.civilDate(daysSince1970: number - 1)
        return ASCIIDigits.padded(civil.year, 4) + "-" + ASCIIDigits.padded(civil.month, 2) + "-" + ASCIIDigits.padded(civil.day, 2)
    }
}

extension Trip {
    /// The visits whose centres are outside `privacy`, in time order: the visits a trip's
    /// shared outputs (its map, the page of trips, `trips`) show, name and count.
    public func visits(leavingOut privacy: PrivacyZones) -> [TripVisit] {
        privacy.isEmpty ? visits : visits.filter { !privacy.contains($0.centre) }
    }

    /// The country codes of the visits outside `privacy`, sorted: a trip's countries as its
    /// shared outputs give them, and as its map does (a trip whose only other country is
    /// home's, or a hidden address's, does not name it).
    public func countries(leavingOut privacy: PrivacyZones) -> [String] {
        Array(Set(visits(leavingOut: privacy).compactMap(\.countryCode))).sorted()
    }

    /// Whether the trip has visits and every one is inside `privacy` (a day at a partner's):
    /// what names it where its places would.
    public func isPrivate(leavingOut privacy: PrivacyZones) -> Bool {
        !visits.isEmpty && visits(leavingOut: privacy).isEmpty
    }

    /// The visits outside `privacy`, and the places they are at: what a trip's map counts.
    public func visitsAndPlaces(leavingOut privacy: PrivacyZones) -> (visits: Int, places: Int) {
        let shown = visits(leavingOut: privacy)
        return (shown.count, Set(shown.map(\.placeId)).count)
    }

    /// Up to `limit` place names, those with the most photos first (first visited on a tie):
    /// what a trip is called in a list of trips. Visits inside `privacy` lend it no name (the
    /// journal calls them "Private place").
    public func mainPlaceNames(limit: Int = 3, leavingOut privacy: PrivacyZones = PrivacyZones()) -> [String] {
        var photos: [String: Int] = [:]
        var order: [String] = []
        for visit in visits(leavingOut: privacy) {
            guard let name = visit.name else { continue }
            if photos[name] == nil { order.append(name) }
            photos[name, default: 0] += visit.photoCount
        }
        return order.enumerated().sorted { (photos[$0.element]!, -$0.offset) > (photos[$1.element]!, -$1.offset) }
            .prefix(limit).map(\.element)
    }

    /// The media a trip's shared outputs count (`Catalog.mediaCount(of:leavingOut:)`): the
    /// photos and videos of its visits outside `privacy` but those taken inside a zone
    /// (`TripVisit.hiddenPhotos`, once the trip is shared), and those of its photos without a
    /// position; with the ids of those visits, the paths of those photos, and how many videos
    /// those visits hold that are left out (`TripVisit.hiddenVideos`).
    public func sharedMedia(leavingOut privacy: PrivacyZones) -> (count: Int, visits: [String], unplaced: [String], hiddenVideos: Int) {
        let shown = visits(leavingOut: privacy)
        let unplaced = days.flatMap(\.unplacedPhotos)
        return (shown.map { $0.photoCount - $0.hiddenPhotos }.reduce(0, +) + unplaced.count, shown.map(\.id), unplaced,
                shown.map(\.hiddenVideos).reduce(0, +))
    }

    /// Calendar days from the first day to the last, both counted (0 without days).
    public var calendarDays: Int { LocalDate.calendarDays(from: days.first?.date, to: days.last?.date) ?? 0 }

    /// Photos of the trip's days, placed or not.
    public var photoCount: Int {
        days.map { $0.visits.map(\.photoCount).reduce(0, +) + $0.unplacedPhotos.count }.reduce(0, +)
    }

    /// The trip cut to the days from `first` to `last` (both included): their visits, and the
    /// places visited on them with only those visits. Undated photos belong to no part.
    public func days(from first: String, through last: String) -> Trip {
        var part = Trip(visits: [], outside: [], days: [])
        // Days are in date order (`Trip.init`): the part is the slice between two searches, not
        // a pass over every day, and only the places visited on it filter their visits (a
        // library's split cuts hundreds of trips from 426,000 visits).
        assert(zip(days, days.dropFirst()).allSatisfy { $0.date < $1.date }, "a trip's days are in date order")
        let start = days.partitioningIndex { $0.date >= first }, end = days.partitioningIndex { $0.date > last }
        part.days = start < end ? Array(days[start..<end]) : []
        let visitIDs = Set(part.days.flatMap { $0.visits.map(\.id) })
        let placeIDs = Set(part.days.flatMap { $0.visits.map(\.placeId) })
        part.places = places.compactMap { place in
            guard placeIDs.contains(place.id) else { return nil }
            let kept = place.visitIDs.filter(visitIDs.contains)
            guard !kept.isEmpty else { return nil }
            var copy = place
            copy.visitIDs = kept
            return copy
        }
        // Places in order of their first visit within the part.
        let firstVisit = Dictionary(part.visits.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        part.places.sort { (firstVisit[$0.visitIDs[0]] ?? 0) < (firstVisit[$1.visitIDs[0]] ?? 0) }
        return part
    }
}

extension Library {
    /// The visits of `whole` (the folder the library was split from) among which a trip's
    /// visits placed only from a hidden neighbour are looked for (`PrivacyZones.neighbourZones`):
    /// every trip's, and those of the days with visits just before and just after each trip.
    /// Those days are days at home; a trip's first visit may be placed from the house on the
    /// day before (a photo at home at 03:50, the day starting at 04:00), so leaving them out
    /// would show a visit whose line runs back to the door.
    public func visitsBesideTrips(of whole: GeoTripCore.Trip) -> [TripVisit] {
        guard !trips.isEmpty else { return whole.visits }
        let days = whole.days.filter { !$0.visits.isEmpty }
        let dates = days.map(\.date)
        var taken = Set<Int>()
        for trip in trips {
            // The trip's days, and the day with visits on either side of them.
            let first = dates.partitioningIndex { $0 >= trip.firstDay }
            let end = dates.partitioningIndex { $0 > trip.lastDay }
            for index in max(0, first - 1)..<min(days.count, end + 1) { taken.insert(index) }
        }
        return taken.sorted().flatMap { days[$0].visits }
    }
}
