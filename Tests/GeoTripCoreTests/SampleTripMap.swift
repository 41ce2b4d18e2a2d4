import Foundation
import GeoTripTestSupport
@testable import GeoTripCore

/// The sample trip rendered as a map page, for the page's tests: ingested from a copy of
/// SampleImages, thumbnails made, the trip mapped into a `TripMapInput` as the export stage
/// will (straight legs between consecutive visits), with one hostile name and one hostile note.
enum SampleTripMap {
    static let hostileName = "</script><b>x"
    static let hostileNote = "<img src=x onerror=alert(1)>"

    /// A rendered page in `folder/geotrip/index.html`, and its input.
    static func render(in folder: TemporaryFolder, language: String = "en") async throws -> (page: URL, input: TripMapInput, html: String) {
        let trip = try folder.copySampleImages()
        _ = try await IngestPipeline(options: IngestOptions(folder: trip.path)).run(progress: SilentProgress())
        let catalog = try Catalog.open(at: IngestOptions.defaultCatalogPath(for: trip.path), access: .readOnly)
        let model = try catalog.trip()
        let photos = try catalog.photos()
        let output = trip.appendingPathComponent("geotrip")
        let maker = ThumbnailMaker(tripFolder: trip, outputFolder: output)
        let byPath = Dictionary(photos.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var sources: [ThumbnailSource] = []
        for photo in photos {
            let attributes = try FileManager.default.attributesOfItem(atPath: trip.appendingPathComponent(photo.path).path)
            sources.append(ThumbnailSource(
                photoID: photo.id, path: photo.path, media: .photo(photo.format),
                fileSize: (attributes[.size] as! NSNumber).int64Value,
                modifiedNanos: Int64((attributes[.modificationDate] as! Date).timeIntervalSince1970 * 1e9),
                orientation: photo.orientation, embeddedThumbnail: photo.thumbnail))
        }
        let outcomes = await maker.makeAll(sources)
        let thumbnails = Dictionary(zip(photos.map(\.path), outcomes.map(\.relativePath)), uniquingKeysWith: { a, _ in a })

        var visits = model.visits.map { visit in
            TripMapInput.Visit(
                id: visit.id, placeId: visit.placeId, name: visit.name, admin1: visit.admin1, country: visit.country,
                countryCode: visit.countryCode, latitude: visit.latitude, longitude: visit.longitude,
                localDate: visit.localDate, localArrival: visit.localArrival, localDeparture: visit.localDeparture,
                zone: nil, photoCount: visit.photoCount,
                media: visit.photos.compactMap { path in
                    guard byPath[path] != nil else { return nil }
                    return TripMapInput.Media(path: "../" + path, thumbnail: thumbnails[path] ?? nil)
                })
        }
        visits[1].name = hostileName
        visits[2].notes = hostileNote
        visits[0].notes = "Breakfast by the river.\nThen the tram up the hill."
        let legs = zip(visits, visits.dropFirst()).map { from, to in
            TripMapInput.Leg(localDate: to.localDate, kind: .direct, coordinates: [
                Coordinate(latitude: from.latitude, longitude: from.longitude),
                Coordinate(latitude: to.latitude, longitude: to.longitude),
            ])
        }
        let input = TripMapInput(
            language: language, visits: visits,
            days: model.days.map { TripMapInput.Day(date: $0.date, unplacedPhotoCount: $0.unplacedPhotos.count) },
            legs: legs)
        let resources = try TripMapResources.load(gazetteer: try Gazetteer.load())
        let html = TripMapPage(input: input).render(with: resources)
        let page = output.appendingPathComponent("index.html")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try html.write(to: page, atomically: true, encoding: .utf8)
        return (page, input, html)
    }
}
