/// The named stages of `geotrip ingest`, in order.
public enum IngestStage: Int, Sendable, CaseIterable {
    case scan = 1
    case read
    case finish
    case resolve
    case sidecars
    case cluster
    case name

    /// What the progress line calls the stage.
    public var title: String {
        switch self {
        case .scan: return "Scanning folder"
        case .read: return "Reading metadata"
        case .finish: return "Updating catalog"
        case .resolve: return "Resolving times and places"
        case .sidecars: return "Writing XMP sidecars"
        case .cluster: return "Finding visits and places"
        case .name: return "Naming places"
        }
    }
}

/// How far a stage has got. `total` is nil while unknown (during the scan).
public struct IngestProgress: Sendable, Equatable {
    public var stage: IngestStage
    public var done: Int
    public var total: Int?

    /// Creates a progress value.
    public init(stage: IngestStage, done: Int, total: Int?) {
        self.stage = stage
        self.done = done
        self.total = total
    }
}

/// Receives progress as the ingest runs. Implementations throttle their own output.
public protocol IngestProgressReporting: Sendable {
    /// Called whenever a stage starts or advances.
    func report(_ progress: IngestProgress)
    /// Called once when the run ends, successfully or not.
    func finish()
}

/// Reports nothing (for `--quiet`, non-terminals and tests).
public struct SilentProgress: IngestProgressReporting {
    /// Creates a silent reporter.
    public init() {}
    public func report(_ progress: IngestProgress) {}
    public func finish() {}
}
