/// Which places lie on a coordinate's side of a zone border, as far as each place's own zone
/// (GeoNames') and country tell: its zone is the polygon's zone, or a name tzdb links to the
/// same clock while its country is one of the zone's (zone.tab, else zone1970.tab). So a Danish
/// town (Europe/Copenhagen, a link to Europe/Berlin) is not on Germany's side, and a town whose
/// zone has an old name (Europe/Kiev) is on Europe/Kyiv's.
///
/// A class holding integer tables only, built once per gazetteer: naming tests it for every
/// place a search meets, from every core, and a struct of the gazetteer's many arrays was
/// copied (and its counts bumped) for each answer.
final class BorderSides: Sendable {
    /// Each place's zone (gazetteer zone index, 0xFFFF none) and country (0xFF none).
    private let placeZones: [UInt16]
    private let placeCountries: [UInt8]
    /// Each gazetteer zone's number in the zone index, -1 when the index does not know it.
    private let zoneNumbers: [Int]
    /// By zone-index number: its clock, and its countries as gazetteer country indices (nil:
    /// any country).
    private let zoneClocks: [Int]
    private let zoneCountries: [[UInt8]?]

    /// By zone-index number: whether any place at all is on that zone's side. Two dozen polygon
    /// zones have none in the gazetteer (Lord Howe, Antarctica's stations, Adak), and a search
    /// for one would test every place within reach.
    private let zoneHasPlaces: [Bool]

    /// The tables for `columns`' places, whose zone names (`zoneNames`, by gazetteer zone
    /// index) and countries (`countryCodes`) are matched to `index`'s zones.
    init(columns: PlaceColumns, zoneNames: [String], countryCodes: [String], index: ZoneIndex) {
        placeZones = columns.zone
        placeCountries = columns.country
        let numbers = zoneNames.map { index.zoneNumber(named: $0) ?? -1 }
        zoneNumbers = numbers
        let clocks = index.zones.map(\.clock)
        zoneClocks = clocks
        let countries: [[UInt8]?] = index.zones.map { zone in
            zone.countries.isEmpty ? nil : zone.countries.compactMap { code in countryCodes.firstIndex(of: code).map { UInt8($0) } }
        }
        zoneCountries = countries
        // A zone has places when some place's own zone is it, or shares its clock with the
        // place's country among its countries: the pairs (own zone, country) are few.
        var hasPlaces = [Bool](repeating: false, count: index.zones.count)
        let sameClock = Dictionary(grouping: index.zones.indices, by: { clocks[$0] })
        // Seen (zone, country) pairs as a flat table: a set took a tenth of the load.
        var seen = [Bool](repeating: false, count: zoneNames.count << 8)
        for (zone, country) in zip(columns.zone, columns.country) where zone != 0xFFFF {
            let number = numbers[Int(zone)], pair = Int(zone) << 8 | Int(country)
            guard number >= 0, !seen[pair] else { continue }
            seen[pair] = true
            hasPlaces[number] = true
            for other in sameClock[clocks[number]] ?? [] where countries[other]?.contains(country) ?? true {
                hasPlaces[other] = true
            }
        }
        zoneHasPlaces = hasPlaces
    }

    /// Whether any place is on zone `zone`'s side (a zone-index number).
    func hasPlaces(_ zone: Int) -> Bool { zoneHasPlaces[zone] }

    /// Whether place `index` lies in zone `zone` (a zone-index number).
    func isOnSide(_ index: Int, of zone: Int) -> Bool {
        let own = placeZones[index]
        guard own != 0xFFFF else { return false }
        let number = zoneNumbers[Int(own)]
        if number == zone { return true }
        guard number >= 0, zoneClocks[number] == zoneClocks[zone] else { return false }
        guard let countries = zoneCountries[zone] else { return true }
        return countries.contains(placeCountries[index])
    }
}

/// A test a tree search applies to the places it meets.
protocol PlaceFilter {
    /// Whether the search may take place `index`.
    func accepts(_ index: Int) -> Bool
}

/// Every place.
struct AnyPlace: PlaceFilter {
    /// Always.
    func accepts(_ index: Int) -> Bool { true }
}

/// The places on one side of a zone border (`BorderSides`).
struct OnSide: PlaceFilter {
    /// The tables.
    let sides: BorderSides
    /// The coordinate's zone, a zone-index number.
    let zone: Int

    /// Whether place `index` is on `zone`'s side.
    func accepts(_ index: Int) -> Bool { sides.isOnSide(index, of: zone) }
}
