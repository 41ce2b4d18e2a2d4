/// geotrip's version, as `--version` prints it and the online namer's User-Agent sends it.
public enum GeoTripVersion {
    /// The released version.
    public static let current = "0.1.0"
}
