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

    /// Runs the command line; a first word that is no command but close to one (`inget`,
    /// `place`) is answered with the command meant, where the parser would say only that the
    /// arguments were unexpected.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, let meant = meant(by: first) {
            StandardError.write("geotrip: '\(first.terminalSafe)' is not a command. Did you mean '\(meant)'?\n  See 'geotrip --help' for the commands.\n")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand { try await command.run() } else { try command.run() }
        } catch {
            exit(withError: error)
        }
    }

    /// The command `word` was meant to be when it is none but one letter or two away from one
    /// (a letter missing, added, changed or two swapped); nil for a command, an option, or
    /// anything farther.
    static func meant(by word: String) -> String? {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName ?? $0._commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word), word.count >= 3 else { return nil }
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            // Optimal string alignment: Levenshtein with a swap of neighbours as one step.
            var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            for i in stride(from: 1, through: a.count, by: 1) {
                for j in stride(from: 1, through: b.count, by: 1) {
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
                }
            }
            return d[a.count][b.count]
        }
        let lowered = Array(word.lowercased())
        return names.map { (name: $0, distance: distance(lowered, Array($0))) }
            .filter { $0.distance <= ($0.name.count <= 4 ? 1 : 2) }
            .min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
    }
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
