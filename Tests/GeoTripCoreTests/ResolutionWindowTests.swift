import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// Issue 15: a rerun resolves only the stretch of capture time its changes reach
/// (`ResolutionWindow`), and gets what a full pass gives. The photos here lean on each other the
/// way a real trip's do: a camera without GPS or offset borrows its offset from the phone's
/// photos around it, and is placed between them.
@Suite("Resolution window")
struct ResolutionWindowTests {
    static let gazetteer: Result<Gazetteer, GeoTripError> = Result { () throws(GeoTripError) in try Gazetteer.load() }

    /// Places with their zones in June: Lisbon (+01:00), Tokyo (+09:00), New York (−04:00).
    static let places: [(Double, Double)] = [(38.7139, -9.1394), (35.6812, 139.7671), (40.7128, -74.0060)]
    static let offsets = ["+01:00", "+09:00", "-04:00"]

    /// A random photo of a trip over forty days of June and July 2025: a phone's (offset tag and
    /// GPS), a camera's (neither), one with GPS and no offset (its zone decides), one with only a
    /// GPS time, or one with no time at all.
    static func photo(_ id: Int64, _ random: inout SplitMix) -> PhotoEvidence {
        let day = Int(random.uniform(0, 40))
        let place = day / 3 % places.count
        let (latitude, longitude) = places[place]
        // Half the photos in a busy morning, where videos are made too, so their readings can
        // be borne out (`VideoClock`); the rest over the day.
        let busy = random.uniform(0, 1) < 0.5
        let minutes = Int(busy ? random.uniform(10 * 60, 11 * 60 + 30) : random.uniform(8 * 60, 20 * 60))
        let date = Date(timeIntervalSince1970: 1_748_736_000 + Double(day * 86_400 + minutes * 60 + Int(random.uniform(0, 60))))
        let local = String(date.geotripISO8601!.dropLast())
        let spot = Coordinate(latitude: latitude + random.uniform(-0.01, 0.01), longitude: longitude + random.uniform(-0.01, 0.01))
        switch random.uniform(0, 1) {
        case ..<0.06 where busy:
            // A video timed by its movie header only: an action camera writes its wall clock
            // there, a phone UTC (`VideoClock`); some know where they were.
            let action = random.uniform(0, 1) < 0.5
            let utc = date.addingTimeInterval(-Double(UTCOffset(parsing: offsets[place])!.minutes * 60))
            var video = PhotoEvidence(id: id, path: "v\(id).mp4", localTime: action ? local : String(utc.geotripISO8601!.dropLast()),
                                      utcOffset: nil, gpsTime: nil, make: action ? "GoPro" : "Google", model: action ? "HERO" : "Pixel",
                                      exifCoordinate: random.uniform(0, 1) < 0.5 ? spot : nil, positionSource: .quicktime)
            video.format = .video
            video.timeField = .quickTimeCreateDate
            return video
        case ..<0.4:
            return PhotoEvidence(id: id, path: "p\(id).jpg", localTime: local, utcOffset: offsets[place], gpsTime: nil,
                                 make: "Apple", model: "iPhone", exifCoordinate: spot)
        case ..<0.8:
            return PhotoEvidence(id: id, path: "p\(id).jpg", localTime: local, utcOffset: nil, gpsTime: nil,
                                 make: "Canon", model: "EOS", exifCoordinate: nil)
        case ..<0.9:
            return PhotoEvidence(id: id, path: "p\(id).jpg", localTime: local, utcOffset: nil, gpsTime: nil,
                                 make: "Sony", model: "A7", exifCoordinate: spot)
        case ..<0.96:
            let gps = date.addingTimeInterval(-Double(UTCOffset(parsing: offsets[place])!.minutes * 60)).geotripISO8601
            return PhotoEvidence(id: id, path: "p\(id).jpg", localTime: nil, utcOffset: nil, gpsTime: gps,
                                 make: nil, model: nil, exifCoordinate: spot)
        default:
            return PhotoEvidence(id: id, path: "p\(id).jpg", localTime: nil, utcOffset: nil, gpsTime: nil,
                                 make: nil, model: nil, exifCoordinate: random.uniform(0, 1) < 0.5 ? spot : nil)
        }
    }

