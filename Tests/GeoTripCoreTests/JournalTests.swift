import Foundation
import GeoTripTestSupport
import Testing
import Yams
@testable import GeoTripCore

/// The journal's pieces without files: the notes grammar, the front matter, Markdown escaping,
/// and where notes go when visits move or disappear (issue 12).
@Suite("Journal")
struct JournalTests {
    /// A note a person might write, with every line that could fool a marker parser.
    static let trickyNote = """
        첫째 날: 리스본의 아침. Café: "Le Dôme" {{name}}
        <!-- notes v18 -->
        <!-- end notes v18 -->
        <!-- end notes v17 -->
        <!-- end notes v17 #2 -->
        <!-- notes v17 -->
        <!-- geotrip · write here · 0123456789abcdef -->
        line with CRLF\r
          indented, trailing spaces   \n
        """ + "\n"

    @Test("a note holding its own and other blocks' markers reads back byte for byte (an editor's \\r before a line's end left out), and the file is intact")
    func markersInsideNotes() throws {
        let body = "# Day\n\n" + JournalDocument.block(id: "2025-06-10", text: "day words\n")
            + "\n## Visit\n\n" + JournalDocument.block(id: "v17", text: Self.trickyNote) + "\n"
            + JournalDocument.block(id: "v18", text: "") + "\n"
        let file = JournalDocument.withFooter(body, explanation: "write between the lines")
        let document = JournalDocument(text: file)
        #expect(document.isIntact)
        #expect(document.notes == ["2025-06-10": "day words\n", "v17": Self.trickyNote.replacingOccurrences(of: "\r\n", with: "\n"), "v18": ""])
        #expect(Self.trickyNote.contains("CRLF\r\n") && !document.notes["v17", default: ""].contains("\r"))
        let doubled = JournalDocument(text: file.replacingOccurrences(of: "day words\n", with: "day\rwords\r\r\n"))
        #expect(doubled.notes["2025-06-10"] == "day\rwords\n")  // a `\r` inside a line is the note's
        // The note held the plain and the #2 end marker: the block took the next tag.
        #expect(file.contains("<!-- notes v17 #3 -->\n"))
        // Tidying the rendered page keeps the notes exactly.
        #expect(JournalDocument(text: JournalRenderer.tidy(file)).notes == document.notes)
    }

