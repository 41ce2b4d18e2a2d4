import Foundation

/// A journal file as geotrip reads it back: the notes blocks the person writes in, and whether
/// anything outside them was changed since geotrip wrote the file.
///
/// The grammar, and why it keeps every note byte for byte:
/// - A block opens with the line `<!-- notes ID -->` (ID a visit id such as `v17`, or a day
///   such as `2025-06-10`) and closes with the first later line that is exactly its own end
///   marker, `<!-- end notes ID -->`. Inside a block only that one line means anything, so a
///   note may hold lines that look like any other block's markers, or like geotrip's footer.
/// - When a note itself holds a line equal to its end marker, geotrip writes the block with a
///   tag (`<!-- notes v17 #2 -->` … `<!-- end notes v17 #2 -->`) that no line of the note
///   equals, so the note reads back whole.
/// - The last line is geotrip's footer, `<!-- geotrip · … · notes ID=HASH … · FINGERPRINT -->`:
///   a fingerprint of every line outside the blocks (markers included), and before it the
///   notes geotrip wrote in the blocks (a hash of each block that held any text). A file whose
///   lines outside the blocks no longer match the fingerprint was edited there, and is kept as
///   a backup before it is rewritten; a block whose text no longer matches its hash was
///   written in by the person since (`writtenNotes`).
///
/// Lines end in `\n`; a `\r` before it (an editor that wrote CRLF) is left out of notes and
/// ignored when matching markers and fingerprinting.
struct JournalDocument: Sendable, Equatable {
    /// One notes block as found.
    struct Block: Equatable {
        /// A visit id or a day.
        var id: String
        /// The lines between the markers, byte for byte but for a `\r` before a `\n`.
        var text: String
        /// The photos the page showed above the block, since the block before it (a visit's
        /// section): each photo line's link target (`[![name](thumbnail)](target)` or
        /// `[name](target)`), percent-decoded, as written (`../../Lisboa/IMG_1.jpg`). Read only
        /// when asked (`init(bytes:links:)`).
        var photoLinks: [String] = []

        /// Whether the block holds anything but white space.
        var hasWords: Bool { text.contains { !$0.isWhitespace } }
    }

    /// The blocks in file order (an id found twice: the first).
    var blocks: [Block] = [] {
        didSet { notes = Self.notes(of: blocks) }
    }
    /// Whether the lines outside the blocks are as geotrip wrote them (the footer's fingerprint
    /// matches, every block is closed, no id is repeated) and the file is valid UTF-8 (or
    /// valid UTF-16 with its byte order mark: `asUTF8Lines`).
    var isIntact = false
    /// The fingerprint in geotrip's footer, as found (nil when there is none): with `isIntact`,
    /// the fingerprint of the lines outside the blocks, so two intact files with the same
    /// footer differ at most inside their blocks.
    var footer: String?
    /// When the file was last modified (nanoseconds since 1970), when read from one.
    var modifiedNanos: Int64?
    /// Read from an output folder geotrip no longer writes (`--out` changed): no backup of it
    /// is ever made, so words of its that another copy outranks are kept beside the journal
    /// (`JournalNotes.replaced`).
    var leftBehind = false
    /// The notes geotrip wrote in the file's blocks, as `noteHash`es by id (a block not listed
    /// was written empty); nil for a file whose footer does not say (written before geotrip
    /// kept them, or not by geotrip).
    var writtenNotes: [String: String]?
    /// Whether the footer's record of the notes is there but cannot be read (edited by hand).
    var writtenNotesDamaged = false
    /// The ids of blocks opened and never closed, or closed and never opened (a marker line
    /// deleted or changed): their text is not read as a note, and stays in the page's backup.
    var unclosed: [String] = []

    /// The notes by id.
    /// Kept with `blocks`: the notes are looked up per owner and file while a run's notes are
    /// gathered, and a dictionary made at each lookup cost a library's journal seconds.
    private(set) var notes: [String: String] = [:]

