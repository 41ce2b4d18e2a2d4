import CExif

/// Every libexif call geotrip makes: loads one EXIF block and returns Swift values.
///
/// Rules (shared with exiftool where it has one):
/// - GPS tags are looked up in the GPS IFD only; their numbers overlap the Interoperability IFD's.
/// - A latitude or longitude without its Ref tag gives no coordinate (exiftool's Composite tags
///   do the same), never a guessed hemisphere.
/// - Any invalid value (zero denominator, minutes or seconds of 60 and more, |lat| > 90,
///   |lon| > 180, exactly 0,0, an impossible date) leaves the field nil and a diagnostic.
enum ExifDecoder {
    /// The Dead Sea's shore (-430 m) and a mine's depth to the edge of space: a photo taken on
    /// an airliner (12 km) or a high balloon (40 km) is in, a garbled value is not. The bounds
    /// of every altitude read (EXIF, XMP, a video's position).
    static let plausibleAltitudes = -1_000.0...100_000.0

    /// "GPSAltitude is 123,456 m, outside …": an altitude out of bounds, as a sentence says it
    /// (whole metres grouped; one too large for that, or not finite, as Swift prints it).
    static func altitudeOutOfBounds(_ altitude: Double) -> String {
        let metres = abs(altitude) < 1e15 ? Int(altitude.rounded()).grouped : "\(altitude)"
        return "\(metres) m, outside -1,000 to 100,000 m (the Dead Sea's shore to the edge of space)"
    }

    /// Decodes `block` into `metadata`, appending a diagnostic for every value it rejects.
    static func decode(_ block: ExifBlock, into metadata: inout PhotoMetadata) {
        let sink = UnsafeMutablePointer<GTExifLogSink>.allocate(capacity: 1)
        sink.initialize(to: GTExifLogSink())
        defer { sink.deallocate() }
        let loaded = block.bytes.withUnsafeBufferPointer { buffer in
            gt_exif_load(buffer.baseAddress, UInt32(buffer.count), sink)
        }
        guard let data = loaded else {
            metadata.diagnostics.append(Diagnostic(.damaged, "libexif could not allocate memory for the EXIF block"))
            return
        }
        defer { exif_data_unref(data) }

        var reader = EntryReader(data: data, order: exif_data_get_byte_order(data))
        if sink.pointee.corruptCount > 0 {
            let message = withUnsafeBytes(of: sink.pointee.firstMessage) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            reader.diagnostics.append(Diagnostic(.damaged, "libexif reports damaged EXIF data: \(message.trimmingCharacters())"))
        }
        if reader.count(EXIF_IFD_0) == 0 && reader.count(EXIF_IFD_EXIF) == 0 && reader.count(EXIF_IFD_GPS) == 0 {
            reader.diagnostics.append(Diagnostic(.damaged, "the EXIF block holds no readable directory"))
        }

        metadata.coordinate = reader.coordinate()
        metadata.positionSource = metadata.coordinate == nil ? nil : .exif
        // An altitude belongs to its fix: without a usable position there is no fix to keep it
        // for. Said when no position is given at all (a refused one is said already).
        if metadata.coordinate != nil {
            metadata.altitude = reader.altitude()
        } else if reader.entry(EXIF_IFD_GPS, Tag.gpsAltitude) != nil,
                  reader.entry(EXIF_IFD_GPS, Tag.gpsLatitude) == nil, reader.entry(EXIF_IFD_GPS, Tag.gpsLongitude) == nil {
            reader.diagnostics.append(Diagnostic(.altitudeIgnored, "GPSAltitude is given without a position, and an altitude is kept only with its position; no altitude recorded"))
        }
        metadata.gpsTime = reader.gpsTime()
        if let (field, time, offset) = reader.captureTime() {
            metadata.timeField = field
            metadata.localTime = time
            metadata.offset = offset
        }
        metadata.make = reader.ascii(EXIF_IFD_0, Tag.make)
        metadata.model = reader.ascii(EXIF_IFD_0, Tag.model)
        metadata.orientation = reader.orientation()
        if metadata.width == nil || metadata.height == nil {
            if let width = reader.integer(EXIF_IFD_EXIF, Tag.pixelXDimension) ?? reader.integer(EXIF_IFD_0, Tag.imageWidth),
               let height = reader.integer(EXIF_IFD_EXIF, Tag.pixelYDimension) ?? reader.integer(EXIF_IFD_0, Tag.imageLength),
               width > 0, height > 0 {
                metadata.width = width
                metadata.height = height
            }
        }
        if data.pointee.size > 0, let base = block.tiffOffsetInFile,
           let structure = TIFFStructure(Array(block.bytes.dropFirst(ContainerReader.exifHeader.count))),
           let thumbnail = structure.thumbnail() {
            metadata.thumbnail = ThumbnailLocation(offset: base + thumbnail.offset, length: thumbnail.length)
        }
        metadata.diagnostics += reader.diagnostics
    }
}

