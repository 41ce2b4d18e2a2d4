import Foundation
import Synchronization

/// A live progress line on standard error: stage, count, files per second and time left.
/// Redrawn at most ten times a second; cleared when the run ends so the summary starts clean.
/// Use it only when standard error is a terminal (`TerminalProgress.isTerminal`).
public final class TerminalProgress: IngestProgressReporting {
    private struct State {
        var stageStarted = ContinuousClock.now
        var stage: IngestStage?
        var lastDraw = ContinuousClock.now - .seconds(1)
        var drawn = false
    }

    private let state = Mutex(State())

    /// Creates a reporter.
    public init() {}

    /// Whether standard error is a terminal (so a redrawn line makes sense).
    public static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    public func report(_ progress: IngestProgress) {
        let line: String? = state.withLock { state in
            let now = ContinuousClock.now
            if state.stage != progress.stage {
                state.stage = progress.stage
                state.stageStarted = now
            } else if now - state.lastDraw < .milliseconds(100) && progress.done != progress.total {
                return nil
            }
            state.lastDraw = now
            state.drawn = true
            return Self.render(progress, elapsed: (now - state.stageStarted).seconds)
        }
        if let line { StandardError.write("\r\u{1B}[K" + line) }
    }

    public func finish() {
        let drawn = state.withLock { $0.drawn }
        if drawn { StandardError.write("\r\u{1B}[K") }
    }

    /// `[3/6] read  1,234/10,000  5,678 files/s  ETA 2 s`
    static func render(_ progress: IngestProgress, elapsed: Double) -> String {
        var line = "[\(progress.number)/\(progress.count)] \(progress.stage.rawValue)"
        guard let total = progress.total else { return line + "…" }
        line += "  \(progress.done.formatted())/\(total.formatted())"
        if elapsed > 0.2 && progress.done > 0 {
            let rate = Double(progress.done) / elapsed
            line += "  \(Int(rate).formatted()) files/s"
            let left = Double(total - progress.done) / rate
            line += "  ETA \(left < 1 ? "<1" : String(Int(left.rounded()))) s"
        }
        return line
    }
}