    private static func notes(of blocks: [Block]) -> [String: String] {
        Dictionary(blocks.map { ($0.id, $0.text) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the file is a page exactly as geotrip wrote it, notes included: intact (so with
    /// its footer, and nothing outside the blocks changed), and each block holding the note the
    /// footer records geotrip writing there. Anything else may hold a person's words.
    var isAsWritten: Bool {
        guard isIntact, let written = writtenNotes, !writtenNotesDamaged else { return false }
        return blocks.allSatisfy { (written[$0.id] ?? Self.noteHash("")) == Self.noteHash($0.text) }
    }

    /// Reads a file's bytes as `asUTF8Lines` gives them: a UTF-8 byte order mark, which some
    /// editors put before the first line when they save, is not part of the page (geotrip
    /// writes none); a page saved as UTF-16 or with classic Mac OS line endings is read too.
    /// `links`: whether each block's `photoLinks` are read (only a page whose notes must be
    /// matched to their visits by photo needs them: `JournalNotes.rehomed`).
    init(bytes: [UInt8], links: Bool = false) {
        let bytes = Self.asUTF8Lines(bytes)
        let reading = Self.read(Self.lines(bytes), links: links)
        blocks = reading.blocks
        notes = Self.notes(of: blocks)  // didSet does not run in an initialiser
        footer = reading.footer
        unclosed = reading.unclosed
        writtenNotes = reading.writtenNotes.notes
        writtenNotesDamaged = reading.writtenNotes.damaged
        // (The bytes are UTF-8 now: `asUTF8Lines` read any that were not as Windows-1252.)
        isIntact = reading.complete && reading.footer == Self.fingerprint(reading.skeleton)
    }

    /// `bytes` as UTF-8 lines ending in `\n`, as the reader takes them: without a UTF-8 byte
    /// order mark; a page an editor saved as UTF-16 (with its mark: Windows' "Unicode") in
    /// UTF-8; and one whose lines end in a lone `\r` (classic Mac OS) with `\n`. Otherwise the
    /// reader would find no marker in such a page, take none of its notes in, and keep it only
    /// as a backup of an edit outside the blocks.
    static func asUTF8Lines(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return asUTF8Lines(Array(bytes.dropFirst(3))) }
        // Only whole, valid UTF-16 is read so: a damaged page is read as bytes (what is no
        // UTF-8 as Windows-1252), which leaves it not intact, so it is kept as a backup before
        // it is written again.
        if bytes.count % 2 == 0, let little = bytes.starts(with: [0xFF, 0xFE]) ? true : bytes.starts(with: [0xFE, 0xFF]) ? false : nil {
            let units = stride(from: 2, to: bytes.count, by: 2).map { index in
                little ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            }
            if let text = String(validating: units, as: UTF16.self) { return asUTF8Lines(Array(text.utf8)) }
        }
        return classicMacLinesAsLF(windows1252Repaired(bytes))
    }

    /// `bytes` with each byte that is no part of valid UTF-8 read as the Windows-1252 (Latin-1)
    /// character it is: an editor set to Latin-1 saves `é` as one byte 0xE9 among the page's
    /// UTF-8, which would otherwise become U+FFFD in the note. Every byte maps to a character of
    /// its own (the five Windows-1252 leaves undefined to the C1 control of that number), so
    /// nothing is lost, whatever the encoding really was.
    static func windows1252Repaired(_ bytes: [UInt8]) -> [UInt8] {
        guard String(validating: bytes, as: UTF8.self) == nil else { return bytes }
        var repaired: [UInt8] = []
        repaired.reserveCapacity(bytes.count + bytes.count / 8)
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                repaired += encoded
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] {
                    let scalar = Unicode.Scalar(byte >= 0x80 && byte < 0xA0 ? windows1252C1[Int(byte - 0x80)] : UInt16(byte))!
                    repaired += Array(String(Character(scalar)).utf8)
                }
                position += length
            case .emptyInput:
                return repaired
            }
        }
    }

