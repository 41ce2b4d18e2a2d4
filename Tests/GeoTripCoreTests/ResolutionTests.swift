import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Time resolution against the rules of the world's clocks (the zones' offsets and DST dates
/// are facts), and location resolution against positions computed by hand.
@Suite("Time resolution")
struct TimeResolutionTests {
    /// Zones by position for these tests: west of 0° Lisbon, east Paris; nothing at sea.
    static func zone(_ c: Coordinate) -> String? {
        if c.latitude == 0 && c.longitude == 0 { return nil }
        return c.longitude < -5 ? "Europe/Lisbon" : c.longitude > 100 ? "Asia/Tokyo" : "Europe/Paris"
    }

    static let paris = Coordinate(latitude: 48.8584, longitude: 2.2945)
    static let lisbon = Coordinate(latitude: 38.7, longitude: -9.14)
    static let kyoto = Coordinate(latitude: 35.0, longitude: 135.7)

    func local(_ text: String) -> LocalDateTime { LocalDateTime(iso8601: text)! }
    func utc(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }
    func resolver(_ corrections: [String] = [], tz: String? = nil) -> TimeResolver {
        TimeResolver(corrections: corrections.map { try! ClockCorrection(parsing: $0) }, assumedZone: tz.flatMap(AssumedZone.init),
                     zoneAt: Self.zone)
    }

    @Test("an offset tag decides the instant; the position's zone, when known, is the zone, whatever the offset")
    func offsetTag() {
        var r = resolver()
        let t = r.resolve(local: local("2025-06-10T08:12:05.123"), offset: UTCOffset(parsing: "+01:00"), gpsTime: nil, position: Self.lisbon, camera: nil)
        #expect(t.source == .offsetTag)
        #expect(t.utc?.geotripISO8601 == "2025-06-10T07:12:05.123Z")
        #expect(t.zone == "Europe/Lisbon")
        let kyoto = r.resolve(local: local("2025-06-10T08:00:00"), offset: UTCOffset(parsing: "+09:00"), gpsTime: nil, position: nil, camera: nil)
        #expect(kyoto.utc?.geotripISO8601 == "2025-06-09T23:00:00Z")
        #expect(kyoto.zone == "+09:00")
        // A camera kept on home time (and its offset) in Kyoto: 02:05 at +01:00 is 01:05Z, on
        // Kyoto's clock 10:05 of that day, not 02:05 of the day before the day starts.
        let home = r.resolve(local: local("2024-01-15T02:05:00"), offset: UTCOffset(parsing: "+01:00"), gpsTime: nil, position: Self.kyoto, camera: nil)
        #expect(home.source == .offsetTag && home.utc?.geotripISO8601 == "2024-01-15T01:05:00Z" && home.zone == "Asia/Tokyo")
    }

    @Test("the position's zone applies daylight saving: Paris in July is +2, in January +1")
    func locationWithDST() {
        var r = resolver()
        let july = r.resolve(local: local("2025-07-14T12:00:00"), offset: nil, gpsTime: nil, position: Self.paris, camera: nil)
        #expect(july.source == .location && july.utc?.geotripISO8601 == "2025-07-14T10:00:00Z" && july.zone == "Europe/Paris")
        let january = r.resolve(local: local("2025-01-14T12:00:00"), offset: nil, gpsTime: nil, position: Self.paris, camera: nil)
        #expect(january.utc?.geotripISO8601 == "2025-01-14T11:00:00Z")
    }

    @Test("across the spring DST change in Lisbon (2025-03-30, 01:00 becomes 02:00)")
    func acrossDSTChange() {
        var r = resolver()
        let before = r.resolve(local: local("2025-03-30T00:30:00"), offset: nil, gpsTime: nil, position: Self.lisbon, camera: nil)
        let after = r.resolve(local: local("2025-03-30T03:30:00"), offset: nil, gpsTime: nil, position: Self.lisbon, camera: nil)
        #expect(before.utc?.geotripISO8601 == "2025-03-30T00:30:00Z")
        #expect(after.utc?.geotripISO8601 == "2025-03-30T02:30:00Z")
    }

