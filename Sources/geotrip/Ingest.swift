import ArgumentParser
import Dispatch
import Foundation
import GeoTripCore

struct Ingest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read every photo of a trip folder into the catalog (only new and changed files on reruns).")

    @OptionGroup var location: CatalogLocation

    @Flag(help: "Print the summary as one JSON object on standard output.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print no progress and no summary text; errors still go to standard error.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Log each stage's timing to standard error.")
    var verbose = false

    @Option(help: .hidden)
    var batchSize = 500

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: verbose)
        let options = IngestOptions(folder: location.folderPath, catalogPath: location.catalogPath, batchSize: batchSize)
        let pipeline = IngestPipeline(options: options)
        let progress: any IngestProgressReporting =
            (!quiet && TerminalProgress.isTerminal) ? TerminalProgress() : SilentProgress()

        let task = Task { try await pipeline.run(progress: progress) }
        let interrupts = Diagnostics.cancelOnInterrupt(task)
        defer { interrupts.cancel() }

        let summary: IngestSummary
        do {
            summary = try await task.value
        } catch let error as GeoTripError {
            throw Diagnostics.fail(error)
        }
        if json {
            try Diagnostics.printJSON(summary)
        } else if !quiet {
            print(SummaryText.render(summary, folder: location.folderPath))
        }
    }
}