    @Test("a change outside the blocks, an unclosed block or a repeated id is seen; a change inside is not")
    func editsOutsideBlocks() {
        let file = JournalDocument.withFooter("# Day\n\n" + JournalDocument.block(id: "v1", text: "a\n") + "\ntext\n", explanation: "x")
        #expect(JournalDocument(text: file).isIntact)
        #expect(JournalDocument(text: file.replacingOccurrences(of: "a\n", with: "b\nc\n")).isIntact)
        #expect(!JournalDocument(text: file.replacingOccurrences(of: "text", with: "texts")).isIntact)
        #expect(!JournalDocument(text: file.replacingOccurrences(of: "<!-- end notes v1 -->\n", with: "")).isIntact)
        // A marker line deleted, either one: the block is named as not read.
        #expect(JournalDocument(text: file.replacingOccurrences(of: "<!-- end notes v1 -->\n", with: "")).unclosed == ["v1"])
        #expect(JournalDocument(text: file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "")).unclosed == ["v1"])
        #expect(JournalDocument(text: file).unclosed.isEmpty)
        #expect(!JournalDocument(text: file + JournalDocument.block(id: "v1", text: "again\n")).isIntact)
        // A repeated block with other words is named as not read; one that repeats the first's
        // words, or holds none, loses nothing.
        #expect(JournalDocument(text: file + JournalDocument.block(id: "v1", text: "again\n")).unclosed == ["v1"])
        #expect(JournalDocument(text: file + JournalDocument.block(id: "v1", text: "a\n")).unclosed.isEmpty)
        #expect(JournalDocument(text: file + JournalDocument.block(id: "v1", text: " \n")).unclosed.isEmpty)
        // CRLF written by an editor is not an edit, nor a byte order mark before the first line.
        #expect(JournalDocument(text: file.replacingOccurrences(of: "\n", with: "\r\n")).isIntact)
        #expect(JournalDocument(bytes: [0xEF, 0xBB, 0xBF] + Array(file.utf8)).isIntact)
        #expect(JournalDocument(bytes: [0xEF, 0xBB, 0xBF] + Array(file.utf8)).notes == JournalDocument(text: file).notes)
        // Nor a page saved as UTF-16 with its byte order mark (either order, Windows' "Unicode"),
        // or with classic Mac OS line endings: its notes are read as they are.
        let noted = file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "<!-- notes v1 -->\n리스본 at noon\r\n")
        let units = Array(noted.utf16)
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let classicMac: String = noted.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r")
        for bytes in [little, big, Array(classicMac.utf8)] {
            let document = JournalDocument(bytes: bytes)
            let note: String = document.notes["v1"] ?? ""
            #expect(document.isIntact && note.hasPrefix("리스본 at noon\n"), "\(document.notes)")
            #expect(document.notes == JournalDocument(text: noted).notes)
        }
        // A classic Mac page with a line pasted in from elsewhere (ending in \n or \r\n) is one too.
        for pasted in ["pasted line\n", "pasted line\r\n"] {
            let mixed = JournalDocument(bytes: Array(classicMac.replacingOccurrences(of: "리스본 at noon\r", with: "리스본 at noon\r" + pasted).utf8))
            #expect(mixed.notes["v1"]?.hasPrefix("리스본 at noon\npasted line\n") == true, "\(mixed.notes)")
        }
        // Damaged UTF-16 (a byte cut off, an unpaired surrogate) is not read as text: the page is
        // not intact, so it is kept as a backup before it is written again.
        #expect(!JournalDocument(bytes: little.dropLast()).isIntact)
        #expect(!JournalDocument(bytes: little + [0x00, 0xD8]).isIntact)
        #expect(JournalDocument(bytes: [0xFF, 0xFE]).blocks.isEmpty && JournalDocument(bytes: [0xEF, 0xBB, 0xBF]).blocks.isEmpty)
        // A line like geotrip's footer added above the real one, or below it, is the person's.
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        let footerLine = lines[lines.count - 2]
        #expect(footerLine.hasPrefix("<!-- geotrip · "))
        let fake = "<!-- geotrip · my own words · 0123456789abcdef -->\n"
        #expect(!JournalDocument(text: file.replacingOccurrences(of: footerLine + "\n", with: fake + footerLine + "\n")).isIntact)
        #expect(!JournalDocument(text: fake + file).isIntact)
        #expect(!JournalDocument(text: file + fake).isIntact)
        #expect(!JournalDocument(text: file + footerLine + "\n").isIntact)
        // A line added below the footer, in bytes that are not UTF-8, is an edit like any other.
        #expect(!JournalDocument(bytes: Array(file.utf8) + [0xE9, 0x0A]).isIntact)
        // A note saved by an editor set to Latin-1 (Windows-1252) among the page's UTF-8: each
        // byte that is no UTF-8 is its Windows-1252 character, the page's own UTF-8 stays as
        // it is, and nothing outside the block changed.
        let parts = file.components(separatedBy: "<!-- notes v1 -->\na")
        #expect(parts.count == 2)
        let saved = Array((parts[0] + "<!-- notes v1 -->\n").utf8) + [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x81, 0x93, 0xC3, 0x20]
            + Array(("día" + parts[1]).utf8)
        #expect(JournalDocument(bytes: saved).notes == ["v1": "Caf\u{E9} \u{20AC}\u{81}\u{201C}\u{C3} día\n"])
        #expect(JournalDocument(bytes: saved).isIntact)
        // Blanks an editor leaves at the end of marker lines: the block is read, the page intact.
        let blanks = file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "<!-- notes v1 --> \t\n")
            .replacingOccurrences(of: "<!-- end notes v1 -->\n", with: "<!-- end notes v1 -->  \r\n")
        #expect(JournalDocument(text: blanks).notes == ["v1": "a\n"])
        #expect(JournalDocument(text: blanks).isIntact && JournalDocument(text: blanks).unclosed.isEmpty)
        // A note holding its own end line with blanks after it is written with a tag, and read
        // back whole (the reader takes that line for a marker).
        let spaced = "a\n<!-- end notes v1 --> \nb\n"
        #expect(JournalDocument.block(id: "v1", text: spaced).hasPrefix("<!-- notes v1 #2 -->\n"))
        #expect(JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v1", text: spaced), explanation: "x")).notes == ["v1": spaced])
        // Blanks inside a marker, or words after it, make no marker.
        #expect(JournalDocument(text: file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "<!-- notes v1 -->x\n")).unclosed == ["v1"])
        // Up to three spaces before a marker (an editor's indent carried over) are no part of
        // it, as Markdown reads them; four make code, and no marker.
        let indented = file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "   <!-- notes v1 -->\n")
            .replacingOccurrences(of: "<!-- end notes v1 -->\n", with: "  <!-- end notes v1 --> \n")
        #expect(JournalDocument(text: indented).notes == ["v1": "a\n"])
        #expect(JournalDocument(text: indented).isIntact && JournalDocument(text: indented).unclosed.isEmpty)
        #expect(JournalDocument(text: file.replacingOccurrences(of: "<!-- notes v1 -->\n", with: "    <!-- notes v1 -->\n")).unclosed == ["v1"])
        // A note holding its end line indented is written with a tag, and read back whole.
        let indentedEnd = "a\n <!-- end notes v1 -->\nb\n"
        #expect(JournalDocument.block(id: "v1", text: indentedEnd).hasPrefix("<!-- notes v1 #2 -->\n"))
        #expect(JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v1", text: indentedEnd), explanation: "x")).notes == ["v1": indentedEnd])
    }

    @Test("a NUL byte in a note is left out (SQLite's text ends at one), the rest kept; a block always ends on a line of its own")
    func nulInNote() {
        let file = JournalDocument.withFooter("# Day\n\n" + JournalDocument.block(id: "v1", text: "a\n") + "\ntext\n", explanation: "x")
        let damaged = file.replacingOccurrences(of: "<!-- notes v1 -->\na\n", with: "<!-- notes v1 -->\nbefore\0after\nsecond line\n")
        let read = JournalDocument(text: damaged)
        #expect(read.notes == ["v1": "beforeafter\nsecond line\n"])
        #expect(read.isIntact, "nothing outside the block changed")
        // What a write of a text without its last line break gives: the end marker on its own line.
        #expect(JournalDocument.block(id: "v1", text: "before") == "<!-- notes v1 -->\nbefore\n<!-- end notes v1 -->\n")
        #expect(JournalDocument(text: JournalDocument.block(id: "v1", text: "before")).notes == ["v1": "before\n"])
    }

    @Test("front matter stays valid YAML for hostile names, with a plain date")
    func frontMatter() throws {
        let renderer = try JournalRenderer(language: "en")
        let names = ["Café: \"Le Dôme\"", "#1 Bar", "</script><b>x", "- dash", "yes", "123", "a: b # c", "리스본", "'quoted'"]
        let yaml = try renderer.frontMatter(date: "2025-06-10", places: names, countries: ["Portugal"], photos: 17)
        #expect(yaml.hasPrefix("date: 2025-06-10\n"))
        let parsed = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        #expect(parsed["places"] as? [String] == names)
        #expect(parsed["countries"] as? [String] == ["Portugal"])
        #expect(parsed["photos"] as? Int == 17)
    }

    @Test("characters beyond U+FFFF (emoji, rare CJK) stay themselves in the front matter, not \\U escapes")
    func frontMatterAstral() throws {
        let renderer = try JournalRenderer(language: "en")
        // A name holding the first private-use character (the first stand-in), a literal
        // backslash-U text, a rare CJK character, flags and an emoji that recurs.
        let names = ["Castle 🏰", "\u{E000} Café 🏰", "C:\\U0001F3F0", "𠮷野家", "🇵🇹 Lisboa", "\"🍷\": bar", "🏰"]
        let countries = ["Portugal 🇵🇹"]
        let yaml = try renderer.frontMatter(date: "2025-06-10", places: names, countries: countries, photos: 3)
        #expect(!yaml.contains("Castle \\U") && !yaml.contains("\\U00020BB7"), "no escape was written: \(yaml)")
        #expect(yaml.contains("Castle 🏰"), "\(yaml)")
        #expect(yaml.contains("𠮷野家"))
        let parsed = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        #expect(parsed["places"] as? [String] == names)
        #expect(parsed["countries"] as? [String] == countries)
    }

    @Test("names are escaped for Markdown and link targets percent-encoded")
    func markdown() {
        #expect(MarkdownText.escaped("</script><b>x") == "\\</script\\>\\<b\\>x")
        #expect(MarkdownText.escaped("#1 Bar *the* [best]") == "\\#1 Bar \\*the\\* \\[best\\]")
        #expect(MarkdownText.linkTarget("../../2025-06-10 Lisboa/Café (1).jpg") == "../../2025-06-10%20Lisboa/Caf%C3%A9%20%281%29.jpg")
        #expect(MarkdownText.linkTarget("") == "")
        #expect(MarkdownText.linkTarget("리스본/😀") == "%EB%A6%AC%EC%8A%A4%EB%B3%B8/%F0%9F%98%80")
        // Line breaks of every kind become one space each (CR LF is one), as `Character.isNewline` reads them.
        #expect(MarkdownText.escaped("a\r\nb\nc\rd\u{0B}e\u{0C}f\u{85}g\u{2028}h\u{2029}i") == "a b c d e f g h i")
        // Other controls (a file name's ESC, DEL, a C1 control) are not written raw; a tab is a space.
        #expect(MarkdownText.escaped("IMG\u{1B}[31m\u{7F}\u{9B}_1\tx.jpg") == "IMG\u{FFFD}\\[31m\u{FFFD}\u{FFFD}\\_1 x.jpg")
        #expect(MarkdownText.escaped("IMG_0001.JPG") == "IMG\\_0001.JPG")
        #expect(MarkdownText.escaped("Café – 리스본 \u{2027}\u{2030}") == "Café – 리스본 \u{2027}\u{2030}")
        // Against the rule written by Character, on text from an alphabet of the cases that
        // matter: every escaped byte, every line break, multi-byte letters sharing their lead bytes.
        let alphabet: [Character] = Array("\\`*_[]<>#!|&~ aZ9-é\u{85}\u{A0}\u{2028}\u{2029}\u{2026}리😀\n\r\u{0B}\u{0C}") + ["\r\n"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0..<20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            var expected = ""
            for character in text {
                if character.isNewline { expected.append(" "); continue }
                if let ascii = character.asciiValue, "\\`*_[]<>#!|&~".utf8.contains(ascii) { expected.append("\\") }
                expected.append(character)
            }
            #expect(MarkdownText.escaped(text) == expected, "\(Array(text.unicodeScalars))")
        }
        #expect(MarkdownText.shellQuoted("it's.jpg") == "'it'\\''s.jpg'")
        #expect(MarkdownText.codeBlock("a ``` b", language: "sh").hasPrefix("````sh\n"))
    }

    @Test("Korean words and dates, English words for other languages with their own dates")
    func words() {
        let korean = JournalWords(language: "ko")
        #expect(korean.dayHeading("2025-06-10").contains("6월 10일"))
        #expect(korean.dayHeading("2025-06-10").contains("화요일"))
        #expect(korean.photoCount(3) == "사진 3장")
        #expect(korean.countryName(code: "PT", stored: "Portugal") == "포르투갈")
        let english = JournalWords(language: "en")
        #expect(english.dayHeading("2025-06-10").contains("Tuesday"))
        #expect(english.photoCount(1) == "1 photo")
        let portuguese = JournalWords(language: "pt-BR")
        #expect(portuguese.photoCount(2) == "2 photos")
        #expect(portuguese.dayHeading("2025-06-10").lowercased().contains("terça"))
    }

    static func visit(_ id: String, day: String, name: String = "Lisbon") -> TripVisit {
        TripVisit(id: id, placeId: "p" + id.dropFirst(), revision: 1, latitude: 38.7, longitude: -9.1, radiusMeters: 10,
                  arrival: day + "T10:00:00Z", departure: day + "T11:00:00Z", localDate: day, timeZone: "Europe/Lisbon",
                  localArrival: nil, localDeparture: nil, photoCount: 1, photos: ["a.jpg"], name: name, admin1: nil, country: nil,
                  countryCode: "PT", nameSource: "offline")
    }

    @Test("notes follow a visit to its new day, stay in the catalog for a deleted file, and go to the gone list with their visit")
    func notesFollowVisits() {
        let before = Trip(visits: [Self.visit("v1", day: "2025-06-10"), Self.visit("v2", day: "2025-06-10", name: "Sintra")],
                          outside: [], days: [])
        let file = JournalDocument(text: JournalDocument.withFooter(
            JournalDocument.block(id: "2025-06-10", text: "day\n") + JournalDocument.block(id: "v1", text: "one\n")
                + JournalDocument.block(id: "v2", text: "two\n"), explanation: "x"))
        let first = JournalNotes(trip: before, days: ["2025-06-10": [file]], unplaced: [], stored: [:])
        #expect(first.texts == ["2025-06-10": "day\n", "v1": "one\n", "v2": "two\n"])
        #expect(first.all["v2"]?.placeName == "Sintra")

        // v1 moved to the next day, v2 is gone; the old day's file still holds both blocks.
        let after = Trip(visits: [Self.visit("v1", day: "2025-06-11")], outside: [], days: [])
        let second = JournalNotes(trip: after, days: ["2025-06-10": [file]], unplaced: [], stored: first.all)
        #expect(second.all["v1"]?.text == "one\n" && second.all["v1"]?.localDate == "2025-06-11")
        #expect(second.gone.map(\.ownerID) == ["2025-06-10", "v2"])
        #expect(second.gone.last?.placeName == "Sintra" && second.gone.last?.localDate == "2025-06-10")
        #expect(second.moved == [MovedNote(visit: "v1", from: "2025-06-10", to: "2025-06-11")])
        #expect(first.moved.isEmpty, "nothing moved on a first reading")
        // Written and moved in the same run (the catalog does not know it yet), or a block moved
        // by hand to another day's page: said too, from the page it was written in, as written
        // elsewhere (which of the two, the notes cannot tell).
        let writtenThenMoved = JournalNotes(trip: after, days: ["2025-06-10": [file]], unplaced: [], stored: [:])
        #expect(writtenThenMoved.moved == [MovedNote(visit: "v1", from: "2025-06-10", to: "2025-06-11", writtenElsewhere: true)])
        // v2 back on its day, from the page of notes whose visit is gone; v1 stays where it went.
        let unplacedPage = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v2", text: "two\n"), explanation: "x"))
        let back = Trip(visits: [Self.visit("v1", day: "2025-06-11"), Self.visit("v2", day: "2025-06-10", name: "Sintra")], outside: [], days: [])
        let returned = JournalNotes(trip: back, days: [:], unplaced: [unplacedPage], stored: second.all)
        #expect(returned.moved == [MovedNote(visit: "v2", from: nil, to: "2025-06-10")])
        #expect(returned.gone.isEmpty && returned.all["v2"]?.text == "two\n")
        // A note first read in the run its visit went (written, then the photos moved away) is
        // known by the day of the page it was written in, and said so without a place.
        let unseen = JournalNotes(trip: after, days: ["2025-06-10": [file]], unplaced: [], stored: [:])
        #expect(unseen.gone.last?.ownerID == "v2" && unseen.gone.last?.localDate == "2025-06-10")
        #expect(JournalWords(language: "en").goneVisit(id: "v2", place: nil, date: "2025-06-10") == "Visit v2, 2025-06-10")
        #expect(JournalWords(language: "en").goneVisit(id: "v2", place: "Sintra", date: "2025-06-10") == "Visit v2: Sintra, 2025-06-10")
        // When the visit comes back with its photos, the note goes back with it: the photos
        // its visit holds on its return are no evidence against it (the note never knew any).
        let photos = VisitPhotos(ofEachVisit: { ids in ids.contains("v2") ? ["v2": [(id: 21, path: "a.jpg")]] : [:] },
                                 visitOfPhotos: { ids in ids.contains(21) ? [21: "v2"] : [:] })
        let waiting = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v2", text: "two\n"), explanation: "x"))
        let cameBack = JournalNotes(trip: back, days: [:], unplaced: [waiting], stored: unseen.all, photos: photos)
        #expect(cameBack.all["v2"]?.text == "two\n" && cameBack.gone.isEmpty && cameBack.setApart.isEmpty)
        #expect(cameBack.moved == [MovedNote(visit: "v2", from: nil, to: "2025-06-10")])
        // One whose day was never known says so, in words.
        #expect(JournalWords(language: "en").goneVisit(id: "v2", place: nil, date: nil) == "Visit v2, day unknown")
        #expect(JournalWords(language: "ko").goneVisit(id: "v2", place: nil, date: nil) == "방문 v2, 날짜 모름")
        // A visit inside a privacy zone (home) is remembered without its place's name, as its
        // day's page shows it, so the page of gone notes does not name it either.
        let home = PrivacyZones([.init(centre: Coordinate(latitude: 38.7, longitude: -9.1))])
        let hidden = JournalNotes(trip: before, days: ["2025-06-10": [file]], unplaced: [], stored: [:], privacy: home)
        #expect(hidden.all["v2"]?.placeName == nil && hidden.all["v2"]?.text == "two\n")
        let hiddenGone = JournalNotes(trip: after, days: ["2025-06-10": [file]], unplaced: [], stored: hidden.all, privacy: home)
        #expect(hiddenGone.gone.last?.ownerID == "v2" && hiddenGone.gone.last?.placeName == nil)

        // The files deleted: the catalog's copies fill in.
        let third = JournalNotes(trip: after, days: [:], unplaced: [], stored: second.all)
        #expect(third.texts == second.texts)

        // A block the person emptied deletes the note, even with a copy in the catalog.
        let written = JournalDocument.withFooter(JournalDocument.block(id: "v1", text: "one\n"), explanation: "x")
        let emptied = JournalDocument(text: written.replacingOccurrences(of: "-->\none\n<!--", with: "-->\n<!--"))
        // It stays as an empty note while its visit is there, so an older copy elsewhere (a
        // folder used again) cannot bring it back; a gone visit's empty note goes.
        let deleted = JournalNotes(trip: after, days: ["2025-06-11": [emptied]], unplaced: [], stored: second.all)
        #expect(deleted.all["v1"]?.text == "" && deleted.gone.allSatisfy { $0.ownerID != "v1" })
        let older = JournalNotes(trip: after, days: ["2025-06-11": [emptied], "2025-06-10": [file]], unplaced: [], stored: deleted.all)
        #expect(older.all["v1"]?.text == "")
        // Its visit gone too, the empty note stays (off the page of gone notes): an older copy
        // as written elsewhere does not bring it back, there or when the visit returns.
        let gone = Trip(visits: [], outside: [], days: [])
        let away = JournalNotes(trip: gone, days: ["2025-06-10": [file]], unplaced: [], stored: deleted.all)
        #expect(away.all["v1"]?.text == "" && !away.gone.contains { $0.ownerID == "v1" })
        #expect(JournalNotes(trip: after, days: ["2025-06-10": [file]], unplaced: [], stored: away.all).all["v1"]?.text == "")
    }
}

