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
        FileHandle.standardError.write(Data("geotrip: \(error.description)\n".utf8))
        if case .interrupted = error { return ExitCode(130) }
        return ExitCode.failure
    }

    /// The embedded gazetteer, or the exit code after saying why it could not be loaded.
    static func loadGazetteer() throws -> Gazetteer {
        do {
            return try Gazetteer.load()
        } catch {
            throw fail(error)
        }
    }

    /// Writes `value` as pretty, key-sorted JSON on standard output.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }

    /// Cancels `task` on the first Ctrl-C so the run commits what it has read and stops;
    /// a second Ctrl-C exits at once (the catalog stays consistent either way).
    static func cancelOnInterrupt<T: Sendable>(_ task: Task<T, any Error>) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if task.isCancelled { exit(130) }
            FileHandle.standardError.write(Data("\ngeotrip: stopping after the current batch (Ctrl-C again to quit now)\n".utf8))
            task.cancel()
        }
        source.resume()
        return source
    }
}
