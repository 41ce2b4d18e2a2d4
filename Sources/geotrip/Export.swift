import ArgumentParser
import GeoTripCore

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the trip's journal and trip.geojson again from the catalog, without scanning the photos.",
        discussion: """
            Journal files are written only when their content changes. Write your notes between a \
            block's `notes` and `end notes` lines: they survive every run. A file edited elsewhere \
            is kept as a dated backup beside it before it is rewritten.

            Place names: GeoNames (geonames.org), CC BY 4.0; online names © OpenStreetMap contributors, ODbL.
            """)

    @OptionGroup var location: CatalogLocation

    @OptionGroup var export: ExportArguments

    @Option(name: .customLong("lang"), help: ArgumentHelp("Language of place names and of the journal's words, such as en or ko (remembered).",
                                                          valueName: "code"))
    var language: String?

    @Flag(help: "Print the summary as one JSON object on standard output.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print no progress and no summary text; errors still go to standard error.")
    var quiet = false

    func validate() throws {
        try export.validate()
        if let language { try Ingest.validate(language: language) }
    }

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        var exporter = TripExport(folder: location.folderPath, catalogPath: location.catalogPath)
        exporter.catalogGiven = location.catalog != nil
        exporter.outputFolder = export.out
        exporter.language = language
        exporter.privacy = export.privacy
        exporter.photoPoints = export.photos
        exporter.tiles = export.tileLayer
        exporter.makeThumbnails = export.thumbnails
        exporter.home = export.homePoint
        exporter.hideHome = export.hideHome
        let progress: any IngestProgressReporting = (!quiet && TerminalProgress.isTerminal) ? TerminalProgress() : SilentProgress()
        let summary: ExportSummary
        do {
            summary = try await exporter.run(progress: progress)
        } catch {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(summary)
        } else if !quiet {
            print(SummaryText.exportLines(summary).joined(separator: "\n"))
        }
    }
}
