import Foundation

/// `geotrip rename`: the person's own name for a place. A manual name outranks every namer's,
/// no answer ever replaces it, and it follows the spot it was given for when places merge and
/// split (`ManualNames`); one whose place is gone waits under its id, and is let go when the
/// person gives the name to another place, or clears it by that id.
public struct PlaceRenamer: Sendable {
    public var folder: String
    public var catalogPath: String

    /// Creates a renamer for the trip at `folder`.
    public init(folder: String, catalogPath: String) {
        self.folder = folder
        self.catalogPath = catalogPath
    }

    /// What `rename` did: the lines saying so (the sentence, and why the journal and map were
    /// not updated when they could not be), and what the export that updated them did (backups
    /// kept, headings written over, notes moved), for the command to say as `ingest` does.
    public struct Renamed: Sendable {
        public var lines: [String]
        public var export: ExportSummary?
    }

    /// `name` as a place's name is kept: as an online one is (`NominatimPlace.bounded`), a line
    /// break or tab a space, without control characters or the bidirectional overrides that
    /// would turn a journal heading around, at most 300 characters; blanks around it trimmed.
    /// Empty when nothing of it shows (blanks, Hangul fillers), as an online name is none then.
    public static func cleaned(_ name: String) -> String {
        NominatimPlace.text(name.trimmingCharacters(in: .whitespacesAndNewlines))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Names place `placeID` `name` (as `cleaned` keeps it), or with `name` nil returns it to
    /// automatic naming, then brings the journal and map in step (`Renamed`).
    public func rename(_ placeID: String, to name: String?) async throws(GeoTripError) -> Renamed {
        let name = name.map(Self.cleaned)
        try FolderScanner(root: folder).checkRoot()
        guard FileManager.default.fileExists(atPath: catalogPath) else { throw .catalogMissing(path: catalogPath, folder: folder) }
        let catalog = try Catalog.open(at: catalogPath)
        // Another folder's catalog is refused before anything is written (`Catalog.checkFolder`).
        let followed = try catalog.claim(folder: folder).map { ["Catalog: " + Catalog.followedWords(from: $0, to: folder) + "."] } ?? []
        // As `places` shows it (p4), or typed in capitals (P4): ids are lower case. Not the
        // number alone: the map's and the timeline's numbers count visits, and `1` would name
        // another visit's place.
        let typed = placeID.lowercased()
        let places = try catalog.currentPlaces()
        let given = try catalog.placeNames(source: .manual)
        guard let place = places.first(where: { $0.placeID == typed }) else {
            // A name of the person's waiting for its place (`ManualNames`), cleared by its id.
            if name == nil, let waiting = given[typed]?.name.name {
                try catalog.removeNames(of: typed, source: .manual)
                return Renamed(lines: ["\(typed) has no place now; your name for it, \"\(waiting)\", is cleared."] + followed)
            }
            throw .noSuchPlace(id: placeID, folder: folder, placeOfVisit: try catalog.placeOfVisit(typed))
        }
        let placeID = place.placeID
        let automatic = try catalog.placeNames(source: .offline)[placeID]?.name
        // The names as `places` shows them: the person's, else the best of the others (an
        // online one, in the trip's language first, else the gazetteer's: `bestFirst`).
        let manual = given[placeID]?.name.name
        let automaticName = try catalog.automaticName(of: placeID)
        var sentence: String
        if let name {
            // The region and country stay the namer's: the person renames the place, not the map.
            try catalog.saveNames([(place, PlaceName(name: name, admin1: automatic?.admin1, country: automatic?.country,
                                                     countryCode: automatic?.countryCode))], source: .manual)
            sentence = "Named \(placeID) \"\(name)\"" + ((manual ?? automaticName).map { " (was \($0))." } ?? ".")
            // The same name waiting for a place that is gone, given for a spot this place holds
            // (within the place radius of its centre), is given now: let go, and said. One at
            // another spot (two flats both "Home") waits on.
            let current = Set(places.map(\.placeID)), radius = try catalog.storedClusteringOptions().placeRadius
            for (id, stored) in given.sorted(by: { $0.key < $1.key }) where !current.contains(id) && stored.name.name == name
                && GreatCircle.distance(stored.madeFor.centre, place.centre) <= radius {
                try catalog.removeNames(of: id, source: .manual)
                sentence += " Your name for \(id), which had no place, is this one's now."
            }
        } else if manual == nil {
            return Renamed(lines: ["\(placeID) has no name of yours: nothing to clear" + (automaticName.map { " (it is named \($0))." } ?? ".")] + followed)
        } else {
            try catalog.removeNames(of: placeID, source: .manual)
            sentence = "\(placeID) is named automatically again" + (automaticName.map { ": \($0)." } ?? ".")
        }
        try catalog.saveOverview(try catalog.overview())
        switch await ExportStage.refresh(catalog, folder: folder) {
        case .failure(let problem): return Renamed(lines: [sentence, "The journal and map were not updated: \(problem)"] + followed)
        case .success(let export): return Renamed(lines: [sentence] + followed, export: export)
        }
    }
}
