import Foundation

/// A running fake Nominatim: its URL and the log of what it was asked.
public final class FakeNominatim: @unchecked Sendable {
    let process = Process()
    let log: URL
    /// `http://127.0.0.1:PORT`.
    public let url: String

    /// Starts the server in `mode` (see the script's doc string).
    public init(in temp: TemporaryFolder, mode: String = "ok") throws {
        log = temp.url.appendingPathComponent("requests-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("Tests/geotripTests/Fixtures/fake_nominatim.py").path, log.path, mode]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is the port it listens on.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        url = "http://127.0.0.1:" + String(decoding: line, as: UTF8.self)
    }

    /// Each request the server received.
    public var requests: [[String: Any]] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        } ?? []
    }

    /// Asks the server's control endpoint (`release`, `mode?m=...`), through python3's
    /// urllib (Foundation on Linux reads no http URL synchronously).
    public func control(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()", url + "/_control/" + command]
        try process.run()
        process.waitUntilExit()
    }

    /// Waits until the server has received `count` requests (at most 60 s).
    public func waitForRequests(_ count: Int) -> Bool {
        for _ in 0..<600 {
            if requests.count >= count { return true }
            usleep(100_000)
        }
        return false
    }

    deinit {
        // SIGKILL: the test runner's children start with SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
