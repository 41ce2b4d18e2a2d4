import ArgumentParser
import GeoTripCore

struct Rename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give a place your own name. No geocoder ever replaces it, and it survives reruns as long as the place does.",
        discussion: """
            PLACE_ID is the place's id as `geotrip places` shows it (place p14, or P14). --clear returns the \
            place to automatic naming. The region and country stay as the place-name data gives them.
            """)

    @OptionGroup var location: CatalogLocation

    @Argument(help: ArgumentHelp("The place's id, such as p14.", valueName: "place-id"))
    var placeID: String

    @Argument(help: "The name to give it.")
    var name: String?

    @Flag(help: "Remove your name: the place is named automatically again.")
    var clear = false

    func validate() throws {
        guard (name != nil) != clear else { throw ValidationError("Give either a NAME or --clear.") }
        if let name, PlaceRenamer.cleaned(name).isEmpty {
            throw ValidationError("The name is empty (or only characters a name does not keep); to return to automatic naming, use --clear.")
        }
    }

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: false)
        do {
            let renamer = PlaceRenamer(folder: location.folderPath, catalogPath: location.catalogPath)
            // Each line made safe on its own: a name's own line breaks are shown as `%0A`.
            let renamed = try await renamer.rename(placeID, to: clear ? nil : name)
            for line in renamed.lines { print(line.terminalSafe) }
            // What the journal did besides being written (a page kept as a backup, a heading
            // written over, notes that moved), as `ingest` and `tag` say it.
            if let export = renamed.export { SummaryText.exportLines(export, standing: false).dropFirst().forEach { print($0) } }
        } catch {
            throw Diagnostics.fail(error)
        }
    }
}
