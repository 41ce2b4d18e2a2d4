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

    /// Runs another copy of the binary, with extra environment variables, to completion.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandRun {
        try launch(arguments, executable: executable, environment: environment).wait()
    }

    /// Starts `geotrip ARGUMENTS` and returns at once; `stdin` is written to its standard input.
    public static func launch(_ arguments: [String], in folder: URL? = nil, stdin: Data? = nil,
                              executable: URL = TestPaths.binary, environment: [String: String] = [:]) throws -> RunningCommand {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = try TemporaryFolder()
        // The online namer's shared cache goes to a folder of this run's own unless a test
        // shares one on purpose: nothing a test does touches the real home folder.
        var environment = environment
        if environment["XDG_CACHE_HOME"] == nil { environment["XDG_CACHE_HOME"] = output.url.appendingPathComponent("cache").path }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if let folder { process.currentDirectoryURL = folder }
        let out = output.url.appendingPathComponent("stdout"), err = output.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin {
            let input = output.url.appendingPathComponent("stdin")
            try stdin.write(to: input)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
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
