import Foundation

/// A visit or place as the catalog knew it after the last run.
public struct KnownCluster: Sendable, Equatable {
    public var id: String
    /// Member identities (photo ids for visits, visit ids' numbers for places).
    public var members: Set<Int64>
    public var revision: Int
    /// When it began: the older of two merged clusters keeps its id.
    public var start: Date
    public var centre: Coordinate
    /// When it ended (a visit's last photo; a place's `start`).
    public var end: Date
    /// A visit's place.
    public var placeID: String?

    public init(id: String, members: Set<Int64>, revision: Int, start: Date, centre: Coordinate, end: Date? = nil,
                placeID: String? = nil) {
        self.id = id
        self.members = members
        self.revision = revision
        self.start = start
        self.centre = centre
        self.end = end ?? start
        self.placeID = placeID
    }
}

/// Gives clusters identities that survive reruns, from their members, never from positions in
/// a list: notes and names hang on them.
///
/// - A cluster that grows, shrinks or moves keeps its id (its members overlap).
/// - When a cluster splits, its id goes to the part holding most of its members.
/// - When clusters merge, the merged one keeps the id of the one that began first.
/// - A cluster with no past takes an id from its earliest member (`v` + photo id), so adding
///   photos to one day never renumbers another day's visits.
/// `revision` starts at 1 and grows whenever the members or the centre change: the geocoding
/// stage uses it to throw away answers about a cluster that changed while they were in flight.
/// Revisions never go back: an id that was retired and is given again (its earliest photo is
/// back) continues from the last revision it had (`lastRevisions`), so an id and a revision
/// never name two different states.
public enum StableIdentity {
    /// Ids and revisions for `clusters` (each given by its members in time order and its centre).
    /// `reserved` are ids kept by clusters outside this assignment (an incremental run's
    /// untouched visits): a new id never takes one.
    public static func assign(prefix: String, clusters: [(members: [Int64], centre: Coordinate)], known: [KnownCluster],
                              lastRevisions: [String: Int] = [:], reserved: Set<String> = []) -> [(id: String, revision: Int)] {
        var ownerOfMember: [Int64: Int] = [:]
        for (index, old) in known.enumerated() {
            for member in old.members { ownerOfMember[member] = index }
        }
        // Overlaps between new clusters and known ones.
        var overlaps: [[Int: Int]] = clusters.map { cluster in
            var counts: [Int: Int] = [:]
            for member in cluster.members { if let owner = ownerOfMember[member] { counts[owner, default: 0] += 1 } }
            return counts
        }
        // Split rule: each known cluster's id can only go to the new cluster holding most of it.
        var bestFor: [Int: Int] = [:]  // known index -> new index
        for (newIndex, counts) in overlaps.enumerated() {
            for (oldIndex, count) in counts {
                if let current = bestFor[oldIndex] {
                    let currentCount = overlaps[current][oldIndex] ?? 0
                    if count > currentCount || (count == currentCount && newIndex < current) { bestFor[oldIndex] = newIndex }
                } else {
                    bestFor[oldIndex] = newIndex
                }
            }
        }
        // Merge rule: of the known clusters whose best heir a new cluster is, the oldest names it.
        var idFor: [Int: Int] = [:]  // new index -> known index
        for (oldIndex, newIndex) in bestFor {
            if let current = idFor[newIndex] {
                let (a, b) = (known[oldIndex], known[current])
                if (a.start, a.id) < (b.start, b.id) { idFor[newIndex] = oldIndex }
            } else {
                idFor[newIndex] = oldIndex
            }
        }
        overlaps.removeAll()
        var taken = reserved.union(known.map(\.id))
        return clusters.enumerated().map { newIndex, cluster in
            if let oldIndex = idFor[newIndex] {
                let old = known[oldIndex]
                // Centres are stored to 1e-7°; anything within 1e-6° (10 cm) has not moved.
                let same = old.members == Set(cluster.members)
                    && abs(old.centre.latitude - cluster.centre.latitude) < 1e-6
                    && abs(old.centre.longitude - cluster.centre.longitude) < 1e-6
                return (old.id, same ? old.revision : old.revision + 1)
            }
            let base = "\(prefix)\(cluster.members.first ?? 0)"
            var id = base, suffix = 2
            while taken.contains(id) {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            taken.insert(id)
            return (id, (lastRevisions[id] ?? 0) + 1)
        }
    }
}