    /// Windows-1252's characters for the bytes 0x80 to 0x9F.
    private static let windows1252C1: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// A page whose lines mostly end in a lone `\r` (classic Mac OS), with every such `\r` as
    /// `\n`, so a line pasted into it with another ending does not leave the rest one line; a
    /// page of `\n` or `\r\n` lines as it is (a `\r` inside one of its lines is the note's,
    /// and `\r`s before a `\n` are part of the line's end: `content`).
    static func classicMacLinesAsLF(_ bytes: [UInt8]) -> [UInt8] {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        guard bytes.contains(cr) else { return bytes }
        // Each `\r` that no run of `\r`s leads on to a `\n` is a lone one.
        var lone = [Bool](repeating: false, count: bytes.count)
        var followedByLF = false
        for index in bytes.indices.reversed() {
            if bytes[index] == lf {
                followedByLF = true
            } else if bytes[index] == cr {
                lone[index] = !followedByLF
            } else {
                followedByLF = false
            }
        }
        let loneCount = lone.lazy.filter { $0 }.count
        guard loneCount > bytes.lazy.filter({ $0 == lf }).count else { return bytes }
        return bytes.indices.map { lone[$0] ? lf : bytes[$0] }
    }

    /// Reads text (as geotrip renders it).
    init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    // MARK: Writing

    /// The block for `id` holding `text` (which must be "" or end in a newline): start marker,
    /// the text as it is, end marker, with a tag when the text holds the plain end marker.
    static func block(id: String, text: String) -> String {
        // Lines as the reader matches markers (blanks after one do not unmake it), so a note
        // holding its end line with a space after it still gets a tag.
        let textLines = Set(lines(Array(text.utf8)).map { String(decoding: markerContent($0), as: UTF8.self) })
        var tag: Int?
        while textLines.contains(endLine(id: id, tag: tag)) { tag = (tag ?? 1) + 1 }
        // The end marker on a line of its own, whatever the text (every note read ends in one).
        let ended = text.isEmpty || text.utf8.last == UInt8(ascii: "\n") ? text : text + "\n"  // (a last "\r\n" is one Character)
        return startLine(id: id, tag: tag) + "\n" + ended + endLine(id: id, tag: tag) + "\n"
    }

    /// `body` with geotrip's footer appended: `explanation`, the notes written in `body`'s
    /// blocks (`notesSegment`) and the fingerprint of the lines outside them.
    static func withFooter(_ body: String, explanation: String) -> String {
        // A blank line sets the footer apart.
        let text = body + "\n"
        let reading = read(lines(Array(text.utf8)), footed: false)
        // The explanation never holds the marker's own closing.
        let words = explanation.replacingOccurrences(of: "-->", with: "->")
        return text + "<!-- geotrip · \(words) · \(notesSegment(reading.blocks)) · \(fingerprint(reading.skeleton)) -->\n"
    }

    /// `notes` and each block with text as `ID=HASH` (`noteHash`), in id order.
    static func notesSegment(_ blocks: [Block]) -> String {
        (["notes"] + blocks.filter { !$0.text.isEmpty }.sorted { $0.id < $1.id }.map { "\($0.id)=\(noteHash($0.text))" })
            .joined(separator: " ")
    }

    /// A note's text as the footer records it: 32-bit FNV-1a of its lines without their line
    /// endings and trailing blanks (which editors change on their own), 8 hex digits.
    static func noteHash(_ text: String) -> String {
        var hash: UInt32 = 0x811c_9dc5
        // Split on the byte: as Characters, "\r\n" is one and would not split.
        for line in Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var bytes = Array(line)
            while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: "\r") { bytes.removeLast() }
            for byte in bytes + [UInt8(ascii: "\n")] {
                hash ^= UInt32(byte)
                hash &*= 0x0100_0193
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The notes segment of a footer line (`notesSegment`), read back: nil when it has none,
    /// or has one that cannot be read (`damaged`).
    static func footerNotes(_ line: ArraySlice<UInt8>) -> (notes: [String: String]?, damaged: Bool) {
        // `… · notes ID=HASH … · FINGERPRINT -->`: the segment before the fingerprint's.
        let text = String(decoding: line, as: UTF8.self)
        let segments = text.components(separatedBy: " · ")
        guard segments.count >= 4 else { return (nil, false) }
        let words = segments[segments.count - 2].split(separator: " ")
        guard words.first == "notes" else { return (nil, false) }
        var notes: [String: String] = [:]
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 8, parts[1].allSatisfy(\.isHexDigit) else { return (nil, true) }
            notes[String(parts[0])] = String(parts[1])
        }
        return (notes, false)
    }

