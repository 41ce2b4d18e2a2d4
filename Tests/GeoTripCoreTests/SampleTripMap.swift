import Foundation
import GeoTripTestSupport
@testable import GeoTripCore

/// The sample trip's map page as the export stage writes it: a copy of SampleImages ingested
/// (thumbnails made, `index.html` written), one place renamed with a hostile name and a hostile
/// note written into the journal, then exported again. The page's input is rebuilt from the
/// catalog by the stage's own mapping, for the tests to count against.
enum SampleTripMap {
    static let hostileName = "</script><b>x"
    static let hostileNote = "<img src=x onerror=alert(1)>"
    /// Markdown as a person writes it, with links a note may and may not make.
    static let markdownNote = "**Pena** palace, [tickets](https://example.org/t?a=1&b=2)\n- one\n- two\n"
        + "[bad](javascript:document.title='pwned') [worse](<javascript:document.title='pwned'>) <a href=\"javascript:x\">raw</a>"

    /// The page in `folder/trip/geotrip/index.html`, and its input.
    static func render(in folder: TemporaryFolder, language: String = "en") async throws -> (page: URL, input: TripMapInput, html: String) {
        let trip = try folder.copySampleImages()
        var options = IngestOptions(folder: trip.path)
        options.language = language
        _ = try await IngestPipeline(options: options).run(progress: SilentProgress())
        let catalogPath = IngestOptions.defaultCatalogPath(for: trip.path)
        var visits = try Catalog.open(at: catalogPath, access: .readOnly).trip().visits
        _ = try await PlaceRenamer(folder: trip.path, catalogPath: catalogPath).rename(visits[1].placeId, to: hostileName)

        // Notes as a person writes them, in the day's journal file.
        let journal = trip.appendingPathComponent("geotrip/journal/\(visits[0].localDate).md")
        var text = try String(contentsOf: journal, encoding: .utf8)
        for (visit, note) in [(visits[0], "Breakfast by the river.\nThen the tram up the hill."), (visits[1], markdownNote), (visits[2], hostileNote)] {
            let marker = "<!-- notes \(visit.id) -->\n"
            text = text.replacingOccurrences(of: marker, with: marker + note + "\n")
        }
        try text.write(to: journal, atomically: true, encoding: .utf8)
        _ = try await TripExport(folder: trip.path, catalogPath: catalogPath).run()

        let catalog = try Catalog.open(at: catalogPath, access: .readOnly)
        let model = try catalog.trip()
        visits = model.visits
        let input = TripMapInput.from(trip: model, route: TripRoute(visits: visits, track: []), notes: try catalog.journalNotes().mapValues(\.text),
                                      photos: try catalog.tripPhotos(), thumbnails: [:], tripFolderLink: "..", privacy: PrivacyZones(),
                                      language: language, tiles: nil)
        let page = trip.appendingPathComponent("geotrip/index.html")
        return (page, input, try String(contentsOf: page, encoding: .utf8))
    }
}
