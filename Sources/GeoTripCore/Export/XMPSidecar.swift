import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes XMP sidecars beside photos (`IMG_1234.jpg.xmp`, the darktable convention) carrying the
/// position geotrip resolved, never touching the photo itself.
///
/// The sidecar is one `rdf:Description` whose properties are attributes, in a fixed order, so the
/// same position always gives the same bytes. Property forms follow "EXIF 2.3 metadata for XMP"
/// (CIPA DC-010) and XMP Specification Part 2, section 3.2.4: a GPSCoordinate is
/// `DDD,MM.mmmmmmk`, GPSAltitude a Rational, GPSTimeStamp an XMP Date (date and time in one).
public enum XMPSidecar {
    /// What `write` did with the sidecar.
    public enum Outcome: String, Sendable {
        /// The sidecar was created or replaced.
        case written
        /// The sidecar already held exactly these bytes; nothing was written.
        case unchanged
        /// Another program's sidecar is in the way; it was left exactly as it was.
        case keptForeign
        /// geotrip's own sidecar, edited by another program since (a rating or a date added with
        /// exiftool), and saying another position than geotrip has now: left exactly as it is.
        /// (One that says the same position is `.unchanged`.)
        case keptEdited
    }

    /// Why a sidecar could not be written, read or removed. Each message says what to do.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The photo the sidecar would describe is not there.
        case photoMissing(path: String)
        /// A value cannot be written as XMP (out of range, not finite, or not representable in XML).
        case invalidValue(photo: String, reason: String)
        /// The existing sidecar could not be read, so geotrip cannot tell whose it is.
        case unreadable(path: String, reason: String)
        /// The sidecar (or its temporary file) could not be written or removed.
        case unwritable(path: String, reason: String)
        /// Something that is not a file (a folder, a named pipe) has the sidecar's name.
        case notAFile(path: String, kind: String)