extension JournalTests {
    @Test("an edited block counts over the catalog unless older than its copy; a block as geotrip wrote it never does; of several edits, the latest")
    func noteCopiesByTime() {
        /// A file geotrip wrote with `written` in the block, in which the person then wrote `text`.
        func file(_ text: String, written: String? = nil, at nanos: Int64?) -> JournalDocument {
            let page = JournalDocument.withFooter(JournalDocument.block(id: "v1", text: written ?? text), explanation: "x")
            var document = JournalDocument(text: page)
            document.blocks = [JournalDocument.Block(id: "v1", text: text)]
            document.modifiedNanos = nanos
            return document
        }
        /// A file an older geotrip wrote, whose footer records no notes.
        func old(_ text: String, at nanos: Int64?) -> JournalDocument {
            var document = file(text, at: nanos)
            document.writtenNotes = nil
            return document
        }
        let stored = JournalNote(ownerID: "v1", text: "kept\n")
        let second: Int64 = 1_000_000_000
        func text(_ files: [JournalDocument], stored: JournalNote? = stored, at time: Int64? = 100 * second) -> String? {
            JournalNotes.text(of: "v1", in: files, stored: stored, storedAt: time).text
        }
        // As geotrip wrote them: older states, whatever the file's time.
        #expect(text([file("older\n", at: 500 * second)]) == "kept\n")
        #expect(text([file("", at: 500 * second)]) == "kept\n")
        // Edits: since the catalog's copy (or within 2 s of it) they count, the latest of several.
        #expect(text([file("edited\n", written: "kept\n", at: 150 * second)]) == "edited\n")
        #expect(text([file("", written: "kept\n", at: 150 * second)]) == "")
        // Written over the catalog's own copy, an edit counts whatever the file's time (a slow
        // clock, a copy that kept its time); over an older copy, only if saved since.
        #expect(text([file("kept time\n", written: "kept\n", at: 50 * second)]) == "kept time\n")
        #expect(text([file("", written: "kept\n", at: 50 * second)]) == "")
        #expect(text([file("same second\n", written: "older\n", at: 99 * second)]) == "same second\n")
        #expect(text([file("long before\n", written: "older\n", at: 50 * second)]) == "kept\n")
        // Line endings and trailing blanks an editor changed do not make an edit.
        #expect(text([file("older\r\n", written: "older\n", at: 500 * second)]) == "kept\n")
        #expect(text([file("older\n", written: "older  \n", at: 500 * second)]) == "kept\n")
        #expect(text([file("kept\r\n", written: "kept\n", at: 500 * second)]) == "kept\n")
        // But blanks added at a line's end of the catalog's own copy are the person's (a
        // Markdown line break), whatever the file's time; added to an older copy, not.
        #expect(text([file("kept  \n", written: "kept\n", at: 50 * second)]) == "kept  \n")
        #expect(text([file("kept\t\r\n", written: "kept\n", at: 500 * second)]) == "kept\t\r\n")
        #expect(text([file("older  \n", written: "older\n", at: 500 * second)]) == "kept\n")
        #expect(JournalNotes.addsTrailingBlanks("a  \nb\n", to: "a\nb \n") && !JournalNotes.addsTrailingBlanks("a\nb\n", to: "a \nb\n"))
        #expect(!JournalNotes.addsTrailingBlanks("a\r\nb\r\n", to: "a\nb\n") && !JournalNotes.addsTrailingBlanks("c  \n", to: "a\n"))
        #expect(text([file("first\n", written: "", at: 150 * second), file("second\n", written: "", at: 200 * second)]) == "second\n")
        #expect(text([file("first\n", written: "", at: nil), file("second\n", written: "", at: nil)]) == "first\n")
        // An older geotrip's files: by their time alone.
        #expect(text([old("older\n", at: 50 * second)]) == "kept\n")
        #expect(text([old("newer\n", at: 150 * second)]) == "newer\n")
        // Not in the catalog: the latest copy with text, as written or not.
        #expect(text([file("", at: 10), file("words\n", at: 5)], stored: nil, at: nil) == "words\n")
        #expect(text([], stored: stored) == "kept\n")
        #expect(ExportStage.dropsWords(file("older\n", at: nil), keeping: ["v1": "kept\n"]))
        #expect(!ExportStage.dropsWords(file("kept\n", at: nil), keeping: ["v1": "kept\n"]))
        #expect(!ExportStage.dropsWords(file(" \n", at: nil), keeping: [:]))
    }

    /// An output folder in `temp`, with its journal folder made.
    static func outputWithJournal(in temp: TemporaryFolder) throws -> OutputFolder {
        let output = OutputFolder(folder: temp.url.path, outputFolder: temp.url.appendingPathComponent("out").path)
        try output.create("journal")
        return output
    }