/// Tag numbers. GPS ones are plain `#define`s in libexif, so all are spelled out here.
private enum Tag {
    static let gpsLatitudeRef: UInt32 = 0x0001
    static let gpsLatitude: UInt32 = 0x0002
    static let gpsLongitudeRef: UInt32 = 0x0003
    static let gpsLongitude: UInt32 = 0x0004
    static let gpsAltitudeRef: UInt32 = 0x0005
    static let gpsAltitude: UInt32 = 0x0006
    static let gpsTimeStamp: UInt32 = 0x0007
    static let gpsDateStamp: UInt32 = 0x001D
    static let imageWidth: UInt32 = 0x0100
    static let imageLength: UInt32 = 0x0101
    static let make: UInt32 = 0x010F
    static let model: UInt32 = 0x0110
    static let orientation: UInt32 = 0x0112
    static let dateTime: UInt32 = 0x0132
    static let dateTimeOriginal: UInt32 = 0x9003
    static let dateTimeDigitized: UInt32 = 0x9004
    static let offsetTime: UInt32 = 0x9010
    static let offsetTimeOriginal: UInt32 = 0x9011
    static let offsetTimeDigitized: UInt32 = 0x9012
    static let subSecTime: UInt32 = 0x9290
    static let subSecTimeOriginal: UInt32 = 0x9291
    static let subSecTimeDigitized: UInt32 = 0x9292
    static let pixelXDimension: UInt32 = 0xA002
    static let pixelYDimension: UInt32 = 0xA003
}

/// Typed access to the entries of one loaded `ExifData`, collecting diagnostics as it goes.
private struct EntryReader {
    let data: UnsafeMutablePointer<ExifData>
    let order: ExifByteOrder
    var diagnostics: [Diagnostic] = []

    func count(_ ifd: ExifIfd) -> Int { Int(gt_exif_entry_count(data, ifd)) }

    func entry(_ ifd: ExifIfd, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
        gt_exif_entry(data, ifd, ExifTag(rawValue: tag))
    }

    /// An ASCII value without its NUL and space padding; nil when absent or blank.
    func ascii(_ ifd: ExifIfd, _ tag: UInt32) -> String? {
        guard let text = untrimmedASCII(ifd, tag)?.trimmingCharacters() else { return nil }
        return text.isEmpty ? nil : text
    }

