import Foundation
import GeoTripTestSupport
import Testing

/// `geotrip places` on the sample trip, against the stops the sample script recorded
/// (SampleImages/ground-truth.json), and identities across reruns.
@Suite("places", .serialized)
struct PlacesCommandTests {
    func visits(_ trip: URL) throws -> [[String: Any]] {
        let run = try CommandRun.geotrip(["places", trip.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test("the sample trip's visits are its stops, and the hotel's visits are one place")
    func sampleTrip() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        let ingest = try CommandRun.geotrip(["ingest", trip.path])
        #expect(ingest.stdout.contains("trip: 5 days (2025-06-10 to 2025-06-14)"), "stdout: \(ingest.stdout)")
        let list = try visits(trip)
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.sampleImages.appendingPathComponent("ground-truth.json"))) as? [String: Any])
        let files = try #require(truth["files"] as? [[String: Any]])
        // The photos of each stop (with a resolvable position) on each day, from the truth file.
        var expected: [String: Set<String>] = [:]
        for file in files where file["kind"] as? String == "photo" {
            guard let stop = file["stop"] as? String, let day = file["day"] as? Int else { continue }
            expected["\(stop)#\(day)", default: []].insert(file["path"] as! String)
        }
        var hotelPlaces = Set<String>()
        var matched = 0
        var covered: [String: Set<String>] = [:]
        for visit in list {
            let photos = Set(visit["photos"] as? [String] ?? [])
            let stop = expected.first { !$0.value.intersection(photos).isEmpty }
            let truthPhotos = try #require(stop?.value, "visit \(visit["id"] ?? "?") matches no stop")
            // Every photo of the visit belongs to that stop's day (the hotel is visited twice a day).
            #expect(photos.isSubset(of: truthPhotos))
            covered[stop!.key, default: []].formUnion(photos)
            matched += 1
            if stop!.key.hasPrefix("hotel#") { hotelPlaces.insert(visit["placeId"] as! String) }
            for key in ["id", "placeId", "revision", "latitude", "longitude", "radiusMeters", "arrival", "departure", "localDate",
                        "timeZone", "localArrival", "localDeparture", "photoCount", "photos", "name", "admin1", "country", "countryCode",
                        "nameSource"] {
                #expect(visit.keys.contains(key), "visit lacks \(key)")
            }
            // Local times are the wall clocks the photos recorded, with the stop's offset.
            let walls = files.filter { photos.contains($0["path"] as! String) }.compactMap { $0["localTime"] as? String }.map { $0.prefix(19) }
            let stopOffset = (truth["stops"] as? [[String: Any]])?.first { "\($0["stop"]!)#" == stop!.key.prefix(while: { $0 != "#" }) + "#" }?["utcOffset"] as? String
            #expect((visit["localArrival"] as? String) == walls.min().map { $0 + (stopOffset ?? "?") }, "\(visit["id"]!)")
            #expect((visit["localDeparture"] as? String) == walls.max().map { $0 + (stopOffset ?? "?") }, "\(visit["id"]!)")
            #expect(visit["nameSource"] as? String == "offline")
        }
        // Together the visits hold every photo of every stop; the undated photo is the only one left out.
        for (key, photos) in expected {
            #expect(photos.subtracting(covered[key] ?? []).subtracting(["2025-06-11 Sintra/DSCF1004.JPG"]).isEmpty, "\(key)")
        }
        #expect(matched == 13)
        #expect(hotelPlaces.count == 1)
        #expect(Set(list.map { $0["placeId"] as! String }).count == 11)
        #expect(list.first?["name"] as? String == "Lisbon" && list.last?["countryCode"] as? String == "ES")
    }

    @Test("ids survive adding, removing and moving photos; revisions change only with members")
    func stableIdentities() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        func byFirstPhoto() throws -> [String: (id: String, revision: Int, place: String)] {
            Dictionary(try visits(trip).map { visit in
                ((visit["photos"] as! [String]).sorted().first!, (visit["id"] as! String, visit["revision"] as! Int, visit["placeId"] as! String))
            }, uniquingKeysWith: { a, _ in a })
        }
        let before = try byFirstPhoto()
        let visitsBefore = try visits(trip)

        // Moving photos between folders changes nothing about visits.
        try FileManager.default.moveItem(at: trip.appendingPathComponent("IMG_0031.JPG"), to: trip.appendingPathComponent("2025-06-11 Sintra/IMG_0031.JPG"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        let moved = try visits(trip)
        #expect(Set(moved.map { $0["id"] as! String }) == Set(before.values.map(\.id)))
        #expect(moved.allSatisfy { v in before.values.contains { $0.id == v["id"] as? String && $0.revision == v["revision"] as? Int } })

        // Removing one photo of the Prado visit: same id, next revision; other days untouched.
        let pradoBefore = try #require(try visits(trip).first { ($0["photos"] as! [String]).contains("IMG_0032.JPG") })
        try FileManager.default.removeItem(at: trip.appendingPathComponent("IMG_0033.JPG"))
        // Adding a photo to day 1 (a copy of a Belém photo, re-dated by exiftool is not needed:
        // a copy at the same moment joins the same visit).
        try FileManager.default.copyItem(at: trip.appendingPathComponent("2025-06-10 Lisboa/IMG_0004.JPG"), to: trip.appendingPathComponent("extra.JPG"))
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        let after = try visits(trip)
        let prado = try #require(after.first { $0["id"] as? String == pradoBefore["id"] as? String })
        #expect(prado["revision"] as? Int == (pradoBefore["revision"] as! Int) + 1)
        #expect(prado["photoCount"] as? Int == (pradoBefore["photoCount"] as! Int) - 1)
        let belem = try #require(after.first { ($0["photos"] as! [String]).contains("extra.JPG") })
        let belemBefore = try #require(visitsBefore.first { ($0["photos"] as! [String]).contains("2025-06-10 Lisboa/IMG_0004.JPG") })
        #expect(belem["id"] as? String == belemBefore["id"] as? String)
        // Sintra's, Seville's and the airport's visits kept id and revision.
        for visit in after where ["2025-06-11", "2025-06-12", "2025-06-14"].contains(visit["localDate"] as! String) {
            #expect(before.values.contains { $0.id == visit["id"] as? String && $0.revision == visit["revision"] as? Int })
        }
        #expect(after.count == before.count)
        // Places keep their ids too (the reviewer's case: a photo added on another day renamed
        // most places when a place's members were counted differently on the two sides).
        let placesBefore = Set(visitsBefore.map { $0["placeId"] as! String })
        #expect(Set(after.map { $0["placeId"] as! String }) == placesBefore)
        #expect(try CommandRun.geotrip(["ingest", trip.path, "-q"]).status == 0)
        #expect(Set(try visits(trip).map { $0["placeId"] as! String }) == placesBefore)
    }

    @Test("names given with rename follow their spots when places merge and split again, and one left without a place is said once")
    func namesFollowTheirSpots() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--no-thumbnails"]).status == 0)
        // Madrid: the Prado at 10:30 and the Retiro at 13:10, 650 m apart, two places.
        func visit(holding photo: String) throws -> [String: Any] {
            try #require(try visits(trip).first { ($0["photos"] as? [String])?.contains(photo) == true }, "\(photo)")
        }
        let (atPrado, atRetiro) = ("IMG_0031.JPG", "IMG_0035.JPG")
        let prado = try #require(try visit(holding: atPrado)["placeId"] as? String), retiro = try #require(try visit(holding: atRetiro)["placeId"] as? String)
        #expect(prado != retiro)
        for (place, name) in [(prado, "Prado Museum"), (retiro, "Retiro Park")] {
            #expect(try CommandRun.geotrip(["rename", trip.path, place, name]).status == 0)
        }
        // A radius of 5 km makes them one place, under one id: the other name has no place.
        let merged = try CommandRun.geotrip(["ingest", trip.path, "--visit-radius", "5000"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let together = try #require(try visit(holding: atPrado)["placeId"] as? String)
        #expect(try visit(holding: atRetiro)["placeId"] as? String == together)
        let lost = together == prado ? ("Retiro Park", retiro) : ("Prado Museum", prado)
        #expect(merged.stdout.contains("\"\(lost.0)\", the name you gave \(lost.1), has no place now (the place nearest its spot is \(together)); it comes back with its place, "
                                       + "or `geotrip rename '\(trip.resolvingSymlinksInPath().path)' \(lost.1) --clear` lets it go"), "\(merged.stdout)")
        // Said once: a rerun that changes the layout again does not say it again.
        let again = try CommandRun.geotrip(["ingest", trip.path, "--visit-radius", "5000", "--visit-gap", "100"])
        #expect(again.status == 0 && !again.stdout.contains("has no place now"), "\(again.stdout)")
        // Back to 250 m: each name is on its own spot's place again, whatever ids they have.
        let apart = try CommandRun.geotrip(["ingest", trip.path, "--visit-radius", "250", "--visit-gap", "120"])
        #expect(apart.status == 0, "\(apart.stderr)")
        #expect(try visit(holding: atPrado)["name"] as? String == "Prado Museum")
        #expect(try visit(holding: atRetiro)["name"] as? String == "Retiro Park")
        #expect(try visits(trip).filter { $0["nameSource"] as? String == "manual" }.count == 2)
        #expect(!apart.stdout.contains("has no place now"), "\(apart.stdout)")
        // Merged again, the waiting name let go by its id: split once more, it is no more.
        let again2 = try CommandRun.geotrip(["ingest", trip.path, "--visit-radius", "5000"])
        let waiting = try #require(again2.stdout.components(separatedBy: "the name you gave ").dropFirst().first?.components(separatedBy: ",").first, "\(again2.stdout)")
        let cleared = try CommandRun.geotrip(["rename", trip.path, waiting, "--clear"])
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("\(waiting) has no place now; your name for it, "), "\(cleared.stdout) \(cleared.stderr)")
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--visit-radius", "250", "--quiet"]).status == 0)
        #expect(try visits(trip).filter { $0["nameSource"] as? String == "manual" }.count == 1)
    }

    @Test("rename gives a place the person's name, which outranks the gazetteer's, survives a recluster, and --clear undoes")
    func rename() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let trip = try temp.copySampleImages()
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet"]).status == 0)
        // The hotel: the place with the most visits.
        let counts = Dictionary(grouping: try visits(trip), by: { $0["placeId"] as! String }).mapValues(\.count)
        let hotel = try #require(counts.max { $0.value < $1.value }?.key)

        let named = try CommandRun.geotrip(["rename", trip.path, hotel, "Hotel Baixa"])
        #expect(named.status == 0, "stderr: \(named.stderr)")
        #expect(named.stdout == "Named \(hotel) \"Hotel Baixa\" (was Lisbon).\n")
        func hotelVisits() throws -> [[String: Any]] { try visits(trip).filter { $0["placeId"] as? String == hotel } }
        #expect(try hotelVisits().allSatisfy { $0["name"] as? String == "Hotel Baixa" && $0["nameSource"] as? String == "manual"
                                             && $0["countryCode"] as? String == "PT" })
        // Named again: it was the person's first name.
        let again = try CommandRun.geotrip(["rename", trip.path, hotel, "Our hotel"])
        #expect(again.stdout == "Named \(hotel) \"Our hotel\" (was Hotel Baixa).\n", "\(again.stdout)")
        #expect(try CommandRun.geotrip(["rename", trip.path, hotel, "Hotel Baixa"]).status == 0)
        // A recluster with another gap keeps the id, and so the name.
        #expect(try CommandRun.geotrip(["ingest", trip.path, "--quiet", "--visit-gap", "90"]).status == 0)
        #expect(try !hotelVisits().isEmpty && hotelVisits().allSatisfy { $0["name"] as? String == "Hotel Baixa" })
        // Other places keep the gazetteer's names.
        #expect(try visits(trip).filter { $0["placeId"] as? String != hotel }.allSatisfy { $0["nameSource"] as? String == "offline" })

        let cleared = try CommandRun.geotrip(["rename", trip.path, hotel, "--clear"])
        #expect(cleared.stdout == "\(hotel) is named automatically again: Lisbon.\n")
        #expect(try hotelVisits().allSatisfy { $0["name"] as? String == "Lisbon" && $0["nameSource"] as? String == "offline" })
        // Nothing of the person's left to clear: said so, nothing changed.
        let nothing = try CommandRun.geotrip(["rename", trip.path, hotel, "--clear"])
        #expect(nothing.status == 0 && nothing.stdout == "\(hotel) has no name of yours: nothing to clear (it is named Lisbon).\n", "\(nothing.stdout)")

        // When the journal cannot be written (its folder taken by a file), the name is kept and
        // the second line says why, as a line of its own (not `%0A`), in one sentence.
        let journal = trip.appendingPathComponent("geotrip/journal")
        try FileManager.default.removeItem(at: journal)
        try Data("not a folder\n".utf8).write(to: journal)
        let unwritten = try CommandRun.geotrip(["rename", trip.path, hotel, "Hotel Baixa"])
        let lines = unwritten.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.first == "Named \(hotel) \"Hotel Baixa\" (was Lisbon).", "stdout: \(unwritten.stdout)")
        #expect(lines.last?.hasPrefix("The journal and map were not updated: The output folder ") == true)
        #expect(!unwritten.stdout.contains("%0A") && !unwritten.stdout.contains(".."))
        try FileManager.default.removeItem(at: journal)

        let unknown = try CommandRun.geotrip(["rename", trip.path, "p999999", "Nowhere"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No place of this trip has the id p999999"))
        // The id typed in capitals is the place's id; its number alone is refused, as the map's
        // and the timeline's numbers count visits (p1 is visit 2's place in the sample trip).
        let number = String(hotel.dropFirst())
        #expect(try CommandRun.geotrip(["rename", trip.path, hotel.uppercased(), "Hotel Baixa"]).stdout.hasPrefix("Named \(hotel) \"Hotel Baixa\""))
        let bare = try CommandRun.geotrip(["rename", trip.path, number, "--clear"])
        #expect(bare.status == 1 && bare.stderr.contains("No place of this trip has the id \(number) (the numbers on the map and in the timeline count visits)"),
                "\(bare.stderr)")
        #expect(try CommandRun.geotrip(["rename", trip.path, hotel, "--clear"]).stdout.hasPrefix("\(hotel) is named automatically again"))
        // A visit's id (the journal names its blocks by them): its place is named.
        let visit = try #require(try visits(trip).first), visitID = try #require(visit["id"] as? String), placeID = try #require(visit["placeId"] as? String)
        let byVisit = try CommandRun.geotrip(["rename", trip.path, visitID, "Nowhere"])
        #expect(byVisit.status == 1 && byVisit.stderr.contains("\(visitID) is a visit, not a place; its place is \(placeID)"), "\(byVisit.stderr)")
        let byVisitInCapitals = try CommandRun.geotrip(["rename", trip.path, visitID.uppercased(), "Nowhere"])
        #expect(byVisitInCapitals.stderr.contains("is a visit, not a place; its place is \(placeID)"), "\(byVisitInCapitals.stderr)")
        #expect(try CommandRun.geotrip(["rename", trip.path, hotel]).status == 64)

        // A name with a line break and a terminal escape is kept as an online one is: the break
        // a space, the escape gone; `places` lists it on one line.
        #expect(try CommandRun.geotrip(["rename", trip.path, hotel, "Torre\nde Bel\u{1B}[31mém"]).status == 0)
        let listed = try CommandRun.geotrip(["places", trip.path])
        #expect(listed.stdout.contains("Torre de Bel[31mém, PT  ("), "stdout: \(listed.stdout)")
        #expect(!listed.stdout.contains("\u{1B}"))
    }
}
