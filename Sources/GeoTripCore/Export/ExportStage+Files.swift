import Foundation

/// The export's files: the journal's pages read back, written, retired and kept as backups,
/// the output folders' listings, and the paths and links the pages write.
extension ExportStage {
    /// The file names of the photos at `paths` whose names are not UTF-8, by catalogued path
    /// (`FolderScanner.rawBytes`): only paths with a `%` are looked at.
    static func rawNames(_ paths: some Sequence<String>, in tripFolder: String) -> [String: [UInt8]] {
        var names: [String: [UInt8]] = [:]
        for path in paths where path.utf8.contains(UInt8(ascii: "%")) {
            if let raw = FolderScanner.rawBytes(of: path, in: tripFolder) { names[path] = raw }
        }
        return names
    }

    /// The sidecar beside the photo at `path` (absolute, its bytes) that geotrip reads as
    /// Lightroom's: its name without the extension, then `.xmp`.
    static func sidecarPath(of path: [UInt8]) -> [UInt8] {
        let slash = path.lastIndex(of: UInt8(ascii: "/")) ?? -1
        guard let dot = path.lastIndex(of: UInt8(ascii: ".")), dot > slash + 1 else { return path + Array(".xmp".utf8) }
        return Array(path[..<dot]) + Array(".xmp".utf8)
    }

    /// That sidecar, `.xmp` or `.XMP`, when there is anything by that name: a link counts as
    /// it is, unfollowed, so the command edits it (and fails on a dangling one) rather than
    /// writing a new file wherever it points.
    static func existingSidecar(of path: [UInt8]) -> [UInt8]? {
        let xmp = sidecarPath(of: path)
        return [xmp, xmp.dropLast(3) + Array("XMP".utf8)].first(where: FolderScanner.entryExists)
    }

    /// An output folder as `listing(of:)` finds it.
    struct Listing {
        /// One fingerprint of every file's path, size and time, and of the links.
        var key: String
        /// How many files are documents (not thumbnails).
        var documents: Int
        var files: [String: FileStamp]
        /// The symbolic links in it, relative, sorted.
        var links: [String]
    }

