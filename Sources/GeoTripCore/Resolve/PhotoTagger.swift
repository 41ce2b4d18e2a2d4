import AsyncHTTPClient
import Foundation

/// What `geotrip tag` puts on photos.
public enum TagTarget: Sendable, Equatable {
    /// `--at LAT,LON`.
    case coordinate(Coordinate)
    /// `--place NAME`: the online service's `/search` when the trip names places online, else
    /// (or when it cannot be reached) the gazetteer's forward search; refused when ambiguous.
    case place(String)
    /// `--clear`.
    case clear
}

/// `geotrip tag`: manual positions for photos without GPS (or with wrong GPS). A tag outranks
/// every other source and survives every rerun; the trip is resolved again at once.
public struct PhotoTagger: Sendable {
    public var folder: String
    public var catalogPath: String
    /// Whether the catalog was given (`--catalog`), so the commands the run says name it.
    public var catalogGiven: Bool

    /// How far off a coordinate typed by hand is taken to be.
    public static let typedUncertainty = 10.0

    public init(folder: String, catalogPath: String, catalogGiven: Bool = false) {
        self.folder = folder
        self.catalogPath = catalogPath
        self.catalogGiven = catalogGiven
    }

    /// What a tag did: a sentence, and the problems the derivation found (sidecars that could
    /// not be written), for the command line to show.
    public struct Outcome: Sendable {
        public var sentence: String
        public var problems: [PhotoDiagnostic]
        /// The trip after the tag, as `ingest` reports it.
        public var trip: TripOverview?
        /// What bringing the journal and map in step did (notes that followed their photos,
        /// backups), when it ran.
        public var export: ExportSummary?
        /// The folder the catalog was remembered for, when this run found it moved or copied
        /// to the folder tagged in (`Catalog.checkFolder`).
        public var catalogFollowedFrom: String?
        /// The names given with `rename` that the new positions moved, left waiting, or left
        /// with a place gone from their spot (as `ingest` says them).
        public var manualNames: [ManualNames.Move] = []
    }

