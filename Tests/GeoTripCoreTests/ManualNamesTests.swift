import Foundation
import Testing
@testable import GeoTripCore

/// `ManualNames.follow`: the person's names go with the spots they were given for.
@Suite("Names given by hand")
struct ManualNamesTests {
    /// A point `metres` east of 40.4139, -3.6922 (the Prado).
    static func east(_ metres: Double) -> Coordinate {
        Coordinate(latitude: 40.4139, longitude: -3.6922 + metres / (111_195 * cos(40.4139 * .pi / 180)))
    }

    @Test("a name stays while its place is at its spot, moves to the place that is, and waits when none is")
    func follow() {
        let prado = ManualNames.Given(placeID: "p31", spot: Self.east(0), name: "Prado")
        let retiro = ManualNames.Given(placeID: "p29", spot: Self.east(650), name: "Retiro")
        // As named: nothing moves.
        #expect(ManualNames.follow([prado, retiro], places: [("p31", Self.east(5)), ("p29", Self.east(640))], radius: 150).isEmpty)
        // Merged under p31, centred between: p31 keeps its name (no place is nearer its
        // spot), the Retiro's waits, with the nearest place to give it to.
        #expect(ManualNames.follow([prado, retiro], places: [("p31", Self.east(325))], radius: 150)
                == [ManualNames.Move(name: "Retiro", from: "p29", to: nil, nearest: "p31")])
        // Split again with the ids crossed: each name goes to its spot, the one swapping into
        // the id the other leaves.
        #expect(ManualNames.follow([prado, retiro], places: [("p31", Self.east(650)), ("p31-2", Self.east(2))], radius: 150)
                == [ManualNames.Move(name: "Retiro", from: "p29", to: "p31"), ManualNames.Move(name: "Prado", from: "p31", to: "p31-2")])
        // A place that grew away from its spot keeps its name when no other is there.
        #expect(ManualNames.follow([prado], places: [("p31", Self.east(400)), ("p40", Self.east(2_000))], radius: 150).isEmpty)
        // Another place at the spot, within the radius, holding a name of the person's that
        // stays: the name stays too, and that is said (its place 400 m from the spot, p50 nearer).
        let other = ManualNames.Given(placeID: "p50", spot: Self.east(20), name: "Café")
        let stays = ManualNames.follow([prado, other], places: [("p31", Self.east(400)), ("p50", Self.east(10))], radius: 150)
        #expect(stays.map { [$0.name, $0.from, $0.to ?? "", $0.nearest ?? ""] } == [["Prado", "p31", "p31", "p50"]])
        #expect(stays.first?.awayMetres.map { abs($0 - 400) <= 1 } == true)
        // A photo tagged 24 km away, its place with it, another place 240 m from the spot
        // (beyond the radius): the name stays with its place, said.
        let tagged = ManualNames.follow([prado], places: [("p31", Self.east(24_000)), ("p4", Self.east(240))], radius: 150)
        #expect(tagged.map { [$0.from, $0.to ?? "", $0.nearest ?? ""] } == [["p31", "p31", "p4"]] && tagged.first?.stayedAway == true)
        // Two names wanting one place: the nearer spot's wins; the other stays with its place.
        let near = ManualNames.Given(placeID: "p1", spot: Self.east(1_000), name: "Near")
        let far = ManualNames.Given(placeID: "p2", spot: Self.east(1_100), name: "Far")
        let two = ManualNames.follow([near, far], places: [("p1", Self.east(3_000)), ("p2", Self.east(4_000)), ("p3", Self.east(1_010))], radius: 150)
        #expect(two.filter { !$0.stayedAway } == [ManualNames.Move(name: "Near", from: "p1", to: "p3")])
        #expect(two.filter(\.stayedAway).map { [$0.name, $0.from, $0.nearest ?? ""] } == [["Far", "p2", "p3"]])
        // The same, the place wanted freed only by a third name moving away, farther from its
        // spot than either: the nearer spot's name still wins it.
        let holder = ManualNames.Given(placeID: "p3", spot: Self.east(5_000), name: "Holder")
        #expect(ManualNames.follow([far, holder, near], places: [("p1", Self.east(3_000)), ("p2", Self.east(4_000)), ("p3", Self.east(1_010)),
                                                                   ("p4", Self.east(5_100))], radius: 150).filter { !$0.stayedAway }
                == [ManualNames.Move(name: "Near", from: "p1", to: "p3"), ManualNames.Move(name: "Holder", from: "p3", to: "p4")])
    }
}
