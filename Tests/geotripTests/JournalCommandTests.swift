import Foundation
import GeoTripTestSupport
import Testing
import Yams

/// The export stage and `geotrip export` on a copy of the sample trip: the journal's notes
/// across reruns, backups, the output folder's rules, GeoJSON read by GDAL, privacy (issue 12).
@Suite("journal and GeoJSON", .serialized)
struct JournalCommandTests {
    /// A note with Korean, marker-looking lines and a CRLF line, which must survive byte for byte
    /// (`kept`) but for the CRLF's `\r`, an editor's line ending that is no part of the note.
    static let note = "오늘은 벨렝 탑. Café: \"Le Dôme\"\n<!-- end notes v1 -->\n<!-- notes v2 -->\n  spaces kept  \nCRLF line\r\n"
    static let kept = "오늘은 벨렝 탑. Café: \"Le Dôme\"\n<!-- end notes v1 -->\n<!-- notes v2 -->\n  spaces kept  \nCRLF line\n"
    static let dayNote = "A long day.\n\n<!-- geotrip · fake footer · 0000000000000000 -->\n"

    struct Trip {
        let temp: TemporaryFolder
        let folder: URL
        var out: URL { folder.appendingPathComponent("geotrip") }
        var journal: URL { out.appendingPathComponent("journal") }

        init() throws {
            temp = try TemporaryFolder()
            folder = try temp.copySampleImages()
        }

        @discardableResult
        func run(_ arguments: [String], expecting status: Int32 = 0) throws -> CommandRun {
            let run = try CommandRun.geotrip(arguments.map { $0 == "DIR" ? folder.path : $0 })
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            return run
        }

