import Foundation
import Synchronization

/// An exclusive lock that keeps two runs from changing one catalog's photos, resolution and
/// places at once (ingest, tag, rename).
///
/// The online naming phase runs without it (`release()`): it only adds names, each through the
/// stale-answer guard in its own short transaction, so a `tag` or `rename` from another
/// terminal is never kept waiting on the network, and its changes win over answers in flight.
///
/// It is an advisory `flock` on `<catalog>.lock`, which the kernel releases when the holder
/// exits for any reason, kill -9 included, so a crashed run never leaves a stale lock. The
/// holder's pid is written into the file for the message the second run shows.
public final class CatalogLock: Sendable {
    /// The lock file's descriptor while the lock is held; -1 after `release()`.
    private let descriptor: Mutex<Int32>

    /// The suffix of the run lock's file, after the catalog's name.
    public static let runSuffix = ".lock"
    /// The suffix of the naming lock's file: held by the run asking the online service for the
    /// catalog's names, so that a second run of the same trip at once (a second terminal, a
    /// scheduled run) leaves the places to it rather than asking for each again.
    public static let namingSuffix = ".naming.lock"

    /// Takes the lock for the catalog at `catalogPath` (the run lock, or another by its file's
    /// `suffix`), or throws `catalogBusy` at once.
    /// The lock file sits beside the real catalog file, found through symbolic links, so the
    /// same catalog named two ways (a linked folder, a link to the file) is one lock.
    public init(catalogPath: String, suffix: String = CatalogLock.runSuffix) throws(GeoTripError) {
        let lockPath = RealPath.ofFile(catalogPath) + suffix
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .catalogUnwritable(path: catalogPath, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(descriptor)
            close(descriptor)
            throw .catalogBusy(path: catalogPath, pid: holder)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock again after `release()`, waiting (up to `patience` seconds) for another
    /// run that took it meanwhile (a `tag` from another terminal) to finish.
    public func reacquire(path catalogPath: String, patience: Double = 600) async throws(GeoTripError) {
        if descriptor.withLock({ $0 >= 0 }) { return }
        let deadline = ContinuousClock.now + .milliseconds(Int64(patience * 1000))
        while true {
            do {
                let fresh = try CatalogLock(catalogPath: catalogPath)
                // Take the new lock's descriptor over; the fresh object must not close it.
                let taken = fresh.descriptor.withLock { value in
                    let taken = value
                    value = -1
                    return taken
                }
                descriptor.withLock { $0 = taken }
                return
            } catch {
                guard case .catalogBusy = error, ContinuousClock.now < deadline else { throw error }
                do { try await Task.sleep(for: .milliseconds(100)) } catch { throw .interrupted(.elsewhere) }
            }
        }
    }

    /// Gives the lock up now (idempotent).
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            // Unlocked before it is closed: a process another thread starts meanwhile holds a
            // copy of the descriptor from its fork to its exec, and the lock belongs to the open
            // file that copy shares, so closing ours alone could leave it held for that instant
            // (a run right after this one in the same process was refused as busy).
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit {
        release()
    }

    private static func readPID(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