    /// The footer's fingerprint of `text` as `withFooter` made it: its last line's, read
    /// without going over the other lines again (`JournalDocument(text:).footer`, which
    /// `JournalTests` compares it with).
    static func renderedFooter(_ text: String) -> String? {
        var line = Array(text.utf8)
        guard line.last == UInt8(ascii: "\n") else { return nil }
        line.removeLast()
        let start = line.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return footerFingerprint(line[start...])
    }

    /// What one pass over a file's lines finds: the blocks, the lines outside them (markers
    /// included, the footer not), the footer's fingerprint, and whether every block was closed
    /// and no id repeated. The footer is the last line outside the blocks shaped like one; an
    /// earlier such line (a person's, or one pasted from another page) is a line like any
    /// other, so adding one is an edit. `footed`: false for a body geotrip has not yet given
    /// its footer, where every line counts.
    private static func read(_ lines: [ArraySlice<UInt8>], footed: Bool = true, links readsLinks: Bool = false)
        -> (blocks: [Block], skeleton: [ArraySlice<UInt8>], footer: String?, writtenNotes: (notes: [String: String]?, damaged: Bool), complete: Bool,
            unclosed: [String]) {
        var blocks: [Block] = []
        var skeleton: [ArraySlice<UInt8>] = []
        var footerAt: Int?
        var footer: String?
        var writtenNotes: (notes: [String: String]?, damaged: Bool) = (nil, false)
        var complete = true
        var seen = Set<String>()
        var unclosed: [String] = []
        var links: [String] = []
        var index = 0
        while index < lines.count {
            // Markers are matched without the blanks an editor may leave at a line's end.
            let line = markerContent(lines[index])
            if let (id, tag) = startMarker(line) {
                let end = Array(endLine(id: id, tag: tag).utf8)
                if let close = lines[(index + 1)...].firstIndex(where: { markerContent($0).elementsEqual(end) }) {
                    // A NUL byte (a damaged file, a binary paste) is no text a note can keep
                    // (SQLite's text ends at one): it is left out of the note, and the page is
                    // written again without it.
                    // Lines end as geotrip writes them: a `\r` an editor put before a `\n` (or
                    // several) is no part of the note (else a page saved with CRLF, no word
                    // changed, would hold a note other than the one kept, and be kept as a
                    // backup on every save).
                    // (Every line of a block ends in `\n`: a marker's line follows it.)
                    var bytes: [UInt8] = []
                    for line in lines[(index + 1)..<close] {
                        bytes += content(line)
                        bytes.append(UInt8(ascii: "\n"))
                    }
                    var text = String(decoding: bytes, as: UTF8.self)
                    if text.utf8.contains(0) { text.removeAll { $0 == "\0" } }
                    if seen.insert(id).inserted {
                        blocks.append(Block(id: id, text: text, photoLinks: links))
                    } else {
                        // A block repeated (pasted twice): only the first is read; a copy with
                        // other words is said, as an unread block is.
                        complete = false
                        if text.contains(where: { !$0.isWhitespace }), blocks.first(where: { $0.id == id })?.text != text, !unclosed.contains(id) {
                            unclosed.append(id)
                        }
                    }
                    links = []
                    skeleton.append(line)
                    skeleton.append(markerContent(lines[close]))
                    index = close + 1
                    continue
                }
                // Opened and never closed: not a block, and the file was edited outside its blocks.
                complete = false
                unclosed.append(id)
            } else if line.starts(with: endPrefix), let (id, _) = startMarker(Array(startPrefix) + line.dropFirst(endPrefix.count)) {
                // An end line with no start line before it (the start line deleted or changed):
                // what the block held is not read.
                complete = false
                unclosed.append(id)
            } else if footed, let fingerprint = footerFingerprint(line) {
                footer = fingerprint
                writtenNotes = footerNotes(line)
                footerAt = skeleton.count
            }
            if readsLinks, line.first == UInt8(ascii: "["), let link = photoLink(line) { links.append(link) }
            skeleton.append(line)
            index += 1
        }
        if let footerAt { skeleton.remove(at: footerAt) }
        return (blocks, skeleton, footer, writtenNotes, complete, unclosed)
    }

