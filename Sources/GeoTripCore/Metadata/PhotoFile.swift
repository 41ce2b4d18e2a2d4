#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open photo file that hands out byte ranges with `pread`, so a reader takes the few
/// kilobytes of metadata near the start and never the whole photo.
final class PhotoFile {
    /// How much is read up front: enough for the APP1 segment of nearly every JPEG
    /// (which the JPEG standard caps at 64 KiB) and for the first IFDs of a TIFF.
    static let headLength = 65_536 + 1024

    /// Size of the file in bytes.
    let size: Int
    /// The first `min(size, headLength)` bytes.
    let head: [UInt8]
    private let descriptor: Int32
    /// Bytes read from the disk so far, the head included: what a reader cost (the tests hold
    /// a video's reading to kilobytes with it).
    private(set) var bytesRead = 0

    /// Opens `path` and reads its head. Throws a sentence fit for a per-photo diagnostic.
    /// The file is opened with `O_NONBLOCK` and refused unless the opened descriptor is a
    /// regular file: a file swapped for a FIFO (or a device) between the scan and the read would
    /// otherwise block `open` or `read` for ever.
    init(path: [CChar]) throws(PhotoFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw PhotoFileError(errno: errno, action: "open") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw PhotoFileError(errno: code, action: "read the size of")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw PhotoFileError(notRegular: info.st_mode)
        }
        // Reads of a regular file never block; clearing the flag keeps pread's plain semantics.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        self.size = Int(info.st_size)
        self.head = Self.read(descriptor, at: 0, count: min(size, Self.headLength))
        self.bytesRead = head.count
    }

    deinit { close(descriptor) }

    /// A path that opens this very file, whatever its name leads to now, for a library that
    /// opens files itself (libheif): `/proc/self/fd/N`, or `path` where there is no `/proc`.
    /// Opening it again by its name could block for ever on a FIFO swapped in since the
    /// descriptor was checked.
    func openedPath(else path: [CChar]) -> [CChar] {
        guard Self.hasProcFileDescriptors else { return path }
        return Array("/proc/self/fd/\(descriptor)".utf8CString)
    }

    private static let hasProcFileDescriptors = access("/proc/self/fd", X_OK) == 0

    /// Bytes `offset..<offset+count`, from the head when they lie in it, else from the disk.
    /// Returns fewer bytes than asked for only when the file ends first.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, count > 0, offset < size else { return [] }
        let end = min(offset + count, size)
        if end <= head.count { return head[offset..<end] }
        let bytes = Self.read(descriptor, at: offset, count: end - offset)
        bytesRead += bytes.count
        return bytes[...]
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got > 0 {
                    done += got
                } else if got < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            initialized = done
        }
    }
}

/// Why a file could not be opened or read, as one sentence.
struct PhotoFileError: Error, CustomStringConvertible {
    let description: String

    /// A sentence of the caller's.
    init(description: String) {
        self.description = description
    }

    init(errno code: Int32, action: String) {
        description = "could not \(action) the file: \(String(cString: strerror(code)))"
    }

    /// The file was replaced by something that is not a file since the folder was scanned.
    init(notRegular mode: mode_t) {
        description = "it is \(FileSystemKind(mode: mode).phrase), not a photo file (it changed since the folder was listed); it was not read"
    }
}

