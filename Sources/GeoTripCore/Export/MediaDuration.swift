/// A video's length as people read it on a player: `0:14`, `3:07`, `1:02:03`.
enum MediaDuration {
    /// Whole seconds, rounded; nil for an unknown, negative or not finite length, and for 0,
    /// which a fragmented file's header gives (older catalogs kept it as read).
    static func text(_ seconds: Double?) -> String? {
        guard let seconds, seconds.isFinite, seconds > 0, seconds < 1e9 else { return nil }
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = total / 60 % 60, rest = total % 60
        let tail = ASCIIDigits.padded(rest, 2)
        return hours > 0 ? "\(hours):" + ASCIIDigits.padded(minutes, 2) + ":" + tail : "\(minutes):" + tail
    }
}
