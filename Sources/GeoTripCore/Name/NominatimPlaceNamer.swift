import Foundation

/// Names places through a Nominatim-compatible `/reverse` (format jsonv2), a few at a time and
/// never faster than the machine's budget for the server allows (`NominatimClient`).
///
/// Nominatim's plain reverse answer is the nearest OSM object, often a street or a building.
/// So a small place (radius under 100 m) is asked first at building level with
/// `layer=poi,natural,manmade` (Nominatim 4.0 and later); when that answer is empty or lies
/// farther from the place's centre than the place's radius (at least `nearEnough`), it is asked
/// again at address level. At most two requests a place, both cached. A wider place is asked
/// once, at a zoom that fits it (`zoom(forRadius:)`). The name is then chosen by
/// `NominatimPlace.placeName`'s rule. An answer about an object farther than `unrelated` from
/// the place, whose bounding box does not hold it either (a vast borough's middle may be far
/// off), is about somewhere else (a service answering for another point): that place's
/// error, and it keeps its name.
public struct NominatimPlaceNamer: PlaceNamer {
    /// 100 m: under this a place is one building, square or sight.
    public static let pointOfInterestRadius = 100.0
    /// 25 m: a phone's GPS is rarely better, so a sight this close is where the photos were.
    static let nearEnough = 25.0
    /// 300 km: a town's node or the middle of a vast rural municipality can lie tens of km
    /// off; an object farther than this is not where the photos were.
    static let unrelated = 300_000.0

    public let client: NominatimClient
    /// At most this many places asked at once.
    let concurrency: Int

    public var source: NameSource { .nominatim }

    /// Creates a namer over a client.
    public init(client: NominatimClient, concurrency: Int = 2) {
        self.client = client
        self.concurrency = max(1, concurrency)
    }

    /// Whether `placeID`'s answers all came from the shared cache (no request sent).
    public func wasCached(_ placeID: String) -> Bool { client.tally.cachedPlaces.contains(placeID) }

    /// Nominatim's zoom for a place of `radius` metres: 18 (building) under 100 m, 17 (street)
    /// under 500 m, 14 (neighbourhood) under 3 km, else 12 (town or borough).
    static func zoom(forRadius radius: Double) -> Int {
        switch radius {
        case ..<pointOfInterestRadius: return 18
        case ..<500: return 17
        case ..<3000: return 14
        default: return 12
        }
    }

    /// Answers that are not JSON, one after the other, that make the service one that cannot
    /// be used now (`names(for:)`).
    static let notJSONOutage = 3

    public func names(for places: [NamedFor]) async throws(GeoTripError) -> [Result<PlaceName?, GeoTripError>] {
        do {
            return try await withThrowingTaskGroup(of: (Int, Result<PlaceName?, GeoTripError>).self) { group in
                var results = [Result<PlaceName?, GeoTripError>](repeating: .success(nil), count: places.count)
                var next = 0
                // A service that cannot be used is the run's problem: no place is begun after
                // it, the answers already in are kept, and the places not answered say it.
                var outage: GeoTripError?
                func start() {
                    guard next < places.count, outage == nil else { return }
                    let index = next
                    next += 1
                    group.addTask {
                        do {
                            return (index, .success(try await self.name(places[index])))
                        } catch let error as GeoTripError {
                            // An answer that does not read is that place's problem.
                            switch error {
                            case .namingAnswerUnreadable, .namingUnavailable: return (index, .failure(error))
                            default: throw error
                            }
                        }
                    }
                }
                // Answers that are no JSON at all, several in a row: a network's sign-in page,
                // which answers every address, as `tag --place` reads one; the service cannot
                // be used from here, and the places left are not asked one by one.
                // Those answers' places then say the outage, not each its own unreadable answer.
                var notJSONInARow: [Int] = []
                for _ in 0..<concurrency { start() }
                while let (index, result) = try await group.next() {
                    results[index] = result
                    if case .failure(let error) = result, case .namingUnavailable = error { outage = outage ?? error }
                    if case .failure(let error) = result, case .namingAnswerUnreadable(_, let reason) = error, reason == NominatimPlace.notJSON {
                        notJSONInARow.append(index)
                        // One still in flight when the outage was found says it too.
                        if let outage { results[index] = .failure(outage) }
                        if notJSONInARow.count >= Self.notJSONOutage, outage == nil {
                            let unusable = GeoTripError.namingUnavailable(server: client.settings.shownURL,
                                                                          reason: "its answers are not JSON (\(Self.notJSONOutage) in a row: a network's sign-in page answers so)")
                            outage = unusable
                            for place in notJSONInARow { results[place] = .failure(unusable) }
                        }
                    } else {
                        notJSONInARow = []
                    }
                    start()
                }
                if let outage { for index in next..<places.count { results[index] = .failure(outage) } }
                return results
            }
        } catch let error as GeoTripError {
            throw error
        } catch is CancellationError {
            throw .interrupted(.elsewhere)
        } catch {
            throw .namingUnavailable(server: client.settings.shownURL, reason: "\(error)")
        }
    }

    /// One place's name by the two-step rule above.
    func name(_ place: NamedFor) async throws -> PlaceName? {
        var allCached = true
        let latitude = String(format: "%.4f", place.centre.latitude), longitude = String(format: "%.4f", place.centre.longitude)
        let subject = "place \(place.placeID)"
        func reverse(zoom: Int, layer: String?) async throws -> NominatimPlace {
            var query = [("format", "jsonv2"), ("lat", latitude), ("lon", longitude), ("zoom", String(zoom)),
                         ("addressdetails", "1"), ("namedetails", "1")]
            if let layer { query.append(("layer", layer)) }
            // Checked as it is read, so an answer about somewhere else is not kept in the cache.
            let answer = try await client.get("reverse", query) { (data) throws(GeoTripError) in
                let answer = try NominatimPlace.decode(NominatimPlace.self, from: data, subject: subject)
                if let position = answer.positionOffTheGlobe {
                    throw .namingAnswerUnreadable(place: subject, reason: "it gives the place's position as \(position.debugDescription), which is nowhere on the globe")
                }
                if let at = answer.coordinate, GreatCircle.distance(at, place.centre) > Self.unrelated, !answer.covers(place.centre) {
                    let kilometres = Int((GreatCircle.distance(at, place.centre) / 1000).rounded())
                    throw .namingAnswerUnreadable(place: subject, reason: "it is about a place \(kilometres.grouped) km from the one asked about")
                }
                return answer
            }
            allCached = allCached && answer.fromCache
            return answer.value
        }
        let zoom = Self.zoom(forRadius: place.radiusMeters)
        if zoom == 18 {
            let poi = try await reverse(zoom: 18, layer: "poi,natural,manmade")
            if poi.error == nil, poi.ownName != nil, let at = poi.coordinate,
               GreatCircle.distance(at, place.centre) <= max(place.radiusMeters, Self.nearEnough) {
                if allCached { client.tally.markCached(place.placeID) }
                return poi.placeName
            }
        }
        let name = try await reverse(zoom: zoom, layer: zoom == 18 ? "address" : nil).placeName
        // Counted as named from the cache only when no request was sent for it.
        if allCached { client.tally.markCached(place.placeID) }
        return name
    }
}
