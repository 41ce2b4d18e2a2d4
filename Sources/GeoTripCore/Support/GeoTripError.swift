import Foundation

/// A problem with the whole run, as opposed to one photo's (those are diagnostics).
/// Each message says what happened and what to do about it.
public enum GeoTripError: Error, Equatable, CustomStringConvertible {
    case folderMissing(path: String)
    case notAFolder(path: String)
    case folderUnreadable(path: String, reason: String)
    case catalogUnwritable(path: String, reason: String)
    case catalogBusy(path: String, pid: Int?)
    case catalogMissing(path: String, folder: String)
    case catalogTooNew(path: String, unknownMigrations: [String])
    case catalogDamaged(path: String, reason: String)
    case catalogNotAFile(path: String, kind: String)
    case catalogUnreadable(path: String, reason: String)
    case catalogHeldByOtherProgram(path: String)
    case notACatalog(path: String, tables: [String])
    case catalogHardLinked(path: String, links: Int)
    case catalogEmpty(path: String)
    /// `--catalog` named the catalog of `owner` (still there as a folder, or not; nil: a catalog
    /// from before geotrip remembered its folder) for `folder`, which lacks `missing` of the
    /// `sampled` files of it looked for (`Catalog.checkFolder`).
    case catalogOfAnotherFolder(path: String, owner: String?, ownerThere: Bool, folder: String, missing: Int, sampled: Int)
    case noSuchPlace(id: String, folder: String, placeOfVisit: String? = nil)
    case namingUnavailable(server: String, reason: String)
    case namingAnswerUnreadable(place: String, reason: String)
    case namingCacheUnusable(path: String, reason: String)
    case catalogRejected(path: String, reason: String)
    case interrupted(Interruption)
    case gazetteerMissing(tried: [String])
    case notInCatalog(paths: [String], alike: [String] = [])
    /// Files of the folder geotrip could not read as photos: nothing can be tagged.
    case unreadablePhotos(paths: [String])
    /// `advice`: how to write the region, when the name alone finds places (`Gazetteer.qualifierAdvice`).
    case placeNotFound(query: String, advice: String?)
    /// Not in the gazetteer, while the trip's online service, which may know it, could not be used.
    case placeNotFoundOffline(query: String, server: String, reason: String)
    /// Found by neither the trip's online service (which answered it knows no such place) nor the gazetteer.
    case placeNotFoundAnywhere(query: String, server: String)
    /// `example`: a query that narrows them (`PhotoTagger.narrowing`, `NominatimPlaceSearch.example`), when one is known.
    /// `alike`: the candidates are told apart only by their positions (named alike to the
    /// last word), so no name narrows them.
    case placeAmbiguous(query: String, candidates: [String], examples: [String] = [], alike: Bool = false)
    case gazetteerDamaged(path: String, reason: String)
    /// The time zone index (zones.bin) is not installed; zones fall back to the nearest town's.
    case zoneIndexMissing(tried: [String])
    /// The time zone index failed its checks; zones fall back to the nearest town's.
    case zoneIndexDamaged(path: String, reason: String)
    case baseMapMissing(tried: [String])
    case baseMapDamaged(path: String, reason: String)
    /// Debian's `libjs-leaflet` or `libjs-leaflet.markercluster` is not installed (the map page
    /// inlines both).
    case leafletMissing(path: String)
    case settingInvalid(catalog: String, option: String, problem: String)
    case settingUnreadable(catalog: String, key: String, options: String)
    /// `--out` (given or remembered) names something geotrip cannot write its output into.
    case outputUnusable(path: String, reason: String)
    /// The output folder is the trip folder, or lies in it and holds the person's photos.
    case outputAmongPhotos(path: String, reason: String)
    /// The output folder lies inside `parent`, which holds the owner file of an output folder
    /// (`owner`: " of FOLDER", the photo folder the file names, or empty).
    case outputInsideOutput(path: String, parent: String, owner: String)
    /// The output folder holds the outputs of `owner` (still there as a folder, or not), not
    /// of `folder` (`OutputFolder.checkOwner`).
    case outputOfAnotherFolder(path: String, owner: String, ownerThere: Bool, folder: String)
    /// The output folder holds the journal another catalog writes, and that catalog is still
    /// there (`OutputFolder.checkOwner`).
    case outputOfAnotherCatalog(path: String, catalog: String, given: String)
    /// A folder of geotrip's own in the output folder (`journal`, `trips/…`) is a symbolic link.
    case outputFolderLinked(path: String, folder: String)
    /// A run error that happened in one of the ingest's stages, tagged with it.
    indirect case stageFailed(stage: String, number: Int, count: Int, error: GeoTripError)

