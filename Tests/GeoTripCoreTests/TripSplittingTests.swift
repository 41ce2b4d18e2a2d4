import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Splitting a folder of many trips (`TripSplitting`), on schedules written here: which days
/// are at home and which trip each away day belongs to is the ground truth, and the visits are
/// made from it (a few places a day, around home or around the trip's region).
@Suite("Trips in a library")
struct TripSplittingTests {
    /// One day of a schedule: at home, away on trip `trip` in `region`, or without any
    /// placed photo (`nil` place).
    enum Plan {
        case home
        /// At home in another city than Amsterdam (after a move): out by day, the house at night.
        case livingIn(Coordinate)
        /// The house photographed in the morning, an office every afternoon: the office holds the nights.
        case houseThenOffice(Coordinate)
        /// An errand by day (the same shop each time), the house at night.
        case errandThenHome(Coordinate)
        case away(trip: Int, region: Coordinate)
        case noPosition
        case nothing
    }

    static let amsterdam = Coordinate(latitude: 52.3702, longitude: 4.8952)
    static let lisbon = Coordinate(latitude: 38.7223, longitude: -9.1393)
    static let kyoto = Coordinate(latitude: 35.0116, longitude: 135.7681)
    static let utrecht = Coordinate(latitude: 52.0907, longitude: 5.1214)  // 36 km from Amsterdam: not away
    static let taveuni = Coordinate(latitude: -16.85, longitude: 179.95)  // Fiji, on the antimeridian

    /// The trip of a schedule starting at `start` (`YYYY-MM-DD`), one plan per calendar day.
    static func trip(from start: String, _ plans: [Plan], seed: UInt64 = 1) -> Trip {
        var generator = SplitMix(seed: seed)
        let first = LocalDate.dayNumber(start)!
        var visits: [TripVisit] = []
        var outside: [(path: String, localDate: String?)] = []
        for (offset, plan) in plans.enumerated() {
            let civil = Date.civilDate(daysSince1970: first + offset)
            let date = String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
            var spots: [Coordinate] = []
            switch plan {
            case .home:
                // Out in the city by day, somewhere new each day (a place at which some days of
                // every year are spent is private as home is), back at the house for the night.
                spots = [Coordinate(latitude: amsterdam.latitude + .random(in: -0.04...0.04, using: &generator),
                                    longitude: amsterdam.longitude + .random(in: -0.06...0.06, using: &generator)), amsterdam]
            case .livingIn(let house):
                spots = [Coordinate(latitude: house.latitude + .random(in: -0.04...0.04, using: &generator),
                                    longitude: house.longitude + .random(in: -0.06...0.06, using: &generator)), house]
            case .houseThenOffice(let office):
                spots = [amsterdam, office]
            case .errandThenHome(let shop):
                spots = [shop, amsterdam]
            case .away(_, let region):
                spots = (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                    let longitude = region.longitude + .random(in: -0.2...0.2, using: &generator)
                    return Coordinate(latitude: region.latitude + .random(in: -0.2...0.2, using: &generator),
                                      longitude: longitude > 180 ? longitude - 360 : longitude)
                }
            case .noPosition:
                outside.append((path: "\(date)/IMG.JPG", localDate: date))
            case .nothing:
                break
            }
            for (index, spot) in spots.enumerated() {
                let id = "v\(date)-\(index)"
                // Places: the house keeps its id, so it is one place.
                let house: String? = switch plan {
                case .livingIn(let house) where spot == house: "house\(house.latitude)"
                case .houseThenOffice(let office) where spot == office: "office"
                case .errandThenHome(let shop) where spot == shop: "shop\(shop.latitude)"
                default: nil
                }
                let place = spot == amsterdam ? "home0" : house ?? "p" + id
                visits.append(TripVisit(id: id, placeId: place, revision: 1, latitude: spot.latitude, longitude: spot.longitude,
                                        radiusMeters: 20, arrival: "\(date)T\(10 + index):00:00Z", departure: "\(date)T\(10 + index):30:00Z",
                                        localDate: date, photoCount: 3, photos: ["\(id)/a.jpg", "\(id)/b.jpg", "\(id)/c.jpg"]))
            }
        }
        return Trip(visits: visits, outside: outside, days: [])
    }

    /// `trip` with the night of each day spent within 50 km of `spot` at `spot` itself (a
    /// hotel): the day's last visit moved there.
    static func sleeping(at spot: Coordinate, _ trip: Trip) -> Trip {
        var trip = trip
        for index in trip.days.indices where trip.days[index].visits.contains(where: { GreatCircle.distance($0.centre, spot) < 50_000 }) {
            let last = trip.days[index].visits.count - 1
            trip.days[index].visits[last].latitude = spot.latitude
            trip.days[index].visits[last].longitude = spot.longitude
        }
        return trip
    }

    /// The schedule's trips as (first day, last day), from the plans themselves.
    static func expected(from start: String, _ plans: [Plan]) -> [(String, String)] {
        let first = LocalDate.dayNumber(start)!
        var spans: [Int: (Int, Int)] = [:]
        for (offset, plan) in plans.enumerated() {
            guard case .away(let trip, _) = plan else { continue }
            spans[trip] = (spans[trip]?.0 ?? offset, offset)
        }
        func date(_ offset: Int) -> String {
            let civil = Date.civilDate(daysSince1970: first + offset)
            return String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
        }
        return spans.keys.sorted().map { (date(spans[$0]!.0), date(spans[$0]!.1)) }
    }

    /// Three months: home, Lisbon for 5 days, home, Kyoto for 8 days with two days without
    /// photos and one without positions inside, home, a day out to Utrecht (near), Lisbon again.
    static let quarter: [Plan] =
        Array(repeating: .home, count: 20)
        + Array(repeating: .away(trip: 1, region: lisbon), count: 5)
        + [.home, .nothing, .home] + Array(repeating: .nothing, count: 9) + Array(repeating: .home, count: 10)
        + [.away(trip: 2, region: kyoto), .away(trip: 2, region: kyoto), .nothing, .nothing, .away(trip: 2, region: kyoto),
           .noPosition, .away(trip: 2, region: kyoto), .away(trip: 2, region: kyoto)]
        + Array(repeating: .home, count: 17)
        + Array(repeating: .away(trip: 3, region: lisbon), count: 3) + Array(repeating: .home, count: 8)

