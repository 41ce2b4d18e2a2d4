extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (Unicode's general category Cc), and the invisible
    /// characters that reorder or break a line on screen: bidirectional marks, embeddings,
    /// overrides and isolates (`rlo\u{202E}gpj.JPG` shows as `rlogpj.JPG` reversed), and the
    /// line and paragraph separators. The terminal shows them escaped; a place's name from a
    /// service drops them, since an override left open turns the rest of a journal's heading.
    public var reordersOrBreaksLines: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x200E || value == 0x200F || value == 0x2028 || value == 0x2029
            || isBidiControl
    }
}

extension Unicode.Scalar {
    /// The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
    /// which reorder the text after them; the marks (U+200E, U+200F) only nudge what is
    /// beside them.
    var isBidiControl: Bool { (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) }
}
