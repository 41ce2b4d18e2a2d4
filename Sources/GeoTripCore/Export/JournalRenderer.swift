import Foundation
import Mustache
import Yams

/// Renders the journal's pages from `JournalTemplates`: one Markdown file per day with YAML
/// front matter (emitted by Yams, so any place name stays valid YAML), and the page of notes
/// whose visit is gone. Pure: values in, text out.
struct JournalRenderer: Sendable {
    /// What a day page needs besides the day itself.
    struct Context: Sendable {
        /// The notes by owner id (visit id or day), byte for byte.
        var notes: [String: String]
        /// The trip's photos by path (for ids, positions and thumbnails).
        var photos: PhotosByPath
        /// The video of each Live Photo, by its still's id (the video is in no visit of its own).
        var livePhotoVideos: [Int64: String] = [:]
        /// Places kept out of what is shared.
        var privacy: PrivacyZones
        /// Thumbnails by photo id, relative to the output folder.
        var thumbnails: [Int64: String]
        /// From the journal folder to the trip folder (`../..`), for links to the photos.
        var tripFolderLink: String
        /// The start of the `geotrip tag` command for the day's unplaced photos (quoted folder,
        /// and `--catalog` when it is not the default).
        var tagCommand: String
        /// The file names of photos whose names are not UTF-8, by catalogued path
        /// (`FolderScanner.rawBytes`): they are linked by them.
        var rawNames: [String: [UInt8]] = [:]
    }

    let words: JournalWords
    private let dayTemplate: MustacheTemplate
    private let unplacedTemplate: MustacheTemplate
    private let undatedTemplate: MustacheTemplate

    /// A renderer writing the journal's words in `language`.
    init(language: String) throws(GeoTripError) {
        MarkdownText.register()
        words = JournalWords(language: language)
        do {
            dayTemplate = try MustacheTemplate(string: JournalTemplates.day)
            unplacedTemplate = try MustacheTemplate(string: JournalTemplates.unplacedNotes)
            undatedTemplate = try MustacheTemplate(string: JournalTemplates.undatedPhotos)
        } catch {
            // The templates are part of geotrip: one that does not parse is a bug here.
            throw .catalogRejected(path: "journal templates", reason: "a journal template does not parse: \(error)")
        }
    }

    // MARK: A day

    // The views name their fields for the templates themselves (`MustacheParent`): looking
    // them up by reflection (Mirror) made a 100,000-photo journal take 15 s instead of 1.

    fileprivate struct DayView: MustacheParent {
        var frontMatter: String
        var heading: String
        var dayNotes: String
        var visits: [VisitView]
        var unplaced: UnplacedView?

        func child(named name: String) -> Any? {
            switch name {
            case "frontMatter": frontMatter
            case "heading": heading
            case "dayNotes": dayNotes
            case "visits": visits
            case "unplaced": unplaced
            default: nil
            }
        }
    }

    fileprivate struct VisitView: MustacheParent {
        var time: String
        var place: String
        var photoCount: String
        var coordinates: String?
        /// Its photos' lines, each ending in a newline (`photoLine`).
        var photoLines: String
        var notes: String

        func child(named name: String) -> Any? {
            switch name {
            case "time": time
            case "place": place
            case "photoCount": photoCount
            case "coordinates": coordinates
            case "photoLines": photoLines
            case "notes": notes
            default: nil
            }
        }
    }

    fileprivate struct UnplacedView: MustacheParent {
        var heading: String
        /// Its photos' list items, each ending in a newline.
        var photoLines: String
        var hint: String
        var command: String

        func child(named name: String) -> Any? {
            switch name {
            case "heading": heading
            case "photoLines": photoLines
            case "hint": hint
            case "command": command
            default: nil
            }
        }
    }

    /// A day's page before it is rendered: every value its text shows, as the template reads
    /// them, and the fingerprint of what it was made from (`inputKey`).
    struct DayPage: Sendable {
        fileprivate var view: DayView
        /// The text of each notes block on the page (the day's and each visit's), by owner id.
        var notes: [String: String]
        /// `inputKey` of the day and context it was made from: equal fingerprints render to
        /// equal text.
        var fingerprint: String
    }

    /// The page of `day`.
    func render(_ day: Trip.Day, _ context: Context) throws(GeoTripError) -> String {
        render(try page(day, context))
    }