        /// A sentence saying what happened and what to do.
        public var description: String {
            switch self {
            case .photoMissing(let path):
                return "There is no photo at \(path), so no sidecar was written for it. Run `geotrip ingest` again to forget photos that were removed."
            case .invalidValue(let photo, let reason):
                return "The position for \(photo) cannot be written to its sidecar: \(reason). This is a bug in geotrip; please report it with the command you ran."
            case .unreadable(let path, let reason):
                return "The sidecar \(path) exists but cannot be read (\(reason)), so it was left alone. Check its permissions, or move it aside."
            case .unwritable(let path, let reason):
                return "The sidecar \(path) cannot be written (\(reason)). Check that the photo's folder is writable."
            case .notAFile(let path, let kind):
                return "\(path) is \(kind), where the photo's XMP sidecar would be, so geotrip left it alone. Rename it to let geotrip write the sidecar."
            }
        }
    }

    /// The namespace of geotrip's own properties; its presence marks a sidecar as geotrip's.
    static let geotripNamespace = "https://geotrip.invalid/ns/1.0/"

    /// The sidecar path for a photo: photo path + ".xmp".
    public static func url(forPhotoAt photo: URL) -> URL {
        photo.deletingLastPathComponent().appendingPathComponent(photo.lastPathComponent + ".xmp")
    }

    /// Writes (or rewrites) the sidecar with the photo's position, and returns what it did.
    ///
    /// A sidecar that exists and is not one geotrip wrote (darktable's, Lightroom's, exiftool's,
    /// or geotrip's after another program edited it) is left exactly as it is: `.keptForeign`.
    /// A sidecar already holding exactly these bytes is not written again: `.unchanged`.
    /// The new sidecar replaces the old one atomically, so a crash never leaves half a sidecar.
    public static func write(
        forPhotoAt photo: URL, coordinate: Coordinate, altitude: Double?, utcTime: Date?,
        source: String, uncertaintyMeters: Double?
    ) throws -> Outcome {
        guard FileManager.default.fileExists(atPath: photo.path) else {
            throw Failure.photoMissing(path: photo.path)
        }
        let text = try document(
            photo: photo.path, coordinate: coordinate, altitude: altitude, utcTime: utcTime,
            source: source, uncertaintyMeters: uncertaintyMeters)
        let bytes = Data(text.utf8)
        let sidecar = url(forPhotoAt: photo)
        if let existing = try existingContents(of: sidecar) {
            if existing == bytes { return .unchanged }
            guard isGeotrips(existing) else {
                guard isEditedGeotrips(existing) else { return .keptForeign }
                // Edited, and still saying the position geotrip has: nothing to say.
                let said = XMPDecoder.decode(Array(existing), origin: "sidecar").ownPosition
                return said.map { GreatCircle.distance($0, coordinate) < 1 } == true ? .unchanged : .keptEdited
            }
        }
        try replaceAtomically(sidecar, with: bytes)
        return .written
    }

    /// What `removal(forPhotoAt:)` did.
    public enum Removal: Sendable, Equatable {
        /// geotrip's own sidecar was removed.
        case removed
        /// No sidecar of geotrip's was there (none, another program's, or not a file).
        case nothing
        /// geotrip's own sidecar, edited by another program since and still giving a position:
        /// left exactly as it is, though that position is no longer the photo's.
        case keptEdited
    }

    /// Removes a sidecar geotrip wrote (when a position is cleared); foreign sidecars are never
    /// removed. Returns whether it removed one.
    public static func remove(forPhotoAt photo: URL) throws -> Bool {
        try removal(forPhotoAt: photo) == .removed
    }

    /// Removes a sidecar geotrip wrote (when a position is cleared), and says what it did:
    /// foreign sidecars are never removed, nor geotrip's once another program edited it.
    public static func removal(forPhotoAt photo: URL) throws -> Removal {
        let sidecar = url(forPhotoAt: photo)
        // A folder or a named pipe under the sidecar's name is no sidecar geotrip wrote: there
        // is nothing of its own to remove, and nothing to say (writing one says it).
        let existing: Data?
        do {
            existing = try existingContents(of: sidecar)
        } catch Failure.notAFile {
            return .nothing
        }
        guard let existing else { return .nothing }
        guard isGeotrips(existing) else {
            // Edited since: the person's additions stay, and so does the position (said, as it
            // is out of date); one whose position they took out has nothing out of date.
            guard isEditedGeotrips(existing), XMPDecoder.decode(Array(existing), origin: "sidecar").ownPosition != nil else { return .nothing }
            return .keptEdited
        }
        guard unlink(sidecar.path) == 0 || errno == ENOENT else {
            throw Failure.unwritable(path: sidecar.path, reason: String(cString: strerror(errno)))
        }
        return .removed
    }

    // MARK: - The document

    /// The names of every attribute geotrip writes on its `rdf:Description`, in order.
    /// A sidecar with any other attribute or element has been touched by someone else.
    static let ownAttributes: Set<String> = [
        "xmlns:exif", "xmlns:xmp", "xmlns:geotrip", "xmp:CreatorTool",
        "exif:GPSVersionID", "exif:GPSLatitude", "exif:GPSLongitude",
        "exif:GPSAltitudeRef", "exif:GPSAltitude", "exif:GPSMapDatum", "exif:GPSTimeStamp",
        "geotrip:LocationSource", "geotrip:UncertaintyMeters",
    ]

    static let header = [
        #"<?xml version="1.0" encoding="UTF-8"?>"#,
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="geotrip">"#,
        #" <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#,
        #"  <rdf:Description rdf:about="""#,
    ]
    static let footer = [
        #" </rdf:RDF>"#,
        #"</x:xmpmeta>"#,
    ]
    static let attributeIndent = "    "

    /// The sidecar's text: fixed lines around one attribute per line, each value escaped.
    static func document(
        photo: String, coordinate: Coordinate, altitude: Double?, utcTime: Date?,
        source: String, uncertaintyMeters: Double?
    ) throws -> String {
        func invalid(_ reason: String) -> Failure { .invalidValue(photo: photo, reason: reason) }
        guard coordinate.latitude.isFinite, (-90.0...90.0).contains(coordinate.latitude) else {
            throw invalid("latitude \(coordinate.latitude) is not within -90...90")
        }
        guard coordinate.longitude.isFinite, (-180.0...180.0).contains(coordinate.longitude) else {
            throw invalid("longitude \(coordinate.longitude) is not within -180...180")
        }
        var attributes: [(String, String)] = [
            ("xmlns:exif", "http://ns.adobe.com/exif/1.0/"),
            ("xmlns:xmp", "http://ns.adobe.com/xap/1.0/"),
            ("xmlns:geotrip", geotripNamespace),
            ("xmp:CreatorTool", "geotrip"),
            ("exif:GPSVersionID", "2.3.0.0"),
            ("exif:GPSLatitude", gpsCoordinate(coordinate.latitude, positive: "N", negative: "S")),
            ("exif:GPSLongitude", gpsCoordinate(coordinate.longitude, positive: "E", negative: "W")),
        ]
        if let altitude {
            // 1e7 m is far beyond any photo and keeps the millimetre numerator inside Int64.
            guard altitude.isFinite, abs(altitude) < 1e7 else {
                throw invalid("altitude \(altitude) m is not a finite height within 10,000 km")
            }
            // EXIF keeps the sign apart: GPSAltitudeRef 1 means below sea level.
            attributes.append(("exif:GPSAltitudeRef", altitude < 0 ? "1" : "0"))
            attributes.append(("exif:GPSAltitude", rational(abs(altitude), denominator: 1000)))
        }
        attributes.append(("exif:GPSMapDatum", "WGS-84"))
        if let utcTime {
            guard let stamp = iso8601UTC(utcTime) else {
                throw invalid("the time \(utcTime.timeIntervalSince1970) s since 1970 is outside years 1...9999")
            }
            attributes.append(("exif:GPSTimeStamp", stamp))
        }
        guard let escapedSource = escaped(source) else {
            throw invalid("the location source \(source.debugDescription) holds characters XML 1.0 cannot carry")
        }
        attributes.append(("geotrip:LocationSource", escapedSource))
        if let uncertaintyMeters {
            guard uncertaintyMeters.isFinite, uncertaintyMeters >= 0, uncertaintyMeters < 1e12 else {
                throw invalid("uncertainty \(uncertaintyMeters) m is not a finite, non-negative distance")
            }
            attributes.append(("geotrip:UncertaintyMeters", decimal(uncertaintyMeters, fractionDigits: 3)))
        }

        var lines = header
        for (index, (name, value)) in attributes.enumerated() {
            let close = index == attributes.count - 1 ? "/>" : ""
            lines.append("\(attributeIndent)\(name)=\"\(value)\"\(close)")
        }
        lines += footer
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `contents` is a sidecar geotrip wrote and nobody has edited since: every line is
    /// one geotrip writes, its attributes are geotrip's, and the geotrip namespace is declared.
    /// Anything more (darktable's history, a rating from exiftool, another layout) makes it
    /// someone else's, because rewriting it would lose their work.
    static func isGeotrips(_ contents: Data) -> Bool {
        guard let text = String(data: contents, encoding: .utf8), text.hasSuffix("\n") else { return false }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > header.count + footer.count,
              Array(lines.prefix(header.count)) == header,
              Array(lines.suffix(footer.count)) == footer
        else { return false }
        let attributeLines = lines.dropFirst(header.count).dropLast(footer.count)
        var names: [String] = []
        for (index, line) in attributeLines.enumerated() {
            var body = Substring(line)
            guard body.hasPrefix(attributeIndent) else { return false }
            body = body.dropFirst(attributeIndent.count)
            let isLast = index == attributeLines.count - 1
            if isLast {
                guard body.hasSuffix("/>") else { return false }
                body = body.dropLast(2)
            }
            guard let equals = body.firstIndex(of: "=") else { return false }
            let name = String(body[..<equals])
            let value = body[body.index(after: equals)...]
            guard ownAttributes.contains(name), value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\""),
                  !value.dropFirst().dropLast().contains("\"")
            else { return false }
            names.append(name)
        }
        return Set(names).count == names.count
            && attributeLines.contains("\(attributeIndent)xmlns:geotrip=\"\(geotripNamespace)\"")
    }

    /// Whether `contents`, not as geotrip wrote it (`isGeotrips` is false), still declares
    /// geotrip's namespace: geotrip's sidecar, re-saved by another program.
    static func isEditedGeotrips(_ contents: Data) -> Bool {
        contents.range(of: Data(geotripNamespace.utf8)) != nil
    }

    // MARK: - Values, written the same way whatever the locale

    /// `DDD,MM.mmmmmmk`: whole degrees, minutes to 1e-6 (about 2 mm), then the hemisphere letter.
    /// Integer arithmetic throughout, so no locale can change a digit or the decimal point.
    static func gpsCoordinate(_ degrees: Double, positive: Character, negative: Character) -> String {
        let microMinutes = Int64((abs(degrees) * 60_000_000).rounded())
        let whole = microMinutes / 60_000_000
        let minutes = (microMinutes % 60_000_000) / 1_000_000
        let fraction = microMinutes % 1_000_000
        let hemisphere = degrees < 0 && microMinutes != 0 ? negative : positive
        return "\(whole),\(padded(minutes, to: 2)).\(padded(fraction, to: 6))\(hemisphere)"
    }

    /// An XMP Rational `n/d`, rounded to `denominator` and reduced (`6589/10`, `0/1`).
    static func rational(_ value: Double, denominator: Int64) -> String {
        let numerator = Int64((value * Double(denominator)).rounded())
        var a = numerator, b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        return "\(numerator / divisor)/\(denominator / divisor)"
    }

    /// A non-negative decimal rounded to `fractionDigits`, without trailing zeros (`12.5`, `100`).
    static func decimal(_ value: Double, fractionDigits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        var fraction = padded(scaled % scale, to: fractionDigits)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(scaled / scale)" : "\(scaled / scale).\(fraction)"
    }

    /// `2025-06-10T07:12:05Z`, with milliseconds when there are any; nil outside years 1...9999
    /// (the one UTC formatting of the whole package, `Date.geotripISO8601`).
    static func iso8601UTC(_ date: Date) -> String? { date.geotripISO8601 }

    static func padded(_ value: Int64, to width: Int) -> String { ASCIIDigits.padded(Int(value), width) }

    /// `text` escaped for a double-quoted XML attribute; nil if it holds a character XML 1.0
    /// cannot carry at all (section 2.2: C0 controls other than tab, LF and CR; U+FFFE, U+FFFF).
    /// Tab, LF and CR become character references, because a parser normalises literal ones to
    /// spaces in attribute values (section 3.3.3).
    static func escaped(_ text: String) -> String? {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { return nil }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: - Files

    /// The most of an existing sidecar read: geotrip's own are under 2 KB, so a larger file is
    /// someone else's, and its first bytes say so (a multi-gigabyte file is never read whole).
    static let readLimit = 1 << 16

    /// The sidecar's bytes (the first `readLimit`), or nil when there is none. Only a regular
    /// file is read (opened non-blocking and checked on the open descriptor): a folder or a
    /// named pipe with the sidecar's name is reported for what it is, and never blocks the run.
    static func existingContents(of sidecar: URL) throws -> Data? {
        let descriptor = open(sidecar.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            let code = errno
            if let kind = FileSystemKind(path: sidecar.path), kind != .regular { throw Failure.notAFile(path: sidecar.path, kind: kind.phrase) }
            throw Failure.unreadable(path: sidecar.path, reason: String(cString: strerror(code)).lowercased())
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw Failure.unreadable(path: sidecar.path, reason: String(cString: strerror(errno)).lowercased())
        }
        let kind = FileSystemKind(mode: info.st_mode)
        guard kind == .regular else { throw Failure.notAFile(path: sidecar.path, kind: kind.phrase) }
        do {
            return try handle.read(upToCount: readLimit) ?? Data()
        } catch {
            throw Failure.unreadable(path: sidecar.path, reason: Catalog.reason(of: error).lowercased())
        }
    }

    /// Hidden temporary files this module leaves only when a run is killed between creating
    /// and renaming one (`.IMG_1.jpg.xmp.geotrip-1A2B3C4D.tmp`): the next run removes them.
    static func isOwnTemporaryFile(named name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let marker = name.range(of: ".xmp.geotrip-", options: .backwards) else {
            return false
        }
        let tag = name[marker.upperBound..<name.index(name.endIndex, offsetBy: -4)]
        return tag.count == 8 && tag.allSatisfy(\.isHexDigit)
    }

    /// Writes a hidden temporary file in the sidecar's folder (dot-named, so a scan skips it),
    /// flushes it to disk, then renames it over the sidecar: rename(2) within one file system is
    /// atomic, so readers see the old sidecar or the new one, never a mixture.
    static func replaceAtomically(_ sidecar: URL, with bytes: Data) throws {
        let folder = sidecar.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(sidecar.lastPathComponent).geotrip-\(UUID().uuidString.prefix(8)).tmp")
        func failure(_ path: String) -> Failure {
            .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(sidecar.path) }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = writeBytes(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return fsync(descriptor) == 0
        }
        if !ok {
            let error = failure(sidecar.path)
            close(descriptor)
            unlink(temporary.path)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure(sidecar.path)
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, sidecar.path) == 0 else {
            let error = failure(sidecar.path)
            unlink(temporary.path)
            throw error
        }
    }
}

/// write(2), named apart because inside `XMPSidecar` the name `write` is the sidecar's own method.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
