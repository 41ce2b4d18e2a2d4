import ArgumentParser
import Foundation
import GeoTripCore

struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the trip's visits in time order, with their place, times, photos and name.",
        discussion: """
            Times are local: each visit's arrival and departure on the clock of its zone, named as \
            tzdata names it (WEST, CEST, JST) or by its offset. Visits are grouped by the traveller's \
            day, which runs from 04:00 to 04:00 local time by default (ingest --day-starts HH:MM), so \
            the photos of a night out that ends at 01:30 stay with the evening it began; a visit \
            stays on the day of its arrival. A photo's day is its resolved time in its resolved \
            zone, or the camera's own clock when no time could be resolved.

            Place names: GeoNames (geonames.org), CC BY 4.0.
            """)

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print a JSON array, one object per visit.")
    var json = false

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        let visits: [TripVisit]
        let outside: [(path: String, localDate: String?)]
        let catalog = try location.existingCatalog()
        do {
            visits = try catalog.visits()
            outside = try catalog.photosOutsideVisits(rule: try catalog.storedClusteringOptions().dayRule)
        } catch {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(visits)
            return
        }
        // Each day's visits, then the day's photos that have no position (they stay in the
        // day's timeline); photos without any date come last.
        let days = Set(visits.map(\.localDate)).union(outside.compactMap(\.localDate)).sorted()
        for day in days {
            print(day)
            for visit in visits where visit.localDate == day {
                let name = [visit.name, visit.countryCode].compactMap { $0 }.joined(separator: ", ")
                print("  \(Self.timeSpan(visit))  \(name.isEmpty ? "?" : name)"
                      + "  (\(visit.photoCount) photo\(visit.photoCount == 1 ? "" : "s"), \(visit.id), place \(visit.placeId))")
            }
            let unplaced = outside.filter { $0.localDate == day }.map(\.path.terminalSafe)
            if !unplaced.isEmpty { print("  without a position: \(unplaced.joined(separator: ", "))") }
        }
        let undated = outside.filter { $0.localDate == nil }.map(\.path.terminalSafe)
        if !undated.isEmpty { print("No date or position: \(undated.joined(separator: ", "))") }
    }

    /// `09:05–09:21 WEST`: the visit's times on the clock of its zone, named as tzdata names it
    /// (or `+04`, or the offset); in UTC only when no zone is known.
    static func timeSpan(_ visit: TripVisit) -> String {
        guard let zone = visit.timeZone, let arrival = visit.localArrival, let departure = visit.localDeparture,
              let instant = UTCTimestamp.date(visit.arrival)
        else { return "\(visit.arrival.dropFirst(11).prefix(5))–\(visit.departure.dropFirst(11).prefix(5)) UTC" }
        // A visit past midnight shows the day it ended on.
        let nextDay = departure.prefix(10) != arrival.prefix(10) ? " (\(departure.dropFirst(5).prefix(5)))" : ""
        return "\(arrival.dropFirst(11).prefix(5))–\(departure.dropFirst(11).prefix(5))\(nextDay) \(LocalClock.abbreviation(zone, at: instant))"
    }
}