    /// The text of `page`.
    func render(_ page: DayPage) -> String {
        JournalDocument.withFooter(Self.tidy(dayTemplate.render(page.view)), explanation: words.footer)
    }

    /// The text of each notes block on the page of `day`, by owner id.
    func notes(of day: Trip.Day, _ context: Context) -> [String: String] {
        var notes = [day.date: context.notes[day.date] ?? ""]
        for visit in day.visits { notes[visit.id] = context.notes[visit.id] ?? "" }
        return notes
    }

    /// The fingerprint of everything the page of `day` is made from, taken without making it:
    /// geotrip's version, the template, the words' language and the locale asked for, the
    /// context's links and zones,
    /// the day, each visit's values the page shows, the notes, and for each photo the values
    /// its line shows (format, length, position, thumbnail, Live Photo video). Equal keys make
    /// equal pages (`JournalTests` changes each value in turn). A library trip rendered again
    /// has hundreds of days and a few changed: the others are checked by this key alone, at a
    /// fraction of the cost of making their pages.
    ///
    /// Whatever `page` comes to read must be added here. How the libraries write (Yams,
    /// swift-mustache, the system's locale data) is taken to change only with geotrip's version.
    func inputKey(_ day: Trip.Day, _ context: Context) -> String {
        var key = ExportStage.KeyBytes()
        key.add(GeoTripVersion.current)
        key.add(Int64(ExportStage.outputRevision))
        key.add(JournalTemplates.day)
        key.add(words.language)
        // The locale asked for: dates, weekdays and country names follow it (`fr` and `de`
        // share the English words).
        key.add(words.requested)
        key.add(words.footer)
        key.add(context.tripFolderLink)
        key.add(context.tagCommand)
        key.add(Int64(context.privacy.zones.count))
        for zone in context.privacy.zones { key.add(zone.text) }
        key.add(day.date)
        key.add(context.notes[day.date])
        func add(photo path: String) {
            key.add(path)
            let photo = context.photos[path]
            key.add(photo?.format?.rawValue)
            key.add(photo?.utcTime)
            key.add(photo?.durationSeconds)
            key.add(photo?.coordinate?.latitude)
            key.add(photo?.coordinate?.longitude)
            key.add(photo.flatMap { context.thumbnails[$0.id] })
            key.add(photo.flatMap { context.livePhotoVideos[$0.id] })
            // Linked by its own bytes (a function of the path) or not.
            key.add(context.rawNames[path] == nil ? nil : Int64(1))
        }
        key.add(Int64(day.visits.count))
        for visit in day.visits {
            key.add(visit.id)
            key.add(visit.latitude); key.add(visit.longitude)
            key.add(visit.name); key.add(visit.admin1); key.add(visit.countryCode); key.add(visit.country)
            key.add(visit.localTimeSpan)
            key.add(Int64(visit.photoCount))
            key.add(context.notes[visit.id])
            key.add(Int64(visit.photos.count))
            for path in visit.photos { add(photo: path) }
        }
        key.add(Int64(day.unplacedPhotos.count))
        for path in day.unplacedPhotos { add(photo: path) }
        return Fingerprint.of(key.bytes, fileSize: key.bytes.count)
    }