    /// `reason` ready to end a clause: a system message's own closing full stop dropped, so
    /// the sentence it joins does not end in two.
    static func clause(_ reason: String) -> String {
        reason.hasSuffix(".") && !reason.hasSuffix("..") ? String(reason.dropLast()) : reason
    }

    public var description: String {
        switch self {
        case .folderMissing(let path):
            return "The folder \(path) does not exist. Check the path and try again."
        case .notAFolder(let path):
            return "\(path) is a file, not a folder. Pass the folder that holds the trip's photos."
        case .folderUnreadable(let path, let reason):
            return "The folder \(path) cannot be read (\(reason)). Check its permissions."
        case .catalogUnwritable(let path, let reason):
            // One that is there holds the trip's tags, names and notes, and its journal is its
            // own: a second catalog elsewhere would be refused while it is there, so it moves.
            guard FileManager.default.fileExists(atPath: path) else {
                return "The catalog at \(path) cannot be written (\(reason)). Pass --catalog PATH to keep it somewhere writable."
            }
            // Nothing moves out of a folder that cannot be written.
            let folder = (path as NSString).deletingLastPathComponent
            guard access(folder.isEmpty ? "." : folder, W_OK) == 0 else { return "The catalog at \(path) cannot be written (\(reason))." }
            return "The catalog at \(path) cannot be written (\(reason)). Mend that, or move it somewhere writable (`mv \(path) NEW.sqlite`, "
                + "with its -wal and -shm files when they are there, while no geotrip runs) and pass --catalog NEW.sqlite: it keeps the trip's tags, names and notes."
        case .catalogBusy(let path, let pid):
            let holder = pid.map { "another geotrip run (pid \($0))" } ?? "another geotrip run"
            return "The catalog at \(path) is in use by \(holder). Wait for it to finish, or stop it, and run this again."
        case .catalogMissing(let path, let folder):
            // The catalog named with --catalog is named again in the command to run.
            let given = URL(fileURLWithPath: path).standardizedFileURL.path != URL(fileURLWithPath: IngestOptions.defaultCatalogPath(for: folder)).standardizedFileURL.path
            return "There is no catalog at \(path). Run `geotrip ingest \(folder)\(given ? " --catalog \(path)" : "")` first."
        case .catalogTooNew(let path, let unknown):
            return "The catalog at \(path) was made by a newer geotrip (it has schema steps this version does not know: \(unknown.joined(separator: ", "))). It was left untouched; use that newer geotrip, or pass --catalog to start another catalog."
        case .catalogDamaged(let path, let reason):
            return "The catalog at \(path) cannot be opened (\(reason)). Move it aside to start a new one; nothing in the photo folder depends on it."
        case .catalogNotAFile(let path, let kind):
            let example = kind == "a folder" ? " such as \((path as NSString).appendingPathComponent("catalog.sqlite"))" : ""
            return "The catalog path \(path) is \(kind), not a catalog file. Pass --catalog with a file name\(example)."
        case .catalogUnreadable(let path, let reason):
            return "The catalog at \(path) cannot be read (\(reason)). Check its permissions."
        case .catalogHeldByOtherProgram(let path):
            return "The catalog at \(path) is locked by another program that has it open (no geotrip run holds it: an SQLite browser or a sync tool, perhaps). Close that program and run again."
        case .catalogHardLinked(let path, let links):
            return "The catalog at \(path) has \(links) hard links. SQLite keeps a database consistent only under one name (each name gets its own journal), so geotrip does not write it; copy the file instead of linking it, or remove the other links."
        case .namingUnavailable(let server, let reason):
            return "The place-name service at \(server) cannot be used now: \(Self.clause(reason)). Places keep the names they had (offline names for new ones); the next run asks again."
        case .namingAnswerUnreadable(let place, let reason):
            // A place's answer, or a search's (`the search for "…"`).
            let search = place.hasPrefix("the search")
            return "The place-name service's answer for \(place) cannot be read: \(Self.clause(reason))."
                + (search ? " Check --nominatim-url points at a Nominatim-compatible /search; nothing was tagged."
                          : " The place keeps its name; check --nominatim-url points at a Nominatim-compatible /reverse.")
        case .namingCacheUnusable(let path, let reason):
            return "The shared place-name cache at \(path) cannot be used: \(Self.clause(reason)). This run paces its own requests and keeps nothing for the next. "
                + (reason.hasSuffix("is a file, not a folder") ? "Make it a folder, or let XDG_CACHE_HOME name one."
                   : "The cache holds only answers that can be asked again: a damaged file can be deleted (geotrip makes it anew), or XDG_CACHE_HOME can name another folder.")
        case .catalogEmpty(let path):
            return "The catalog at \(path) holds nothing yet (a first ingest stopped before writing anything). Run `geotrip ingest` on the trip folder first."
        case .catalogOfAnotherFolder(let path, let owner, let ownerThere, let folder, let missing, let sampled):
            let whose = owner.map { "is the catalog of \($0), which is " + (ownerThere ? "still there" : "not there now (on a disk not mounted?)") + ", and" }
                ?? "was made by an older geotrip, which did not note its folder, and"
            let lacks = sampled == 0 ? "it lists no file present to look for in \(folder)" : "\(folder) lacks \(missing) of the \(sampled) of its files looked for (by name and size)"
            return "The catalog at \(path) \(whose) \(lacks): it is not \(folder)'s catalog. "
                + "Used for \(folder), \(owner.map { $0 + "'s" } ?? "its") photos, visits and places would leave it, and its journal would be written over \(folder)'s. "
                + "Nothing was changed. Leave out --catalog to use \(folder)'s own (\(IngestOptions.defaultCatalogPath(for: folder)), which "
                + "`geotrip ingest` makes), or give `geotrip ingest` a new file name with --catalog."
        case .noSuchPlace(let id, let folder, let placeOfVisit):
            // A visit's id given (the journal's blocks are named by them): its place's.
            if let placeOfVisit {
                return "\(id) is a visit, not a place; its place is \(placeOfVisit), which every visit there shares: geotrip rename "
                    + "\(MarkdownText.shellQuoted(folder)) \(placeOfVisit) NAME."
            }
            // A number alone: the map and the timeline number visits, not places.
            let numbered = !id.isEmpty && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber)
            return "No place of this trip has the id \(id)" + (numbered ? " (the numbers on the map and in the timeline count visits)" : "")
                + ". `geotrip places \(folder)` lists the places with their ids (place p…)."
        case .notACatalog(let path, let tables):
            let what = tables.isEmpty ? "" : " (its tables: \(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : ""))"
            return "\(path) is another program's SQLite database\(what), not a geotrip catalog; geotrip left it untouched. Pass --catalog with a new file name."
        case .catalogRejected(let path, let reason):
            return "geotrip could not update the catalog at \(path) (\(reason)). This is a bug in geotrip; the failed step changed nothing. Please report it with the command you ran."
        case .notInCatalog(let paths, let alike):
            return "Not photos in the catalog: \(paths.joined(separator: ", ")). "
                + (alike.isEmpty ? "" : "Photos of \(paths.count == 1 ? "that name" : "those names") in it: \(alike.joined(separator: ", ")). ")
                + "Give paths inside the folder, and run `geotrip ingest` first if they are new; nothing was tagged."
        case .unreadablePhotos(let paths):
            return "\(paths.joined(separator: ", ")) could not be read as \(paths.count == 1 ? "a photo" : "photos") (`geotrip photos` says why), "
                + "so geotrip has no time to place \(paths.count == 1 ? "it" : "them") by; nothing was tagged."
        case .placeNotFound(let query, let advice?):
            return "No place is named \"\(query)\". \(advice) Or tag with --at LAT,LON."
        case .placeNotFound(let query, nil):
            return "No place is named \"\(query)\". " + (SearchKey.hasOtherScript(query)
                ? SearchKey.otherScriptAdvice + " Or tag with --at LAT,LON."
                : "Check the spelling (`geotrip find` helps), or tag with --at LAT,LON.")
        case .placeNotFoundAnywhere(let query, let server):
            return "No place is named \"\(query)\" by the place-name service at \(server), nor in geotrip's own list of towns. "
                + "Check the spelling (`geotrip find` searches the list), or tag with --at LAT,LON; nothing was tagged."
        case .placeNotFoundOffline(let query, let server, let reason):
            return "No place is named \"\(query)\" in geotrip's own list of towns, and the place-name service at \(server), which may know it, "
                + "cannot be used now: \(Self.clause(reason)). Try again when it can, or tag with --at LAT,LON; nothing was tagged."
        case .placeAmbiguous(let query, let candidates, let examples, let alike):
            if alike {
                return "\"\(query)\" names several places named alike: \(candidates.joined(separator: "; ")). No name tells them apart: "
                    + "tag with --at and the position of the one meant; nothing was tagged."
            }
            return "\"\(query)\" names several places: \(candidates.joined(separator: "; ")). Add a region or country"
                + (examples.isEmpty ? " to the name, or a region in place of the country," : ", such as " + examples.map { "\"\($0)\"" }.joined(separator: " or ") + ",")
                + " or tag with --at LAT,LON; nothing was tagged."
        case .gazetteerMissing(let tried):
            return "The place-name data (gazetteer.bin) is missing; looked in: \(tried.joined(separator: ", ")). Reinstall geotrip (make install copies it), or point GEOTRIP_GAZETTEER at the file."
        case .gazetteerDamaged(let path, let reason):
            return "The place-name data at \(path) is damaged: \(Self.clause(reason)). Reinstall geotrip, or regenerate it with scripts/make-gazetteer.py."
        case .zoneIndexMissing(let tried):
            return "The time zone index (zones.bin) is missing; looked in: \(tried.joined(separator: ", ")). Reinstall geotrip (make install copies it), or point GEOTRIP_ZONES at the file."
        case .zoneIndexDamaged(let path, let reason):
            return "The time zone index at \(path) is damaged: \(Self.clause(reason)). Reinstall geotrip, or regenerate it with scripts/make-zones.py."
        case .baseMapMissing(let tried):
            return "The map's base layer data (basemap.bin) is missing; looked in: \(tried.joined(separator: ", ")). Reinstall geotrip (make install copies it), or point GEOTRIP_BASEMAP at the file."
        case .baseMapDamaged(let path, let reason):
            return "The map's base layer data at \(path) is damaged: \(Self.clause(reason)). Reinstall geotrip, or regenerate it with scripts/make-basemap.py."
        case .leafletMissing(let path):
            return "The map page needs Leaflet and its marker groups, which geotrip reads from \(path), and they are not there. Install Debian's libjs-leaflet and libjs-leaflet.markercluster (`sudo apt-get install libjs-leaflet libjs-leaflet.markercluster`, or `make deps`) and export again."
        case .settingInvalid(let catalog, let option, let problem):
            return "The catalog at \(catalog) remembers an invalid \(option): \(problem) (an older geotrip or a hand edit stored it). Run `geotrip ingest` again with a valid \(option) to replace it; nothing was changed."
        case .settingUnreadable(let catalog, let key, let options):
            return "The catalog at \(catalog) remembers its '\(key)' settings in a form this geotrip cannot read (an older geotrip or a hand edit). Run `geotrip ingest` with \(options) to replace them; the photos, tags and places in the catalog are fine."
        case .outputAmongPhotos(let path, let reason):
            return "The output folder \(path) cannot be used: \(Self.clause(reason)). Pass --out with a folder of its own (it is made if missing); nothing was changed."
        case .outputInsideOutput(let path, let parent, let owner):
            return "The output folder \(path) cannot be used: it is inside \(parent), "
                + (owner.isEmpty ? "an output folder (it holds \(OutputFolder.ownerFile))" : "the output folder\(owner) (so its \(OutputFolder.ownerFile) says)")
                + ", which geotrip writes whole. Pass --out with a folder outside it; or, if \(parent) holds no journal or map of geotrip's, "
                + "delete \(parent)/\(OutputFolder.ownerFile) (an older geotrip could write one into a folder of photos). Nothing was changed."
        case .outputUnusable(let path, let reason):
            return "The output folder \(path) cannot be used: \(Self.clause(reason)). Make it a folder geotrip can write, or pass --out with another (it is made if missing)."
        case .outputOfAnotherFolder(let path, let owner, let ownerThere, let folder):
            return "The output folder \(path) holds the journal and map of \(owner), which is "
                + (ownerThere ? "still there" : "not there now (on a disk not mounted?)") + ", not of \(folder): geotrip does not write "
                + "one folder's outputs over another's (the notes written there would be taken for this folder's). Nothing was changed. Pass --out with "
                + "another folder for \(folder) (it is remembered); or, if \(owner)'s outputs are no longer wanted there, delete "
                + "\((path as NSString).appendingPathComponent(OutputFolder.ownerFile)) and run again."
        case .outputOfAnotherCatalog(let path, let catalog, let given):
            return "The output folder \(path) holds the journal that the catalog at \(catalog) writes, and that catalog is still there: "
                + "two catalogs number their visits each their own way, so one journal cannot keep the notes of both (a note would go under "
                + "another visit). Nothing was changed. Go on with \(catalog); or, to use a catalog at \(given) instead, move \(catalog) there "
                + "with mv (it keeps the trip's tags, names and settings); or keep both, and pass --out with another folder for \(given) (it is remembered)."
        case .outputFolderLinked(let path, let folder):
            return "The output folder \(path) cannot be used: \(folder) is a symbolic link to a folder, and geotrip never writes through links "
                + "(its pages would be written there but never read back). No page was written. Move the folder back in its place, "
                + "or give --out PATH to put the whole output folder where it leads."
        case .stageFailed(let stage, let number, let count, let error):
            return "[\(number)/\(count)] \(stage): \(error.description)"
        case .interrupted(.reading(let saved)):
            let photos = saved == 1 ? "the photo" : "the \(saved.grouped) photos"
            return saved == 0 ? "Interrupted while reading, before any photo was saved. The catalog is as the last run left it; run the same command again to read them."
                : "Interrupted while reading. The catalog is consistent and keeps \(photos) this run read; run the same command again to read the rest and finish."
        case .interrupted(.afterReading(let present)):
            let photos = present == 1 ? "its one photo" : "all \(present.grouped) photos"
            return "Interrupted. The catalog is consistent and holds \(photos) of the folder; run the same command again to finish."
        case .interrupted(.elsewhere):
            return "Interrupted. The catalog is consistent; run the same command again to finish."
        }
    }
}

/// How far a run stopped by Ctrl-C (or SIGTERM) had got, for what it says.
public enum Interruption: Sendable, Equatable {
    /// In the read: the photos this run had read by then (`saved`) are in the catalog.
    case reading(saved: Int)
    /// After the read: every photo of the folder (`present` of them) is in the catalog; what
    /// is made from them (places, names, the journal and map) is finished by the next run.
    case afterReading(present: Int)
    /// Waiting for the catalog, tagging, or in a command that reads no photos.
    case elsewhere
}
