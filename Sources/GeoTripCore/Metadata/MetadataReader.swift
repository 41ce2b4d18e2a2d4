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
    /// Indices, among the sidecars the reader was given, of those geotrip wrote itself: never
    /// read as input, and their later rewrites by geotrip do not make the photo changed.
    public var geotripSidecars: [Int] = []
    /// Indices of the sidecars that could not be read (permissions, a share gone): the photo
    /// is read again on the next run, though neither it nor they changed.
    public var unreadSidecars: [Int] = []
    /// A key of the pixels (`ContainerContents.pixelKey`, as a signed bit pattern for SQLite),
    /// which names the photo's thumbnail; nil when the reader has none for the format.
    public var pixelKey: Int64?
}

/// Reads the metadata of one photo or video file: sniffs the container, takes the EXIF block and
/// XMP packet out of a photo with as few bytes read as the format allows, decodes the EXIF with
/// libexif and the XMP with libxml2, then reads the XMP sidecars other programs left beside it;
/// or reads a video's QuickTime boxes (`QuickTimeReader`).
///
/// Each value comes from the first of these that has a usable one: the photo's EXIF, its
/// embedded XMP (the main packet, then its extension), the sidecars in the order given
/// (`FolderScanner` gives `IMG_1234.JPG.xmp` before `IMG_1234.xmp`). A sidecar with a
/// property in geotrip's namespace is geotrip's own and is never read as input.
public struct MetadataReader: Sendable {
    /// Raised whenever a change to the reader can change what it reports: files read by an
    /// older version are read again on the next ingest, whether or not they changed.
    /// 2: XMP, embedded and in other programs' sidecars; TIFF directories anywhere; SRATIONAL
    /// GPS; videos (version 1 skipped them as "not read yet"). 3: an offset of `Z` is UTC and
    /// one of other text is said; an altitude goes with its position, and one outside -1 km to
    /// 100 km is said; a sidecar's damage is the sidecar's (`sidecarUnreadable`). 4: the same
    /// altitude bounds for XMP and a video's position, and XMP's altitude goes with its position
    /// too; a video's duration of more than a week, or in a timescale of 0, is said and not kept;
    /// an XMP date's offset out of range is said as that, not as a date that is not real. 5: an
    /// EXIF capture time with slashes, a fraction or an offset after it is read; one at the first
    /// second of Unix time (1970-01-01 00:00:00, a clock never set) is not used, in XMP too; an
    /// XMP time of another moment, or position more than 100 m away, than the one used is said;
    /// so is a JPEG's second Exif segment. 6: an offset out of range after the seconds leaves
    /// the time; a video's movie-header time is not compared with its XMP's. 7: an XMP offset
    /// fills EXIF's missing one for the same wall clock within a second (and a time at the first
    /// second of Unix time says nothing of its offset). 8: a DateTimeOriginal outside the Exif
    /// directory (in IFD0) is read; a PNG without an eXIf chunk is not said to carry no EXIF.
    /// (A PNG's XMP, and a PNG with a sidecar, are read without a new version: the catalog's
    /// migration v32 reads again only the PNGs skipped before.)
    public static let version = 8

    /// Creates a reader.
    public init() {}

    /// Reads the file at `path`, with the XMP sidecars at `sidecars`. Never throws: every
    /// problem becomes a status and a diagnostic.
    public func read(path: String, sidecars: [String] = []) -> FileReading {
        read(pathBytes: Array(path.utf8), sidecars: sidecars.map { Array($0.utf8) })
    }

    /// Reads the file whose path has these bytes (which need not be UTF-8).
    func read(pathBytes: [UInt8], sidecars: [[UInt8]] = []) -> FileReading {
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
            let fileExtension = Self.fileExtension(of: String(decoding: pathBytes, as: UTF8.self))
            let named = FileKind.photoExtensions.contains(fileExtension)
            if named && (file.size == 0 || reason == "not an image format geotrip reads") {
                let kind = FileKind.videoExtensions.contains(fileExtension) ? "a video" : "a photo"
                let whole = file.head.count >= file.size
                let zeros = !file.head.allSatisfy { $0 == 0 } ? ""
                    : whole ? " (it is all zeros: a copy cut off or never finished)"
                    : " (its first \(file.head.count.grouped) bytes are all zeros: a copy cut off or never finished)"
                let problem = file.size == 0 ? "the file is empty" : "the file is named like \(kind) but its content is not a format geotrip knows\(zeros)"
                return FileReading(status: .unreadable, format: nil, metadata: PhotoMetadata(diagnostics: [Diagnostic(file.size == 0 ? .unreadable : .damaged, problem)]),
                                   skipReason: nil, fingerprint: headFingerprint())
            }
            return FileReading(status: .skipped, format: nil, metadata: PhotoMetadata(), skipReason: reason,
                               fingerprint: headFingerprint())
        }

