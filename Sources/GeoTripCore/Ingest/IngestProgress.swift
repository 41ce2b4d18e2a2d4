#if canImport(Glibc)
import CMalloc
#endif
import Foundation
import Logging

/// The named stages of `geotrip ingest`, in data order.
public enum IngestStage: String, Sendable, CaseIterable {
    case scan
    case plan
    case read
    case resolve
    case sidecars
    case cluster
    case name
    case export
}

/// How far a stage has got. `total` is nil while unknown (during the scan).
public struct IngestProgress: Sendable, Equatable {
    public var stage: IngestStage
    /// The stage's place among the stages this run goes through, and how many there are.
    public var number: Int
    public var count: Int
    public var done: Int
    public var total: Int?

    /// Creates a progress value.
    public init(stage: IngestStage, number: Int, count: Int, done: Int, total: Int?) {
        self.stage = stage
        self.number = number
        self.count = count
        self.done = done
        self.total = total
    }
}

extension IngestProgress {
    /// The progress line, `elapsed` seconds into the stage: `[3/6] read  1,234/10,000  5,678 files/s  ETA 2 s`;
    /// the naming stage counts places, resolution and clustering photos, the export the photos
    /// of the trips it writes, and a long wait is said in minutes (`ETA 5 min`).
    public func line(elapsed: Double) -> String {
        var line = "[\(number)/\(count)] \(stage.rawValue)"
        guard let total = total else { return line + "…" }
        line += "  \(done.grouped)/\(total.grouped)"
        if elapsed > 0.2 && done > 0 {
            let rate = Double(done) / elapsed
            line += rate < 10 ? String(format: "  %.1f", rate) : "  \(Int(rate).grouped)"
            line += stage == .name ? " places/s" : [.export, .resolve, .cluster].contains(stage) ? " photos/s" : " files/s"
            let left = Double(total - done) / rate
            line += "  ETA " + (left < 1 ? "<1 s" : left < 90 ? "\(Int(left.rounded())) s" : "\(Int((left / 60).rounded())) min")
        }
        return line
    }
}

/// Receives progress as the ingest runs. Implementations throttle their own output.
public protocol IngestProgressReporting: Sendable {
    /// Called whenever a stage starts or advances.
    func report(_ progress: IngestProgress)
    /// Called once when the run ends, successfully or not.
    func finish()
    /// Something the person should hear while the run goes on (a slow service), once.
    func notice(_ sentence: String)
}

extension IngestProgressReporting {
    /// Reporters without a live display keep notices for the summary alone.
    public func notice(_ sentence: String) {}
}

/// Reports nothing (for `--quiet`, non-terminals and tests).
public struct SilentProgress: IngestProgressReporting {
    /// Creates a silent reporter.
    public init() {}
    public func report(_ progress: IngestProgress) {}
    public func finish() {}
}

/// The stages one run goes through, in order: they number its progress lines (`[3/6] read`),
/// name the stage an error came from, and log each stage's time (`--verbose`).
struct StageList: Sendable {
    let stages: [IngestStage]
    let reporter: any IngestProgressReporting
    let logger: Logger?

    /// The stages of a run; sidecars only with `--write-xmp`.
    init(_ stages: [IngestStage], writeXMP: Bool, reporter: any IngestProgressReporting, logger: Logger? = nil) {
        self.stages = stages.filter { $0 != .sidecars || writeXMP }
        self.reporter = reporter
        self.logger = logger
    }

    /// Tells the reporter how far `stage` has got.
    func report(_ stage: IngestStage, done: Int = 0, total: Int? = nil) {
        let number = (stages.firstIndex(of: stage) ?? stages.count) + 1
        reporter.report(IngestProgress(stage: stage, number: number, count: stages.count, done: done, total: total))
    }

    /// Passes a notice on to the reporter.
    func notice(_ sentence: String) {
        reporter.notice(sentence)
    }

    /// The run's peak memory so far, for the stage times `--verbose` logs: which stage holds
    /// the most is how a library's memory is kept bounded.
    static var peakMemory: String {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return "" }
        let megabytes = usage.ru_maxrss / 1024  // kilobytes on Linux
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return "" }
        let megabytes = usage.ru_maxrss / 1_048_576  // bytes on Darwin
        #endif
        return " (peak memory so far \(megabytes) MB)"
    }

    /// Gives the memory a stage freed back to the system. glibc keeps freed memory in its
    /// arenas for reuse, and the read stage's many threads leave a few hundred megabytes there
    /// at a million photos, on top of which the next stage's own peak would come.
    static func returnFreedMemory() {
        #if canImport(Glibc)
        malloc_trim(0)
        #endif
    }

    /// Runs a catalog write that follows a stage's work (storing what it found), logging its
    /// time beside the stages' own (`--verbose`): at a million photos such writes take seconds.
    func timed<T>(_ step: String, _ body: () throws -> T) rethrows -> T {
        let started = ContinuousClock.now
        defer {
            Self.returnFreedMemory()
            logger?.debug("\(step) took \((ContinuousClock.now - started).seconds) s\(Self.peakMemory)")
        }
        return try body()
    }

    /// Runs one stage: reports its start, and tags a run error from it with its name and number
    /// (an interruption is not an error of the stage and is passed on as it is).
    func run<T>(_ stage: IngestStage, _ body: () async throws -> T) async throws -> T {
        report(stage)
        let started = ContinuousClock.now
        defer {
            Self.returnFreedMemory()
            logger?.debug("\(stage.rawValue) took \((ContinuousClock.now - started).seconds) s\(Self.peakMemory)")
        }
        do {
            return try await body()
        } catch let error as GeoTripError {
            if case .interrupted = error { throw error }
            if case .stageFailed = error { throw error }
            throw GeoTripError.stageFailed(stage: stage.rawValue, number: (stages.firstIndex(of: stage) ?? 0) + 1,
                                           count: stages.count, error: error)
        }
    }
}