    @Test("a page saved while geotrip writes over it is left as saved: the file is looked at again just before the rename")
    func pageSavedWhileStored() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let output = try Self.outputWithJournal(in: temp)
        let page = "journal/2025-06-10.md"
        #expect(try output.store(Array("as written\n".utf8), at: page) == .written)
        let listed = try #require(output.stamp(of: page))
        // The person's editor saves it (another size, so another stamp whatever the clock).
        try Data("their words, saved now\n".utf8).write(to: URL(fileURLWithPath: output.path + "/" + page))
        #expect(try output.store(Array("geotrip's page\n".utf8), at: page, expecting: .some(listed)) == .savedMeanwhile)
        #expect(try String(contentsOfFile: output.path + "/" + page, encoding: .utf8) == "their words, saved now\n")
        // Nothing there when listed, and a file there now: the same.
        let new = "journal/2025-06-11.md"
        try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: output.path + "/" + new))
        #expect(try output.store(Array("ours\n".utf8), at: new, expecting: .some(nil)) == .savedMeanwhile)
        // As listed: written; and no temporary file is left behind either way.
        let now = try #require(output.stamp(of: page))
        #expect(try output.store(Array("geotrip's page\n".utf8), at: page, expecting: .some(now)) == .written)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path + "/journal").sorted() == ["2025-06-10.md", "2025-06-11.md"])
    }

    /// The day page these tests write.
    static let page = "journal/2025-06-10.md"

    /// An output folder in `temp` with `page` as geotrip wrote it, and the page's stamp then.
    static func pageAsWritten(in temp: TemporaryFolder) throws -> (OutputFolder, FileStamp) {
        let output = try outputWithJournal(in: temp)
        #expect(try output.store(Array("as written\n".utf8), at: page) == .written)
        return (output, try #require(output.stamp(of: page)))
    }

    /// A `beforeRename` that saves `text` into the file, as an editor would in that moment.
    static func saving(_ text: String) -> @Sendable (String) -> Void {
        { path in try? Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    }

    @Test("a page saved in the very moment between geotrip's last look and its rename is left as saved",
          .enabled(if: OutputFolder.swapsNames(in: NSTemporaryDirectory()), "the file system cannot swap two names: geotrip renames as before"))
    func pageSavedAtTheRename() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        var (output, listed) = try Self.pageAsWritten(in: temp)
        let page = Self.page, full = output.path + "/" + page
        // The editor saves after the last look: the page as they saved it stays.
        output.beforeRename = Self.saving("their words, saved in that moment\n")
        #expect(try output.store(Array("geotrip's page\n".utf8), at: page, expecting: .some(listed)) == .savedMeanwhile)
        #expect(try String(contentsOfFile: full, encoding: .utf8) == "their words, saved in that moment\n")
        // A new page whose file appears in that moment: the same.
        let new = "journal/2025-06-11.md"
        output.beforeRename = Self.saving("theirs\n")
        #expect(try output.store(Array("ours\n".utf8), at: new, expecting: .some(nil)) == .savedMeanwhile)
        #expect(try String(contentsOfFile: output.path + "/" + new, encoding: .utf8) == "theirs\n")
        // A save of the same size with its old time put back (`touch -r`): still not the file
        // looked at (its bytes differ), so it stays.
        let looked = try #require(output.stamp(of: page))
        output.beforeRename = { path in
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            try? Data("THEIR WORDS, SAVED IN THAT MOMENT\n".utf8).write(to: URL(fileURLWithPath: path))
            var times = [info.st_atim, info.st_mtim]
            _ = utimensat(AT_FDCWD, path, &times, 0)
        }
        #expect(try output.store(Array("geotrip's page\n".utf8), at: page, expecting: .some(looked)) == .savedMeanwhile)
        #expect(try String(contentsOfFile: full, encoding: .utf8) == "THEIR WORDS, SAVED IN THAT MOMENT\n")
        #expect(output.stamp(of: page) == looked, "the same size and time as looked at")
        // Nothing saved in that moment: written, and no temporary file is left behind.
        output.beforeRename = nil
        let now = try #require(output.stamp(of: page))
        #expect(try output.store(Array("geotrip's page\n".utf8), at: page, expecting: .some(now)) == .written)
        #expect(try String(contentsOfFile: full, encoding: .utf8) == "geotrip's page\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path + "/journal").sorted() == ["2025-06-10.md", "2025-06-11.md"])
    }

    @Test("a page saved in the moment before geotrip removes it (its day is gone) is left as saved")
    func pageSavedAtTheRemoval() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        var (output, listed) = try Self.pageAsWritten(in: temp)
        let page = Self.page, full = output.path + "/" + page
        output.beforeRename = Self.saving("their words, saved in that moment\n")
        #expect(try output.remove(page, expecting: listed) == false)
        #expect(try String(contentsOfFile: full, encoding: .utf8) == "their words, saved in that moment\n")
        // Saved before the last look: left too. As looked at: removed, with nothing left aside.
        output.beforeRename = nil
        #expect(try output.remove(page, expecting: listed) == false)
        #expect(try output.remove(page, expecting: try #require(output.stamp(of: page))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path + "/journal") == [])
    }

    @Test("a file time past 2262 reads as the latest time there is, not as one centuries back")
    func farFileTime() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let output = try Self.outputWithJournal(in: temp)
        #expect(try output.store(Array("page\n".utf8), at: "journal/2025-06-10.md") == .written)
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]  // 2300-01-01
        #expect(utimensat(AT_FDCWD, output.path + "/journal/2025-06-10.md", &times, 0) == 0)
        let stamp = try #require(output.stamp(of: "journal/2025-06-10.md"))
        #expect(stamp.modifiedNanos > Int64(Date().timeIntervalSince1970 * 1e9))
    }

    @Test("the footer records the notes geotrip wrote, by id, and reads them back; a page without notes records none")
    func footerNotes() {
        let page = JournalDocument.withFooter(JournalDocument.block(id: "2025-06-10", text: "day\n") + JournalDocument.block(id: "v1", text: "")
            + JournalDocument.block(id: "v2", text: "two\n"), explanation: "x")
        let document = JournalDocument(text: page)
        #expect(document.isIntact)
        #expect(document.writtenNotes == ["2025-06-10": JournalDocument.noteHash("day\n"), "v2": JournalDocument.noteHash("two\n")])
        #expect(page.hasSuffix(" · notes 2025-06-10=\(JournalDocument.noteHash("day\n")) v2=\(JournalDocument.noteHash("two\n")) · \(document.footer!) -->\n"))
        let empty = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v1", text: ""), explanation: "x"))
        #expect(empty.writtenNotes == [:])
        // A footer from before: no notes recorded.
        let before = "<!-- notes v1 -->\n<!-- end notes v1 -->\n\n<!-- geotrip · x · 0123456789abcdef -->\n"
        #expect(JournalDocument(text: before).writtenNotes == nil && JournalDocument(text: before).footer == "0123456789abcdef")
        #expect(JournalDocument.noteHash("a\r\n") == JournalDocument.noteHash("a\n") && JournalDocument.noteHash("a \n") == JournalDocument.noteHash("a\n"))
        #expect(JournalDocument.noteHash("a\n") != JournalDocument.noteHash("b\n") && JournalDocument.noteHash("a\n") != JournalDocument.noteHash(""))
    }

    @Test("a day's photos without a position are listed with a geotrip tag command a shell reads as it is")
    func unplacedPhotos() throws {
        let renderer = try JournalRenderer(language: "en")
        let day = Trip.Day(date: "2025-06-10", visits: [Self.visit("v1", day: "2025-06-10")], unplacedPhotos: ["sub dir/it's.jpg", "b.jpg"])
        let context = JournalRenderer.Context(notes: ["v1": "note\n"], photos: PhotosByPath(), privacy: PrivacyZones(), thumbnails: [:],
                                              tripFolderLink: "../..", tagCommand: "geotrip tag '/trips/a b'")
        let page = try renderer.render(day, context)
        #expect(page.contains("- [it's.jpg](../../sub%20dir/it%27s.jpg)"))
        #expect(page.contains("```sh\ngeotrip tag '/trips/a b' 'sub dir/it'\\''s.jpg' 'b.jpg' --at LAT,LON\n```\n"))
        #expect(JournalDocument(text: page).isIntact)
        #expect(JournalDocument(text: page).notes == ["2025-06-10": "", "v1": "note\n"])
        // The footer the export remembers, read from the last line alone, is the one a full read finds.
        #expect(JournalDocument.renderedFooter(page) != nil)
        #expect(JournalDocument.renderedFooter(page) == JournalDocument(text: page).footer)
        #expect(JournalDocument.renderedFooter(page + "more\n") == nil)
        // The same values give the same bytes.
        #expect(try renderer.render(day, context) == page)
        // A name beginning with `-` is written as a path (`./`), never read as an option.
        var dashed = day
        dashed.unplacedPhotos = ["--catalog=evil.JPG", "-rf --at 0,0.JPG"]
        #expect(try renderer.render(dashed, context).contains("geotrip tag '/trips/a b' './--catalog=evil.JPG' './-rf --at 0,0.JPG' --at LAT,LON"))
    }
}

extension JournalTests {
    @Test("a shell word is read back by /bin/sh as the bytes it was made from, on one line: quotes, line breaks, bytes that are not UTF-8")
    func shellWords() throws {
        let names: [[UInt8]] = [
            Array("plain.jpg".utf8), Array("it's \"a\" $(x) `y` \\ %d %% -n.jpg".utf8), Array("-rf".utf8), Array("café 東京.jpg".utf8),
            Array("0\n<!-- notes v17 -->\nx.jpg".utf8), Array("tab\there\r.jpg".utf8), [0xE9, 0x74, 0xE9, 0x2E, 0x4A, 0x50, 0x47],
            Array("é".utf8) + [0x0A, 0xFF, 0x27, 0x5C, 0x30],
        ]
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let out = temp.url.appendingPathComponent("word")
        for name in names {
            let word = MarkdownText.shellQuoted(bytes: name)
            #expect(!word.contains("\n") && !word.contains("\r"), "\(word)")
            // The shell itself is the truth: it writes the word's bytes to a file, with a
            // marker after them.
            let run = try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s|' " + word + " > '\(out.path)'"])
            #expect(run.status == 0, "\(word): \(run.stderr)")
            #expect(Array(try Data(contentsOf: out)) == name + [UInt8(ascii: "|")], "\(word)")
            // A path in the home folder is written from `~/`, and the shell finds it there.
            let home = "/home/al'ice /x"
            let path = Array((home + "/Photos/").utf8) + name
            let short = MarkdownText.shellPath(bytes: path, home: home + "/")
            #expect(short.hasPrefix("~/") && !short.contains("al'ice") && !short.contains("al'\\''ice"), "\(short)")
            let expanded = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/env"), ["HOME=" + home, "/bin/sh", "-c", "printf '%s|' " + short + " > '\(out.path)'"])
            #expect(expanded.status == 0, "\(short): \(expanded.stderr)")
            #expect(Array(try Data(contentsOf: out)) == path + [UInt8(ascii: "|")], "\(short)")
        }
        // Outside it, or with no home, the path as it is.
        #expect(MarkdownText.shellPath(bytes: Array("/homework/a.jpg".utf8), home: "/home") == "'/homework/a.jpg'")
        #expect(MarkdownText.shellPath(bytes: Array("/a.jpg".utf8), home: "/") == "'/a.jpg'")
        #expect(MarkdownText.shellPath(bytes: Array("/a.jpg".utf8), home: nil) == "'/a.jpg'")
    }
}

