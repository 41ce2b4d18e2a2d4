import ArgumentParser
import GeoTripCore

struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give photos a position by hand: a coordinate or a place name. Tags outrank every other source and survive reruns.",
        discussion: """
            Exactly one of --at, --place or --clear. A place name that fits several places is refused \
            with the list; add a country or region ("Paris, FR").
            """)

    @OptionGroup var location: CatalogLocation

    @Argument(help: "Photos to tag: paths inside the folder, relative to it or to the current directory.")
    var files: [String]

    @Option(parsing: .unconditional, help: ArgumentHelp("The position, LAT,LON in decimal degrees (southern and western ones start with -).", valueName: "lat,lon"))
    var at: String?

    @Option(help: ArgumentHelp("A place name for the gazetteer's search, such as \"Kyoto, JP\".", valueName: "name"))
    var place: String?

    @Flag(help: "Remove the photos' manual positions.")
    var clear = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one photo to tag.") }
        guard [at != nil, place != nil, clear].filter({ $0 }).count == 1 else {
            throw ValidationError("Give exactly one of --at LAT,LON, --place NAME or --clear.")
        }
        if let place, place.allSatisfy(\.isWhitespace) {
            throw ValidationError("--place is empty: give a place name, such as \"Kyoto, JP\".")
        }
        if let at {
            let coordinate: Coordinate
            do { coordinate = try Coordinate(parsing: at) } catch { throw ValidationError("--at: \(error.message)") }
            // Read from photos and tracks as "no fix" (null island), so never stored as a position.
            if coordinate.latitude == 0 && coordinate.longitude == 0 {
                throw ValidationError("--at: 0,0 is what devices write when they have no fix, and geotrip never uses it as a position; "
                                      + "give the place's own coordinates")
            }
        }
    }

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        let target: TagTarget
        if let at {
            target = .coordinate(try Coordinate(parsing: at))
        } else if let place {
            // Blanks and line breaks around it (a name pasted with its newline) are no part of it.
            target = .place(place.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            target = .clear
        }
        do {
            let outcome = try await PhotoTagger(folder: location.folderPath, catalogPath: location.catalogPath, catalogGiven: location.catalog != nil).tag(files, with: target)
            print(outcome.sentence.terminalSafe)
            if let trip = outcome.trip, let line = SummaryText.tripLine(trip, trips: outcome.export?.trips ?? 0) { print(line) }
            SummaryText.manualNameLines(outcome.manualNames).forEach { print($0) }
            // What the journal did besides being written: notes that moved or wait, backups.
            if let export = outcome.export { SummaryText.exportLines(export, standing: false).dropFirst().forEach { print($0) } }
            if let former = outcome.catalogFollowedFrom { print(SummaryText.followed(former, folder: location.folderPath)) }
            for problem in outcome.problems { StandardError.write("geotrip: \(problem.path.terminalSafe): \(problem.message.terminalSafe)\n") }
        } catch {
            throw Diagnostics.fail(error)
        }
    }
}
