import ArgumentParser
import Foundation
import GeoTripCore

struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the trip's visits in time order, with their place, times, photos and name.",
        discussion: "Place names: GeoNames (geonames.org), CC BY 4.0.")

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
            outside = try catalog.photosOutsideVisits()
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
                print("  \(visit.arrival.dropFirst(11).prefix(5))–\(visit.departure.dropFirst(11).prefix(5)) UTC  \(name.isEmpty ? "?" : name)"
                      + "  (\(visit.photoCount) photo\(visit.photoCount == 1 ? "" : "s"), \(visit.id), place \(visit.placeId))")
            }
            let unplaced = outside.filter { $0.localDate == day }.map(\.path.terminalSafe)
            if !unplaced.isEmpty { print("  without a position: \(unplaced.joined(separator: ", "))") }
        }
        let undated = outside.filter { $0.localDate == nil }.map(\.path.terminalSafe)
        if !undated.isEmpty { print("No date or position: \(undated.joined(separator: ", "))") }
    }
}
