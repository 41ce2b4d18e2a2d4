import ArgumentParser
import Foundation
import GeoTripCore

struct Photos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the photos in the catalog with their position, times and camera.")

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print a JSON array, one object per photo.")
    var json = false

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        guard FileManager.default.fileExists(atPath: location.catalogPath) else {
            throw Diagnostics.fail(.catalogMissing(path: location.catalogPath, folder: location.folderPath))
        }
        let photos: [CatalogPhoto]
        do {
            photos = try Catalog.open(at: location.catalogPath).photos()
        } catch let error as GeoTripError {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(photos)
        } else {
            for photo in photos {
                let position = photo.coordinate.map { String(format: "%10.5f %11.5f", $0.latitude, $0.longitude) }
                    ?? String(repeating: " ", count: 9) + "-" + String(repeating: " ", count: 11) + "-"
                let time = (photo.localTime?.iso8601 ?? "-") + (photo.offset.map { " " + $0.description } ?? "")
                print("\(position)  \(time.padding(toLength: 30, withPad: " ", startingAt: 0))  \(photo.path)")
            }
        }
    }
}