    @Test("in the autumn overlap the first occurrence counts, in the spring gap the instant the clocks moved on, east and west of UTC alike")
    func dstOverlapAndGap() {
        var r = resolver(tz: "Europe/Berlin")
        // 2025-10-26 02:30 happened twice in Berlin: first at 00:30Z (CEST), then 01:30Z (CET).
        #expect(r.resolve(local: local("2025-10-26T02:30:00"), offset: nil, gpsTime: nil, position: nil, camera: nil).utc?.geotripISO8601
                == "2025-10-26T00:30:00Z")
        var ny = resolver(tz: "America/New_York")
        // 2025-11-02 01:30 happened twice in New York: first at 05:30Z (EDT).
        #expect(ny.resolve(local: local("2025-11-02T01:30:00"), offset: nil, gpsTime: nil, position: nil, camera: nil).utc?.geotripISO8601
                == "2025-11-02T05:30:00Z")
        // 2025-03-09 02:30 never happened in New York: the clocks went from 02:00 EST to 03:00
        // EDT at 07:00Z (the tz database), which it is read as, so one camera's photos keep
        // their order on both sides: 01:59:59 EST (06:59:59Z), then 03:10 EDT (07:10Z).
        func newYork(_ wall: String) -> String? {
            ny.resolve(local: local(wall), offset: nil, gpsTime: nil, position: nil, camera: nil).utc?.geotripISO8601
        }
        #expect(newYork("2025-03-09T01:59:59") == "2025-03-09T06:59:59Z")
        #expect(newYork("2025-03-09T02:30:00") == "2025-03-09T07:00:00Z")
        #expect(newYork("2025-03-09T03:10:00") == "2025-03-09T07:10:00Z")
        // 2025-03-30 02:30 never happened in Berlin: the clocks moved on at 01:00Z.
        #expect(r.resolve(local: local("2025-03-30T02:30:00"), offset: nil, gpsTime: nil, position: nil, camera: nil).utc?.geotripISO8601
                == "2025-03-30T01:00:00Z")
        // Lisbon (from 01:00 WET to 02:00 WEST at 01:00Z), by the photos' position: 00:50,
        // 01:30 (skipped) and 02:10 on one camera's clock stay in that order.
        var lisbon = resolver()
        let times = ["2025-03-30T00:50:00", "2025-03-30T01:30:00", "2025-03-30T02:10:00"].map {
            lisbon.resolve(local: local($0), offset: nil, gpsTime: nil, position: Self.lisbon, camera: nil).utc?.geotripISO8601
        }
        #expect(times == ["2025-03-30T00:50:00Z", "2025-03-30T01:00:00Z", "2025-03-30T01:10:00Z"])
        // Lord Howe moves its clocks by half an hour (02:00 +10:30 to 02:30 +11:00, at 15:30Z the day before).
        var howe = resolver(tz: "Australia/Lord_Howe")
        #expect(howe.resolve(local: local("2025-10-05T02:15:00"), offset: nil, gpsTime: nil, position: nil, camera: nil).utc?.geotripISO8601
                == "2025-10-04T15:30:00Z")
    }

    @Test("GPS time decides when it agrees to a whole real offset, including +05:45 and +09:30")
    func gpsTime() {
        var r = resolver()
        let nepal = r.resolve(local: local("2025-05-01T12:00:10"), offset: nil, gpsTime: utc("2025-05-01T06:15:00Z"), position: nil, camera: nil)
        #expect(nepal.source == .gps && nepal.zone == "+05:45" && nepal.utc?.geotripISO8601 == "2025-05-01T06:15:10Z")
        let paris = r.resolve(local: local("2025-07-14T12:00:03"), offset: nil, gpsTime: utc("2025-07-14T10:00:00Z"), position: Self.paris, camera: nil)
        #expect(paris.source == .gps && paris.zone == "Europe/Paris")
    }

    @Test("a stale GPS fix does not win: hours off, or disagreeing with the position's zone")
    func staleGPS() {
        var r = resolver()
        // 27 hours stale (seen in real files): beyond any real offset.
        let stale = r.resolve(local: local("2025-07-14T12:00:00"), offset: nil, gpsTime: utc("2025-07-13T07:00:00Z"), position: Self.paris, camera: nil)
        #expect(stale.source == .location && stale.utc?.geotripISO8601 == "2025-07-14T10:00:00Z")
        // One hour stale, which alone would look like +03:00: Paris says +02:00, so not GPS.
        let hourStale = r.resolve(local: local("2025-07-14T12:00:00"), offset: nil, gpsTime: utc("2025-07-14T09:00:00Z"), position: Self.paris, camera: nil)
        #expect(hourStale.source == .location && hourStale.utc?.geotripISO8601 == "2025-07-14T10:00:00Z")
        // Seven minutes off a whole offset: not the same moment.
        let drifted = r.resolve(local: local("2025-07-14T12:07:00"), offset: nil, gpsTime: utc("2025-07-14T10:00:00Z"), position: nil, camera: nil)
        #expect(drifted.source == .none)
    }

    @Test("a wrong camera clock is fixed by --clock-offset, for all cameras or one")
    func clockOffset() {
        // The camera was left on home time, 22 hours behind: shift it.
        var all = resolver(["+22:00:00"])
        let shifted = all.resolve(local: local("2025-06-09T12:00:00"), offset: UTCOffset(parsing: "+09:00"), gpsTime: nil, position: nil, camera: "FUJIFILM X-T30")
        #expect(shifted.utc?.geotripISO8601 == "2025-06-10T01:00:00Z")
        var one = resolver(["-0 1:00:00", "FUJIFILM X-T30=+00:30:00"])
        let fuji = one.resolve(local: local("2025-06-10T12:00:00"), offset: UTCOffset(parsing: "+00:00"), gpsTime: nil, position: nil, camera: "FUJIFILM X-T30")
        let phone = one.resolve(local: local("2025-06-10T12:00:00"), offset: UTCOffset(parsing: "+00:00"), gpsTime: nil, position: nil, camera: "Apple iPhone 13")
        #expect(fuji.utc?.geotripISO8601 == "2025-06-10T12:30:00Z")
        #expect(phone.utc?.geotripISO8601 == "2025-06-10T11:00:00Z")
    }

    @Test("clock offsets are parsed strictly", arguments: [
        ("+01:00:00", 3600), ("-00:30:00", -1800), ("+1 02:00:00", 93600), ("-0 22:00:00", -79200), ("Apple iPhone 13=+00:00:05", 5),
        ("01:00:00", nil), ("+1:00", nil), ("=+01:00:00", nil), ("+01:60:00", nil), ("+x 01:00:00", nil), ("++01:00:00", nil),
        ("+01:+1:00", nil), ("+ 01:00:00", nil), ("+30:00:00", 108_000), ("+0 30:00:00", nil), ("+1 24:00:00", nil),
    ] as [(String, Int?)])
    func clockOffsetParsing(text: String, seconds: Int?) {
        #expect((try? ClockCorrection(parsing: text))?.seconds == seconds)
    }

    @Test("--tz is the fallback; with nothing at all the time stays floating")
    func assumedAndNone() {
        var assumed = resolver(tz: "Asia/Tokyo")
        let t = assumed.resolve(local: local("2025-06-10T09:00:00"), offset: nil, gpsTime: nil, position: nil, camera: nil)
        #expect(t.source == .assumed && t.utc?.geotripISO8601 == "2025-06-10T00:00:00Z" && t.zone == "Asia/Tokyo")
        var none = resolver()
        let n = none.resolve(local: local("2025-06-10T09:00:00"), offset: nil, gpsTime: nil, position: nil, camera: nil)
        #expect(n.source == .none && n.utc == nil && n.zone == nil)
        #expect(AssumedZone("Mars/Olympus") == nil && AssumedZone("+05:45") != nil)
    }
}