    // MARK: The grammar

    static func startLine(id: String, tag: Int?) -> String { "<!-- notes \(id)\(tag.map { " #\($0)" } ?? "") -->" }

    static func endLine(id: String, tag: Int?) -> String { "<!-- end notes \(id)\(tag.map { " #\($0)" } ?? "") -->" }

    // Every line of a file is tried as a marker: the markers' bytes are made once.
    private static let startPrefix = Array("<!-- notes ".utf8)
    private static let endPrefix = Array("<!-- end notes ".utf8)
    private static let footerPrefix = Array("<!-- geotrip · ".utf8)
    private static let markerSuffix = Array(" -->".utf8)

    /// The id and tag of a start marker line.
    static func startMarker(_ line: ArraySlice<UInt8>) -> (String, Int?)? {
        let prefix = startPrefix, suffix = markerSuffix
        guard line.count > prefix.count + suffix.count, line.starts(with: prefix), line.reversed().starts(with: suffix.reversed())
        else { return nil }
        let inner = String(decoding: line.dropFirst(prefix.count).dropLast(suffix.count), as: UTF8.self)
        let words = inner.split(separator: " ", omittingEmptySubsequences: false)
        guard let id = words.first, !id.isEmpty, !id.hasPrefix("#"), id.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        switch words.count {
        case 1:
            return (String(id), nil)
        case 2:
            guard words[1].hasPrefix("#"), let tag = Int(words[1].dropFirst()), tag >= 2, "#\(tag)" == words[1] else { return nil }
            return (String(id), tag)
        default:
            return nil
        }
    }

    /// The link target of a photo's line (`JournalRenderer.photoLine`), percent-decoded: the
    /// second link of `[![name](thumbnail)](target)`, the first of `[name](target)`. Names are
    /// written with `]` escaped and targets with `(` and `)` encoded, so `](` and `)` delimit.
    static func photoLink(_ line: ArraySlice<UInt8>) -> String? {
        let opener: [UInt8] = [UInt8(ascii: "]"), UInt8(ascii: "(")]
        func target(after start: ArraySlice<UInt8>.Index) -> ArraySlice<UInt8>.Index? {
            var index = start
            while index + 1 < line.endIndex {
                // A name's own `]` is written escaped (`\]`), and does not end it.
                if line[index] == opener[0], line[index + 1] == opener[1], index == line.startIndex || line[index - 1] != UInt8(ascii: "\\") {
                    return index + 2
                }
                index += 1
            }
            return nil
        }
        guard var start = target(after: line.startIndex) else { return nil }
        if line.dropFirst().first == UInt8(ascii: "!") {
            guard let thumbnailEnd = line[start...].firstIndex(of: UInt8(ascii: ")")), let next = target(after: thumbnailEnd) else { return nil }
            start = next
        }
        guard let end = line[start...].firstIndex(of: UInt8(ascii: ")")), end > start else { return nil }
        var bytes: [UInt8] = []
        var index = start
        while index < end {
            if line[index] == UInt8(ascii: "%"), index + 2 < end,
               let value = UInt8(String(decoding: line[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(line[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The fingerprint a footer line carries.
    static func footerFingerprint(_ line: ArraySlice<UInt8>) -> String? {
        let prefix = footerPrefix, suffix = markerSuffix
        guard line.count >= prefix.count + 16 + suffix.count, line.starts(with: prefix), line.reversed().starts(with: suffix.reversed())
        else { return nil }
        let hex = line.dropLast(suffix.count).suffix(16)
        guard hex.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The visits' section headings in a page that a person may have written over, each with
    /// the id of the visit's block below it. Headings are written anew by every export, so what
    /// a person writes there does not stay.
    /// - With no heading in geotrip's shape (`## TIME · PLACE`) since the block before: the
    ///   last `## ` line above the block, `place` nil (a title of the person's own).
    /// - Else geotrip's heading (`hasGeotripShape`) with what follows its ` · ` as `place`: the
    ///   person may have put a name of their own there (`## 10:05 WEST · Belém Tower`), which
    ///   only the names places have had tell from geotrip's (`ExportStage.namedOver`). A
    ///   heading added beside geotrip's is no heading written over.
    static func headingsWrittenOver(_ bytes: [UInt8]) -> [(visit: String, heading: String, place: String?)] {
        let lines = lines(asUTF8Lines(bytes))
        var found: [(visit: String, heading: String, place: String?)] = []
        var headings: [String] = []
        var index = 0
        while index < lines.count {
            let line = markerContent(lines[index])
            if let (id, tag) = startMarker(line) {
                if id.hasPrefix("v"), let heading = headings.last {
                    if let shaped = headings.last(where: Self.hasGeotripShape), let dot = shaped.range(of: " · ") {
                        found.append((id, shaped, String(shaped[dot.upperBound...]).trimmingCharacters(in: .whitespaces)))
                    } else {
                        found.append((id, heading, nil))
                    }
                }
                headings = []
                // The block's own lines are a note, whatever they look like.
                let end = Array(endLine(id: id, tag: tag).utf8)
                index = lines[(index + 1)...].firstIndex { markerContent($0).elementsEqual(end) }.map { $0 + 1 } ?? index + 1
                continue
            }
            if line.starts(with: Array("## ".utf8)) {
                headings.append(String(decoding: line.dropFirst(3), as: UTF8.self).trimmingCharacters(in: .whitespaces))
            }
            index += 1
        }
        return found.filter { !$0.heading.isEmpty && $0.place?.isEmpty != true }
    }

    /// Whether `heading` has the shape of a visit's heading geotrip writes: `TIME · PLACE`,
    /// with TIME as `TripVisit.localTimeSpan` writes it (`08:12–08:31 WEST`, `22:41–00:12
    /// (06-11) +09`, `10:00 ChST`), not a heading of the person's own that holds a ` · `
    /// (`Lunch · with Ana`).
    static func hasGeotripShape(_ heading: String) -> Bool {
        guard let dot = heading.range(of: " · ") else { return false }
        // A zone as tzdata abbreviates it (`WEST`, `ChST`, `+0545`), or its name (`Etc/GMT-9`).
        let zone = #"( [A-Za-z0-9_+\-:/]+)?"#, clock = #"\d{2}:\d{2}( \(\d{2}-\d{2}\))?"#
        guard let span = try? Regex(clock + zone + "(–" + clock + ")?" + zone) else { return false }
        return heading[..<dot.lowerBound].wholeMatch(of: span) != nil
    }

    /// The file's lines, each with its `\n` (the last may have none).
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }

    /// A line without its `\n` and the `\r`s before it (an editor's CRLF, or worse).
    static func content(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        while line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line
    }

    /// A line's `content` without the spaces and tabs at its end, and up to three spaces at its
    /// start, when it is a marker's line (`<!-- … -->` with blanks an editor left: trailing
    /// ones, or an indent it carried over; four spaces would make it code to Markdown); any
    /// other line as `content` has it.
    static func markerContent(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var trimmed = content(line)
        let indent = trimmed.prefix(4).prefix { $0 == UInt8(ascii: " ") }.count
        guard indent < 4, trimmed.dropFirst(indent).first == UInt8(ascii: "<"),
              indent > 0 || trimmed.last == UInt8(ascii: " ") || trimmed.last == UInt8(ascii: "\t") else { return trimmed }
        trimmed = trimmed.dropFirst(indent)
        while trimmed.last == UInt8(ascii: " ") || trimmed.last == UInt8(ascii: "\t") { trimmed = trimmed.dropLast() }
        return trimmed.last == UInt8(ascii: ">") ? trimmed : content(line)
    }

    /// The fingerprint of the lines outside the blocks.
    static func fingerprint(_ skeleton: [ArraySlice<UInt8>]) -> String {
        let joined = Array(skeleton.joined(separator: [UInt8(ascii: "\n")]))
        return Fingerprint.of(joined, fileSize: joined.count)
    }
}
