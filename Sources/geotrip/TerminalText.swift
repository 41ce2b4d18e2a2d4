extension String {
    /// The text with every control character (C0, DEL and C1, newlines and escape sequences
    /// included, and the bidirectional and line-breaking format characters) written as `%XX` of
    /// its UTF-8 bytes, the spelling already used for names that
    /// are not UTF-8: a file name can hold any byte but `/`, and printed raw it could move the
    /// cursor, recolour the terminal or split a row of a listing. JSON output is not escaped
    /// this way; its encoder escapes control characters itself.
    var terminalSafe: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var safe = ""
        for scalar in unicodeScalars {
            if scalar.isControl {
                for byte in String(scalar).utf8 { safe += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    private func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (Unicode's general category Cc), and the invisible
    /// characters that reorder or break a line on screen: bidirectional marks, embeddings,
    /// overrides and isolates (`rlo\u{202E}gpj.JPG` shows as `rlogpj.JPG` reversed), and the
    /// line and paragraph separators.
    fileprivate var isControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x200E || value == 0x200F
            || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
