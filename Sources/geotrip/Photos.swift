import ArgumentParser
import Foundation
import GeoTripCore

struct Photos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the photos in the catalog with their position, times and camera.")

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print a JSON array, one object per photo.")
    var json = false

    @Flag(help: "List the folder's other files, those that are no photo geotrip reads, each with why, in place of the photos.")
    var skipped = false

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        let catalog = try location.existingCatalog()
        // Printed as the rows are read: a library of a million photos is never held at once.
        do {
            if skipped {
                if json {
                    var stream = JSONArrayStream { FileHandle.standardOutput.write($0) }
                    try catalog.forEachSkippedFile { try stream.append($0) }
                    stream.finish()
                } else {
                    try catalog.forEachSkippedFile { print("\($0.path.terminalSafe): \(($0.reason ?? "not a photo geotrip reads").terminalSafe)") }
                }
            } else if json {
                var stream = JSONArrayStream { FileHandle.standardOutput.write($0) }
                // A capture time resolution refused is said with the photo's own sentences.
                var implausible = try catalog.implausibleTimes()
                try catalog.forEachPhoto { photo in
                    var photo = photo
                    if let sentence = implausible.sentence(for: photo) { photo.diagnostics.append(sentence) }
                    try stream.append(photo)
                }
                stream.finish()
            } else {
                print(Self.header)
                try catalog.forEachPhoto { print(Self.line($0)) }
            }
        } catch {
            throw Diagnostics.fail(error)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }

    /// The table's first line.
    static let header = pad("LATITUDE", 10) + " " + pad("LONGITUDE", 11) + "  " + pad("FROM", 12) + "  " + pad("CAMERA TIME", 30) + "  "
        + pad("CAMERA", 18) + "  PATH"

    /// A photo's line of the table: position, camera time and offset, camera, path (and for a
    /// video, its length and the still of a Live Photo).
    static func line(_ photo: CatalogPhoto) -> String {
        let position = photo.coordinate.map { String(format: "%10.5f %11.5f", $0.latitude, $0.longitude) }
            ?? pad(pad("", 9) + "-", 10) + " " + pad("", 10) + "-"
        let time = (photo.localTime?.iso8601 ?? "-") + (photo.offset.map { " " + $0.description } ?? "")
        let camera = photo.status == .unreadable ? "(unreadable)" : photo.camera?.terminalSafe ?? "-"
        let source = photo.locationSource?.rawValue ?? "-"
        return "\(position)  \(pad(source, 12))  \(pad(time, 30))  \(pad(camera, 18))  \(photo.path.terminalSafe)" + videoNote(photo)
    }

    /// `  (video, 12.4 s)`, `  (video, Live Photo of IMG_0001.HEIC)`, or "" for a photo.
    static func videoNote(_ photo: CatalogPhoto) -> String {
        guard photo.format == .video else { return "" }
        var words = ["video"]
        if let seconds = photo.durationSeconds, seconds.isFinite { words.append(String(format: "%.1f s", seconds)) }
        if let still = photo.livePhotoStill { words.append("Live Photo of \(still.split(separator: "/").last.map(String.init)?.terminalSafe ?? "")") }
        return "  (" + words.joined(separator: ", ") + ")"
    }
}
