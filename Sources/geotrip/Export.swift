import ArgumentParser
import GeoTripCore

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the trip's journal, trip.geojson, map and thumbnails again from the catalog, without scanning the photos.",
        discussion: """
            Journal files are written only when their content changes. Write your notes between a \
            block's `notes` and `end notes` lines: they survive every run. A file edited elsewhere \
            is kept as a dated backup beside it before it is rewritten.

            Place names: GeoNames (geonames.org), CC BY 4.0; online names © OpenStreetMap contributors, ODbL.
            """)

    @OptionGroup var location: CatalogLocation

    @OptionGroup var export: ExportArguments

    @Option(name: .customLong("lang"), help: ArgumentHelp("Language of place names and of the journal's words, such as en, ko or pt-BR (remembered).",
                                                          valueName: "code"))
    var language: String?

    @Flag(name: .customLong("forget-old-homes"),
          help: "Stop keeping private the places that were home in earlier runs but are not now (a place wrongly taken for home); today's homes stay private. `geotrip trips` lists both.")
    var forgetOldHomes = false

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
        exporter.outputFolder = export.outputFolder(for: location.folderPath)
        exporter.language = language.map(Ingest.canonical(language:))
        exporter.privacy = export.privacy
        exporter.photoPoints = export.photos
        exporter.tiles = export.tileLayer
        exporter.makeThumbnails = export.thumbnails
        exporter.home = export.homePoint
        exporter.hideHome = export.hideHome
        exporter.forgetOldHomes = forgetOldHomes
        let progress: any IngestProgressReporting = TerminalProgress.reporter(quiet: quiet)
        // Ctrl-C stops as it does in `ingest`'s export: no trip is begun after it, the trips
        // written are recorded, and the next `export` writes the rest.
        let run = exporter
        let task = Task { try await run.run(progress: progress) }
        let signals = Diagnostics.cancelOnSignals(task)
        defer { signals.forEach { $0.cancel() } }
        let summary: ExportSummary
        do {
            summary = try await task.value
        } catch GeoTripError.interrupted {
            StandardError.write("geotrip: Interrupted. The catalog is consistent and the trips written so far are kept; run the same command again to write the rest.\n")
            throw ExitCode(ReceivedSignal.shared.exitCode)
        } catch let error as GeoTripError {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(summary)
        } else if !quiet {
            print(SummaryText.exportLines(summary).joined(separator: "\n"))
            if let former = summary.catalogFollowedFrom { print(SummaryText.followed(former, folder: location.folderPath)) }
        }
        // What needs the person's eye (a thumbnail that could not be made, an option not
        // followed), as `tag` says it: the JSON holds them as `problems`.
        if !json {
            for problem in summary.problems { StandardError.write("geotrip: \(problem.path.terminalSafe): \(problem.message.terminalSafe)\n") }
        }
    }
}