    /// What the page of `day` shows, ready to render; `fingerprint` is its `inputKey` when the
    /// caller took it already (it costs a pass over the day's photos).
    func page(_ day: Trip.Day, _ context: Context, fingerprint: String? = nil) throws(GeoTripError) -> DayPage {
        var places: [String] = [], countries: [String] = []
        // The photos and videos the page counts, for its front matter as for its visits.
        var pageCount = day.unplacedPhotos.count
        let visits = day.visits.map { visit -> VisitView in
            let hidden = context.privacy.contains(visit.centre)
            let text = context.notes[visit.id] ?? ""
            let place = hidden ? words.privatePlace : placeLine(visit)
            if !hidden {
                if let name = visit.name, !places.contains(name) { places.append(name) }
                if let country = words.countryName(code: visit.countryCode, stored: visit.country), !countries.contains(country) {
                    countries.append(country)
                }
            }
            // Photos taken inside a zone are neither linked nor shown, whatever visit they joined
            // (the visit's times and centre are those of the others: `TripVisit.shared(by:privacy:)`).
            let shown = visit.photos.filter { path in
                !hidden && !(context.photos[path].map(context.privacy.hides) ?? false)
            }
            // What is shown is counted: a photo taken inside a zone is not, nor said to be there.
            let counted = hidden ? visit.photos : shown
            let videos = counted.filter { context.photos[$0]?.format == .video }.count
            let photos = visit.photoCount - (visit.photos.count - counted.count) - videos
            pageCount += photos + videos
            return VisitView(time: visit.localTimeSpan, place: place,
                             photoCount: words.mediaCount(photos: photos, videos: videos),
                             coordinates: hidden ? nil : String(format: "%.5f, %.5f", visit.latitude, visit.longitude),
                             photoLines: shown.map { photoLine($0, context, item: false) }.joined(),
                             notes: JournalDocument.block(id: visit.id, text: text))
        }
        var unplaced: UnplacedView?
        if !day.unplacedPhotos.isEmpty {
            // A path beginning with `-` would be read as an option: `./` keeps it a path.
            let command = context.tagCommand + " " + day.unplacedPhotos.map { MarkdownText.shellQuoted($0.hasPrefix("-") ? "./" + $0 : $0) }
                .joined(separator: " ") + " --at LAT,LON"
            unplaced = UnplacedView(heading: words.unplacedHeading,
                                    photoLines: day.unplacedPhotos.map { photoLine($0, context, item: true) }.joined(),
                                    hint: words.unplacedHint, command: MarkdownText.codeBlock(command, language: "sh"))
        }
        let view = DayView(frontMatter: try frontMatter(date: day.date, places: places, countries: countries, photos: pageCount),
                           heading: words.dayHeading(day.date), dayNotes: JournalDocument.block(id: day.date, text: context.notes[day.date] ?? ""),
                           visits: visits, unplaced: unplaced)
        return DayPage(view: view, notes: notes(of: day, context), fingerprint: fingerprint ?? inputKey(day, context))
    }