    /// Each photo's result and, for the videos timed by their movie header, its vote.
    struct Resolved: Equatable {
        var photo: ResolvedPhoto
        var vote: VideoClockVote?
    }

    /// `photos` resolved at once; movie-header videos read as `videoClocks` says, or as the
    /// photos' own votes decide when nil.
    static func resolve(_ photos: [PhotoEvidence], tags: [Int64: ResolvedLocation], settings: ResolutionSettings,
                        videoClocks: Set<String>? = nil) throws -> [Int64: Resolved] {
        let gazetteer = try Self.gazetteer.get()
        var resolution = try TripResolution(tags: tags, settings: settings, catalogPath: "test", gazetteer: { () throws(GeoTripError) in gazetteer })
        resolution.videoClocks = videoClocks
        let result = resolution.resolve(photos.sorted { $0.id < $1.id })
        return Dictionary(uniqueKeysWithValues: result.photos.map { ($0.id, Resolved(photo: $0, vote: result.votes[$0.id])) })
    }

    /// The cameras the votes of `resolved` make local wall clocks (`VideoClock.localCameras`).
    static func decisions(_ resolved: [Int64: Resolved]) -> Set<String> {
        VideoClock.localCameras(votes: resolved.values.compactMap(\.vote).map { ($0.camera, $0.vote) })
    }

    @Test("resolving the photos a random change reaches gives what a full pass gives, and the rest does not change")
    func windowEqualsFullPass() throws {
        var random = SplitMix(seed: 1_515)
        var photos = Dictionary(uniqueKeysWithValues: (1...600).map { (Int64($0), Self.photo(Int64($0), &random)) })
        var tags: [Int64: ResolvedLocation] = [:]
        var next: Int64 = 601
        var local = 0, turned = 0
        for round in 0..<40 {
            // Clock offsets are settings: a change of them resolves in full, so each round keeps its own.
            let settings = ResolutionSettings(assumedZone: round % 3 == 0 ? "Europe/Lisbon" : nil,
                                              clockOffsets: round % 4 == 1 ? ["Canon EOS=+0 01:30:00"] : [])
            let before = try Self.resolve(Array(photos.values), tags: tags, settings: settings)
            var changed: Set<Int64> = []
            var keys: [Date] = []
            func key(_ id: Int64) -> Date? { photos[id].flatMap { ResolutionWindow.key(localTime: $0.localTime, gpsTime: $0.gpsTime) } }
            for _ in 0..<Int(random.uniform(1, 6)) {
                let ids = photos.keys.sorted()
                let id = ids[Int(random.uniform(0, Double(ids.count)))]
                keys += [key(id)].compactMap { $0 }
                switch Int(random.uniform(0, 6)) {
                case 0:
                    photos[next] = Self.photo(next, &random)
                    changed.insert(next)
                    keys += [key(next)].compactMap { $0 }
                    next += 1
                    continue
                case 1:
                    photos[id] = nil
                case 2:
                    // The camera's clock moved by up to a day either way.
                    if let text = photos[id]?.localTime, let wall = LocalDateTime(iso8601: text)?.readAsUTC {
                        let moved = Date(timeIntervalSince1970: (wall.timeIntervalSince1970 + random.uniform(-86_400, 86_400)).rounded())
                        photos[id]?.localTime = String(moved.geotripISO8601!.dropLast())
                    }
                case 3:
                    let had = photos[id]?.exifCoordinate != nil
                    photos[id]?.exifCoordinate = had ? nil : Coordinate(latitude: 38.72, longitude: -9.15)
                case 4:
                    tags[id] = tags[id] == nil ? ResolvedLocation(coordinate: Coordinate(latitude: 35.0, longitude: 135.7), source: .manual,
                                                                  uncertaintyMeters: 50) : nil
                default:
                    let had = photos[id]?.utcOffset != nil
                    photos[id]?.utcOffset = had ? nil : "+02:00"
                }
                changed.insert(id)
                keys += [key(id)].compactMap { $0 }
            }
            let after = try Self.resolve(Array(photos.values), tags: tags, settings: settings)
            // A rerun reads videos as the library's votes decide; a verdict that turns is a
            // change of its own (`TripDerivation`), covered by the pipeline's tests.
            let clocks = Self.decisions(after)
            guard clocks == Self.decisions(before) else { turned += 1; continue }
            let window = ResolutionWindow(changedKeys: keys, corrections: try settings.clockOffsets.map { try ClockCorrection(parsing: $0) })

            // The photos the window reads, as the catalog finds them: by key in a stretch, or changed.
            let read = photos.values.filter { photo in
                changed.contains(photo.id) || ResolutionWindow.key(localTime: photo.localTime, gpsTime: photo.gpsTime)
                    .map { key in window.stretches.contains { $0.contains(key) } } == true
            }
            let windowed = try Self.resolve(read, tags: tags, settings: settings, videoClocks: clocks)
            for photo in read {
                let key = ResolutionWindow.key(localTime: photo.localTime, gpsTime: photo.gpsTime)
                guard changed.contains(photo.id) || key.map(window.affects) == true else { continue }
                #expect(windowed[photo.id] == after[photo.id], "round \(round): \(photo.path) resolved in its window differs from the full pass")
            }
            // A rerun resolves each stretch apart (two at a time), and the changed photos without
            // a key together: each stretch holds what its own photos depend on.
            for stretch in window.stretches {
                let own = read.filter { ResolutionWindow.key(localTime: $0.localTime, gpsTime: $0.gpsTime).map(stretch.contains) == true }
                let apart = try Self.resolve(own, tags: tags, settings: settings, videoClocks: clocks)
                for photo in own where changed.contains(photo.id) || ResolutionWindow.key(localTime: photo.localTime, gpsTime: photo.gpsTime).map(window.affects) == true {
                    #expect(apart[photo.id] == after[photo.id], "round \(round): \(photo.path) resolved in its stretch alone differs from the full pass")
                }
            }
            let keyless = read.filter { ResolutionWindow.key(localTime: $0.localTime, gpsTime: $0.gpsTime) == nil }
            let apart = try Self.resolve(keyless, tags: tags, settings: settings, videoClocks: clocks)
            for photo in keyless where changed.contains(photo.id) {
                #expect(apart[photo.id] == after[photo.id], "round \(round): \(photo.path), changed and without a key, resolved apart differs")
            }
            for (id, photo) in photos where !changed.contains(id) {
                let key = ResolutionWindow.key(localTime: photo.localTime, gpsTime: photo.gpsTime)
                if key.map(window.affects) != true {
                    #expect(after[id] == before[id], "round \(round): \(photo.path), outside the window, resolved differently")
                }
            }
            if read.count < photos.count / 2 { local += 1 }
        }
        // The window is a real part of the library, not all of it, in most rounds.
        #expect(local > 30)
        #expect(turned < 5, "\(turned) rounds turned a camera's verdict")
        // The videos among them vote, so the windows above judged real votes.
        let votes = try Self.resolve(Array(photos.values), tags: tags, settings: ResolutionSettings()).values.compactMap(\.vote)
        #expect(votes.filter { $0.vote != 0 }.count >= 5, "\(votes)")
    }