extension JournalTests {
    @Test("the undated page's command edits whatever bears the sidecar's name, a link too, never writing where a link points")
    func existingSidecar() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let photo = Array(temp.url.appendingPathComponent("IMG_1.JPG").path.utf8)
        #expect(ExportStage.sidecarPath(of: photo) == Array(temp.url.appendingPathComponent("IMG_1.xmp").path.utf8))
        #expect(ExportStage.existingSidecar(of: photo) == nil)
        // A dangling link: exiftool's `-o` would create the file it points to.
        try FileManager.default.createSymbolicLink(atPath: temp.url.appendingPathComponent("IMG_1.XMP").path,
                                                   withDestinationPath: temp.url.appendingPathComponent("elsewhere/x.xmp").path)
        #expect(ExportStage.existingSidecar(of: photo) == Array(temp.url.appendingPathComponent("IMG_1.XMP").path.utf8))
    }

    @Test("a catalogued path's bytes on disk: each name not in UTF-8 from its exact %XX spelling, never a %2F or a UTF-8 name's %")
    func rawBytes() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.path
        let latin = [UInt8]([0xE9, 0x74, 0xE9])  // `été` in Latin-1
        func make(_ bytes: [UInt8], directory: Bool = false) {
            (Array(folder.utf8) + [UInt8(ascii: "/")] + bytes + [0]).withUnsafeBufferPointer { path in
                path.withMemoryRebound(to: CChar.self) { _ = directory ? mkdir($0.baseAddress!, 0o755) : creat($0.baseAddress!, 0o644) }
            }
        }
        make(latin, directory: true)
        make(latin + Array("/p%.JPG".utf8))
        make(Array("100%.jpg".utf8))
        #expect(FolderScanner.rawBytes(of: "%E9t%E9/p%.JPG", in: folder) == latin + Array("/p%.JPG".utf8))
        #expect(FolderScanner.rawBytes(of: "100%.jpg", in: folder) == nil)
        #expect(FolderScanner.rawBytes(of: "plain.jpg", in: folder) == nil)
        // Spellings the scanner never makes: a slash, a byte of UTF-8's, lower-case hex for a name
        // that is there in upper.
        #expect(FolderScanner.rawBytes(of: "a%2Fb", in: folder) == nil)
        #expect(FolderScanner.rawBytes(of: "%41", in: folder) == nil)
        #expect(FolderScanner.rawBytes(of: "%e9t%e9/p%.JPG", in: folder) == nil)
        // Every name that is there as written stays so.
        make(Array("%E9t%E9".utf8), directory: true)
        #expect(FolderScanner.rawBytes(of: "%E9t%E9/p%.JPG", in: folder) == nil)
    }
}

extension JournalTests {
    @Test("a photo's line in every form: thumbnail, no thumbnail, a video with its length, a Live Photo's moving part, names escaped, unplaced photos as list items")
    func photoLines() throws {
        let renderer = try JournalRenderer(language: "en")
        var visit = Self.visit("v1", day: "2025-06-10")
        visit.photos = ["Lisboa/IMG_1.jpg", "Lisboa/*star*.jpg", "Lisboa/clip.mov", "Lisboa/IMG_2.HEIC"]
        visit.photoCount = 4
        var still = TripPhoto(id: 1, path: "Lisboa/IMG_1.jpg")
        still.format = .jpeg
        var star = TripPhoto(id: 2, path: "Lisboa/*star*.jpg")
        star.format = .jpeg
        var clip = TripPhoto(id: 3, path: "Lisboa/clip.mov")
        clip.format = .video
        clip.durationSeconds = 14
        var live = TripPhoto(id: 4, path: "Lisboa/IMG_2.HEIC")
        live.format = .heif
        var moving = TripPhoto(id: 5, path: "Lisboa/IMG_2.MOV")
        moving.format = .video
        moving.liveStillID = 4
        let photos = [still, star, clip, live, moving, TripPhoto(id: 6, path: "nowhere [1].jpg")]
        let day = Trip.Day(date: "2025-06-10", visits: [visit], unplacedPhotos: ["nowhere [1].jpg"])
        let context = JournalRenderer.Context(
            notes: [:], photos: PhotosByPath(photos), livePhotoVideos: [4: "Lisboa/IMG_2.MOV"],
            privacy: PrivacyZones(), thumbnails: [1: "thumbs/1-aaaaaaaa.jpg", 4: "thumbs/4-bbbbbbbb.jpg", 6: "thumbs/6-cccccccc.jpg"],
            tripFolderLink: "../..", tagCommand: "geotrip tag '/t'")
        let page = try renderer.render(day, context)
        let expected = """
            [![IMG\\_1.jpg](../thumbs/1-aaaaaaaa.jpg)](../../Lisboa/IMG_1.jpg)
            [\\*star\\*.jpg](../../Lisboa/%2Astar%2A.jpg)
            [clip.mov](../../Lisboa/clip.mov) (video, 0:14)
            [![IMG\\_2.HEIC](../thumbs/4-bbbbbbbb.jpg)](../../Lisboa/IMG_2.HEIC) · [Live Photo](../../Lisboa/IMG_2.MOV)

            """
        #expect(page.contains("\n\n" + expected + "\n<!-- notes v1 -->\n"), "\(page)")
        // Unplaced photos: list items, never with a thumbnail, then the hint.
        #expect(page.contains("\n\n- [nowhere \\[1\\].jpg](../../nowhere%20%5B1%5D.jpg)\n\n" + renderer.words.unplacedHint + "\n"), "\(page)")
    }
}

extension JournalTests {
    /// A day with a visit of every kind of photo and an unplaced photo, as `photoLines` has it.
    static func richDay() -> (Trip.Day, JournalRenderer.Context) {
        var visit = Self.visit("v1", day: "2025-06-10")
        visit.photos = ["Lisboa/IMG_1.jpg", "Lisboa/clip.mov", "Lisboa/IMG_2.HEIC"]
        visit.photoCount = 3
        var still = TripPhoto(id: 1, path: "Lisboa/IMG_1.jpg")
        still.format = .jpeg
        still.coordinate = Coordinate(latitude: 38.7, longitude: -9.1)
        var clip = TripPhoto(id: 3, path: "Lisboa/clip.mov")
        clip.format = .video
        clip.durationSeconds = 14
        var live = TripPhoto(id: 4, path: "Lisboa/IMG_2.HEIC")
        live.format = .heif
        let photos = [still, clip, live, TripPhoto(id: 6, path: "nowhere.jpg")]
        let day = Trip.Day(date: "2025-06-10", visits: [visit], unplacedPhotos: ["nowhere.jpg"])
        let context = JournalRenderer.Context(
            notes: ["v1": "tea\n"], photos: PhotosByPath(photos), livePhotoVideos: [4: "Lisboa/IMG_2.MOV"],
            privacy: PrivacyZones(), thumbnails: [1: "thumbs/1-aaaaaaaa.jpg", 4: "thumbs/4-bbbbbbbb.jpg"],
            tripFolderLink: "../..", tagCommand: "geotrip tag '/t'")
        return (day, context)
    }

    @Test("a day page's front matter counts what its visits count: a photo taken inside a privacy zone is in neither")
    func frontMatterCountsWhatIsShown() throws {
        let renderer = try JournalRenderer(language: "en")
        var (day, context) = Self.richDay()
        // Three in the visit and one without a position: four.
        #expect(try renderer.render(day, context).contains("\nphotos: 4\n"))
        // IMG_1.jpg taken inside a zone: the visit says "1 photo, 1 video", and the front matter 3.
        context.privacy = PrivacyZones([PrivacyZones.Zone(centre: Coordinate(latitude: 38.7, longitude: -9.1), radiusMeters: 100)])
        day.visits[0].latitude = 38.8
        let page = try renderer.render(day, context)
        #expect(page.contains("1 photo, 1 video") && page.contains("\nphotos: 3\n"), "\(page)")
    }

    @Test("a visit at a zone's edge is shared without the photo taken inside: its times, centre and count, on its page and its map")
    func timesOfWhatIsShown() throws {
        let renderer = try JournalRenderer(language: "en")
        var (day, context) = Self.richDay()
        // The visit from 10:05 to 10:55 UTC (11:05–11:55 WEST); IMG_1.jpg, its last photo, at the
        // door inside a zone, the other two 11 km north.
        let door = Coordinate(latitude: 38.7, longitude: -9.1), street = Coordinate(latitude: 38.8, longitude: -9.1)
        let shots = [("Lisboa/IMG_1.jpg", "10:55", door), ("Lisboa/clip.mov", "10:05", street), ("Lisboa/IMG_2.HEIC", "10:20", street)]
        for (path, time, spot) in shots {
            context.photos[path]?.utcTime = "2025-06-10T\(time):00Z"
            context.photos[path]?.coordinate = spot
        }
        day.visits[0].arrival = "2025-06-10T10:05:00Z"
        day.visits[0].departure = "2025-06-10T10:55:00Z"
        (day.visits[0].latitude, day.visits[0].longitude) = (38.7667, -9.1)
        day.visits[0].setLocalTimes()
        #expect(try renderer.render(day, context).contains("11:05–11:55 WEST"))
        context.privacy = PrivacyZones([PrivacyZones.Zone(centre: door, radiusMeters: 100)])
        let members = shots.map { VisitMember(utcTime: "2025-06-10T\($0.1):00Z", coordinate: $0.2, uncertaintyMeters: 10, stray: false) }
        day.visits[0] = day.visits[0].shared(by: members, privacy: context.privacy)
        #expect(day.visits[0].centre == street && day.visits[0].hiddenPhotos == 1)
        let page = try renderer.render(day, context)
        #expect(page.contains("11:05–11:20 WEST") && !page.contains("11:55") && page.contains("38.80000, -9.10000"), "\(page)")
        // The map's visit says the same.
        let trip = Trip(visits: day.visits, outside: [], days: [day.date])
        let photos = shots.compactMap { context.photos[$0.0] }
        let map = TripMapInput.from(trip: trip, route: TripRoute(visits: trip.visits, track: []), notes: [:], photos: photos, thumbnails: [:],
                                    tripFolderLink: "..", privacy: context.privacy, language: "en", tiles: nil)
        let visit = try #require(map.visits.first)
        #expect(TripMapPage.timeSpan(visit) == "11:05–11:20 WEST", "\(String(describing: TripMapPage.timeSpan(visit)))")
        #expect(visit.latitude == 38.8 && visit.photoCount == 2 && visit.media.count == 2)
    }

