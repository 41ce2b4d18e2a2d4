import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What became of one source's thumbnail.
public struct ThumbnailOutcome: Sendable, Equatable {
    /// How the thumbnail came to be, or why there is none.
    public enum Status: Sendable, Equatable {
        /// Made now from the photo's embedded EXIF thumbnail.
        case madeFromEmbedded
        /// Made now by decoding the photo at reduced scale.
        case madeFromImage
        /// The file on disk was made from this very photo (the same pixels, or size and time):
        /// nothing done.
        case current
        /// No still to show (a video); not a problem.
        case noStill
        /// The photo could not be read or decoded; `diagnostic` says why.
        case failed
    }

    /// The photo's catalog id.
    public var photoID: Int64
    /// `thumbs/<id>-<key>.jpg`, relative to the output folder; nil without a thumbnail.
    public var relativePath: String?
    /// What happened.
    public var status: Status
    /// A sentence for the photo when something went wrong (or partly wrong: a damaged photo
    /// whose readable part made a thumbnail).
    public var diagnostic: Diagnostic?
}

/// Makes small JPEG thumbnails (`thumbs/` in the output folder) for the map and the journal:
/// from the EXIF thumbnail a camera embedded when there is one, otherwise by decoding the photo
/// at reduced scale (libjpeg-turbo; libheif for HEIF), always turned upright.
///
/// A thumbnail's name carries its photo's id and a short key of the photo's pixels (a JPEG's
/// `pixelKey`; for other formats, and rows read before it, the file's size and modification
/// time) and the maker's settings, so a rerun sees at once that a thumbnail is current and makes
/// none, and `removeStale` can delete those no current photo names.
public struct ThumbnailMaker: Sendable {
    /// The folder the sources' paths are relative to.
    public var tripFolder: URL
    /// The output folder; thumbnails go into its `thumbs/`.
    public var outputFolder: URL
    /// The longer side of a thumbnail, in pixels.
    public var longSide: Int
    /// JPEG quality, 1-100.
    public var quality: Int

    /// The thumbnails' folder name inside the output folder.
    public static let folderName = "thumbs"
    /// Bumped when the way thumbnails are made changes, so old ones are made again.
    static let version = 1

    /// A maker for the trip in `tripFolder` writing into `outputFolder/thumbs`.
    public init(tripFolder: URL, outputFolder: URL, longSide: Int = 320, quality: Int = 80) {
        self.tripFolder = tripFolder
        self.outputFolder = outputFolder
        self.longSide = longSide
        self.quality = quality
    }

    /// `thumbs/<id>-<key>.jpg` for a still; nil for media without one.
    public func relativePath(for source: ThumbnailSource) -> String? {
        fileName(for: source).map(Self.relativePath(ofName:))
    }

    /// `thumbs/<name>`.
    private static func relativePath(ofName name: String) -> String { folderName + "/" + name }

    /// `<id>-<key>.jpg`, the thumbnail's name in `thumbs/`; nil for media without a still.
    private func fileName(for source: ThumbnailSource) -> String? {
        numbers(for: source).map(Self.name(of:))
    }

    /// `<id>-<key>.jpg`: the key is the first 8 hex digits of the `Fingerprint` of
    /// `"<size> <modified ns> <long side> <quality> <version>"`.
    static func fileName(photoID: Int64, fileSize: Int64, modifiedNanos: Int64, longSide: Int, quality: Int) -> String {
        name(of: nameNumbers(photoID: photoID, fileSize: fileSize, modifiedNanos: modifiedNanos, longSide: longSide, quality: quality))
    }

    /// The numbers of `fileName`'s name, worked out without making it.
    static func nameNumbers(photoID: Int64, fileSize: Int64, modifiedNanos: Int64, longSide: Int, quality: Int) -> NameNumbers {
        NameNumbers(photoID: photoID, key: key(of: [fileSize, modifiedNanos, Int64(longSide), Int64(quality), Int64(version)],
                                               marked: false, fileSize: fileSize))
    }

