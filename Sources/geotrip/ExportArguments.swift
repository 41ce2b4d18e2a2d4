import ArgumentParser
import Foundation
import GeoTripCore

/// The export's options, shared by `ingest` and `export`; all remembered for the trip.
struct ExportArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Where the outputs go: the journal, trip.geojson, the trip map (index.html) and its thumbnails (default: FOLDER/geotrip; remembered; 'default' goes back to it).", valueName: "path"),
            completion: .directory)
    var out: String?

    /// `--out` for the trip at `folder`: 'default' is its default folder.
    func outputFolder(for folder: String) -> String? {
        out == "default" ? OutputFolder(folder: folder, outputFolder: nil).path : out
    }

    @Option(name: .customLong("hide-near"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Keep a private place out of everything shared: LAT,LON[,RADIUS metres, default 500] (repeatable; remembered, "
                               + "and added to the zones remembered; 'none' forgets those).",
                               valueName: "lat,lon[,radius]"))
    var hideNear: [String] = []

    @Flag(inversion: .prefixedNo, help: "Add a point per photo to trip.geojson (remembered).")
    var photos: Bool?

    @Option(help: ArgumentHelp("An online tile layer the map offers besides its own, such as https://tile.example.org/{z}/{x}/{y}.png "
                               + "(remembered; 'none' forgets it). Needs --tiles-attribution.", valueName: "url-template"))
    var tiles: String?

    @Option(name: .customLong("tiles-attribution"), help: ArgumentHelp("The tile provider's credit, shown on the map.", valueName: "text"))
    var tilesAttribution: String?

    @Flag(inversion: .prefixedNo, help: "Make thumbnails for the journal and the map (default; remembered).")
    var thumbnails: Bool?

    @Option(parsing: .unconditional, help: ArgumentHelp("Where home is, for a folder of many trips: LAT,LON (remembered; 'auto', the default, finds it as the place of "
                               + "most nights). Giving it makes the folder a library of trips.", valueName: "lat,lon|auto"))
    var home: String?

    @Flag(name: .customLong("hide-home"), inversion: .prefixedNo,
          help: "Keep home (500 m around it) out of everything shared, as --hide-near does (default; remembered).")
    var hideHome: Bool?

    /// The home given: nil keeps the remembered one, `.some(nil)` finds it again.
    var homePoint: Coordinate?? {
        guard let home else { return nil }
        if home == "auto" { return .some(nil) }
        return .some(PrivacyZones.Zone(parsing: home).map(\.centre))
    }

    /// The tile layer given: nil keeps the remembered one, `.some(nil)` forgets it.
    var tileLayer: TripMapInput.Tiles?? {
        guard let tiles else { return nil }
        if tiles == "none" { return .some(nil) }
        return .some(TripMapInput.Tiles(urlTemplate: tiles, attribution: tilesAttribution ?? ""))
    }

    /// The zones given, added to the remembered ones (`none` forgets those first), or nil to
    /// keep the remembered ones as they are.
    var privacy: PrivacyZones.Change? {
        guard !hideNear.isEmpty else { return nil }
        return PrivacyZones.Change(forgetting: hideNear.contains("none"),
                                   adding: hideNear.filter { $0 != "none" }.compactMap(PrivacyZones.Zone.init(parsing:)))
    }

    func validate() throws {
        for zone in hideNear where zone != "none" && PrivacyZones.Zone(parsing: zone) == nil {
            throw ValidationError("--hide-near \(zone) is not LAT,LON[,RADIUS]: give degrees such as 38.7139,-9.1394 and, if you like, metres from "
                                  + "\(Int(PrivacyZones.radiusRange.lowerBound)) to \(Int(PrivacyZones.radiusRange.upperBound)) (default 500).")
        }
        if let home, home != "auto" {
            guard home.split(separator: ",").count == 2, PrivacyZones.Zone(parsing: home) != nil else {
                throw ValidationError("--home \(home) is not LAT,LON: give degrees such as 52.3702,4.8952, or 'auto' to find home from the nights.")
            }
            // As `tag --at`: what devices write without a fix, never a position.
            if let centre = PrivacyZones.Zone(parsing: home)?.centre, centre.latitude == 0, centre.longitude == 0 {
                throw ValidationError("--home \(home): 0,0 is what devices write when they have no fix, not a home: give your home's own coordinates, or 'auto'.")
            }
        }
        if let out, out.isEmpty { throw ValidationError("--out is empty: give a folder.") }
        if tilesAttribution != nil, tiles == "none" {
            throw ValidationError("--tiles none forgets the tile layer with its credit: leave --tiles-attribution out.")
        }
        if tilesAttribution != nil, tiles == nil {
            // Alone it would be passed over: the credit is remembered with its tiles.
            throw ValidationError("--tiles-attribution goes with --tiles: give the tile address again with the new credit "
                                  + "(`geotrip export FOLDER --tiles URL --tiles-attribution TEXT`).")
        }
        if out == "none" {
            // Other options forget a setting with 'none'; the outputs always go somewhere.
            throw ValidationError("--out none: the journal and map are always written somewhere; give a folder, or 'default' for FOLDER/geotrip "
                                  + "(a folder really named none: --out ./none).")
        }
        if let tiles, tiles != "none" {
            let scheme = URL(string: tiles.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))?.scheme
            guard scheme == "https" || scheme == "http", tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}") || tiles.contains("{-y}") else {
                throw ValidationError("--tiles \(tiles) is not a tile URL template: give an http(s) address with {z}, {x} and {y} (or {-y}, "
                                      + "rows counted from the south), such as https://tile.example.org/{z}/{x}/{y}.png.")
            }
            // The map's tile layer (Leaflet) fills these alone; any other stops every tile with
            // an error in the page.
            let filled: Set<String> = ["{z}", "{x}", "{y}", "{-y}", "{s}", "{r}"]
            if let other = tiles.matches(of: /\{[^}]*\}/).map({ String($0.output) }).first(where: { !filled.contains($0) }) {
                throw ValidationError("--tiles: the map cannot fill \(other) in \(tiles); it fills {z}, {x}, {y} (or {-y}), {s} (a subdomain) and {r} "
                                      + "(@2x on sharp screens). Write a key or a style into the address itself.")
            }
            guard let tilesAttribution, !tilesAttribution.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--tiles needs --tiles-attribution: the credit the tile provider asks for, such as \"© Example Maps, © OpenStreetMap contributors\".")
            }
        }
    }
}
