import Foundation

/// A visit as `geotrip places` reports it.
public struct TripVisit: Sendable, Equatable, Encodable {
    public var id: String
    public var placeId: String
    public var revision: Int
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Double
    public var arrival: String
    public var departure: String
    public var localDate: String
    /// The zone of the visit's clock (IANA name or `±HH:MM`), when known.
    public var timeZone: String?
    /// `YYYY-MM-DDTHH:MM:SS±HH:MM` in `timeZone`, when known.
    public var localArrival: String?
    public var localDeparture: String?
    public var photoCount: Int
    public var photos: [String]
    public var name: String?
    public var admin1: String?
    public var country: String?
    public var countryCode: String?
    public var nameSource: String?
    /// Of `photoCount`, the photos taken inside a privacy zone though the visit's centre lies
    /// outside it (at the visit's edge), which no output shows or counts, and the videos among
    /// them: set with the visit's shared centre and times by `shared(by:privacy:hiddenSpans:)`,
    /// 0 until then.
    public var hiddenPhotos = 0
    public var hiddenVideos = 0
    /// Whether the visit, shown, carries the gazetteer's name for its place rather than the
    /// place's own (the person's, or the service's): the place's centre lies inside a privacy
    /// zone (`Catalog.withholdingPlaceNames`).
    public var placeNameWithheld = false

    private enum CodingKeys: String, CodingKey {
        case id, placeId, revision, latitude, longitude, radiusMeters, arrival, departure, localDate, timeZone, localArrival, localDeparture
        case photoCount, photos
        case name, admin1, country, countryCode, nameSource
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(placeId, forKey: .placeId)
        try c.encode(revision, forKey: .revision)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(radiusMeters, forKey: .radiusMeters)
        try c.encode(arrival, forKey: .arrival)
        try c.encode(departure, forKey: .departure)
        try c.encode(localDate, forKey: .localDate)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(localArrival, forKey: .localArrival)
        try c.encode(localDeparture, forKey: .localDeparture)
        try c.encode(photoCount, forKey: .photoCount)
        try c.encode(photos, forKey: .photos)
        try c.encode(name, forKey: .name)
        try c.encode(admin1, forKey: .admin1)
        try c.encode(country, forKey: .country)
        try c.encode(countryCode, forKey: .countryCode)
        try c.encode(nameSource, forKey: .nameSource)
    }
}

/// The trip in a few figures, for the end of `ingest` (`Trip.overview`).
public struct TripOverview: Sendable, Equatable, Codable {
    public var days: [String] = []
    public var visits = 0
    public var places = 0
    public var countries: [String] = []
    public var distanceKilometres = 0.0
    /// The figures of the map and GeoJSON of a folder that is one trip, when its export last
    /// worked them out: visits inside privacy zones are no part of them. Nil for a library
    /// (whose summary gives no distance) and before an export.
    public var shared: Shared?

    /// A trip's figures as its shared outputs give them (`Shared(trip:privacy:track:)`).
    public struct Shared: Sendable, Equatable, Codable {
        /// Visits inside a privacy zone, left out of the map and GeoJSON.
        public var hiddenVisits = 0
        public var visits = 0
        public var places = 0
        /// The map's distances: along its route's lines (a track log's where it has one), cut
        /// by the zones, on the ground and flown.
        public var groundKilometres = 0.0
        public var flownKilometres = 0.0
        /// Whether the zones cut the route (a leg left out, or its part inside a zone).
        public var routeCut = false

        /// `trip`'s figures outside `privacy`, as its map and GeoJSON have them: `route` is the
        /// map's (`TripRoute.hiding` the zones), `kilometresBeforeZones` the same route's before.
        init(trip: Trip, privacy: PrivacyZones, route: TripRoute, kilometresBeforeZones: Double) {
            let all = trip.visits
            let shown = privacy.isEmpty ? all : all.filter { !privacy.contains($0.centre) }
            hiddenVisits = all.count - shown.count
            visits = shown.count
            places = Set(shown.map(\.placeId)).count
            groundKilometres = Self.kilometres(route.legs.filter { $0.kind != .flight })
            flownKilometres = Self.kilometres(route.legs.filter { $0.kind == .flight })
            routeCut = Int((groundKilometres + flownKilometres).rounded()) != Int(kilometresBeforeZones.rounded())
        }

        /// Kilometres along the legs' points, as the map sums them (`TripMapInput.computedFigures`).
        static func kilometres(_ legs: [TripRoute.Leg]) -> Double {
            legs.reduce(0) { sum, leg in sum + zip(leg.coordinates, leg.coordinates.dropFirst()).reduce(0) { $0 + GreatCircle.distance($1.0, $1.1) } } / 1000
        }
    }

