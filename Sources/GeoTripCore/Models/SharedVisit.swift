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
    /// one (or of a hidden visit, `hiddenSpans`: their times widened by that reach) lies on
    /// the line from it: it weighs nothing in the centre, as the GeoJSON gives it no point.
    /// A visit whose every photo lies inside a zone, its centre between two of them (a home
    /// and a place slept at near it), is private as one whose centre lies inside: its centre
    /// is put at its first photo. `members` are its photos; as it is when none is hidden.
    func shared(by members: [VisitMember], privacy: PrivacyZones, hiddenSpans: [ClosedRange<Date>] = []) -> TripVisit {
        let inside = members.map { privacy.contains($0.coordinate) }
        guard inside.contains(true) else { return self }
        var shared = self
        shared.hiddenPhotos = inside.filter { $0 }.count
        shared.hiddenVideos = zip(members, inside).filter { $0.1 && $0.0.isVideo }.count
        let outside = zip(members, inside).filter { !$0.1 }.map(\.0)
        guard !outside.isEmpty else {
            (shared.latitude, shared.longitude) = (members[0].coordinate.latitude, members[0].coordinate.longitude)
            return shared
        }
        let spans = ResolutionWindow.merged(hiddenSpans + zip(members, inside).filter(\.1).compactMap { member, _ in
            UTCTimestamp.date(member.utcTime).map { $0.addingTimeInterval(-PrivacyZones.neighbourReach)...$0.addingTimeInterval(PrivacyZones.neighbourReach) }
        })
        func besideHidden(_ member: VisitMember) -> Bool {
            guard member.interpolated, let time = UTCTimestamp.date(member.utcTime) else { return false }
            let index = spans.partitioningIndex { $0.upperBound >= time }
            return index < spans.endIndex && spans[index].contains(time)
        }
        let times = outside.map(\.utcTime).sorted(by: UTCTimestamp.precedes)
        (shared.arrival, shared.departure) = (times[0], times[times.count - 1])
        shared.setLocalTimes()
        let weighable = outside.filter { !$0.stray && !besideHidden($0) }
        var sum = SIMD3<Double>.zero
        for member in weighable.isEmpty ? outside : weighable {
            sum += GreatCircle.unitVector(member.coordinate) / pow(max(member.uncertaintyMeters, 10), 2)
        }
        let centre = VisitClustering.coordinate(of: sum)
        shared.latitude = Catalog.rounded(centre.latitude)
        shared.longitude = Catalog.rounded(centre.longitude)
        return shared
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
    /// The visits whose shared form needs their photos (`TripVisit.mayHoldHiddenPhotos`).
    public func visitsNearZones(_ privacy: PrivacyZones, visitRadius: Double) -> [String] {
        visits.filter { $0.mayHoldHiddenPhotos(privacy, visitRadius: visitRadius) }.map(\.id)
    }

    /// The trip as its outputs share it: each visit in `members` (its photos, by visit id) as
    /// `TripVisit.shared(by:privacy:hiddenSpans:)` makes it, beside the trip's visits hidden
    /// by their centres.
    func shared(members: [String: [VisitMember]], privacy: PrivacyZones) -> Trip {
        guard !members.isEmpty else { return self }
        let hiddenSpans = visits.filter { privacy.contains($0.centre) }.compactMap { visit -> ClosedRange<Date>? in
            guard let arrival = UTCTimestamp.date(visit.arrival), let departure = UTCTimestamp.date(visit.departure), arrival <= departure else { return nil }
            return arrival.addingTimeInterval(-PrivacyZones.neighbourReach)...departure.addingTimeInterval(PrivacyZones.neighbourReach)
        }
        return replacingVisits { visit in
            members[visit.id].map { visit.shared(by: $0, privacy: privacy, hiddenSpans: hiddenSpans) }
        }
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
                return visit
            }
        }
    }

    /// Its visits that sharing changed, by id.
    var sharedVisits: [String: TripVisit] {
        Dictionary(visits.filter { $0.hiddenPhotos > 0 }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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
