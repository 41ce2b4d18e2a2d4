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

    @Option(parsing: .unconditional, help: ArgumentHelp("Only trip N of a folder of many trips (`geotrip trips` lists them).", valueName: "n"))
    var trip: Int?

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        let catalog = try location.existingCatalog()
        let trip: Trip
        do {
            if let number = self.trip {
                let library = try catalog.library(photoPaths: json).library
                guard let chosen = library.trip(number: number) else {
                    let homeGiven = try catalog.storedExportSettings().home != nil
                    StandardError.write("geotrip: \(Trips.noTrip(number, in: library, homeGiven: homeGiven, folder: location.folderPath))\n")
                    throw ExitCode.validationFailure
                }
                trip = chosen.trip
            } else {
                // The text lists each visit's photo count, not its photos: their paths stay unread.
                trip = try catalog.trip(photoPaths: json)
            }
        } catch let error as GeoTripError {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(trip.visits)
            return
        }
        // A visit's count says its videos apart, as the journal does ("3 photos, 1 video").
        let videos: [String: Int]
        do { videos = try catalog.videoCountsByVisit() } catch { throw Diagnostics.fail(error) }
        // Each day's visits, then the day's photos that have no position (they stay in the
        // day's timeline); photos without any date come last.
        for day in trip.days {
            print(day.date)
            for visit in day.visits {
                let name = [visit.name, visit.countryCode].compactMap { $0 }.joined(separator: ", ")
                // Names come from the gazetteer, a person (`rename`) or a server: never raw on a terminal.
                print("  \(visit.localTimeSpan)  \(name.isEmpty ? "?" : name.terminalSafe)"
                      + "  (\(visit.mediaCount(videos: videos[visit.id] ?? 0)), \(visit.id), place \(visit.placeId))")
            }
            if !day.unplacedPhotos.isEmpty { print("  without a position: \(day.unplacedPhotos.map(\.terminalSafe).joined(separator: ", "))") }
        }
        if !trip.undatedPhotos.isEmpty { print("Without a date: \(trip.undatedPhotos.map(\.terminalSafe).joined(separator: ", "))") }
    }
}