    @Test("a library's trips are the schedule's runs of days away, with days without photos inside a trip kept in it")
    func scheduleTrips() {
        let plans = Self.quarter
        let trip = Self.trip(from: "2024-03-01", plans)
        let library = TripSplitting.split(trip)
        let expected = Self.expected(from: "2024-03-01", plans)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == expected.map { [$0.0, $0.1] })
        #expect(library.trips.map(\.number) == Array(1...expected.count))
        // Kyoto: 8 calendar days, with its day of photos without positions inside it.
        let kyoto = library.trips[1]
        #expect(kyoto.length == 8)
        #expect(kyoto.trip.days.flatMap(\.unplacedPhotos).count == 1)
        #expect(kyoto.trip.visits.allSatisfy { GreatCircle.distance($0.centre, Self.kyoto) < 50_000 })
        // Home: the house, where the nights were.
        guard let home = library.home else { Issue.record("no home"); return }
        #expect(!home.given)
        #expect(GreatCircle.distance(home.centre, Self.amsterdam) < 1)
        #expect(library.homeDays == plans.filter { if case .home = $0 { true } else { false } }.count)
    }

    @Test("a folder of one trip made a library by a stray date or two is told by them; a library of years of trips is not")
    func strayDates() throws {
        let holiday = Self.trip(from: "2025-06-10", Array(repeating: .away(trip: 1, region: Self.lisbon), count: 10))
        #expect(Library.strayDays(of: holiday) == nil, "one trip: no library to explain")
        // One photo from a camera whose clock reset to 2000-01-01, taken at the hotel.
        func stray(_ date: String, photos: Int) -> TripVisit {
            TripVisit(id: "s" + date, placeId: "s" + date, revision: 1, latitude: Self.lisbon.latitude, longitude: Self.lisbon.longitude,
                      radiusMeters: 20, arrival: date + "T00:05:00Z", departure: date + "T00:05:00Z", localDate: date, photoCount: photos,
                      photos: (0..<photos).map { "stray\($0).jpg" })
        }
        let visits = holiday.visits
        let photos = visits.map(\.photoCount).reduce(0, +)
        let once = Trip(visits: [stray("2000-01-01", photos: 1)] + visits, outside: [], days: [])
        #expect(TripSplitting.split(once).isLibrary, "the stray date makes it a library: the case tests something")
        let told = try #require(Library.strayDays(of: once))
        #expect(told.days == ["2000-01-01"] && told.photos == 1 && told.others == photos)
        // At both ends (a clock in 2099 too), the days kept are the holiday's.
        let both = Trip(visits: [stray("2000-01-01", photos: 1)] + visits + [stray("2099-12-31", photos: 2)], outside: [], days: [])
        #expect(Library.strayDays(of: both).map { $0.days } == ["2000-01-01", "2099-12-31"])
        // More than five such photos, or more than a twentieth of them, are no stray date.
        #expect(Library.strayDays(of: Trip(visits: [stray("2000-01-01", photos: 6)] + visits, outside: [], days: [])) == nil)
        let short = Self.trip(from: "2025-06-10", Array(repeating: .away(trip: 1, region: Self.lisbon), count: 2))
        let shortPhotos = short.visits.map(\.photoCount).reduce(0, +)
        let many = Trip(visits: [stray("2000-01-01", photos: 1)] + short.visits, outside: [], days: [])
        #expect((Library.strayDays(of: many) != nil) == (shortPhotos >= 20), "\(shortPhotos) photos")
        // A long trip whose first photo, a day before the rest, alone makes it span 61 days: no
        // stray date, only a trip's first day.
        let long = Self.trip(from: "2025-06-10", Array(repeating: .away(trip: 1, region: Self.lisbon), count: 60))
        let early = Trip(visits: [stray("2025-06-09", photos: 1)] + long.visits, outside: [], days: [])
        #expect(early.days.count == 61 && Library.strayDays(of: early) == nil)
        // A library of years: its trips are far more than a few photos.
        let years = Self.trip(from: "2024-01-01", (0..<400).map { $0 % 50 < 10 ? .away(trip: $0 / 50, region: Self.kyoto) : .home })
        #expect(TripSplitting.split(years).isLibrary && Library.strayDays(of: years) == nil)
    }

    @Test("the page of trips gives the years from the first trip's first day to the last trip's last")
    func yearsOnThePageOfTrips() throws {
        // A trip over New Year: 2023-12-28 to 2024-01-03.
        let plans: [Plan] = Array(repeating: .home, count: 40) + Array(repeating: .away(trip: 1, region: Self.lisbon), count: 7)
            + Array(repeating: .home, count: 30)
        let library = TripSplitting.split(Self.trip(from: "2023-11-18", plans))
        let trip = try #require(library.trips.first)
        #expect(library.trips.count == 1 && trip.firstDay == "2023-12-28" && trip.lastDay == "2024-01-03")
        let page = LibraryIndexPage(entries: [.init(number: 1, folder: trip.folder, trip: trip.trip, media: MediaCount(photos: trip.trip.photoCount, videos: 0),
                                                               kilometres: trip.trip.distanceKilometres)], words: JournalWords(language: "en"),
                                    language: "en").render()
        #expect(page.contains("1 trip, 2023 to 2024, 7 days away"), "\(page)")
    }

    @Test("a trip whose every visit is private is called so on the page of trips, not by its number")
    func privateTripOnThePageOfTrips() throws {
        let plans: [Plan] = Array(repeating: .home, count: 40) + Array(repeating: .away(trip: 1, region: Self.lisbon), count: 3)
            + Array(repeating: .home, count: 30)
        let library = TripSplitting.split(Self.trip(from: "2024-01-01", plans))
        let trip = try #require(library.trips.first)
        let zones = PrivacyZones(trip.trip.visits.map { PrivacyZones.Zone(centre: $0.centre, radiusMeters: 100) })
        let page = LibraryIndexPage(entries: [.init(number: 1, folder: trip.folder, trip: trip.trip, media: MediaCount(photos: 0, videos: 0),
                                                    kilometres: 0)], words: JournalWords(language: "en"), language: "en", privacy: zones).render()
        #expect(page.contains(">Private place<") && !page.contains(">#1<"), "\(page)")
    }

    @Test("with home given elsewhere, a run of days only at a home kept private from earlier exports is no trip; one with anything else is, whole")
    func keptHomeDays() throws {
        let vienna = Coordinate(latitude: 48.2082, longitude: 16.3738)
        let atHouse = Array(repeating: Plan.home, count: 10)
        let plans: [Plan] = atHouse + Array(repeating: .nothing, count: 3) + [.home] + Array(repeating: .away(trip: 1, region: Self.lisbon), count: 5)
            + Array(repeating: .nothing, count: 3) + atHouse + Array(repeating: .nothing, count: 3) + [.home] + Array(repeating: .nothing, count: 3)
        // On the runs of ten days at home only the house was photographed; the day before
        // Lisbon, and the last day, also show the town.
        let houseOnly = Set([0..<10, 22..<32].flatMap { $0 })
        let trip = Trip(visits: Self.trip(from: "2020-01-01", plans).visits.filter {
            !houseOnly.contains(LocalDate.dayNumber($0.localDate)! - LocalDate.dayNumber("2020-01-01")!) || $0.centre == Self.amsterdam
        }, outside: [], days: [])
        // Home in Vienna for all time: every run of days is a trip.
        let given = TripSplitting.split(trip, givenHome: vienna)
        #expect(given.trips.map(\.firstDay) == [Self.date(0), Self.date(13), Self.date(22), Self.date(35)])
        // Amsterdam's house kept private: the runs at the house alone are days at home; the
        // trip that began in town with a night at the house keeps that day, and so does the last.
        let library = TripSplitting.split(trip, givenHome: vienna, keptHomes: [Self.amsterdam])
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == [[Self.date(13), Self.date(18)], [Self.date(35), Self.date(35)]])
        #expect(library.homeDays == given.homeDays + 20)
        let zone = PrivacyZones([PrivacyZones.Zone(centre: Self.amsterdam)])
        #expect(library.trips.allSatisfy { !$0.trip.visits(leavingOut: zone).isEmpty })
    }

    @Test("with home given elsewhere, days only at a home kept private just before or after a trip do not widen it; within it they are its days")
    func keptHomeDaysBesideATrip() throws {
        let vienna = Coordinate(latitude: 48.2082, longitude: 16.3738)
        let lisbon = Plan.away(trip: 1, region: Self.lisbon)
        // Two evenings at the old flat, five days in Lisbon with one night at the flat between,
        // one more evening at the flat: all within two days of each other.
        let plans: [Plan] = [.home, .home] + [lisbon, lisbon, .home, lisbon, lisbon] + [.nothing, .home] + Array(repeating: .nothing, count: 3)
        let flatOnly: Set = [0, 1, 4, 8]
        let trip = Trip(visits: Self.trip(from: "2020-01-01", plans).visits.filter {
            !flatOnly.contains(LocalDate.dayNumber($0.localDate)! - LocalDate.dayNumber("2020-01-01")!) || $0.centre == Self.amsterdam
        }, outside: [], days: [])
        #expect(TripSplitting.split(trip, givenHome: vienna).trips.map { [$0.firstDay, $0.lastDay] } == [[Self.date(0), Self.date(8)]])
        let library = TripSplitting.split(trip, givenHome: vienna, keptHomes: [Self.amsterdam])
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == [[Self.date(2), Self.date(6)]])
        #expect(library.homeDays == 3)
        // Three days at the flat in a row between Lisbon and Kyoto end the first trip, as three
        // days at home would; two do not.
        let kyoto = Plan.away(trip: 2, region: Self.kyoto)
        for (atFlat, trips) in [(3, [[Self.date(0), Self.date(1)], [Self.date(5), Self.date(6)]]), (2, [[Self.date(0), Self.date(5)]])] {
            let between: [Plan] = [lisbon, lisbon] + Array(repeating: .home, count: atFlat) + [kyoto, kyoto] + Array(repeating: .nothing, count: 3)
            let flat = Set(2..<(2 + atFlat))
            let long = Trip(visits: Self.trip(from: "2020-01-01", between).visits.filter {
                !flat.contains(LocalDate.dayNumber($0.localDate)! - LocalDate.dayNumber("2020-01-01")!) || $0.centre == Self.amsterdam
            }, outside: [], days: [])
            let split = TripSplitting.split(long, givenHome: vienna, keptHomes: [Self.amsterdam])
            #expect(split.trips.map { [$0.firstDay, $0.lastDay] } == trips, "\(atFlat) days at the flat")
            #expect(split.homeDays == (atFlat > 2 ? atFlat : 0), "\(atFlat) days at the flat")
        }
    }

    @Test("a day out within 50 km of home is a home day, not a trip")
    func dayOutNearHome() {
        var trip = Self.trip(from: "2024-03-01", Self.quarter)
        // Day 62 (a home day): its daytime visit moves to Utrecht, 36 km away; the night stays home.
        let date = "2024-05-02"
        let index = trip.days.firstIndex { $0.date == date }!
        trip.days[index].visits[0].latitude = Self.utrecht.latitude
        trip.days[index].visits[0].longitude = Self.utrecht.longitude
        #expect(TripSplitting.split(trip).trips.count == 3)
    }

    @Test("more than two days in a row without a placed photo end a trip")
    func gapEndsTrip() {
        let lisbon = Plan.away(trip: 1, region: Self.lisbon)
        let plans: [Plan] = Array(repeating: .home, count: 40) + [lisbon, lisbon, .nothing, .nothing, .nothing, lisbon, lisbon]
            + Array(repeating: .home, count: 30)
        let library = TripSplitting.split(Self.trip(from: "2023-01-01", plans))
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == [["2023-02-10", "2023-02-11"], ["2023-02-15", "2023-02-16"]])
    }

    @Test("a date the calendar skips crossing the date line eastward is no day without a photo: Honolulu then Auckland is one trip")
    func dateLineGap() {
        let honolulu = Coordinate(latitude: 21.3069, longitude: -157.8583), auckland = Coordinate(latitude: -36.8485, longitude: 174.7633)
        let home = Self.trip(from: "2025-02-01", Array(repeating: .home, count: 40) + Array(repeating: .nothing, count: 8)
                                 + Array(repeating: .home, count: 30)).days.flatMap(\.visits)
        func visit(_ date: String, _ spot: Coordinate, _ arrival: String, _ departure: String) -> TripVisit {
            TripVisit(id: "v" + arrival, placeId: "p" + arrival, revision: 1, latitude: spot.latitude, longitude: spot.longitude, radiusMeters: 20,
                      arrival: arrival, departure: departure, localDate: date, photoCount: 3, photos: ["\(arrival)/a.jpg"])
        }
        // Honolulu on 12 to 15 March (HST, UTC-10), the last photo at 20:00 (16 March 06:00Z).
        let hawaii = (12...15).map { visit("2025-03-\($0)", honolulu, "2025-03-\($0)T19:00:00Z", "2025-03-\($0 + 1)T06:00:00Z") }
        func trips(_ away: [TripVisit]) -> [[String]] {
            let trip = Trip(visits: (home + hawaii + away).sorted { $0.arrival < $1.arrival }, outside: [], days: [])
            return TripSplitting.split(trip).trips.map { [$0.firstDay, $0.lastDay] }
        }
        // Auckland from 19 March 12:00 NZDT (UTC+13: 18 March 23:00Z), 2 days 17 hours after
        // Honolulu, though 16, 17 and 18 March have no photo on the calendar: one trip.
        #expect(trips((19...21).map { visit("2025-03-\($0)", auckland, "2025-03-\($0 - 1)T23:00:00Z", "2025-03-\($0)T08:00:00Z") })
                == [["2025-03-12", "2025-03-21"]])
        // The same dates three days and more apart (on one clock): two trips.
        #expect(trips((19...21).map { visit("2025-03-\($0)", auckland, "2025-03-\($0)T12:00:00Z", "2025-03-\($0)T14:00:00Z") })
                == [["2025-03-12", "2025-03-15"], ["2025-03-19", "2025-03-21"]])
    }

    @Test("a folder of 60 days or fewer is one trip, even with several cities; --home makes it a library")
    func shortFolderIsOneTrip() {
        let lisbon = Plan.away(trip: 1, region: Self.lisbon), kyoto = Plan.away(trip: 2, region: Self.kyoto)
        let plans: [Plan] = Array(repeating: lisbon, count: 20) + Array(repeating: kyoto, count: 20) + Array(repeating: lisbon, count: 20)
        let trip = Self.trip(from: "2024-01-01", plans)
        #expect(!TripSplitting.split(trip).isLibrary)
        #expect(TripSplitting.split(trip).home == nil)
        // With home given in Amsterdam, every day is away: one trip of 60 days.
        let given = TripSplitting.split(trip, givenHome: Self.amsterdam)
        #expect(given.home == Library.Home(centre: Self.amsterdam, given: true))
        #expect(given.trips.map { [$0.firstDay, $0.lastDay] } == [["2024-01-01", "2024-02-29"]])
        // With home given in Lisbon, the Kyoto days are the one trip.
        #expect(TripSplitting.split(trip, givenHome: Self.lisbon).trips.map { [$0.firstDay, $0.lastDay] } == [["2024-01-21", "2024-02-09"]])
    }

    @Test("a folder of trips alone has no home: a trip's hotel is no home, and each trip keeps all its days")
    func tripsAlone() {
        // Three trips a year apart, no photo at home: Lisbon's 8 nights are the most near one
        // spot, but they span 7 days, so no home; every day is in its trip.
        let lisbon = Plan.away(trip: 1, region: Self.lisbon), kyoto = Plan.away(trip: 2, region: Self.kyoto)
        let fiji = Plan.away(trip: 3, region: Self.taveuni)
        let year = Array(repeating: Plan.nothing, count: 360)
        let plans: [Plan] = Array(repeating: lisbon, count: 8) + year + Array(repeating: kyoto, count: 5) + year + Array(repeating: fiji, count: 6)
        let library = TripSplitting.split(Self.trip(from: "2022-05-01", plans))
        let expected = Self.expected(from: "2022-05-01", plans)
        #expect(library.home == nil && library.homes.isEmpty && library.homeDays == 0)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == expected.map { [$0.0, $0.1] })
        #expect(library.trips.map { $0.trip.days.count } == [8, 5, 6])

        // One long journey without a home, 90 days with none more than two days apart: one trip.
        let journey: [Plan] = Array(repeating: lisbon, count: 30) + Array(repeating: kyoto, count: 30) + Array(repeating: fiji, count: 30)
        let one = TripSplitting.split(Self.trip(from: "2022-05-01", journey))
        #expect(!one.isLibrary && one.home == nil)
    }

    @Test("a trip's hotel with one night years before (a camera whose clock reset) is no home: nothing of the trip is hidden as home")
    func hotelWithResetClock() throws {
        // Six nights in Lisbon, and one photo at the hotel dated 25 years before (2000-01-01).
        let lisbon = Plan.away(trip: 1, region: Self.lisbon)
        let gap = LocalDate.dayNumber("2025-05-10")! - LocalDate.dayNumber("2000-01-02")!
        let plans: [Plan] = [lisbon] + Array(repeating: .nothing, count: gap) + Array(repeating: lisbon, count: 6)
        var trip = Self.trip(from: "2000-01-01", plans)
        for index in trip.days.indices where !trip.days[index].visits.isEmpty {
            let last = trip.days[index].visits.count - 1
            trip.days[index].visits[last].latitude = Self.lisbon.latitude
            trip.days[index].visits[last].longitude = Self.lisbon.longitude
        }
        let library = TripSplitting.split(trip)
        #expect(library.home == nil && library.homes.isEmpty && library.homeDays == 0)
        // Every day with a visit is in a trip: the odd photo's, and the stay's six.
        #expect(library.trips.map(\.firstDay) == ["2000-01-01", "2025-05-10"])
        #expect(library.trips.map { $0.trip.days.count } == [1, 6])
        // Its nights span 25 years, but only with that one night (or two): without, five days.
        #expect(TripSplitting.span(ofNights: [0, 9261, 9262, 9263, 9264, 9265, 9266]) == 5)
        #expect(TripSplitting.span(ofNights: [0, 1, 9261, 9262, 9263, 9264, 9265, 9266]) == 5)
        #expect(TripSplitting.span(ofNights: [9261, 9262, 9263, 9264, 9265, 9266, 20000]) == 5)
        // A home's few nights keep their span: bunched at Christmas with one in June, two
        // nights a year and more apart, or a year of nights after one long before.
        #expect(TripSplitting.span(ofNights: [0, 1, 174]) == 174)
        #expect(TripSplitting.span(ofNights: [0, 400]) == 400)
        #expect(TripSplitting.span(ofNights: [0, 800, 830, 900]) == 100)
        // A home photographed about once a year keeps its years.
        #expect(TripSplitting.span(ofNights: [0, 400, 401, 402, 800, 801, 802, 803]) == 403)
        #expect(TripSplitting.span(ofNights: [0, 366, 732, 1098, 1099]) == 733)
        #expect(TripSplitting.span(ofNights: [0, 400, 800, 1200, 1210]) == 810)
        #expect(TripSplitting.span(ofNights: [0, 1, 2, 3, 400, 401, 402, 403, 404, 405]) == 405)
    }

    @Test("a home photographed on Christmas Eve, Christmas Day and one June evening is home")
    func bunchedHomeNights() throws {
        // Lisbon and Rome a week each; home's nights: 24 and 25 December, 15 June.
        var plans: [Plan] = [.home, .home] + Array(repeating: .nothing, count: 30) + Array(repeating: .away(trip: 1, region: Self.lisbon), count: 7)
        plans += Array(repeating: .nothing, count: 60) + Array(repeating: .away(trip: 2, region: Self.kyoto), count: 7)
        plans += Array(repeating: .nothing, count: 174 - plans.count) + [.home]
        let library = TripSplitting.split(Self.trip(from: "2023-12-24", plans))
        let home = try #require(library.home)
        #expect(GreatCircle.distance(home.centre, Self.amsterdam) < 1, "\(home.centre)")
        #expect(library.homeDays == 3 && library.trips.count == 2)
        // Said, as a hotel stayed at twice would be: it looks like one, and is never acted on.
        #expect(library.homeStretches == [Library.DaySpan(first: "2023-12-24", last: "2023-12-25", days: 2), Library.DaySpan(first: "2024-06-15", last: "2024-06-15")])
        #expect(library.homeLooksLikeAStay())
    }

    @Test("a hotel stayed at twice months apart, in a folder of trips alone, is found as home and said as looking like a stay")
    func hotelTwice() throws {
        // Lisbon twice, 120 days apart, each night at the same hotel; Kyoto between.
        let lisbon = Plan.away(trip: 1, region: Self.lisbon), kyoto = Plan.away(trip: 2, region: Self.kyoto)
        let plans: [Plan] = Array(repeating: lisbon, count: 4) + Array(repeating: .nothing, count: 50) + Array(repeating: kyoto, count: 5)
            + Array(repeating: .nothing, count: 60) + Array(repeating: lisbon, count: 4)
        let trip = Self.sleeping(at: Self.lisbon, Self.trip(from: "2024-03-01", plans))
        let library = TripSplitting.split(trip)
        let home = try #require(library.home)
        #expect(GreatCircle.distance(home.centre, Self.lisbon) < 1 && library.homeDays == 8 && library.trips.count == 1)
        #expect(library.homeStretches.count == 2 && library.homeLooksLikeAStay())
        // Given as home elsewhere: nothing to say.
        #expect(!TripSplitting.split(trip, givenHome: Self.amsterdam).homeLooksLikeAStay())
    }

    @Test("a home photographed on a few nights over months is home, though a trip's hotel holds more nights")
    func sparseHomeOverHotel() throws {
        // Home: 10 nights over 150 days; the Kyoto trip: 12 nights in one spot.
        let kyoto = Plan.away(trip: 1, region: Self.kyoto)
        var plans: [Plan] = []
        for _ in 0..<5 { plans += [.home] + Array(repeating: .nothing, count: 14) + [.home] + Array(repeating: .nothing, count: 14) }
        plans += Array(repeating: kyoto, count: 12)
        // The Kyoto nights in one spot (a hotel): the region's random spots, then each night's last visit moved there.
        let trip = Self.sleeping(at: Self.kyoto, Self.trip(from: "2023-01-01", plans))
        let library = TripSplitting.split(trip)
        let home = try #require(library.home)
        #expect(GreatCircle.distance(home.centre, Self.amsterdam) < 1, "\(home.centre)")
        #expect(library.trips.count == 1 && library.trips[0].trip.days.count == 12)
        #expect(library.homeStretches.count == 10 && !library.homeLooksLikeAStay())
        // Any span (as a folder that shrank to one trip finds its library's home): the hotel.
        var anySpan = TripSplitting.Rules()
        anySpan.homeSpanDays = nil
        let hotel = try #require(TripSplitting.home(trip.days, rules: anySpan))
        #expect(GreatCircle.distance(hotel.centre, Self.kyoto) < 1, "\(hotel.centre)")
    }

    /// The date `offset` days after 2020-01-01.
    static func date(_ offset: Int) -> String {
        let civil = Date.civilDate(daysSince1970: LocalDate.dayNumber("2020-01-01")! + offset)
        return String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
    }

    @Test("home by the grid is the night that every pair of nights, compared, makes home; ties go to the earliest")
    func homeByGridIsHomeByPairs() throws {
        var generator = SplitMix(seed: 77)
        // Nights in clusters a few tens of km wide (cells' edges crossed), scattered nights,
        // nights near the poles and on the antimeridian, and two clusters of equal size (a tie).
        let centres = [Self.amsterdam, Self.lisbon, Self.kyoto, Self.taveuni, Coordinate(latitude: 89.9, longitude: 10),
                       Coordinate(latitude: -33.9, longitude: 18.4), Coordinate(latitude: -33.9, longitude: 18.9)]
        for round in 0..<40 {
            var nights: [Coordinate] = []
            for _ in 0..<Int.random(in: 20...300, using: &generator) {
                if Double.random(in: 0...1, using: &generator) < 0.2 {
                    nights.append(Coordinate(latitude: .random(in: -90...90, using: &generator), longitude: .random(in: -180...180, using: &generator)))
                } else {
                    let centre = centres[Int.random(in: 0..<centres.count, using: &generator)]
                    let longitude = centre.longitude + .random(in: -0.6...0.6, using: &generator)
                    nights.append(Coordinate(latitude: min(90, centre.latitude + .random(in: -0.4...0.4, using: &generator)),
                                             longitude: longitude > 180 ? longitude - 360 : longitude))
                }
            }
            let days = nights.enumerated().map { index, night in
                let date = Self.date(index)
                return Trip.Day(date: date, visits: [TripVisit(id: "v\(index)", placeId: "p\(index % 7)", revision: 1, latitude: night.latitude,
                                                               longitude: night.longitude, radiusMeters: 20, arrival: "", departure: "",
                                                               localDate: date, photoCount: 1, photos: [])],
                                unplacedPhotos: [])
            }
            // The rule as first written: every night against every night.
            let vectors = nights.map { GreatCircle.unitVector($0) }
            let limit = GreatCircle.chord(metres: TripSplitting.Rules().awayMetres)
            var best = 0, bestCount = -1
            for (i, v) in vectors.enumerated() {
                let count = vectors.filter { w in let d = w - v; return (d * d).sum() <= limit * limit }.count
                if count > bestCount { (best, bestCount) = (i, count) }
            }
            var byPlace: [String: (count: Int, sum: SIMD3<Double>, first: Int)] = [:]
            for (index, v) in vectors.enumerated() where { let d = v - vectors[best]; return (d * d).sum() <= limit * limit }() {
                let entry = byPlace["p\(index % 7)"] ?? (0, .zero, index)
                byPlace["p\(index % 7)"] = (entry.count + 1, entry.sum + v, entry.first)
            }
            let spot = byPlace.values.max { ($0.count, -$0.first) < ($1.count, -$1.first) }!
            let expected = VisitClustering.coordinate(of: spot.sum / Double(spot.count))
            // Any span (the nights here are a few months at most): the grid is what is compared.
            var anySpan = TripSplitting.Rules()
            anySpan.homeSpanDays = nil
            #expect(TripSplitting.home(days, rules: anySpan)?.centre == expected, "round \(round)")
        }
        // A limit too small for cells (zero) compares every pair: a night is near itself only,
        // so home is the first night's spot.
        var zero = TripSplitting.Rules()
        zero.awayMetres = 0
        zero.homeSpanDays = nil
        let days = [Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: -10, longitude: -20)].enumerated().map { index, night in
            Trip.Day(date: Self.date(index), visits: [TripVisit(id: "v\(index)", placeId: "p\(index)", revision: 1, latitude: night.latitude,
                                                                longitude: night.longitude, radiusMeters: 20, arrival: "", departure: "",
                                                                localDate: Self.date(index), photoCount: 1, photos: [])],
                     unplacedPhotos: [])
        }
        let home = try #require(TripSplitting.home(days, rules: zero))
        #expect(abs(home.centre.latitude - 10) < 1e-9 && abs(home.centre.longitude - 20) < 1e-9)
    }

    @Test("trips across the antimeridian and a home found from nights alone")
    func antimeridian() {
        let fiji = Plan.away(trip: 1, region: Self.taveuni)
        let plans: [Plan] = Array(repeating: .home, count: 50) + Array(repeating: fiji, count: 6) + Array(repeating: .home, count: 20)
        let trip = Self.trip(from: "2022-06-01", plans)
        // The schedule's visits do straddle 180°.
        #expect(trip.visits.contains { $0.longitude < -179 } && trip.visits.contains { $0.longitude > 179 })
        let library = TripSplitting.split(trip)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == [["2022-07-21", "2022-07-26"]])
        #expect(library.trips.first?.trip.visits.map(\.id) == trip.visits.filter { abs($0.longitude) > 170 }.map(\.id))
    }

    @Test("a trip's part of the whole has only its days, visits and places, places in order of first visit")
    func tripPart() {
        let trip = Self.trip(from: "2024-03-01", Self.quarter)
        let part = trip.days(from: "2024-03-21", through: "2024-03-25")
        #expect(part.days.map(\.date) == ["2024-03-21", "2024-03-22", "2024-03-23", "2024-03-24", "2024-03-25"])
        let visitIDs = Set(part.visits.map(\.id))
        #expect(part.places.allSatisfy { $0.visitIDs.allSatisfy(visitIDs.contains) })
        #expect(Set(part.places.flatMap(\.visitIDs)) == visitIDs)
        #expect(part.places.map(\.id) == part.visits.map(\.placeId).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
        #expect(part.undatedPhotos.isEmpty)
    }

    /// Years of a life at home in `city` (`livingIn`, or Amsterdam's `home`), with a trip of
    /// `length` days to `region` every `every` days, trips numbered from `trip`.
    static func years(_ days: Int, at home: Plan, trips region: Coordinate, every: Int = 45, length: Int = 6, from trip: Int) -> [Plan] {
        (0..<days).map { day in
            let cycle = day % every
            return cycle >= every - length ? .away(trip: trip + day / every, region: region) : home
        }
    }

    @Test("a person who moved has a home for each stretch of years: days at the new home are home days, and a visit back to the old city is a trip")
    func movedHouse() {
        // Two years in Amsterdam with trips to Kyoto, then two in Lisbon with trips back to Amsterdam.
        let before = Self.years(730, at: .home, trips: Self.kyoto, from: 1)
        let after = Self.years(730, at: .livingIn(Self.lisbon), trips: Self.amsterdam, from: 100)
        let plans = before + after
        let library = TripSplitting.split(Self.trip(from: "2020-01-01", plans))
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2020-01-01", plans).map { [$0.0, $0.1] })
        #expect(library.homes.count == 2)
        guard library.homes.count == 2 else { return }
        #expect(GreatCircle.distance(library.homes[0].centre, Self.amsterdam) < 1)
        #expect(GreatCircle.distance(library.homes[1].centre, Self.lisbon) < 1)
        // The move: the first night in Lisbon (day 730 of the schedule) begins the new home.
        #expect(library.homes[0].from == nil && library.homes[0].through == "2021-12-30")
        #expect(library.homes[1].from == "2021-12-31" && library.homes[1].through == nil)
        #expect(library.homeDays == plans.filter { if case .away = $0 { false } else { true } }.count)
        // Both houses are kept private.
        let zones = ExportSettings().privacy(for: library).zones.map(\.centre)
        #expect(zones.contains { GreatCircle.distance($0, Self.amsterdam) < 1 } && zones.contains { GreatCircle.distance($0, Self.lisbon) < 1 })
    }

    @Test("a summer house visited every year and a season abroad are trips, not homes")
    func summerHouseAndSeasonAbroad() {
        // Six years at home with three weeks a year at a house near Lisbon (126 nights there in
        // all), then four months in Kyoto, then a year at home.
        let summers = Self.years(6 * 365, at: .home, trips: Self.lisbon, every: 365, length: 21, from: 1)
        let season = Array(repeating: Plan.away(trip: 7, region: Self.kyoto), count: 120)
        let plans = summers + Array(repeating: .home, count: 30) + season + Array(repeating: .home, count: 365)
        let library = TripSplitting.split(Self.trip(from: "2015-01-01", plans))
        #expect(library.homes.count == 1)
        #expect(library.homes.first.map { GreatCircle.distance($0.centre, Self.amsterdam) < 1 } == true)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2015-01-01", plans).map { [$0.0, $0.1] })
    }

    @Test("every home the folder has had stays private, a home's spot that moved a little replaces its old one, and no trip is named after a home")
    func keptHomesAndNames() throws {
        // A library now one trip, with two homes kept: both are zones.
        let zones = ExportSettings().privacy(for: Library(), keptHomes: [Self.amsterdam, Self.lisbon]).zones.map(\.centre)
        #expect(zones == [Self.amsterdam, Self.lisbon])
        // A kept home and its spot found again 100 m off: both zones (the kept one's edge is not
        // published); 10 m off (a night added): the zone stays as kept, so no trip's outputs
        // change with it.
        let moved = Coordinate(latitude: Self.amsterdam.latitude + 0.0009, longitude: Self.amsterdam.longitude)
        #expect(ExportSettings.merged([Self.amsterdam], [moved]) == [Self.amsterdam, moved])
        #expect(ExportSettings.merged([Self.amsterdam], [moved, Self.kyoto]) == [Self.amsterdam, moved, Self.kyoto])
        let nudged = Coordinate(latitude: Self.amsterdam.latitude + 0.00009, longitude: Self.amsterdam.longitude)
        #expect(ExportSettings.merged([Self.amsterdam], [nudged]) == [Self.amsterdam])
        #expect(ExportSettings().privacy(for: TripSplitting.split(Self.trip(from: "2024-03-01", Self.quarter)), keptHomes: [nudged])
            .zones.map(\.centre) == [nudged])
        #expect(ExportSettings().privacy(for: Library(), keptHomes: [Self.amsterdam]).zones.count == 1)
        var shown = ExportSettings()
        shown.hideHome = false
        #expect(shown.privacy(for: Library(), keptHomes: [Self.amsterdam]).zones.isEmpty)

        // An older geotrip kept one home, not a list: it is read as one.
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let catalog = try Catalog.open(at: temp.url.appendingPathComponent("c.sqlite").path)
        try catalog.setJSONSetting(Catalog.SettingKey.keptHome, to: Self.lisbon, what: "a home")
        #expect(try catalog.keptHomes() == [Self.lisbon])
        try catalog.keepHomes([Self.lisbon, Self.kyoto])
        #expect(try catalog.keptHomes() == [Self.lisbon, Self.kyoto])
        // A hand-edited one is not taken for none: it is said, not written over.
        try catalog.setSetting(Catalog.SettingKey.keptHome, to: "somewhere")
        #expect(throws: GeoTripError.self) { try catalog.keptHomes() }

        // A trip leaving from home, named: its places, not home's.
        let plans: [Plan] = Array(repeating: .home, count: 40) + Array(repeating: .away(trip: 1, region: Self.lisbon), count: 4)
            + Array(repeating: .home, count: 30)
        var trip = Self.trip(from: "2023-01-01", plans)
        // The trip's first day begins at the house (a named place), then Lisbon.
        let first = trip.days.firstIndex { $0.date == "2023-02-10" }!
        trip.days[first].visits[0].latitude = Self.amsterdam.latitude
        trip.days[first].visits[0].longitude = Self.amsterdam.longitude
        trip.days[first].visits[0].name = "Our flat"
        trip.days[first].visits[0].countryCode = "NL"
        trip.days[first].visits[1].countryCode = "PT"
        let library = TripSplitting.split(trip)
        let part = try #require(library.trips.first?.trip)
        #expect(part.mainPlaceNames(limit: 10).contains("Our flat"))
        let privacy = ExportSettings().privacy(for: library)
        #expect(!part.mainPlaceNames(limit: 10, leavingOut: privacy).contains("Our flat"))
        // Nor does home lend it a country, a visit or a place, as on its map.
        #expect(part.countries(leavingOut: PrivacyZones()) == ["NL", "PT"] && part.countries(leavingOut: privacy) == ["PT"])
        let all = part.visitsAndPlaces(leavingOut: PrivacyZones()), outside = part.visitsAndPlaces(leavingOut: privacy)
        #expect(all.visits == part.visits.count && outside.visits == all.visits - 1 && outside.places == all.places - 1)
    }

    @Test("a home photographed on few nights keeps its place against six weeks somewhere else")
    func sparseHomeAndOneLongStay() {
        // Ten years, a photographed night at home about every 24 days (151 in all), and six
        // weeks in Florence in the fifth year: more nights there within a year than at home,
        // but a trip, not a home.
        let florence = Coordinate(latitude: 43.7696, longitude: 11.2558)
        var plans = (0..<3650).map { day -> Plan in day % 24 == 0 ? .home : .nothing }
        for day in 1500..<1542 { plans[day] = .away(trip: 1, region: florence) }
        let library = TripSplitting.split(Self.trip(from: "2015-01-01", plans))
        #expect(library.homes.count == 1)
        #expect(library.homes.first.map { GreatCircle.distance($0.centre, Self.amsterdam) < 1 } == true)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2015-01-01", plans).map { [$0.0, $0.1] })
    }

    @Test("after a move within the city, one home for trips, and the new flat kept private too")
    func moveWithinTheCity() {
        // A year at the house in Amsterdam, then a year at a flat 3 km away, with trips.
        let flat = Coordinate(latitude: Self.amsterdam.latitude + 0.027, longitude: Self.amsterdam.longitude)
        let plans = Self.years(400, at: .home, trips: Self.lisbon, from: 1) + Self.years(330, at: .livingIn(flat), trips: Self.kyoto, from: 50)
        let library = TripSplitting.split(Self.trip(from: "2022-01-01", plans))
        #expect(library.homes.count == 1)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2022-01-01", plans).map { [$0.0, $0.1] })
        let home = library.homes.first
        #expect(home.map { GreatCircle.distance($0.centre, Self.amsterdam) < 1 } == true)
        #expect(home?.otherSpots.count == 1)
        #expect(home?.otherSpots.contains { GreatCircle.distance($0, flat) < 1 } == true, "\(String(describing: home))")
        // The first day of a trip from the new flat begins there: hidden, as the house is.
        let privacy = ExportSettings().privacy(for: library)
        #expect(privacy.contains(flat) && privacy.contains(Self.amsterdam))
        // Kept as every home is: a later library without those nights still hides it.
        let later = TripSplitting.split(Self.trip(from: "2022-01-01", Array(plans.prefix(400))))
        #expect(!ExportSettings().privacy(for: later).contains(flat))
        #expect(ExportSettings().privacy(for: later, keptHomes: ExportSettings.merged([], library.homes.flatMap(\.privateSpots))).contains(flat))
    }

    @Test("a house photographed each morning, before an office each afternoon, is kept private though the office holds the nights")
    func houseByDayOfficeByNight() {
        let office = Coordinate(latitude: Self.amsterdam.latitude + 0.01, longitude: Self.amsterdam.longitude + 0.025)
        let plans = Self.years(400, at: .houseThenOffice(office), trips: Self.lisbon, from: 1)
        let library = TripSplitting.split(Self.trip(from: "2022-01-01", plans))
        #expect(library.homes.count == 1)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2022-01-01", plans).map { [$0.0, $0.1] })
        // The office is home (the nights), and the house, at which every home day was spent, is private too.
        #expect(library.homes.first.map { GreatCircle.distance($0.centre, office) < 1 } == true)
        let privacy = ExportSettings().privacy(for: library)
        #expect(privacy.contains(office) && privacy.contains(Self.amsterdam))
        // And with the office given as home.
        let given = TripSplitting.split(Self.trip(from: "2022-01-01", plans), givenHome: office)
        #expect(ExportSettings().privacy(for: given).contains(Self.amsterdam))
    }

    @Test("a shop near home photographed on 30 or more days of a year is private as home is; a museum a dozen days a year is not")
    func placesOfDailyLife() {
        let shop = Coordinate(latitude: Self.amsterdam.latitude + 0.012, longitude: Self.amsterdam.longitude - 0.02)
        let museum = Coordinate(latitude: Self.amsterdam.latitude - 0.015, longitude: Self.amsterdam.longitude + 0.03)
        // A year: the shop on every fourth home day (about 80), the museum on every 25th (about 13).
        var plans = Self.years(365, at: .home, trips: Self.lisbon, from: 1)
        for day in plans.indices {
            guard case .home = plans[day] else { continue }
            if day % 4 == 1 { plans[day] = .errandThenHome(shop) } else if day % 25 == 3 { plans[day] = .errandThenHome(museum) }
        }
        let library = TripSplitting.split(Self.trip(from: "2023-01-01", plans))
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2023-01-01", plans).map { [$0.0, $0.1] })
        let privacy = ExportSettings().privacy(for: library)
        #expect(privacy.contains(shop) && !privacy.contains(museum))
    }

    @Test("a partner's flat slept at one night in five is kept private; a friend's sofa a dozen nights a year is not")
    func nightsElsewhereNearHome() {
        let partner = Coordinate(latitude: Self.amsterdam.latitude - 0.02, longitude: Self.amsterdam.longitude + 0.03)
        let sofa = Coordinate(latitude: Self.amsterdam.latitude + 0.015, longitude: Self.amsterdam.longitude - 0.04)
        // Three years: at the house most nights, at the partner's every fifth (about 60 a year
        // outside trips), on the sofa every 25th (about 13 a year: over 30 only in three years).
        var plans = Self.years(1095, at: .home, trips: Self.kyoto, from: 1)
        for day in plans.indices {
            guard case .home = plans[day] else { continue }
            if day % 5 == 2 { plans[day] = .livingIn(partner) } else if day % 25 == 11 { plans[day] = .livingIn(sofa) }
        }
        let library = TripSplitting.split(Self.trip(from: "2021-01-01", plans))
        #expect(library.homes.count == 1)
        #expect(library.trips.map { [$0.firstDay, $0.lastDay] } == Self.expected(from: "2021-01-01", plans).map { [$0.0, $0.1] })
        #expect(library.homes.first.map { GreatCircle.distance($0.centre, Self.amsterdam) < 1 } == true)
        let sofaNights = plans.filter { if case .livingIn(let spot) = $0 { spot == sofa } else { false } }.count
        #expect(sofaNights >= 30 && sofaNights < 45)
        let privacy = ExportSettings().privacy(for: library)
        #expect(privacy.contains(partner))
        #expect(!privacy.contains(sofa))
        #expect(library.homes.first?.otherSpots.count == 1)
        // With home given (`--home`), the same: the partner's is private, the sofa is not.
        let given = TripSplitting.split(Self.trip(from: "2021-01-01", plans), givenHome: Self.amsterdam)
        #expect(given.homes.count == 1 && given.homes.first?.given == true)
        let givenPrivacy = ExportSettings().privacy(for: given)
        #expect(givenPrivacy.contains(partner) && givenPrivacy.contains(Self.amsterdam) && !givenPrivacy.contains(sofa))
    }
}
