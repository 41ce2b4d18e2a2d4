import ArgumentParser
import Foundation
import GeoTripCore

/// The `geotrip` command: argument parsing only. The work is in GeoTripCore.
@main
struct GeoTrip: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geotrip",
        abstract: "Turn a trip's photos into places, a journal and a map.",
        version: GeoTripVersion.current,
        subcommands: [Ingest.self, Export.self, Photos.self, Places.self, Trips.self, Tag.self, Rename.self, Where.self, Find.self]
    )
}

/// The trip folder and where its catalog is, shared by every command.
struct CatalogLocation: ParsableArguments {
    @Argument(help: "The trip's photo folder.", completion: .directory)
    var folder: String

    @Option(help: ArgumentHelp("The catalog file (default: FOLDER/.geotrip/catalog.sqlite).",
                               discussion: "Use this for read-only photo folders."),
            completion: .file())
    var catalog: String?

    /// The folder without a trailing slash, so relative paths print cleanly.
    var folderPath: String {
        var path = folder
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    var catalogPath: String { catalog ?? IngestOptions.defaultCatalogPath(for: folderPath) }

    /// The catalog of an existing folder that has been ingested, or the exit code after saying
    /// what is missing.
    func existingCatalog() throws -> Catalog {
        let problem: GeoTripError
        do {
            try FolderScanner(root: folderPath).checkRoot()
            if FileManager.default.fileExists(atPath: catalogPath) { return try Catalog.open(at: catalogPath, access: .readOnly) }
            problem = .catalogMissing(path: catalogPath, folder: folderPath)
        } catch {
            problem = error
        }
        throw Diagnostics.fail(problem)
    }
}
