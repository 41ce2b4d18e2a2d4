import Foundation
import GeoTripCore
import Synchronization

/// A live progress line on standard error: stage, count, files per second and time left.
/// Redrawn at most ten times a second; cleared when the run ends so the summary starts clean.
/// Use it only when standard error is a terminal (`TerminalProgress.isTerminal`).
final class TerminalProgress: IngestProgressReporting {
    private struct State {
        var stageStarted = ContinuousClock.now
        var stage: IngestStage?
        var lastDraw = ContinuousClock.now - .seconds(1)
        var drawn = false
    }

    private let state = Mutex(State())

    /// Creates a reporter.
    init() {}

    /// Whether standard error is a terminal (so a redrawn line makes sense).
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    func report(_ progress: IngestProgress) {
        let line = state.withLock { (state: inout State) -> String? in
            let now = ContinuousClock.now
            if state.stage != progress.stage {
                state.stage = progress.stage
                state.stageStarted = now
            } else if now - state.lastDraw < .milliseconds(100) && progress.done != progress.total {
                return nil
            }
            state.lastDraw = now
            state.drawn = true
            return progress.line(elapsed: (now - state.stageStarted).seconds)
        }
        if let line { StandardError.write("\r\u{1B}[K" + line) }
    }

    /// Prints the notice on its own line; the progress line is drawn again under it.
    func notice(_ sentence: String) {
        state.withLock { $0.lastDraw = ContinuousClock.now - .seconds(1) }
        StandardError.write("\r\u{1B}[K" + "geotrip: " + sentence + "\n")
    }

    func finish() {
        let drawn = state.withLock { $0.drawn }
        if drawn { StandardError.write("\r\u{1B}[K") }
    }
}

/// For standard error that is not a terminal (a log, a pipe): no progress line, but a notice
/// (the place-name service is slow) is said as it happens, one line, as on a terminal.
struct NoticeLines: IngestProgressReporting {
    func report(_ progress: IngestProgress) {}
    func finish() {}
    func notice(_ sentence: String) { StandardError.write("geotrip: " + sentence + "\n") }
}

extension TerminalProgress {
    /// What a run shows as it goes: nothing with `--quiet`, the live line on a terminal, the
    /// notices alone elsewhere.
    static func reporter(quiet: Bool) -> any IngestProgressReporting {
        if quiet { return SilentProgress() }
        return isTerminal ? TerminalProgress() : NoticeLines()
    }
}
