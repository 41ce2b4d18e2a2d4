import Foundation

/// Which videos are the moving part of a Live Photo, and of which still.
///
/// An iPhone writes a Live Photo as a HEIC (or JPEG) and a short MOV with the same name stem in
/// the same folder (`IMG_1234.HEIC`, `IMG_1234.MOV`), and puts one content identifier in both:
/// the MOV's in its `com.apple.quicktime.content.identifier` key, the still's in Apple's maker
/// note. libexif does not decode Apple's maker note, so geotrip has no still's identifier today;
/// the pairing takes a still's identifier when one is known (it wins, across names), and
/// otherwise pairs by stem, except where both carry identifiers that differ. A pair by stem
/// must also be one moment: both files need a capture time, and their wall clocks (the still's
/// EXIF time, the video's Apple creation date) at most `maximumApart` from each other. Names
/// repeat (`IMG_0003.JPG` from a camera, `IMG_0003.MOV` from a phone), moments do not.
enum LivePhotoPairing {
    /// A Live Photo's video starts about 1.5 s before the still and lasts about 3 s.
    static let maximumApart: Double = 10

    /// One file of the pairing's input.
    struct Media: Equatable {
        var id: Int64
        /// Relative to the trip folder, `/`-separated.
        var path: String
        var contentIdentifier: String?
        /// The wall-clock capture time as the catalog keeps it (`LocalDateTime.iso8601`).
        var localTime: String? = nil
    }

    /// The still of each video that is the moving part of a Live Photo, by video id.
    static func stills(videos: [Media], stills: [Media]) -> [Int64: Int64] {
        var byStem: [String: [Media]] = [:]
        var byIdentifier: [String: Media] = [:]
        for still in stills {
            byStem[stem(still.path), default: []].append(still)
            if let identifier = still.contentIdentifier { byIdentifier[identifier] = byIdentifier[identifier] ?? still }
        }
        var pairs: [Int64: Int64] = [:]
        var taken = Set<Int64>()
        for video in videos.sorted(by: { $0.path < $1.path }) {
            let candidate: Media?
            if let identifier = video.contentIdentifier, let still = byIdentifier[identifier] {
                candidate = still
            } else {
                // Several stills of one stem (IMG_1.HEIC and IMG_1.JPG, an export beside the
                // original): the first by path, so the choice is the same on every run.
                candidate = byStem[stem(video.path)]?.sorted { $0.path < $1.path }.first { still in
                    if let ours = video.contentIdentifier, let theirs = still.contentIdentifier { return ours == theirs }
                    guard let videoTime = seconds(video.localTime), let stillTime = seconds(still.localTime) else { return false }
                    return abs(videoTime - stillTime) <= maximumApart
                }
            }
            // One video per still: a second clip of the same stem is a video of its own.
            guard let still = candidate, !taken.contains(still.id) else { continue }
            taken.insert(still.id)
            pairs[video.id] = still.id
        }
        return pairs
    }

    /// Seconds of a stored wall-clock time on a scale that only needs to measure differences.
    private static func seconds(_ text: String?) -> Double? {
        text.flatMap(LocalDateTime.init(iso8601:))?.readAsUTC.timeIntervalSince1970
    }

    /// A 64-bit FNV-1a hash of `stem(path)`, as the catalog keeps it to find a stem's files
    /// (`Catalog.livePhotoGroup`): the same on every run and machine.
    static func stemKey(_ path: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // Every photo written is keyed, in the writer a fresh ingest waits on: an ASCII path is
        // cut and folded on its bytes (the same as `stem`), any other through `stem`.
        let done: Bool? = path.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            let name = (bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? 0
            var end = bytes.count
            if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > name { end = dot }
            for byte in bytes[..<end] { add((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte) }
            return true
        }
        if done != true {
            hash = 0xcbf2_9ce4_8422_2325
            for byte in stem(path).utf8 { add(byte) }
        }
        return Int64(bitPattern: hash)
    }

    /// The path without its extension, lowercased: `dcim/img_1234` for `DCIM/IMG_1234.HEIC`.
    /// Case is folded because copies through other systems change the case of names.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path.lowercased() }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex))).lowercased()
    }
}
