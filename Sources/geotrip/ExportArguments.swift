import ArgumentParser
import GeoTripCore

/// The export's options, shared by `ingest` and `export`; all remembered for the trip.
struct ExportArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Where the journal and trip.geojson go (default: FOLDER/geotrip; remembered).", valueName: "path"),
            completion: .directory)
    var out: String?

    @Option(name: .customLong("hide-near"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Keep a private place out of everything shared: LAT,LON[,RADIUS metres, default 500] (repeatable; remembered; 'none' forgets them).",
                               valueName: "lat,lon[,radius]"))
    var hideNear: [String] = []

    @Flag(inversion: .prefixedNo, help: "Add a point per photo to trip.geojson (remembered).")
    var photos: Bool?

    /// The zones given, or nil to keep the remembered ones; `none` gives an empty set.
    var privacy: PrivacyZones? {
        guard !hideNear.isEmpty else { return nil }
        return PrivacyZones(hideNear.filter { $0 != "none" }.compactMap(PrivacyZones.Zone.init(parsing:)))
    }

    func validate() throws {
        for zone in hideNear where zone != "none" && PrivacyZones.Zone(parsing: zone) == nil {
            throw ValidationError("--hide-near \(zone) is not LAT,LON[,RADIUS]: give degrees such as 38.7139,-9.1394 and, if you like, metres from "
                                  + "\(Int(PrivacyZones.radiusRange.lowerBound)) to \(Int(PrivacyZones.radiusRange.upperBound)) (default 500).")
        }
        if let out, out.isEmpty { throw ValidationError("--out is empty: give a folder.") }
    }
}
