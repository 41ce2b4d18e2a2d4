import GeoTripCore

/// The human-readable end-of-run summary of `geotrip ingest`.
enum SummaryText {
    static func render(_ s: IngestSummary, folder: String) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var lines = [
            "Ingested \(folder) in \(String(format: "%.2f", s.seconds)) s: \(plural(s.scanned, "file")) scanned",
            "  \(s.new) new, \(s.changed) changed, \(s.unchanged) unchanged, \(s.moved) moved, \(s.removed) removed",
            "  \(plural(s.withGPS + s.withoutGPS, "photo")): \(s.withGPS) with GPS, \(s.withoutGPS) without; "
                + "\(s.skipped) skipped, \(plural(s.errors, "error"))",
        ]
        if let r = s.resolution {
            func list(_ counts: [String: Int]) -> String {
                guard !counts.isEmpty else { return "none" }
                // Largest first; equal counts by name, so the line reads the same on every run.
                return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            }
            lines.append("  times: \(list(r.timeSources)); positions: \(list(r.locationSources))" + trackPoints(r))
        }
        if let trip = s.trip, let first = trip.days.first, let last = trip.days.last {
            lines.append("  trip: \(plural(trip.days.count, "day")) (\(first) to \(last)), \(plural(trip.visits, "visit")) at "
                         + "\(plural(trip.places, "place")) in \(plural(trip.countries.count, "country").replacingOccurrences(of: "countrys", with: "countries"))"
                         + " (\(trip.countries.joined(separator: ", "))), \(Int(trip.distanceKilometres.rounded())) km")
        }
        if s.sidecarsWritten > 0 { lines.append("  \(plural(s.sidecarsWritten, "XMP sidecar")) written") }
        if s.diagnosticCount > 0 {
            lines.append("\(plural(s.diagnosticCount, "problem")) found in this run:")
            lines += s.diagnostics.map { "  \($0.path): \($0.message)" }
            if s.diagnosticCount > s.diagnostics.count {
                lines.append("  … and \(s.diagnosticCount - s.diagnostics.count) more: `geotrip photos \(folder) --json` lists them all")
            }
        }
        lines.append("Catalog: \(s.catalog)")
        return lines.joined(separator: "\n")
    }

    /// " (12,340 track points; 3 dropped: 2 at 0,0, 1 too fast)", or "" when no track gave a point.
    static func trackPoints(_ r: ResolutionSummary) -> String {
        let d = r.trackPointsDropped
        guard r.trackPoints > 0 || d.total > 0 else { return "" }
        let kept = "\(grouped(r.trackPoints)) track \(r.trackPoints == 1 ? "point" : "points")"
        guard d.total > 0 else { return " (\(kept))" }
        let reasons = [(d.untimed, "without a time"), (d.invalid, "with an invalid position"),
                       (d.nullIsland, "at 0,0"), (d.tooFast, "too fast")]
            .filter { $0.0 > 0 }.map { "\(grouped($0.0)) \($0.1)" }
        return " (\(kept); \(grouped(d.total)) dropped: \(reasons.joined(separator: ", ")))"
    }

    /// 12340 as "12,340", the same in every locale.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (n < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
