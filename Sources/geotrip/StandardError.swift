import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard error with write(2), ignoring failures. FileHandle's `write(_:)` traps
/// when the write fails, and after a closed terminal (SIGHUP, which a run survives to save its
/// work) every write to it fails with EIO: a progress line or a message must never crash a run.
enum StandardError {
    /// Writes `text` as UTF-8, all of it unless the stream fails.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(STDERR_FILENO, $0.baseAddress! + done, $0.count - done) }
            if count > 0 {
                done += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// write(2), named apart from `StandardError.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