    /// This overview with `earlier`'s shared figures, when it has none of its own and its
    /// days, visits and distance are `earlier`'s: the export works them out again whenever it
    /// writes (and so whenever the visits change), and a rerun whose export writes nothing, or
    /// a rename, keeps them.
    func keepingShared(of earlier: TripOverview?) -> TripOverview {
        guard shared == nil, let earlier, earlier.days == days, earlier.visits == visits, earlier.distanceKilometres == distanceKilometres
        else { return self }
        var kept = self
        kept.shared = earlier.shared
        return kept
    }

    /// Calendar days from the first day to the last, both counted (a day without photos
    /// between them too), as `trips`, the page of trips and the map count a trip's days.
    public var calendarDays: Int { LocalDate.calendarDays(from: days.first, to: days.last) ?? days.count }
}

extension TripVisit {
    /// The trip's order of visits: by arrival, then by centre, so visits arriving at the same
    /// instant (two cameras' photos of one second, at places apart) come in an order that
    /// depends on them, not on their ids, which depend on history; the id only makes the
    /// order total. The route and its distance follow this order.
    static func precedes(_ a: TripVisit, _ b: TripVisit) -> Bool {
        if a.arrival != b.arrival { return UTCTimestamp.precedes(a.arrival, b.arrival) }
        return (a.latitude, a.longitude, a.id) < (b.latitude, b.longitude, b.id)
    }

    /// `09:05–09:21 WEST` (`09:05 WEST` within a minute): the visit's times on the clock of its zone, named as tzdata names it
    /// (or `+04`, or the offset), with the day it ended on when that is another (`22:41–00:12
    /// (06-11) WEST`); in UTC only when no zone is known. A visit listed under the day before
    /// the one it began on (after midnight, before the day starts: `LocalDayRule`) says its
    /// day too (`02:30 (01-01)–02:40 WET`), and one across a change of the clocks names both
    /// (`00:30 WET–03:40 WEST`).
    public var localTimeSpan: String {
        guard let timeZone, let localArrival, let localDeparture, let instant = UTCTimestamp.date(arrival)
        else { return Self.timeSpan(arrival: arrival, departure: departure, listedOn: arrival, zone: "UTC", departureZone: nil) }
        return Self.timeSpan(arrival: localArrival, departure: localDeparture, listedOn: localDate,
                             zone: LocalClock.abbreviation(timeZone, at: instant),
                             departureZone: UTCTimestamp.date(departure).map { LocalClock.abbreviation(timeZone, at: $0) })
    }

    /// `localTimeSpan`'s text, which the trip map shows too, from local times
    /// (`YYYY-MM-DDTHH:MM…`): the arrival, with its day when that is not `day` (the day the visit
    /// is listed under), then the departure when given and in another minute (a visit of one
    /// photo is `08:47 WEST`), with its day when that is another; `zone` at the end, or both
    /// zones when `departureZone` is another.
    static func timeSpan(arrival: String, departure: String?, listedOn day: String, zone: String?, departureZone: String?) -> String {
        func clock(_ stamp: String) -> Substring { stamp.dropFirst(11).prefix(5) }
        func date(_ stamp: String) -> Substring { stamp.dropFirst(5).prefix(5) }
        var text = String(clock(arrival))
        if arrival.prefix(10) != day.prefix(10) { text += " (\(date(arrival)))" }
        // In the same minute on the same clock (not the hour a clock going back repeats).
        let departure = departure.flatMap { $0.prefix(16) == arrival.prefix(16) && (departureZone == nil || departureZone == zone) ? nil : $0 }
        let endZone = departure == nil ? zone : departureZone ?? zone
        if let departure {
            if let zone, let endZone, endZone != zone { text += " " + zone }
            text += "–" + clock(departure)
            if departure.prefix(10) != arrival.prefix(10) { text += " (\(date(departure)))" }
        }
        if let endZone { text += " " + endZone }
        return text
    }

    /// Sets `localArrival` and `localDeparture` from the UTC times and the zone.
    mutating func setLocalTimes() {
        func local(_ utc: String) -> String? { timeZone.flatMap { zone in UTCTimestamp.date(utc).flatMap { LocalClock.iso8601($0, zone: zone) } } }
        localArrival = local(arrival)
        localDeparture = local(departure)
    }

    /// The visit's centre.
    public var centre: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// The visit as its outputs show it when some of its photos are hidden (taken inside a
    /// privacy zone, at the edge of a visit outside it): its arrival and departure those of
    /// the photos shown, `times` (UTC), so its times tell nothing of when the hidden ones were
    /// taken. As it is without such a time.
    func spanning(shown times: [String]) -> TripVisit {
        let sorted = times.sorted(by: UTCTimestamp.precedes)
        guard let first = sorted.first, let last = sorted.last else { return self }
        var shown = self
        shown.arrival = first
        shown.departure = last
        shown.setLocalTimes()
        return shown
    }
}

extension TripVisit {
    /// Its count for the terminal (`MediaCount.text`), `3 photos, 1 video`, given how many of
    /// its `photoCount` are videos (`Catalog.videoCountsByVisit`): for `places`' text.
    public func mediaCount(videos: Int) -> String {
        MediaCount(photos: photoCount - videos, videos: videos).text
    }
}
