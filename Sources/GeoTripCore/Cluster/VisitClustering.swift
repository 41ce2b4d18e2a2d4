import Foundation

/// What clustering needs of one photo.
public struct ClusterPhoto: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    public var utc: Date
    public var coordinate: Coordinate
    /// Metres; inferred positions carry large ones and must not drag a visit's centre.
    public var uncertaintyMeters: Double

    public init(id: Int64, utc: Date, coordinate: Coordinate, uncertaintyMeters: Double) {
        self.id = id
        self.utc = utc
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
    }
}

/// The thresholds of `VisitClustering`, with the defaults the README explains.
public struct ClusteringOptions: Sendable, Equatable, Codable {
    /// A photo farther than this from the visit's centre starts a new visit.
    public var visitRadius: Double = 250
    /// A photo taken longer than this after the visit's last photo starts a new visit.
    public var visitGap: TimeInterval = 2 * 3600
    /// Visits whose centres are this close are one place.
    public var placeRadius: Double = 150

    public init(visitRadius: Double = 250, visitGap: TimeInterval = 2 * 3600, placeRadius: Double = 150) {
        self.visitRadius = visitRadius
        self.visitGap = visitGap
        self.placeRadius = placeRadius
    }
}

/// A cluster of photos before identities are given.
public struct VisitCluster: Sendable, Equatable {
    /// Member photo ids, in time order.
    public var photoIDs: [Int64]
    public var centre: Coordinate
    /// Farthest member from the centre, metres (members with large uncertainty aside).
    public var radiusMeters: Double
    public var arrival: Date
    public var departure: Date
}

/// Groups photos into visits and visits into places.
///
/// Photos are sparse samples, not a GPS log, so the stay-point rules tuned for logs (200 m,
/// 20-30 minutes) are loosened: in time order, a photo joins the current visit when it is
/// within `visitRadius` (250 m) of the visit's centre and of the visit's first photo, and at
/// most `visitGap` (2 h) after its last photo; otherwise it starts a new visit. The first-photo
/// test is what keeps a slow walking tour from chaining into one visit across a city: a visit
/// spans at most twice the radius. The centre is the mean of the members weighted by
/// 1/uncertainty², so a photo placed by its neighbours (hundreds of metres of uncertainty)
/// cannot drag it. Photos out of file order or from two interleaved cameras are sorted by UTC
/// first, so they cluster as if shot in one stream.
///
/// Places: visits whose centres lie within `placeRadius` (150 m) of each other, transitively
/// (the hotel you come back to each evening), found through a grid of cells `placeRadius`
/// wide, so each visit is compared with the visits in its own and the neighbouring cells only.
public enum VisitClustering {
    /// Visits, in time order.
    public static func visits(_ photos: [ClusterPhoto], options: ClusteringOptions = ClusteringOptions()) -> [VisitCluster] {
        let sorted = photos.sorted { ($0.utc, $0.id) < ($1.utc, $1.id) }
        var visits: [VisitCluster] = []
        var members: [ClusterPhoto] = []
        var sum = SIMD3<Double>.zero, weights = 0.0
        var centre = Coordinate(latitude: 0, longitude: 0)

        func close() {
            guard let first = members.first, let last = members.last else { return }
            let radius = members.filter { $0.uncertaintyMeters <= options.visitRadius }
                .map { GreatCircle.distance($0.coordinate, centre) }.max() ?? 0
            visits.append(VisitCluster(photoIDs: members.map(\.id), centre: centre, radiusMeters: radius,
                                       arrival: first.utc, departure: last.utc))
            members.removeAll(keepingCapacity: true)
            sum = .zero
            weights = 0
        }

        for photo in sorted {
            if let first = members.first, let last = members.last {
                let reach = options.visitRadius + min(photo.uncertaintyMeters, options.visitRadius)
                let joins = photo.utc.timeIntervalSince(last.utc) <= options.visitGap
                    && GreatCircle.distance(photo.coordinate, centre) <= reach
                    && GreatCircle.distance(photo.coordinate, first.coordinate) <= reach
                if !joins { close() }
            }
            members.append(photo)
            let weight = 1 / pow(max(photo.uncertaintyMeters, 10), 2)
            sum += weight * GreatCircle.unitVector(photo.coordinate)
            weights += weight
            centre = Self.coordinate(of: sum / weights)
        }
        close()
        return visits
    }

    /// For each visit (by index), the index of its place's first visit: union of visits whose
    /// centres are within `placeRadius`, through a grid.
    public static func places(_ visits: [VisitCluster], options: ClusteringOptions = ClusteringOptions()) -> [Int] {
        var parent = Array(visits.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        // Cells of about placeRadius in latitude; longitude cells widen toward the poles so a
        // cell stays about placeRadius wide (capped at the pole).
        let cellDegrees = options.placeRadius / 111_195
        func cell(_ c: Coordinate) -> (Int, Int) {
            let row = Int((c.latitude / cellDegrees).rounded(.down))
            let width = cellDegrees / max(cos(c.latitude * .pi / 180), 0.01)
            return (row, Int(((c.longitude + 180) / width).rounded(.down)))
        }
        var grid: [Int: [Int: [Int]]] = [:]
        for (index, visit) in visits.enumerated() {
            let (row, column) = cell(visit.centre)
            grid[row, default: [:]][column, default: []].append(index)
        }
        for (index, visit) in visits.enumerated() {
            let (row, _) = cell(visit.centre)
            for neighbourRow in row - 1...row + 1 {
                guard let columns = grid[neighbourRow] else { continue }
                // Columns differ in width by row; check the columns that can hold a near centre.
                let probe = Coordinate(latitude: Double(neighbourRow) * cellDegrees, longitude: visit.centre.longitude)
                let (_, column) = cell(Coordinate(latitude: max(-89.99, min(89.99, probe.latitude)), longitude: probe.longitude))
                for neighbourColumn in column - 2...column + 2 {
                    for other in columns[neighbourColumn] ?? [] where other > index {
                        if GreatCircle.distance(visit.centre, visits[other].centre) <= options.placeRadius {
                            let (a, b) = (root(index), root(other))
                            if a != b { parent[max(a, b)] = min(a, b) }
                        }
                    }
                }
            }
        }
        return visits.indices.map(root)
    }

    static func coordinate(of vector: SIMD3<Double>) -> Coordinate {
        Coordinate(latitude: atan2(vector.z, (vector.x * vector.x + vector.y * vector.y).squareRoot()) * 180 / .pi,
                   longitude: atan2(vector.y, vector.x) * 180 / .pi)
    }
}