    @Test("a dated backup's name tells when geotrip made it, by the name OutputFolder gives it")
    func backupNames() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = OutputFolder(folder: temp.url.path, outputFolder: temp.url.path)
        let made = try #require(UTCTimestamp.date("2025-07-01T09:30:00Z"))
        #expect(ExportStage.backupMade(folder.unusedName("2025-06-12.edited-", at: made, extension: "md")) == made)
        #expect(ExportStage.backupMade("2025-06-12.edited-20250701-093000-2.md") == made)
        #expect(ExportStage.backupMade("unplaced-notes.edited-20250701-093000.md") == made)
        for name in ["2025-06-12.md", "2025-06-12.edited-2025070-093000.md", "2025-06-12.edited-20250701x093000.md", "notes.edited-20250701-093000.txt"] {
            #expect(ExportStage.backupMade(name) == nil, "\(name)")
        }
    }

    @Test("a visit's shared centre weighs its photos outside the zones as clustering does, strays aside; nothing hidden, nothing changes")
    func sharedCentre() {
        var visit = Self.visit("v1", day: "2025-06-10")
        // Its centre 100 m north of a zone's, outside it.
        (visit.latitude, visit.longitude, visit.photoCount) = (45.0 + 100 / 111_195, 5.0, 4)
        let zone = PrivacyZones([PrivacyZones.Zone(centre: Coordinate(latitude: 45.0, longitude: 5.0), radiusMeters: 50)])
        func member(_ minute: Int, _ north: Double, uncertainty: Double = 10, stray: Bool = false) -> VisitMember {
            VisitMember(utcTime: String(format: "2025-06-10T10:%02d:00Z", minute), coordinate: Coordinate(latitude: 45.0 + north / 111_195, longitude: 5.0),
                        uncertaintyMeters: uncertainty, stray: stray)
        }
        // Outside the zone: 100 m north (±10 m), 200 m north (±20 m: a quarter of the weight), and a stray 3 km north.
        let outside = [member(10, 100), member(20, 200, uncertainty: 20), member(15, 3000, stray: true)]
        #expect(visit.shared(by: outside, privacy: zone) == visit)
        let shared = visit.shared(by: [member(0, 0)] + outside, privacy: zone)
        // (100 × 1 + 200 × 0.25) / 1.25 = 120 m north.
        #expect(abs(GreatCircle.distance(shared.centre, Coordinate(latitude: 45.0 + 120 / 111_195, longitude: 5.0))) < 0.05, "\(shared.centre)")
        #expect(shared.arrival == "2025-06-10T10:10:00Z" && shared.departure == "2025-06-10T10:20:00Z" && shared.hiddenPhotos == 1)
        // A photo placed between its neighbours a few minutes after the hidden one lies on the
        // line from it: it weighs nothing (as the GeoJSON gives it no point), an hour later it does.
        var placed = member(12, 60, uncertainty: 10)
        placed.interpolated = true
        #expect(visit.shared(by: [member(0, 0)] + outside + [placed], privacy: zone).centre == shared.centre)
        placed.utcTime = "2025-06-10T11:12:00Z"
        #expect(visit.shared(by: [member(0, 0)] + outside + [placed], privacy: zone).centre != shared.centre)
        // Every photo inside a zone, the centre between two of them: the visit is private, as
        // one whose centre lies inside; its videos are counted apart.
        let two = PrivacyZones(zone.zones + [PrivacyZones.Zone(centre: Coordinate(latitude: 45.0 + 200 / 111_195, longitude: 5.0), radiusMeters: 50)])
        var clip = member(5, 200)
        clip.isVideo = true
        let between = visit.shared(by: [member(0, 0), clip], privacy: two)
        #expect(two.contains(between.centre) && between.hiddenPhotos == 2 && between.hiddenVideos == 1, "\(between)")
        #expect(Trip(visits: [between], outside: [], days: []).sharedMedia(leavingOut: two).count == 0)
        // Nothing outside but a stray, or a photo placed from the hidden one: private too.
        for alone in [member(5, 3000, stray: true), placed] {
            var placedNow = alone
            placedNow.utcTime = "2025-06-10T10:05:00Z"
            #expect(zone.contains(visit.shared(by: [member(0, 0), placedNow], privacy: zone).centre))
        }
        // A visit centred inside a zone is hidden whole: a stray of it inside changes nothing.
        var centred = visit
        (centred.latitude, centred.longitude) = (45.0 + 20 / 111_195, 5.0)
        #expect(centred.shared(by: [member(0, 0, stray: true), member(10, 100)], privacy: zone) == centred)
    }

    @Test("a day's input key changes with every value its page shows, and stays the same for the same values")
    func inputKeyFollowsThePage() throws {
        let english = try JournalRenderer(language: "en")
        let (day, context) = Self.richDay()
        let page = try english.render(day, context)
        let key = english.inputKey(day, context)
        #expect(english.inputKey(Self.richDay().0, Self.richDay().1) == key)
        #expect(try english.page(day, context).fingerprint == key)

        typealias Change = (inout Trip.Day, inout JournalRenderer.Context) -> Void
        let changes: [(String, Change)] = [
            ("the day's notes", { _, c in c.notes["2025-06-10"] = "a day\n" }),
            ("a visit's notes", { _, c in c.notes["v1"] = "coffee\n" }),
            ("a name", { d, _ in d.visits[0].name = "Belém" }),
            ("a region", { d, _ in d.visits[0].admin1 = "Lisboa District" }),
            ("a country", { d, _ in d.visits[0].countryCode = "ES" }),
            ("a position", { d, _ in d.visits[0].latitude = 38.71 }),
            ("a time", { d, _ in d.visits[0].localArrival = "2025-06-10T10:30:00"; d.visits[0].localDeparture = "2025-06-10T11:00:00" }),
            ("a photo count", { d, _ in d.visits[0].photoCount = 4 }),
            ("a photo gone", { d, _ in d.visits[0].photos.removeLast() }),
            ("a format", { _, c in c.photos["Lisboa/IMG_1.jpg"]?.format = .video }),
            ("a video's length", { _, c in c.photos["Lisboa/clip.mov"]?.durationSeconds = 15 }),
            ("a thumbnail", { _, c in c.thumbnails[1] = "thumbs/1-cccccccc.jpg" }),
            ("a thumbnail gone", { _, c in c.thumbnails[4] = nil }),
            ("a Live Photo's video", { _, c in c.livePhotoVideos[4] = "Lisboa/IMG_2B.MOV" }),
            ("a photo inside a zone", { _, c in
                c.photos["Lisboa/IMG_1.jpg"]?.coordinate = Coordinate(latitude: 10, longitude: 10)
                c.privacy = PrivacyZones([PrivacyZones.Zone(centre: Coordinate(latitude: 10, longitude: 10), radiusMeters: 100)])
            }),
            ("the visit inside a zone", { _, c in
                c.privacy = PrivacyZones([PrivacyZones.Zone(centre: Coordinate(latitude: 38.7, longitude: -9.1), radiusMeters: 100)])
            }),
            ("the link to the trip", { _, c in c.tripFolderLink = "../../.." }),
            ("the tag command", { _, c in c.tagCommand = "geotrip tag '/u'" }),
            ("an unplaced photo more", { d, c in d.unplacedPhotos.append("b.jpg"); c.photos["b.jpg"] = TripPhoto(id: 7, path: "b.jpg") }),
        ]
        for (what, change) in changes {
            var changedDay = day, changedContext = context
            change(&changedDay, &changedContext)
            let changedPage = try english.render(changedDay, changedContext)
            #expect(changedPage != page, "changing \(what) does not change the page: the case tests nothing")
            #expect(english.inputKey(changedDay, changedContext) != key, "changing \(what) changes the page but not its key")
        }
        // Another language, and another locale with the same (English) words: dates and
        // country names differ.
        for language in ["ko", "fr", "en-GB"] {
            let other = try JournalRenderer(language: language)
            #expect(try other.render(day, context) != page, "\(language) renders as en: the case tests nothing")
            #expect(other.inputKey(day, context) != key, "\(language) changes the page but not its key")
        }
    }
}

@Suite("Journal notes under ids a catalog made again gives other visits")
struct RehomedNotesTests {
    /// A catalog's photos of visits, from a table of photo paths by visit (ids by position).
    static func photos(_ table: [String: [String]]) -> VisitPhotos {
        var ids: [String: Int64] = [:]
        for (index, path) in table.values.flatMap({ $0 }).sorted().enumerated() { ids[path] = Int64(index + 1) }
        return VisitPhotos(ofEachVisit: { visits in
            Dictionary(uniqueKeysWithValues: visits.compactMap { visit in table[visit].map { (visit, $0.map { (ids[$0]!, $0) }) } })
        }, everyPhoto: {
            Dictionary(uniqueKeysWithValues: table.flatMap { visit, paths in paths.map { ($0, visit) } })
        }, visitOfPhotos: { wanted in
            Dictionary(uniqueKeysWithValues: table.flatMap { visit, paths in paths.map { (ids[$0]!, visit) } }.filter { wanted.contains($0.0) })
        })
    }