    /// `Lisbon, Lisboa, Portugal`: the place's name, its region when it is another name, and
    /// its country in the journal's language.
    private func placeLine(_ visit: TripVisit) -> String {
        var parts = [visit.name ?? words.unnamedPlace]
        if let region = visit.admin1, region != visit.name { parts.append(region) }
        if let country = words.countryName(code: visit.countryCode, stored: visit.country) { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    /// A photo's line: `[![name](thumbnail)](link)`, or `[name](link)` without a thumbnail,
    /// as a list item (`- [name](link)`) for the unplaced photos; a video's kind and length
    /// after it, and a Live Photo's link to its moving part; a newline at the end. Written
    /// here, not in the template: a day page is mostly these lines, and swift-mustache's
    /// lookups for each photo's five values were most of a journal's rendering. Names and
    /// details are escaped as the template's `MARKDOWN` content type escapes them.
    private func photoLine(_ path: String, _ context: Context, item: Bool) -> String {
        let photo = context.photos[path]
        let name = MarkdownText.escaped(Self.fileName(path))
        var line = item ? "- [" : "["
        if !item, let thumbnail = photo.flatMap({ context.thumbnails[$0.id] }) {
            line += "![" + name + "](" + MarkdownText.linkTarget("../" + thumbnail) + ")"
        } else {
            line += name
        }
        line += "](" + link(path, context) + ")"
        if photo?.format == .video { line += " (" + MarkdownText.escaped(words.video(seconds: photo?.durationSeconds)) + ")" }
        if let video = photo.flatMap({ context.livePhotoVideos[$0.id] }) { line += " · [Live Photo](" + link(video, context) + ")" }
        return line + "\n"
    }

    /// The last part of a relative path (`Lisboa/IMG_1.jpg`: `IMG_1.jpg`), without bridging
    /// to NSString for every photo.
    static func fileName(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    private func link(_ path: String, _ context: Context) -> String {
        Self.link(path, context.tripFolderLink, context.rawNames)
    }

    /// The link target of the photo at `path` from the journal folder (`tripFolderLink` leads
    /// to the trip folder): a name that is not UTF-8 (in `rawNames`) by its own bytes.
    static func link(_ path: String, _ tripFolderLink: String, _ rawNames: [String: [UInt8]]) -> String {
        guard let raw = rawNames[path] else { return MarkdownText.linkTarget(tripFolderLink.isEmpty ? path : tripFolderLink + "/" + path) }
        return MarkdownText.linkTarget(bytes: (tripFolderLink.isEmpty ? [] : Array(tripFolderLink.utf8) + [UInt8(ascii: "/")]) + raw)
    }

    /// The YAML front matter Obsidian, Jekyll, Hugo and GitHub read: `date` as a plain YAML
    /// date, the day's places and countries as lists of strings (quoted by Yams whenever a
    /// name would read as something else), and the day's photo count.
    ///
    /// libyaml's emitter (inside Yams) takes characters beyond the Basic Multilingual Plane
    /// for unprintable and writes them as escapes (`"Castle \U0001F3F0"`): valid YAML, but not
    /// what a person renamed their place to. So each such character goes through the emitter
    /// as a private-use character the names do not hold, which it writes as it is, and is put
    /// back afterwards.
    func frontMatter(date: String, places: [String], countries: [String], photos: Int) throws(GeoTripError) -> String {
        var stand = AstralStandIns(places + countries)
        do {
            let node = Node.mapping(Node.Mapping([
                (Node("date"), Node(date, Tag(.timestamp), .plain)),
                (Node("places"), try places.map { stand.replaced($0) }.represented()),
                (Node("countries"), try countries.map { stand.replaced($0) }.represented()),
                (Node("photos"), Node(String(photos), Tag(.int), .plain)),
            ]))
            return stand.restored(try Yams.serialize(node: node, allowUnicode: true, sortKeys: false))
        } catch {
            throw .catalogRejected(path: "journal/\(date).md", reason: "its front matter could not be written: \(error)")
        }
    }

    /// Private-use characters standing in for the characters beyond U+FFFF of some texts, one
    /// each, chosen among those the texts do not hold (so putting them back is exact).
    private struct AstralStandIns {
        private var taken: Set<Unicode.Scalar>
        private var standIns: [Unicode.Scalar: Unicode.Scalar] = [:]
        private var originals: [Unicode.Scalar: Unicode.Scalar] = [:]
        private var next: UInt32 = 0xE000

        init(_ texts: [String]) {
            taken = Set(texts.lazy.flatMap(\.unicodeScalars).filter { (0xE000...0xF8FF).contains($0.value) })
        }

        /// `text` with each character beyond U+FFFF replaced by its stand-in.
        mutating func replaced(_ text: String) -> String {
            guard text.unicodeScalars.contains(where: { $0.value > 0xFFFF }) else { return text }
            var result = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                result.append(scalar.value > 0xFFFF ? standIn(for: scalar) : scalar)
            }
            return String(result)
        }

        private mutating func standIn(for scalar: Unicode.Scalar) -> Unicode.Scalar {
            if let known = standIns[scalar] { return known }
            // The private-use area holds 6,400 characters; past them (names no day has), the
            // character is left to the emitter's escape.
            while next <= 0xF8FF, taken.contains(Unicode.Scalar(next)!) { next += 1 }
            guard next <= 0xF8FF, let candidate = Unicode.Scalar(next) else { return scalar }
            next += 1
            standIns[scalar] = candidate
            originals[candidate] = scalar
            return candidate
        }

        /// `yaml` with every stand-in turned back into its character.
        func restored(_ yaml: String) -> String {
            guard !originals.isEmpty else { return yaml }
            var result = String.UnicodeScalarView()
            for scalar in yaml.unicodeScalars { result.append(originals[scalar] ?? scalar) }
            return String(result)
        }
    }

    // MARK: Notes whose visit is gone

    private struct UnplacedNotesView {
        var title: String
        var intro: String
        var notes: [GoneView]
    }

    private struct GoneView {
        var heading: String
        var block: String
    }

    /// `journal/unplaced-notes.md` for `notes` (in the order given).
    func renderUnplacedNotes(_ notes: [JournalNote]) -> String {
        let view = UnplacedNotesView(title: words.unplacedNotesTitle, intro: words.unplacedNotesIntro, notes: notes.map { note in
            GoneView(heading: words.goneVisit(id: JournalNote.writtenUnder(note.ownerID), place: note.placeName, date: note.localDate),
                     block: JournalDocument.block(id: note.ownerID, text: note.text))
        })
        return JournalDocument.withFooter(Self.tidy(unplacedTemplate.render(view)), explanation: words.footer)
    }

    // MARK: Photos without a date

    private struct UndatedPhotosView: MustacheParent {
        var title: String
        var intro: String
        var photoLines: String
        var hint: String
        var command: String?

        func child(named name: String) -> Any? {
            switch name {
            case "title": title
            case "intro": intro
            case "photoLines": photoLines
            case "hint": hint
            case "command": command
            default: nil
            }
        }
    }

    /// The photo the undated page's command is written for: its path, the sidecar geotrip
    /// reads beside it (Lightroom's `IMG_1.xmp`), and the one there already when there is
    /// one, all absolute, as bytes.
    struct UndatedExample: Sendable {
        var photo: [UInt8]
        var newSidecar: [UInt8]
        var sidecar: [UInt8]?
    }

    /// `journal/undated-photos.md` for `photos` (at least one, in the order given): a link to
    /// each, named by its path (by `rawNames`, as a day's page links), a video with its length,
    /// and the command that writes a date into `example`'s sidecar, or adds it to the sidecar it has. Without
    /// an example the page says what else to do: rename them when some names are not UTF-8
    /// (`namesToRename`: geotrip reads no sidecar beside such a name), else put their cameras'
    /// clocks right (every one has an implausible camera time, which counts over a sidecar's).
    /// `tripFolderLink` leads from the journal folder to the trip folder (`Context`).
    func renderUndatedPhotos(_ photos: [TripPhoto], rawNames: [String: [UInt8]], tripFolderLink: String, example: UndatedExample?,
                             namesToRename: Bool) -> String {
        let lines = photos.map { photo in
            // By its path in the folder: the page lists the whole folder's, and cameras repeat
            // their file names (`DSCF1004.JPG` in three trips' folders).
            var line = "- [" + MarkdownText.escaped(photo.path) + "](" + Self.link(photo.path, tripFolderLink, rawNames) + ")"
            if photo.format == .video { line += " (" + MarkdownText.escaped(words.video(seconds: photo.durationSeconds)) + ")" }
            return line + "\n"
        }
        let date = "'-XMP-exif:DateTimeOriginal=YYYY:MM:DD HH:MM:SS'"
        // The sidecar is named in full (exiftool's `%d` cannot hold a line break); exiftool
        // refuses to write over one that is there: a photo with one gets the date added to it.
        let command = example.map { example in
            example.sidecar.map { "exiftool -overwrite_original " + date + " " + MarkdownText.shellPath(bytes: $0) }
                ?? "exiftool -o " + MarkdownText.shellPath(bytes: example.newSidecar) + " " + date + " " + MarkdownText.shellPath(bytes: example.photo)
        }
        let view = UndatedPhotosView(title: words.undatedTitle, intro: words.undatedIntro, photoLines: lines.joined(),
                                     hint: example != nil ? words.undatedHint : namesToRename ? words.undatedRenameHint : words.undatedClockHint,
                                     command: command.map { MarkdownText.codeBlock($0, language: "sh") })
        return JournalDocument.withFooter(Self.tidy(undatedTemplate.render(view)), explanation: words.rewrittenFooter)
    }

    /// Rendered text with runs of blank lines outside notes blocks made one, and trailing
    /// spaces removed there, so editors that tidy files find nothing to change. Notes blocks
    /// are kept exactly as they are.
    static func tidy(_ text: String) -> String {
        var out: [ArraySlice<UInt8>] = []
        var endOfBlock: [UInt8]?
        var blank = false
        for raw in JournalDocument.lines(Array(text.utf8)) {
            var line = raw.last == UInt8(ascii: "\n") ? raw.dropLast() : raw
            if let end = endOfBlock {
                out.append(line)
                if JournalDocument.content(raw).elementsEqual(end) { endOfBlock = nil }
                blank = false
                continue
            }
            if let (id, tag) = JournalDocument.startMarker(JournalDocument.content(raw)) {
                endOfBlock = Array(JournalDocument.endLine(id: id, tag: tag).utf8)
                out.append(line)
                blank = false
                continue
            }
            while line.last == UInt8(ascii: " ") { line = line.dropLast() }
            if line.isEmpty {
                if blank || out.isEmpty { continue }
                blank = true
            } else {
                blank = false
            }
            out.append(line)
        }
        while out.last?.isEmpty == true && endOfBlock == nil { out.removeLast() }
        return String(decoding: Array(out.joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")], as: UTF8.self)
    }
}