    /// Tags `files` (paths inside the folder, relative to it or to the current directory), then
    /// runs the same tail as `ingest` (resolve, sidecars, cluster, name) so the trip follows.
    public func tag(_ files: [String], with target: TagTarget) async throws(GeoTripError) -> Outcome {
        try FolderScanner(root: folder).checkRoot()
        guard FileManager.default.fileExists(atPath: catalogPath) else { throw .catalogMissing(path: catalogPath, folder: folder) }
        let catalog = try Catalog.open(at: catalogPath)
        // Another folder's catalog is refused before anything is written (`Catalog.checkFolder`).
        let followed = try catalog.claim(folder: folder)
        let gazetteer = RunGazetteer()

        // A photo named twice (`DSCF*.JPG DSCF1008.JPG`, `a.jpg ./a.jpg`) is tagged once.
        var seen = Set<PathKey>()
        let paths = files.map(relativePath).filter { seen.insert(PathKey($0)).inserted }
        let sentence: String
        // Where the photos were tagged (nil: cleared).
        var tagged: Coordinate?
        // The shared cache of the online search, when it could not be used (said with the run's problems).
        var searchProblems: [PhotoDiagnostic] = []
        switch target {
        case .clear:
            let cleared = try catalog.tag(paths: paths, with: nil, at: Date())
            sentence = cleared == 0 ? (paths.count == 1 ? "This photo has no manual position" : "None of these photos has a manual position") + ": nothing to clear."
                : "Cleared the manual position of \(cleared) photo\(cleared == 1 ? "" : "s")."
        case .coordinate(let coordinate):
            let count = try catalog.tag(paths: paths, with: (coordinate, nil, Self.typedUncertainty), at: Date())
            tagged = coordinate
            sentence = "Tagged \(Self.photos(count)) at \(String(format: "%.5f, %.5f", coordinate.latitude, coordinate.longitude))."
        case .place(let query):
            (sentence, tagged) = try await tag(paths, byName: query, catalog: catalog, gazetteer: gazetteer, problems: &searchProblems)
        }
        // Visits follow the new positions at once, with the trip's remembered settings.
        let settings = try catalog.storedResolutionSettings()
        let stages = StageList([.resolve, .sidecars, .cluster, .name], writeXMP: settings.writeXMP, reporter: SilentProgress())
        do {
            let derived = try await TripDerivation(catalog: catalog, folder: folder, gazetteer: gazetteer.get)
                .run(settings: settings, clustering: try catalog.clusteringOptions(), listing: nil, stages: stages,
                     interrupted: { .interrupted(.elsewhere) })
            // The journal and map follow the new positions too.
            var problems = searchProblems + derived.diagnostics
            if let problem = gazetteer.zoneIndexProblem {
                problems.append(PhotoDiagnostic(path: folder, kind: .folder, message: Gazetteer.fallbackSentence(problem)))
            }
            var exported: ExportSummary?
            switch await ExportStage.refresh(catalog, folder: folder) {
            case .success(let export):
                problems += export.problems
                exported = export
            case .failure(let error): problems.append(PhotoDiagnostic(path: folder, kind: .output, message: "the journal and map were not updated: \(error)"))
            }
            // A photo without a time is placed, but on no day: said, so the map's missing it is no surprise.
            var told = sentence
            let placing = tagged != nil
            // A photo's own position (its GPS, or XMP's) is outranked by its tag: said, with how
            // far it moved, since a mistyped name or a place of the same name elsewhere moves it
            // far; and the command that goes back to it, as it runs.
            if let tagged, case let own = try catalog.ownPositions(paths: paths), !own.isEmpty {
                let farthest = own.map { GreatCircle.distance($0, tagged) }.max() ?? 0
                let files = paths.count == 1 ? MarkdownText.shellQuoted(paths[0].hasPrefix("-") ? "./" + paths[0] : paths[0]) : "FILE..."
                told += " " + (own.count == paths.count ? (own.count == 1 ? "It has" : "They have") : "\(own.count) of them \(own.count == 1 ? "has" : "have")")
                    + " a position of \(own.count == 1 ? "its" : "their") own, \(own.count == 1 ? "" : "up to ")\(Self.distanceWords(farthest)) from the tag, "
                    + "which the tag outranks (`geotrip tag \(MarkdownText.shellQuoted(folder)) \(files) --clear` goes back to \(own.count == 1 ? "it" : "them"))."
            }
            if placing, case let untimed = try catalog.photosInNoVisit(paths: paths), untimed > 0 {
                told += " " + (untimed == paths.count ? (untimed == 1 ? "It has" : "They have") : "\(untimed) of them \(untimed == 1 ? "has" : "have")")
                    + " no time, so \(untimed == 1 ? "it stays" : "they stay") on the page of undated photos, on no day and not on the map, "
                    + "until \(untimed == 1 ? "it has" : "they have") one (that page says how to give it)."
            }
            var names = derived.manualNames
            for index in names.indices where names[index].mayBeLetGo {
                names[index].clearCommand = ExportStage.command("rename", [names[index].from, "--clear"], folder: folder,
                                                                explicitCatalog: catalogGiven ? catalogPath : nil)
            }
            return Outcome(sentence: told, problems: problems, trip: derived.trip, export: exported, catalogFollowedFrom: followed, manualNames: names)
        } catch let error as GeoTripError {
            throw error
        } catch {
            // The stages throw only GeoTripError; anything else is a bug to report, not to hide.
            throw .catalogRejected(path: catalogPath, reason: "\(error)")
        }
    }

