import ArgumentParser
import Dispatch
import Foundation
import GeoTripCore
import Logging

/// How the command line reports: logging set-up, fatal errors, JSON, interrupts.
enum Diagnostics {
    /// Sends swift-log output to standard error; `--verbose` shows debug messages.
    static func bootstrapLogging(verbose: Bool) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
    }

    /// Prints a run-level error as one sentence and returns the exit code to throw.
    static func fail(_ error: GeoTripError) -> ExitCode {
        StandardError.write("geotrip: \(error.description.terminalSafe)\n")
        if case .interrupted = error { return ExitCode(ReceivedSignal.shared.exitCode) }
        return ExitCode.failure
    }

    /// The embedded gazetteer, or the exit code after saying why it could not be loaded; a
    /// missing or damaged time zone index is a warning (zones then come from the nearest town).
    static func loadGazetteer(usesZones: Bool = true) throws -> Gazetteer {
        let gazetteer: Gazetteer
        do {
            gazetteer = try Gazetteer.load()
        } catch {
            throw fail(error)
        }
        if usesZones, let problem = gazetteer.zoneIndexProblem {
            StandardError.write("geotrip: warning: \(Gazetteer.fallbackSentence(problem).terminalSafe)\n")
        }
        return gazetteer
    }

    /// Writes `value` as pretty, key-sorted JSON on standard output.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        // Foundation pretty-prints an empty array as `[`, a blank line, `]`.
        if data == Data("[\n\n]".utf8) { data = Data("[]".utf8) }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }

    /// Cancels `task` on the first Ctrl-C (SIGINT), SIGTERM or SIGHUP (a closed terminal), so
    /// the run commits what it has read, leaves the current stage finished or resumable, and
    /// stops; a second signal exits at once (the catalog stays consistent either way). The run
    /// then exits with 128 + the signal's number, as a shell reports a process ended by it.
    static func cancelOnSignals<T: Sendable>(_ task: Task<T, any Error>) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if task.isCancelled { exit(128 + number) }
                ReceivedSignal.shared.record(number)
                let how = number == SIGINT ? "Ctrl-C" : "the signal"
                StandardError.write("\ngeotrip: stopping after the current batch (\(how) again to quit now)\n")
                task.cancel()
            }
            source.resume()
            return source
        }
    }
}

/// The first stop signal the run received, for its exit code.
final class ReceivedSignal: @unchecked Sendable {
    static let shared = ReceivedSignal()
    private let lock = NSLock()
    private var number: Int32?

    /// Keeps the first signal only.
    func record(_ signal: Int32) {
        lock.withLock { if number == nil { number = signal } }
    }

    /// 128 + the signal, or 130 (Ctrl-C's) when the stop came some other way.
    var exitCode: Int32 { lock.withLock { 128 + (number ?? SIGINT) } }
}