    /// The numbers of the name of a photo with a key of its pixels (`ThumbnailSource.pixelKey`):
    /// the key is the first 8 hex digits of the `Fingerprint` of `"p<pixel key> <orientation>
    /// <EXIF thumbnail's length> <long side> <quality> <version>"` (0 for no orientation, -1
    /// for no EXIF thumbnail). The photo's size and time are not in it: a photo whose metadata
    /// alone was edited keeps its thumbnail; turning it, or changing its pixels or the EXIF
    /// thumbnail a thumbnail may be made from, names another.
    static func nameNumbers(photoID: Int64, pixelKey: Int64, orientation: Int?, embeddedLength: Int?, longSide: Int, quality: Int) -> NameNumbers {
        NameNumbers(photoID: photoID, key: key(of: [pixelKey, Int64(orientation ?? 0), Int64(embeddedLength ?? -1), Int64(longSide), Int64(quality), Int64(version)],
                                               marked: true, fileSize: 0))
    }

    /// The upper half of the `Fingerprint` of `numbers` in decimal, one space between each,
    /// after a `p` when `marked`.
    private static func key(of numbers: [Int64], marked: Bool, fileSize: Int64) -> UInt32 {
        // At most six numbers of at most 20 characters each, five spaces and the mark.
        let key = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * 20 + 6) { identity -> UInt64 in
            var count = 0
            if marked {
                identity[0] = UInt8(ascii: "p")
                count = 1
            }
            for (index, number) in numbers.prefix(6).enumerated() {
                if index > 0 {
                    identity[count] = UInt8(ascii: " ")
                    count += 1
                }
                count += writeDecimal(number, into: UnsafeMutableBufferPointer(rebasing: identity[count...]))
            }
            return Fingerprint.value(UnsafeBufferPointer(rebasing: identity[..<count]), fileSize: Int(truncatingIfNeeded: fileSize)) >> 32
        }
        return UInt32(truncatingIfNeeded: key)
    }

    /// The name of `numbers`: `<id>-<key>.jpg`, the id in decimal, the key in 8 lowercase hex
    /// digits. Written into the name's own bytes: a library trip rendered again names each of
    /// its thousands of thumbnails, and building these strings by interpolation was most of
    /// telling which were current.
    static func name(of numbers: NameNumbers) -> String {
        String(unsafeUninitializedCapacity: 20 + 1 + 8 + 4) { name in
            var count = writeDecimal(numbers.photoID, into: name)
            name[count] = UInt8(ascii: "-")
            count += 1
            for shift in stride(from: 28, through: 0, by: -4) {
                name[count] = hexDigits[Int((numbers.key >> UInt32(shift)) & 0xF)]
                count += 1
            }
            for byte in ".jpg".utf8 {
                name[count] = byte
                count += 1
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `number` in decimal (`-` first when negative) at the start of `buffer` (room for
    /// 20 bytes); returns how many bytes it took.
    private static func writeDecimal(_ number: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = number.magnitude
        var count = 0
        if number < 0 {
            buffer[0] = UInt8(ascii: "-")
            count = 1
        }
        let start = count
        repeat {
            buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            count += 1
        } while magnitude > 0
        // The digits went in least significant first.
        var low = start, high = count - 1
        while low < high {
            buffer.swapAt(low, high)
            low += 1
            high -= 1
        }
        return count
    }

    /// Makes the thumbnail of one source, unless the current one is already on disk.
    /// Never throws: a photo that cannot be read is an outcome with a diagnostic.
    public func make(_ source: ThumbnailSource) -> ThumbnailOutcome {
        make(source, Folders(self))
    }

    /// The trip folder's and the thumbnails' folder's paths as text, taken from their URLs once
    /// for all the thumbnails `makeAll` makes: `URL.path` for each was a fortieth of a fresh
    /// ingest's time.
    private struct Folders: Sendable {
        var trip: String
        var thumbnails: String

        init(_ maker: ThumbnailMaker) {
            trip = maker.tripFolder.path
            thumbnails = maker.outputFolder.path + "/" + ThumbnailMaker.folderName
        }
    }

    private func make(_ source: ThumbnailSource, _ folders: Folders) -> ThumbnailOutcome {
        guard let name = fileName(for: source) else {
            return ThumbnailOutcome(photoID: source.photoID, relativePath: nil, status: .noStill, diagnostic: nil)
        }
        let relative = Self.relativePath(ofName: name)
        // Paths joined as text: `URL.appendingPathComponent` was a twelfth of a library's export.
        let folder = folders.thumbnails
        let destination = folder + "/" + name
        if Self.isCurrent(destination) {
            return ThumbnailOutcome(photoID: source.photoID, relativePath: relative, status: .current, diagnostic: nil)
        }
        func failed(_ sentence: String) -> ThumbnailOutcome {
            ThumbnailOutcome(photoID: source.photoID, relativePath: nil, status: .failed,
                             diagnostic: Diagnostic(.thumbnail, "no thumbnail: \(sentence)"))
        }
        let still: Still
        do {
            still = try readStill(source, in: folders.trip)
        } catch {
            return failed(error.reason)
        }
        let jpeg: [UInt8]
        do {
            jpeg = try TurboJPEG.encode(still.image.fitted(longSide: longSide), quality: quality)
        } catch {
            return failed(error.reason)
        }
        // Written beside, then renamed: a reader never sees half a thumbnail, and a run stopped
        // midway leaves no file whose name claims it is current. Not flushed: a thumbnail can
        // always be made again, and a flush per thumbnail was a third of a library's export.
        let temporary = folder + "/." + name + ".tmp"
        var failure = Self.save(jpeg, at: temporary)
        if failure == Self.missingFolder {
            // Made alone (not through `makeAll`, which makes the folder once): make it now.
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            failure = Self.save(jpeg, at: temporary)
        }
        if failure == nil && rename(temporary, destination) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            return failed("it could not be saved in \(folder) (\(failure))")
        }
        return ThumbnailOutcome(photoID: source.photoID, relativePath: relative,
                                status: still.fromEmbedded ? .madeFromEmbedded : .madeFromImage,
                                diagnostic: still.warning.map { Diagnostic(.thumbnail, "thumbnail made from the readable part: \($0)") })
    }

    /// Whether the thumbnail at `path` (absolute, or a name in the open folder `directory`) is
    /// current: a file of its name is, unless it is empty. Written without a flush, a thumbnail
    /// can come back empty from a power cut, and is then made again.
    private static func isCurrent(_ path: String, in directory: Int32 = AT_FDCWD) -> Bool {
        var info = stat()
        return fstatat(directory, path, &info, 0) == 0 && info.st_size > 0
    }

    /// The reason `save` gives when the folder is missing.
    private static let missingFolder = String(cString: strerror(ENOENT))

    /// Writes `bytes` to a new file at `path`; the reason when it could not.
    private static func save(_ bytes: [UInt8], at path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += count
        }
        return nil
    }

    /// Makes every source's thumbnail, a few at a time (decoding is CPU-bound), and returns the
    /// outcomes in the sources' order.
    ///
    /// With the folder's `listing` (taken before), a thumbnail it names is current without a
    /// look at the file: a library trip rendered again for a few changed days has thousands,
    /// and a lookup of each was a fifth of its export. Without one, each file is looked at, and
    /// an empty one (a thumbnail written just before a power cut) is made again.
    ///
    /// A task cancelled (Ctrl-C on `ingest`) starts no more: those being made are finished,
    /// and `.interrupted` is thrown (a thumbnail is whole or not there; the next run makes the
    /// rest).
    public func makeAll(_ sources: [ThumbnailSource], listing: Listing? = nil) async throws(GeoTripError) -> [ThumbnailOutcome] {
        // The folder once, not once per thumbnail; a failure shows in each thumbnail's outcome.
        try? FileManager.default.createDirectory(at: outputFolder.appendingPathComponent(Self.folderName), withIntermediateDirectories: true)
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let folders = Folders(self)
        var outcomes = [ThumbnailOutcome?](repeating: nil, count: sources.count)
        // The thumbnails already current are told apart here, each looked up in the open folder:
        // a library trip rendered again has thousands and makes a few, and a task and a whole
        // path's lookup for each was most of its thumbnails' time.
        var toMake: [Int] = []
        let directory = open(folders.thumbnails, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if directory >= 0 { close(directory) } }
        for (index, source) in sources.enumerated() {
            guard let numbers = numbers(for: source) else {
                toMake.append(index)
                continue
            }
            let name = Self.name(of: numbers)
            if listing.map({ $0.numbers.contains(numbers) }) ?? (directory >= 0 && Self.isCurrent(name, in: directory)) {
                outcomes[index] = ThumbnailOutcome(photoID: source.photoID, relativePath: Self.relativePath(ofName: name), status: .current,
                                                   diagnostic: nil)
            } else {
                toMake.append(index)
            }
        }
        await withTaskGroup(of: (Int, ThumbnailOutcome).self) { group in
            var next = 0
            func add() {
                guard next < toMake.count, !Task.isCancelled else { return }
                let index = toMake[next], source = sources[index], maker = self
                group.addTask { (index, maker.make(source, folders)) }
                next += 1
            }
            for _ in 0..<width { add() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                add()
            }
        }
        let made = outcomes.compactMap { $0 }
        guard made.count == sources.count else { throw .interrupted(.elsewhere) }
        return made
    }

    /// The names in `thumbs/` that look like geotrip's thumbnails, as one read of the folder
    /// gives them.
    public struct Listing: Sendable {
        /// Those written as `fileName` writes names, as their numbers.
        var numbers: Set<NameNumbers> = []
        /// The others (`isThumbnailName`, but a leading zero or capitals).
        var otherNames: [String] = []
    }

    /// `thumbs/` read once; nil when it cannot be opened (missing: nothing made yet).
    public func listing() -> Listing? {
        let directory = open(outputFolder.path + "/" + Self.folderName, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return nil }
        defer { close(directory) }
        return Self.listing(of: directory)
    }

    /// The thumbnail names in the open folder `directory`, read from its start.
    private static func listing(of directory: Int32) -> Listing? {
        let copy = dup(directory)
        guard copy >= 0 else { return nil }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return nil
        }
        defer { closedir(stream) }
        var listing = Listing()
        while let entry = readdir(stream) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.prefix { $0 != 0 }
                // A thumbnail being written (`.NAME.tmp`) left by a run stopped midway: none of
                // this run's is, as the folder is read before any is made.
                if name.first == UInt8(ascii: "."), name.count > 5, name.suffix(4).elementsEqual(".tmp".utf8),
                   isThumbnailName(name.dropFirst().dropLast(4)) {
                    unlinkat(dirfd(stream), String(decoding: name, as: UTF8.self), 0)
                    return
                }
                guard isThumbnailName(name) else { return }
                if let numbers = nameNumbers(name) {
                    listing.numbers.insert(numbers)
                } else {
                    listing.otherNames.append(String(decoding: name, as: UTF8.self))
                }
            }
        }
        return listing
    }

    /// Deletes the files in `thumbs/` that look like geotrip's thumbnails (`<id>-<key>.jpg`)
    /// and are not in `keeping` (relative paths as `relativePath` gives them); returns how
    /// many. Anything else a person put there is left alone. The folder is read now, or taken
    /// as `listing` says (read before this run made thumbnails: those it made are kept).
    @discardableResult
    public func removeStale(keeping: some Sequence<String>, listing given: Listing? = nil) -> Int {
        let (kept, keptOtherwise) = Self.keptNames(keeping)
        return removeStale(keeping: kept, otherNames: keptOtherwise, listing: given)
    }

    /// The names of `paths` (relative ones, in `thumbs/`) as numbers, and those written otherwise.
    private static func keptNames(_ paths: some Sequence<String>) -> (Set<NameNumbers>, Set<String>) {
        // Compared as numbers (id and key), not strings: a library trip's folder holds
        // thousands of names, and a string made and hashed for each was most of this.
        // `fileName` writes each name one way only, so equal numbers are equal names; a name
        // written another way (a leading zero, capitals) is kept only when given as it is.
        let prefix = Array((Self.folderName + "/").utf8)
        var kept = Set<NameNumbers>(), keptOtherwise = Set<String>()
        for path in paths {
            let bytes = path.utf8
            guard bytes.starts(with: prefix) else { continue }
            let name = bytes.dropFirst(prefix.count)
            if let numbers = Self.nameNumbers(name) { kept.insert(numbers) } else { keptOtherwise.insert(String(path.dropFirst(prefix.count))) }
        }
        return (kept, keptOtherwise)
    }

    /// `removeStale(keeping:listing:)` with the names to keep as numbers (`kept`) and as written
    /// (`otherNames`), and every name of the photos of `keepingIDs`.
    @discardableResult
    func removeStale(keeping kept: Set<NameNumbers>, otherNames keptOtherwise: Set<String> = [], keepingIDs: Set<Int64> = [],
                     listing given: Listing? = nil) -> Int {
        // The folder read and its files removed through one open descriptor: a trip's folder
        // holds thousands of names, checked whenever the trip is written.
        let folder = outputFolder.path + "/" + Self.folderName
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return 0 }
        defer { close(directory) }
        guard let listing = given ?? Self.listing(of: directory) else { return 0 }
        let stale = listing.numbers.subtracting(kept).filter { !keepingIDs.contains($0.photoID) }.map(Self.name(of:))
            + listing.otherNames.filter { !keptOtherwise.contains($0) }
        return stale.filter { unlinkat(directory, $0, 0) == 0 }.count
    }

    /// A thumbnail's name as numbers: its photo id and its key.
    struct NameNumbers: Hashable, Sendable {
        var photoID: Int64
        var key: UInt32
    }

    /// The numbers of the name `fileName` gives `source`; nil for media without a still.
    func numbers(for source: ThumbnailSource) -> NameNumbers? {
        guard case .photo = source.media else { return nil }
        if let pixelKey = source.pixelKey {
            return Self.nameNumbers(photoID: source.photoID, pixelKey: pixelKey, orientation: source.orientation,
                                    embeddedLength: source.embeddedThumbnail?.length, longSide: longSide, quality: quality)
        }
        return Self.nameNumbers(photoID: source.photoID, fileSize: source.fileSize, modifiedNanos: source.modifiedNanos,
                                longSide: longSide, quality: quality)
    }

    /// The numbers of a name exactly as `fileName` writes it (`<id>-<key>.jpg`, the id in
    /// decimal without a leading zero, the key in 8 lowercase hex digits); nil for any other.
    static func nameNumbers(_ bytes: some Collection<UInt8>) -> NameNumbers? {
        var id: Int64 = 0, key: UInt32 = 0, digits = 0, hex = 0
        var index = bytes.startIndex
        while index != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflow) = id.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !overflowAgain, digits == 0 || id > 0 else { return nil }  // no leading zero
            id = sum
            digits += 1
            index = bytes.index(after: index)
        }
        guard digits > 0, index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") else { return nil }
        index = bytes.index(after: index)
        while hex < 8, index != bytes.endIndex {
            let byte = bytes[index]
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            key = key << 4 | UInt32(value)
            hex += 1
            index = bytes.index(after: index)
        }
        guard hex == 8, bytes[index...].elementsEqual(".jpg".utf8) else { return nil }
        return NameNumbers(photoID: id, key: key)
    }

    /// `<digits>-<8 hex digits>.jpg`.
    /// On the name's bytes: a trip's folder holds thousands, all checked whenever it is written.
    static func isThumbnailName(_ name: String) -> Bool { isThumbnailName(name.utf8) }

    /// `isThumbnailName` of a name's bytes.
    static func isThumbnailName(_ bytes: some Collection<UInt8>) -> Bool {
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")), dash > bytes.startIndex, bytes.count == bytes.distance(from: bytes.startIndex, to: dash) + 1 + 8 + 4,
              bytes[..<dash].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              bytes.dropFirst(bytes.count - 4).elementsEqual(".jpg".utf8) else { return false }
        return bytes[bytes.index(after: dash)...].prefix(8).allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }

    // MARK: Reading

    private struct Still {
        var image: RGBImage
        var fromEmbedded: Bool
        var warning: String?
    }

    /// The largest JPEG read whole for a thumbnail: a 200-megapixel photo is under 100 MB, a
    /// phone's motion photo with its video a few tens.
    static let wholeFileLimit = 512 << 20

    /// What a photo's embedded thumbnail was, for a sentence: none, or one that failed.
    private static func embedded(failed: Bool) -> String {
        failed ? "an embedded thumbnail that could not be decoded" : "no embedded thumbnail"
    }

    private func readStill(_ source: ThumbnailSource, in tripFolder: String) throws(ImageCodingFailure) -> Still {
        let path = tripFolder + "/" + source.path
        let file: PhotoFile
        do {
            file = try PhotoFile(path: Array(path.utf8CString))
        } catch {
            throw ImageCodingFailure(reason: error.description)
        }
        if case .photo(.heif) = source.media {
            // Upright already: libheif applies the container's own rotation. It opens the file
            // the descriptor checked above holds, never the name again (a FIFO put there since
            // would block it).
            // The descriptor stays open while libheif reads through its /proc name.
            return Still(image: try withExtendedLifetime(file) { () throws(ImageCodingFailure) in
                try HeifExifExtractor.still(path: file.openedPath(else: Array(path.utf8CString)), derived: HeifDerivedImages(file: file),
                                            atLeast: longSide)
            }, fromEmbedded: false, warning: nil)
        }
        // The embedded thumbnail (160 x 120 from most cameras) saves decoding megapixels.
        var embeddedFailed = false
        if let embedded = source.embeddedThumbnail, embedded.length > 4, embedded.offset > 0 {
            embeddedFailed = true
            let bytes = Array(file.bytes(at: embedded.offset, count: embedded.length))
            if bytes.count == embedded.length, bytes.starts(with: [0xFF, 0xD8]),
               let decoded = try? TurboJPEG.decode(bytes, atLeast: longSide), decoded.warning == nil {
                return Still(image: decoded.image.upright(orientation: source.orientation), fromEmbedded: true, warning: nil)
            }
            // A damaged embedded thumbnail: the photo itself is the better source.
        }
        if case .photo(let format?) = source.media, format != .jpeg {
            throw ImageCodingFailure(reason: "geotrip decodes JPEG and HEIF photos, and this \(format.rawValue.uppercased()) file has " + Self.embedded(failed: embeddedFailed))
        }
        // A JPEG is decoded from memory: one larger than any camera's (a damaged or crafted
        // file) is not read whole.
        guard file.size <= Self.wholeFileLimit else {
            throw ImageCodingFailure(reason: "it is \(file.size.grouped) bytes, more than the \(Self.wholeFileLimit >> 20) MiB geotrip reads to make a thumbnail, and has "
                                     + Self.embedded(failed: embeddedFailed))
        }
        let whole = Array(file.bytes(at: 0, count: file.size))
        guard whole.count == file.size else { throw ImageCodingFailure(reason: "the file could not be read whole") }
        let decoded = try TurboJPEG.decode(whole, atLeast: longSide)
        return Still(image: decoded.image.upright(orientation: source.orientation), fromEmbedded: false, warning: decoded.warning)
    }
}