    /// Every file under `folder` with its size and modification time (a journal page's change
    /// time too), as one fingerprint, and how many of them are documents (not thumbnails).
    /// With `documentsOnly`, thumbnails are left out (the folder's own and each trip's): a
    /// library has hundreds of thousands, and they are checked whenever their trip is rendered;
    /// their folders' times are in the key.
    static func listing(of folder: String, documentsOnly: Bool = false, leavingOut tripFolder: String? = nil) -> Listing {
        // The scan's own walk (readdir + fstatat): Foundation's enumerator costs half a second
        // for a trip's 10,000 thumbnails.
        var scanner = FolderScanner(root: folder)
        scanner.collectsLinks = true
        // The trip folder, when the output folder holds it (`--out Italy` for `Italy/photos`):
        // its photos are none of the outputs.
        if let tripFolder, let inside = IngestPipeline.relative(tripFolder, inside: folder) { scanner.excludedFolders.insert(inside) }
        let trips = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + tripsFolder))?.filter { !$0.hasPrefix(".") } ?? []
        if documentsOnly {
            scanner.excludedFolders.formUnion([ThumbnailMaker.folderName] + trips.map { tripsFolder + "/" + $0 + "/" + ThumbnailMaker.folderName })
        }
        guard let listing = try? scanner.scan() else { return Listing(key: "", documents: 0, files: [:], links: []) }
        let files = listing.files
        var lines: [UInt8] = []
        // Links are no files geotrip wrote (a page replaced by one is refused on every run that
        // writes its trip, and said): in the key as links, whatever they lead to.
        let links = listing.links.sorted()
        for link in links { lines += Array("\(link) link\n".utf8) }
        let linked = Set(links)
        // The scan skips hidden names; what a stopped run left in a journal folder (a person's
        // save among it: `journalNames`) is in the key, so the run that finds it reads it.
        // So is a folder in a page's place (refused, and said, like a link): the run after it
        // goes writes the page again. A page the scan listed as a file or a link is none.
        let listed = Set(files.lazy.map(\.relativePath).filter { $0.hasSuffix(".md") }).union(linked)
        for journal in [journalFolder] + trips.map({ tripsFolder + "/" + $0 + "/" + journalFolder }) {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + journal)) ?? []).sorted() {
                if name.hasPrefix(".") && OutputFolder.leftoverPage(name) != nil {
                    lines += Array("\(journal)/\(name) hidden\n".utf8)
                } else if name.hasSuffix(".md"), !listed.contains(journal + "/" + name), case var info = stat(),
                          lstat(folder + "/" + journal + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    lines += Array("\(journal)/\(name) folder\n".utf8)
                }
            }
        }
        var documents = 0
        var stamps: [String: FileStamp] = [:]
        stamps.reserveCapacity(files.count)
        for file in files {
            stamps[file.relativePath] = FileStamp(size: file.size, modifiedNanos: file.modifiedNanos)
            let thumbnails = ThumbnailMaker.folderName + "/"
            if !file.relativePath.hasPrefix(thumbnails) && !file.relativePath.contains("/" + thumbnails) && !linked.contains(file.relativePath) {
                documents += 1
            }
            lines += Array("\(file.relativePath) \(file.size) \(file.modifiedNanos)".utf8)
            // A journal page by its change time too, which no one can set: an edit that keeps the
            // page's size and puts its time back (`touch -r`, a sync tool keeping times) makes
            // the folder read. (A link made to the page, or its mode changed, does too: it is read
            // back once, and its new listing kept.)
            var info = stat()
            if isJournalPage(file.relativePath), lstat(folder + "/" + file.relativePath, &info) == 0 {
                lines += Array(" \(Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec))".utf8)
            }
            lines.append(UInt8(ascii: "\n"))
        }
        // The thumbnails' folders by their own times, which a thumbnail added, deleted or
        // renamed moves: one deleted by hand gets its trip written again (and made again)
        // though the thumbnails themselves are not listed.
        for excluded in scanner.excludedFolders.sorted() {
            var info = stat()
            if lstat(folder + "/" + excluded, &info) == 0 { lines += Array("\(excluded)/ \(FileStamp(info).modifiedNanos)\n".utf8) }
        }
        return Listing(key: Fingerprint.of(lines, fileSize: lines.count), documents: documents, files: stamps, links: links)
    }

    /// Whether `path` (relative to an output or trip folder) names a page of a journal
    /// folder: `journal/NAME.md`, a trip's `trips/DAY/journal/NAME.md`.
    public static func isJournalPage(_ path: String) -> Bool {
        path.hasSuffix(".md") && (path.hasPrefix(journalFolder + "/") || path.contains("/" + journalFolder + "/"))
    }

    /// The journal pages of the output folder at `path` (another trip's, inside the folder
    /// ingested: `FolderScanner.Listing.otherOutputFolders`) that hold notes with words, relative
    /// to it: `journal/NAME.md` and a library's `trips/DAY/journal/NAME.md`. Those notes are that
    /// trip's catalog's; this one never reads them, so the summary says where they stay.
    public static func pagesWithNotes(inOutputFolder path: String) -> [String] {
        let manager = FileManager.default
        let trips = ((try? manager.contentsOfDirectory(atPath: path + "/" + tripsFolder)) ?? []).sorted().map { tripsFolder + "/" + $0 + "/" }
        var pages: [String] = []
        for folder in [""] + trips {
            let journal = folder + journalFolder
            for name in ((try? manager.contentsOfDirectory(atPath: path + "/" + journal)) ?? []).sorted() where name.hasSuffix(".md") {
                // A page is a few kilobytes; a file far larger is no page of geotrip's.
                let url = URL(fileURLWithPath: path + "/" + journal + "/" + name)
                guard let size = (try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])), size.isRegularFile == true,
                      (size.fileSize ?? 0) < 16 << 20, let data = try? Data(contentsOf: url) else { continue }
                if JournalDocument(text: String(decoding: data, as: UTF8.self)).blocks.contains(where: \.hasWords) {
                    pages.append(journal + "/" + name)
                }
            }
        }
        return pages
    }

    /// The first of `links` (relative to the output folder `root`) that leads to a folder geotrip
    /// writes in: `journal`, `thumbs`, `trips`, a trip's folder or its `journal` or `thumbs`.
    /// Such a folder's files would be written through the link but listed as nothing, so
    /// pages would never be read back, replaced or removed: the export stops before it writes
    /// anything, and says how to mend it.
    static func linkedOwnFolder(_ links: [String], in root: String) -> String? {
        links.first { link in
            let parts = link.split(separator: "/", omittingEmptySubsequences: false)
            let own = [journalFolder, ThumbnailMaker.folderName]
            let isOwn = parts.count == 1 ? (own + [tripsFolder]).contains(String(parts[0]))
                : parts[0] == tripsFolder && (parts.count == 2 || parts.count == 3 && own.contains(String(parts[2])))
            var info = stat()
            return isOwn && stat(root + "/" + link, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// A day's page: its fingerprint, and its text unless its file already holds it.
    struct RenderedPage: Sendable {
        var fingerprint: String
        var text: String?
    }

    /// The pages of `days`, on every core (a day's page depends on nothing else), in the days'
    /// order; a page that `isWritten` says its file holds (by the day's input key and notes)
    /// is neither made nor rendered.
    static func render(_ days: [Trip.Day], with renderer: JournalRenderer, _ context: JournalRenderer.Context,
                       isWritten: @escaping @Sendable (Trip.Day, String, [String: String]) -> Bool) async throws(GeoTripError) -> [RenderedPage] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (days.count + width - 1) / width)
        do {
            return try await withThrowingTaskGroup(of: (Int, [RenderedPage]).self) { group in
                for (index, start) in stride(from: 0, to: days.count, by: size).enumerated() {
                    let slice = Array(days[start..<min(days.count, start + size)])
                    group.addTask {
                        (index, try slice.map { day throws(GeoTripError) in
                            let key = renderer.inputKey(day, context)
                            if isWritten(day, key, renderer.notes(of: day, context)) { return RenderedPage(fingerprint: key, text: nil) }
                            let page = try renderer.page(day, context, fingerprint: key)
                            return RenderedPage(fingerprint: page.fingerprint, text: renderer.render(page))
                        })
                    }
                }
                var parts: [(Int, [RenderedPage])] = []
                for try await part in group { parts.append(part) }
                return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
            }
        } catch let error as GeoTripError {
            throw error
        } catch {
            throw .catalogRejected(path: "journal", reason: "\(error)")
        }
    }

    /// Brings the outputs in step after `tag` or `rename` changed the trip, with the trip's
    /// remembered settings and language; a failure is the caller's to report, never to stop it
    /// (the change itself is saved, and the next `ingest` or `export` writes the outputs).
    static func refresh(_ catalog: Catalog, folder: String) async -> Result<ExportSummary, GeoTripError> {
        do {
            let settings = try catalog.storedExportSettings()
            let stage = ExportStage(catalog: catalog, folder: folder, thumbnails: MadeThumbnails(tripFolder: folder))
            var summary = try await stage.run(settings: settings, language: try catalog.storedNamingLanguage())
            // A home found for the first time (a photo tagged there) is a zone added.
            try listBackups(catalog, &summary, zonesAdded: nil)
            return .success(summary)
        } catch {
            return .failure(error)
        }
    }

    /// The names in a journal folder, with what a run killed while writing there left taken
    /// away (`OutputFolder.names(in:pages:holdsSave:rescued:)`): a page a person saved in that
    /// moment (anything but an empty file or a page as geotrip wrote it) is put back, or kept
    /// as a backup; the summary lists where (`ExportSummary.rescued`).
    static func journalNames(in folder: String, of output: OutputFolder, _ summary: inout ExportSummary) -> [String] {
        output.names(in: folder, pages: { isDayFile($0) || $0 == unplacedNotesFile || $0 == undatedPhotosFile || $0.hasPrefix("replaced-notes-") },
                     holdsSave: { !$0.isEmpty && !JournalDocument(bytes: $0).isAsWritten }, rescued: &summary.rescued)
    }

    /// The files geotrip writes in a trip's folder, and in a library's.
    static func isOwnFile(_ name: String) -> Bool { name == mapFile || name == geoJSONFile }

    /// `YYYY-MM-DD.md`.
    static func isDayFile(_ name: String) -> Bool {
        name.utf8.count == 13 && name.hasSuffix(".md") && JournalNote.isDay(String(name.prefix(10)))
    }

    /// A journal file read back; nil when missing, or refused (a link: noted, never read through).
    func read(_ relative: String, _ output: OutputFolder, _ summary: inout ExportSummary,
                      withLinks: ((JournalDocument) -> Bool)? = nil) -> JournalDocument? {
        switch output.contents(of: relative) {
        case .success(let bytes?):
            var document = JournalDocument(bytes: bytes)
            if let withLinks, withLinks(document) { document = JournalDocument(bytes: bytes, links: true) }
            document.modifiedNanos = output.stamp(of: relative)?.modifiedNanos
            return document
        case .success(nil): return nil
        case .failure:
            if !summary.refused.contains(relative) { summary.refused.append(relative) }
            return nil
        }
    }

    /// Writes `text` at `relative`, first keeping the file there as a backup when it was edited
    /// outside its notes blocks, or holds words in a block that no note keeps (`notes`, the
    /// run's notes by owner: `dropsWords`), unless its folder's files are as the last export
    /// left them (`asWritten`: then no page holds an edit, whatever notes the catalog moved
    /// since); `replacing` is what was read from it. A journal file
    /// (given with the run's first listing, `listed`) that was saved since that listing is left
    /// as it is (`savedMeanwhile`); returns whether the file was put.
    @discardableResult
    func put(_ text: String, at relative: String, replacing existing: JournalDocument?, keeping notes: [String: String] = [:],
                     keptElsewhere: [String: Set<String>] = [:], asWritten: Bool = false, _ output: OutputFolder, _ now: Date, _ summary: inout ExportSummary,
                     listed: [String: FileStamp]? = nil) throws(GeoTripError) -> Bool {
        if let listed, Self.savedMeanwhile(relative, output, listed: listed) { return false }
        let bytes = Array(text.utf8)
        // What the file must still be when this one replaces it: as first listed (nothing, once
        // kept as a backup). Saved in between, it is left as saved.
        var expecting: FileStamp?? = nil
        if let listed { expecting = .some(listed[relative]) }
        if let existing, !asWritten, !existing.isIntact || Self.dropsWords(existing, keeping: notes, keptElsewhere: keptElsewhere),
           case .success(let current?) = output.contents(of: relative), current != bytes {
            let backup = try output.keepBackup(of: relative, at: now)
            summary.backups.append(backup)
            if !existing.unclosed.isEmpty { summary.unreadBlocks.append(UnreadBlocks(backup: backup, ids: existing.unclosed)) }
            Self.noteHeadings(of: relative, in: current, backup: backup, &summary)
            if expecting != nil { expecting = .some(nil) }
        }
        switch try output.store(bytes, at: relative, expecting: expecting) {
        case .written: summary.written += 1
        case .unchanged: summary.unchanged += 1
        case .refused: if !summary.refused.contains(relative) { summary.refused.append(relative) }
        case .savedMeanwhile: return false
        }
        return true
    }

    /// Whether the file at `relative` was saved since the run's first listing of the output
    /// folder (`listed`): it is there now with another size or time, or was not there then. A
    /// person wrote in it while the export ran, after its notes were gathered: replacing or
    /// removing it now would lose what they wrote, so it is left for this run, and the next
    /// reads it back (its folder's listing is not kept as the export's own: `isAsWritten`).
    static func savedMeanwhile(_ relative: String, _ output: OutputFolder, listed: [String: FileStamp]) -> Bool {
        guard let now = output.stamp(of: relative) else { return false }
        return listed[relative] != now
    }

    /// Takes away a journal file the trip no longer has (its notes were gathered already): removed
    /// when it is as geotrip wrote it, kept as a backup when the person changed it outside its
    /// blocks or it holds words no note keeps (`notes`: `dropsWords`), left as it is when saved
    /// since the run's first listing (`savedMeanwhile`).
    func retire(_ relative: String, document: JournalDocument?, keeping notes: [String: String], keptElsewhere: [String: Set<String>] = [:],
                        asWritten: Bool = false, _ output: OutputFolder, _ now: Date,
                        _ summary: inout ExportSummary, listed: [String: FileStamp]) throws(GeoTripError) {
        guard let document, !Self.savedMeanwhile(relative, output, listed: listed) else { return }
        // No footer and no notes block: a file of the person's own under a page's name (their
        // `2025-06-09.md` for a day before the trip), never one geotrip wrote: left where it is.
        // (A page geotrip must write under that name keeps it as a backup first: `put`.)
        if !asWritten, document.footer == nil, document.blocks.isEmpty, document.unclosed.isEmpty { return }
        if asWritten || document.isIntact && !Self.dropsWords(document, keeping: notes, keptElsewhere: keptElsewhere) {
            // Only the file listed: one saved since, even in the moment before, stays. (A file
            // the run's first listing lacks is not there: `savedMeanwhile` left it otherwise.)
            if let stamp = listed[relative], try output.remove(relative, expecting: stamp) { summary.removed += 1 }
        } else {
            // A day's page whose visits' headings were written over says them as `put` does (a
            // page retired as its day went to another trip's folder, or away). Unreadable now,
            // it is kept all the same; its headings go unsaid.
            let current: [UInt8]?
            if case .success(let bytes?) = output.contents(of: relative) { current = bytes } else { current = nil }
            let backup = try output.keepBackup(of: relative, at: now)
            summary.backups.append(backup)
            if !document.unclosed.isEmpty { summary.unreadBlocks.append(UnreadBlocks(backup: backup, ids: document.unclosed)) }
            if let current { Self.noteHeadings(of: relative, in: current, backup: backup, &summary) }
        }
    }

    /// The visits' headings written over in `bytes`, the page at `relative` kept as `backup`,
    /// noted in `summary` (`ExportStage.namedOver` names them). Only a day's page has visits'
    /// headings (the page of notes whose visit is gone heads each with its own words).
    static func noteHeadings(of relative: String, in bytes: [UInt8], backup: String, _ summary: inout ExportSummary) {
        guard isDayFile(JournalRenderer.fileName(relative)) else { return }
        summary.headingsWrittenOver += JournalDocument.headingsWrittenOver(bytes).map {
            HeadingWrittenOver(backup: backup, visit: $0.visit, place: nil, heading: $0.heading, placeWritten: $0.place)
        }
    }

    /// Writes the copies of `notes` another copy outranked (`JournalNotes.replaced`) to
    /// `journal/replaced-notes-YYYYMMDD-HHMMSS.md` (a backup, never read back); returns its path.
    func keepReplaced(_ notes: [JournalNote], _ output: OutputFolder, _ now: Date) throws(GeoTripError) -> String {
        let relative = output.unusedName(Self.journalFolder + "/replaced-notes-", at: now, extension: "md")
        var text = "# Notes another copy outranked\n\nEach of these notes was written differently in two copies (a page put back from "
            + "a copy, two output folders written in apart, or a block copied into another page), and the latest edit counts. "
            + "The words it outranked are kept here.\n"
        for note in notes {
            text += "\n## \(note.ownerID)\(note.localDate.map { " (\($0))" } ?? "")\n\n" + note.text + (note.text.hasSuffix("\n") ? "" : "\n")
        }
        _ = try output.store(Array(text.utf8), at: relative)
        return relative
    }

    /// Whether replacing or removing `file` would drop words a person wrote: a block with words
    /// that is not the note the run keeps for its owner (`notes`), nor words kept elsewhere
    /// (`keptElsewhere`: `GatheredNotes`). A copy of a note older than the one taken (a folder
    /// no export wrote since), or one of two copies edited apart, is kept in a backup rather
    /// than lost.
    static func dropsWords(_ file: JournalDocument, keeping notes: [String: String], keptElsewhere: [String: Set<String>] = [:]) -> Bool {
        file.blocks.contains { block in block.hasWords && notes[block.id] != block.text && !(keptElsewhere[block.id]?.contains(block.text) ?? false) }
    }

    /// The way from the journal folder to the trip folder (`../..` for `DIR/geotrip/journal`),
    /// both with links resolved, so links work wherever the output folder is.
    func tripFolderLink(from journal: String) -> String {
        let link = OutputFolder.relativePath(from: RealPath.of(journal), to: RealPath.of(folder) + "/x")
        return String(link.dropLast(link == "x" ? 1 : 2))
    }

    /// `geotrip tag 'FOLDER'` (with `--catalog 'PATH'` when the trip's catalog is elsewhere).
    func tagCommand() -> String { command("tag") }

    /// `geotrip VERB 'FOLDER'`, then `--catalog 'PATH'` when the trip's catalog is elsewhere,
    /// then `arguments` as shell words (a `--` among them ends the options: what follows is
    /// read as it is, a name beginning with `-` included).
    func command(_ verb: String, _ arguments: [String] = []) -> String {
        Self.command(verb, arguments, folder: folder, explicitCatalog: explicitCatalog)
    }

    /// `command` for `folder`, with `--catalog` when the catalog is not the folder's own.
    static func command(_ verb: String, _ arguments: [String] = [], folder: String, explicitCatalog: String?) -> String {
        var command = "geotrip \(verb) " + MarkdownText.shellPath(bytes: Array(RealPath.of(folder).utf8))
        if let explicitCatalog { command += " --catalog " + MarkdownText.shellPath(bytes: Array(URL(fileURLWithPath: explicitCatalog).standardizedFileURL.path.utf8)) }
        for argument in arguments {
            let plain = !argument.isEmpty && argument.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            command += " " + (plain ? argument : MarkdownText.shellQuoted(argument))
        }
        return command
    }

    /// The trip's track points, sorted by time, from the `--track` logs it remembers (`paths`).
    /// A log that cannot be read was reported by the resolution stage; the route goes without it.
    func trackPoints(_ paths: [String]) -> [TrackPoint] {
        var points: [TrackPoint] = []
        for path in paths {
            guard let file = try? TrackLog.load(contentsOf: URL(fileURLWithPath: path)) else { continue }
            // The first log's points taken as they are: a copy of a 200 MB log's held both at once.
            if points.isEmpty { points = file.points } else { points += file.points }
        }
        return TrackLog.sortedByTime(points)
    }
}
