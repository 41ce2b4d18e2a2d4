/// What reading one file gave.
public struct FileReading: Sendable, Equatable {
    /// How far the reading got.
    public enum Status: String, Sendable, Codable {
        /// A photo whose metadata was read (values may still be missing or rejected).
        case read
        /// A photo whose container is too damaged to read any metadata from (an error).
        case unreadable
        /// A file geotrip does not read (not a photo, or a format not supported yet).
        case skipped
    }

    public var status: Status
    /// The container, when the file is an image geotrip knows.
    public var format: ImageFormat?
    /// The values read; for `unreadable` and `skipped` only `diagnostics` is set.
    public var metadata: PhotoMetadata
    /// For `skipped`, why.
    public var skipReason: String?
    /// Content fingerprint used to recognise moved files (see `Fingerprint`).
    public var fingerprint: String
}

/// Reads the metadata of one photo or video file: sniffs the container, takes the EXIF block out
/// of a photo with as few bytes read as the format allows and decodes it with libexif, or reads a
/// video's QuickTime boxes (`QuickTimeReader`).
public struct MetadataReader: Sendable {
    /// Raised whenever a change to the reader can change what it reports: files read by an
    /// older version are read again on the next ingest, whether or not they changed.
    /// 2: videos are read (version 1 skipped them as "not read yet").
    public static let version = 2

    /// Creates a reader.
    public init() {}

    /// Reads the file at `path`. Never throws: every problem becomes a status and a diagnostic.
    public func read(path: String) -> FileReading {
        read(pathBytes: Array(path.utf8))
    }

    /// Reads the file whose path has these bytes (which need not be UTF-8).
    func read(pathBytes: [UInt8]) -> FileReading {
        let path = pathBytes.map { CChar(bitPattern: $0) } + [0]
        let file: PhotoFile
        do {
            file = try PhotoFile(path: path)
        } catch {
            // An empty fingerprint: nothing was read, so it must never match another file.
            return FileReading(status: .unreadable, format: nil, metadata: PhotoMetadata(diagnostics: [Diagnostic(.unreadable, error.description)]),
                               skipReason: nil, fingerprint: "")
        }
        let headFingerprint = { file.size == 0 ? "" : Fingerprint.of(file.head.prefix(16_384), fileSize: file.size) }
        // exiftool keeps the file it edited as NAME_original: a second copy of a photo that is
        // already in the folder, not a photo of the trip.
        if pathBytes.count > 9, pathBytes.suffix(9).elementsEqual("_original".utf8) {
            return FileReading(status: .skipped, format: nil, metadata: PhotoMetadata(),
                               skipReason: "a backup exiftool kept of a photo it edited (NAME_original)", fingerprint: headFingerprint())
        }

        let format: ImageFormat
        switch FileKind.sniff(file.head[...]) {
        case .image(let kind):
            format = kind
        case .unsupported(let reason):
            let named = FileKind.photoExtensions.contains(Self.fileExtension(of: String(decoding: pathBytes, as: UTF8.self)))
            if named && (file.size == 0 || reason == "not an image format geotrip reads") {
                let problem = file.size == 0 ? "the file is empty" : "the file is named like a photo but its content is not an image format geotrip knows"
                return FileReading(status: .unreadable, format: nil, metadata: PhotoMetadata(diagnostics: [Diagnostic(file.size == 0 ? .unreadable : .damaged, problem)]),
                                   skipReason: nil, fingerprint: headFingerprint())
            }
            return FileReading(status: .skipped, format: nil, metadata: PhotoMetadata(), skipReason: reason,
                               fingerprint: headFingerprint())
        }

        if format == .video {
            let video = QuickTimeReader.read(file)
            return FileReading(status: video.foundMovie ? .read : .unreadable, format: format, metadata: video.metadata,
                               skipReason: nil, fingerprint: headFingerprint())
        }
        let contents: ContainerContents
        do {
            contents = try ContainerReader.contents(of: file, format: format, path: path)
        } catch {
            return FileReading(status: .unreadable, format: format, metadata: PhotoMetadata(diagnostics: [Diagnostic(.damaged, error.reason)]),
                               skipReason: nil, fingerprint: headFingerprint())
        }
        guard let exif = contents.exif else {
            if format == .png {
                return FileReading(status: .skipped, format: format, metadata: PhotoMetadata(),
                                   skipReason: "PNG without an eXIf chunk carries no EXIF", fingerprint: headFingerprint())
            }
            var metadata = PhotoMetadata(width: contents.width, height: contents.height, diagnostics: contents.diagnostics)
            metadata.diagnostics.append(Diagnostic(.noExif, "the photo has no EXIF metadata"))
            return FileReading(status: .read, format: format, metadata: metadata, skipReason: nil, fingerprint: headFingerprint())
        }
        var metadata = PhotoMetadata(width: contents.width, height: contents.height, diagnostics: contents.diagnostics)
        ExifDecoder.decode(exif, into: &metadata)
        return FileReading(status: .read, format: format, metadata: metadata, skipReason: nil,
                           fingerprint: Fingerprint.of(exif.bytes, fileSize: file.size))
    }

    private static func fileExtension(of path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }
}