        if format == .video {
            var video = QuickTimeReader.read(file)
            if video.metadata.coordinate != nil { video.metadata.positionSource = .quicktime }
            // Sidecars count for videos as for photos: another program's fills what the boxes lack.
            let found = Self.readSidecars(sidecars, into: &video.metadata)
            return FileReading(status: video.foundMovie ? .read : .unreadable, format: format, metadata: video.metadata,
                               skipReason: nil, fingerprint: headFingerprint(), geotripSidecars: found.geotrips, unreadSidecars: found.unread)
        }
        let contents: ContainerContents
        do {
            contents = try ContainerReader.contents(of: file, format: format, path: path)
        } catch {
            return FileReading(status: .unreadable, format: format, metadata: PhotoMetadata(diagnostics: [Diagnostic(.damaged, error.reason)]),
                               skipReason: nil, fingerprint: headFingerprint())
        }
        // A PNG is a photo when it says when or where it was taken: its eXIf chunk, its XMP, or
        // a sidecar beside it (a screenshot or a drawing has none of them).
        if contents.exif == nil && contents.xmpPacket == nil && sidecars.isEmpty && format == .png {
            return FileReading(status: .skipped, format: format, metadata: PhotoMetadata(),
                               skipReason: "a PNG without an eXIf chunk, XMP or a sidecar: no time or place to read (a screenshot or a drawing)", fingerprint: headFingerprint())
        }
        var metadata = PhotoMetadata(width: contents.width, height: contents.height, diagnostics: contents.diagnostics)
        if let exif = contents.exif {
            ExifDecoder.decode(exif, into: &metadata)
            if metadata.localTime == nil && metadata.coordinate == nil { Self.readPastLibexif(exif, into: &metadata) }
        }
        if let thumbnail = contents.thumbnail { metadata.thumbnail = thumbnail }
        var foundXMP = false
        // EXIF wins wherever it has a value, so a packet beside a complete EXIF (a GPS phone's)
        // could only be checked, never used: it is not parsed, which keeps such JPEGs as cheap
        // to read as before XMP was.
        let exifIsComplete = metadata.coordinate != nil && metadata.altitude != nil && metadata.gpsTime != nil && metadata.localTime != nil
        if let packet = contents.xmpPacket, !exifIsComplete {
            let values = XMPDecoder.decode(packet, origin: "XMP")
            Self.fill(&metadata, from: values, source: .xmp, origin: "its XMP")
            foundXMP = !values.isEmpty
            if let guid = values.extendedGUID {
                foundXMP = Self.fillFromExtension(&metadata, guid: guid, in: contents) || foundXMP
            }
        }
        let fromSidecars = Self.readSidecars(sidecars, into: &metadata)
        if contents.exif == nil && !foundXMP && !fromSidecars.found {
            metadata.diagnostics.append(Diagnostic(.noExif, "the photo has no EXIF metadata"))
        }
        // A TIFF's compact block holds only the tags geotrip decodes, which two scans from one
        // scanner can share down to the size: the file's first bytes (pixels or directories) tell
        // them apart.
        let fingerprint = contents.exif.map {
            Fingerprint.of(format == .tiff ? $0.bytes + file.head.prefix(16_384) : $0.bytes, fileSize: file.size)
        } ?? headFingerprint()
        return FileReading(status: .read, format: format, metadata: metadata, skipReason: nil,
                           fingerprint: fingerprint, geotripSidecars: fromSidecars.geotrips, unreadSidecars: fromSidecars.unread,
                           pixelKey: contents.pixelKey.map { Int64(bitPattern: $0) })
    }

    /// libexif stops reading IFD0 at some damaged entries (a thumbnail pointer past the end of
    /// the block), and so never follows the Exif and GPS pointers after them: a photo whose
    /// time and position exiftool reads had neither. When libexif found neither, geotrip's own
    /// directory reader (`TIFFDirectoryReader`, the one for large TIFF files), which reads each
    /// entry it needs on its own, gives libexif a compact block of those entries; its values
    /// are taken when they hold a time or a position, with a sentence saying so.
    private static func readPastLibexif(_ exif: ExifBlock, into metadata: inout PhotoMetadata) {
        guard exif.bytes.count > ContainerReader.exifHeader.count,
              let found = try? TIFFDirectoryReader.read(TIFFBytesInMemory(storage: exif.bytes[ContainerReader.exifHeader.count...]),
                                                        tiffOffsetInFile: exif.tiffOffsetInFile),
              let block = found.block
        else { return }
        var second = PhotoMetadata(width: metadata.width, height: metadata.height)
        ExifDecoder.decode(block, into: &second)
        guard second.localTime != nil || second.coordinate != nil else { return }
        second.thumbnail = second.thumbnail ?? metadata.thumbnail
        second.diagnostics = metadata.diagnostics + found.diagnostics + second.diagnostics
            + [Diagnostic(.damaged, "libexif stopped at a damaged entry; the time and position were read past it, entry by entry")]
        metadata = second
    }

    /// Fills what `metadata` still lacks from the sidecars other programs wrote, in order.
    /// Returns the indexes of geotrip's own sidecars (never read as input but for a capture time
    /// another program added) and of those that could not be read, and whether any sidecar
    /// gave a value.
    private static func readSidecars(_ sidecars: [[UInt8]], into metadata: inout PhotoMetadata) -> (geotrips: [Int], unread: [Int], found: Bool) {
        var geotrips: [Int] = [], unread: [Int] = [], found = false
        // The sidecar whose position is used, named when another disagrees.
        var positionFrom: String?
        for (index, sidecar) in sidecars.enumerated() {
            let name = fileName(sidecar)
            let values: XMPValues
            do {
                values = XMPDecoder.decode(try contents(ofSidecar: sidecar), origin: "sidecar \(name)", damage: .sidecarUnreadable)
            } catch {
                metadata.diagnostics.append(Diagnostic(.sidecarUnreadable, "its XMP sidecar \(name) could not be read: \(error.description)"))
                unread.append(index)
                continue
            }
            if values.isGeotrips {
                geotrips.append(index)
                // A capture time another program wrote into geotrip's sidecar (exiftool
                // -DateTimeOriginal=… IMG_1.JPG.xmp) is the person's: it fills a photo without one.
                if values.captureTime != nil {
                    fill(&metadata, from: XMPValues(captureTime: values.captureTime, diagnostics: values.diagnostics), source: .sidecar, origin: "its sidecar \(name)")
                    found = true
                }
                continue
            }
            if fill(&metadata, from: values, source: .sidecar, origin: "its sidecar \(name)", positionFrom: positionFrom) { positionFrom = "sidecar \(name)" }
            found = found || !values.isEmpty
        }
        return (geotrips, unread, found)
    }

    /// Fills what the photo's metadata still lacks from one XMP packet, and keeps its diagnostics.
    /// An altitude goes with its position: it is taken only with the packet's position, or when
    /// the photo has no position at all, never under another source's position. A capture time
    /// that another moment than the one taken is said (`origin` names the packet): an editor's
    /// corrected time (Lightroom's Edit Capture Time writes a raw's to its sidecar) is not used.
    /// `positionFrom` names the packet whose position is used, when it is another XMP one;
    /// returns whether this one's position was taken.
    @discardableResult
    static func fill(_ metadata: inout PhotoMetadata, from values: XMPValues, source: LocationSource, origin: String, positionFrom: String? = nil) -> Bool {
        metadata.diagnostics += values.diagnostics
        var tookPosition = false
        if metadata.coordinate == nil, let coordinate = values.coordinate {
            metadata.coordinate = coordinate
            metadata.positionSource = source
            tookPosition = true
        } else if let ours = metadata.coordinate, let theirs = values.coordinate, GreatCircle.distance(ours, theirs) > 100 {
            // Two sidecars of one photo (`IMG.xmp` and `IMG.JPG.xmp`) that disagree, say.
            let apart = GreatCircle.distance(ours, theirs)
            metadata.diagnostics.append(Diagnostic(.positionIgnored, "\(origin) gives a position "
                + (apart < 10_000 ? "\(Int(apart.rounded())) m" : "\(Int((apart / 1000).rounded()).grouped) km")
                + " from the one used (\(positionFrom ?? metadata.positionSource?.rawValue ?? "another source")'s, which comes first); not used"))
        }
        if metadata.altitude == nil, tookPosition || metadata.coordinate == nil { metadata.altitude = values.altitude }
        if metadata.gpsTime == nil { metadata.gpsTime = values.gpsTime }
        if metadata.localTime == nil, let time = values.captureTime {
            metadata.localTime = time.localTime
            metadata.offset = time.offset
            metadata.timeField = time.field
        } else if metadata.offset == nil, let time = values.captureTime, let offset = time.offset,
                  let ours = metadata.localTime, Self.sameMoment(ours, nil, time.localTime, nil) {
            // The same wall clock (within a second) with the offset EXIF lacks (an editor wrote
            // both): the offset fills.
            metadata.offset = offset
        } else if let time = values.captureTime, let ours = metadata.localTime, metadata.timeField != .quickTimeCreateDate,
                  !Self.sameMoment(ours, metadata.offset, time.localTime, time.offset) {
            // A movie header's time has no offset and may be UTC or a wall clock (`VideoClock`):
            // no moment to compare with.
            let theirs = time.localTime.toTheSecond.iso8601 + (time.offset?.description ?? "")
            let taken = ours.toTheSecond.iso8601 + (metadata.offset?.description ?? "")
            metadata.diagnostics.append(Diagnostic(.timeIgnored, "\(origin) gives \(time.field.rawValue) \(theirs), another moment than its "
                + "\(metadata.timeField?.rawValue ?? "capture time") \(taken), which was used (the photo's own comes first); if the XMP holds a "
                + "corrected time, --clock-offset corrects the camera's clock"))
        }
        return tookPosition
    }

    /// Whether two capture times name one moment, within a second (writers cut or round a
    /// fraction): the same instant when both have an offset, else the same wall clock.
    private static func sameMoment(_ a: LocalDateTime, _ aOffset: UTCOffset?, _ b: LocalDateTime, _ bOffset: UTCOffset?) -> Bool {
        let both = aOffset != nil && bOffset != nil
        let shift = both ? Double((bOffset!.minutes - aOffset!.minutes) * 60) : 0
        return abs(a.readAsUTC.timeIntervalSince(b.readAsUTC) + shift) <= 1
    }

    /// Fills from the extended XMP packet the main one names, when the file has it whole.
    /// Returns whether it gave anything.
    private static func fillFromExtension(_ metadata: inout PhotoMetadata, guid: String, in contents: ContainerContents) -> Bool {
        guard let extended = contents.extendedXMP[guid] else {
            metadata.diagnostics.append(Diagnostic(.damaged, "the XMP packet names extended XMP \(guid), which the file does not hold; only the main packet was read"))
            return false
        }
        guard extended.isComplete else {
            let why = extended.problem ?? "some of its chunks are missing (cut short)"
            metadata.diagnostics.append(Diagnostic(.damaged, "the extended XMP packet cannot be reassembled: \(why); only the main packet was read"))
            return false
        }
        let values = XMPDecoder.decode(extended.bytes, origin: "extended XMP")
        fill(&metadata, from: values, source: .xmp, origin: "its extended XMP")
        return !values.isEmpty
    }

    /// A sidecar's bytes, when it is a regular file within `XMPDecoder.maximumPacketSize`.
    private static func contents(ofSidecar path: [UInt8]) throws(PhotoFileError) -> [UInt8] {
        let file = try PhotoFile(path: path.map { CChar(bitPattern: $0) } + [0])
        guard file.size <= XMPDecoder.maximumPacketSize else {
            throw PhotoFileError(description: "it is \(file.size) bytes, more than the \(XMPDecoder.maximumPacketSize >> 20) MiB geotrip reads")
        }
        return Array(file.bytes(at: 0, count: file.size))
    }

    private static func fileName(_ path: [UInt8]) -> String {
        let name = path.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? path
        return String(decoding: name, as: UTF8.self)
    }

    private static func fileExtension(of path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }
}

private extension LocalDateTime {
    /// The same time without its milliseconds (XMP and EXIF keep fractions apart).
    var toTheSecond: LocalDateTime {
        var whole = self
        whole.millisecond = nil
        return whole
    }
}