        func visits() throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: Data(run(["places", "DIR", "--json"]).stdout.utf8)) as? [[String: Any]])
        }

        func text(_ name: String) throws -> String { try String(contentsOf: journal.appendingPathComponent(name), encoding: .utf8) }

        /// Writes `note` into the block of `id` in the day file `day`.
        func write(note: String, for id: String, in day: String) throws {
            let url = journal.appendingPathComponent(day + ".md")
            var text = try String(contentsOf: url, encoding: .utf8)
            let start = "<!-- notes \(id) -->\n"
            let range = try #require(text.range(of: start))
            text.insert(contentsOf: note, at: range.upperBound)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        /// The text between the markers of `id` in `text` (either marker may carry a tag, `#2`),
        /// found by plain string search: independent of geotrip's own parser.
        static func note(_ id: String, in text: String) -> String? {
            for tag in ["", " #2", " #3", " #4"] {
                guard let start = text.range(of: "<!-- notes \(id)\(tag) -->\n") else { continue }
                var from = start.upperBound
                while let end = text.range(of: "<!-- end notes \(id)\(tag) -->\n", range: from..<text.endIndex) {
                    // The end marker counts only at a line's start.
                    if end.lowerBound == start.upperBound || text[..<end.lowerBound].utf8.last == UInt8(ascii: "\n") {
                        return String(text[start.upperBound..<end.lowerBound])
                    }
                    from = end.upperBound
                }
            }
            return nil
        }

        /// Modification times of every file in the output folder.
        func times() throws -> [String: Date] {
            var times: [String: Date] = [:]
            let enumerator = FileManager.default.enumerator(at: out, includingPropertiesForKeys: [.contentModificationDateKey])
            while let url = enumerator?.nextObject() as? URL {
                times[url.path] = try url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            }
            return times
        }
    }

    @Test("a trip folder moved with mv: the next ingest writes the journal's commands with the new path, notes kept")
    func movedFolderCommands() throws {
        let trip = try Trip()
        // Half an hour on the Fuji's clock leaves some of its photos on a day without a
        // position: their day pages give a `geotrip tag` command naming the folder.
        try trip.run(["ingest", "DIR", "--clock-offset", "FUJIFILM X-T30=+00:30:00"])
        let day = try #require(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).sorted().first { $0.hasPrefix("2025-") })
        let visit = try #require(try trip.visits().first { ($0["localDate"] as? String).map { day.hasPrefix($0) } ?? false }?["id"] as? String)
        try trip.write(note: "Written before the move.\n", for: visit, in: String(day.dropLast(3)))
        try trip.run(["ingest", "DIR"])
        let moved = trip.temp.url.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: trip.folder, to: moved)
        let run = try CommandRun.geotrip(["ingest", moved.path])
        #expect(run.status == 0, "\(run.stderr)")
        let journal = moved.appendingPathComponent("geotrip/journal")
        let pages = try FileManager.default.contentsOfDirectory(atPath: journal.path).filter { $0.hasSuffix(".md") }
            .map { try String(contentsOf: journal.appendingPathComponent($0), encoding: .utf8) }
        let commands = pages.flatMap { $0.split(separator: "\n") }.filter { $0.contains("geotrip tag ") || $0.contains("exiftool ") }
        #expect(!commands.isEmpty && commands.allSatisfy { $0.contains(moved.path) && !$0.contains(trip.folder.path + "'") }, "\(commands)")
        #expect(pages.contains { $0.contains("Written before the move.\n") })
    }

    @Test("a catalog made again, with a folder renamed so the photos read in another order: each note stays under the visit it was written for")
    func catalogMadeAgain() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        // A note in every visit's block naming the heading it was written under.
        var written: [String: String] = [:]  // note -> heading
        for visit in try trip.visits() {
            let id = try #require(visit["id"] as? String), day = try #require(visit["localDate"] as? String)
            let page = try trip.text(day + ".md")
            let block = try #require(page.range(of: "<!-- notes \(id) -->"))
            let heading = try #require(page[..<block.lowerBound].range(of: "\n## ", options: .backwards))
            let line = String(page[heading.upperBound...].prefix { $0 != "\n" })
            let note = "Written under \(line) on \(day).\n"
            written[note] = line
            try trip.write(note: note, for: id, in: day)
        }
        #expect(written.count >= 10)
        try trip.run(["export", "DIR", "--quiet"])
        try FileManager.default.removeItem(at: trip.folder.appendingPathComponent(".geotrip"))
        try FileManager.default.moveItem(at: trip.folder.appendingPathComponent("2025-06-10 Lisboa"),
                                         to: trip.folder.appendingPathComponent("zz Lisboa"))
        let run = try trip.run(["ingest", "DIR", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let rehomed = try #require((summary["export"] as? [String: Any])?["rehomedNotes"] as? [[String: Any]])
        #expect(!rehomed.isEmpty, "the ids did change, or the test proves nothing")
        // Each note is on a day's page, once, under the heading it was written under.
        let pages = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasPrefix("2025-") && $0.count == 13 }
        for (note, heading) in written {
            let holding = try pages.filter { try trip.text($0).contains(note) }
            #expect(holding.count == 1, "\(note) is on \(holding)")
            guard let page = try holding.first.map(trip.text), let at = page.range(of: note) else { continue }
            let above = try #require(page[..<at.lowerBound].range(of: "\n## ", options: .backwards))
            #expect(page[above.upperBound...].prefix { $0 != "\n" } == heading, "\(note)")
        }
    }

    @Test("visits merged in the run their notes were written: the notes that lose the visit wait under their own ids, said once, and go back with their visits")
    func mergedVisitsNotesSaidOnce() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        let day = "2025-06-10"
        let ids = try trip.visits().filter { $0["localDate"] as? String == day }.compactMap { $0["id"] as? String }
        #expect(ids.count >= 2)
        for id in ids { try trip.write(note: "NOTE \(id)\n", for: id, in: day) }
        // A visit radius of 5 km makes one visit of the day's Lisbon visits: one note keeps it,
        // the others wait on the page of unplaced notes, each under its own id, as a note the
        // catalog knew does when its visit goes.
        let merged = try trip.run(["ingest", "DIR", "--visit-radius", "5000"])
        let unplaced = try trip.text("unplaced-notes.md")
        let waiting = ids.filter { Trip.note($0, in: unplaced) == "NOTE \($0)\n" }
        #expect(!waiting.isEmpty && !unplaced.contains("@"), "\(merged.stdout)")
        let said = merged.stdout.split(separator: "\n").filter { $0.contains("unplaced-notes.md") }
        #expect(said.count == 1, "\(merged.stdout)")
        #expect(said.first?.contains("\(waiting.count == 1 ? "1 note" : "\(waiting.count) notes") whose visit or day is gone") == true, "\(merged.stdout)")
        // Every note is somewhere.
        let pages = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).map { try trip.text($0) }.joined()
        for id in ids { #expect(pages.contains("NOTE \(id)"), "\(id)") }
        // The radius as it was: each note is back in its own visit's block.
        try trip.run(["ingest", "DIR", "-q", "--visit-radius", "250"])
        let page = try trip.text(day + ".md")
        for id in ids { #expect(Trip.note(id, in: page) == "NOTE \(id)\n", "\(id): \(page)") }
        #expect(!FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent("unplaced-notes.md").path))
    }

    @Test("notes written before a run that merges their visits: the merged visit takes the note beside most of its photos, not the first on the page")
    func mergedVisitsTakeTheWeightiestNote() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Three stops along a street in Lisbon, 300 m apart: a café (3 photos), one photo, a shop (5).
        func east(_ metres: Double) -> (latitude: Double, longitude: Double) { (38.7107, -9.1365 + metres / (111_195 * cos(38.7107 * .pi / 180))) }
        let shots: [(String, String, Double)] = [("a1", "09:00", 0), ("a2", "09:05", 0), ("a3", "09:10", 0), ("b1", "09:20", 300),
                                                 ("c1", "09:30", 600), ("c2", "09:32", 600), ("c3", "09:34", 600), ("c4", "09:36", 600), ("c5", "09:38", 600)]
        for (name, time, metres) in shots {
            #expect(try ExiftoolPhoto.write(to: folder.appendingPathComponent(name + ".jpg"), dateTime: "2025:06:10 \(time):00", offset: "+01:00", at: east(metres)))
        }
        #expect(try CommandRun.geotrip(["ingest", folder.path, "--quiet", "--no-thumbnails"]).status == 0)
        let places = try CommandRun.geotrip(["places", folder.path, "--json"])
        let visits = try #require(try JSONSerialization.jsonObject(with: Data(places.stdout.utf8)) as? [[String: Any]])
        #expect(visits.map { ($0["photos"] as? [Any])?.count } == [3, 1, 5], "\(places.stdout)")
        let ids = visits.compactMap { $0["id"] as? String }
        // Notes beside the lone photo and beside the shop, written before the next run.
        let page = folder.appendingPathComponent("geotrip/journal/2025-06-10.md")
        var text = try String(contentsOf: page, encoding: .utf8)
        for (id, note) in [(ids[1], "NOTE lone photo\n"), (ids[2], "NOTE shop\n")] {
            let marker = try #require(text.range(of: "<!-- notes \(id) -->\n"))
            text.insert(contentsOf: note, at: marker.upperBound)
        }
        try text.write(to: page, atomically: true, encoding: .utf8)
        // A radius of 1 km makes the street one visit, under the café's id (the oldest).
        let merged = try CommandRun.geotrip(["ingest", folder.path, "--visit-radius", "1000", "--no-thumbnails"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let after = try String(contentsOf: page, encoding: .utf8)
        #expect(JournalCommandTests.Trip.note(ids[0], in: after) == "NOTE shop\n", "\(after)")
        let unplaced = try String(contentsOf: folder.appendingPathComponent("geotrip/journal/unplaced-notes.md"), encoding: .utf8)
        #expect(unplaced.contains("NOTE lone photo"), "\(unplaced)")
    }

    @Test("a block the person made up and named waits on the page of unplaced notes as theirs, said as such on every run, not as a visit gone")
    func ownBlock() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let page = trip.journal.appendingPathComponent("2025-06-10.md")
        try (try trip.text("2025-06-10.md") + "\n<!-- notes packing -->\nSunscreen, hat.\n<!-- end notes packing -->\n")
            .write(to: page, atomically: true, encoding: .utf8)
        let said = "  1 block of your own naming (<!-- notes packing -->) waits in journal/unplaced-notes.md"
        let first = try trip.run(["ingest", "DIR"])
        #expect(first.stdout.contains(said) && !first.stdout.contains("whose visit or day is gone"), "\(first.stdout)")
        let unplaced = try trip.text("unplaced-notes.md")
        #expect(Trip.note("packing", in: unplaced) == "Sunscreen, hat.\n" && unplaced.contains("## Your own block packing, 2025-06-10"), "\(unplaced)")
        let again = try trip.run(["ingest", "DIR", "--json"])
        let export = (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["export"] as? [String: Any]
        #expect(export?["ownBlocks"] as? [String] == ["packing"] && export?["unplacedNotes"] as? Int == 1, "\(export ?? [:])")
    }

    @Test("a page of gigabytes (a damaged disk, a stray copy) is left alone and named, never read whole or written over")
    func hugePageLeftAlone() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        let page = trip.journal.appendingPathComponent("2025-06-10.md")
        #expect(truncate(page.path, 2 << 30) == 0)  // sparse: no blocks on the disk
        let run = try trip.run(["export", "DIR", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["refused"] as? [String] == ["journal/2025-06-10.md"])
        #expect(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int == 2 << 30)
        #expect(try trip.run(["export", "DIR"]).stdout.contains("or over 256 MiB): journal/2025-06-10.md"))
    }

    @Test("rename and tag bring the journal and the map in step at once, notes kept")
    func followsTagAndRename() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        let first = try #require(try trip.visits().first)
        let id = try #require(first["id"] as? String), place = try #require(first["placeId"] as? String)
        let day = try #require(first["localDate"] as? String)
        try trip.write(note: Self.note, for: id, in: day)

        try trip.run(["rename", "DIR", place, "Hotel Avenida"])
        #expect(try trip.text(day + ".md").contains("Hotel Avenida"))
        #expect(try String(contentsOf: trip.out.appendingPathComponent("index.html"), encoding: .utf8).contains("Hotel Avenida"))
        #expect(Trip.note(id, in: try trip.text(day + ".md")) == Self.kept)

        // A photo with a camera time but no zone, tagged into the trip: its position gives the
        // zone, so it joins a day, and moves in the journal at once.
        let moved = "IMG_0031.JPG"
        let timed = try trip.run(["tag", "DIR", moved, "--at", "40.4168,-3.7038"])
        #expect(!timed.stdout.contains("no time"), "\(timed.stdout)")
        // The camera photo with no date at all: placed, on no day, and said so.
        let undated = try trip.run(["tag", "DIR", "2025-06-11 Sintra/DSCF1004.JPG", "--at", "38.7876,-9.3906"])
        #expect(undated.stdout.contains("It has no time, so it stays on the page of undated photos"), "\(undated.stdout)")
        // A name given without its subfolder: refused, with the photo of that name.
        let bare = try trip.run(["tag", "DIR", "DSCF1005.JPG", "--at", "40.4168,-3.7038"], expecting: 1)
        #expect(bare.stderr.contains("Photos of that name in it: 2025-06-11 Sintra/DSCF1005.JPG."), "\(bare.stderr)")
        let journal = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasSuffix(".md") }
            .map { try trip.text($0) }.joined()
        #expect(journal.contains("40.4168") || journal.contains("40.41680"), "the tagged photo's visit is in the journal")
        // Tagging a visit's photos into another visit (Belém's place) takes its note along, and tag says so.
        let visits = try trip.visits()
        let jeronimos = try #require(visits.first { ($0["photoCount"] as? Int) == 5 && ($0["localDate"] as? String) == "2025-06-10" })
        let jid = try #require(jeronimos["id"] as? String)
        try trip.write(note: "Pastéis de nata.\n", for: jid, in: "2025-06-10")
        let paths = try #require(jeronimos["photos"] as? [String])
        let tagged = try trip.run(["tag", "DIR"] + paths.map { trip.folder.appendingPathComponent($0).path } + ["--at", "38.69163,-9.21614"])
        #expect(tagged.stdout.contains("went with the photos it was written beside") && tagged.stdout.contains("\(jid) (2025-06-10) to "), "\(tagged.stdout)")
        #expect(Trip.note(id, in: try trip.text(day + ".md")) == Self.kept)
    }

    @Test("notes written in the run their visit moves: one moved with it is said so, one put with another visit is said once, and no page is kept as a backup")
    func notesWrittenAsTheirVisitsMove() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        // The morning visit of one photo on 2025-06-11, and the day's last visit of 2025-06-13.
        let single = "2025-06-11 Sintra/IMG_0015.JPG"
        let visits = try trip.visits()
        let lone = try #require(visits.first { ($0["photos"] as? [String]) == [single] }?["id"] as? String)
        let evening = try #require(visits.last { ($0["localDate"] as? String) == "2025-06-13" })
        let late = try #require(evening["id"] as? String), latePhotos = try #require(evening["photos"] as? [String])
        try trip.write(note: "Early coffee by the river.\n", for: lone, in: "2025-06-11")
        try trip.write(note: "Dinner at the plaza, late.\n", for: late, in: "2025-06-13")
        // Each photo's dates moved by a day in its EXIF (same-length bytes, as exiftool's
        // -AllDates would write them): the lone photo into the previous morning's visit, the
        // evening's to the next day.
        func move(_ path: String, from day: String, to other: String) throws {
            let url = trip.folder.appendingPathComponent(path)
            var bytes = [UInt8](try Data(contentsOf: url))
            let (from, to) = (Array(day.utf8), Array(other.utf8))
            var found = 0
            for start in 0...(bytes.count - from.count) where Array(bytes[start..<start + from.count]) == from {
                bytes.replaceSubrange(start..<start + to.count, with: to)
                found += 1
            }
            #expect(found > 0, "\(path)")
            try Data(bytes).write(to: url)
        }
        try move(single, from: "2025:06:11", to: "2025:06:10")
        for path in latePhotos { try move(path, from: "2025:06:13", to: "2025:06:14") }
        let run = try trip.run(["ingest", "DIR", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let export = try #require(summary["export"] as? [String: Any])
        #expect(export["backups"] as? [Any] == nil || (export["backups"] as? [Any])?.isEmpty == true, "\(export)")
        let moved = try #require(export["movedNotes"] as? [[String: Any]])
        #expect(moved.map { "\($0["visit"] ?? "") \($0["from"] ?? "") \($0["to"] ?? "")" } == ["\(late) 2025-06-13 2025-06-14"])
        let rehomed = try #require(export["rehomedNotes"] as? [[String: Any]])
        #expect(rehomed.count == 1 && rehomed.first?["written"] as? String == lone && rehomed.first?["visit"] as? String != nil)
        #expect(try trip.text("2025-06-10.md").contains("Early coffee by the river."))
        #expect(try trip.text("2025-06-14.md").contains("Dinner at the plaza, late."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).allSatisfy { !$0.contains(".edited-") })
    }

    @Test("notes that follow their visits to the next day (a clock a day off) are listed in the order of their numbers")
    func movedNotesInOrder() throws {
        let trip = try Trip()
        try trip.run(["ingest", "DIR", "-q"])
        let ids = try trip.visits().filter { $0["localDate"] as? String == "2025-06-10" }.compactMap { $0["id"] as? String }
        #expect(ids.count >= 3)
        for id in ids { try trip.write(note: "Note of \(id).\n", for: id, in: "2025-06-10") }
        try trip.run(["ingest", "DIR", "-q"])
        let run = try trip.run(["ingest", "DIR", "--clock-offset", "+1 00:00:00", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let moved = try #require((summary["export"] as? [String: Any])?["movedNotes"] as? [[String: Any]]).compactMap { $0["visit"] as? String }
        let numbers = moved.compactMap { Int($0.dropFirst().prefix { $0.isNumber }) }
        #expect(moved.count == ids.count && numbers == numbers.sorted(), "\(moved)")
    }

    @Test("a note written in the run its visit's photo goes waits on the page of unplaced notes, and goes back when the photo does")
    func noteWrittenAsItsVisitGoes() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "--quiet"])
        let single = "2025-06-11 Sintra/IMG_0015.JPG"
        let lone = try #require(try trip.visits().first { ($0["photos"] as? [String]) == [single] }?["id"] as? String)
        try trip.write(note: "Early coffee by the river.\n", for: lone, in: "2025-06-11")
        let aside = trip.temp.url.appendingPathComponent("IMG_0015.JPG")
        try FileManager.default.moveItem(at: trip.folder.appendingPathComponent(single), to: aside)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(Trip.note(lone, in: try trip.text("unplaced-notes.md")) == "Early coffee by the river.\n")
        try FileManager.default.moveItem(at: aside, to: trip.folder.appendingPathComponent(single))
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(try trip.visits().first { ($0["photos"] as? [String]) == [single] }?["id"] as? String == lone)
        #expect(Trip.note(lone, in: try trip.text("2025-06-11.md")) == "Early coffee by the river.\n")
        #expect(!((try? trip.text("unplaced-notes.md")) ?? "").contains("Early coffee"))
    }

    @Test("ingest writes a journal per day and trip.geojson; an unchanged rerun touches nothing")
    func firstExport() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let ingest = try trip.run(["ingest", "DIR"])
        // Five days, the page of the undated photo, trip.geojson and index.html; a thumbnail for
        // each of the 51 photos in visits (the undated one is listed by name).
        #expect(ingest.stdout.contains("  export: 8 written, 0 unchanged, 51 thumbnails"), "\(ingest.stdout)")
        #expect(ingest.stdout.contains("  1 photo without a date, on no day and not on the map: journal/undated-photos.md lists it"), "\(ingest.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).sorted()
        #expect(names == ["2025-06-10.md", "2025-06-11.md", "2025-06-12.md", "2025-06-13.md", "2025-06-14.md", "undated-photos.md"])
        let day = try trip.text("2025-06-10.md")
        #expect(day.hasPrefix("---\ndate: 2025-06-10\n"))
        #expect(day.contains("# Tuesday, 10 June 2025") || day.contains("# Tuesday, June 10, 2025"), "\(day)")
        #expect(day.contains("## 08:12–08:31 WEST · Lisbon, Lisboa, Portugal"))
        #expect(day.contains("(../../2025-06-10%20Lisboa/IMG_0001.JPG)"))
        let front = try #require(day.components(separatedBy: "---\n").dropFirst().first)
        let yaml = try #require(try Yams.load(yaml: front) as? [String: Any])
        #expect(yaml["places"] as? [String] == ["Lisbon"] && yaml["countries"] as? [String] == ["Portugal"])

        let before = try trip.times()
        let again = try trip.run(["ingest", "DIR", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let export = try #require(summary["export"] as? [String: Any])
        #expect(export["written"] as? Int == 0 && export["unchanged"] as? Int == 8 && export["thumbnails"] as? Int == 0)
        #expect(export["undatedPhotos"] as? Int == 1, "an unchanged rerun still says the photo without a date")
        #expect(try trip.times() == before)
        // `export` alone, too.
        #expect(try trip.run(["export", "DIR"]).stdout.contains("export: 0 written, 8 unchanged"))
        #expect(try trip.times() == before)
    }

    @Test("photos without a date have a page of their own with the command that dates them; once dated, the page goes and the photo is on its day")
    func undatedPhotos() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let undated = "2025-06-11 Sintra/DSCF1004.JPG"
        // exiftool finds no date in it, nor a GPS time: the independent truth of "undated".
        let record = try #require(try ExiftoolRecord.load(TestPaths.sampleImages.appendingPathComponent("exiftool.json"))[undated])
        #expect(record.hasExif && record.localTime == nil && record.gpsTime == nil)
        try trip.run(["ingest", "DIR", "--quiet"])
        let page = try trip.text("undated-photos.md")
        #expect(page.hasPrefix("# Photos without a date\n"), "\(page)")
        // Each listed photo is linked; the links, read from the journal folder, are the files.
        let links = page.components(separatedBy: "\n").filter { $0.hasPrefix("- [") }
        #expect(links == ["- [2025-06-11 Sintra/DSCF1004.JPG](../../2025-06-11%20Sintra/DSCF1004.JPG)"])
        for link in links {
            let target = try #require(link.split(separator: "(").last?.dropLast().removingPercentEncoding)
            #expect(FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent(target).standardizedFileURL.path))
        }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasSuffix(".md") && $0 != "undated-photos.md" }
            .contains { try trip.text($0).contains("DSCF1004") }))

        // The page's own command, with a date put in, run by a shell: a sidecar beside the photo,
        // which is left as it was; the next run finds the time, the page goes (it was as written)
        // and the photo is on its day.
        let photo = trip.folder.appendingPathComponent(undated)
        let bytes = try Data(contentsOf: photo)
        let block = try #require(page.components(separatedBy: "```sh\n").last?.components(separatedBy: "\n```").first)
        let command = block.replacingOccurrences(of: "YYYY:MM:DD HH:MM:SS", with: "2025:06:11 12:00:00")
        let shell = try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
        #expect(shell.status == 0, "\(command): \(shell.stderr)")
        #expect(FileManager.default.fileExists(atPath: photo.deletingPathExtension().appendingPathExtension("xmp").path))
        #expect(try Data(contentsOf: photo) == bytes)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(!FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent("undated-photos.md").path))
        #expect(try trip.text("2025-06-11.md").contains("(../../2025-06-11%20Sintra/DSCF1004.JPG)"))

        // Undated again: the page is back, in the journal's language. Words a person wrote in
        // it are kept in a backup when it is rewritten.
        try FileManager.default.removeItem(at: photo.deletingPathExtension().appendingPathExtension("xmp"))
        try trip.run(["ingest", "DIR", "--quiet", "--lang", "ko"])
        let korean = try trip.text("undated-photos.md")
        #expect(korean.hasPrefix("# 날짜가 없는 사진\n") && korean.contains("DSCF1004.JPG"))
        try (korean + "\nthe bus stop photo, 11 June\n").write(to: trip.journal.appendingPathComponent("undated-photos.md"), atomically: true, encoding: .utf8)
        try FileManager.default.moveItem(at: photo, to: photo.deletingLastPathComponent().appendingPathComponent("DSCF1004 bus.JPG"))
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(try trip.text("undated-photos.md").contains("(../../2025-06-11%20Sintra/DSCF1004%20bus.JPG)"))
        let backups = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasPrefix("undated-photos.edited-") }
        #expect(backups.count == 1)
        #expect(try backups.allSatisfy { try trip.text($0).contains("the bus stop photo, 11 June") })
    }

    @Test("the undated photos' command stays on one line for a name with a line break and a marker, adds the date to a sidecar already there; names not in UTF-8 are linked by their bytes, in the journal and on the map")
    func undatedPhotosCommand() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let source = trip.folder.appendingPathComponent("2025-06-11 Sintra/DSCF1004.JPG")
        // Sorted first, so it is the command's photo.
        let odd = trip.folder.appendingPathComponent("0\n<!-- notes v17 -->\nx.JPG")
        try FileManager.default.copyItem(at: source, to: odd)
        try trip.run(["ingest", "DIR", "--quiet"])
        func command() throws -> String {
            let page = try trip.text("undated-photos.md")
            let block = try #require(page.components(separatedBy: "```sh\n").last?.components(separatedBy: "\n```").first)
            #expect(!block.contains("\n"), "\(block)")
            return block.replacingOccurrences(of: "YYYY:MM:DD HH:MM:SS", with: "2025:06:11 12:00:00")
        }
        // The page as geotrip wrote it is never taken for an edit: another undated photo
        // rewrites it with no backup.
        try FileManager.default.copyItem(at: source, to: trip.folder.appendingPathComponent("1.JPG"))
        let again = try trip.run(["ingest", "DIR"])
        #expect(!again.stdout.contains("kept as"), "\(again.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).allSatisfy { !$0.contains(".edited-") })
        #expect(try trip.text("undated-photos.md").contains("(../../0%0A%3C%21--%20notes%20v17%20--%3E%0Ax.JPG)"))
        #expect(try trip.text("undated-photos.md").contains("](../../1.JPG)"))

        // Run by a POSIX shell (dash), the command reaches the file.
        let sh = URL(fileURLWithPath: "/bin/sh")
        #expect(try CommandRun.run(sh, ["-c", try command()]).status == 0)
        #expect(FileManager.default.fileExists(atPath: trip.folder.appendingPathComponent("0\n<!-- notes v17 -->\nx.xmp").path))
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(!(try trip.text("undated-photos.md").contains("x.JPG")))

        // A photo with a sidecar of its own (a title, no date): the date is added to it.
        try FileManager.default.removeItem(at: trip.folder.appendingPathComponent("1.JPG"))
        let sidecar = source.deletingPathExtension().appendingPathExtension("xmp")
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-q", "-o", sidecar.path, "-XMP-dc:Title=Sintra", source.path]).status == 0)
        try trip.run(["ingest", "DIR", "--quiet"])
        let edit = try command()
        #expect(edit.hasPrefix("exiftool -overwrite_original ") && edit.hasSuffix("DSCF1004.xmp'"), "\(edit)")
        #expect(try CommandRun.run(sh, ["-c", edit]).status == 0)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(!FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent("undated-photos.md").path))
        #expect(try trip.text("2025-06-11.md").contains("DSCF1004.JPG"))

        // Names that are not UTF-8 (Latin-1 `été`, from an old zip) are linked by their bytes,
        // percent-encoded (RFC 3986), on the undated page and on a day's page.
        // A UTF-8 name with a `%` in a folder whose name is not UTF-8 keeps its `%` (`%25`).
        let copies = "cp '2025-06-11 Sintra/DSCF1004.JPG' \"$(printf '\\351t\\351.JPG')\"; "
            + "cp '2025-06-10 Lisboa/IMG_0001.JPG' \"2025-06-10 Lisboa/$(printf '\\351t\\351b.JPG')\"; "
            + "mkdir \"$(printf '\\351t\\351')\" && cp '2025-06-10 Lisboa/IMG_0002.JPG' \"$(printf '\\351t\\351')/p%.JPG\""
        #expect(try CommandRun.run(sh, ["-c", "cd '\(trip.folder.path)' && " + copies]).status == 0)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(try trip.text("undated-photos.md").contains("](../../%E9t%E9.JPG)"))
        #expect(try trip.text("2025-06-10.md").contains("](../../2025-06-10%20Lisboa/%E9t%E9b.JPG)"))
        #expect(try trip.text("2025-06-10.md").contains("](../../%E9t%E9/p%25.JPG)"))
        let map = try String(contentsOf: trip.out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(map.contains("href=\"../2025-06-10%20Lisboa/%E9t%E9b.JPG\""))
        #expect(!map.contains("%25E9t"))
        // The only undated photo's name is not UTF-8, and geotrip reads no sidecar beside such a
        // name: the page says to rename it, and gives no command that would not help.
        let renaming = try trip.text("undated-photos.md")
        #expect(renaming.contains("names are not UTF-8") && !renaming.contains("```sh"), "\(renaming)")

        // A GPS time with no position is a time in no zone: no day takes the photo (`places`
        // says "Without a date"), so the page lists it too.
        let gpsOnly = trip.folder.appendingPathComponent("gps only.JPG")
        try FileManager.default.copyItem(at: source, to: gpsOnly)
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                   ["-q", "-overwrite_original", "-GPSDateStamp=2019:03:01", "-GPSTimeStamp=10:00:00", gpsOnly.path]).status == 0)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(try trip.run(["places", "DIR"]).stdout.contains("gps only.JPG"))
        #expect(try trip.text("undated-photos.md").contains("- [gps only.JPG](../../gps%20only.JPG)"))

        // A camera date of 1800 counts over a sidecar's: with only such photos undated, the page
        // says to put the camera's clock right, and gives no sidecar command.
        try FileManager.default.removeItem(at: gpsOnly)
        #expect(try CommandRun.run(sh, ["-c", "cd '\(trip.folder.path)' && rm \"$(printf '\\351t\\351.JPG')\""]).status == 0)
        let old = trip.folder.appendingPathComponent("1800.JPG")
        try FileManager.default.copyItem(at: source, to: old)
        #expect(try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                   ["-q", "-overwrite_original", "-DateTimeOriginal=1800:01:01 10:00:00", old.path]).status == 0)
        try trip.run(["ingest", "DIR", "--quiet"])
        let clock = try trip.text("undated-photos.md")
        #expect(clock.contains("- [1800.JPG](../../1800.JPG)") && clock.contains("--clock-offset") && !clock.contains("```sh"), "\(clock)")
    }

    @Test("notes survive added and deleted photos and a clock offset that moves visits to another day, byte for byte")
    func notesSurvive() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let belem = try #require(try trip.visits().first { ($0["photos"] as! [String]).contains("2025-06-10 Lisboa/IMG_0004.JPG") })
        let belemID = belem["id"] as! String
        let prado = try #require(try trip.visits().first { ($0["photos"] as! [String]).contains("IMG_0032.JPG") })
        let pradoID = prado["id"] as! String, pradoDay = prado["localDate"] as! String
        try trip.write(note: Self.note, for: belemID, in: "2025-06-10")
        try trip.write(note: Self.dayNote, for: "2025-06-10", in: "2025-06-10")
        try trip.write(note: "Prado: 한국어 메모\n", for: pradoID, in: pradoDay)

        // A photo added to Belém's visit.
        try FileManager.default.copyItem(at: trip.folder.appendingPathComponent("2025-06-10 Lisboa/IMG_0004.JPG"),
                                         to: trip.folder.appendingPathComponent("extra.JPG"))
        let added = try trip.run(["ingest", "DIR"])
        #expect(!added.stdout.contains("backup"), "\(added.stdout)")
        #expect(Trip.note(belemID, in: try trip.text("2025-06-10.md")) == Self.kept)
        #expect(Trip.note("2025-06-10", in: try trip.text("2025-06-10.md")) == Self.dayNote)

        // Every photo of the Prado visit deleted: its note goes to unplaced-notes.md.
        for path in prado["photos"] as! [String] { try FileManager.default.removeItem(at: trip.folder.appendingPathComponent(path)) }
        let deleted = try trip.run(["ingest", "DIR"])
        #expect(deleted.stdout.contains("1 note whose visit or day is gone: journal/unplaced-notes.md"), "\(deleted.stdout)")
        // Said again by a rerun that changes nothing, and counted in --json, while it waits.
        let again = try trip.run(["ingest", "DIR"])
        #expect(again.stdout.contains("1 note whose visit or day is gone: journal/unplaced-notes.md"), "\(again.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(try trip.run(["ingest", "DIR", "--json"]).stdout.utf8)) as? [String: Any]
        #expect((json?["export"] as? [String: Any])?["unplacedNotes"] as? Int == 1)
        #expect((json?["export"] as? [String: Any])?["written"] as? Int == 0, "said by a rerun that writes nothing")
        let unplaced = try trip.text("unplaced-notes.md")
        #expect(Trip.note(pradoID, in: unplaced) == "Prado: 한국어 메모\n")
        #expect(unplaced.contains(pradoID) && unplaced.contains(pradoDay))
        // A line of the person's own on that page: kept as a backup; the page's headings are
        // geotrip's own words for each note (`## Visit v…: …`), none written over.
        try (unplaced + "\nA line of my own.\n").write(to: trip.journal.appendingPathComponent("unplaced-notes.md"), atomically: true, encoding: .utf8)
        let edited = try trip.run(["ingest", "DIR"])
        #expect(edited.stdout.contains("unplaced-notes.edited-") && !edited.stdout.contains("was written over"), "\(edited.stdout)")

        // Clocks a day late: every visit moves to the next day, and its notes with it; the
        // day's own note follows its photos to the next day's page, said.
        let late = try trip.run(["ingest", "DIR", "--clock-offset", "+1 00:00:00"])
        let moved = try #require(try trip.visits().first { $0["id"] as? String == belemID })
        #expect(moved["localDate"] as? String == "2025-06-11")
        #expect(Trip.note(belemID, in: try trip.text("2025-06-11.md")) == Self.kept)
        #expect(!FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent("2025-06-10.md").path))
        #expect(Trip.note("2025-06-11", in: try trip.text("2025-06-11.md")) == Self.dayNote)
        #expect(Trip.note("2025-06-10", in: try trip.text("unplaced-notes.md")) == nil)
        #expect(late.stdout.contains("1 day's note followed its day's photos to another day: the note of the day 2025-06-10 to 2025-06-11"), "\(late.stdout)")
        #expect(!late.stdout.contains("backup"), "\(late.stdout)")
        // And back: the notes return to the visit's first day, the day's own note too.
        let back = try trip.run(["ingest", "DIR", "--clock-offset", "+0:00:00"])
        #expect(Trip.note(belemID, in: try trip.text("2025-06-10.md")) == Self.kept)
        #expect(Trip.note("2025-06-10", in: try trip.text("2025-06-10.md")) == Self.dayNote)
        #expect(Trip.note("2025-06-11", in: try trip.text("2025-06-11.md")) == "")
        #expect(back.stdout.contains("the note of the day 2025-06-11 to 2025-06-10"), "\(back.stdout)")
    }

    @Test("a run that adds a privacy zone names the dated backups kept from before, which it never rewrites and which may show the zone")
    func backupsNamedWhenAZoneIsAdded() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let sevilla = try #require(try trip.visits().first { $0["localDate"] as? String == "2025-06-12" })
        let url = trip.journal.appendingPathComponent("2025-06-12.md")
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "# ", with: "# My ").write(to: url, atomically: true, encoding: .utf8)
        try trip.run(["export", "DIR", "-q"])
        let backup = try #require(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).first { $0.hasPrefix("2025-06-12.edited-") })
        // The copy holds the visit's coordinates as the page showed them.
        let shown = String(format: "%.5f", try #require(sevilla["latitude"] as? Double))
        #expect(try String(contentsOf: trip.journal.appendingPathComponent(backup), encoding: .utf8).contains(shown))

        func backupsSaid(_ run: CommandRun) throws -> [String]? {
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return summary["backupsBeforeZones"] as? [String]  // `export --json` is the export's summary
        }
        let zone = "\(sevilla["latitude"]!),\(sevilla["longitude"]!)"
        #expect(try backupsSaid(trip.run(["export", "DIR", "--hide-near", zone, "--json"])) == ["journal/" + backup])
        #expect(try String(contentsOf: trip.journal.appendingPathComponent(backup), encoding: .utf8).contains(shown), "the person's copy is left as it was")
        // A run that adds no zone says nothing of them.
        #expect(try backupsSaid(trip.run(["export", "DIR", "--json"])) == [])
        let text = try trip.run(["ingest", "DIR", "--hide-near", "38.7,-9.1"])
        #expect(text.stdout.contains("1 dated copy of a journal page may still show what lies inside the new zone"), "\(text.stdout)")
        #expect(text.stdout.contains("journal/" + backup))
    }

    @Test("a run that newly keeps a home private (--hide-home again, a home given) names the dated backups too")
    func backupsNamedWhenAHomeIsHidden() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q", "--no-hide-home"])
        let visits = try trip.visits()
        let sevilla = try #require(visits.first { $0["localDate"] as? String == "2025-06-12" })
        let lisbon = try #require(visits.first)
        let url = trip.journal.appendingPathComponent("2025-06-12.md")
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "# ", with: "# My ").write(to: url, atomically: true, encoding: .utf8)
        try trip.run(["export", "DIR", "-q"])
        let backup = try #require(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).first { $0.hasPrefix("2025-06-12.edited-") })

        func backupsSaid(_ arguments: [String]) throws -> [String]? {
            let run = try trip.run(["export", "DIR", "--json"] + arguments)
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return summary["backupsBeforeZones"] as? [String]
        }
        func spot(_ visit: [String: Any]) -> String { "\(visit["latitude"]!),\(visit["longitude"]!)" }
        // A home given while homes are shown hides nothing.
        #expect(try backupsSaid(["--home", spot(sevilla)]) == [])
        // Hidden again: a zone added.
        #expect(try backupsSaid(["--hide-home"]) == ["journal/" + backup])
        #expect(try backupsSaid([]) == [])
        // Another home, far from the first: a zone added again.
        let text = try trip.run(["ingest", "DIR", "--home", spot(lisbon)])
        #expect(text.stdout.contains("1 dated copy of a journal page may still show what lies inside the home kept private from now on (coordinates"),
                "\(text.stdout)")
        #expect(text.stdout.contains("journal/" + backup))
        #expect(try backupsSaid(["--home", spot(lisbon)]) == [])
    }

    @Test("--home auto on a folder that is one trip says no home was found, and how to name one")
    func homeAutoOnOneTrip() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let run = try trip.run(["ingest", "DIR", "--home", "auto"])
        #expect(run.stdout.contains("--home auto: no home was found, as the folder is one trip"), "\(run.stdout)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(trip.run(["export", "DIR", "--home", "auto", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(summary["homeAutoNotFound"] as? Bool == true)
        // Not asked: nothing said.
        #expect(!(try trip.run(["ingest", "DIR"])).stdout.contains("--home auto"))
    }

    @Test("a day's note written just before a run that puts the clocks right by a day follows the photos its page showed")
    func dayNoteWrittenBeforeAClockOffset() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let sevilla = try #require(try trip.visits().first { $0["localDate"] as? String == "2025-06-12" })
        try trip.write(note: "Flamenco night.\n", for: "2025-06-12", in: "2025-06-12")
        // The catalog has not seen the note yet: the page's photos tell which day it is of.
        let late = try trip.run(["ingest", "DIR", "--clock-offset", "+1 00:00:00"])
        let moved = try #require(try trip.visits().first { $0["id"] as? String == sevilla["id"] as? String })
        #expect(moved["localDate"] as? String == "2025-06-13")
        #expect(Trip.note("2025-06-13", in: try trip.text("2025-06-13.md")) == "Flamenco night.\n")
        #expect(Trip.note("2025-06-12", in: (try? trip.text("2025-06-12.md")) ?? "") ?? "" == "")
        #expect(late.stdout.contains("the note of the day 2025-06-12 to 2025-06-13"), "\(late.stdout)")
    }

    @Test("a day's note written just before its one-day trip's clock is put right by a day follows the photos to the new day")
    func dayNoteOfAVanishedDay() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        // Only Sevilla's day left.
        for visit in try trip.visits() where visit["localDate"] as? String != "2025-06-12" {
            for photo in visit["photos"] as? [String] ?? [] { try FileManager.default.removeItem(at: trip.folder.appendingPathComponent(photo)) }
        }
        try trip.run(["ingest", "DIR", "-q"])
        let pages = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasPrefix("2025-") }
        #expect(pages == ["2025-06-12.md"], "\(pages)")
        try trip.write(note: "Flamenco night.\n", for: "2025-06-12", in: "2025-06-12")
        let late = try trip.run(["ingest", "DIR", "--clock-offset", "+1 00:00:00"])
        #expect(Trip.note("2025-06-13", in: try trip.text("2025-06-13.md")) == "Flamenco night.\n", "\(late.stdout)")
        #expect(!FileManager.default.fileExists(atPath: trip.journal.appendingPathComponent("2025-06-12.md").path))
        #expect(!((try? trip.text("unplaced-notes.md")) ?? "").contains("Flamenco"))
        #expect(late.stdout.contains("the note of the day 2025-06-12 to 2025-06-13"), "\(late.stdout)")
    }

    @Test("a file of the person's own named like a day's page, for a day the trip does not have, is left where it is")
    func ownFileNamedLikeADay() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let own = trip.journal.appendingPathComponent("2025-06-09.md")
        try "# Packing day\n\nBought sunscreen.\n".write(to: own, atomically: true, encoding: .utf8)
        let run = try trip.run(["ingest", "DIR"])
        #expect(try String(contentsOf: own, encoding: .utf8) == "# Packing day\n\nBought sunscreen.\n")
        #expect(!run.stdout.contains("edited outside the notes blocks"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).allSatisfy { !$0.contains(".edited-") })
    }

    @Test("a file edited outside its notes is kept as a dated backup; a deleted file comes back with its notes; links are never written through")
    func backupsAndLinks() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let sevilla = try #require(try trip.visits().first { $0["localDate"] as? String == "2025-06-12" })
        let id = sevilla["id"] as! String
        try trip.write(note: "Flamenco.\n", for: id, in: "2025-06-12")
        let url = trip.journal.appendingPathComponent("2025-06-12.md")
        let edited = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "# ", with: "# My ")
        try edited.write(to: url, atomically: true, encoding: .utf8)

        let run = try trip.run(["export", "DIR"])
        #expect(run.stdout.contains("had been edited outside the notes blocks"), "\(run.stdout)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).filter { $0.hasPrefix("2025-06-12.edited-") }
        #expect(backups.count == 1)
        #expect(try String(contentsOf: trip.journal.appendingPathComponent(backups[0]), encoding: .utf8) == edited)
        #expect(Trip.note(id, in: try trip.text("2025-06-12.md")) == "Flamenco.\n")
        // The backup as kept, or saved again with the notes its page has, is not said.
        let backup = trip.journal.appendingPathComponent(backups[0])
        #expect(!(try trip.run(["export", "DIR"])).stdout.contains("not read"))
        try edited.write(to: backup, atomically: true, encoding: .utf8)
        let saved = try trip.run(["export", "DIR"])
        #expect(!saved.stdout.contains("not read"), "\(saved.stdout)")
        // Notes typed into the backup at once (within the second it was made, as far as its
        // time tells) are not read: said, and the backup left as it is.
        try edited.replacingOccurrences(of: "Flamenco.\n", with: "Flamenco, and tapas after.\n").write(to: backup, atomically: true, encoding: .utf8)
        // The time in its name (`DATE.edited-YYYYMMDD-HHMMSS.md`, UTC).
        let stamp = String(try #require(backups[0].components(separatedBy: ".edited-").last).prefix(15))
        let parser = DateFormatter()
        (parser.locale, parser.timeZone, parser.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "UTC"), "yyyyMMdd-HHmmss")
        let made = try #require(parser.date(from: stamp), "\(stamp)")
        try FileManager.default.setAttributes([.modificationDate: made.addingTimeInterval(1)], ofItemAtPath: backup.path)
        let typed = try trip.run(["export", "DIR"])
        #expect(typed.stdout.contains("not read, as geotrip reads only the pages it names") && typed.stdout.contains(backups[0]), "\(typed.stdout)")
        #expect(Trip.note(id, in: try trip.text("2025-06-12.md")) == "Flamenco.\n")
        #expect(try String(contentsOf: backup, encoding: .utf8).contains("Flamenco, and tapas after."))

        // Deleted: rebuilt from the catalog with its note.
        try FileManager.default.removeItem(at: url)
        try trip.run(["export", "DIR", "-q"])
        #expect(Trip.note(id, in: try trip.text("2025-06-12.md")) == "Flamenco.\n")

        // Replaced by a link to a file elsewhere: neither read nor written through.
        let elsewhere = trip.temp.url.appendingPathComponent("elsewhere.md")
        try "mine\n".write(to: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: elsewhere)
        let linked = try trip.run(["export", "DIR"])
        #expect(linked.stdout.contains("never read or written through") && linked.stdout.contains("notes written in a page there are not taken in") && linked.stdout.contains("journal/2025-06-12.md"), "\(linked.stdout)")
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "mine\n")
        // And said again by every ingest after, though nothing else changed.
        for _ in 0..<2 {
            let again = try trip.run(["ingest", "DIR"])
            #expect(again.stdout.contains("never read or written through") && again.stdout.contains("journal/2025-06-12.md"), "\(again.stdout)")
        }
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "mine\n")

        // Replaced by an empty folder: left alone and said; once the folder goes, the next
        // ingest writes the page again, with its note.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let folder = try trip.run(["ingest", "DIR"])
        #expect(folder.stdout.contains("journal/2025-06-12.md"), "\(folder.stdout)")
        try FileManager.default.removeItem(at: url)
        try trip.run(["ingest", "DIR", "-q"])
        #expect(Trip.note(id, in: try trip.text("2025-06-12.md")) == "Flamenco.\n")

        // The whole journal folder a link to a folder elsewhere (a notes app's): the export
        // stops before it writes anything there, and says how to mend it.
        try FileManager.default.removeItem(at: url)
        let vault = trip.temp.url.appendingPathComponent("vault")
        try FileManager.default.moveItem(at: trip.journal, to: vault)
        try FileManager.default.createSymbolicLink(at: trip.journal, withDestinationURL: vault)
        let pages = try FileManager.default.contentsOfDirectory(atPath: vault.path).sorted()
        let refused = try trip.run(["ingest", "DIR"], expecting: 1)
        #expect(refused.stderr.contains("journal is a symbolic link to a folder") && refused.stderr.contains("--out PATH"), "\(refused.stderr)")
        // One way out, said once: not the unwritable folder's "make it a folder geotrip can write".
        #expect(!refused.stderr.contains("Make it a folder"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).sorted() == pages)
    }

    @Test("what geotrip cannot read is said: a note whose end line went, a page renamed; a read-only page stays read-only; a bogus --lang is refused")
    func saysWhatItCannotRead() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let visits = try trip.visits()
        let sevilla = try #require(visits.first { $0["localDate"] as? String == "2025-06-12" }?["id"] as? String)
        let madrid = try #require(visits.first { $0["localDate"] as? String == "2025-06-13" }?["id"] as? String)
        // A note written in, and its end line deleted.
        try trip.write(note: "Flamenco at nine.\n", for: sevilla, in: "2025-06-12")
        let day = trip.journal.appendingPathComponent("2025-06-12.md")
        try String(contentsOf: day, encoding: .utf8).replacingOccurrences(of: "<!-- end notes \(sevilla) -->\n", with: "")
            .write(to: day, atomically: true, encoding: .utf8)
        // Another page renamed, with a note written in it.
        try trip.write(note: "Prado all day.\n", for: madrid, in: "2025-06-13")
        try FileManager.default.moveItem(at: trip.journal.appendingPathComponent("2025-06-13.md"),
                                         to: trip.journal.appendingPathComponent("2025-06-13 Madrid.md"))
        let run = try trip.run(["export", "DIR", "--json"])
        let export = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let unread = try #require(export["unreadBlocks"] as? [[String: Any]])
        #expect(unread.first?["ids"] as? [String] == [sevilla])
        let backup = try #require(unread.first?["backup"] as? String)
        #expect(try String(contentsOf: trip.out.appendingPathComponent(backup), encoding: .utf8).contains("Flamenco at nine."))
        #expect(export["unreadPages"] as? [String] == ["journal/2025-06-13 Madrid.md"])
        // So is a page whose name says Markdown another way, or one put in a folder of the
        // journal: each said, none read.
        let page = try trip.text("2025-06-11.md")
        let sintra = try #require(visits.first { $0["localDate"] as? String == "2025-06-11" }?["id"] as? String)
        let written = page.replacingOccurrences(of: "<!-- notes \(sintra) -->\n", with: "<!-- notes \(sintra) -->\nPena palace.\n")
        try FileManager.default.createDirectory(at: trip.journal.appendingPathComponent("old"), withIntermediateDirectories: true)
        for name in ["2025-06-11.MD", "2025-06-11.markdown", "old/2025-06-11.md"] {
            try written.write(to: trip.journal.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let more = try #require(try JSONSerialization.jsonObject(with: Data(try trip.run(["export", "DIR", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(Set(more["unreadPages"] as? [String] ?? []) == ["journal/2025-06-13 Madrid.md", "journal/2025-06-11.MD", "journal/2025-06-11.markdown",
                                                                 "journal/old/2025-06-11.md"], "\(more["unreadPages"] ?? "")")
        for name in ["2025-06-11.MD", "2025-06-11.markdown", "old"] { try FileManager.default.removeItem(at: trip.journal.appendingPathComponent(name)) }

        // A page made read-only, whose place is then renamed: rewritten, and still read-only.
        let lisbon = trip.journal.appendingPathComponent("2025-06-10.md")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: lisbon.path)
        try trip.run(["rename", "DIR", try #require(visits.first?["placeId"] as? String), "Hotel Avenida"])
        #expect(try trip.text("2025-06-10.md").contains("Hotel Avenida"))
        #expect(try FileManager.default.attributesOfItem(atPath: lisbon.path)[.posixPermissions] as? Int == 0o444)

        let bogus = try trip.run(["export", "DIR", "--lang", "zz-bogus"], expecting: 64)
        #expect(bogus.stderr.contains("--lang zz-bogus is not a language code"), "\(bogus.stderr)")
        try trip.run(["export", "DIR", "--lang", "pt-BR", "-q"])
    }

    @Test("A visit's heading written over is named in the summary with the command that names its place; that command works as printed")
    func headingWrittenOver() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let visit = try #require(try trip.visits().first)
        let id = try #require(visit["id"] as? String), place = try #require(visit["placeId"] as? String), day = try #require(visit["localDate"] as? String)
        // The day's first visit heading replaced by a title of the person's own; the second's
        // place name replaced by one of the person's own (in Markdown, and with geotrip's region
        // and country after it), keeping geotrip's shape; the third's time changed, with a
        // heading of the person's own added below it that holds a " · "; the fourth's place
        // part lengthened after the place's own name. Neither of the last two is a new name.
        var lines = try trip.text(day + ".md").components(separatedBy: "\n")
        let headings = lines.indices.filter { lines[$0].hasPrefix("## ") }
        try #require(headings.count >= 4, "\(lines)")
        // A name that begins like an option, with a character that turns the line around.
        let title = "--clear: breakfast by the river, it's 'ours' \u{202E}sic"
        lines[headings[0]] = "## " + title
        let second = try #require(lines[headings[1]].range(of: " · "))
        let region = try #require(lines[headings[1]].range(of: ", ")).lowerBound  // "Lisbon, Lisboa, Portugal"
        lines[headings[1]] = String(lines[headings[1]][..<second.upperBound]) + "Tom \\& Jerry's *Bar*" + String(lines[headings[1]][region...])
        lines[headings[2]] = lines[headings[2]].replacingOccurrences(of: "WEST", with: "+01") + "\n\n## Lunch · with Ana"
        lines[headings[3]] += ", the old town"
        try lines.joined(separator: "\n").write(to: trip.journal.appendingPathComponent(day + ".md"), atomically: true, encoding: .utf8)
        // On the next day's page, a name put in with the region kept and the country left out.
        let next = try #require(try trip.visits().first { ($0["localDate"] as? String ?? "") > day }?["localDate"] as? String)
        var nextLines = try trip.text(next + ".md").components(separatedBy: "\n")
        let nextHeading = try #require(nextLines.indices.first { nextLines[$0].hasPrefix("## ") && nextLines[$0].contains(", Lisboa, Portugal") })
        nextLines[nextHeading] = nextLines[nextHeading].replacingOccurrences(of: #" · [^,]*, Lisboa, Portugal"#, with: " · Palácio da Pena, Lisboa",
                                                                               options: .regularExpression)
        try nextLines.joined(separator: "\n").write(to: trip.journal.appendingPathComponent(next + ".md"), atomically: true, encoding: .utf8)
        let out = try trip.run(["ingest", "DIR"]).stdout
        let said = try #require(out.split(separator: "\n").first { $0.contains("was written over") }.map(String.init), "\(out)")
        #expect(said.hasPrefix("  in journal/\(day).edited-") && said.contains(", the heading of \(id) was written over (\"--clear: breakfast by the river, it's 'ours' %E2%80%AEsic\")"), "\(said)")
        #expect(out.components(separatedBy: "was written over").count == 4,
                "the title and the two new names are said, not the time, a heading added or a longer place: \(out)")
        #expect(out.contains("was written over (\"Palácio da Pena\")"), "\(out)")
        // The name as it reads, without the Markdown's escapes and the region and country.
        let renamedHeading = try #require(out.split(separator: "\n").first { $0.contains("was written over (\"Tom & Jerry's *Bar*\")") }, "\(out)")
        #expect(renamedHeading.contains("To give its place that name: geotrip rename ") && renamedHeading.contains(#" -- 'Tom & Jerry'\''s *Bar*'"#), "\(renamedHeading)")
        let command = try #require(said.range(of: "To give its place that name: ").map { String(said[$0.upperBound...]) }?.components(separatedBy: ". Words about").first)
        #expect(command.hasPrefix("geotrip rename ") && command.contains(" \(place) -- "), "\(command)")
        // Run as printed, through a shell, with this build's geotrip first on the PATH.
        let path = TestPaths.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let renamed = try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["PATH": path])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        // Named as `rename` keeps a name: without the override that would turn the heading around.
        #expect(try trip.text(day + ".md").contains("· " + title.replacingOccurrences(of: "\u{202E}", with: "")))
    }

    @Test("A page saved for a note keeps the headings geotrip wrote before a rename: they are no name the person wrote")
    func headingsOfEarlierNames() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let visit = try #require(try trip.visits().first)
        let place = try #require(visit["placeId"] as? String), day = try #require(visit["localDate"] as? String)
        // The page as an editor holds it open, while the place is named and the name cleared.
        try trip.run(["rename", "DIR", place, "--", "Hotel Foo"])
        let open = try trip.text(day + ".md")
        #expect(open.contains(" · Hotel Foo"))
        try trip.run(["rename", "DIR", place, "--clear"])
        // Saved with a line of the person's own, outside the blocks: kept as a backup, and no
        // heading in it is said to be written over.
        try open.replacingOccurrences(of: "\n## ", with: "\nA line of my own.\n\n## ", options: [], range: open.range(of: "\n## "))
            .write(to: trip.journal.appendingPathComponent(day + ".md"), atomically: true, encoding: .utf8)
        let out = try trip.run(["ingest", "DIR"]).stdout
        #expect(out.contains(".edited-") && !out.contains("was written over"), "\(out)")
        // A heading written over before a rename: the rename's own export says it, with the
        // backup, as an ingest would.
        let page = try trip.text(day + ".md")
        let heading = try #require(page.range(of: "\n## ")).upperBound
        try (String(page[..<heading]) + "Breakfast by the river" + String(page[page[heading...].firstIndex(of: "\n")!...]))
            .write(to: trip.journal.appendingPathComponent(day + ".md"), atomically: true, encoding: .utf8)
        let renamed = try trip.run(["rename", "DIR", place, "--", "Hotel Bar"]).stdout
        #expect(renamed.contains(".edited-") && renamed.contains("was written over (\"Breakfast by the river\")"), "\(renamed)")
    }

    @Test("Another folder's catalog or output folder is refused with nothing changed; a folder moved or copied takes both along")
    func anotherFoldersCatalog() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let own = trip.folder.resolvingSymlinksInPath().path
        let catalog = trip.temp.url.appendingPathComponent("trip.sqlite").path
        let cp = { (from: URL, to: URL) throws in #expect(try CommandRun.run(URL(fileURLWithPath: "/bin/cp"), ["-a", from.path, to.path]).status == 0) }
        // Another folder that holds one day of the trip: 11 of the 58 files the trip's scan finds.
        let other = trip.temp.url.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try cp(trip.folder.appendingPathComponent("2025-06-11 Sintra"), other.appendingPathComponent("2025-06-11 Sintra"))
        #expect(try trip.run(["ingest", "DIR", "--catalog", catalog]).stdout.contains(": 58 files scanned"))
        let pages = try FileManager.default.contentsOfDirectory(atPath: trip.journal.path).sorted()
        let visits = try trip.run(["places", "DIR", "--catalog", catalog, "--json"]).stdout

        // The other folder with the trip's catalog: refused by every command that writes, the
        // catalog and both folders as they were.
        let sentence = "The catalog at \(catalog) is the catalog of \(own), which is still there, and \(other.path) lacks 47 of the 58 of its files "
            + "looked for (by name and size): it is not \(other.path)'s catalog. Used for \(other.path), \(own)'s photos, visits and places would leave it, "
            + "and its journal would be written over \(other.path)'s. Nothing was changed."
        for command in [["ingest"], ["export"], ["tag", "IMG_0031.JPG", "--at", "40,-3"], ["rename", "p1", "Elsewhere"]] {
            let refused = try trip.run([command[0], other.path] + command.dropFirst() + ["--catalog", catalog], expecting: 1)
            #expect(refused.stderr.contains(sentence), "\(command): \(refused.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["2025-06-11 Sintra"])
        #expect(try trip.run(["places", "DIR", "--catalog", catalog, "--json"]).stdout == visits)
        let again = try trip.run(["ingest", "DIR", "--catalog", catalog]).stdout
        #expect(again.contains("0 new, 0 changed, 58 unchanged, 0 moved, 0 removed") && !again.contains("it was the catalog"), "\(again)")

        // A folder of the same names whose files differ (another camera's numbering) is no copy.
        let impostor = trip.temp.url.appendingPathComponent("impostor")
        try cp(trip.folder, impostor)
        for case let relative as String in FileManager.default.enumerator(atPath: impostor.path)! where relative.hasSuffix(".JPG") {
            let handle = try FileHandle(forWritingTo: impostor.appendingPathComponent(relative))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0]))
            try handle.close()
        }
        #expect(try trip.run(["ingest", impostor.path, "--catalog", catalog], expecting: 1).stderr.contains("is not \(impostor.path)'s catalog"))
        // The folder gone (a disk not mounted): no other folder takes its catalog either.
        let away = trip.temp.url.appendingPathComponent("away")
        try FileManager.default.moveItem(at: trip.folder, to: away)
        let unmounted = try trip.run(["ingest", other.path, "--catalog", catalog], expecting: 1).stderr
        #expect(unmounted.contains("is the catalog of \(own), which is not there now (on a disk not mounted?), and \(other.path) lacks 47 of the 58"), "\(unmounted)")
        try FileManager.default.moveItem(at: away, to: trip.folder)

        // The folder moved: its catalog follows it, and says so once; nothing is read again.
        let moved = trip.temp.url.appendingPathComponent("trip-moved")
        let shared = trip.temp.url.appendingPathComponent("shared")
        try FileManager.default.moveItem(at: trip.folder, to: moved)
        let followed = try CommandRun.geotrip(["ingest", moved.path, "--catalog", catalog, "--out", shared.path])
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout.contains("0 new, 0 changed, 58 unchanged, 0 moved, 0 removed"), "\(followed.stdout)")
        #expect(followed.stdout.contains("Catalog: \(catalog) (it was the catalog of \(own), moved or copied here: it follows \(moved.path) now)"),
                "\(followed.stdout)")
        #expect(!(try CommandRun.geotrip(["ingest", moved.path, "--catalog", catalog]).stdout.contains("it was the catalog")))
        let owner = moved.resolvingSymlinksInPath().path
        let ownerText = try String(contentsOf: shared.appendingPathComponent(".geotrip-folder"), encoding: .utf8)
        #expect(ownerText.contains("\"folder\":\"" + owner.replacingOccurrences(of: "/", with: "\\/") + "\"") && ownerText.hasSuffix("}\n"), "\(ownerText)")

        // A copy of the folder and of its catalog (`cp -a` of a library): the catalog follows the
        // copy, whose photos are all there, but the --out it remembers holds the moved folder's
        // journal: refused, the journal untouched, and the catalog too (it still names the
        // folder it was made for). With the owner file deleted, taken.
        let copy = trip.temp.url.appendingPathComponent("trip-copy"), copyCatalog = trip.temp.url.appendingPathComponent("copy.sqlite").path
        try cp(moved, copy)
        try cp(URL(fileURLWithPath: catalog), URL(fileURLWithPath: copyCatalog))
        let listing = try FileManager.default.subpathsOfDirectory(atPath: shared.path).sorted()
        let stamp = try FileManager.default.attributesOfItem(atPath: shared.appendingPathComponent("trip.geojson").path)[.modificationDate] as? Date
        let taken = try CommandRun.geotrip(["ingest", copy.path, "--catalog", copyCatalog, "--visit-radius", "1"])
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("The output folder \(shared.path) holds the journal and map of \(owner), which is still there, "
            + "not of \(copy.path): geotrip does not write one folder's outputs over another's"), "\(taken.stderr)")
        #expect(taken.stderr.contains("delete \(shared.appendingPathComponent(".geotrip-folder").path) and run again"), "\(taken.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: shared.path).sorted() == listing)
        #expect(try FileManager.default.attributesOfItem(atPath: shared.appendingPathComponent("trip.geojson").path)[.modificationDate] as? Date == stamp)
        // Given, it is refused too, and not remembered; so from a folder that holds the output
        // folder (its outputs are not the moved folder's own copied along).
        #expect(try CommandRun.geotrip(["export", copy.path, "--catalog", copyCatalog, "--out", shared.path]).stderr.contains("holds the journal and map of"))
        // tag and rename, which write the catalog before the outputs, are refused before either.
        for command in [["tag", "IMG_0031.JPG", "--at", "40,-3"], ["rename", "p1", "Elsewhere"]] {
            let refused = try CommandRun.geotrip([command[0], copy.path] + command.dropFirst() + ["--catalog", copyCatalog])
            #expect(refused.status == 1 && refused.stderr.contains("holds the journal and map of \(owner)"), "\(command): \(refused.stderr)")
        }
        let parent = try CommandRun.geotrip(["ingest", trip.temp.path, "--out", shared.path])
        #expect(parent.status == 1 && parent.stderr.contains("holds the journal and map of \(owner)"), "\(parent.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent("journal").path).sorted() == pages)
        try FileManager.default.removeItem(at: shared.appendingPathComponent(".geotrip-folder"))
        let copied = try CommandRun.geotrip(["ingest", copy.path, "--catalog", copyCatalog])
        #expect(copied.status == 0 && copied.stdout.contains("0 new, 0 changed, 58 unchanged, 0 moved, 0 removed"), "\(copied.stdout)")
        #expect(copied.stdout.contains("(it was the catalog of \(owner), moved or copied here"), "\(copied.stdout)")
        // The refused run's --visit-radius 1 was not remembered: the trip's visits are as they were.
        #expect(copied.stdout.contains("13 visits at 11 places"), "\(copied.stdout)")
        let named = try JSONSerialization.jsonObject(with: Data(contentsOf: shared.appendingPathComponent(".geotrip-folder"))) as? [String: String]
        #expect(named?["folder"] == copy.resolvingSymlinksInPath().path && named?["catalog"] == URL(fileURLWithPath: copyCatalog).resolvingSymlinksInPath().path)
        // The owner file replaced by a folder stops the run with a sentence.
        try FileManager.default.removeItem(at: shared.appendingPathComponent(".geotrip-folder"))
        try FileManager.default.createDirectory(at: shared.appendingPathComponent(".geotrip-folder"), withIntermediateDirectories: false)
        let odd = try CommandRun.geotrip(["export", copy.path, "--catalog", copyCatalog])
        #expect(odd.status == 1 && odd.stderr.contains(".geotrip-folder in it is a folder, not the file in which geotrip keeps the name of the photo folder"),
                "\(odd.stderr)")
    }

    @Test("a second catalog for a folder, or a copy of its catalog, is refused the folder's journal with nothing changed; a catalog moved or made again takes it")
    func twoCatalogsOneFolder() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let own = trip.folder.appendingPathComponent(".geotrip/catalog.sqlite").resolvingSymlinksInPath().path
        let other = trip.temp.url.appendingPathComponent("other.sqlite").path
        try trip.run(["ingest", "DIR", "--quiet"])
        try trip.write(note: "Words kept.\n", for: "2025-06-10", in: "2025-06-10")
        try trip.run(["export", "DIR", "--quiet"])
        let marker = trip.out.appendingPathComponent(".geotrip-folder")
        let recorded = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: marker)) as? [String: String])
        #expect(recorded["folder"] == trip.folder.resolvingSymlinksInPath().path && recorded["catalog"] == own, "\(recorded)")
        #expect(recorded["catalogIdentity"]?.count == 16, "\(recorded)")
        func listing() throws -> [String: Date] { try trip.times() }
        let before = try listing()
        // Another catalog, and a copy of the folder's own used beside it: each numbers visits
        // its own way (or will), so every command that writes is refused before writing.
        let copy = trip.temp.url.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: own, toPath: copy)
        let writing = [["ingest"], ["export"], ["tag", "IMG_0031.JPG", "--at", "40,-3"], ["rename", "p1", "Elsewhere"]]
        for (catalog, commands) in [(other, writing.prefix(1)), (copy, writing[...])] {
            for command in commands {
                let refused = try trip.run([command[0], "DIR"] + command.dropFirst() + ["--catalog", catalog], expecting: 1)
                #expect(refused.stderr.contains("The output folder \(trip.out.path) holds the journal that the catalog at \(own) writes, and that catalog is still there")
                        && refused.stderr.contains("Nothing was changed."), "\(command): \(refused.stderr)")
            }
        }
        // Nor may it write inside the folder's outputs (a library's trip folder, the journal).
        for inside in [trip.journal, trip.out.appendingPathComponent("trips/2025-06-10")] {
            let refused = try trip.run(["ingest", "DIR", "--catalog", other, "--out", inside.path], expecting: 1)
            #expect(refused.stderr.contains("it is inside \(trip.out.resolvingSymlinksInPath().path), the output folder of \(trip.folder.resolvingSymlinksInPath().path) "
                                            + "(so its .geotrip-folder says), which geotrip writes whole"), "\(refused.stderr)")
        }
        #expect(try listing() == before)
        #expect(!FileManager.default.fileExists(atPath: other))
        // The folder reached through a link (moved, a link left in its place) is the catalog's own.
        let away = trip.temp.url.appendingPathComponent("away")
        try FileManager.default.moveItem(at: trip.folder, to: away)
        try FileManager.default.createSymbolicLink(at: trip.folder, withDestinationURL: away)
        for folder in [trip.folder, away] {
            let run = try CommandRun.geotrip(["export", folder.path])
            #expect(run.status == 0, "\(folder.path): \(run.stderr)")
        }
        try FileManager.default.removeItem(at: trip.folder)
        try FileManager.default.moveItem(at: away, to: trip.folder)
        // Kept apart with --out, the other catalog writes its own journal, and the folder's own
        // goes on as before.
        let apart = trip.temp.url.appendingPathComponent("apart")
        try trip.run(["ingest", "DIR", "--catalog", other, "--out", apart.path, "--quiet"])
        #expect(FileManager.default.fileExists(atPath: apart.appendingPathComponent("journal/2025-06-10.md").path))
        try trip.run(["export", "DIR", "--quiet"])
        #expect(Trip.note("2025-06-10", in: try trip.text("2025-06-10.md")) == "Words kept.\n")
        // The catalog moved (the copy taking the original's place): it takes the journal, notes and all.
        try FileManager.default.removeItem(atPath: own)
        let moved = try trip.run(["export", "DIR", "--catalog", copy])
        #expect(Trip.note("2025-06-10", in: try trip.text("2025-06-10.md")) == "Words kept.\n", "\(moved.stdout)")
        #expect((try JSONSerialization.jsonObject(with: Data(contentsOf: marker)) as? [String: String])?["catalog"]
                == URL(fileURLWithPath: copy).resolvingSymlinksInPath().path)
        // A catalog made again in the folder, the old one gone: taken too.
        try FileManager.default.removeItem(atPath: copy)
        try trip.run(["ingest", "DIR", "--quiet"])
        #expect(Trip.note("2025-06-10", in: try trip.text("2025-06-10.md")) == "Words kept.\n")
    }

    @Test("Ownership's corners: a folder that never held a catalog's photos takes neither it nor another's outputs, nor reads another's notes")
    func ownershipCorners() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let geotrip = { (arguments: [String]) throws -> CommandRun in try CommandRun.geotrip(arguments) }
        func folder(_ name: String, _ photos: [String]) throws -> URL {
            let url = temp.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for photo in photos { try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent(photo), to: url.appendingPathComponent(photo)) }
            return url
        }
        func note(_ text: String, in output: URL) throws {
            let page = try #require(try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("journal").path).sorted().first { $0.hasSuffix(".md") && $0.count == 13 })
            let url = output.appendingPathComponent("journal/" + page)
            var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            let marker = try #require(lines.firstIndex { $0.hasPrefix("<!-- notes 20") })
            lines.insert(text, at: marker + 1)
            try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        let r = try folder("R", ["IMG_0031.JPG", "IMG_0032.JPG", "IMG_0033.JPG"]), s = try folder("S", ["IMG_0036.JPG", "IMG_0037.JPG"])
        let rPath = r.resolvingSymlinksInPath().path
        // R's outputs moved into S's default output folder: S, whose catalog never followed R,
        // does not take them (R's own earlier default folder beside proves nothing).
        #expect(try geotrip(["ingest", r.path, "-q"]).status == 0)
        #expect(try geotrip(["ingest", r.path, "--out", s.appendingPathComponent("geotrip").path, "-q"]).status == 0)
        try note("R's words, written in S/geotrip", in: s.appendingPathComponent("geotrip"))
        let taken = try geotrip(["ingest", s.path])
        #expect(taken.status == 1 && taken.stderr.contains("holds the journal and map of \(rPath), which is still there, not of \(s.path)"), "\(taken.stderr)")
        #expect(try geotrip(["export", r.path, "-q"]).status == 0)

        // A folder left for another's (--out back to the default) does not bring that one's notes.
        let p = try folder("P", ["IMG_0038.JPG", "IMG_0039.JPG"]), q = try folder("Q", ["IMG_0040.JPG", "IMG_0041.JPG"])
        let shared = temp.url.appendingPathComponent("O")
        #expect(try geotrip(["ingest", p.path, "--out", shared.path, "-q"]).status == 0)
        try FileManager.default.removeItem(at: shared)
        #expect(try geotrip(["ingest", q.path, "--out", shared.path, "-q"]).status == 0)
        try note("Q's words", in: shared)
        #expect(try geotrip(["export", q.path, "-q"]).status == 0)
        let back = try geotrip(["export", p.path, "--out", "default"])
        #expect(back.status == 0 && !back.stdout.contains("moved here from"), "\(back.stdout)")
        let pPages = try FileManager.default.contentsOfDirectory(atPath: p.appendingPathComponent("geotrip/journal").path)
        for page in pPages { #expect(!(try String(contentsOf: p.appendingPathComponent("geotrip/journal/" + page), encoding: .utf8)).contains("Q's words")) }

        // A catalog whose photos all left its folder, or exactly half of whose files are in
        // another, is not that other's.
        let e = try folder("E", ["IMG_0031.JPG", "IMG_0032.JPG"]), f = try folder("F", ["IMG_0031.JPG"])
        #expect(try geotrip(["ingest", e.path, "-q"]).status == 0)
        let half = try geotrip(["ingest", f.path, "--catalog", e.appendingPathComponent(".geotrip/catalog.sqlite").path])
        #expect(half.status == 1 && half.stderr.contains("lacks 1 of the 2 of its files looked for"), "\(half.stderr)")
        for photo in ["IMG_0031.JPG", "IMG_0032.JPG"] { try FileManager.default.removeItem(at: e.appendingPathComponent(photo)) }
        #expect(try geotrip(["ingest", e.path, "-q"]).status == 0)
        let emptied = try geotrip(["ingest", f.path, "--catalog", e.appendingPathComponent(".geotrip/catalog.sqlite").path])
        #expect(emptied.status == 1 && emptied.stderr.contains("which is still there, and it lists no file present to look for in \(f.path): it is not"), "\(emptied.stderr)")

        // A trip ingested on its own inside a library: its outputs are no photos of the library.
        let library = try folder("L", ["IMG_0040.JPG"])
        try FileManager.default.moveItem(at: r, to: library.appendingPathComponent("R"))
        #expect(try geotrip(["ingest", library.appendingPathComponent("R").path, "--out", "default", "-q"]).status == 0)
        let listed = try geotrip(["ingest", library.path])
        #expect(listed.stdout.contains(": 4 files scanned"), "the library's photo and R's three: \(listed.stdout)")
    }

    @Test("--out: a file or an unwritable place is refused with the catalog untouched; inside the trip folder it is never scanned")
    func outputFolder() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let file = trip.temp.url.appendingPathComponent("a-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let refused = try trip.run(["ingest", "DIR", "--out", file.path], expecting: 1)
        #expect(refused.stderr.contains("is a file, not a folder"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trip.folder.appendingPathComponent(".geotrip/catalog.sqlite").path))

        // The trip folder itself: its thumbnails would be read as photos. Refused, not remembered.
        let itself = try trip.run(["ingest", "DIR", "--out", trip.folder.path], expecting: 1)
        #expect(itself.stderr.contains("it is the trip folder itself") && itself.stderr.contains("nothing was changed"), "\(itself.stderr)")
        // A folder inside the trip holding the person's photos: the scan would pass them over,
        // so refused, the photos kept in the trip.
        let inside = trip.folder.appendingPathComponent("shared/site")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: trip.folder.appendingPathComponent("IMG_0032.JPG"), to: inside.appendingPathComponent("mine.JPG"))
        let among = try trip.run(["ingest", "DIR", "--out", inside.path], expecting: 1)
        #expect(among.stderr.contains("holds a photo or video (shared/site/mine.JPG) that the scan would pass over"), "\(among.stderr)")
        #expect(try trip.run(["ingest", "DIR", "--out", trip.temp.url.appendingPathComponent("elsewhere").path]).stdout.contains(": 59 files scanned"))
        try FileManager.default.removeItem(at: inside.appendingPathComponent("mine.JPG"))
        // Inside the trip folder, with a thumbnail in it (as geotrip's own): skipped by the scan,
        // remembered for the trip.
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("thumbs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: trip.folder.appendingPathComponent("IMG_0032.JPG"), to: inside.appendingPathComponent("thumbs/thumb.JPG"))
        let first = try trip.run(["ingest", "DIR", "--out", inside.path])
        #expect(first.stdout.contains("Ingested \(trip.folder.path) in") && first.stdout.contains(": 58 files scanned"), "\(first.stdout)")
        #expect(FileManager.default.fileExists(atPath: inside.appendingPathComponent("trip.geojson").path))
        #expect(!FileManager.default.fileExists(atPath: trip.out.path))
        let catalog = try Data(contentsOf: trip.folder.appendingPathComponent(".geotrip/catalog.sqlite"))
        let again = try trip.run(["ingest", "DIR"])
        #expect(again.stdout.contains(": 58 files scanned") && again.stdout.contains("0 written"), "\(again.stdout)")

        // Another trip's folder, a folder holding this trip beside another's photos, or one
        // holding a photo folder's catalog: refused before anything is written, the trip's
        // catalog included, so no run of that trip finds its own output folder inside this
        // one's (which it could never write).
        let other = trip.temp.url.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other.appendingPathComponent("day"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: trip.folder.appendingPathComponent("IMG_0032.JPG"), to: other.appendingPathComponent("day/IMG_0032.JPG"))
        let catalogOnly = trip.temp.url.appendingPathComponent("catalog-only/.geotrip")
        try FileManager.default.createDirectory(at: catalogOnly, withIntermediateDirectories: true)
        try Data().write(to: catalogOnly.appendingPathComponent("catalog.sqlite"))
        let tripCatalog = trip.folder.appendingPathComponent(".geotrip/catalog.sqlite")
        try FileManager.default.moveItem(at: tripCatalog, to: trip.temp.url.appendingPathComponent("kept.sqlite"))
        for (out, said) in [(other, "it holds a photo or video (day/IMG_0032.JPG) that is not geotrip's, as another trip's folder does"),
                            (trip.temp.url, "a photo or video (other/day/IMG_0032.JPG) that is not geotrip's nor the trip's"),
                            (catalogOnly.deletingLastPathComponent(), "it holds .geotrip/catalog.sqlite, the catalog of a photo folder")] {
            let listed = try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted()
            let refused = try trip.run(["ingest", "DIR", "--out", out.path], expecting: 1)
            #expect(refused.stderr.contains(said) && refused.stderr.contains("nothing was changed"), "\(out.path): \(refused.stderr)")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted() == listed)
            #expect(!FileManager.default.fileExists(atPath: tripCatalog.path), "\(out.path)")
        }
        try FileManager.default.moveItem(at: trip.temp.url.appendingPathComponent("kept.sqlite"), to: tripCatalog)
        #expect(try trip.run(["ingest", "DIR", "--quiet"]).status == 0)
        #expect(try CommandRun.geotrip(["ingest", other.path, "--quiet"]).status == 0)
        // A folder holding the trip and nothing else of the kind is the trip's own (`Italy/`
        // for `Italy/photos`), and so is one holding the run's own catalog (a read-only photo
        // folder whose catalog is kept with its outputs).
        let italy = trip.temp.url.appendingPathComponent("Italy")
        try FileManager.default.createDirectory(at: italy, withIntermediateDirectories: true)
        let photos = italy.appendingPathComponent("photos")
        try FileManager.default.copyItem(at: trip.folder.appendingPathComponent("2025-06-10 Lisboa"), to: photos)
        let beside = try CommandRun.geotrip(["ingest", photos.path, "--out", italy.path, "--quiet"])
        #expect(beside.status == 0 && FileManager.default.fileExists(atPath: italy.appendingPathComponent("index.html").path), "\(beside.stderr)")
        // Its photos are none of the outputs: a rerun counts the journal, map and GeoJSON alone.
        let besideAgain = try CommandRun.geotrip(["ingest", photos.path])
        #expect(besideAgain.stdout.contains("export: 0 written, 3 unchanged"), "\(besideAgain.stdout)")
        #expect(try CommandRun.geotrip(["export", photos.path]).stdout.contains("0 written, 3 unchanged"))
        let kept = trip.temp.url.appendingPathComponent("kept-with-outputs")
        let withOutputs = try CommandRun.geotrip(["ingest", other.path, "--catalog", kept.appendingPathComponent(".geotrip/catalog.sqlite").path, "--out", kept.path, "--quiet"])
        #expect(withOutputs.status == 0, "\(withOutputs.stderr)")
        #expect(try CommandRun.geotrip(["ingest", other.path, "--catalog", kept.appendingPathComponent(".geotrip/catalog.sqlite").path, "--quiet"]).status == 0)

        // A remembered --out replaced by a bad one: refused, nothing remembered.
        let stillRefused = try trip.run(["export", "DIR", "--out", file.path + "/sub"], expecting: 1)
        #expect(stillRefused.stderr.contains("a-file is a file"), "\(stillRefused.stderr)")
        #expect(try trip.run(["export", "DIR"]).stdout.contains(inside.path))
        _ = catalog

        // 'none', which forgets other settings, is refused here; 'default' goes back to DIR/geotrip, remembered.
        let none = try trip.run(["export", "DIR", "--out", "none"], expecting: 64)
        #expect(none.stderr.contains("'default' for FOLDER/geotrip"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trip.folder.appendingPathComponent("none").path))
        // The run that moves the outputs says where from, and that the old folder is not read again; once.
        let moved = try trip.run(["export", "DIR", "--out", "default"]).stdout
        #expect(moved.contains("(\(trip.out.path))"), "\(moved)")
        #expect(moved.contains("the outputs moved here from \(inside.path): its notes came along. That folder is left as it is, "
            + "and what is written there from now on is not read"), "\(moved)")
        #expect(FileManager.default.fileExists(atPath: trip.out.appendingPathComponent("trip.geojson").path))
        let after = try trip.run(["export", "DIR"]).stdout
        #expect(after.contains("(\(trip.out.path))") && !after.contains("moved here"), "\(after)")

        // The person's own folder named `geotrip` (the default output folder) with photos in it.
        let theirs = try Trip()
        defer { theirs.temp.remove() }
        try FileManager.default.createDirectory(at: theirs.out, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: theirs.folder.appendingPathComponent("IMG_0032.JPG"), to: theirs.out.appendingPathComponent("IMG_0032.JPG"))
        let named = try theirs.run(["ingest", "DIR"], expecting: 1)
        #expect(named.stderr.contains("holds a photo or video (geotrip/IMG_0032.JPG)"), "\(named.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.out.path) == ["IMG_0032.JPG"])
        // As the sentence says, outputs elsewhere: the folder is theirs, and its photo is read.
        let elsewhere = theirs.temp.url.appendingPathComponent("journal-elsewhere")
        #expect(try theirs.run(["ingest", "DIR", "--out", elsewhere.path]).stdout.contains(": 58 files scanned"))
        #expect(try theirs.run(["photos", "DIR"]).stdout.contains("geotrip/IMG_0032.JPG"))
        // Named through a link, a folder of photos inside the trip is refused all the same.
        let site = theirs.folder.appendingPathComponent("site"), link = theirs.temp.url.appendingPathComponent("site-link")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: theirs.folder.appendingPathComponent("IMG_0031.JPG"), to: site.appendingPathComponent("mine.JPG"))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: site)
        let linked = try theirs.run(["ingest", "DIR", "--out", link.path], expecting: 1)
        #expect(linked.stderr.contains("holds a photo or video (site/mine.JPG)"), "\(linked.stderr)")
    }

    @Test("trip.geojson as GDAL reads it: a point per visit, a line per leg, and a point per photo with --photos")
    func ogrinfo() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let visits = try trip.visits().count
        func featureCount() throws -> Int? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ogrinfo")
            process.arguments = ["-ro", "-so", "-al", trip.out.appendingPathComponent("trip.geojson").path]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(output)")
            return output.split(separator: "\n").first { $0.hasPrefix("Feature Count: ") }.flatMap { Int($0.dropFirst(15)) }
        }
        #expect(try featureCount() == visits + visits - 1)
        try trip.run(["export", "DIR", "--photos", "-q"])
        let placed = try #require(try JSONSerialization.jsonObject(with: Data(trip.run(["photos", "DIR", "--json"]).stdout.utf8)) as? [[String: Any]])
            .filter { $0["latitude"] is Double }.count
        #expect(try featureCount() == visits + visits - 1 + placed)
    }

    @Test("--lang ko writes the journal's words in Korean; hostile names stay valid YAML and plain text")
    func koreanAndHostileNames() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let places = Array(Set(try trip.visits().filter { $0["localDate"] as? String == "2025-06-10" }.map { $0["placeId"] as! String })).sorted()
        let hostile = ["Café: \"Le Dôme\"", "#1 Bar", "</script><b>x"]
        for (place, name) in zip(places, hostile) { try trip.run(["rename", "DIR", place, name]) }
        try trip.run(["export", "DIR", "--lang", "ko", "-q"])
        let day = try trip.text("2025-06-10.md")
        #expect(day.contains("# 2025년 6월 10일 화요일"), "\(day)")
        #expect(day.contains("포르투갈") && day.contains("사진 "))
        let front = try #require(day.components(separatedBy: "---\n").dropFirst().first)
        // Below the front matter the names are text, never HTML.
        let body = day.components(separatedBy: "---\n").dropFirst(2).joined()
        #expect(body.contains("\\</script\\>\\<b\\>x") && !body.contains("<b>"), "\(body)")
        let yaml = try #require(try Yams.load(yaml: front) as? [String: Any])
        #expect(Set(yaml["places"] as? [String] ?? []).isSuperset(of: hostile.prefix(places.count)))
        #expect(yaml["countries"] as? [String] == ["포르투갈"])
        // Remembered: a plain export keeps Korean.
        try trip.run(["export", "DIR", "-q"])
        #expect(try trip.text("2025-06-10.md") == day)
    }

    @Test("a visit shown beside a zone, whose place is anchored inside it, carries the gazetteer's name, never the person's name for the hidden place")
    func placeNameInsideAZone() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        // An 80 m zone around the Lisbon hotel, smaller than the 150 m place radius; a photo
        // tagged 120 m north of it, outside the zone, joins the hotel's place (helper-69's case).
        try trip.run(["ingest", "DIR", "-q", "--hide-near", "38.7110,-9.1370,80"])
        try trip.run(["tag", "DIR", "2025-06-11 Sintra/IMG_0015.JPG", "--at", "38.71208,-9.1370"])
        let shown = try #require(try trip.visits().first { ($0["photos"] as? [String])?.contains("2025-06-11 Sintra/IMG_0015.JPG") == true })
        let place = try #require(shown["placeId"] as? String)
        #expect(try trip.visits().contains { $0["placeId"] as? String == place && $0["id"] as? String != shown["id"] as? String }, "the hotel's place")
        try trip.run(["rename", "DIR", place, "Our flat (secret)"])
        // The person's own listing names it; nothing shared does.
        #expect(try trip.visits().first { $0["id"] as? String == shown["id"] as? String }?["name"] as? String == "Our flat (secret)")
        let day = try #require(shown["localDate"] as? String)
        for file in ["journal/\(day).md", "index.html", "trip.geojson"] {
            let text = try String(contentsOf: trip.out.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("secret"), "\(file)")
        }
        let page = try trip.text("\(day).md")
        #expect(page.contains(" · Lisbon, Lisboa, Portugal\n"), "\(page)")
    }

    /// `renamedAfter`: the place renamed (or its name cleared) once the note went unplaced,
    /// so the name the note remembers is the place's no longer.
    @Test("a note whose visit is gone, remembered with the person's name for a place, loses that name once the place is made private",
          arguments: [[], ["Hotel Lisboa"], ["--clear"]])
    func goneNoteOfAPlaceMadePrivate(renamedAfter: [String]) throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        // The hotel's place: three visits; the first one's photos are taken away below.
        let visits = try trip.visits()
        let first = try #require(visits.first)
        let id = try #require(first["id"] as? String), place = try #require(first["placeId"] as? String)
        let day = try #require(first["localDate"] as? String)
        let centre = (try #require(first["latitude"] as? Double), try #require(first["longitude"] as? Double))
        #expect(visits.filter { $0["placeId"] as? String == place }.count > 1)
        try trip.run(["rename", "DIR", place, "Our flat Rua Augusta 22"])
        try trip.write(note: "breakfast at home\n", for: id, in: day)
        try trip.run(["export", "DIR", "-q"])
        for photo in first["photos"] as? [String] ?? [] { try FileManager.default.removeItem(at: trip.folder.appendingPathComponent(photo)) }
        try trip.run(["ingest", "DIR", "-q"])
        let before = try trip.text("unplaced-notes.md")
        #expect(before.contains("Our flat Rua Augusta 22") && before.contains("breakfast at home"), "\(before)")
        if !renamedAfter.isEmpty {
            try trip.run(["rename", "DIR", place] + renamedAfter)
            #expect((try trip.text("unplaced-notes.md")).contains("Our flat Rua Augusta 22"))
        }

        try trip.run(["export", "DIR", "-q", "--hide-near", String(format: "%.5f,%.5f", centre.0, centre.1)])
        let after = try trip.text("unplaced-notes.md")
        #expect(after.contains("breakfast at home"))
        #expect(!after.contains("Rua Augusta"), "\(after)")
        try trip.run(["ingest", "DIR", "-q"])
        #expect(!(try trip.text("unplaced-notes.md")).contains("Rua Augusta"))
    }

    @Test("--hide-near keeps the hotel out of trip.geojson and off the journal's coordinates and photo links")
    func hideNear() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        try trip.run(["ingest", "DIR", "-q"])
        let visits = try trip.visits()
        let counts = Dictionary(grouping: visits, by: { $0["placeId"] as! String }).mapValues(\.count)
        let hotel = try #require(counts.max { $0.value < $1.value }?.key)
        let hotelVisit = try #require(visits.first { $0["placeId"] as? String == hotel })
        let zone = "\(hotelVisit["latitude"]!),\(hotelVisit["longitude"]!),300"
        try trip.run(["export", "DIR", "--hide-near", zone, "--photos", "-q"])
        let geojson = try String(contentsOf: trip.out.appendingPathComponent("trip.geojson"), encoding: .utf8)
        for visit in visits where visit["placeId"] as? String == hotel { #expect(!geojson.contains("\"id\":\"\(visit["id"]!)\"")) }
        for path in hotelVisit["photos"] as! [String] { #expect(!geojson.contains(path)) }
        let day = try trip.text("\(hotelVisit["localDate"]!).md")
        #expect(day.contains("Private place"))
        for path in hotelVisit["photos"] as! [String] { #expect(!day.contains((path as NSString).lastPathComponent)) }
        // Remembered, and forgotten with `none`.
        try trip.run(["export", "DIR", "-q"])
        #expect(try String(contentsOf: trip.out.appendingPathComponent("trip.geojson"), encoding: .utf8) == geojson)
        // Another zone given later is added to the first, which stays, and the summary says so.
        let other = try #require(visits.first { $0["placeId"] as? String != hotel && $0["localDate"] as? String != hotelVisit["localDate"] as? String })
        let added = try trip.run(["export", "DIR", "--hide-near", "\(other["latitude"]!),\(other["longitude"]!),100"])
        #expect(added.stdout.contains("kept private from now on (--hide-near): ") && added.stdout.contains("(100 m); 2 zones in all"), "\(added.stdout)")
        let both = try String(contentsOf: trip.out.appendingPathComponent("trip.geojson"), encoding: .utf8)
        for visit in visits where visit["placeId"] as? String == hotel { #expect(!both.contains("\"id\":\"\(visit["id"]!)\"")) }
        #expect(!both.contains("\"id\":\"\(other["id"]!)\""))
        let forgotten = try trip.run(["export", "DIR", "--hide-near", "none"])
        #expect(forgotten.stdout.contains("no longer kept private, as asked (--hide-near): "), "\(forgotten.stdout)")
        #expect(try String(contentsOf: trip.out.appendingPathComponent("trip.geojson"), encoding: .utf8).contains("\"id\":\"\(hotelVisit["id"]!)\""))
    }

    @Test("a library around a trip ingested on its own says the notes in that trip's journal stay there, and names the pages")
    func notesInAnotherTripsJournal() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages(to: "Photos/2025 Iberia")
        let library = trip.deletingLastPathComponent()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q", "--no-thumbnails"]).status == 0)
        // Nothing written in that journal yet: nothing to say.
        let before = try CommandRun.geotrip(["ingest", library.path, "--no-thumbnails"])
        #expect(before.status == 0 && !before.stdout.contains("another geotrip journal"), "\(before.stdout)")
        let page = trip.appendingPathComponent("geotrip/journal/2025-06-11.md")
        var text = try String(contentsOf: page, encoding: .utf8)
        let block = try #require(text.range(of: "<!-- notes 2025-06-11 -->\n"))
        text.insert(contentsOf: "Sintra in the fog.\n", at: block.upperBound)
        try text.write(to: page, atomically: true, encoding: .utf8)
        let after = try CommandRun.geotrip(["ingest", library.path, "--no-thumbnails"])
        #expect(after.stdout.contains("notes in 1 page of another geotrip journal in this folder stay there, not in these pages: "
            + "2025 Iberia/geotrip/journal/2025-06-11.md"), "\(after.stdout)")
        let json = try CommandRun.geotrip(["ingest", library.path, "--no-thumbnails", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let export = try #require(summary["export"] as? [String: Any])
        #expect((export["notesInOtherOutputs"] as? [[String: Any]])?.map { "\($0["folder"]!) \($0["pages"]!)" } == ["2025 Iberia/geotrip [\"journal/2025-06-11.md\"]"],
                "\(export)")
        // The note is where it was written, and in no page of the library's.
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Sintra in the fog."))
        let own = library.appendingPathComponent("geotrip/journal")
        for name in try FileManager.default.contentsOfDirectory(atPath: own.path) {
            #expect(!(try String(contentsOf: own.appendingPathComponent(name), encoding: .utf8)).contains("Sintra in the fog."))
        }
    }

    @Test("the summary says what the map and GeoJSON leave out inside privacy zones, with their figures (a track's too), also on an unchanged rerun")
    func summaryOfSharedFigures() throws {
        let trip = try Trip()
        defer { trip.temp.remove() }
        let plain = try trip.run(["ingest", "DIR", "--no-thumbnails"])
        let visits = try trip.visits()
        #expect(!plain.stdout.contains("privacy zones"), "\(plain.stdout)")
        let hotel = try #require(Dictionary(grouping: visits, by: { $0["placeId"] as! String }).max { $0.value.count < $1.value.count }?.value.first)
        let zone = "\(hotel["latitude"]!),\(hotel["longitude"]!),300"
        /// The clause the GeoJSON's figures make: its visits' points, and its legs' lines
        /// measured point to point (haversine), on the ground and flown apart.
        func clause() throws -> String {
            let geojson = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: trip.out.appendingPathComponent("trip.geojson"))) as? [String: Any])
            let features = geojson["features"] as? [[String: Any]] ?? []
            let shown = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["placeId"] != nil }
            var metres = ["ground": 0.0, "flown": 0.0]
            for feature in features {
                guard let properties = feature["properties"] as? [String: Any], let kind = properties["kind"] as? String,
                      let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "LineString",
                      let line = geometry["coordinates"] as? [[Double]] else { continue }
                for (a, b) in zip(line, line.dropFirst()) {
                    let (la, lb) = (a[1] * .pi / 180, b[1] * .pi / 180), dl = (b[0] - a[0]) * .pi / 180
                    let h = pow(sin((lb - la) / 2), 2) + cos(la) * cos(lb) * pow(sin(dl / 2), 2)
                    metres[kind == "flight" ? "flown" : "ground", default: 0] += 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
                }
            }
            // Thousands grouped with commas, as the summary writes them.
            func grouped(_ value: Double) -> String {
                let digits = String(Int((value / 1000).rounded()))
                return String(digits.reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? ",\($0.element)" : "\($0.element)" }.joined().reversed())
            }
            let (ground, flown) = (grouped(metres["ground"]!), grouped(metres["flown"]!))
            let places = Set(shown.compactMap { $0["placeId"] as? String }).count
            return "; on the map and in the GeoJSON, \(visits.count - shown.count) visits inside privacy zones left out: \(shown.count) visits at \(places) places, "
                + (flown != "0" ? "\(ground) km on the ground and \(flown) km flown" : "\(ground) km") + "\n"
        }
        let hidden = try trip.run(["ingest", "DIR", "--no-thumbnails", "--hide-near", zone])
        let expected = try clause()
        #expect(!expected.contains(": 0 visits") && !expected.contains(", 0 visits inside"))
        #expect(hidden.stdout.contains(expected), "\(hidden.stdout)")
        #expect(hidden.stdout.contains("trip: 5 days (2025-06-10 to 2025-06-14), \(visits.count) visits"))
        // Nothing changed: the stored overview says it again.
        let again = try trip.run(["ingest", "DIR", "--no-thumbnails"])
        #expect(again.stdout.contains(expected), "\(again.stdout)")
        // A track log with a detour 30 km north between each two visits: the map's route, and
        // so the figures, follow it.
        let times = visits.compactMap { visit -> (String, String, Double, Double)? in
            guard let arrival = visit["arrival"] as? String, let departure = visit["departure"] as? String,
                  let latitude = visit["latitude"] as? Double, let longitude = visit["longitude"] as? Double else { return nil }
            return (arrival, departure, latitude, longitude)
        }.sorted { $0.0 < $1.0 }
        var points = ""
        for (index, visit) in times.enumerated() {
            points += "<trkpt lat=\"\(visit.2)\" lon=\"\(visit.3)\"><time>\(visit.0)</time></trkpt>\n"
            points += "<trkpt lat=\"\(visit.2)\" lon=\"\(visit.3)\"><time>\(visit.1)</time></trkpt>\n"
            guard index + 1 < times.count, let from = ISO8601DateFormatter().date(from: String(visit.1.prefix(19)) + "Z"),
                  let to = ISO8601DateFormatter().date(from: String(times[index + 1].0.prefix(19)) + "Z"), to.timeIntervalSince(from) > 120 else { continue }
            let middle = ISO8601DateFormatter().string(from: from.addingTimeInterval(to.timeIntervalSince(from) / 2))
            points += "<trkpt lat=\"\(visit.2 + 0.27)\" lon=\"\(visit.3)\"><time>\(middle)</time></trkpt>\n"
        }
        let gpx = trip.temp.url.appendingPathComponent("detours.gpx")
        try ("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
             + points + "</trkseg></trk></gpx>\n").write(to: gpx, atomically: true, encoding: .utf8)
        let tracked = try trip.run(["ingest", "DIR", "--no-thumbnails", "--track", gpx.path])
        let withTrack = try clause()
        #expect(withTrack != expected, "the route follows the track")
        #expect(tracked.stdout.contains(withTrack), "\(tracked.stdout)")
        // The zone forgotten: the figures are the trip's again.
        try trip.run(["export", "DIR", "--hide-near", "none", "-q"])
        let forgotten = try trip.run(["ingest", "DIR", "--no-thumbnails"])
        #expect(!forgotten.stdout.contains("privacy zones"), "\(forgotten.stdout)")
    }
}