    /// Tags `paths` at the place `query` names: found by the trip's online service when it names
    /// places online, else (or when it cannot be used now) by the gazetteer's town search.
    /// Returns the sentence saying where, and where.
    private func tag(_ paths: [String], byName query: String, catalog: Catalog, gazetteer: RunGazetteer,
                     problems: inout [PhotoDiagnostic]) async throws(GeoTripError) -> (String, Coordinate) {
        // No name names nothing, online or off (a service would answer with something).
        guard !query.allSatisfy(\.isWhitespace) else { throw .placeNotFound(query: query, advice: nil) }
        let naming = try catalog.storedNamingSettings()
        // Why the trip's online service could not answer, when it could not.
        var unavailable: String?
        // Whether it answered that it knows no such place (its data may not reach there).
        var notFoundOnline = false
        if naming.online {
            let (answer, cacheProblem) = try await Self.searchOnline(query, naming: naming)
            if let cacheProblem { problems.append(cacheProblem) }
            switch answer {
            case .found(let found):
                let count = try catalog.tag(paths: paths, with: (found.coordinate, found.label, found.uncertaintyMeters), at: Date())
                return ("Tagged \(Self.photos(count)) at \(found.label), found by \(naming.shownURL).", found.coordinate)
            case .notFound:
                // A regional or self-hosted service misses towns geotrip's own list has.
                notFoundOnline = true
            case .unavailable(let reason):
                unavailable = reason
            }
        }
        let place: GazetteerPlace
        do {
            place = try Self.unambiguousPlace(query, in: gazetteer.get())
        } catch {
            guard case .placeNotFound(let query, _) = error else { throw error }
            if notFoundOnline { throw .placeNotFoundAnywhere(query: query, server: naming.shownURL) }
            guard let unavailable else { throw error }
            throw .placeNotFoundOffline(query: query, server: naming.shownURL, reason: unavailable)
        }
        let count = try catalog.tag(paths: paths, with: (place.coordinate, Self.label(place), Self.uncertainty(of: place)), at: Date())
        return ("Tagged \(Self.photos(count)) at \(Self.label(place))"
            + (notFoundOnline ? ", from geotrip's own list of towns (\(naming.shownURL) found no place of that name)."
               : unavailable == nil ? "." : ", from geotrip's own list of towns (\(naming.shownURL) cannot be used now)."), place.coordinate)
    }

    /// What the trip's online service answers for `query` (`OnlineAnswer`): the place, none
    /// (the gazetteer is asked then), or why it cannot be used now (the gazetteer is asked
    /// instead). Ambiguous is thrown.
    /// With the shared cache unusable, the search is paced by this process alone and kept by
    /// none, as in an ingest: `cacheProblem` says so.
    static func searchOnline(_ query: String, naming: NamingSettings) async throws(GeoTripError)
        -> (answer: OnlineAnswer, cacheProblem: PhotoDiagnostic?) {
        let http = NominatimClient.makeHTTPClient()
        let cache: NamingCache
        var cacheProblem: PhotoDiagnostic?
        do {
            cache = try NamingCache.shared()
        } catch {
            cacheProblem = PhotoDiagnostic(path: naming.shownURL, kind: .naming, message: error.description)
            cache = .inMemory()
        }
        let search = NominatimPlaceSearch(client: NominatimClient(settings: naming, http: http, cache: cache,
                                                                  timeoutSeconds: Int64(naming.timeoutSeconds)))
        let result: Result<NominatimPlaceSearch.Found, any Error>
        do {
            result = .success(try await search.find(query))
        } catch {
            result = .failure(error)
        }
        try? await http.shutdown()
        switch result {
        case .success(let found):
            return (.found(found), cacheProblem)
        case .failure(let error as GeoTripError):
            if case .placeNotFound = error { return (.notFound, cacheProblem) }
            if case .namingUnavailable(_, let reason) = error { return (.unavailable(reason), cacheProblem) }
            // An answer that is no JSON at all (a network's sign-in page, which answers every
            // address) says the service cannot be used from here, as an outage does.
            if case .namingAnswerUnreadable(_, let reason) = error, reason == NominatimPlace.notJSON {
                return (.unavailable("its answer is not JSON (a network's sign-in page answers so)"), cacheProblem)
            }
            throw error
        case .failure(let error):
            throw .namingUnavailable(server: naming.shownURL, reason: "\(error)")
        }
    }

    /// What the online service answered a search: the place, that it knows no such place, or
    /// nothing it could use now (why, in its words).
    enum OnlineAnswer {
        case found(NominatimPlaceSearch.Found)
        case notFound
        case unavailable(String)
    }