    static func day(_ id: String, _ day: String = "2025-06-10", name: String = "Lisbon") -> TripVisit { JournalTests.visit(id, day: day, name: name) }

    /// A day's page: for each visit, its heading, its photo lines and its block.
    static func page(_ sections: [(id: String, links: [String], text: String)]) -> JournalDocument {
        let body = sections.map { section in
            "## \(section.id)\n\n" + section.links.map { "[![p](../thumbs/p.jpg)](../../\($0))\n" }.joined() + "\n" + JournalDocument.block(id: section.id, text: section.text)
        }.joined()
        return JournalDocument(bytes: Array(JournalDocument.withFooter(body, explanation: "x").utf8), links: true)
    }

    @Test("a note the catalog does not know goes with the visit holding the photos above it: by path, on any day; by a file name no other photo has")
    func rehoming() throws {
        let trip = Trip(visits: [Self.day("v1"), Self.day("v3", name: "Sintra"), Self.day("v9", "2025-06-11")], outside: [], days: [])
        // The folders were renamed (a → b), so only the names find the photos; v9 holds a
        // photo by its path, on the next day.
        let photos = Self.photos(["v1": ["b/1.jpg", "b/2.jpg"], "v3": ["b/3.jpg"], "v9": ["c/9.jpg"]])
        let page = Self.page([("v3", ["a/1.jpg", "a/2.jpg"], "Lisbon note\n"), ("v1", ["a/3.jpg"], "Sintra note\n"), ("v7", ["c/9.jpg"], "Moved on\n")])
        #expect(page.blocks.map(\.photoLinks) == [["../../a/1.jpg", "../../a/2.jpg"], ["../../a/3.jpg"], ["../../c/9.jpg"]])
        // JournalDocument reads links only when asked.
        let plain = JournalDocument(text: JournalDocument.withFooter("[a](../../a/1.jpg)\n" + JournalDocument.block(id: "v1", text: "x\n"), explanation: "x"))
        #expect(plain.blocks.map(\.photoLinks) == [[]])
        let notes = JournalNotes(trip: trip, days: ["2025-06-10": [page]], unplaced: [], stored: [:], photos: photos)
        #expect(notes.texts == ["v1": "Lisbon note\n", "v3": "Sintra note\n", "v9": "Moved on\n"])
        #expect(notes.rehomed == [RehomedNote(written: "v1", visit: "v3", day: "2025-06-10"), RehomedNote(written: "v3", visit: "v1", day: "2025-06-10"),
                                  RehomedNote(written: "v7", visit: "v9", day: "2025-06-10")])
        // Known to the catalog: its ids are the catalog's own, and stand, wherever the photos are.
        let stored = ["v3": JournalNote(ownerID: "v3", text: "Lisbon note\n"), "v1": JournalNote(ownerID: "v1", text: "Sintra note\n")]
        let known = JournalNotes(trip: trip, days: ["2025-06-10": [Self.page([("v3", ["a/1.jpg"], "Lisbon note\n"), ("v1", ["a/3.jpg"], "Sintra note\n")])]],
                                 unplaced: [], stored: stored, photos: photos)
        #expect(known.rehomed.isEmpty && known.texts["v3"] == "Lisbon note\n")
        // A block whose visit holds its photos by path stays, whatever others hold.
        let own = Self.page([("v1", ["b/1.jpg", "b/3.jpg"], "Mine\n")])
        #expect(JournalNotes(trip: trip, days: ["2025-06-10": [own]], unplaced: [], stored: [:], photos: photos).rehomed.isEmpty)
    }

    @Test("a rehomed note never takes an id with words elsewhere, drops the empty block it lands on, and waits apart when no visit holds its photos")
    func rehomingCollisions() throws {
        let trip = Trip(visits: [Self.day("v1"), Self.day("v3"), Self.day("v5")], outside: [], days: [])
        let photos = Self.photos(["v1": ["a/1.jpg"], "v3": ["a/3.jpg"], "v5": ["a/5.jpg"]])
        // v5's photos are under v1's block, v1's page block for v5 is empty (a rebuilt catalog
        // shifted the ids): the note lands on v5, the empty block is no rival.
        let shifted = Self.page([("v1", ["a/5.jpg"], "Five\n"), ("v5", ["a/9.jpg"], "")])
        let one = JournalNotes(trip: trip, days: ["2025-06-10": [shifted]], unplaced: [], stored: [:], photos: photos)
        #expect(one.texts["v5"] == "Five\n" && one.gone.isEmpty)
        // v3's photos are under v1's block, but v3 has a note in the catalog: not taken; the
        // note waits apart, and so does one whose photos no visit holds.
        let taken = Self.page([("v1", ["a/3.jpg"], "Three?\n"), ("v5", ["a/gone.jpg"], "Gone\n")])
        let stored = ["v3": JournalNote(ownerID: "v3", text: "Three\n", placeName: "Lisbon", localDate: "2025-06-10")]
        let two = JournalNotes(trip: trip, days: ["2025-06-10": [taken]], unplaced: [], stored: stored, photos: photos)
        #expect(two.texts["v3"] == "Three\n" && two.texts["v1"] == nil && two.texts["v5"] == nil)
        #expect(Set(two.gone.map(\.ownerID)) == ["v1@2025-06-10", "v5@2025-06-10"])
        #expect(two.rehomed.map(\.visit) == [nil, nil])
        // A path alone does not stand for a file name: `x/5.jpg` is not the top-level `5.jpg`.
        #expect(JournalNotes.visit(of: "../../x/5.jpg", in: ["5.jpg": "v5"]) == nil)
        #expect(JournalNotes.visit(of: "../../5.jpg", in: ["5.jpg": "v5"]) == "v5")
        #expect(JournalNotes.visit(of: "../../../photos/trip/a/5.jpg", in: ["a/5.jpg": "v5"]) == "v5")
    }

    @Test("a day's note follows the photos of its day to another day (a clock put right by a day); the note already there keeps its day")
    func dayNotesFollowTheirPhotos() throws {
        func page(_ day: String, _ text: String) -> JournalDocument {
            JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: day, text: text), explanation: "x"))
        }
        // Photo ids by path order: a/1 is 1, a/2 is 2, b/3 is 3, c/4 is 4.
        let before = Trip(visits: [Self.day("v1", "2025-06-10"), Self.day("v2", "2025-06-11")], outside: [], days: [])
        let first = JournalNotes(trip: before, days: ["2025-06-10": [page("2025-06-10", "Arrived.\n")], "2025-06-11": [page("2025-06-11", "Fog.\n")]],
                                 unplaced: [], stored: [:], photos: Self.photos(["v1": ["a/1.jpg", "a/2.jpg"], "v2": ["b/3.jpg"]]))
        #expect(first.all["2025-06-10"]?.members == [1, 2] && first.all["2025-06-11"]?.members == [3], "a day's note remembers its day's photos")
        #expect(first.moved.isEmpty)
        // Every clock a day late: each day's photos are the next day's, and so are the notes.
        let later = Trip(visits: [Self.day("v1", "2025-06-11"), Self.day("v2", "2025-06-12")], outside: [], days: [])
        let moved = JournalNotes(trip: later, days: ["2025-06-11": [page("2025-06-11", "Fog.\n")]], unplaced: [], stored: first.all,
                                 photos: Self.photos(["v1": ["a/1.jpg", "a/2.jpg"], "v2": ["b/3.jpg"]]))
        #expect(moved.texts["2025-06-11"] == "Arrived.\n" && moved.texts["2025-06-12"] == "Fog.\n" && moved.texts["2025-06-10"] == "")
        #expect(moved.gone.isEmpty && moved.rehomed.isEmpty)
        #expect(moved.all["2025-06-11"]?.localDate == "2025-06-11" && moved.all["2025-06-12"]?.members == [3])
        #expect(moved.moved == [MovedNote(visit: "2025-06-10", from: "2025-06-10", to: "2025-06-11"),
                                MovedNote(visit: "2025-06-11", from: "2025-06-11", to: "2025-06-12")])
        #expect(moved.setApart == ["2025-06-10": "2025-06-11", "2025-06-11": "2025-06-12"], "the old blocks' words are kept elsewhere, not edits to back up")
        // Settled: the next run moves nothing.
        let settled = JournalNotes(trip: later, days: [:], unplaced: [], stored: moved.all,
                                   photos: Self.photos(["v1": ["a/1.jpg", "a/2.jpg"], "v2": ["b/3.jpg"]]))
        #expect(settled.moved.isEmpty && settled.texts["2025-06-11"] == "Arrived.\n" && settled.texts["2025-06-12"] == "Fog.\n")
        // One camera's photos of the 10th moved to the 11th, whose own photos stayed: the 11th
        // keeps its note, the 10th's stays on its day (which another photo keeps).
        let oneCamera = Trip(visits: [Self.day("v4", "2025-06-10"), Self.day("v1", "2025-06-11"), Self.day("v2", "2025-06-11")], outside: [], days: [])
        let kept = JournalNotes(trip: oneCamera, days: [:], unplaced: [], stored: first.all,
                                photos: Self.photos(["v4": ["c/4.jpg"], "v1": ["a/1.jpg", "a/2.jpg"], "v2": ["b/3.jpg"]]))
        #expect(kept.texts["2025-06-10"] == "Arrived.\n" && kept.texts["2025-06-11"] == "Fog.\n" && kept.moved.isEmpty && kept.gone.isEmpty)
        // The 10th gone as well: its note has no day of its own to stay on, and waits.
        let crowded = Trip(visits: [Self.day("v1", "2025-06-11"), Self.day("v2", "2025-06-11")], outside: [], days: [])
        let waits = JournalNotes(trip: crowded, days: [:], unplaced: [], stored: first.all,
                                 photos: Self.photos(["v1": ["a/1.jpg", "a/2.jpg"], "v2": ["b/3.jpg"]]))
        #expect(waits.texts["2025-06-11"] == "Fog.\n" && waits.gone.map(\.text) == ["Arrived.\n"])
        // Under half of its photos on another day: it stays.
        let half = Trip(visits: [Self.day("v1", "2025-06-10"), Self.day("v5", "2025-06-12")], outside: [], days: [])
        var few = first.all.filter { $0.key == "2025-06-10" }
        few["2025-06-10"]?.members = [1, 2, 3]
        let stays = JournalNotes(trip: half, days: [:], unplaced: [], stored: few,
                                 photos: Self.photos(["v1": ["a/2.jpg", "b/3.jpg"], "v5": ["a/1.jpg"]]))
        #expect(stays.texts["2025-06-10"] == "Arrived.\n" && stays.moved.isEmpty)
        // Half of them on the day before (one camera put back a day), half still on its own: it
        // stays, whichever way the clock went.
        for other in ["2025-06-09", "2025-06-11"] {
            let split = Trip(visits: [Self.day("v1", "2025-06-10"), Self.day("v6", other)], outside: [], days: [])
            let halves = JournalNotes(trip: split, days: [:], unplaced: [], stored: first.all.filter { $0.key == "2025-06-10" },
                                      photos: Self.photos(["v1": ["a/2.jpg"], "v6": ["a/1.jpg"]]))
            #expect(halves.texts["2025-06-10"] == "Arrived.\n" && halves.moved.isEmpty, "\(other)")
        }
    }

    @Test("a note waiting on the page of gone notes goes back only to a visit holding photos it was shown with; else it waits apart, its id free")
    func waitingNotes() throws {
        let trip = Trip(visits: [Self.day("v3", name: "Lisbon")], outside: [], days: [])
        let unplaced = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v3", text: "Jerónimos\n"), explanation: "x"))
        // It was shown with photos 1 and 2; v3 holds others now (its first photo tagged elsewhere).
        let photos = Self.photos(["v3": ["z/9.jpg"]])
        var waiting = JournalNote(ownerID: "v3", text: "Jerónimos\n", placeName: "Lisbon", localDate: "2025-06-10", members: [7, 8])
        let elsewhere = JournalNotes(trip: trip, days: [:], unplaced: [unplaced], stored: ["v3": waiting], photos: photos)
        #expect(elsewhere.gone.map(\.ownerID) == ["v3@2025-06-10"] && elsewhere.texts["v3"] == "" && elsewhere.moved.isEmpty)
        #expect(elsewhere.setApart == ["v3": "v3@2025-06-10"] && elsewhere.all["v3@2025-06-10"]?.placeName == "Lisbon")
        // Its own visit back (it holds photo 1, z/9.jpg, again): the note goes back, and
        // remembers its photos.
        waiting.members = [1, 7]
        let home = JournalNotes(trip: trip, days: [:], unplaced: [unplaced], stored: ["v3": waiting], photos: photos)
        #expect(home.gone.isEmpty && home.texts["v3"] == "Jerónimos\n" && home.all["v3"]?.members == [1, 7], "the photos it was written beside, kept")
        #expect(home.moved == [MovedNote(visit: "v3", from: nil, to: "2025-06-10")])
        // Its photos are now most of another visit's, which has no note: the note goes there
        // (ids by path order: a/1 is 1, a/2 is 2, z/9 is 3).
        let split = Trip(visits: [Self.day("v3"), Self.day("v5", "2025-06-11")], outside: [], days: [])
        let regrouped = Self.photos(["v3": ["z/9.jpg"], "v5": ["a/1.jpg", "a/2.jpg"]])
        waiting.members = [1, 2, 3]
        let across = JournalNotes(trip: split, days: [:], unplaced: [unplaced], stored: ["v3": waiting], photos: regrouped)
        #expect(across.texts["v5"] == "Jerónimos\n" && across.texts["v3"] == "" && across.gone.isEmpty)
        #expect(across.all["v5"]?.localDate == "2025-06-11" && across.rehomed == [RehomedNote(written: "v3", visit: "v5", day: "2025-06-10")])
        // A visit holding under half of them does not take it.
        waiting.members = [1, 3, 4, 5, 6]
        #expect(JournalNotes(trip: split, days: [:], unplaced: [unplaced], stored: ["v3": waiting], photos: regrouped).gone.map(\.ownerID) == ["v3@2025-06-10"])
        // A catalog made again knows none of it: it waits apart.
        let unknown = JournalNotes(trip: trip, days: [:], unplaced: [unplaced], stored: [:], photos: photos)
        #expect(unknown.gone.map(\.ownerID) == ["v3@waiting"] && unknown.texts["v3"] == nil)
        // Set apart, it stays apart on the next run (its id is never a visit's).
        let apart = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v3@2025-06-10", text: "Jerónimos\n"), explanation: "x"))
        let next = JournalNotes(trip: trip, days: [:], unplaced: [apart], stored: elsewhere.all, photos: photos)
        #expect(next.gone.map(\.ownerID) == ["v3@2025-06-10"] && next.texts["v3"] == "")
        #expect(JournalWords(language: "en").goneVisit(id: JournalNote.writtenUnder("v3@2025-06-10"), place: "Lisbon", date: "2025-06-10")
                == "Visit v3: Lisbon, 2025-06-10")
    }

    @Test("after visits merged and split again, each note goes with the photos it was written beside, whichever id they have now")
    func notesFollowTheirPhotos() throws {
        // v4 was IMG 1-3 and v7 IMG 4-6; merged under v4, v7's note waited. Split again, v4 is
        // the part with 4-7 and v4-2 the part with 1-3.
        let trip = Trip(visits: [Self.day("v4"), Self.day("v4-2")], outside: [], days: [])
        let photos = Self.photos(["v4-2": ["a/1.jpg", "a/2.jpg", "a/3.jpg"], "v4": ["a/4.jpg", "a/5.jpg", "a/6.jpg", "a/7.jpg"]])
        let stored = ["v4": JournalNote(ownerID: "v4", text: "Breakfast\n", placeName: "Lisbon", localDate: "2025-06-10", members: [1, 2, 3]),
                      "v7": JournalNote(ownerID: "v7", text: "Belém\n", placeName: "Lisbon", localDate: "2025-06-10", members: [4, 5, 6])]
        let page = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v4", text: "Breakfast\n")
            + JournalDocument.block(id: "v4-2", text: ""), explanation: "x"))
        let unplaced = JournalDocument(text: JournalDocument.withFooter(JournalDocument.block(id: "v7", text: "Belém\n"), explanation: "x"))
        let notes = JournalNotes(trip: trip, days: ["2025-06-10": [page]], unplaced: [unplaced], stored: stored, photos: photos)
        #expect(notes.texts["v4-2"] == "Breakfast\n" && notes.texts["v4"] == "Belém\n" && notes.texts["v7"] == "")
        #expect(notes.gone.isEmpty)
        #expect(Set(notes.rehomed.map { "\($0.written)>\($0.visit ?? "-")" }) == ["v4>v4-2", "v7>v4"])
        // They keep the photos they were written beside, and stay on the next run.
        #expect(notes.all["v4-2"]?.members == [1, 2, 3] && notes.all["v4"]?.members == [4, 5, 6])
        let again = JournalNotes(trip: trip, days: [:], unplaced: [], stored: notes.all, photos: photos)
        #expect(again.rehomed.isEmpty && again.texts["v4-2"] == "Breakfast\n" && again.texts["v4"] == "Belém\n")

        // While merged (all seven photos in v4), the note already there keeps it, and the other
        // waits; a note written in during that run remembers the photos its page showed.
        let merged = Trip(visits: [Self.day("v4")], outside: [], days: [])
        let one = Self.photos(["v4": ["a/1.jpg", "a/2.jpg", "a/3.jpg", "a/4.jpg", "a/5.jpg", "a/6.jpg", "a/7.jpg"]])
        // The person's edit: the page as geotrip wrote it, with a line added in the block.
        let written = Self.page([("v4", ["a/1.jpg", "a/2.jpg", "a/3.jpg"], "Breakfast\n")])
        let text = String(decoding: Array(JournalDocument.withFooter("## v4\n\n" + ["a/1.jpg", "a/2.jpg", "a/3.jpg"].map { "[![p](../thumbs/p.jpg)](../../\($0))\n" }.joined()
            + "\n" + JournalDocument.block(id: "v4", text: "Breakfast\n"), explanation: "x").utf8), as: UTF8.self)
            .replacingOccurrences(of: "Breakfast\n<!-- end", with: "Breakfast\nAnd coffee.\n<!-- end")
        let edited = JournalDocument(bytes: Array(text.utf8), links: true)
        #expect(written.blocks.first?.photoLinks == edited.blocks.first?.photoLinks)
        let during = JournalNotes(trip: merged, days: ["2025-06-10": [edited]], unplaced: [unplaced], stored: stored, photos: one)
        #expect(during.texts["v4"] == "Breakfast\nAnd coffee.\n" && during.gone.map(\.ownerID) == ["v7"])
        #expect(during.all["v4"]?.members == [1, 2, 3])
    }

    @Test("a photo line's link target, decoded")
    func photoLinks() {
        #expect(JournalDocument.photoLink(ArraySlice("[![IMG\\_0015.JPG](../thumbs/21-4301c6b4.jpg)](../../2025-06-11%20Sintra/IMG_0015.JPG)".utf8))
                == "../../2025-06-11 Sintra/IMG_0015.JPG")
        #expect(JournalDocument.photoLink(ArraySlice("[IMG\\_0015.JPG](../../S%C3%A3o/IMG_0015.JPG) (video, 0:12)".utf8)) == "../../São/IMG_0015.JPG")
        #expect(JournalDocument.photoLink(ArraySlice("[![a](t.jpg)](x/a.jpg) · [Live Photo](x/a.mov)".utf8)) == "x/a.jpg")
        #expect(JournalDocument.photoLink(ArraySlice("[not a photo]".utf8)) == nil)
    }
}