    /// An ASCII entry's text up to its first NUL, blanks kept.
    func untrimmedASCII(_ ifd: ExifIfd, _ tag: UInt32) -> String? {
        guard let entry = entry(ifd, tag), let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        return String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    /// The components of a RATIONAL entry; a diagnostic and nil for any other type. GPS values
    /// stored as SRATIONAL (some phones, such as HMD's Nokias, and FLIR cameras write them so)
    /// are accepted when no component is negative: the Ref tags carry the sign, and a negative
    /// component would contradict them.
    mutating func rationals(_ ifd: ExifIfd, _ tag: UInt32, name: String) -> [(numerator: UInt32, denominator: UInt32)]? {
        guard let entry = entry(ifd, tag), let bytes = entry.pointee.data else { return nil }
        let kind: DiagnosticKind = name.hasPrefix("GPS") ? .positionIgnored : .valueIgnored
        let signed = entry.pointee.format == EXIF_FORMAT_SRATIONAL && ifd == EXIF_IFD_GPS
        guard entry.pointee.format == EXIF_FORMAT_RATIONAL || signed else {
            diagnostics.append(Diagnostic(kind, "\(name) is stored as \(formatName(entry.pointee.format)), not as rationals; ignored"))
            return nil
        }
        let count = min(Int(entry.pointee.components), Int(entry.pointee.size) / 8)
        guard count > 0 else {
            diagnostics.append(Diagnostic(kind, "\(name) has no values; ignored"))
            return nil
        }
        guard signed else {
            return (0..<count).map { index in
                let value = exif_get_rational(bytes + index * 8, order)
                return (value.numerator, value.denominator)
            }
        }
        var parts: [(numerator: UInt32, denominator: UInt32)] = []
        for index in 0..<count {
            let value = exif_get_srational(bytes + index * 8, order)
            // Both negative is a positive value written oddly; one negative is a negative value.
            guard (value.numerator < 0) == (value.denominator < 0) || value.numerator == 0 else {
                diagnostics.append(Diagnostic(kind, "\(name) is stored as signed rationals and one is negative (\(value.numerator)/\(value.denominator)); the sign belongs in \(name)Ref, so it was not used"))
                return nil
            }
            parts.append((value.numerator.magnitude, value.denominator.magnitude))
        }
        return parts
    }

    /// A SHORT or LONG value.
    func integer(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
        guard let entry = entry(ifd, tag), let bytes = entry.pointee.data, entry.pointee.components >= 1 else { return nil }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(bytes, order))
        case EXIF_FORMAT_BYTE where entry.pointee.size >= 1: return Int(bytes[0])
        default: return nil
        }
    }

    private func formatName(_ format: ExifFormat) -> String {
        guard let name = exif_format_get_name(format) else { return "type \(format.rawValue)" }
        return String(cString: name)
    }

    // MARK: Position

    mutating func coordinate() -> Coordinate? {
        let reported = diagnostics.count
        let latitude = signedDegrees(value: Tag.gpsLatitude, ref: Tag.gpsLatitudeRef, name: "GPSLatitude",
                                     positive: "N", negative: "S", limit: 90)
        let longitude = signedDegrees(value: Tag.gpsLongitude, ref: Tag.gpsLongitudeRef, name: "GPSLongitude",
                                      positive: "E", negative: "W", limit: 180)
        guard let latitude, let longitude else {
            if (latitude == nil) != (longitude == nil) && diagnostics.count == reported {
                diagnostics.append(Diagnostic(.positionIgnored, "only one of GPSLatitude and GPSLongitude is usable; no position recorded"))
            }
            return nil
        }
        if latitude == 0 && longitude == 0 {
            diagnostics.append(Diagnostic(.nullIsland, "the GPS position is exactly 0,0 (\"null island\"), which devices write when they have no fix; no position recorded"))
            return nil
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Degrees, minutes and seconds (each a rational; minutes may carry the fraction when
    /// seconds are 0, as many receivers write) with the hemisphere from the Ref tag.
    private mutating func signedDegrees(value: UInt32, ref: UInt32, name: String,
                                        positive: String, negative: String, limit: Double) -> Double? {
        guard let parts = rationals(EXIF_IFD_GPS, value, name: name) else { return nil }
        guard let hemisphere = ascii(EXIF_IFD_GPS, ref) else {
            diagnostics.append(Diagnostic(.positionIgnored, "\(name) has no \(name)Ref, so its hemisphere is unknown; no position recorded"))
            return nil
        }
        let sign: Double
        switch hemisphere.uppercased() {
        case positive: sign = 1
        case negative: sign = -1
        default:
            diagnostics.append(Diagnostic(.positionIgnored, "\(name)Ref is '\(hemisphere)', not \(positive) or \(negative); no position recorded"))
            return nil
        }
        let names = ["degrees", "minutes", "seconds"]
        var values: [Double] = []
        for (index, part) in parts.prefix(3).enumerated() {
            guard part.denominator != 0 else {
                diagnostics.append(Diagnostic(.positionIgnored, "\(name) has a zero denominator in its \(names[index]) (\(part.numerator)/0); no position recorded"))
                return nil
            }
            values.append(Double(part.numerator) / Double(part.denominator))
        }
        let degrees = values[0], minutes = values.count > 1 ? values[1] : 0, seconds = values.count > 2 ? values[2] : 0
        // Exactly 60 is accepted: it is a rounding artefact that real writers produce
        // (exiftool itself writes 33.8° as 33° 47' 60"), and it still names the right place.
        guard minutes <= 60, seconds <= 60 else {
            let (part, value) = minutes > 60 ? ("minutes", minutes) : ("seconds", seconds)
            diagnostics.append(Diagnostic(.positionIgnored, "\(name) has \(part) out of range (\(format(value)), must be at most 60); no position recorded"))
            return nil
        }
        let total = degrees + minutes / 60 + seconds / 3600
        guard total <= limit else {
            diagnostics.append(Diagnostic(.positionIgnored, "\(name) is \(format(total))°, beyond the \(Int(limit))° limit; no position recorded"))
            return nil
        }
        // Rounded to 1e-9° (0.1 mm) so that 38.6916 prints as 38.6916, not 38.691599999999994.
        return sign * (total * 1e9).rounded() / 1e9
    }

    mutating func altitude() -> Double? {
        guard let parts = rationals(EXIF_IFD_GPS, Tag.gpsAltitude, name: "GPSAltitude") else { return nil }
        guard parts[0].denominator != 0 else {
            diagnostics.append(Diagnostic(.altitudeIgnored, "GPSAltitude has a zero denominator (\(parts[0].numerator)/0); no altitude recorded"))
            return nil
        }
        let metres = Double(parts[0].numerator) / Double(parts[0].denominator)
        let altitude: Double
        switch integer(EXIF_IFD_GPS, Tag.gpsAltitudeRef) {
        case nil, 0: altitude = metres
        case 1: altitude = -metres
        case let other?:
            diagnostics.append(Diagnostic(.altitudeIgnored, "GPSAltitudeRef is \(other), not 0 (above sea level) or 1 (below); no altitude recorded"))
            return nil
        }
        guard ExifDecoder.plausibleAltitudes.contains(altitude) else {
            diagnostics.append(Diagnostic(.altitudeIgnored, "GPSAltitude is \(ExifDecoder.altitudeOutOfBounds(altitude)); no altitude recorded"))
            return nil
        }
        return altitude
    }

    // MARK: Time

    /// GPSDateStamp (`YYYY:MM:DD`) plus GPSTimeStamp (three rationals), both UTC.
    mutating func gpsTime() -> UTCTimestamp? {
        let dateText = ascii(EXIF_IFD_GPS, Tag.gpsDateStamp)
        let time = rationals(EXIF_IFD_GPS, Tag.gpsTimeStamp, name: "GPSTimeStamp")
        switch (dateText, time) {
        case (nil, nil): return nil
        case (nil, _?):
            diagnostics.append(Diagnostic(.gpsTimeWithoutDate, "GPSTimeStamp has no GPSDateStamp; GPS time not recorded"))
            return nil
        case (_?, nil):
            diagnostics.append(Diagnostic(.gpsTimeIgnored, "GPSDateStamp has no GPSTimeStamp; GPS time not recorded"))
            return nil
        case let (dateText?, time?):
            guard let date = DateText.parseDate(dateText) else {
                diagnostics.append(Diagnostic(.gpsTimeIgnored, "GPSDateStamp '\(dateText)' is not a real date; GPS time not recorded"))
                return nil
            }
            guard time.count == 3, time.allSatisfy({ $0.denominator != 0 }) else {
                diagnostics.append(Diagnostic(.gpsTimeIgnored, "GPSTimeStamp needs three rationals with non-zero denominators; GPS time not recorded"))
                return nil
            }
            // Whole hours and minutes; seconds may carry a fraction, kept to the millisecond
            // by integer division (rounding could turn 23:59:59.9996 into hour 24).
            let hours = time[0].numerator / time[0].denominator, minutes = time[1].numerator / time[1].denominator
            let milliseconds = UInt64(time[2].numerator) * 1000 / UInt64(time[2].denominator)
            guard time[0].numerator % time[0].denominator == 0, time[1].numerator % time[1].denominator == 0,
                  hours < 24, minutes < 60, milliseconds < 60_000 else {
                diagnostics.append(Diagnostic(.gpsTimeIgnored, "GPSTimeStamp \(time.prefix(3).map { rationalText($0, digits: 2) }.joined(separator: ":")) is not a time of day; GPS time not recorded"))
                return nil
            }
            let fraction = Int(milliseconds % 1000)
            guard let value = LocalDateTime(
                year: date.year, month: date.month, day: date.day, hour: Int(hours), minute: Int(minutes),
                second: Int(milliseconds / 1000), millisecond: fraction == 0 ? nil : fraction)
            else { return nil }
            return UTCTimestamp(value)
        }
    }

    /// The first valid of DateTimeOriginal, DateTimeDigitized and DateTime, each with its own
    /// SubSecTime and OffsetTime tags. An invalid field is reported and the next one tried.
    mutating func captureTime() -> (CaptureTimeField, LocalDateTime, UTCOffset?)? {
        let candidates: [(CaptureTimeField, ExifIfd, UInt32, UInt32, UInt32)] = [
            (.dateTimeOriginal, EXIF_IFD_EXIF, Tag.dateTimeOriginal, Tag.subSecTimeOriginal, Tag.offsetTimeOriginal),
            // Where some tools write it (outside the Exif directory, as exiftool reads it too).
            (.dateTimeOriginal, EXIF_IFD_0, Tag.dateTimeOriginal, Tag.subSecTimeOriginal, Tag.offsetTimeOriginal),
            (.dateTimeDigitized, EXIF_IFD_EXIF, Tag.dateTimeDigitized, Tag.subSecTimeDigitized, Tag.offsetTimeDigitized),
            (.dateTime, EXIF_IFD_0, Tag.dateTime, Tag.subSecTime, Tag.offsetTime),
        ]
        let subSecondNames: [CaptureTimeField: String] = [
            .dateTimeOriginal: "SubSecTimeOriginal", .dateTimeDigitized: "SubSecTimeDigitized", .dateTime: "SubSecTime",
        ]
        let offsetNames: [CaptureTimeField: String] = [
            .dateTimeOriginal: "OffsetTimeOriginal", .dateTimeDigitized: "OffsetTimeDigitized", .dateTime: "OffsetTime",
        ]
        for (field, ifd, tag, subSecondTag, offsetTag) in candidates {
            // A time stored as a number (LONG, as a damaged or crafted file has it) is no text
            // to read: said, rather than passed over in silence.
            if let entry = entry(ifd, tag), entry.pointee.format != EXIF_FORMAT_ASCII {
                diagnostics.append(Diagnostic(.timeIgnored, "\(field.rawValue) is stored as \(formatName(entry.pointee.format)), not as text; not used"))
                continue
            }
            guard let text = ascii(ifd, tag) else { continue }
            guard let written = DateText.parseDateTimeWithTail(text) else {
                let empty = text.allSatisfy { $0 == "0" || $0 == ":" || $0 == " " }
                diagnostics.append(Diagnostic(.timeIgnored, empty
                    ? "\(field.rawValue) is empty ('\(text)'); not used"
                    : "\(field.rawValue) '\(text)' is not a date and time (YYYY:MM:DD HH:MM:SS) that exists; not used"))
                continue
            }
            var time = written.time
            // A time in IFD0 may have its fraction and offset beside it there.
            // Blanks kept (`untrimmedASCII`): a sub-second's leading blank matters.
            func rawBesideIt(_ tag: UInt32) -> String? {
                func written(_ directory: ExifIfd) -> String? { untrimmedASCII(directory, tag).flatMap { $0.trimmingCharacters().isEmpty ? nil : $0 } }
                return written(EXIF_IFD_EXIF) ?? (ifd == EXIF_IFD_0 ? written(EXIF_IFD_0) : nil)
            }
            func besideIt(_ tag: UInt32) -> String? { rawBesideIt(tag)?.trimmingCharacters() }
            if let raw = rawBesideIt(subSecondTag) {
                let subSecond = raw.trimmingCharacters()
                if raw.first?.isWhitespace == true {
                    // Right-aligned in a field of blanks: " 5" may be .5 or .05 (exiftool leaves
                    // such a fraction out too).
                    diagnostics.append(Diagnostic(.timeIgnored, "\(subSecondNames[field]!) '\(raw)' begins with a blank, so the place of its digits "
                                                  + "is not known (' 5' may be .5 or .05); ignored"))
                } else if let milliseconds = DateText.parseSubSecond(subSecond) {
                    time.millisecond = milliseconds
                } else {
                    diagnostics.append(Diagnostic(.timeIgnored, "\(subSecondNames[field]!) '\(subSecond)' is not a run of digits; ignored"))
                }
            }
            // Its offset is none of a time not used: no word of it.
            if time.isUnixEpoch {
                diagnostics.append(Diagnostic(.timeIgnored, "\(field.rawValue) is \(text.prefix(19)), the first second of Unix time, "
                                              + "which a device whose clock was never set writes; not used"))
                continue
            }
            if let outOfRange = written.outOfRange {
                diagnostics.append(Diagnostic(.timeIgnored, "\(field.rawValue)'s offset '\(outOfRange)' is not an offset between -12:00 and +14:00; ignored"))
            }
            // An offset written after the time counts where the offset tag gives none.
            var offset = written.offset
            // "   :  " (or nothing) is how EXIF writes an offset not known; any other text is a value.
            if let offsetText = besideIt(offsetTag), !offsetText.allSatisfy({ $0 == " " || $0 == ":" }) {
                offset = UTCOffset(parsing: offsetText)
                if offset == nil {
                    diagnostics.append(Diagnostic(.timeIgnored, "\(offsetNames[field]!) '\(offsetText)' is not an offset between -12:00 and +14:00; ignored"))
                    offset = written.offset
                }
            }
            return (field, time, offset)
        }
        return nil
    }

    mutating func orientation() -> Int? {
        guard let value = integer(EXIF_IFD_0, Tag.orientation) else { return nil }
        guard (1...8).contains(value) else {
            diagnostics.append(Diagnostic(.valueIgnored, "Orientation is \(value), not 1 to 8; ignored"))
            return nil
        }
        return value
    }

    /// A rational as written: its whole number (at least `digits` digits, as a time's parts
    /// read: `24:00:00`), else `numerator/denominator`.
    private func rationalText(_ value: (numerator: UInt32, denominator: UInt32), digits: Int = 1) -> String {
        guard value.numerator % value.denominator == 0 else { return "\(value.numerator)/\(value.denominator)" }
        let whole = String(value.numerator / value.denominator)
        return String(repeating: "0", count: max(0, digits - whole.count)) + whole
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// The EXIF date and time text forms (EXIF 2.32 section 4.6.5: `YYYY:MM:DD HH:MM:SS`).
enum DateText {
    /// `YYYY:MM:DD HH:MM:SS`; dashes or slashes in the date and a `T` separator are accepted
    /// because some writers use them. Returns nil for anything that is not a real moment.
    static func parseDateTime(_ text: String) -> LocalDateTime? {
        let b = Array(text.utf8)
        guard b.count == 19, b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let date = parseDate(String(decoding: b[0..<10], as: UTF8.self)),
              let hour = ASCIIDigits.parse(b[11..<13]), let minute = ASCIIDigits.parse(b[14..<16]),
              let second = ASCIIDigits.parse(b[17..<19])
        else { return nil }
        return LocalDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
    }

    /// A capture time field as some writers fill it: `parseDateTime`'s form with a fraction of
    /// a second (`.25`) and an offset (`+09:00`, `Z`) after the seconds, each optional (exiftool
    /// reads them too). The fraction is the time's milliseconds. Nil for anything else after the
    /// seconds (but blanks), or a time that is not real.
    /// An offset of the form `±HH:MM` out of range (`+15:00`) leaves the time, and is given
    /// back as `outOfRange` to be said.
    static func parseDateTimeWithTail(_ text: String) -> (time: LocalDateTime, offset: UTCOffset?, outOfRange: String?)? {
        var b = Array(text.utf8)
        while b.last == UInt8(ascii: " ") { b.removeLast() }
        guard b.count >= 19, var time = parseDateTime(String(decoding: b[0..<19], as: UTF8.self)) else { return nil }
        var rest = b[19...]
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: ASCIIDigits.isDigit)
            guard let milliseconds = parseSubSecond(String(decoding: digits, as: UTF8.self)) else { return nil }
            time.millisecond = milliseconds
            rest = rest.dropFirst(1 + digits.count)
        }
        guard !rest.isEmpty else { return (time, nil, nil) }
        let tail = String(decoding: rest, as: UTF8.self)
        if let offset = UTCOffset(parsing: tail) { return (time, offset, nil) }
        // Shaped as an offset, but none the world has.
        guard rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-"), rest[rest.startIndex + 3] == UInt8(ascii: ":"),
              rest.dropFirst().allSatisfy({ ASCIIDigits.isDigit($0) || $0 == UInt8(ascii: ":") })
        else { return nil }
        return (time, nil, tail)
    }

    /// `YYYY:MM:DD` (or with dashes or slashes), validated against the calendar.
    static func parseDate(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let b = Array(text.utf8)
        let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "/")]
        guard b.count == 10, separators.contains(b[4]), b[7] == b[4],
              let year = ASCIIDigits.parse(b[0..<4]), let month = ASCIIDigits.parse(b[5..<7]),
              let day = ASCIIDigits.parse(b[8..<10]),
              LocalDateTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0) != nil
        else { return nil }
        return (year, month, day)
    }

    /// SubSecTime digits are a decimal fraction of a second: "5" is 500 ms, "123456" is 123 ms.
    static func parseSubSecond(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.allSatisfy(ASCIIDigits.isDigit) else { return nil }
        let firstThree = Array(digits.prefix(3)) + Array(repeating: UInt8(ascii: "0"), count: max(0, 3 - digits.count))
        return ASCIIDigits.parse(firstThree)
    }
}