@Suite("Location resolution")
struct LocationResolutionTests {
    static let start = Date(timeIntervalSince1970: 1_749_546_000)  // 2025-06-10T09:00:00Z
    func at(_ minutes: Double) -> Date { Self.start.addingTimeInterval(minutes * 60) }
    let hotel = Coordinate(latitude: 38.7110, longitude: -9.1370)
    let belem = Coordinate(latitude: 38.6916, longitude: -9.2160)

    struct FixedTrack: TrackPositioning {
        var coordinate: Coordinate
        var from: Date
        var to: Date
        func position(at time: Date) -> (coordinate: Coordinate, uncertaintyMeters: Double)? {
            time >= from && time <= to ? (coordinate, 12) : nil
        }
    }

    @Test("manual beats EXIF beats track beats interpolated")
    func ranking() {
        let track = FixedTrack(coordinate: belem, from: at(0), to: at(60))
        let resolver = LocationResolver(track: track)
        let manual = ResolvedLocation(coordinate: hotel, source: .manual, uncertaintyMeters: 10)
        let result = resolver.resolve([
            PositionEvidence(utc: at(10), exif: belem, manual: manual),
            PositionEvidence(utc: at(10), exif: hotel, manual: nil),
            PositionEvidence(utc: at(10), exif: nil, manual: nil),
            PositionEvidence(utc: at(120), exif: nil, manual: nil),
        ])
        #expect(result[0]?.source == .manual && result[0]?.coordinate == hotel)
        #expect(result[1]?.source == .exif && result[1]?.coordinate == hotel)
        #expect(result[2]?.source == .track && result[2]?.coordinate == belem)
        #expect(result[3] == nil)
    }

