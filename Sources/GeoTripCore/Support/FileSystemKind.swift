#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of file system object a path is, in words for messages.
enum FileSystemKind {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other

    /// The kind of a `stat` mode.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// The kind of what is at `path` (following symbolic links), or nil when nothing is there.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(mode: info.st_mode)
    }

    /// "a folder", "a named pipe (FIFO)", ...
    var phrase: String {
        switch self {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .fifo: return "a named pipe (FIFO)"
        case .socket: return "a socket"
        case .characterDevice, .blockDevice: return "a device"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }
}
