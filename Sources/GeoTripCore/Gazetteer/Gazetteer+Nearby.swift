extension Gazetteer {
    /// The most populous places inside `box`, most populous first, at most `limit` of them:
    /// the towns a map of the box labels. A linear pass over the columns (a few milliseconds
    /// for the 235,000 places), run once per export.
    public func largestPlaces(in box: GeoBox, limit: Int) -> [GazetteerPlace] {
        guard limit > 0 else { return [] }
        let south = Int32((box.south * 1e5).rounded(.down)), north = Int32((box.north * 1e5).rounded(.up))
        let west = Int32((box.west * 1e5).rounded(.down)), east = Int32((box.east * 1e5).rounded(.up))
        var found: [(index: Int, population: UInt32)] = []
        for index in 0..<columns.latitudeE5.count {
            let lat = columns.latitudeE5[index], lon = columns.longitudeE5[index]
            if lat >= south && lat <= north && lon >= west && lon <= east {
                found.append((index, columns.population[index]))
            }
        }
        // Ties by index, so the choice is the same on every run.
        found.sort { $0.population != $1.population ? $0.population > $1.population : $0.index < $1.index }
        return found.prefix(limit).map { place($0.index) }
    }
}
