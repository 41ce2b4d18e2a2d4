import Foundation

/// The whole trip as the person reads it: days with their visits in order, places, photos that
/// could not be placed, countries and distance. Built once in the core from the catalog; what
/// `places`, the ingest summary's trip line and the coming journal and map render from.
public struct Trip: Sendable, Equatable {
    /// One traveller's day (`LocalDayRule`).
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public var date: String
        /// In time order.
        public var visits: [TripVisit]
        /// Photos of the day with no position (they stay in the day's timeline), by path.
        public var unplacedPhotos: [String]
    }

    /// A place with its visits.
    public struct Place: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var admin1: String?
        public var country: String?
        public var countryCode: String?
        public var nameSource: String?
        public var visitIDs: [String]
    }

    /// Every day with a dated photo, in order.
    public var days: [Day] = []
    /// In order of their first visit.
    public var places: [Place] = []
    /// Photos with neither a date nor a position.
    public var undatedPhotos: [String] = []

    /// Every visit, day by day (each day's in time order): the journal's and the timeline's order.
    public var visits: [TripVisit] { days.flatMap(\.visits) }

    /// Every visit in the order they were travelled (`TripVisit.precedes`: by arrival). The
    /// route and its distance go this way: the days' order is the clocks', and a flight east
    /// across the date line lands on a day before the one it left (Haneda on 2 July 09:00,
    /// Honolulu on 1 July 22:00, eight hours later).
    public var visitsInTravelOrder: [TripVisit] {
        let visits = self.visits
        return zip(visits, visits.dropFirst()).allSatisfy({ !TripVisit.precedes($1, $0) }) ? visits : visits.sorted(by: TripVisit.precedes)
    }

    /// Country codes of the places visited, sorted.
    public var countries: [String] { Array(Set(places.compactMap(\.countryCode))).sorted() }

    /// Kilometres along the route from visit to visit (great circles between their centres),
    /// in travel order.
    public var distanceKilometres: Double {
        let centres = visitsInTravelOrder.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        return zip(centres, centres.dropFirst()).map { GreatCircle.distance($0, $1) }.reduce(0, +) / 1000
    }

    /// `distanceKilometres` as the trip's shared outputs give it, and as its map counts it
    /// without a track: legs to and from a place in `zones` left out, and the parts of others
    /// inside one cut away (`TripRoute.hiding`). The way from home and back is no part of it,
    /// so the figure tells nothing of how far home is.
    public func distanceKilometres(outside zones: PrivacyZones) -> Double {
        guard !zones.isEmpty else { return distanceKilometres }
        let visits = visitsInTravelOrder
        var metres = 0.0
        for (a, b) in zip(visits, visits.dropFirst()) {
            let length = GreatCircle.distance(a.centre, b.centre)
            // No point of a leg is farther from its start than its length, so a zone farther
            // than that (and its radius) touches none: the leg counts whole. Only the others
            // (a few near home, with every page of trips written) are cut as the map cuts them.
            if zones.zones.allSatisfy({ GreatCircle.distance($0.centre, a.centre) > length + $0.radiusMeters }) {
                metres += length
            } else {
                let leg = TripRoute(visits: [a, b]).hiding(zones)
                metres += leg.groundMeters + leg.flownMeters
            }
        }
        return metres / 1000
    }

    /// Builds the trip from visits in time order, the photos outside visits with their days, and
    /// the days the clustering stage recorded (days with only unplaced photos included).
    public init(visits: [TripVisit], outside: [(path: String, localDate: String?)], days recorded: [String]) {
        let dates = Set(recorded).union(visits.map(\.localDate)).union(outside.compactMap(\.localDate)).sorted()
        var visitsByDay: [String: [TripVisit]] = [:]
        for visit in visits { visitsByDay[visit.localDate, default: []].append(visit) }
        var outsideByDay: [String: [String]] = [:]
        for photo in outside {
            if let day = photo.localDate { outsideByDay[day, default: []].append(photo.path) } else { undatedPhotos.append(photo.path) }
        }
        days = dates.map { Day(date: $0, visits: visitsByDay[$0] ?? [], unplacedPhotos: outsideByDay[$0] ?? []) }
        var order: [String] = []
        var byID: [String: Place] = [:]
        for visit in visits {
            if byID[visit.placeId] == nil {
                order.append(visit.placeId)
                byID[visit.placeId] = Place(id: visit.placeId, name: visit.name, admin1: visit.admin1, country: visit.country,
                                            countryCode: visit.countryCode, nameSource: visit.nameSource, visitIDs: [])
            }
            byID[visit.placeId]!.visitIDs.append(visit.id)
        }
        places = order.map { byID[$0]! }
    }

    /// The trip, read without its visits' photo paths (`Catalog.trip(photoPaths: false)`),
    /// with each visit's photos taken from `photos` in their order: the export reads every
    /// photo anyway, and a second pass over a library's photos for the paths alone cost a
    /// third of a small change's export.
    /// The trip with each visit's arrival and departure on its zone's clock: the outline of a
    /// library is read without them (two zone conversions for each of 426,000 visits at a
    /// million photos), and a trip being rendered takes them here.
    func withLocalTimes() -> Trip {
        var trip = self
        for day in trip.days.indices {
            for index in trip.days[day].visits.indices { trip.days[day].visits[index].setLocalTimes() }
        }
        return trip
    }

    public func withVisitPhotos(from photos: [TripPhoto]) -> Trip {
        withVisitPhotos(from: photos, onDays: nil)
    }

    /// The same for the visits of `days` alone (nil: every day); the others keep what they have.
    func withVisitPhotos(from photos: [TripPhoto], onDays days: Set<String>?) -> Trip {
        var paths: [String: [String]] = [:]
        for photo in photos { if let visit = photo.visitID { paths[visit, default: []].append(photo.path) } }
        var trip = self
        for day in trip.days.indices where days?.contains(trip.days[day].date) ?? true {
            for index in trip.days[day].visits.indices {
                let visit = trip.days[day].visits[index]
                trip.days[day].visits[index].photos = paths[visit.id] ?? []
                trip.days[day].visits[index].photoCount = trip.days[day].visits[index].photos.count
            }
        }
        return trip
    }

    /// The trip in a few figures, for the end of `ingest`.
    public var overview: TripOverview {
        TripOverview(days: days.map(\.date), visits: visits.count, places: places.count, countries: countries,
                     distanceKilometres: distanceKilometres)
    }
}
