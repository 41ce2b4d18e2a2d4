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

    @Option(parsing: .unconditional, help: ArgumentHelp("The trip's time zone (IANA name or ±HH:MM), for photos nothing else places in time (remembered; none forgets it).",
                               valueName: "zone"))
    var tz: String?

    @Option(name: .customLong("clock-offset"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Correct a camera clock: ±[D ]HH:MM:SS for all cameras, or \"MAKE MODEL=±HH:MM:SS\" for one (repeatable; remembered; none forgets them).",
                               valueName: "offset"))
    var clockOffsets: [String] = []

    @Option(name: .customLong("track"), help: ArgumentHelp("A GPX or KML log to place photos without GPS (repeatable; remembered; none forgets them).", valueName: "file"),
            completion: .file(extensions: ["gpx", "kml"]))
    var tracks: [String] = []

    @Flag(inversion: .prefixedNo,
          help: "Keep XMP sidecars (IMG_1234.jpg.xmp) with the positions geotrip inferred or was given (remembered; never overwrites another program's sidecar).")
    var writeXmp: Bool?

    @Option(parsing: .unconditional, help: ArgumentHelp("A photo farther than this from its visit's centre starts a new visit (metres, default 250; remembered).", valueName: "metres"))
    var visitRadius: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("A photo taken this long after the visit's last starts a new visit (minutes, default 120; remembered).", valueName: "minutes"))
    var visitGap: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Visits whose centres are this close are one place (metres, default 150; remembered).", valueName: "metres"))
    var placeRadius: Double?

    @Option(name: .customLong("day-starts"),
            help: ArgumentHelp("When a traveller's day begins: photos before it belong to the day before (HH:MM, default 04:00; remembered).",
                               valueName: "time"))
    var dayStarts: String?

    @Option(help: ArgumentHelp("How places are named: offline (default; nothing is sent anywhere) or nominatim (remembered).",
                               valueName: "offline|nominatim"))
    var geocoder: String?

    @Option(name: .customLong("nominatim-url"),
            help: ArgumentHelp("A Nominatim-compatible service (default the public OpenStreetMap one; remembered).", valueName: "url"))
    var nominatimURL: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp("Language of place names and of the journal's words, such as en, ko or pt-BR (default from the locale; remembered).",
                                                          valueName: "code"))
    var language: String?

    @Option(help: ArgumentHelp("An e-mail address or URL for the User-Agent, as OpenStreetMap asks of its users (remembered).",
                               valueName: "contact"))
    var contact: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Online names: at most this many requests a second, 0.01 to 100 (default 1, and never more for the public server).",
                               valueName: "per-second"))
    var rate: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Online names: at most this many requests in flight, 1 to 16 (default 2).", valueName: "n"))
    var concurrency: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Online names: seconds to wait for one answer, 1 to 600 (default 10).", valueName: "seconds"))
    var timeout: Int?

    @OptionGroup var export: ExportArguments

    @Option(help: .hidden)
    var batchSize = 500

    func validate() throws {
        if let tz, tz != IngestOptions.forget, AssumedZone(tz) == nil {
            throw ValidationError("--tz \(tz) is not a time zone: give an IANA name such as Europe/Lisbon, or an offset such as +01:00.")
        }
        for (name, values) in [("--clock-offset", clockOffsets), ("--track", tracks)] where values.count > 1 && values.contains(IngestOptions.forget) {
            throw ValidationError("\(name) none forgets the remembered ones: give it alone.")
        }
        var given: [String: String] = [:]
        for text in clockOffsets where clockOffsets != [IngestOptions.forget] {
            let correction: ClockCorrection
            do { correction = try ClockCorrection(parsing: text) } catch { throw ValidationError(error.description) }
            // Two offsets for one camera (or two for all): which is meant cannot be told.
            let camera = correction.cameraKey
            if let earlier = given[camera] {
                throw ValidationError("--clock-offset '\(earlier)' and '\(text)' both correct \(correction.camera.map { "the camera \($0)" } ?? "every camera"): "
                    + "give one offset for it.")
            }
            given[camera] = text
        }
        let radii = ClusteringOptions.radiusRange
        let gaps = ClusteringOptions.gapRange.lowerBound / 60...ClusteringOptions.gapRange.upperBound / 60
        for (name, value, range, unit) in [("--visit-radius", visitRadius, radii, "metres"), ("--visit-gap", visitGap, gaps, "minutes (30 days)"),
                                           ("--place-radius", placeRadius, radii, "metres")] {
            if let value, !range.contains(value) {
                throw ValidationError("\(name) must be from \(Int(range.lowerBound)) to \(Int(range.upperBound)) \(unit); "
                                      + "\(ClusteringOptions.typed(value)) is not.")
            }
        }
        if let geocoder, !["offline", "nominatim"].contains(geocoder) {
            throw ValidationError("--geocoder \(geocoder) is not a geocoder: give offline or nominatim.")
        }
        if let nominatimURL, URL(string: nominatimURL)?.scheme.map({ ["http", "https"].contains($0) }) != true
            || URL(string: nominatimURL)?.host == nil {
            throw ValidationError("--nominatim-url \(nominatimURL) is not an http(s) URL, such as https://nominatim.example.org.")
        }
        if let language { try Self.validate(language: language) }
        if let contact, contact.isEmpty || contact.count > 200 || !contact.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) && $0 != "(" && $0 != ")" }) {
            throw ValidationError("--contact must be an e-mail address or URL in plain ASCII, without brackets (it goes in the User-Agent header).")
        }
        if let rate, !(0.01...100).contains(rate) {
            // As typed, or near it: `0` and `2` rather than Double's `0.0` and `2.0`.
            throw ValidationError("--rate must be from 0.01 to 100 requests a second; \(rate == rate.rounded() && abs(rate) < 1e15 ? String(Int64(rate)) : String(rate)) is not.")
        }
        if let timeout, !(1...600).contains(timeout) { throw ValidationError("--timeout must be from 1 to 600 seconds; \(timeout) is not.") }
        if let concurrency, !(1...NominatimClient.maximumConcurrency).contains(concurrency) {
            throw ValidationError("--concurrency must be from 1 to \(NominatimClient.maximumConcurrency); \(concurrency) is not.")
        }
        if let dayStarts, LocalDayRule(parsing: dayStarts) == nil {
            throw ValidationError("--day-starts \(dayStarts) is not a time of day: give HH:MM, such as 04:00 or 00:00 for midnight.")
        }
        try export.validate()
        // Missing, a folder, a named pipe or a device: the sentence reading would give, now.
        for track in tracks where tracks != [IngestOptions.forget] {
            do { try TrackLog.checkIsFile(atPath: track) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        Diagnostics.bootstrapLogging(verbose: verbose)
        var options = IngestOptions(folder: location.folderPath, catalogPath: location.catalogPath, batchSize: batchSize)
        // Given options replace what the catalog remembers for the trip; absent ones keep it.
        options.assumedZone = tz
        options.clockOffsets = clockOffsets.isEmpty ? nil : clockOffsets
        options.tracks = tracks.isEmpty ? nil : tracks
        options.writeXMP = writeXmp
        options.visitRadius = visitRadius
        options.visitGap = visitGap.map { $0 * 60 }
        options.placeRadius = placeRadius
        options.dayRule = dayStarts.flatMap(LocalDayRule.init(parsing:))
        options.geocoder = geocoder
        options.nominatimURL = nominatimURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        options.language = language.map(Self.canonical(language:))
        options.contact = contact
        options.namingRate = rate
        options.namingConcurrency = concurrency
        options.namingTimeout = timeout
        options.outputFolder = export.outputFolder(for: location.folderPath)
        options.privacy = export.privacy
        options.photoPoints = export.photos
        options.tiles = export.tileLayer
        options.makeThumbnails = export.thumbnails
        options.home = export.homePoint
        options.hideHome = export.hideHome
        options.catalogGiven = location.catalog != nil
        let pipeline = IngestPipeline(options: options)
        let progress: any IngestProgressReporting =
            TerminalProgress.reporter(quiet: quiet)

        let task = Task { try await pipeline.run(progress: progress) }
        let signals = Diagnostics.cancelOnSignals(task)
        defer { signals.forEach { $0.cancel() } }

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

    /// Refuses a `--lang` that is no language tag (`LanguageTag.canonical`): `zz-bogus` would
    /// be remembered and sent to the online geocoder as it is.
    static func validate(language: String) throws {
        if LanguageTag.canonical(language) == nil {
            throw ValidationError("--lang \(language.isEmpty ? "''" : language) is not a language code: give one such as en, ko or pt-BR.")
        }
    }

    /// A `--lang` in its usual case (`LanguageTag.canonical`), after `validate`.
    static func canonical(language: String) -> String { LanguageTag.canonical(language) ?? language }
}
