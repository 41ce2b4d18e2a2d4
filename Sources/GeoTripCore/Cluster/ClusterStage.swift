import Foundation

/// The clustering stage: photos, the identities the catalog knows and the options in, a
/// `TripLayout` out. Pure: no catalog, no gazetteer; the pipeline stores what it returns.
public enum ClusterStage {
    /// Visits and places of `photos`, with ids carried over from `known`.
    public static func layout(_ photos: [ResolvedPhoto], known: KnownLayout, options: ClusteringOptions) -> TripLayout {
        // Every photo with a date counts for the trip's days, placed or not.
        var localDates: [Int64: String] = [:]
        var zones: [Int64: String] = [:]
        var clustered: [ClusterPhoto] = []
        for photo in photos {
            // A Live Photo's video is one moment with its still: it joins no visit of its own
            // and is not counted as a second photo (the exports find it by its link).
            if photo.liveStillID != nil { continue }
            if let day = options.dayRule.day(utc: photo.utc, zone: photo.zone, cameraTime: photo.cameraTime) { localDates[photo.id] = day }
            if let zone = photo.zone { zones[photo.id] = zone }
            if let utc = photo.utc, let coordinate = photo.coordinate {
                clustered.append(ClusterPhoto(id: photo.id, utc: utc, coordinate: coordinate, uncertaintyMeters: photo.uncertaintyMeters))
            }
        }
        let visits = VisitClustering.visits(clustered, options: options)
        let placeOf = VisitClustering.places(visits, options: options)
        let visitIDs = StableIdentity.assign(prefix: "v", clusters: visits.map { ($0.photoIDs, $0.centre) }, known: known.visits,
                                             lastRevisions: known.lastRevisions)

        // Places: members are all their visits' photos, so a place's identity follows its visits.
        var groups: [Int: [Int]] = [:]
        for (index, root) in placeOf.enumerated() { groups[root, default: []].append(index) }
        let roots = groups.keys.sorted()
        let placeClusters: [(members: [Int64], centre: Coordinate)] = roots.map { root in
            var sum = SIMD3<Double>.zero
            for index in groups[root]! { sum += GreatCircle.unitVector(visits[index].centre) * Double(visits[index].photoIDs.count) }
            return (groups[root]!.flatMap { visits[$0].photoIDs }.sorted(), VisitClustering.coordinate(of: sum))
        }
        let placeIDs = StableIdentity.assign(prefix: "p", clusters: placeClusters, known: known.places, lastRevisions: known.lastRevisions)

        var layout = TripLayout()
        var placeIDOfVisit: [Int: String] = [:]
        for (rootIndex, root) in roots.enumerated() {
            let members = groups[root]!
            for index in members { placeIDOfVisit[index] = placeIDs[rootIndex].id }
            layout.places.append(TripLayout.Place(id: placeIDs[rootIndex].id, revision: placeIDs[rootIndex].revision,
                                                  centre: placeClusters[rootIndex].centre,
                                                  start: members.map { visits[$0].arrival }.min()!))
        }
        layout.visits = visits.enumerated().map { index, visit in
            TripLayout.Visit(id: visitIDs[index].id, placeID: placeIDOfVisit[index]!, revision: visitIDs[index].revision, cluster: visit,
                             localDate: localDates[visit.photoIDs[0]] ?? String(visit.arrival.geotripISO8601?.prefix(10) ?? ""),
                             timeZone: visit.photoIDs.lazy.compactMap { zones[$0] }.first)
        }
        layout.days = Array(Set(localDates.values)).sorted()
        return layout
    }
}