    @Test("a full pass in batches of any size gives what one pass gives, each photo stored once", arguments: [1, 40, 80, 150, 100_000])
    func batchesEqualOnePass(size: Int) throws {
        let gazetteer = try Self.gazetteer.get()
        var random = SplitMix(seed: 2_029 + UInt64(size))
        // Three trips' worth, weeks apart, so batches find quiet boundaries and dense ones too.
        let photos = (1...900).map { id in
            var photo = Self.photo(Int64(id), &random)
            let shift = Double(id % 3) * 60 * 86_400
            func moved(_ text: String?, utc: Bool) -> String? {
                guard let text else { return nil }
                let date = utc ? UTCTimestamp.date(text) : LocalDateTime(iso8601: text)?.readAsUTC
                return date.flatMap { $0.addingTimeInterval(shift).geotripISO8601 }.map { utc ? $0 : String($0.dropLast()) }
            }
            photo.localTime = moved(photo.localTime, utc: false)
            photo.gpsTime = moved(photo.gpsTime, utc: true)
            return photo
        }
        let tags: [Int64: ResolvedLocation] = [5: ResolvedLocation(coordinate: Coordinate(latitude: 35.0, longitude: 135.7), source: .manual,
                                                                   uncertaintyMeters: 50)]
        for settings in [ResolutionSettings(), ResolutionSettings(assumedZone: "Europe/Lisbon", clockOffsets: ["Canon EOS=+0 01:30:00"])] {
            let whole = try TripResolution.resolve(photos, tags: tags, settings: settings, catalogPath: "test", gazetteer: { () throws(GeoTripError) in gazetteer })
            var resolution = try TripResolution(tags: tags, settings: settings, catalogPath: "test", gazetteer: { () throws(GeoTripError) in gazetteer })
            var keyed: [ResolutionBatches.Key] = [], keyless: [Int64] = []
            for photo in photos {
                if let key = ResolutionWindow.key(localTime: photo.localTime, gpsTime: photo.gpsTime) {
                    keyed.append(ResolutionBatches.Key(key: key, id: photo.id))
                } else {
                    keyless.append(photo.id)
                }
            }
            keyed.sort { ($0.key, $0.id) < ($1.key, $1.id) }
            // Batches cut inside the trips, whose windows reach into their neighbours: the
            // case where a photo's result depends on photos another batch keeps.
            let reach = ResolutionWindow(changedKeys: [], corrections: try settings.clockOffsets.map { try ClockCorrection(parsing: $0) }).reach
            let plan = ResolutionBatches.plan(keyed, reach: reach, size: size)
            if (80...150).contains(size) {
                #expect(plan.count > 4, "size \(size): \(plan.count) batches")
                #expect(plan.contains { $0.window.count > $0.core.count + 10 }, "size \(size): no batch reaches beyond its core")
            }
            let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0) })
            var stored: [ResolvedPhoto] = []
            var storedVotes: [Int64: VideoClockVote] = [:]
            var batches = 0
            // Batches read videos as the whole pass's votes decide (`TripDerivation` stores the
            // votes, and reads a camera's videos again when its verdict turns).
            resolution.videoClocks = VideoClock.localCameras(votes: whole.votes.values.map { ($0.camera, $0.vote) })
            #expect(whole.votes.values.filter { $0.vote != 0 }.count >= 3, "the videos vote")
            let summary = resolution.resolveInBatches(keyed: keyed, keyless: keyless, size: size) { ids in
                #expect(ids == ids.sorted(), "a batch's evidence is read in id order")
                return ids.map { byID[$0]! }
            } store: { batch, votes in
                stored += batch
                storedVotes.merge(votes) { first, _ in first }
                batches += 1
            }
            #expect(stored.count == photos.count)
            #expect(Set(stored.map(\.id)).count == photos.count, "every photo is stored once")
            #expect(stored.sorted { $0.id < $1.id } == whole.photos, "size \(size): batches resolve as one pass does")
            #expect(storedVotes == whole.votes, "size \(size): each video's vote is its vote in one pass")
            #expect(summary.timeSources == whole.summary.timeSources && summary.locationSources == whole.summary.locationSources)
            #expect(Set(summary.photoProblems.map(\.path)) == Set(whole.summary.photoProblems.map(\.path)))
            #expect(batches == plan.count + (keyless.count + size - 1) / size, "size \(size): one store per batch")
        }
    }

    @Test("batches' cores divide the photos in key order, and each window holds every photo within reach of its core")
    func batchPlan() {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        // Sparse days, then a dense burst of a thousand photos a minute apart.
        var keys = (0..<300).map { ResolutionBatches.Key(key: start.addingTimeInterval(Double($0) * 12 * 3600), id: Int64($0)) }
        keys += (0..<1000).map { ResolutionBatches.Key(key: start.addingTimeInterval(200 * 86_400 + Double($0) * 60), id: Int64(300 + $0)) }
        let reach: TimeInterval = 33 * 3600
        let batches = ResolutionBatches.plan(keys, reach: reach, size: 40)
        #expect(batches.first?.core.lowerBound == 0 && batches.last?.core.upperBound == keys.count)
        for (batch, next) in zip(batches, batches.dropFirst()) { #expect(batch.core.upperBound == next.core.lowerBound) }
        for batch in batches {
            #expect(batch.window.lowerBound <= batch.core.lowerBound && batch.window.upperBound >= batch.core.upperBound)
            let low = keys[batch.core.lowerBound].key.addingTimeInterval(-reach), high = keys[batch.core.upperBound - 1].key.addingTimeInterval(reach)
            let within = keys.indices.filter { keys[$0].key >= low && keys[$0].key <= high }
            #expect(within.allSatisfy(batch.window.contains), "a photo within reach of the core is missing from its window")
        }
        // The burst (about 17 hours) cannot be cut where few photos are near: one batch holds it.
        #expect(batches.contains { $0.core.contains(300) && $0.core.contains(1299) })
        #expect(batches.count > 5)
    }

    @Test("a photo is affected within the reach of a changed key, either side, and stretches merge")
    func reach() {
        let day = Date(timeIntervalSince1970: 1_750_000_000)
        let window = ResolutionWindow(changedKeys: [day, day.addingTimeInterval(10 * 86_400)], corrections: [])
        // 30 minutes to borrow an offset, then 30 minutes plus 32 hours of offsets to be placed.
        #expect(window.reach == 33 * 3600)
        #expect(window.affects(day.addingTimeInterval(33 * 3600)))
        #expect(window.affects(day.addingTimeInterval(-33 * 3600)))
        #expect(!window.affects(day.addingTimeInterval(33 * 3600 + 1)))
        #expect(window.affects(day.addingTimeInterval(10 * 86_400 - 3600)))
        #expect(window.stretches.count == 2)
        let near = ResolutionWindow(changedKeys: [day, day.addingTimeInterval(86_400)], corrections: [try! ClockCorrection(parsing: "+0 02:00:00")])
        #expect(near.reach == 33 * 3600 + 4 * 7200)
        #expect(near.stretches.count == 1)
    }

    @Test("a photo reached by a UTC that changed has its key within the stretches searched for it, whatever its offset and the clock offsets", arguments: [
        "+0 00:00:00", "+0 01:00:00", "-0 02:30:00", "+1 00:00:00", "-3 00:00:00",
    ])
    func keyStretchesHoldEveryReachedPhoto(_ correction: String) throws {
        let corrections = [try ClockCorrection(parsing: correction)]
        var resolver = TimeResolver(corrections: corrections, zoneAt: { _ in nil })
        var random = SplitMix(seed: 2026)
        let start = try #require(LocalDateTime(iso8601: "2025-01-01T00:00:00")).readAsUTC
        for trial in 0..<2_000 {
            // A photo timed by its offset tag, any offset a tag may hold, through the real resolver.
            let key = start.addingTimeInterval((random.uniform(0, 365 * 86_400)).rounded())
            let minutes = 15 * Int(random.uniform(Double(UTCOffset.validRange.lowerBound / 15), Double(UTCOffset.validRange.upperBound / 15) + 1))
            let wall = try #require(LocalDateTime(iso8601: String(key.geotripISO8601!.dropLast())))
            let utc = try #require(resolver.resolve(local: wall, offset: UTCOffset(minutes: minutes), gpsTime: nil, position: nil, camera: nil).utc)
            // A change within 30 minutes of its instant, at a time of its own (narrow) or
            // borrowed (the stretch around its key), and one within the wide reach of its key.
            let narrow = UTCReach(corrections: corrections, instants: [.init(utc: utc.addingTimeInterval(random.uniform(-1800, 1800)), source: "offset-tag", key: nil)])
            let otherKey = utc.addingTimeInterval(random.uniform(-1800, 1800) + random.uniform(-16, 16) * 3600)
            let borrowed = UTCReach(corrections: corrections, instants: [.init(utc: nil, source: "none", key: otherKey)])
            let wide = UTCReach(corrections: corrections, instants: [.init(utc: key.addingTimeInterval(random.uniform(-16.5, 16.5) * 3600), source: "gps", key: nil)])
            for (name, reach, isExact) in [("narrow", narrow, true), ("borrowed", borrowed, true), ("wide", wide, false)] {
                let source = isExact ? "offset-tag" : "none"
                guard reach.reaches(utc: isExact ? utc : nil, source: source, key: key, isMovieTime: false) else { continue }
                #expect(reach.keyStretches.contains { $0.contains(key) }, "trial \(trial), \(name): offset \(minutes) min, key \(key) outside \(reach.keyStretches)")
            }
            #expect(narrow.reaches(utc: utc, source: "offset-tag", key: key, isMovieTime: false), "trial \(trial): a change within 30 minutes reaches")
        }
    }
}
