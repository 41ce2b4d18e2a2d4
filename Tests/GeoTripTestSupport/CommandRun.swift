import Foundation

/// One run of the built geotrip binary, with what it printed and how it exited.
public struct CommandRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `geotrip ARGUMENTS` to completion.
    public static func geotrip(_ arguments: [String], in folder: URL? = nil) throws -> CommandRun {
        let process = try launch(arguments, in: folder)
        return process.wait()
    }

    /// Starts `geotrip ARGUMENTS` and returns at once.
    public static func launch(_ arguments: [String], in folder: URL? = nil) throws -> RunningCommand {
        let process = Process()
        process.executableURL = TestPaths.binary
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let output = try TemporaryFolder()
        let out = output.url.appendingPathComponent("stdout"), err = output.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningCommand(process: process, output: output)
    }
}

/// A geotrip process that is still running.
public final class RunningCommand: @unchecked Sendable {
    public let process: Process
    let output: TemporaryFolder

    init(process: Process, output: TemporaryFolder) {
        self.process = process
        self.output = output
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and collects what it printed.
    public func wait() -> CommandRun {
        process.waitUntilExit()
        defer { output.remove() }
        let read = { (name: String) in
            (try? String(contentsOf: self.output.url.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        return CommandRun(status: process.terminationStatus, stdout: read("stdout"), stderr: read("stderr"))
    }
}