    @Test("between two nearby neighbours, the photo is placed along the way in proportion to time")
    func interpolation() throws {
        let result = LocationResolver().resolve([
            PositionEvidence(utc: at(0), exif: hotel, manual: nil),
            PositionEvidence(utc: at(5), exif: nil, manual: nil),
            PositionEvidence(utc: at(20), exif: belem, manual: nil),
        ])
        let middle = try #require(result[1])
        #expect(middle.source == .interpolated)
        // A quarter of the way; over 7 km the great circle and the straight line in degrees
        // agree to well under a metre.
        #expect(abs(middle.coordinate.latitude - (hotel.latitude + (belem.latitude - hotel.latitude) / 4)) < 1e-5)
        #expect(abs(middle.coordinate.longitude - (hotel.longitude + (belem.longitude - hotel.longitude) / 4)) < 1e-5)
        let distance = GreatCircle.distance(hotel, belem)
        #expect(abs(middle.uncertaintyMeters - (10 + distance / 4)) < 1)
    }

    @Test("a train ride: neighbours more than 30 minutes away leave the photo without a position")
    func trainRide() {
        let seville = Coordinate(latitude: 37.3772, longitude: -5.9869)
        let result = LocationResolver().resolve([
            PositionEvidence(utc: at(0), exif: hotel, manual: nil),        // the morning's hotel in Lisbon
            PositionEvidence(utc: at(90), exif: nil, manual: nil),         // out of the train window
            PositionEvidence(utc: at(300), exif: seville, manual: nil),    // arriving in Seville
        ])
        #expect(result[1] == nil)
    }

    @Test("a flight: neighbours within the window but far too fast apart give no position")
    func flight() {
        let madrid = Coordinate(latitude: 40.4983, longitude: -3.5676)
        let result = LocationResolver().resolve([
            PositionEvidence(utc: at(0), exif: hotel, manual: nil),
            PositionEvidence(utc: at(15), exif: nil, manual: nil),
            PositionEvidence(utc: at(30), exif: madrid, manual: nil),  // 500 km in 30 minutes
        ])
        #expect(result[1] == nil)
    }

    @Test("interpolation across the antimeridian stays near 180°, not at Greenwich")
    func antimeridian() throws {
        let west = Coordinate(latitude: -17, longitude: 179.99), east = Coordinate(latitude: -17, longitude: -179.99)
        let result = LocationResolver().resolve([
            PositionEvidence(utc: at(0), exif: west, manual: nil),
            PositionEvidence(utc: at(1), exif: nil, manual: nil),
            PositionEvidence(utc: at(2), exif: east, manual: nil),
        ])
        let middle = try #require(result[1])
        #expect(abs(abs(middle.coordinate.longitude) - 180) < 1e-6)
    }

    @Test("a photo without any time cannot be placed by a track or neighbours")
    func noTime() {
        let result = LocationResolver(track: FixedTrack(coordinate: belem, from: at(0), to: at(60))).resolve([
            PositionEvidence(utc: at(0), exif: hotel, manual: nil),
            PositionEvidence(utc: nil, exif: nil, manual: nil),
        ])
        #expect(result[1] == nil)
    }
}

/// Instants as the catalog's text keeps them, against Foundation's own formatter.
@Suite("Catalog instants")
struct CatalogInstantTests {
    @Test("geotripISO8601 writes what Foundation's formatter writes, and nothing outside years 1 to 9999")
    func textAndMilliseconds() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
        var random = SplitMix(seed: 8601)
        // Years 1600 to 9999 (before 1583 Foundation's calendar is Julian; ours is proleptic).
        for _ in 0..<2_000 {
            let milliseconds = Int64(random.uniform(-11_670_000_000, 253_402_300_799.999) * 1000)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            var expected = formatter.string(from: date)
            if expected.hasSuffix(".000") { expected.removeLast(4) }
            #expect(date.geotripISO8601 == expected + "Z")
        }
        for (seconds, hasText) in [(-62_135_596_800.0, true), (-62_135_596_800.001, false), (253_402_300_799.999, true),
                                   (253_402_300_800, false), (1e12, false), (-1e12, false), (.nan, false)] {
            #expect((Date(timeIntervalSince1970: seconds).geotripISO8601 != nil) == hasText, "\(seconds)")
        }
        #expect(Date(timeIntervalSince1970: -62_135_596_800).geotripISO8601 == "0001-01-01T00:00:00Z")
    }
}
