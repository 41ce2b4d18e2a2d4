/// The export's settings remembered for the trip: `--out`, `--hide-near`, `--photos`,
/// `--tiles` with `--tiles-attribution`, and `--thumbnails`.
public struct ExportSettings: Sendable, Equatable, Codable {
    /// `--out`: the output folder as an absolute path; nil for `DIR/geotrip/`.
    public var outputFolder: String?
    /// `--hide-near`: places kept out of everything shared.
    public var privacy = PrivacyZones()
    /// `--photos`: a GeoJSON point per photo besides the visits and the route.
    public var photoPoints = false
    /// `--tiles URL_TEMPLATE` and `--tiles-attribution TEXT`: an online layer the map offers
    /// besides its own (nil: none).
    public var tiles: TripMapInput.Tiles?
    /// `--thumbnails` (default) or `--no-thumbnails`.
    public var thumbnails = true
    /// `--home LAT,LON`: where home is, for splitting a library into trips; nil finds it from
    /// the nights (`TripSplitting`).
    public var home: Coordinate?
    /// `--hide-home` (default) or `--no-hide-home`: home is a privacy zone like `--hide-near`.
    public var hideHome = true

    /// Creates settings.
    public init(outputFolder: String? = nil, privacy: PrivacyZones = PrivacyZones(), photoPoints: Bool = false) {
        self.outputFolder = outputFolder
        self.privacy = privacy
        self.photoPoints = photoPoints
    }

    private enum CodingKeys: String, CodingKey { case outputFolder, privacy, photoPoints, tilesURL, tilesAttribution, thumbnails, home, hideHome }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(outputFolder, forKey: .outputFolder)
        try c.encode(privacy, forKey: .privacy)
        try c.encode(photoPoints, forKey: .photoPoints)
        try c.encodeIfPresent(tiles?.urlTemplate, forKey: .tilesURL)
        try c.encodeIfPresent(tiles?.attribution, forKey: .tilesAttribution)
        try c.encode(thumbnails, forKey: .thumbnails)
        try c.encodeIfPresent(home, forKey: .home)
        try c.encode(hideHome, forKey: .hideHome)
    }

    /// Decodes settings, missing keys as their defaults (an older geotrip stored fewer).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        outputFolder = try c.decodeIfPresent(String.self, forKey: .outputFolder)
        privacy = try c.decodeIfPresent(PrivacyZones.self, forKey: .privacy) ?? PrivacyZones()
        photoPoints = try c.decodeIfPresent(Bool.self, forKey: .photoPoints) ?? false
        tiles = try c.decodeIfPresent(String.self, forKey: .tilesURL).map {
            TripMapInput.Tiles(urlTemplate: $0, attribution: try c.decodeIfPresent(String.self, forKey: .tilesAttribution) ?? "")
        }
        thumbnails = try c.decodeIfPresent(Bool.self, forKey: .thumbnails) ?? true
        home = try c.decodeIfPresent(Coordinate.self, forKey: .home)
        hideHome = try c.decodeIfPresent(Bool.self, forKey: .hideHome) ?? true
    }

    /// The zones kept private for `library`: `--hide-near`'s, and each home's (the default radius
    /// around it; every home of a person who moved) unless `--no-hide-home`. `keptHomes`, every
    /// home the folder has had (`Catalog.keptHomes`), stay private too: a library whose photos
    /// shrank to a few weeks, whose `--home` was taken back, or where a place stopped being a
    /// home, does not publish a house its earlier outputs hid.
    public func privacy(for library: Library, keptHomes: [Coordinate] = []) -> PrivacyZones {
        PrivacyZones(privacy.zones + homesHidden(for: library, keptHomes: keptHomes).map { PrivacyZones.Zone(centre: $0) })
    }

    /// The homes `privacy(for:keptHomes:)` keeps private: none with `--no-hide-home`.
    func homesHidden(for library: Library, keptHomes: [Coordinate]) -> [Coordinate] {
        hideHome ? ExportSettings.merged(keptHomes, library.homes.flatMap(\.privateSpots)) : []
    }

    /// `kept` homes with `current` ones: a current home within `sameHouse` of a kept one is
    /// that one, as kept (a home's spot, the mean of its nights, moves by metres with every
    /// night added: the zone stays where it was, so the trips' outputs, which depend on the
    /// zones, are not all written again); others are added, never moving a kept zone (whose
    /// edge would then be published).
    static func merged(_ kept: [Coordinate], _ current: [Coordinate]) -> [Coordinate] {
        var homes = kept
        for home in current where !homes.contains(where: { GreatCircle.distance($0, home) <= sameHouse }) {
            homes.append(home)
        }
        return homes
    }

    /// 50 m: a home's spot found again this close is the same house.
    static let sameHouse = 50.0

    /// The `kept` homes that are none of `current` (nor within `sameHouse` of one).
    static func earlier(_ kept: [Coordinate], than current: [Coordinate]) -> [Coordinate] {
        kept.filter { old in !current.contains { GreatCircle.distance(old, $0) <= sameHouse } }
    }
}