    /// The one place `query` names exactly; several exact matches are shown, never guessed.
    static func unambiguousPlace(_ query: String, in gazetteer: Gazetteer) throws(GeoTripError) -> GazetteerPlace {
        let exact = gazetteer.search(query, limit: 6).filter { $0.quality == .exact }
        guard let first = exact.first else { throw .placeNotFound(query: query, advice: gazetteer.qualifierAdvice(query)) }
        guard exact.count == 1 else {
            // Places labelled alike (two towns of one name in one state) are told apart by
            // where they are, as the online search's are.
            var candidates = exact.map { $0.label(label($0.place), query: query) }
            let alike = Set(candidates).count < candidates.count
            if alike {
                candidates = zip(candidates, exact).map { $0 + String(format: " at %.4f,%.4f", $1.place.coordinate.latitude, $1.place.coordinate.longitude) }
            }
            // Every one named alike: no name narrows them (two towns of one name in one state).
            throw .placeAmbiguous(query: query, candidates: candidates, examples: narrowings(query, exact, in: gazetteer),
                                  alike: alike && Set(exact.map { label($0.place) }).count == 1)
        }
        return first.place
    }

    /// Queries naming one of `matches` alone, for the sentence that asks for one: the first
    /// match's (the largest town), and the first of those named as typed when that is another
    /// (`Roma` is first Rome, found by its Italian name, then Roma in Lesotho). Each is a name
    /// with the place's region, else its country code, tried on the gazetteer; a place found by
    /// another of its names is named by its own (`Franklin, Ohio` would still be Columbus and
    /// Franklin; `Rome, Lazio` is one).
    static func narrowings(_ query: String, _ matches: [PlaceMatch], in gazetteer: Gazetteer) -> [String] {
        let typed = Gazetteer.name(in: query)
        func narrowed(_ match: PlaceMatch) -> String? {
            let name = match.byOtherName ? match.place.name : typed
            for region in [match.place.admin1, match.place.countryCode].compactMap({ $0 }) {
                let narrowed = "\(name), \(region)"
                // Exact matches come first: two places named so show in the first two.
                if gazetteer.search(narrowed, limit: 2).filter({ $0.quality == .exact }).count == 1 { return narrowed }
            }
            return nil
        }
        var examples: [String] = []
        if let first = matches.first, let example = narrowed(first) { examples.append(example) }
        if matches.first?.byOtherName ?? false, let example = matches.lazy.filter({ !$0.byOtherName }).compactMap(narrowed).first {
            examples.append(example)
        }
        if examples.isEmpty, let example = matches.dropFirst().lazy.compactMap(narrowed).first { examples.append(example) }
        return examples
    }

    /// `1 photo`, `3 photos`.
    static func photos(_ count: Int) -> String { "\(count) photo\(count == 1 ? "" : "s")" }

    /// `12 m`, `4.2 km`, `1,347 km`: the farthest a tag moved a photo from its own position.
    static func distanceWords(_ metres: Double) -> String {
        if metres < 1_000 { return "\(Int(metres.rounded())) m" }
        if metres < 10_000 { return String(format: "%.1f km", metres / 1_000) }
        return "\(Int((metres / 1_000).rounded()).grouped) km"
    }

    /// "Kyoto, Kyoto, Japan (JP)".
    static func label(_ place: GazetteerPlace) -> String {
        ([place.name, place.admin1, place.country].compactMap { $0 }).joined(separator: ", ") + " (\(place.countryCode ?? "?"))"
    }

    /// A place tag says "somewhere in this town": about the town's radius, from its population
    /// (10 m × √population: 500 m for a village, 1.4 km for 20,000 people, 15 km for 2 million).
    static func uncertainty(of place: GazetteerPlace) -> Double {
        min(20_000, max(500, 10 * Double(place.population).squareRoot()))
    }

    /// `file` as a path relative to the folder: given relative to the current directory (or
    /// absolute) when that points inside the folder, else taken as relative to the folder, and
    /// normalised the same way either way (`./-rf.jpg`, `sub/../a.jpg`).
    func relativePath(_ file: String) -> String {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path
        func inside(_ path: String) -> String? { path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : nil }
        let fromHere = URL(fileURLWithPath: file).standardizedFileURL.path
        if let relative = inside(fromHere), FileManager.default.fileExists(atPath: fromHere) { return relative }
        let fromFolder = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: root, isDirectory: true)).standardizedFileURL.path
        return inside(fromFolder) ?? file
    }
}
