import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The trip map page: its escaping, its words, and (in `TripMapBrowserTests`) what a browser
/// makes of it.
@Suite("Trip map page")
struct TripMapPageTests {
    @Test("renders the sample trip (page kept for a look when GEOTRIP_KEEP_PAGE is set)")
    func sample() async throws {
        let folder = try TemporaryFolder()
        let rendered = try await SampleTripMap.render(in: folder)
        if ProcessInfo.processInfo.environment["GEOTRIP_KEEP_PAGE"] != nil {
            print("page: \(rendered.page.path) (\(rendered.html.utf8.count) bytes)")
        } else {
            folder.remove()
        }
        #expect(rendered.html.hasPrefix("<!DOCTYPE html>"))
    }
}
