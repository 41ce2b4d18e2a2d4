import GeoTripCore

/// The human-readable end-of-run summary of `geotrip ingest`.
enum SummaryText {
    static func render(_ s: IngestSummary, folder: String) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var lines = [
            "Ingested \(folder.terminalSafe) in \(String(format: "%.2f", s.seconds)) s: \(plural(s.scanned, "file")) scanned",
            "  \(s.new) new, \(s.changed) changed, \(s.unchanged) unchanged, \(s.moved) moved, \(s.removed) removed",
            "  \(plural(s.withGPS + s.withoutGPS, "photo")): \(s.withGPS) with GPS, \(s.withoutGPS) without; "
                + "\(s.skipped) skipped, \(plural(s.errors, "error"))",
        ]
        if let r = s.resolution {
            func list(_ counts: [String: Int]) -> String {
                counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            }
            lines.append("  times: \(list(r.timeSources)); positions: \(list(r.locationSources))"
                         + (r.trackPoints > 0 ? " (\(r.trackPoints) track points)" : ""))
        }
        if let trip = s.trip, let first = trip.days.first, let last = trip.days.last {
            lines.append("  trip: \(plural(trip.days.count, "day")) (\(first) to \(last)), \(plural(trip.visits, "visit")) at "
                         + "\(plural(trip.places, "place")) in \(plural(trip.countries.count, "country").replacingOccurrences(of: "countrys", with: "countries"))"
                         + " (\(trip.countries.joined(separator: ", "))), \(Int(trip.distanceKilometres.rounded())) km")
        }
        if s.sidecarsWritten > 0 { lines.append("  \(plural(s.sidecarsWritten, "XMP sidecar")) written") }
        if s.diagnosticCount > 0 {
            lines.append("\(plural(s.diagnosticCount, "problem")) found in this run:")
            lines += s.diagnostics.map { "  \($0.path.terminalSafe): \($0.message.terminalSafe)" }
            if s.diagnosticCount > s.diagnostics.count {
                lines.append("  … and \(s.diagnosticCount - s.diagnostics.count) more: `geotrip photos \(folder.terminalSafe) --json` lists them all")
            }
        }
        lines.append("Catalog: \(s.catalog.terminalSafe)")
        return lines.joined(separator: "\n")
    }
}
