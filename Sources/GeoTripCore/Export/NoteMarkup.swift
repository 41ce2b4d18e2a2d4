import CMarkGFM
import Foundation
import Synchronization

/// A note's Markdown as the trip map shows it: formatted, as the person wrote it in the
/// journal, and never as markup of its own. GitHub's CommonMark parser (`cmark-gfm`, with its
/// strikethrough, autolink, table and task-list extensions) reads it; before it is rendered,
/// the tree is made safe and fit for the page:
/// - HTML the note holds (`<b>`, `<script>`) becomes text, shown as written, but for its
///   comments, which are left out (`withoutComments`);
/// - a link or image whose address is not `http`, `https` or `mailto` (an image may also be a
///   `data:image/png`, `jpeg`, `gif` or `webp`) loses its address and keeps its words (a
///   `javascript:` link is words, not a link);
/// - a relative address was written from the journal's day page, so it is made relative to
///   the map's folder (`journal/` before it; `#part` on the day's page); one naming another
///   host (`//host/x`) is refused like a scheme.
/// Line breaks are kept as the person made them (`CMARK_OPT_HARDBREAKS`); `~` alone does not
/// strike (`~3 km`); footnotes are off, since many notes share one page.
enum NoteMarkup {
    /// The HTML of `markdown`, written on the journal page `page` (a file name in `folder`,
    /// the journal's folder relative to the map: `journal/`).
    static func html(_ markdown: String, folder: String, page: String) -> String {
        _ = registered
        // Bidirectional embeddings, overrides and isolates turn the text after them around
        // (`\u{202E}evil` reads "live"): the map shows a note's words in their own order; the
        // journal keeps them as written.
        var markdown = markdown
        if markdown.unicodeScalars.contains(where: \.isBidiControl) {
            markdown = String(String.UnicodeScalarView(markdown.unicodeScalars.filter { !$0.isBidiControl }))
        }
        markdown = withoutComments(markdown)
        guard markdown.utf8.count <= longestFormatted else { return plain(markdown) }
        return oneAtATime.withLock { _ in render(markdown, folder: folder, page: page) }
    }

    /// `markdown` without its HTML comments (`<!-- door code 4711 -->`), as Markdown previews
    /// (GitHub, Obsidian, VS Code) hide them and people keep private remarks in them: what the
    /// map shows and the GeoJSON carries. As CommonMark reads them: a comment that opens a line
    /// (up to three spaces in) runs to its `-->`, or to the note's end; one inside a line is a
    /// comment only when its `-->` comes before the paragraph ends (a blank line), else its
    /// `<!--` is text; in code (a fenced or indented block, a `` `code` `` span) it is code. A
    /// line that held only comments goes with them.
    static func withoutComments(_ markdown: String) -> String {
        guard markdown.contains("<!--") else { return markdown }
        // Lines with their endings (`\r\n` is one Character to Swift).
        var lines: [(text: Substring, end: Substring)] = []
        var start = markdown.startIndex
        while start < markdown.endIndex {
            let end = markdown[start...].firstIndex { $0 == "\n" || $0 == "\r\n" } ?? markdown.endIndex
            let next = end < markdown.endIndex ? markdown.index(after: end) : end
            lines.append((markdown[start..<end], markdown[end..<next]))
            start = next
        }
        func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
        /// Whether `-->` comes after `from` in line `index`, or in the lines after it before a blank one.
        func closes(_ index: Int, after from: Substring.Index) -> Bool {
            if lines[index].text[from...].contains("-->") { return true }
            for later in lines[(index + 1)...] {
                if isBlank(later.text) { return false }
                if later.text.contains("-->") { return true }
            }
            return false
        }
        var kept = ""
        var fence: (mark: Character, length: Int)?
        var inComment = false, inIndentedCode = false, previousBlank = true
        for (index, (line, end)) in lines.enumerated() {
            defer { previousBlank = isBlank(line) }
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if !inComment, fence == nil {
                // Indented code: four spaces (or a tab) in, after a blank line or more code.
                let indented = indent >= 4 || line.first == "\t"
                if indented && (previousBlank || inIndentedCode) && !isBlank(line) { inIndentedCode = true }
                else if !isBlank(line) { inIndentedCode = false }
                if inIndentedCode { kept += line + end; continue }
            }
            if !inComment, indent <= 3, let mark = body.first, mark == "`" || mark == "~" {
                let run = body.prefix { $0 == mark }.count
                if let open = fence {
                    if mark == open.mark, run >= open.length, body.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\t" }) { fence = nil }
                    kept += line + end
                    continue
                }
                if run >= 3, mark == "~" || !body.dropFirst(run).contains("`") {
                    fence = (mark, run)
                    kept += line + end
                    continue
                }
            }
            if fence != nil { kept += line + end; continue }
            // Outside code blocks: comments cut out, code spans passed over.
            var out = Substring(), rest = line
            while !rest.isEmpty {
                if inComment {
                    guard let close = rest.range(of: "-->") else { rest = ""; break }
                    rest = rest[close.upperBound...]
                    inComment = false
                } else if rest.first == "`" {
                    let run = rest.prefix { $0 == "`" }
                    let after = rest.dropFirst(run.count)
                    if let close = after.range(of: run) {
                        out += rest[..<close.upperBound]
                        rest = rest[close.upperBound...]
                    } else {
                        out += run
                        rest = after
                    }
                } else if rest.hasPrefix("<!--") {
                    // Opening its line, a comment block (closed or not); inside one, a comment
                    // only when closed before the paragraph ends.
                    let opensLine = out.allSatisfy { $0 == " " } && out.count <= 3
                    if opensLine || closes(index, after: rest.index(rest.startIndex, offsetBy: 4)) {
                        inComment = true
                        rest = rest.dropFirst(4)
                    } else {
                        out += rest.prefix(4)
                        rest = rest.dropFirst(4)
                    }
                } else {
                    out.append(rest.removeFirst())
                }
            }
            if out.count != line.count && isBlank(out) { continue }
            kept += out + end
        }
        return kept
    }

