import Foundation

extension TripMapInput {
    /// The map page's input from the one trip model, as the export stage has it: visits outside
    /// the privacy zones with their notes, photos and thumbnails, every day with its notes, and
    /// the route already cut at the zones.
    ///
    /// - Parameters:
    ///   - photos: the trip's photos (their ids name the thumbnails).
    ///   - thumbnails: each photo's thumbnail, relative to the page.
    ///   - tripFolderLink: the way from the page's folder to the trip folder (`..`).
    static func from(trip: Trip, route: TripRoute, notes: [String: String], photos: [TripPhoto], thumbnails: [Int64: String],
                     tripFolderLink: String, privacy: PrivacyZones, language: String, tiles: Tiles?) -> TripMapInput {
        from(trip: trip, route: route, notes: notes, byPath: PhotosByPath(photos),
             thumbnails: thumbnails, tripFolderLink: tripFolderLink, privacy: privacy, language: language, tiles: tiles)
    }

    /// The same from the trip's photos by path, as the export stage has them already;
    /// `rawNames` holds the file names of photos whose names are not UTF-8, by path
    /// (`FolderScanner.rawBytes`): they are linked by them.
    static func from(trip: Trip, route: TripRoute, notes: [String: String], byPath: PhotosByPath, thumbnails: [Int64: String],
                     tripFolderLink: String, privacy: PrivacyZones, language: String, tiles: Tiles?,
                     libraryIndex: String? = nil, rawNames: [String: [UInt8]] = [:]) -> TripMapInput {
        let prefix = tripFolderLink.isEmpty ? [] : Array(tripFolderLink.utf8) + [UInt8(ascii: "/")]
        let visible = trip.visits(leavingOut: privacy)
        let visits = visible.map { visit in
            // Photos taken inside a zone are neither linked nor shown, whatever visit they
            // joined (one at the edge of a visit whose centre is outside, a stray), nor counted.
            let outside = visit.photos.filter { !(byPath[$0].map(privacy.hides) ?? false) }
            // Its times and centre are those of the photos shown (`TripVisit.shared(by:privacy:)`).
            var shown = Visit(id: visit.id, placeId: visit.placeId, name: visit.name, admin1: visit.admin1, country: visit.country,
                  countryCode: visit.countryCode, latitude: visit.latitude, longitude: visit.longitude, localDate: visit.localDate,
                  localArrival: visit.localArrival, localDeparture: visit.localDeparture,
                  zone: visit.timeZone.flatMap { zone in UTCTimestamp.date(visit.arrival).map { LocalClock.abbreviation(zone, at: $0) } },
                  photoCount: visit.photoCount - (visit.photos.count - outside.count), notes: notes[visit.id],
                  media: outside.map { path in
                      let photo = byPath[path], isVideo = photo?.format == .video
                      var media = Media(kind: isVideo ? .video : .photo, path: tripFolderLink.isEmpty ? path : tripFolderLink + "/" + path,
                                        thumbnail: photo.flatMap { thumbnails[$0.id] }, durationSeconds: photo?.durationSeconds,
                                        // A video's own marker stands where it was made: not where its
                                        // neighbours placed it (on the line from the place before,
                                        // which may be a hidden one).
                                        coordinate: isVideo && photo?.locationSource != LocationSource.interpolated.rawValue
                                            ? photo?.coordinate.flatMap { privacy.contains($0) ? nil : $0 } : nil)
                      media.pathBytes = rawNames[path].map { prefix + $0 }
                      return media
                  })
            let departureZone = visit.timeZone.flatMap { zone in UTCTimestamp.date(visit.departure).map { LocalClock.abbreviation(zone, at: $0) } }
            if departureZone != shown.zone { shown.departureZone = departureZone }
            return shown
        }
        let days = trip.days.map { Day(date: $0.date, notes: notes[$0.date], unplacedPhotoCount: $0.unplacedPhotos.count) }
        let legs = route.legs.map { Leg(localDate: $0.localDate, kind: $0.kind, coordinates: $0.coordinates) }
        return TripMapInput(language: language, visits: visits, days: days, legs: legs, tiles: tiles,
                            namesFromOpenStreetMap: visible.contains { $0.nameSource == NameSource.nominatim.rawValue },
                            libraryIndex: libraryIndex)
    }
}
