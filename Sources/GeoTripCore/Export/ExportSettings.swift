/// The export's settings remembered for the trip: `--out`, `--hide-near` and `--photos`.
public struct ExportSettings: Sendable, Equatable, Codable {
    /// `--out`: the output folder as an absolute path; nil for `DIR/geotrip/`.
    public var outputFolder: String?
    /// `--hide-near`: places kept out of everything shared.
    public var privacy = PrivacyZones()
    /// `--photos`: a GeoJSON point per photo besides the visits and the route.
    public var photoPoints = false

    /// Creates settings.
    public init(outputFolder: String? = nil, privacy: PrivacyZones = PrivacyZones(), photoPoints: Bool = false) {
        self.outputFolder = outputFolder
        self.privacy = privacy
        self.photoPoints = photoPoints
    }

    private enum CodingKeys: String, CodingKey { case outputFolder, privacy, photoPoints }

    /// Decodes settings, missing keys as their defaults (an older geotrip stored fewer).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        outputFolder = try c.decodeIfPresent(String.self, forKey: .outputFolder)
        privacy = try c.decodeIfPresent(PrivacyZones.self, forKey: .privacy) ?? PrivacyZones()
        photoPoints = try c.decodeIfPresent(Bool.self, forKey: .photoPoints) ?? false
    }
}