    /// 64 KiB: a note longer than this (a diary pasted whole) is shown as plain text, its
    /// lines kept. cmark-gfm 0.29's inline parser takes time that grows with the square of a
    /// paragraph's length for some texts (emphasis and links on every line of one long
    /// paragraph): 16,000 such lines took 9 s, on every run that wrote the map.
    static let longestFormatted = 64 * 1024

    /// `text` escaped, each line break kept.
    static func plain(_ text: String) -> String {
        "<p>" + TripMapPage.html(text).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "<br />\n") + "</p>\n"
    }

    /// cmark-gfm 0.29 turns its extensions' special characters on and off in tables shared by
    /// every parser (`cmark_manage_extensions_special_characters`: a parse that finishes takes
    /// `~` out while another still reads it), so notes are parsed one at a time. They are small.
    private static let oneAtATime = Mutex(())

    private static func render(_ markdown: String, folder: String, page: String) -> String {
        let options = CMARK_OPT_HARDBREAKS | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        guard let parser = cmark_parser_new(options) else { return TripMapPage.html(markdown) }
        defer { cmark_parser_free(parser) }
        // GitHub's table extension takes time that grows with the square of a row's cells: a
        // line of thousands of `|` (no table has so many columns) took seconds on every run.
        let tables = !markdown.utf8.split(separator: UInt8(ascii: "\n")).contains { line in line.lazy.filter { $0 == UInt8(ascii: "|") }.count > 256 }
        for name in ["autolink", "strikethrough", "tasklist"] + (tables ? ["table"] : []) {
            if let extensionPointer = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, extensionPointer) }
        }
        var text = markdown
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { if let start = $0.baseAddress { cmark_parser_feed(parser, start, $0.count) } }
        }
        guard let root = cmark_parser_finish(parser) else { return TripMapPage.html(markdown) }
        defer { cmark_node_free(root) }
        makeSafe(root, folder: folder, page: page)
        guard let rendered = cmark_render_html(root, options, cmark_parser_get_syntax_extensions(parser)) else {
            return TripMapPage.html(markdown)
        }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// The extensions are found by name in a registry that is filled once, before any parser.
    private static let registered: Void = cmark_gfm_core_extensions_ensure_registered()

    /// The changes to `root`'s tree, made once it is walked (a node is changed after the walk
    /// has left it, as `cmark_iter` requires).
    private static func makeSafe(_ root: OpaquePointer, folder: String, page: String) {
        var html: [OpaquePointer] = [], unlinked: [OpaquePointer] = []
        guard let walk = cmark_iter_new(root) else { return }
        while case let event = cmark_iter_next(walk), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(walk) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                html.append(node)
            case CMARK_NODE_HEADING:
                // Under the page's own headings: a note sits below its day's h3, so its `#` is h4.
                cmark_node_set_heading_level(node, min(6, cmark_node_get_heading_level(node) + 3))
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if let address = address(url, image: cmark_node_get_type(node) == CMARK_NODE_IMAGE, folder: folder, page: page) {
                    if address != url { cmark_node_set_url(node, address) }
                } else {
                    unlinked.append(node)
                }
            default:
                break
            }
        }
        cmark_iter_free(walk)
        for node in html { asText(node) }
        // Innermost first: unwrapping an image frees what it holds, a link within it included.
        for node in unlinked.reversed() { unwrap(node) }
    }

    /// An HTML block or inline HTML as the text it is: a paragraph of its lines (each break
    /// kept, as the person's line breaks are), or its words in line.
    private static func asText(_ node: OpaquePointer) {
        let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        if cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK {
            guard let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) else { return }
            let lines = (literal.hasSuffix("\n") ? String(literal.dropLast()) : literal).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                if index > 0, let lineBreak = cmark_node_new(CMARK_NODE_LINEBREAK) { cmark_node_append_child(paragraph, lineBreak) }
                guard let text = cmark_node_new(CMARK_NODE_TEXT) else { continue }
                cmark_node_set_literal(text, String(line))
                cmark_node_append_child(paragraph, text)
            }
            cmark_node_replace(node, paragraph)
        } else {
            guard let text = cmark_node_new(CMARK_NODE_TEXT) else { return }
            cmark_node_set_literal(text, literal)
            cmark_node_replace(node, text)
        }
        cmark_node_free(node)
    }

    /// A link or image without its address: a link's words stay where it was; an image's
    /// description becomes its text.
    private static func unwrap(_ node: OpaquePointer) {
        if cmark_node_get_type(node) == CMARK_NODE_IMAGE {
            var words = ""
            if let walk = cmark_iter_new(node) {
                while case let event = cmark_iter_next(walk), event != CMARK_EVENT_DONE {
                    if event == CMARK_EVENT_ENTER, let child = cmark_iter_get_node(walk), let literal = cmark_node_get_literal(child) {
                        words += String(cString: literal)
                    }
                }
                cmark_iter_free(walk)
            }
            guard let text = cmark_node_new(CMARK_NODE_TEXT) else { return }
            cmark_node_set_literal(text, words)
            cmark_node_replace(node, text)
        } else {
            while let child = cmark_node_first_child(node) {
                cmark_node_unlink(child)
                cmark_node_insert_before(node, child)
            }
            cmark_node_unlink(node)
        }
        cmark_node_free(node)
    }

    /// The address the page uses for `url`, or nil when it may not be one: `http`, `https`
    /// and `mailto` as they are (an image: `http`, `https` and the four image `data:` types),
    /// an absolute path as it is, a relative one from the journal's folder. Another host
    /// (`//host`), any other scheme (`javascript:`, `file:`, `data:text/html`) and an address
    /// holding a control character (which a browser drops before it reads the scheme) are
    /// refused.
    static func address(_ url: String, image: Bool, folder: String, page: String) -> String? {
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        if let scheme = scheme(of: url) {
            switch scheme {
            case "http", "https": return url
            case "mailto": return image ? nil : url
            case "data":
                guard image else { return nil }
                let kinds = ["data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;",
                             "data:image/png,", "data:image/jpeg,", "data:image/gif,", "data:image/webp,"]
                return kinds.contains(where: { url.lowercased().hasPrefix($0) }) ? url : nil
            default: return nil
            }
        }
        if url.isEmpty { return nil }
        // `//host/x` (or with backslashes, which a browser reads as slashes) names another
        // host: from a page opened from the disk, a file share that loads without a click.
        let start = url.prefix(2)
        if start.count == 2, start.allSatisfy({ $0 == "/" || $0 == "\\" }) { return nil }
        if url.hasPrefix("#") { return folder + page + url }
        if url.hasPrefix("/") || url.hasPrefix("\\") { return url }
        return folder + url
    }

    /// The scheme of `url` in lower case (RFC 3986: a letter, then letters, digits, `+`, `-`
    /// or `.`, up to the first `:`), or nil for a relative address (a colon after anything
    /// else, as in `Day 2: Sintra.md`, belongs to the path, as a browser reads it).
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let name = url.utf8[..<colon]
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = name.first, isLetter(first),
              name.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        return String(url[..<colon]).lowercased()
    }
}
