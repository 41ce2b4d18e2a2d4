import ArgumentParser
import Foundation
import GeoTripCore

struct Trips: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the trips of a folder of many trips, with their dates, places, countries, photos and distance.",
        discussion: """
            A folder is a library of trips when its photos span more than 60 days or when \
            ingest --home was given; a shorter folder is one trip. Home is where most nights are \
            spent (a day's night is where its last visit is), or --home. A trip is a run of days \
            with a visit farther than 50 km from home, going on across at most 2 days without a \
            placed photo and ending at a day spent at home. Each trip is exported to its own \
            folder under the output folder's trips/, and `places --trip N` lists its visits.

            Place names: GeoNames (geonames.org), CC BY 4.0.
            """)

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print a JSON array, one object per trip (empty for a folder that is one trip).")
    var json = false

    /// One trip as `--json` gives it.
    struct Line: Encodable {
        var number: Int
        var firstDay: String
        var lastDay: String
        var days: Int
        var places: [String]
        var countries: [String]
        var visits: Int
        /// Photos and videos apart, counted as the page of trips counts them.
        var photos: Int
        var videos: Int
        var distanceKilometres: Double
        var folder: String
    }

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        let catalog = try location.existingCatalog()
        let library: Library, homeGiven: Bool, zones: PrivacyZones, privacy: [PrivacyZones], earlier: [Coordinate], hidingHome: Bool
        let distances: [Double]
        let media: [MediaCount]
        do {
            let split = try catalog.library(photoPaths: false)  // counts, not paths
            let settings = try catalog.storedExportSettings()
            (homeGiven, hidingHome) = (settings.home != nil, settings.hideHome)
            // Each trip by its own zones, as the export shares it.
            (library, zones, privacy) = try catalog.sharedLibrary(split.library, of: split.trip)
            earlier = try catalog.earlierHomes(than: library)
            distances = try catalog.distances(of: library, outside: privacy)
            media = try zip(library.trips, privacy).map { trip, privacy throws(GeoTripError) in try catalog.mediaCount(of: trip.trip, leavingOut: privacy) }
        } catch {
            throw Diagnostics.fail(error)
        }
        // Named, counted and measured as the page of trips and the maps do: not after a home or
        // another private place, without its country or visits, and without the legs to and
        // from one (along a track log where the map follows one).
        let lines = zip(zip(library.trips, privacy), zip(distances, media)).map { tripAndZones, figures in
            let (trip, privacy) = tripAndZones, (distance, media) = figures
            return Line(number: trip.number, firstDay: trip.firstDay, lastDay: trip.lastDay, days: trip.length,
                 places: trip.trip.mainPlaceNames(leavingOut: privacy), countries: trip.trip.countries(leavingOut: privacy),
                 visits: trip.trip.visitsAndPlaces(leavingOut: privacy).visits,
                 photos: media.photos, videos: media.videos, distanceKilometres: (distance * 10).rounded() / 10, folder: trip.folder)
        }
        if json {
            try Diagnostics.printJSON(lines)
            return
        }
        guard library.isLibrary else {
            print("\(location.folderPath.terminalSafe) is one trip: \(Self.whyOneTrip(homeGiven: homeGiven, homeDays: library.homeDays)). `geotrip places` lists its visits.")
            return
        }
        if library.homes.count > 1 {
            // A person who moved: each home with its stretch of years.
            print("Homes (the place of most nights in each stretch of years; ingest --home LAT,LON sets one for all time), "
                  + "\(library.homeDays.grouped) day\(library.homeDays == 1 ? "" : "s") at home:")
            for home in library.homes {
                let when = home.from.map { "from \($0)" + (home.through.map { " to \($0)" } ?? " on") } ?? home.through.map { "until \($0)" } ?? ""
                print(String(format: "  %.3f, %.3f  ", home.centre.latitude, home.centre.longitude) + when)
            }
        } else if let home = library.home {
            print(String(format: "Home: %.3f, %.3f", home.centre.latitude, home.centre.longitude)
                  + (home.given ? " (--home)" : " (the place of most nights; ingest --home LAT,LON sets it)")
                  + ", \(library.homeDays.grouped) day\(library.homeDays == 1 ? "" : "s") at home")
        } else {
            print("No home found (no place's nights span more than \(TripSplitting.Rules().homeSpanDays ?? 0) days, as in a folder of trips alone): "
                  + "every day with a placed photo is a trip's, and no home is found to keep private; ingest --home LAT,LON sets one")
        }
        // Places near a home where as many days are spent as at a home (a flat moved to in the
        // same city, an office): kept private too, which the person should be able to see.
        let others = library.homes.flatMap(\.otherSpots)
        if !hidingHome {
            print("Homes are shown in the outputs (ingest --no-hide-home); --hide-home keeps them private again.")
        } else if !others.isEmpty {
            print("Also kept private, as places near home at which 30 or more days of a year were spent: "
                  + others.map { String(format: "%.3f, %.3f", $0.latitude, $0.longitude) }.joined(separator: "; "))
        }
        if hidingHome, !earlier.isEmpty {
            print("Kept private as homes of earlier runs, though no home now (`geotrip export --forget-old-homes` stops hiding them): "
                  + earlier.map { String(format: "%.3f, %.3f", $0.latitude, $0.longitude) }.joined(separator: "; "))
        }
        // A home given for all time after years elsewhere turns those years' days into trips to
        // the old town: said, with the way to homes over the years.
        if homeGiven, let (home, count) = library.tripsAround(earlier), count >= 3 {
            print("\(count.grouped) trips are days within 50 km of \(String(format: "%.3f, %.3f", home.latitude, home.longitude)), a home of earlier runs: "
                  + "if you lived there, `geotrip export \(location.folderPath.terminalSafe) --home auto` finds each home over the years, "
                  + "and makes those days days at home again")
        }
        // A home photographed on few nights makes each day there a trip of its own: said, with
        // the way to make it home (which keeps it private, as home).
        if let (spot, count) = library.tripsAtOneSpot(), !zones.contains(spot) {
            let point = String(format: "%.4f,%.4f", spot.latitude, spot.longitude)
            var advice = "\(count.grouped) trips are days at one spot alone, \(point): if that is your home (photographed on few nights, so "
                + "not found as one), `geotrip export \(location.folderPath.terminalSafe) --home \(point)` makes them days at home and keeps it private"
            // The place found as home instead stays private, its days days at home, until forgotten;
            // forgetting is the person's call, since it publishes every home that is not home now.
            if let found = library.home, !found.given {
                advice += String(format: "; %.3f, %.3f, found as home by its nights, then stays private, and its days days at home, until ",
                                 found.centre.latitude, found.centre.longitude)
                    + "`geotrip export \(location.folderPath.terminalSafe) --forget-old-homes`, which stops hiding every home that is not home now"
            }
            print(advice)
        }
        for (line, distance) in zip(lines, distances) {
            var place = line.places.joined(separator: ", ")
            if place.isEmpty {
                // Private places alone (a day at a partner's), or places with no name.
                place = library.trips[line.number - 1].trip.isPrivate(leavingOut: privacy[line.number - 1]) ? "(private places only)" : "?"
            }
            // Rounded once, from the distance itself, as the page of trips and the map round it
            // (the JSON's tenths rounded again made 462.46 km 463 here and 462 there).
            let kilometres = Int(distance.rounded())
            print(String(format: "%4d  ", line.number) + "\(line.firstDay) to \(line.lastDay) (\(line.days) day\(line.days == 1 ? "" : "s"))  "
                  + "\(place.terminalSafe)  " + (line.countries.isEmpty ? "" : "[\(line.countries.joined(separator: ", "))]  ")
                  + "\(MediaCount(photos: line.photos, videos: line.videos).text), \(kilometres.grouped) km  \(line.folder)")
        }
    }

    /// Why a folder that is not a library is one trip: with a home given (`ingest --home`),
    /// one without a dated, placed photo, or whose every such day is a day at home.
    static func whyOneTrip(homeGiven: Bool, homeDays: Int) -> String {
        guard homeGiven else { return whyOneTripFound }
        return homeDays == 0 ? "it has no photo with a date and a position yet"
            : "each of its \(homeDays.grouped) day\(homeDays == 1 ? "" : "s") with a placed photo is a day at home: within 50 km of --home, "
                + "or only at a home kept private from earlier runs (`geotrip export --forget-old-homes` stops hiding those)"
    }

    /// Why a folder without a home given is one trip.
    private static let whyOneTripFound = "its photos span 60 days or fewer and no home is set, "
            + "or no home is found and they have no three days in a row without a placed photo; ingest --home LAT,LON sets one"

    /// Why `--trip N` names no trip.
    static func noTrip(_ number: Int, in library: Library, homeGiven: Bool, folder: String) -> String {
        guard library.isLibrary else {
            return "--trip \(number): \(folder) is one trip, not a library of trips: \(whyOneTrip(homeGiven: homeGiven, homeDays: library.homeDays)). Leave --trip out."
        }
        return "--trip \(number): there is no such trip; the folder has trips 1 to \(library.trips.count) (`geotrip trips` lists them)."
    }
}
