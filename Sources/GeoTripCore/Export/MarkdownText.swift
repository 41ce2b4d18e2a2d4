import Foundation
import Mustache

/// Text made safe for the journal's Markdown, as the templates' `MARKDOWN` content type: the
/// characters CommonMark could read as markup are backslash-escaped (so a place called
/// `</script><b>x` or `*Bar*` shows as written, and never as HTML), and link targets are
/// percent-encoded (paths with spaces, brackets and non-ASCII letters work in every reader).
struct MarkdownText: MustacheContentType {
    /// The name templates select it by: `{{% CONTENT_TYPE: MARKDOWN }}`.
    static let contentTypeName = "MARKDOWN"

    /// Registers the content type with the template library (once; registering again is harmless).
    static func register() {
        MustacheContentTypes.register(MarkdownText(), named: contentTypeName)
    }

    /// Escapes `text` for Markdown's inline text (headings, list items, link text).
    func escapeText(_ text: String) -> String { Self.escaped(text) }

    /// ASCII punctuation CommonMark gives a meaning inline or at a line's start (`&` for
    /// entities, `<` for HTML, `|` for tables), each after a backslash; line breaks as spaces,
    /// so a name never starts a new block; other control characters (a file name's ESC, which
    /// a terminal showing the page would obey) as U+FFFD.
    static func escaped(_ text: String) -> String {
        // On the UTF-8 bytes: most file names hold `_`, and walking them by Character (grapheme
        // breaking) was a third of a journal line. A line break is always a grapheme of its
        // own but for CR LF, which is one, so this matches `Character.isNewline`; ASCII
        // punctuation before a combining mark is escaped too, which CommonMark reads the same.
        let utf8 = text.utf8
        guard utf8.contains(where: { needsEscape[Int($0)] || $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return text }
        let bytes = Array(utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var at = 0
        while at < bytes.count {
            let byte = bytes[at]
            let newline: Int  // how many bytes the line break at `at` takes; 0 for none
            switch byte {
            case 0x0D where at + 1 < bytes.count && bytes[at + 1] == 0x0A: newline = 2
            case 0x09...0x0D: newline = 1  // a tab too: a space, as in a name renamed
            case 0xC2 where at + 1 < bytes.count && bytes[at + 1] == 0x85: newline = 2  // U+0085
            case 0xE2 where at + 2 < bytes.count && bytes[at + 1] == 0x80 && (bytes[at + 2] == 0xA8 || bytes[at + 2] == 0xA9):
                newline = 3  // U+2028, U+2029
            default: newline = 0
            }
            if newline > 0 {
                out.append(UInt8(ascii: " "))
                at += newline
                continue
            }
            // C0 controls and DEL; C1 controls (U+0080 to U+009F, but for U+0085 above).
            let control = byte < 0x20 || byte == 0x7F ? 1 : byte == 0xC2 && at + 1 < bytes.count && (0x80...0x9F).contains(bytes[at + 1]) ? 2 : 0
            if control > 0 {
                out += [0xEF, 0xBF, 0xBD]
                at += control
                continue
            }
            if needsEscape[Int(byte)] { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
            at += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` read as Markdown's inline text: a backslash before ASCII punctuation is taken
    /// away (CommonMark's escapes, which `escaped` writes), so a heading a person edited gives
    /// back the name it shows (`Tom \& Jerry` is `Tom & Jerry`).
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                escaping = false
                if !asciiPunctuation.contains(scalar) { out.append("\\") }
            } else if scalar == "\\" {
                escaping = true
                continue
            }
            out.append(scalar)
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// What CommonMark lets a backslash escape.
    private static let asciiPunctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)

    /// The ASCII bytes `escaped` puts a backslash before.
    private static let needsEscape: [Bool] = (0..<256).map { "\\`*_[]<>#!|&~".utf8.contains(UInt8($0)) }

    /// A relative path as a link target: each segment percent-encoded except RFC 3986's
    /// unreserved characters, segments joined by `/`.
    static func linkTarget(_ path: String) -> String {
        // On the UTF-8 bytes: Foundation's addingPercentEncoding costs more than the rest of a
        // journal line on Linux.
        linkTarget(bytes: path.utf8)
    }

    /// `linkTarget` of a path's bytes as the file system has them: a name that is not UTF-8
    /// (`FolderScanner.rawBytes`) is linked by its own bytes.
    static func linkTarget(bytes: some Collection<UInt8>) -> String {
        // Each byte becomes at most three: written into the string's own storage, no array
        // in between.
        String(unsafeUninitializedCapacity: bytes.count * 3) { buffer in
            var count = 0
            for byte in bytes {
                if byte == UInt8(ascii: "/") || unreserved[Int(byte)] {
                    buffer[count] = byte
                    count += 1
                } else {
                    buffer[count] = UInt8(ascii: "%")
                    buffer[count + 1] = hexDigits[Int(byte >> 4)]
                    buffer[count + 2] = hexDigits[Int(byte & 0x0F)]
                    count += 3
                }
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986's unreserved characters, by byte.
    private static let unreserved: [Bool] = (0..<256).map {
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8.contains(UInt8($0))
    }

    /// A fenced code block holding `code`, with a fence longer than any run of backticks in it.
    static func codeBlock(_ code: String, language: String) -> String {
        var longest = 0, run = 0
        for character in code {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + language + "\n" + code + "\n" + fence + "\n"
    }

    /// `text` as one word for a POSIX shell: single-quoted, with each `'` written `'\''`
    /// (`shellQuoted(bytes:)`).
    static func shellQuoted(_ text: String) -> String {
        // Text is UTF-8 already: only a control character (or one that reorders the line)
        // takes it the long way.
        guard text.unicodeScalars.contains(where: \.reordersOrBreaksLines) else {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return shellQuoted(bytes: Array(text.utf8))
    }

    /// An absolute path as one word for a POSIX shell (`shellQuoted(bytes:)`), the part of it
    /// in the home folder `home` written after `~/`, which the shell expands: `~/'Photos/Lisbon'`.
    /// The journal's commands name the trip's folder and photos in full, and a folder shared
    /// as it is should not name the person's home (`/home/alice`).
    static func shellPath(bytes path: [UInt8], home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        var prefix = Array((home ?? "").utf8)
        while prefix.count > 1, prefix.last == UInt8(ascii: "/") { prefix.removeLast() }
        guard prefix.count > 1, prefix.first == UInt8(ascii: "/") else { return shellQuoted(bytes: path) }
        prefix.append(UInt8(ascii: "/"))
        guard path.count > prefix.count, path.starts(with: prefix) else { return shellQuoted(bytes: path) }
        return "~/" + shellQuoted(bytes: Array(path.dropFirst(prefix.count)))
    }

    /// Bytes as one word for a POSIX shell, on one line: single-quoted, with each `'` written
    /// `'\''`; bytes that are not UTF-8, or that hold a control character (a line break in a
    /// file name) or one that reorders the line (`reordersOrBreaksLines`: a terminal would show
    /// the command otherwise than it runs, and geotrip's summary escapes it), as
    /// `"$(printf '%b' '…')"` with those bytes as octal escapes (`\0351`),
    /// which every POSIX shell reads (dash too, unlike `$'…'`). A line break written as it is
    /// would put a line of the name on a line of its own in the journal, where it could read
    /// as one of geotrip's markers. (Command substitution drops line breaks at the end: a
    /// name ending in one is not reached this way.)
    static func shellQuoted(bytes: [UInt8]) -> String {
        let text = String(validating: bytes, as: UTF8.self)
        if let text, !text.unicodeScalars.contains(where: \.reordersOrBreaksLines) {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        func escape(_ byte: UInt8, keeping: Bool) -> [UInt8] {
            switch byte {
            case UInt8(ascii: "\\"): return Array("\\\\".utf8)
            case UInt8(ascii: "'"): return Array("'\\''".utf8)
            case 0x20..<0x7F: return [byte]
            case 0x80... where keeping: return [byte]  // part of a character: kept as it is
            default: return Array(String(format: "\\0%03o", byte).utf8)
            }
        }
        var escaped: [UInt8] = []
        if let text {
            for scalar in text.unicodeScalars {
                for byte in String(scalar).utf8 { escaped += escape(byte, keeping: !scalar.reordersOrBreaksLines) }
            }
        } else {
            for byte in bytes { escaped += escape(byte, keeping: false) }
        }
        return "\"$(printf '%b' '" + String(decoding: escaped, as: UTF8.self) + "')\""
    }
}
