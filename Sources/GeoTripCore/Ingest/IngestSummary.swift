/// A problem found in one photo, for the end-of-run list.
public struct PhotoDiagnostic: Sendable, Equatable, Encodable {
    /// Path relative to the trip folder.
    public var path: String
    /// What it is about, for the counts by kind.
    public var kind: DiagnosticKind
    /// One sentence.
    public var message: String

    /// Creates a diagnostic for the photo (or folder, or input) at `path`.
    public init(path: String, kind: DiagnosticKind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// One of a photo's own diagnostics.
    public init(path: String, _ diagnostic: Diagnostic) {
        self.init(path: path, kind: diagnostic.kind, message: diagnostic.message)
    }
}

/// How many diagnostics of one kind a run found, with a few of their paths.
public struct DiagnosticCount: Sendable, Equatable, Encodable {
    /// The kind, as in `DiagnosticKind`.
    public var kind: DiagnosticKind
    /// `problem` or `note`.
    public var severity: DiagnosticSeverity
    /// What they have in common ("GPS time without a date, not used").
    public var label: String
    /// How many.
    public var count: Int
    /// The first few paths, in path order.
    public var examples: [String]

    /// The counts of `diagnostics` by kind, problems first, then the most common.
    public static func byKind(_ diagnostics: [PhotoDiagnostic], examples: Int = 3) -> [DiagnosticCount] {
        var groups: [DiagnosticKind: [String]] = [:]
        for diagnostic in diagnostics { groups[diagnostic.kind, default: []].append(diagnostic.path) }
        return groups.map { kind, paths in
            let distinct = Array(Set(paths)).sorted()
            return DiagnosticCount(kind: kind, severity: kind.severity, label: kind.label, count: paths.count,
                                   examples: Array(distinct.prefix(examples)))
        }.sorted { ($0.severity, -$0.count, $0.kind.rawValue) < ($1.severity, -$1.count, $1.kind.rawValue) }
    }
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
    /// Of `new`, the files back after having been removed (at their path, with their content):
    /// the same photos, with their tags, names and notes.
    public var returned = 0
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
    /// Videos among the photos with and without a position, Live Photos' videos included.
    public var videos = 0
    /// Videos that are the moving part of a Live Photo: one moment with their still.
    public var livePhotoVideos = 0
    /// Files that are not photos geotrip reads.
    public var skipped = 0
    /// Photos whose metadata could not be read at all.
    public var errors = 0
    /// Wall-clock duration of the run.
    public var seconds = 0.0
    /// Where the catalog is.
    public var catalog = ""
    /// The folder a catalog given with `--catalog` was remembered for, when this run found it
    /// moved or copied to the folder ingested (`Catalog.claim`).
    public var catalogFollowedFrom: String?
    /// How many diagnostics this run produced in all.
    public var diagnosticCount = 0
    /// The first diagnostics of this run (at most `IngestPipeline.diagnosticsShown`),
    /// problems first.
    public var diagnostics: [PhotoDiagnostic] = []
    /// Every diagnostic of this run, counted by kind: problems first.
    public var diagnosticKinds: [DiagnosticCount] = []

    /// What time and location resolution did, when it ran (nil when nothing had changed).
    public var resolution: ResolutionSummary?
    /// Days, visits, places, countries and distance, when clustering ran.
    public var trip: TripOverview?
    /// Whether every photo was clustered again because this geotrip's clustering rules are
    /// newer than those the catalog was clustered by (visits and places may have changed).
    public var reclusteredByNewRules = false
    /// The names given with `rename` that went with their spots to other places when visits
    /// merged or split (`to`), or whose place is gone (`to` nil), this run (`ManualNames`).
    public var manualNames: [ManualNames.Move] = []
    /// XMP sidecars written (with `--write-xmp`).
    public var sidecarsWritten = 0
    /// What the naming stage did: places named online, from the cache, offline; manual names;
    /// stale answers discarded; places that failed; requests sent.
    public var named = NamingCounts()
    /// What the export stage wrote (journal, GeoJSON), when it ran.
    public var export: ExportSummary?

    /// Creates an empty summary.
    public init() {}
}
