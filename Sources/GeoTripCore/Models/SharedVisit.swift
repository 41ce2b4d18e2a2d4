import Foundation

/// What a visit's privacy needs of one of its photos (`Catalog.visitMembers(of:)`).
struct VisitMember: Sendable, Equatable {
    var utcTime: String
    var coordinate: Coordinate
    var uncertaintyMeters: Double
    /// Joined as a stray (`VisitClustering.visits`): it counts for neither centre nor radius.
    var stray: Bool
}

extension TripVisit {
    /// The visit as every output shares it when some of its photos were taken inside a privacy
    /// zone though its centre lies outside (a walk that began at the door): its arrival and
    /// departure those of the photos outside, its centre theirs weighted as clustering weighs
    /// them (`VisitClustering.visits`: by the inverse square of the uncertainty, strays left
    /// out), and the hidden ones counted in `hiddenPhotos`. So no output tells when the hidden
    /// photos were taken, nor leans the visit's point toward them. `members` are its photos;
    /// as it is when none is hidden, or every one is (a visit whose centre lies inside a zone
    /// is hidden whole).
    func shared(by members: [VisitMember], privacy: PrivacyZones) -> TripVisit {
        let outside = members.filter { !privacy.contains($0.coordinate) }
        guard outside.count < members.count, !outside.isEmpty else { return self }
        var shared = spanning(shown: outside.map(\.utcTime))
        let weighed = outside.contains { !$0.stray } ? outside.filter { !$0.stray } : outside
        var sum = SIMD3<Double>.zero
        for member in weighed {
            sum += GreatCircle.unitVector(member.coordinate) / pow(max(member.uncertaintyMeters, 10), 2)
        }
        let centre = VisitClustering.coordinate(of: sum)
        shared.latitude = Catalog.rounded(centre.latitude)
        shared.longitude = Catalog.rounded(centre.longitude)
        shared.hiddenPhotos = members.count - outside.count
        return shared
    }

    /// Whether a photo of the visit could lie inside one of `privacy`'s zones though its centre
    /// does not: a member joined within twice `visitRadius` of the centre as it was then (one of
    /// uncertain position), and the centre moves by less than that as the others join; a
    /// zone's radius added, and the visit's own. A stray can lie farther, but it falls inside
    /// the visit's span (it never sets its times) and weighs nothing in its centre.
    func mayHoldHiddenPhotos(_ privacy: PrivacyZones, visitRadius: Double) -> Bool {
        !privacy.contains(centre) && privacy.zones.contains { zone in
            let reach = zone.radiusMeters + radiusMeters + 4 * visitRadius
            return abs(latitude - zone.centre.latitude) * PrivacyZones.metresPerDegree <= reach + 1
                && GreatCircle.distance(zone.centre, centre) <= reach
        }
    }
}

extension Trip {
    /// The visits whose shared form needs their photos (`TripVisit.mayHoldHiddenPhotos`).
    public func visitsNearZones(_ privacy: PrivacyZones, visitRadius: Double) -> [String] {
        visits.filter { $0.mayHoldHiddenPhotos(privacy, visitRadius: visitRadius) }.map(\.id)
    }

    /// The trip as its outputs share it: each visit in `members` (its photos, by visit id) as
    /// `TripVisit.shared(by:privacy:)` makes it.
    func shared(members: [String: [VisitMember]], privacy: PrivacyZones) -> Trip {
        guard !members.isEmpty else { return self }
        return replacingVisits { visit in members[visit.id].map { visit.shared(by: $0, privacy: privacy) } }
    }

    /// The trip with its visits shared as those of `shared` are (the same trip read again,
    /// with its photos and their local times).
    func sharingVisits(as shared: Trip) -> Trip {
        let byID = Dictionary(shared.visits.filter { $0.hiddenPhotos > 0 }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        guard !byID.isEmpty else { return self }
        return replacingVisits { visit in
            byID[visit.id].map { shared in
                var visit = visit
                (visit.arrival, visit.departure, visit.localArrival, visit.localDeparture) = (shared.arrival, shared.departure, shared.localArrival, shared.localDeparture)
                (visit.latitude, visit.longitude, visit.hiddenPhotos) = (shared.latitude, shared.longitude, shared.hiddenPhotos)
                return visit
            }
        }
    }

    /// The trip with each visit `replacement` gives a visit for replaced by it.
    private func replacingVisits(_ replacement: (TripVisit) -> TripVisit?) -> Trip {
        var trip = self
        for day in trip.days.indices {
            for index in trip.days[day].visits.indices {
                if let visit = replacement(trip.days[day].visits[index]) { trip.days[day].visits[index] = visit }
            }
        }
        return trip
    }
}
