/// A name the person gave a place (`geotrip rename`) follows the spot it was given for, as
/// notes follow their photos. Place ids follow members: when places merge and split again
/// (a `--visit-radius` tried and undone), an id can come back on the other half, and a name
/// kept by id would name the wrong spot, or be left on an id no place has.
///
/// The rule, after each change of the layout: a name stays with its place while that place's
/// centre lies within the place radius of the spot it was given for, or no other place lies
/// nearer to that spot. Otherwise it goes to the place nearest the spot, within the place
/// radius, when that place has no name of the person's (or its name goes elsewhere in the
/// same pass); of two names wanting one place, the nearer spot's wins. A name that can go
/// nowhere stays with its place, and when that place lies beyond the radius with another
/// nearer the spot (a photo tagged 24 km away, or the place at the spot holding another of
/// the person's names), that is said (`Move.awayMetres`). A name whose place is gone and that
/// finds none waits, kept by its id: it comes back with the place, or with one at its spot,
/// and the person can let it go (`rename OLD-ID --clear`). Pure.
public enum ManualNames {
    /// One name given by the person: the place it is kept under, the spot it was given for
    /// (the place's centre then), and the name.
    public struct Given: Sendable, Equatable {
        public var placeID: String
        public var spot: Coordinate
        public var name: String

        public init(placeID: String, spot: Coordinate, name: String) {
            self.placeID = placeID
            self.spot = spot
            self.name = name
        }
    }

    /// A name that went with its spot to another place (`to`), or whose place is gone and that
    /// found none (`to` nil; `nearest` the place nearest its spot now, if any, which its visits
    /// likely joined, and `clearCommand` the command letting the name go: `IngestPipeline`), or
    /// that stayed with its place though that place is now `awayMetres` from the spot and
    /// another (`nearest`) is nearer it (`to` is `from`).
    public struct Move: Sendable, Equatable, Codable {
        public var name: String
        public var from: String
        public var to: String?
        public var nearest: String?
        public var clearCommand: String?
        public var awayMetres: Double?

        /// Whether the name stayed with a place that went away from its spot.
        public var stayedAway: Bool { awayMetres != nil }

        /// Whether the name is left where the person may want to let it go (waiting, or with a
        /// place gone from its spot): said with `clearCommand`.
        public var mayBeLetGo: Bool { to == nil || stayedAway }
    }

    /// Where each of `names` goes, given the places (id and centre) there are now; only the
    /// names that move, have lost their place, or stay with a place gone from their spot are
    /// listed, in the order of their ids.
    public static func follow(_ names: [Given], places: [(id: String, centre: Coordinate)], radius: Double) -> [Move] {
        guard !names.isEmpty else { return [] }
        let centres = Dictionary(places.map { ($0.id, $0.centre) }, uniquingKeysWith: { first, _ in first })
        /// The place nearest `spot` and its distance, within `limit` metres when given.
        func nearest(to spot: Coordinate, within limit: Double?) -> (id: String, distance: Double)? {
            // A degree of latitude is at least 110.5 km: a box first, the great circle inside it.
            let degrees = (limit ?? .infinity) / 110_500
            var best: (id: String, distance: Double)?
            for place in places where abs(place.centre.latitude - spot.latitude) <= degrees {
                let distance = GreatCircle.distance(spot, place.centre)
                if distance <= (limit ?? .infinity), best.map({ (distance, place.id) < ($0.distance, $0.id) }) ?? true { best = (place.id, distance) }
            }
            return best
        }
        var wants: [(index: Int, target: String, distance: Double)] = []
        var staying: Set<String> = []
        var waiting: [Int] = []
        var owns: [Int: Double] = [:]
        for (index, given) in names.enumerated() {
            let own = centres[given.placeID].map { GreatCircle.distance(given.spot, $0) }
            owns[index] = own
            if let own, own <= radius {
                staying.insert(given.placeID)
            } else if let near = nearest(to: given.spot, within: radius), near.id != given.placeID, near.distance < own ?? .infinity {
                wants.append((index, near.id, near.distance))
            } else if own != nil {
                staying.insert(given.placeID)
            } else {
                waiting.append(index)
            }
        }
        // A place can take a name when it has none of the person's, or its own moves away.
        let holders = Set(names.map(\.placeID))
        var taken = staying, moved: [Int: String] = [:]
        let nearestFirst = wants.sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
        // One move at a time, nearest spot first: a move can free a place a nearer spot's name
        // wants, and that name takes it before any farther one.
        while let want = nearestFirst.first(where: { want in
            moved[want.index] == nil && !taken.contains(want.target)
                && (!holders.contains(want.target) || names.indices.contains { moved[$0] != nil && names[$0].placeID == want.target })
        }) {
            taken.insert(want.target)
            moved[want.index] = want.target
        }
        var moves: [Move] = moved.map { Move(name: names[$0.key].name, from: names[$0.key].placeID, to: $0.value) }
        // A name that wanted a place it could not take stays where it is kept; one whose
        // place is gone waits.
        for want in wants where moved[want.index] == nil && centres[names[want.index].placeID] == nil { waiting.append(want.index) }
        for index in waiting {
            moves.append(Move(name: names[index].name, from: names[index].placeID, to: nil, nearest: nearest(to: names[index].spot, within: nil)?.id))
        }
        // Staying with a place beyond the radius while another lies nearer the spot: said.
        for (index, given) in names.enumerated() where moved[index] == nil {
            guard let own = owns[index], own > radius,
                  let near = nearest(to: given.spot, within: own), near.id != given.placeID else { continue }
            moves.append(Move(name: given.name, from: given.placeID, to: given.placeID, nearest: near.id, awayMetres: own.rounded()))
        }
        return moves.sorted { ($0.from, $0.name) < ($1.from, $1.name) }
    }
}
