import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Cameras whose clocks show another zone than the place's, resolved with the real gazetteer's
/// zones: the truth is the instant each photo was taken, computed here from the zones' offsets
/// (Tokyo +09:00 and Berlin +01:00 in January, neither with daylight saving then).
@Suite("Clocks of other zones")
struct ClockReadingTests {
    static let tokyo = Coordinate(latitude: 35.6586, longitude: 139.7454)

    /// A phone's photo in Tokyo at `local`, with its offset tag and position.
    static func phone(_ id: Int64, _ local: String) -> PhotoEvidence {
        PhotoEvidence(id: id, path: "IMG_\(id).jpg", localTime: local, utcOffset: "+09:00", gpsTime: nil, make: "Apple", model: "iPhone 13",
                      exifCoordinate: tokyo)
    }

    /// A camera's photo without GPS or offset: its clock shows `local`.
    static func camera(_ id: Int64, _ local: String) -> PhotoEvidence {
        PhotoEvidence(id: id, path: "DSCF\(id).jpg", localTime: local, utcOffset: nil, gpsTime: nil, make: "FUJIFILM", model: "X-T30",
                      exifCoordinate: nil)
    }

    static func resolve(_ photos: [PhotoEvidence], _ settings: ResolutionSettings) throws -> [Int64: ResolvedPhoto] {
        try ResolutionWindowTests.resolve(photos, tags: [:], settings: settings).mapValues(\.photo)
    }

