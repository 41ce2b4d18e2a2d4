import Foundation

/// Leaflet's script and style sheet from Debian's `libjs-leaflet`, and its marker-grouping
/// plugin from `libjs-leaflet.markercluster` (system dependencies, as libexif is), ready to
/// inline: the page must work from `file://` with no network, so nothing is linked. The images
/// the style sheet names are inlined as `data:` URIs.
public struct LeafletAssets: Sendable, Equatable {
    /// Where Debian installs Leaflet and its plugins.
    public static let debianFolder = URL(fileURLWithPath: "/usr/share/javascript/leaflet")

    /// The script: Debian's readable `leaflet.js` without its comments and indentation.
    /// Debian's own `leaflet.min.js` (rebuilt with terser) is not used: opening a marker's popup
    /// with it overflows the stack in Chromium, where the readable build works.
    public var script: String
    /// The style sheet with its `url(images/…)` references replaced by `data:` URIs.
    public var style: String
    /// Leaflet.markercluster's readable `leaflet.markercluster.js`, without its comments: it
    /// gathers markers that would overlap into one, opened by zooming in (or, for markers on
    /// one spot, by fanning them out).
    public var clusterScript: String
    /// Its animation rules (`MarkerCluster.css`); the groups' look is the page's own.
    public var clusterStyle: String

    /// Reads Leaflet from `folder`; a missing or unreadable file is `.leafletMissing`.
    public static func load(from folder: URL = debianFolder) throws(GeoTripError) -> LeafletAssets {
        func read(_ name: String) throws(GeoTripError) -> Data {
            let url = folder.appendingPathComponent(name)
            do { return try Data(contentsOf: url) } catch { throw .leafletMissing(path: url.path) }
        }
        guard var script = String(data: try read("leaflet.js"), encoding: .utf8),
              var style = String(data: try read("leaflet.css"), encoding: .utf8),
              var clusterScript = String(data: try read("leaflet.markercluster.js"), encoding: .utf8),
              var clusterStyle = String(data: try read("MarkerCluster.css"), encoding: .utf8) else {
            throw .leafletMissing(path: folder.path)
        }
        script = Self.withoutComments(script)
        style = Self.withoutSourceMap(style)
        clusterScript = Self.withoutComments(clusterScript)
        clusterStyle = Self.withoutSourceMap(clusterStyle)
        // A script that could close its own element would break the page; Leaflet has none, and
        // a later package that did would be refused here rather than shipped broken.
        guard [script, clusterScript].allSatisfy({ $0.range(of: "</script", options: .caseInsensitive) == nil }),
              [style, clusterStyle].allSatisfy({ $0.range(of: "</style", options: .caseInsensitive) == nil }) else {
            throw .leafletMissing(path: folder.path)
        }
        for name in ["layers.png", "layers-2x.png", "marker-icon.png", "marker-icon-2x.png", "marker-shadow.png"] {
            let reference = "url(images/\(name))"
            guard style.contains(reference) else { continue }
            let data = try read("images/\(name)")
            style = style.replacingOccurrences(of: reference, with: "url(data:image/png;base64,\(data.base64EncodedString()))")
        }
        return LeafletAssets(script: script, style: style, clusterScript: clusterScript, clusterStyle: clusterStyle)
    }

    /// Drops whole-line comments (`// …` and `/* … */` blocks that start a line), blank lines
    /// and indentation, which halves Leaflet. Line breaks (`\n`, `\r\n` or `\r`) become `\n`
    /// and stay where they were, so automatic semicolon insertion reads the script exactly as
    /// before; a comment that shares a line with code is left as it is. Done on the UTF-8
    /// bytes: every byte it looks for is ASCII, and going by characters took 30 ms of every
    /// export that renders a map.
    static func withoutComments(_ script: String) -> String {
        let bytes = Array(script.utf8)
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var inBlock = false
        var lineStart = 0
        func skipBlanks(_ index: Int, _ end: Int) -> Int {
            var index = index
            while index < end, bytes[index] == space || bytes[index] == tab { index += 1 }
            return index
        }
        // Just past the first `*/` in from..<end, or nil.
        func blockEnd(_ from: Int, _ end: Int) -> Int? {
            var index = from
            while index + 1 < end {
                if bytes[index] == star, bytes[index + 1] == slash { return index + 2 }
                index += 1
            }
            return nil
        }
        while lineStart <= bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != newline, bytes[end] != cr { end += 1 }
            var next = end + 1
            if end < bytes.count, bytes[end] == cr, end + 1 < bytes.count, bytes[end + 1] == newline { next += 1 }
            defer { lineStart = next }
            var text = skipBlanks(lineStart, end)
            if inBlock {
                guard let after = blockEnd(text, end) else { continue }
                inBlock = false
                text = skipBlanks(after, end)
            } else if text + 1 < end, bytes[text] == slash, bytes[text + 1] == star {
                guard let after = blockEnd(text + 2, end) else {
                    inBlock = true
                    continue
                }
                text = skipBlanks(after, end)
            }
            if text == end || (text + 1 < end && bytes[text] == slash && bytes[text + 1] == slash) { continue }
            if !kept.isEmpty { kept.append(newline) }
            kept.append(contentsOf: bytes[text..<end])
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// Drops the `sourceMappingURL` comment line: the map file is not inlined, and a browser
    /// with its developer tools open would try to fetch it.
    private static func withoutSourceMap(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .filter { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !(trimmed.hasPrefix("//# sourceMappingURL=") || trimmed.hasPrefix("/*# sourceMappingURL="))
            }
            .joined(separator: "\n")
    }
}
