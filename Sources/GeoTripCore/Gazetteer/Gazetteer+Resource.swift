import Foundation
import Synchronization

extension Gazetteer {
    /// The resource's file name.
    public static let resourceName = "gazetteer.bin"

    /// What a run says when the time zone index could not be used: the problem, then what
    /// the run did instead.
    public static func fallbackSentence(_ problem: GeoTripError) -> String {
        "\(problem.description) Until then, time zones come from the nearest town, which can be an hour or more wrong near a border."
    }

    /// Where the resource is (`ResourceLocator.find`), `GEOTRIP_GAZETTEER` overriding.
    public static func resourceURL() throws(GeoTripError) -> URL {
        let search = ResourceLocator.find(resourceName, override: "GEOTRIP_GAZETTEER")
        guard let found = search.found else { throw .gazetteerMissing(tried: search.tried) }
        return found
    }
}

/// The gazetteer of one run: loaded when a stage first needs it (an unchanged rerun never
/// does), then handed to every stage that does. The export loads it on another task while it
/// reads the catalog, so the first load happens under a lock.
final class RunGazetteer: Sendable {
    private let loaded = Mutex<Gazetteer?>(nil)

    /// The gazetteer, loading it on first use.
    func get() throws(GeoTripError) -> Gazetteer {
        try loaded.withLock { (loaded: inout Gazetteer?) throws(GeoTripError) -> Gazetteer in
            if let loaded { return loaded }
            let gazetteer = try Gazetteer.load()
            loaded = gazetteer
            return gazetteer
        }
    }

    /// Loads the gazetteer ahead of its first use, on the caller's thread. A failure is left
    /// for that use to meet and report.
    func preload() {
        _ = try? get()
    }

    /// Why the loaded gazetteer has no time zone index (nil when it has one, or was not loaded).
    var zoneIndexProblem: GeoTripError? { loaded.withLock { $0?.zoneIndexProblem } }
}
