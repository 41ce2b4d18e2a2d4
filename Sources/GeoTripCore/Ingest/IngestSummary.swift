/// A problem found in one photo, for the end-of-run list.
public struct PhotoDiagnostic: Sendable, Equatable, Encodable {
    /// Path relative to the trip folder.
    public var path: String
    /// One sentence.
    public var message: String
}

/// What one `geotrip ingest` did, printed at the end (and as JSON with `--json`).
///
/// `scanned` through `moved` describe this run; `withGPS`, `withoutGPS`, `skipped` and
/// `errors` describe the folder as the catalog now holds it, so a rerun reports the same
/// figures as the run before it.
public struct IngestSummary: Sendable, Equatable, Encodable {
    /// Files found in the folder.
    public var scanned = 0
    /// Files not in the catalog before (or back after having been removed).
    public var new = 0
    /// Files whose size or modification time changed, read again.
    public var changed = 0
    /// Files left alone because their size and modification time did not change.
    public var unchanged = 0
    /// Files that left the folder since the last run.
    public var removed = 0
    /// Files found under a new path and recognised by their fingerprint.
    public var moved = 0
    /// Photos with a position.
    public var withGPS = 0
    /// Photos read without a position.
    public var withoutGPS = 0
    /// Files that are not photos geotrip reads.
    public var skipped = 0
    /// Photos whose metadata could not be read at all.
    public var errors = 0
    /// Wall-clock duration of the run.
    public var seconds = 0.0
    /// Where the catalog is.
    public var catalog = ""
    /// How many diagnostics this run produced in all.
    public var diagnosticCount = 0
    /// The first diagnostics of this run (at most `IngestPipeline.diagnosticsShown`).
    public var diagnostics: [PhotoDiagnostic] = []

    /// What time and location resolution did, when it ran (nil when nothing had changed).
    public var resolution: ResolutionSummary?
    /// Days, visits, places, countries and distance, when clustering ran.
    public var trip: TripOverview?
    /// XMP sidecars written (with `--write-xmp`).
    public var sidecarsWritten = 0

    /// Creates an empty summary.
    public init() {}
}