    @Test("a camera kept on --tz's clock abroad keeps the instant that clock gives, placed between the photos of that moment")
    func cameraOnHomeClock() throws {
        // Berlin's 02:05 is 01:05Z, between the phone's 10:00 and 10:20 in Tokyo (01:00Z, 01:20Z).
        let photos = [Self.phone(1, "2024-01-15T10:00:00"), Self.camera(2, "2024-01-15T02:05:00"), Self.phone(3, "2024-01-15T10:20:00")]
        let resolved = try Self.resolve(photos, ResolutionSettings(assumedZone: "Europe/Berlin"))
        let camera = try #require(resolved[2])
        #expect(camera.utc?.geotripISO8601 == "2024-01-15T01:05:00.000Z" || camera.utc?.geotripISO8601 == "2024-01-15T01:05:00Z",
                "\(String(describing: camera.utc))")
        #expect(camera.locationSource == .interpolated && camera.timeSource == .assumed && camera.zone == "Asia/Tokyo")
        #expect(try GreatCircle.distance(#require(camera.coordinate), Self.tokyo) < 100)
    }

    @Test("--tz is the zone the camera's clock showed: a camera kept on it is read so wherever a track puts it, on the place's clock and day")
    func cameraOnTzClockAlongTrack() throws {
        // The track: at Tokyo Tower from 01:00Z to 01:10Z, then 5 km away from 09:00Z to 09:10Z.
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let track = temp.url.appendingPathComponent("t.gpx")
        try """
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk>
            <trkseg><trkpt lat="35.6586" lon="139.7454"><time>2024-01-15T01:00:00Z</time></trkpt>\
            <trkpt lat="35.6586" lon="139.7500"><time>2024-01-15T01:10:00Z</time></trkpt></trkseg>
            <trkseg><trkpt lat="35.6900" lon="139.7000"><time>2024-01-15T09:00:00Z</time></trkpt>\
            <trkpt lat="35.6900" lon="139.7050"><time>2024-01-15T09:10:00Z</time></trkpt></trkseg>
            </trk></gpx>
            """.write(to: track, atomically: true, encoding: .utf8)
        // Kept on Berlin's clock: 10:05 there is 09:05Z, halfway along the second stretch,
        // though Tokyo's clock showing 10:05 would be 01:05Z, on the first (which the track
        // also covers: both readings place the photo, and the one the person gave stands).
        let resolved = try Self.resolve([Self.camera(1, "2024-01-15T10:05:00")], ResolutionSettings(assumedZone: "Europe/Berlin", tracks: [track.path]))
        let camera = try #require(resolved[1])
        #expect(camera.utc.map { Int($0.timeIntervalSince1970) } == Int(UTCTimestamp(iso8601: "2024-01-15T09:05:00Z")!.date.timeIntervalSince1970))
        #expect(camera.timeSource == .assumed && camera.zone == "Asia/Tokyo" && camera.locationSource == .track)
        let expected = Coordinate(latitude: 35.6900, longitude: 139.7025)
        #expect(try GreatCircle.distance(#require(camera.coordinate), expected) < 20, "\(String(describing: camera.coordinate))")
    }

    @Test("a camera on --tz's clock placed by a neighbour's borrowed offset is placed at its own instant")
    func placedByBorrowedOffset() throws {
        // The phone in Tokyo in the morning and 5 km away in the evening; a camera kept on
        // home time (with its offset) at 10:06; the camera without GPS or offset at 10:05 on
        // Tokyo's clock (--tz Asia/Tokyo): 01:05Z, in the morning's place.
        let evening = Coordinate(latitude: 35.6900, longitude: 139.7000)
        func phone(_ id: Int64, _ local: String, _ at: Coordinate) -> PhotoEvidence {
            PhotoEvidence(id: id, path: "IMG_\(id).jpg", localTime: local, utcOffset: "+09:00", gpsTime: nil, make: "Apple", model: "iPhone 13",
                          exifCoordinate: at)
        }
        let home = PhotoEvidence(id: 5, path: "H5.jpg", localTime: "2024-01-15T10:06:00", utcOffset: "+01:00", gpsTime: nil, make: "Canon",
                                 model: "R5", exifCoordinate: nil)
        let photos = [phone(1, "2024-01-15T10:00:00", Self.tokyo), phone(2, "2024-01-15T10:20:00", Self.tokyo),
                      phone(3, "2024-01-15T18:00:00", evening), phone(4, "2024-01-15T18:20:00", evening), home, Self.camera(6, "2024-01-15T10:05:00")]
        let camera = try #require(try Self.resolve(photos, ResolutionSettings(assumedZone: "Asia/Tokyo"))[6])
        #expect(camera.utc?.geotripISO8601?.hasPrefix("2024-01-15T01:05:00") == true, "\(String(describing: camera.utc))")
        #expect(GreatCircle.distance(try #require(camera.coordinate), Self.tokyo) < 100)
    }

    @Test("a clip with no make or model votes alone: a phone's UTC clip is not outvoted by another device's local ones")
    func videosWithoutCamera() throws {
        func clip(_ id: Int64, _ movieTime: String, at coordinate: Coordinate?) -> PhotoEvidence {
            var video = PhotoEvidence(id: id, path: "VID_\(id).mp4", localTime: movieTime, utcOffset: nil, gpsTime: nil, make: nil, model: nil,
                                      exifCoordinate: coordinate, positionSource: .quicktime)
            video.format = .video
            video.timeField = .quickTimeCreateDate
            return video
        }
        // The phone's clip holds UTC (01:22Z, 10:22 in Tokyo) and its place; two action-camera
        // clips hold Tokyo's wall clock (10:10, 10:30).
        let photos = [Self.phone(1, "2024-01-15T10:00:00"), clip(2, "2024-01-15T10:10:00", at: nil), Self.phone(3, "2024-01-15T10:20:00"),
                      clip(4, "2024-01-15T01:22:00", at: Self.tokyo), clip(5, "2024-01-15T10:30:00", at: nil), Self.phone(6, "2024-01-15T10:40:00")]
        let resolved = try Self.resolve(photos, ResolutionSettings())
        func instant(_ id: Int64) -> String? { resolved[id]?.utc?.geotripISO8601.map { String($0.prefix(19)) } }
        #expect(instant(4) == "2024-01-15T01:22:00" && resolved[4]?.timeSource == .movieHeaderUTC, "\(String(describing: resolved[4]))")
        #expect(instant(2) == "2024-01-15T01:10:00" && instant(5) == "2024-01-15T01:30:00")
    }
}
