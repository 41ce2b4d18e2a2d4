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
    /// so a name never starts a new block.
    static func escaped(_ text: String) -> String {
        // Most names need nothing: answered without building a new string.
        guard text.utf8.contains(where: { needsEscape[Int($0)] || (0x0A...0x0D).contains($0) || $0 >= 0xC2 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isNewline {
                out.append(" ")
            } else {
                if let ascii = character.asciiValue, needsEscape[Int(ascii)] { out.append("\\") }
                out.append(character)
            }
        }
        return out
    }

    /// The ASCII bytes `escaped` puts a backslash before.
    private static let needsEscape: [Bool] = (0..<256).map { "\\`*_[]<>#!|&~".utf8.contains(UInt8($0)) }

    /// A relative path as a link target: each segment percent-encoded except RFC 3986's
    /// unreserved characters, segments joined by `/`.
    static func linkTarget(_ path: String) -> String {
        // On the UTF-8 bytes: Foundation's addingPercentEncoding costs more than the rest of a
        // journal line on Linux.
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") || unreserved[Int(byte)] {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

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

    /// `text` as one word for a POSIX shell: single-quoted, with each `'` written `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
