import Foundation

/// What a visit's privacy needs of one of its photos (`Catalog.sharingMembers(of:)`).
struct VisitMember: Sendable, Equatable {
    var utcTime: String
    var coordinate: Coordinate
    var uncertaintyMeters: Double
    /// Joined as a stray (`VisitClustering.visits`): it counts for neither centre nor radius.
    var stray: Bool
    /// Placed between its neighbours (`LocationSource.interpolated`).
    var interpolated = false
    var isVideo = false
}

extension TripVisit {
    /// The visit as every output shares it when some of its photos were taken inside a privacy
    /// zone though its centre lies outside (a walk that began at the door): its arrival and
    /// departure those of the photos outside, its centre theirs weighted as clustering weighs
    /// them (`VisitClustering.visits`: by the inverse square of the uncertainty, strays left
    /// out), and the hidden ones counted in `hiddenPhotos` and `hiddenVideos`. So no output
    /// tells when the hidden photos were taken, nor leans the visit's point toward them.
    ///
    /// A photo placed between its neighbours within `PrivacyZones.neighbourReach` of a hidden
    /// one (or of a hidden visit: `hiddenVisits`) lies on the line from it
    /// (`PrivacyZones.HiddenTimes`): it weighs nothing in the centre, as the GeoJSON gives it no point.
    /// A visit whose every photo lies inside a zone, its centre between two of them (a home
    /// and a place slept at near it), is private as one whose centre lies inside: its centre
    /// is put at its first photo. `members` are its photos; as it is when none is hidden.
    func shared(by members: [VisitMember], privacy: PrivacyZones, hiddenVisits: PrivacyZones.HiddenTimes = .init()) -> TripVisit {
        // One whose centre lies inside a zone is hidden whole, whatever its strays.
        guard !privacy.contains(centre) else { return self }
        let inside = members.map { privacy.contains($0.coordinate) }
        guard let firstInside = inside.firstIndex(of: true) else { return self }
        var shared = self
        shared.hiddenPhotos = inside.filter { $0 }.count
        shared.hiddenVideos = zip(members, inside).filter { $0.1 && $0.0.isVideo }.count
        let outside = zip(members, inside).filter { !$0.1 }.map(\.0)
        let hiddenPhotos = PrivacyZones.HiddenTimes(times: zip(members, inside).filter(\.1).compactMap { UTCTimestamp.date($0.0.utcTime) })
        func besideHidden(_ member: VisitMember) -> Bool {
            guard member.interpolated, let time = UTCTimestamp.date(member.utcTime) else { return false }
            return hiddenVisits.holds(time) || hiddenPhotos.holds(time)
        }
        let weighable = outside.filter { !$0.stray && !besideHidden($0) }
        guard !weighable.isEmpty else {
            // Nothing outside the zones but strays and photos placed from hidden ones: the
            // visit was inside (its point, or the line it lies on, would lead there).
            (shared.latitude, shared.longitude) = (members[firstInside].coordinate.latitude, members[firstInside].coordinate.longitude)
            (shared.hiddenPhotos, shared.hiddenVideos) = (members.count, members.filter(\.isVideo).count)
            return shared
        }
        let times = outside.map(\.utcTime).sorted(by: UTCTimestamp.precedes)
        (shared.arrival, shared.departure) = (times[0], times[times.count - 1])
        shared.setLocalTimes()
        var sum = SIMD3<Double>.zero
        for member in weighable {
            sum += VisitClustering.weight(uncertainty: member.uncertaintyMeters) * GreatCircle.unitVector(member.coordinate)
        }
        let centre = VisitClustering.coordinate(of: sum)
        shared.latitude = Catalog.rounded(centre.latitude)
        shared.longitude = Catalog.rounded(centre.longitude)
        return shared
    }

    /// `visits` (of a trip, or the days beside one) shared: each in `members` (its photos, by
    /// visit id) as `shared(by:privacy:hiddenVisits:)` makes it, beside those hidden by their
    /// centres, and then again beside those it made private too.
    static func shared(_ visits: [TripVisit], members: [String: [VisitMember]], privacy: PrivacyZones) -> [TripVisit] {
        guard !members.isEmpty else { return visits }
        func sharing(beside hidden: [TripVisit]) -> [TripVisit] {
            let times = PrivacyZones.HiddenTimes(visits: hidden)
            return visits.map { visit in members[visit.id].map { visit.shared(by: $0, privacy: privacy, hiddenVisits: times) } ?? visit }
        }
        let hiddenBefore = visits.filter { privacy.contains($0.centre) }
        let first = sharing(beside: hiddenBefore)
        let hiddenAfter = first.filter { privacy.contains($0.centre) }
        return hiddenAfter.count > hiddenBefore.count ? sharing(beside: hiddenAfter) : first
    }

    /// Whether a photo of the visit could lie inside one of `privacy`'s zones though its centre
    /// does not: a member joined within twice `visitRadius` of the centre as it was then (one of
    /// uncertain position), and the centre moves by less than that as the others join; a
    /// zone's radius added, and the visit's own. A stray can lie anywhere: those inside a zone
    /// are found apart (`Catalog.visitsOfStraysInside`).
    func mayHoldHiddenPhotos(_ privacy: PrivacyZones, visitRadius: Double) -> Bool {
        !privacy.contains(centre) && privacy.zones.contains { zone in
            let reach = zone.radiusMeters + radiusMeters + 4 * visitRadius
            return abs(latitude - zone.centre.latitude) * PrivacyZones.metresPerDegree <= reach + 1
                && GreatCircle.distance(zone.centre, centre) <= reach
        }
    }
}

extension Trip {
    /// The trip as its outputs share it: its visits as `TripVisit.shared(_:members:privacy:)`
    /// makes them.
    func shared(members: [String: [VisitMember]], privacy: PrivacyZones) -> Trip {
        guard !members.isEmpty else { return self }
        let shared = Dictionary(TripVisit.shared(visits, members: members, privacy: privacy).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return replacingVisits { shared[$0.id] }
    }

    /// The trip with its visits as `shared` has them (the same visits read again, with their
    /// photos and local times): the visits `shared` changed (`TripVisit.hiddenPhotos`).
    func sharingVisits(as shared: [String: TripVisit]) -> Trip {
        guard !shared.isEmpty else { return self }
        return replacingVisits { visit in
            shared[visit.id].map { shared in
                var visit = visit
                (visit.arrival, visit.departure, visit.localArrival, visit.localDeparture) = (shared.arrival, shared.departure, shared.localArrival, shared.localDeparture)
                (visit.latitude, visit.longitude) = (shared.latitude, shared.longitude)
                (visit.hiddenPhotos, visit.hiddenVideos) = (shared.hiddenPhotos, shared.hiddenVideos)
                if shared.placeNameWithheld {
                    (visit.name, visit.admin1, visit.country, visit.countryCode, visit.nameSource) = (shared.name, shared.admin1, shared.country, shared.countryCode, shared.nameSource)
                    visit.placeNameWithheld = true
                }
                return visit
            }
        }
    }

    /// Its visits that sharing changed, by id.
    var sharedVisits: [String: TripVisit] {
        Dictionary(visits.filter { $0.hiddenPhotos > 0 || $0.placeNameWithheld }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The trip with each visit `replacement` gives a visit for replaced by it.
    func replacingVisits(_ replacement: (TripVisit) -> TripVisit?) -> Trip {
        var trip = self
        for day in trip.days.indices {
            for index in trip.days[day].visits.indices {
                if let visit = replacement(trip.days[day].visits[index]) { trip.days[day].visits[index] = visit }
            }
        }
        return trip
    }
}
