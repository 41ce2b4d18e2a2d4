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
        do {
            try FolderScanner(root: location.folderPath).checkRoot()
            guard FileManager.default.fileExists(atPath: location.catalogPath) else {
                throw GeoTripError.catalogMissing(path: location.catalogPath, folder: location.folderPath)
            }
            visits = try Catalog.open(at: location.catalogPath).visits()
        } catch let error as GeoTripError {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(visits)
            return
        }
        var day = ""
        for visit in visits {
            if visit.localDate != day {
                day = visit.localDate
                print(day)
            }
            let name = [visit.name, visit.countryCode].compactMap { $0 }.joined(separator: ", ")
            print("  \(visit.arrival.dropFirst(11).prefix(5))–\(visit.departure.dropFirst(11).prefix(5)) UTC  \(name.isEmpty ? "?" : name)"
                  + "  (\(visit.photoCount) photo\(visit.photoCount == 1 ? "" : "s"), \(visit.id), place \(visit.placeId))")
        }
    }
}
