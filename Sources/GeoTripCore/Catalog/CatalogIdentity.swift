import Foundation
import GRDB

/// What is at a catalog path, found without writing anything: `--catalog` may name any file,
/// and opening another program's SQLite database as a pool would already switch it to WAL.
enum CatalogIdentity: Equatable {
    /// Nothing there yet: geotrip creates its catalog.
    case absent
    /// An empty file, or a SQLite database without a single table: geotrip may take it.
    case empty
    /// geotrip's catalog; `current` when no migration is pending (it can be read as it is).
    case geotrip(current: Bool)

    /// The name of geotrip's first migration: a database whose GRDB migrations include it is
    /// a catalog from before the application id was set.
    static let firstMigration = "v1-photos"

    /// Looks at `path` and refuses what geotrip must not open: a folder or device, a file that
    /// is not SQLite, another program's database, a catalog from a newer geotrip.
    static func check(_ path: String) throws(GeoTripError) -> CatalogIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .absent }
            throw .catalogUnwritable(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        let kind = FileSystemKind(mode: info.st_mode)
        guard kind == .regular else { throw .catalogNotAFile(path: path, kind: kind.phrase) }
        // Two names for one database file mean two journals: two runs through them would both
        // write, and SQLite would corrupt it ("How To Corrupt An SQLite Database", 2.5).
        if info.st_nlink > 1 { throw .catalogHardLinked(path: path, links: Int(info.st_nlink)) }
        if info.st_size == 0 { return .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .catalogUnreadable(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        defer { try? handle.close() }  // read-only: nothing to lose on close
        let header: Data?
        do {
            header = try handle.read(upToCount: 16)
        } catch {
            throw .catalogUnreadable(path: path, reason: Catalog.reason(of: error).lowercased())
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw .catalogDamaged(path: path, reason: "it is not a geotrip catalog, or it is damaged")
        }
        return try inspect(path)
    }

    /// The marker, tables and migrations, through a read-only connection.
    private static func inspect(_ path: String) throws(GeoTripError) -> CatalogIdentity {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let look = { (queue: DatabaseQueue) throws -> (Int32, [String], Set<String>) in
            try queue.read { db in
                let marker = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                let applied = tables.contains("grdb_migrations")
                    ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) : []
                return (marker, tables, applied)
            }
        }
        let found: (marker: Int32, tables: [String], applied: Set<String>)
        do {
            // Without a -wal file everything is in the main file, and reading it immutable
            // creates nothing beside it (a WAL database read otherwise gets a -shm file, even
            // one geotrip then refuses). With one, its content counts, so it is read normally.
            if !FileManager.default.fileExists(atPath: path + "-wal") {
                let queue = try DatabaseQueue(path: Catalog.immutableURI(path), configuration: configuration)
                defer { try? queue.close() }
                found = try look(queue)
            } else {
                do {
                    let queue = try DatabaseQueue(path: path, configuration: configuration)
                    defer { try? queue.close() }
                    found = try look(queue)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY {
                    // A WAL database whose -shm cannot be made (a read-only disk).
                    let queue = try DatabaseQueue(path: Catalog.immutableURI(path), configuration: configuration)
                    defer { try? queue.close() }
                    found = try look(queue)
                }
            }
        } catch {
            throw Catalog.classify(error, path: path)
        }
        let ours = found.marker == Catalog.applicationID || (found.marker == 0 && found.applied.contains(firstMigration))
        guard ours else {
            if found.marker == 0 && found.tables.isEmpty { return .empty }
            throw .notACatalog(path: path, tables: found.tables)
        }
        let known = Set(CatalogMigrations.migrator.migrations)
        let unknown = found.applied.subtracting(known)
        if !unknown.isEmpty { throw .catalogTooNew(path: path, unknownMigrations: unknown.sorted()) }
        return .geotrip(current: found.applied == known)
    }
}
