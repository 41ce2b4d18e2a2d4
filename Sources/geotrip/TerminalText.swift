extension String {
    /// The text with every control character (C0, DEL and C1, newlines and escape sequences
    /// included, and the bidirectional and line-breaking format characters) written as `%XX` of
    /// its UTF-8 bytes, the spelling already used for names that
    /// are not UTF-8: a file name can hold any byte but `/`, and printed raw it could move the
    /// cursor, recolour the terminal or split a row of a listing. JSON output is not escaped
    /// this way; its encoder escapes control characters itself.
    var terminalSafe: String {
        guard unicodeScalars.contains(where: \.reordersOrBreaksLines) else { return self }
        var safe = ""
        for scalar in unicodeScalars {
            if scalar.reordersOrBreaksLines {
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
