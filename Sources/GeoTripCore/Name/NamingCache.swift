import Foundation
import GRDB

/// The online namer's memory, shared by every trip and every geotrip process of the user: the
/// answers each service gave, and each service's next free turn, in one small SQLite file in
/// the user's cache folder (`$XDG_CACHE_HOME/geotrip/names.sqlite`, else
/// `~/.cache/geotrip/names.sqlite`).
///
/// The turns make the rate limit hold for the whole machine, not per process: a request's turn
/// is claimed in a write transaction (SQLite serialises them across processes), so two ingests
/// of two trips at once share one budget per server. The answers make the same hotel in two
/// trips one request, and a language switch ask only for what is not known in it.
public struct NamingCache: Sendable {
    /// Where the file is; nil for a cache kept in memory for this run only.
    public let path: String?
    let database: any DatabaseWriter

    /// Answers older than this are asked again (OpenStreetMap changes; names rarely do).
    static let answerLifetime: TimeInterval = 180 * 86_400

    /// The user's shared cache, made if missing.
    public static func shared(environment: [String: String] = ProcessInfo.processInfo.environment) throws(GeoTripError) -> NamingCache {
        let path = Self.defaultPath(environment: environment)
        let folder = (path as NSString).deletingLastPathComponent
        // The folder, or one it would be made in (XDG_CACHE_HOME naming a file), being a file.
        var ancestor = folder
        while !ancestor.isEmpty, ancestor != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isFolder) {
                if !isFolder.boolValue { throw .namingCacheUnusable(path: path, reason: "\(ancestor) is a file, not a folder") }
                break
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Runs opening the cache at once take turns here, by an advisory lock on a file
            // beside it, held while the file is made and migrated (below): the lock is let go
            // when this returns, or when the process ends, however it ends.
            let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            if lock >= 0 { flock(lock, LOCK_EX) }
            defer { if lock >= 0 { close(lock) } }
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            configuration.label = "geotrip.names"
            let pool = try DatabasePool(path: path, configuration: configuration)
            // Two runs making the file at once: the migrator reads which migrations are applied
            // before it takes the write lock, so the second to write finds the tables made by
            // the first and fails. The lock above keeps them apart; where a file system has no
            // such locks, asked again, it finds the migration applied: a few tries, each later.
            for attempt in 1... {
                do {
                    try Self.migrator.migrate(pool)
                    break
                } catch where attempt < 8 {
                    usleep(useconds_t(20_000 * attempt))
                }
            }
            return NamingCache(path: path, database: pool)
        } catch {
            throw .namingCacheUnusable(path: path, reason: Catalog.reason(of: error))
        }
    }

    /// A cache for this run only, when the shared one cannot be used: requests are then paced
    /// within this process alone.
    public static func inMemory() -> NamingCache {
        // An in-memory queue with the schema cannot fail short of memory running out.
        let queue = try! DatabaseQueue()
        try! Self.migrator.migrate(queue)
        return NamingCache(path: nil, database: queue)
    }

    /// `$XDG_CACHE_HOME/geotrip/names.sqlite`, else `$HOME/.cache/geotrip/names.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        return base + "/geotrip/names.sqlite"
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-answers-and-turns") { db in
            // `request` is the endpoint and its query without the language, which is apart.
            try db.execute(sql: """
                CREATE TABLE answer (
                    server TEXT NOT NULL, request TEXT NOT NULL, language TEXT NOT NULL,
                    body BLOB NOT NULL, fetchedAt DOUBLE NOT NULL,
                    PRIMARY KEY (server, request, language)) WITHOUT ROWID;
                CREATE TABLE serverTurn (server TEXT PRIMARY KEY NOT NULL, nextTurn DOUBLE NOT NULL, lastSent DOUBLE NOT NULL DEFAULT 0) WITHOUT ROWID;
                """)
        }
        // When a hold a server asked for ends, apart from the turns it pushed back, so a run
        // waiting on a hold another run was told of can say why it waits (`heldUntil`).
        migrator.registerMigration("v2-holds") { db in
            try db.execute(sql: "ALTER TABLE serverTurn ADD COLUMN heldUntil DOUBLE NOT NULL DEFAULT 0")
        }
        return migrator
    }

    /// The stored answer to `request`, when there is one young enough.
    func answer(server: String, request: String, language: String, now: Double) throws -> Data? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT body, fetchedAt FROM answer WHERE server = ? AND request = ? AND language = ?",
                             arguments: [server, request, language])
                .flatMap { row in now - (row["fetchedAt"] as Double) < Self.answerLifetime ? row["body"] as Data : nil }
        }
    }

    /// Stores an answer that was read successfully.
    func store(_ body: Data, server: String, request: String, language: String, now: Double) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO answer (server, request, language, body, fetchedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (server, request, language) DO UPDATE SET body = excluded.body, fetchedAt = excluded.fetchedAt
                """, arguments: [server, request, language, body, now])
        }
    }

    /// Claims the next turn to send a request to `server`: the later of now and the server's
    /// next free turn, which moves `interval` on. Returns the turn (seconds since 1970).
    ///
    /// A token bucket with a burst of one, kept in the file: every process claiming turns of
    /// one server gets them at least `interval` apart. A next turn far in the future is from a
    /// wall clock set back, and is not waited for.
    func claimTurn(server: String, interval: Double, now: Double) throws -> Double {
        try database.write { db in
            let next = try Double.fetchOne(db, sql: "SELECT nextTurn FROM serverTurn WHERE server = ?", arguments: [server]) ?? 0
            let turn = next > now + Self.longestQueue ? now : max(now, next)
            try db.execute(sql: """
                INSERT INTO serverTurn (server, nextTurn) VALUES (?, ?)
                ON CONFLICT (server) DO UPDATE SET nextTurn = excluded.nextTurn
                """, arguments: [server, turn + interval])
            return turn
        }
    }

    /// Records that a request to `server` goes out now, unless the last one went out less than
    /// `interval` ago: then returns when this one may go. Turns are claimed ahead of time; a
    /// process woken late for its turn (a busy machine, a first connection) would otherwise
    /// send right before the next process's request. This keeps the moments of sending, which
    /// is what the server sees, `interval` apart.
    func recordSend(server: String, interval: Double, now: Double) throws -> Double? {
        try database.write { db in
            let last = try Double.fetchOne(db, sql: "SELECT lastSent FROM serverTurn WHERE server = ?", arguments: [server]) ?? 0
            if now < last + interval && last <= now + Self.longestQueue { return last + interval }
            try db.execute(sql: """
                INSERT INTO serverTurn (server, nextTurn, lastSent) VALUES (?, ?, ?)
                ON CONFLICT (server) DO UPDATE SET lastSent = excluded.lastSent
                """, arguments: [server, now + interval, now])
            return nil
        }
    }

    /// Holds every request to `server` back until `moment`, in every process (a `Retry-After`
    /// the server sent): no turn is given before it, and no request whose turn was given goes
    /// out before it.
    func holdOff(server: String, until moment: Double, interval: Double) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO serverTurn (server, nextTurn, lastSent, heldUntil) VALUES (?1, ?2, ?2 - ?3, ?2)
                ON CONFLICT (server) DO UPDATE SET nextTurn = max(nextTurn, excluded.nextTurn), lastSent = max(lastSent, excluded.lastSent),
                    heldUntil = max(heldUntil, excluded.heldUntil)
                """, arguments: [server, moment, interval])
        }
    }

    /// When the last hold asked of `server` (by this run or another) ends: 0 when none was, and
    /// for one so far ahead that a wall clock was set back (as for turns).
    func heldUntil(server: String, now: Double) throws -> Double {
        let held = try database.read { db in
            try Double.fetchOne(db, sql: "SELECT heldUntil FROM serverTurn WHERE server = ?", arguments: [server]) ?? 0
        }
        return held > now + Self.longestQueue ? 0 : held
    }

    /// Ten minutes: no honest queue of turns reaches that far ahead.
    static let longestQueue: Double = 600
}

/// Time for the online namer: wall-clock seconds (turns are shared between processes, so a
/// clock every process reads alike) and sleeping until a moment. Injected, so rate limits and
/// backoff are tested without sleeping.
public protocol NamingClock: Sendable {
    /// Seconds since 1970.
    func now() -> Double
    /// Returns at `moment` (at once when it has passed); throws when the task is cancelled.
    func sleep(until moment: Double) async throws
}

/// The real clock.
public struct SystemNamingClock: NamingClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Double { Date().timeIntervalSince1970 }

    public func sleep(until moment: Double) async throws {
        let wait = moment - now()
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) }
    }
}
