import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

/// The sample trip's map page in headless Chromium (Debian's `chromium`), opened from
/// `file://` with the network off (its own network namespace when `unshare` may make one, and
/// a proxy that leads nowhere besides). Screenshots at desktop and phone widths, light and
/// dark, are kept in a temporary folder whose path the test prints, for a person to look at.
@Suite("Trip map in a browser", .serialized)
struct TripMapBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let skipMessage: Comment = "chromium is not installed (Debian's `chromium`; `make test-deps` installs it)"

    /// Whether this process may make a network namespace (root, or user namespaces allowed).
    static let canIsolate: Bool = (try? CommandRun.run(URL(fileURLWithPath: "/usr/bin/unshare"), ["-rn", "true"]).status) == 0

    /// Runs Chromium on `url` with `arguments` and returns what it printed.
    static func chromium(_ url: URL, _ arguments: [String]) throws -> CommandRun {
        let browser = try #require(chromium)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                     "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                     "--enable-logging=stderr", "--v=0", "--virtual-time-budget=4000"] + arguments + [url.absoluteString]
        let command = canIsolate ? ["120", "/usr/bin/unshare", "-rn", browser] + flags : ["120", browser] + flags
        return try CommandRun.run(URL(fileURLWithPath: "/usr/bin/timeout"), command)
    }

    /// Console messages and uncaught errors Chromium logged for pages from files (its own
    /// chrome:// pages log notices of their own, which are not the map's).
    static func consoleLines(_ run: CommandRun) -> [String] {
        run.stderr.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") && $0.contains("source: file://") }
    }

    /// A probe page's opening: the page at `source` in a frame of that size, the element the
    /// probe writes its JSON into, and the start of its script.
    static func framed(_ source: String, width: Int, height: Int) -> String {
        """
        <!DOCTYPE html><meta charset="utf-8"><title>probe</title>
        <iframe id="f" src="\(source)" style="width:\(width)px;height:\(height)px;border:0"></iframe>
        <pre id="result">pending</pre>
        <script>

        """
    }

    /// Writes the map of `input` to `folder/geotrip/index.html` (no towns) and returns it.
    static func writePage(_ input: TripMapInput, in folder: URL) throws -> URL {
        let page = folder.appendingPathComponent("geotrip/index.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TripMapPage(input: input).render(with: try TripMapResources.load(gazetteer: nil)).write(to: page, atomically: true, encoding: .utf8)
        return page
    }

    /// Functions the probes share: the visits the map shows, each on its own marker or in a
    /// group (which says how many it holds), and whether any two markers or groups overlap.
    static let shared = #"""
function visitIcons(doc) { return doc.querySelectorAll('.leaflet-marker-pane .visit-icon'); }
function groupIcons(doc) { return doc.querySelectorAll('.leaflet-marker-pane .group-icon'); }
function reachable(doc) {
  var n = visitIcons(doc).length;
  groupIcons(doc).forEach(function (g) { n += Number(g.getAttribute('data-visits')); });
  return n;
}
function overlapping(doc) {
  // A group faded while its visits are fanned out around it is their hub, not a marker.
  var nodes = Array.prototype.filter.call(doc.querySelectorAll('.leaflet-marker-pane .visit-icon, .leaflet-marker-pane .group-icon, .leaflet-marker-pane .video-icon'),
                                          function (node) { return Number(node.ownerDocument.defaultView.getComputedStyle(node).opacity) === 1; });
  var boxes = nodes.map(function (node) { return node.getBoundingClientRect(); });
  var pairs = 0;
  for (var i = 0; i < boxes.length; i++) for (var j = i + 1; j < boxes.length; j++) {
    var a = boxes[i], b = boxes[j];
    if (a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top) pairs += 1;
  }
  return pairs;
}
"""#

    /// A page that opens the map in a 390 px frame, acts as a person would (clicks a visit in
    /// the timeline, then a marker on the map) and writes what it found as JSON.
    static let probe = framed("geotrip/index.html", width: 390, height: 844) + shared + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  r.lang = doc.documentElement.lang;
  r.visitMarkers = reachable(doc);
  r.overlapping = overlapping(doc);
  // The towns named, and how many of their labels cover a marker or one another.
  var labels = Array.prototype.filter.call(doc.querySelectorAll('.town-label'), function (node) {
    return f.contentWindow.getComputedStyle(node).visibility !== 'hidden';
  });
  r.townLabels = labels.map(function (node) { return node.textContent; });
  var labelBoxes = labels.map(function (node) { return node.getBoundingClientRect(); });
  var markerBoxes = Array.prototype.map.call(doc.querySelectorAll('.leaflet-marker-pane .visit-icon, .leaflet-marker-pane .group-icon'), function (node) {
    return node.getBoundingClientRect();
  });
  var covers = function (a, b) { return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top; };
  // Labels the map's edges cut (partly inside it).
  var frame = doc.getElementById('map').getBoundingClientRect();
  r.labelsCut = labelBoxes.filter(function (box) {
    return box.right > frame.left && box.left < frame.right && box.bottom > frame.top && box.top < frame.bottom
      && (box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom);
  }).length;
  // Labels shown for a dot off the map: a label is drawn right of its dot (or moved from
  // there by its translate), so the dot lies just left of where the label was put.
  r.labelsOffMap = labels.filter(function (node) {
    var box = node.getBoundingClientRect(), moved = (node.style.translate || '0px 0px').split(' ').map(parseFloat);
    var x = box.left - (moved[0] || 0) - 10, y = (box.top + box.bottom) / 2 - (moved[1] || 0);
    return x < frame.left - 10 || x > frame.right || y < frame.top || y > frame.bottom;
  }).map(function (node) { return node.textContent; });
  r.labelsCovering = 0;
  labelBoxes.forEach(function (box, i) {
    labelBoxes.slice(i + 1).concat(markerBoxes).forEach(function (other) { if (covers(box, other)) r.labelsCovering += 1; });
  });
  r.routeLines = doc.querySelectorAll('.leaflet-overlay-pane path.route-line').length;
  // Every leg's casing lies under every leg (a pane below theirs), so no casing cuts a leg it crosses.
  var paneLevel = function (path) { return Number(f.contentWindow.getComputedStyle(path.closest('.leaflet-pane')).zIndex); };
  var casings = Array.prototype.slice.call(doc.querySelectorAll('path.route-casing')), lines = Array.prototype.slice.call(doc.querySelectorAll('path.route-line'));
  r.casings = casings.length;
  r.casingsUnderLines = casings.every(function (c) { return lines.every(function (l) { return paneLevel(c) < paneLevel(l); }); });
  r.arrows = doc.querySelectorAll('.route-arrow').length;
  // Arrows a town's label covers (an arrow says which way the trip went).
  r.arrowsCovered = Array.prototype.filter.call(doc.querySelectorAll('.route-arrow'), function (arrow) {
    var box = arrow.getBoundingClientRect();
    return labelBoxes.some(function (label) { return covers(label, box); });
  }).length;
  r.timelineVisits = doc.querySelectorAll('li.visit').length;
  r.scrollWidth = doc.documentElement.scrollWidth;
  r.clientWidth = doc.documentElement.clientWidth;
  r.boldElements = doc.querySelectorAll('b').length;
  r.injectedImages = doc.querySelectorAll('img[src="x"]').length;
  r.hostileNameAsText = doc.body.textContent.indexOf('<\/script><b>x') >= 0;
  r.hostileNoteAsText = doc.body.textContent.indexOf('<img src=x onerror=alert(1)>') >= 0;
  r.noteStrong = doc.querySelectorAll('li.visit .notes strong').length;
  r.noteListItems = doc.querySelectorAll('li.visit .notes li').length;
  r.noteLinks = Array.prototype.map.call(doc.querySelectorAll('.notes a'), function (a) { return a.getAttribute('href'); });
  r.noteHandlers = Array.prototype.filter.call(doc.querySelectorAll('.notes *'), function (e) {
    return Array.prototype.some.call(e.attributes, function (a) { return /^on/i.test(a.name); });
  }).length;
  r.brokenThumbnails = Array.prototype.filter.call(doc.querySelectorAll('.thumbs img'), function (img) { return img.complete && img.naturalWidth === 0; }).length;
  doc.querySelectorAll('button.visit-button')[1].click();
  setTimeout(function () {
    var title = doc.querySelector('.leaflet-popup-content .popup-title');
    r.popupAfterTimelineClick = title ? title.textContent : null;
    r.popupInjectedBold = doc.querySelectorAll('.leaflet-popup-content b').length;
    r.popupNoteStrong = doc.querySelectorAll('.leaflet-popup-content .notes strong').length;
    r.popupNoteLinks = doc.querySelectorAll('.leaflet-popup-content .notes a').length;
    // Scrolled down to the last visit, the map stays in view above the timeline.
    var buttons = doc.querySelectorAll('button.visit-button');
    buttons[buttons.length - 1].scrollIntoView({ block: 'end' });
    r.pageScrolled = f.contentWindow.scrollY;
    r.mapTopWhenScrolled = Math.round(doc.getElementById('map').getBoundingClientRect().top);
    f.contentWindow.scrollTo(0, 0);
    var chipTops = Array.prototype.map.call(doc.querySelectorAll('.day-filter button'), function (b) { return b.offsetTop; });
    r.dayChipRows = chipTops.filter(function (top, i) { return chipTops.indexOf(top) === i; }).length;
    // The timeline's visit is shown alone on the map (its group zoomed into or fanned out).
    var icons = visitIcons(doc);
    r.clickedMarker = icons.length ? parseInt(icons[icons.length - 1].getAttribute('aria-label'), 10) : null;
    if (icons.length) icons[icons.length - 1].dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: f.contentWindow }));
    setTimeout(function () {
      var selected = doc.querySelector('li.visit.selected');
      r.selectedAfterMarkerClick = selected ? selected.getAttribute('data-visit') : null;
      doc.querySelector('.day-filter button[data-day="1"]').click();
      r.markersOnSecondDay = reachable(doc);
      r.daysShownOnSecondDay = doc.querySelectorAll('section.day:not([hidden])').length;
      var status = doc.querySelector('[role=status]');
      r.statusOnSecondDay = status ? status.textContent : null;
      r.secondDayChip = doc.querySelector('.day-filter button[data-day="1"]').textContent.trim();
      doc.querySelector('.day-filter button[data-day="all"]').click();
      r.statusOnAllDays = status ? status.textContent : null;
      r.markersOnAllDays = reachable(doc);
      r.overlappingOnAllDays = overlapping(doc);
      document.getElementById('result').textContent = JSON.stringify(r);
    }, 500);
  }, 2500);
});
</script>
"""#

    struct ProbeResult: Decodable {
        var lang: String
        var visitMarkers: Int
        var townLabels: [String]
        var labelsCovering: Int
        var labelsCut: Int
        var labelsOffMap: [String]
        var routeLines: Int
        var casings: Int
        var casingsUnderLines: Bool
        var arrows: Int
        var arrowsCovered: Int
        var timelineVisits: Int
        var scrollWidth: Int
        var clientWidth: Int
        var boldElements: Int
        var injectedImages: Int
        var hostileNameAsText: Bool
        var hostileNoteAsText: Bool
        var noteStrong: Int
        var noteListItems: Int
        var noteLinks: [String]
        var noteHandlers: Int
        var brokenThumbnails: Int
        var popupAfterTimelineClick: String?
        var popupInjectedBold: Int
        var popupNoteStrong: Int
        var popupNoteLinks: Int
        var clickedMarker: Int?
        var selectedAfterMarkerClick: String?
        var overlapping: Int
        var overlappingOnAllDays: Int
        var markersOnSecondDay: Int
        var daysShownOnSecondDay: Int
        var statusOnSecondDay: String?
        var secondDayChip: String
        var statusOnAllDays: String?
        var markersOnAllDays: Int
        var pageScrolled: Int
        var mapTopWhenScrolled: Int
        var dayChipRows: Int
    }

    @Test("offline from file://: no console errors, every visit and leg drawn, names as text, notes formatted, clicks both ways, no sideways scroll at 390 px, the towns visited named and no label covering a marker",
          .enabled(if: chromium != nil, skipMessage))
    func pageInBrowser() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let rendered = try await SampleTripMap.render(in: folder)
        let (result, console) = try Self.probe(rendered.page.deletingLastPathComponent().deletingLastPathComponent())
        #expect(console.isEmpty, "console: \(console)")
        let visits = rendered.input.visits
        #expect(result.lang == "en")
        #expect(result.visitMarkers == visits.count)
        #expect(result.timelineVisits == visits.count)
        #expect(result.routeLines == rendered.input.legs.count)
        #expect(result.casings == result.routeLines && result.casingsUnderLines)
        #expect(result.arrows == rendered.input.legs.count)
        #expect(result.scrollWidth <= result.clientWidth, "the page scrolls sideways at 390 px: \(result.scrollWidth) > \(result.clientWidth)")
        #expect(result.boldElements == 0 && result.injectedImages == 0, "hostile text became markup")
        #expect(result.hostileNameAsText && result.hostileNoteAsText)
        #expect(result.brokenThumbnails == 0)
        #expect(result.popupAfterTimelineClick == "2. \(SampleTripMap.hostileName)")
        #expect(result.popupInjectedBold == 0)
        // The notes' Markdown is formatted, in the timeline and in the popup; the links a note
        // may not make are words, and no HTML it holds is markup.
        #expect(result.noteStrong == 1 && result.noteListItems == 2)
        #expect(result.noteLinks == ["https://example.org/t?a=1&b=2"])
        #expect(result.noteHandlers == 0)
        #expect(result.popupNoteStrong == 1 && result.popupNoteLinks == 1)
        // Clicking a visit's marker selects that visit in the timeline.
        let clicked = try #require(result.clickedMarker, "no visit stood alone on the map after the timeline's click")
        #expect(result.selectedAfterMarkerClick == visits[clicked - 1].id)
        // No town's label covers a marker or another label, and the towns visited are named:
        // Lisbon's dot lies under the marker of the visits there, and is named beside it.
        #expect(result.labelsCovering == 0, "\(result.labelsCovering) town labels cover a marker or another label")
        #expect(result.labelsCut == 0, "\(result.labelsCut) town labels are cut by the map's edge")
        #expect(result.labelsOffMap.isEmpty, "towns off the map named at its edge: \(result.labelsOffMap)")
        #expect(result.townLabels.contains("Lisbon") && result.townLabels.contains("Sevilla"), "towns named: \(result.townLabels)")
        // Visits whose markers would overlap are grouped: every visit on the map, no two overlapping.
        #expect(result.overlapping == 0 && result.overlappingOnAllDays == 0, "\(result.overlapping), \(result.overlappingOnAllDays) pairs overlap")
        let secondDay = rendered.input.days[1].date
        #expect(result.markersOnSecondDay == visits.filter { $0.localDate == secondDay }.count, "the day filter shows that day's visits")
        #expect(result.daysShownOnSecondDay == 1)
        #expect(result.markersOnAllDays == visits.count)
        // A screen reader is told what a day's button shows (a status region).
        let onSecondDay = visits.filter { $0.localDate == secondDay }.count
        #expect(result.statusOnSecondDay == "\(result.secondDayChip): \(onSecondDay) visit\(onSecondDay == 1 ? "" : "s")", "\(result)")
        #expect(result.statusOnAllDays == "All days: \(visits.count) visits", "\(result)")
        // On a phone the map stays at the top of the screen while the timeline scrolls, and the
        // days are one row that scrolls sideways on its own.
        #expect(result.pageScrolled > 1000 && result.mapTopWhenScrolled == 0, "scrolled \(result.pageScrolled), map at \(result.mapTopWhenScrolled)")
        #expect(result.dayChipRows == 1)
    }

    /// Opens the timeline's visit with the most photos and reports its popup's "+N" link.
    static let moreProbe = framed("geotrip/index.html", width: 900, height: 800) + shared + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  var items = Array.prototype.slice.call(doc.querySelectorAll('li.visit'));
  var count = function (item) { return item.querySelectorAll('.thumbs > a, .thumbs > img, .thumbs > span.no-thumb').length; };
  var most = items.reduce(function (a, b) { return count(b) > count(a) ? b : a; });
  r.shown = count(most);
  most.querySelector('button.visit-button').click();
  setTimeout(function () {
    var link = doc.querySelector('.leaflet-popup-content a.more-link');
    r.popupMore = link ? link.getAttribute('href') : null;
    r.popupMoreText = link ? link.textContent : null;
    document.getElementById('result').textContent = JSON.stringify(r);
  }, 500);
});
</script>
"""#

    struct MoreProbeResult: Decodable {
        var shown: Int
        var popupMore: String?
        var popupMoreText: String?
    }

    @Test("a visit's popup showing some of its photos links the rest, '+N', to its day's journal page",
          .enabled(if: chromium != nil, skipMessage))
    func moreOnTheJournalPage() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let rendered = try await SampleTripMap.render(in: folder)
        let probe = rendered.page.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("probe.html")
        try Self.moreProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion", "--window-size=1000,900", "--dump-dom"])
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        let result: MoreProbeResult = try Self.result(of: run)
        // The sample's largest visit has more photos than a popup shows (4).
        let largest = try #require(rendered.input.visits.max { $0.media.count < $1.media.count })
        #expect(largest.media.count > TripMapPage.popupMedia && result.shown == min(largest.media.count, 8))
        #expect(result.popupMore == "journal/\(largest.localDate).md", "\(String(describing: result.popupMore))")
        #expect(result.popupMoreText?.contains("+\(largest.media.count - TripMapPage.popupMedia)") == true, "\(String(describing: result.popupMoreText))")
    }

    /// Clicks the first video marker and reports the markers and the popup's link.
    static let videoProbe = framed("trip/geotrip/index.html", width: 900, height: 800) + shared + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  var click = function (node) { node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: f.contentWindow })); };
  var videos = doc.querySelectorAll('.leaflet-marker-pane .video-icon').length;
  groupIcons(doc).forEach(function (g) { videos += Number(g.getAttribute('data-videos')); });
  r.videoMarkers = videos;
  // A group of one visit and its clips shows that visit's number (from its name, "… video: 2. Lisbon"),
  // seen at every zoom the groups are opened to.
  r.loneGroups = [];
  function lone() {
    Array.prototype.filter.call(groupIcons(doc), function (g) { return g.getAttribute('data-visits') === '1'; }).forEach(function (g) {
      r.loneGroups.push({ face: g.textContent, visit: String(parseInt(g.getAttribute('aria-label').split(': ')[1], 10)) });
    });
  }
  // Groups clicked (zoomed into, or fanned out) until a video's marker stands alone.
  r.groupsOpened = 0;
  (function open(then) {
    lone();
    var group = Array.prototype.filter.call(groupIcons(doc), function (g) { return g.getAttribute('data-videos') !== '0'; })[0];
    if (doc.querySelector('.leaflet-marker-pane .video-icon') || !group || r.groupsOpened >= 8) { then(); return; }
    click(group);
    r.groupsOpened += 1;
    setTimeout(function () { open(then); }, 300);
  })(function () {
  click(doc.querySelector('.leaflet-marker-pane .video-icon'));
  setTimeout(function () {
    var link = doc.querySelector('.leaflet-popup-content a');
    r.popupLink = link ? decodeURIComponent(link.getAttribute('href')) : null;
    r.popupText = link ? link.textContent : null;
    r.selected = doc.querySelectorAll('li.visit.selected').length;
    document.getElementById('result').textContent = JSON.stringify(r);
  }, 500);
  });
});
</script>
"""#

    struct LoneGroup: Decodable {
        var face: String
        var visit: String
    }

    struct VideoProbeResult: Decodable {
        var videoMarkers: Int
        var loneGroups: [LoneGroup]
        var popupLink: String?
        var popupText: String?
        var selected: Int
    }

    @Test("towns visited whose dots lie beside their markers (Osaka, Kyoto) are named; no label covers a leg's arrow",
          .enabled(if: chromium != nil && LibraryFixture.canWrite, skipMessage))
    func visitedTownsBeside() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let trip = folder.url.appendingPathComponent("trip")
        // Each photo some 2 km from its town's point in the gazetteer: a marker's width away at
        // the zoom that shows both, so neither dot is under its marker.
        try LibraryFixture.write(into: trip, days: [
            LibraryFixture.Day(date: "2025-04-10", trip: 1, spots: [(34.6873, 135.5262)], offset: "+09:00", folder: "osaka"),
            LibraryFixture.Day(date: "2025-04-11", trip: 1, spots: [(35.0116, 135.7681)], offset: "+09:00", folder: "kyoto"),
        ])
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--no-thumbnails"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        // On phones of two heights (the map's zoom differs) and on a desktop.
        for frame in [(390, 844), (390, 1300), (1180, 900)] {
            let (result, console) = try Self.probe(trip, frame: frame)
            #expect(console.isEmpty, "console: \(console)")
            #expect(result.townLabels.contains("Osaka") && result.townLabels.contains("Kyoto"), "\(frame): towns named: \(result.townLabels)")
            #expect(result.labelsCovering == 0 && result.labelsCut == 0, "\(frame)")
            #expect(result.arrows == 1 && result.arrowsCovered == 0, "\(frame): \(result.arrowsCovered) arrows covered by a town's label")
        }
    }

    @Test("videos have markers of their own that open the clip; a Live Photo's video has none",
          .enabled(if: chromium != nil, skipMessage))
    func videoMarkers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let trip = try folder.copySampleImages()
        let videos = TestPaths.fixtures.appendingPathComponent("videos")
        for (fixture, name) in [("video-iphone.mov", "IMG_0100.MOV"), ("video-android.mp4", "2025-06-10 Lisboa/VID_20250610_110500.mp4"),
                                ("video-loci.3gp", "2025-06-11 Sintra/VID_0002.3gp")] {
            try FileManager.default.copyItem(at: videos.appendingPathComponent(fixture), to: trip.appendingPathComponent(name))
        }
        let ingest = try CommandRun.geotrip(["ingest", trip.path, "--no-thumbnails"])
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")
        let probe = trip.deletingLastPathComponent().appendingPathComponent("probe.html")
        try Self.videoProbe.replacingOccurrences(of: "trip/geotrip", with: trip.lastPathComponent + "/geotrip")
            .write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion",
                                            "--window-size=1000,900", "--dump-dom"])
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        let result: VideoProbeResult = try Self.result(of: run)
        #expect(result.videoMarkers == 2, "the phone's and the 3GP's, not the Live Photo's")
        #expect(!result.loneGroups.isEmpty && result.loneGroups.allSatisfy { $0.face == $0.visit + "\u{25B6}" }, "\(result.loneGroups)")
        let link = try #require(result.popupLink)
        #expect(link.hasSuffix("VID_20250610_110500.mp4") || link.hasSuffix("VID_0002.3gp"), "\(link)")
        #expect(result.popupText?.contains("0:0") == true, "the popup names the clip's length: \(result.popupText ?? "")")
        #expect(result.selected == 1, "the video's visit is selected in the timeline")
    }

    /// Runs the probe on the page in `folder/geotrip/index.html`.
    static func probe(_ folder: URL, frame: (width: Int, height: Int) = (390, 844)) throws -> (result: ProbeResult, console: [String]) {
        let probe = folder.appendingPathComponent("probe.html")
        try Self.probe.replacingOccurrences(of: "width:390px;height:844px", with: "width:\(frame.width)px;height:\(frame.height)px")
            .write(to: probe, atomically: true, encoding: .utf8)
        // Reduced motion: the page jumps to a visit instead of flying, which headless Chromium's
        // virtual time does not animate.
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion",
                                            "--window-size=800,1000", "--dump-dom"])
        return (try result(of: run), consoleLines(run))
    }

    /// The JSON a probe page left in its `<pre id="result">`, from the DOM Chromium dumped.
    static func result<T: Decodable>(of run: CommandRun) throws -> T {
        let dom = run.stdout
        let start = try #require(dom.range(of: "<pre id=\"result\">")), end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test("a trip across the Pacific, drawn across 180° with the flight as one arc, in Korean",
          .enabled(if: chromium != nil, skipMessage))
    func pacific() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var input = TripMapPageTests.pacificInput(language: "ko")
        for index in input.visits.indices {
            input.visits[index].media = input.visits[index].media.map { TripMapInput.Media(kind: $0.kind, path: $0.path, thumbnail: nil, durationSeconds: $0.durationSeconds) }
        }
        let resources = try TripMapResources.load(gazetteer: try Gazetteer.load())
        let page = folder.url.appendingPathComponent("geotrip/index.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TripMapPage(input: input).render(with: resources).write(to: page, atomically: true, encoding: .utf8)
        let (result, console) = try Self.probe(folder.url)
        #expect(console.isEmpty, "console: \(console)")
        #expect(result.lang == "ko")
        #expect(result.visitMarkers == 3)
        #expect(result.routeLines == 2, "one direct line and one flight")
        #expect(result.arrows == 2)
        #expect(result.popupAfterTimelineClick == "2. Tokyo Station")
        #expect(result.scrollWidth <= result.clientWidth)
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("geotrip-map-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let file = shots.appendingPathComponent("ko-pacific-desktop-light.png")
        _ = try Self.chromium(page, ["--window-size=1280,900", "--screenshot=\(file.path)"])
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    /// Uses the map in a 390 px frame as a keyboard and a screen reader would, and measures
    /// the numbers' contrast by WCAG 2's formula from the colours the browser computed.
    static let accessProbe = framed("geotrip/index.html", width: 390, height: 844) + shared + #"""
function channels(colour) { return colour.match(/[0-9.]+/g).slice(0, 3).map(Number); }
function luminance(colour) {
  var c = channels(colour).map(function (v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function contrast(a, b) { var x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, win = f.contentWindow, r = {};
  r.alts = Array.prototype.map.call(doc.querySelectorAll('li.visit'), function (li) {
    return Array.prototype.map.call(li.querySelectorAll('.thumbs img'), function (img) { return img.getAttribute('alt'); });
  });
  var both = doc.querySelectorAll('.leaflet-marker-pane .visit-icon, .leaflet-marker-pane .group-icon');
  r.markerRoles = Array.prototype.map.call(both, function (m) { return m.getAttribute('role'); });
  r.markerLabels = Array.prototype.map.call(both, function (m) { return m.getAttribute('aria-label'); });
  r.groupsAtFirst = groupIcons(doc).length;
  var numbers = Array.prototype.slice.call(doc.querySelectorAll('.badge, .visit-marker, .group-marker'));
  r.lowestContrast = Math.min.apply(null, numbers.map(function (n) {
    var style = win.getComputedStyle(n);
    return contrast(style.color, style.backgroundColor);
  }));
  // Groups opened with Enter (zoomed into) until two visits stand alone.
  r.groupsOpened = 0;
  (function openGroups(then) {
    var group = groupIcons(doc)[0];
    if (visitIcons(doc).length >= 2 || !group || r.groupsOpened >= 8) { then(); return; }
    group.focus();
    group.dispatchEvent(new KeyboardEvent('keypress', { key: 'Enter', keyCode: 13, which: 13, bubbles: true }));
    r.groupsOpened += 1;
    setTimeout(function () { openGroups(then); }, 300);
  })(function () {
  r.aloneAfterOpening = visitIcons(doc).length;
  r.focusAfterOpening = doc.activeElement ? doc.activeElement.id : null;
  // A marker reached with the Tab key: focused, then the key's release, on which Leaflet sets
  // the element's own outline to none.
  var marker = visitIcons(doc)[0];
  marker.focus();
  marker.dispatchEvent(new KeyboardEvent('keyup', { key: 'Tab', bubbles: true }));
  r.focusedOutline = win.getComputedStyle(marker).outlineStyle;
  marker.dispatchEvent(new KeyboardEvent('keypress', { key: 'Enter', keyCode: 13, which: 13, bubbles: true }));
  setTimeout(function () {
    r.popupOpen = !!doc.querySelector('.leaflet-popup');
    r.focusAfterEnter = doc.activeElement ? doc.activeElement.className : null;
    var close = doc.querySelector('.leaflet-popup-close-button');
    r.closeRole = close && close.getAttribute('role');
    r.closeLabel = close && close.getAttribute('aria-label');
    doc.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', keyCode: 27, bubbles: true }));
    setTimeout(function () {
      r.popupAfterEscape = !!doc.querySelector('.leaflet-popup');
      r.focusBackOnMarker = doc.activeElement === marker;
      // The skip link's target lands below the map pinned at the top, not under it.
      doc.querySelector('.skip').click();
      setTimeout(function () {
        r.timelineHeadingTop = Math.round(doc.querySelector('#timeline h2').getBoundingClientRect().top);
        r.mapBottom = Math.round(doc.getElementById('map').getBoundingClientRect().bottom);
        // A visit opened from the timeline: Escape closes its popup and leaves the focus there.
        var button = doc.querySelectorAll('button.visit-button')[2];
        button.focus();
        button.click();
        setTimeout(function () {
          r.popupFromTimeline = !!doc.querySelector('.leaflet-popup');
          button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', keyCode: 27, bubbles: true }));
          r.popupAfterTimelineEscape = !!doc.querySelector('.leaflet-popup');
          r.focusStaysInTimeline = doc.activeElement === button;
          // Space on a marker opens it too; its close button gives the focus back to the marker.
          var second = visitIcons(doc)[1];
          second.focus();
          second.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true }));
          setTimeout(function () {
            r.popupAfterSpace = !!doc.querySelector('.leaflet-popup');
            r.focusInPopupAfterSpace = !!doc.activeElement && !!doc.activeElement.closest('.leaflet-popup');
            doc.querySelector('.leaflet-popup-close-button').click();
            setTimeout(function () {
              r.popupAfterClose = !!doc.querySelector('.leaflet-popup');
              r.focusBackAfterClose = doc.activeElement === second;
              document.getElementById('result').textContent = JSON.stringify(r);
            }, 300);
          }, 300);
        }, 300);
      }, 300);
    }, 300);
  }, 500);
  });
});
</script>
"""#

    struct AccessResult: Decodable {
        var alts: [[String]]
        var markerRoles: [String?]
        var markerLabels: [String?]
        var groupsAtFirst: Int
        var groupsOpened: Int
        var aloneAfterOpening: Int
        var focusAfterOpening: String?
        var lowestContrast: Double
        var focusedOutline: String
        var popupOpen: Bool
        var focusAfterEnter: String?
        var closeRole: String?
        var closeLabel: String?
        var popupAfterEscape: Bool
        var focusBackOnMarker: Bool
        var timelineHeadingTop: Int
        var mapBottom: Int
        var popupFromTimeline: Bool
        var popupAfterTimelineEscape: Bool
        var focusStaysInTimeline: Bool
        var popupAfterSpace: Bool
        var focusInPopupAfterSpace: Bool
        var popupAfterClose: Bool
        var focusBackAfterClose: Bool
    }

    @Test("for keyboards and screen readers: thumbnails named, markers are buttons that open a popup the keyboard can leave, focus shown, numbers at 4.5:1",
          .enabled(if: chromium != nil, skipMessage))
    func accessible() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let rendered = try await SampleTripMap.render(in: folder)
        let root = rendered.page.deletingLastPathComponent().deletingLastPathComponent()
        let probe = root.appendingPathComponent("access.html")
        try Self.accessProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion",
                                            "--window-size=800,1000", "--dump-dom"])
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        let result: AccessResult = try Self.result(of: run)
        // Each thumbnail says which photo of its visit it is, by the file's name, in order; the
        // names isolated from the words around them.
        let visits = rendered.input.visits
        #expect(result.alts.count == visits.count)
        for (alts, visit) in zip(result.alts, visits) {
            // Every photo of the sample has a thumbnail on the page the export wrote.
            let shown = Array(visit.media.prefix(TripMapPage(input: rendered.input).thumbnailsPerVisit))
            #expect(alts.count == shown.count)
            for (position, (alt, media)) in zip(alts, shown).enumerated() {
                let file = (media.path! as NSString).lastPathComponent
                #expect(alt == "\u{2068}\(file)\u{2069}, photo \(position + 1) of \(visit.media.count), \u{2068}\(visit.name ?? "Unnamed place")\u{2069}", "\(alt)")
            }
        }
        // Every marker and group is a button; together their labels name every visit, by
        // number and name ("3. Lisbon, …" alone; "7 visits: 1. Lisbon, 2. Sintra, …" in a group).
        #expect(result.markerRoles.allSatisfy { $0 == "button" }, "\(result.markerRoles)")
        #expect(result.groupsAtFirst > 0, "the sample's Lisbon visits overlap at the opening view, so they are grouped")
        let labels = result.markerLabels.compactMap { $0 }.joined(separator: " | ")
        for (index, visit) in visits.enumerated() {
            #expect(labels.contains("\(index + 1). \(visit.name ?? "Unnamed place")"), "visit \(index + 1) is named by no marker or group: \(labels)")
        }
        // Enter on a group zooms in; the focus goes back to the map.
        #expect(result.groupsOpened > 0 && result.aloneAfterOpening >= 2, "\(result.groupsOpened) groups opened, \(result.aloneAfterOpening) visits alone")
        #expect(result.focusAfterOpening == "map")
        #expect(result.lowestContrast >= 4.5, "a visit's number at \(result.lowestContrast):1")
        #expect(result.focusedOutline == "solid", "a focused marker shows no outline")
        #expect(result.popupOpen && result.focusAfterEnter?.contains("popup-title") == true, "focus: \(result.focusAfterEnter ?? "none")")
        #expect(result.closeRole == "button" && result.closeLabel == "Close")
        #expect(!result.popupAfterEscape && result.focusBackOnMarker)
        #expect(result.timelineHeadingTop >= result.mapBottom, "the timeline's heading at \(result.timelineHeadingTop), under the map ending at \(result.mapBottom)")
        #expect(result.popupFromTimeline && !result.popupAfterTimelineEscape && result.focusStaysInTimeline)
        #expect(result.popupAfterSpace && result.focusInPopupAfterSpace)
        #expect(!result.popupAfterClose && result.focusBackAfterClose)
    }

    /// Reports, for each visit marker on the map, its number and how many lines its text
    /// takes, and whether it stays inside its circle.
    static let markerProbe = framed("geotrip/index.html", width: 1280, height: 900) + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  setTimeout(function () {
    var doc = f.contentDocument;
    var faces = Array.prototype.map.call(doc.querySelectorAll('.leaflet-marker-pane .visit-marker, .leaflet-marker-pane .group-marker'), function (face) {
      var range = doc.createRange();
      range.selectNodeContents(face);
      return { text: face.textContent, lines: range.getClientRects().length, group: face.classList.contains('group-marker'),
               visits: Number(face.parentNode.getAttribute('data-visits') || 1),
               inside: face.scrollWidth <= face.clientWidth && face.scrollHeight <= face.clientHeight };
    });
    document.getElementById('result').textContent = JSON.stringify(faces);
  }, 1500);
});
</script>
"""#

    struct MarkerFace: Decodable {
        var text: String
        var lines: Int
        var group: Bool
        var visits: Int
        var inside: Bool
    }

    @Test("a long trip's visit numbers (three and four digits) and a group of 997 stay on one line inside their markers",
          .enabled(if: chromium != nil, skipMessage))
    func longTripMarkers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 1,002 visits of one photo each (the smallest marker), a day of them around Lisbon:
        // visits 1, 10, 100, 1000 and 1002 on their own, 100 km apart, the rest packed together
        // (one group).
        let alone: [Int: (Double, Double)] = [0: (38.2, -9.9), 9: (38.2, -8.4), 99: (39.2, -9.9), 999: (39.2, -8.4), 1001: (38.7, -9.9)]
        var visits: [TripMapInput.Visit] = []
        for index in 0..<1002 {
            let (latitude, longitude) = alone[index] ?? (38.70 + Double(index % 40) * 0.0005, -9.16 + Double(index / 40) * 0.0005)
            visits.append(.init(id: "v\(index)", placeId: "p\(index)", name: "Place \(index)", countryCode: "PT",
                                latitude: latitude, longitude: longitude, localDate: "2025-06-10", photoCount: 1))
        }
        let input = TripMapInput(language: "en", visits: visits, days: [.init(date: "2025-06-10")], legs: [])
        _ = try Self.writePage(input, in: folder.url)
        let probe = folder.url.appendingPathComponent("probe.html")
        try Self.markerProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--window-size=1300,950", "--dump-dom"])
        let faces: [MarkerFace] = try Self.result(of: run)
        #expect(faces.map(\.visits).reduce(0, +) == 1002, "every visit on its own marker or in a group")
        #expect(faces.filter { !$0.group }.map(\.text).sorted() == ["1", "10", "100", "1000", "1002"])
        #expect(faces.filter(\.group).map(\.text) == ["997"])
        let wrapped = faces.filter { $0.lines != 1 || !$0.inside }.map(\.text)
        #expect(wrapped.isEmpty, "markers whose number wraps or spills: \(wrapped.prefix(5))")
    }

    /// Opens the group of visits on one spot (a click fans them out), asks the timeline for one
    /// of them while they are grouped again, then for three visits at once, and uses a group
    /// from the keyboard.
    static let spotProbe = framed("geotrip/index.html", width: 900, height: 700) + shared + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  r.groups = Array.prototype.map.call(groupIcons(doc), function (g) { return g.getAttribute('aria-label'); });
  r.aloneAtFirst = Array.prototype.map.call(visitIcons(doc), function (m) { return parseInt(m.getAttribute('aria-label'), 10); });
  var group = groupIcons(doc)[0];
  if (group) group.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: f.contentWindow }));
  setTimeout(function () {
    r.aloneAfterClick = Array.prototype.map.call(visitIcons(doc), function (m) { return parseInt(m.getAttribute('aria-label'), 10); }).sort();
    r.overlappingAfterClick = overlapping(doc);
    doc.querySelector('.day-filter button[data-day="all"]').click();
    r.groupsAgain = groupIcons(doc).length;
    doc.querySelector('li.visit[data-visit="v3"] button.visit-button').click();
    var popupTitle = function () { var title = doc.querySelector('.leaflet-popup-content .popup-title'); return title ? title.textContent : null; };
    var key = function (node, type, name, code) { node.dispatchEvent(new KeyboardEvent(type, { key: name, keyCode: code, which: code, bubbles: true, cancelable: true })); };
    setTimeout(function () {
      r.popupFromTimeline = popupTitle();
      // Three visits asked for in a row, the map at its closest: the last one asked opens.
      ['v1', 'v13', 'v4'].forEach(function (id) { doc.querySelector('li.visit[data-visit="' + id + '"] button.visit-button').click(); });
      setTimeout(function () {
        r.popupAfterThree = popupTitle();
        r.selectedAfterThree = Array.prototype.map.call(doc.querySelectorAll('li.visit.selected'), function (li) { return li.getAttribute('data-visit'); });
        // Escape closes the popup, then folds the fan.
        key(doc, 'keydown', 'Escape', 27);
        key(doc, 'keydown', 'Escape', 27);
        r.popupAfterEscapes = popupTitle();
        r.fannedAfterEscapes = doc.querySelectorAll('.group-icon[aria-expanded]').length + visitIcons(doc).length;
        doc.querySelector('.day-filter button[data-day="all"]').click();
        // The café's group from the keyboard: Enter fans it out, the focus on its first visit;
        // Escape folds it, the focus back on the group. The markers are in the visits' order.
        var cafe = Array.prototype.filter.call(groupIcons(doc), function (g) { return g.getAttribute('aria-label').indexOf('Café') >= 0; })[0];
        r.cafeLabel = cafe ? cafe.getAttribute('aria-label') : null;
        if (!cafe) { document.getElementById('result').textContent = JSON.stringify(r); return; }
        cafe.focus();
        key(cafe, 'keydown', 'Enter', 13);
        key(cafe, 'keypress', 'Enter', 13);
        setTimeout(function () {
          var focused = doc.activeElement;
          r.focusAfterEnter = focused && focused.getAttribute('aria-label');
          r.cafeExpanded = cafe.getAttribute('aria-expanded');
          r.order = Array.prototype.map.call(doc.querySelectorAll('.leaflet-marker-pane > [data-order]'), function (node) { return Number(node.getAttribute('data-order')); });
          key(focused, 'keydown', 'Escape', 27);
          r.focusAfterEscape = doc.activeElement && doc.activeElement.getAttribute('aria-label');
          r.cafeExpandedAfter = cafe.getAttribute('aria-expanded');
          document.getElementById('result').textContent = JSON.stringify(r);
        }, 500);
      }, 1500);
    }, 1000);
  }, 500);
});
</script>
"""#

    struct SpotResult: Decodable {
        var groups: [String]
        var aloneAtFirst: [Int]
        var aloneAfterClick: [Int]
        var overlappingAfterClick: Int
        var groupsAgain: Int
        var popupFromTimeline: String?
        var popupAfterThree: String?
        var selectedAfterThree: [String]
        var popupAfterEscapes: String?
        var fannedAfterEscapes: Int
        var cafeLabel: String?
        var focusAfterEnter: String?
        var cafeExpanded: String?
        var order: [Double]
        var focusAfterEscape: String?
        var cafeExpandedAfter: String?
    }

    /// A hotel on three evenings, the same coordinates each time, with a day out (Sintra, 23 km
    /// away) in between; then `cafeVisits` visits to a café 5 km away, on one spot too.
    static func hotelEvenings(cafeVisits: Int) -> TripMapInput {
        let hotel = (38.7139, -9.1394), day = (38.7967, -9.3880), cafe = (38.7223, -9.0800)
        let stops: [(String, (Double, Double), String)] = [("Hotel Avenida", hotel, "2025-06-10"), ("Sintra", day, "2025-06-11"),
                                                           ("Hotel Avenida", hotel, "2025-06-11"), ("Hotel Avenida", hotel, "2025-06-12")]
            + Array(repeating: ("Café", cafe, "2025-06-12"), count: cafeVisits)
        let visits: [TripMapInput.Visit] = stops.enumerated().map { index, stop in
            .init(id: "v\(index + 1)", placeId: ["Sintra": "p2", "Café": "p3"][stop.0] ?? "p1", name: stop.0, countryCode: "PT",
                  latitude: stop.1.0, longitude: stop.1.1, localDate: stop.2, photoCount: 3)
        }
        return TripMapInput(language: "en", visits: visits, days: ["2025-06-10", "2025-06-11", "2025-06-12"].map { .init(date: $0) }, legs: [])
    }

    @Test("visits on one spot (a hotel each night) are one group that fans out, the timeline opens each of them, quick clicks end on the last, and a group works from the keyboard",
          .enabled(if: chromium != nil, skipMessage))
    func visitsOnOneSpot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.writePage(Self.hotelEvenings(cafeVisits: 9), in: folder.url)
        let probe = folder.url.appendingPathComponent("probe.html")
        try Self.spotProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion", "--window-size=1000,800", "--dump-dom"])
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        let result: SpotResult = try Self.result(of: run)
        let cafeLabel = "9 visits: " + (5...12).map { "\($0). Café" }.joined(separator: ", ") + ", and 1 more. Show them one by one"
        #expect(result.groups == ["3 visits: 1. Hotel Avenida, 3. Hotel Avenida, 4. Hotel Avenida. Show them one by one", cafeLabel], "\(result.groups)")
        #expect(result.aloneAtFirst == [2])
        #expect(result.aloneAfterClick == [1, 2, 3, 4], "the hotel's visits fanned out")
        #expect(result.overlappingAfterClick == 0)
        #expect(result.groupsAgain == 2)
        #expect(result.popupFromTimeline == "3. Hotel Avenida")
        #expect(result.popupAfterThree == "4. Hotel Avenida" && result.selectedAfterThree == ["v4"])
        #expect(result.popupAfterEscapes == nil && result.fannedAfterEscapes == 0, "Escape closed the popup, then folded the hotel's fan")
        #expect(result.cafeLabel == cafeLabel)
        #expect(result.focusAfterEnter?.hasPrefix("5. Café") == true, "\(result.focusAfterEnter ?? "none")")
        #expect(result.cafeExpanded == "true")
        #expect(result.order == result.order.sorted(), "markers in the visits' order: \(result.order)")
        #expect(result.focusAfterEscape == cafeLabel && result.cafeExpandedAfter == nil)
    }

    /// Asks the timeline for a visit in a group and drags the map while the reveal is under way
    /// (in the same turn of the page's loop, before the reveal's next step: with reduced motion
    /// the moves are instant, and headless Chromium's virtual time never ends an animated one),
    /// reports whether a popup opened anyway; then asks for another and leaves the map alone.
    static let gestureProbe = framed("geotrip/index.html", width: 900, height: 700) + shared + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, win = f.contentWindow, r = {};
  var popupTitle = function () { var title = doc.querySelector('.leaflet-popup-content .popup-title'); return title ? title.textContent : null; };
  var mouse = function (node, type, x, y) {
    node.dispatchEvent(new win.MouseEvent(type, { bubbles: true, cancelable: true, view: win, clientX: x, clientY: y, button: 0, buttons: type === 'mouseup' ? 0 : 1, which: 1 }));
  };
  setTimeout(function () {
    doc.querySelector('li.visit[data-visit="v1"] button.visit-button').click();
    var map = doc.getElementById('map'), pane = map.querySelector('.leaflet-map-pane'), box = map.getBoundingClientRect();
    var x = box.left + box.width / 2, y = box.top + box.height / 2;
    mouse(pane, 'mousedown', x, y);
    for (var step = 1; step <= 8; step++) mouse(pane, 'mousemove', x - 15 * step, y - 10 * step);
    mouse(pane, 'mouseup', x - 120, y - 80);
    setTimeout(function () {
      r.popupAfterDrag = popupTitle();
      r.fannedAfterDrag = doc.querySelectorAll('.group-icon[aria-expanded]').length;
      // Space on the hotel's group, after that drag, opens it as Enter does.
      var hotel = Array.prototype.filter.call(groupIcons(doc), function (g) { return g.getAttribute('aria-label').indexOf('Hotel') >= 0; })[0];
      if (hotel) {
        hotel.focus();
        hotel.dispatchEvent(new win.KeyboardEvent('keydown', { key: ' ', keyCode: 32, which: 32, bubbles: true, cancelable: true }));
      }
      setTimeout(function () {
        r.fannedAfterSpace = doc.querySelectorAll('.group-icon[aria-expanded]').length;
        doc.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Escape', keyCode: 27, which: 27, bubbles: true, cancelable: true }));
        doc.querySelector('li.visit[data-visit="v3"] button.visit-button').click();
        setTimeout(function () {
          r.popupLeftAlone = popupTitle();
          document.getElementById('result').textContent = JSON.stringify(r);
        }, 1000);
      }, 500);
    }, 1000);
  }, 500);
});
</script>
"""#

    struct GestureResult: Decodable {
        var popupAfterDrag: String?
        var fannedAfterDrag: Int
        var fannedAfterSpace: Int
        var popupLeftAlone: String?
    }

    @Test("a drag while the map moves to a visit the timeline asked for leaves the map with the reader: no popup opens later; Space opens a group after a drag",
          .enabled(if: chromium != nil, skipMessage))
    func dragDuringReveal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try Self.writePage(Self.hotelEvenings(cafeVisits: 0), in: folder.url)
        let probe = folder.url.appendingPathComponent("probe.html")
        try Self.gestureProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--force-prefers-reduced-motion", "--window-size=1000,800", "--dump-dom"])
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        let result: GestureResult = try Self.result(of: run)
        #expect(result.popupAfterDrag == nil && result.fannedAfterDrag == 0, "the reveal went on after the drag: \(result)")
        #expect(result.fannedAfterSpace == 1, "Space on a group after a drag of the map opens it")
        #expect(result.popupLeftAlone == "3. Hotel Avenida", "a reveal left alone opens its visit")
    }

    /// Clicks the chip of a day with nothing on the map, recording the bounds the page fits
    /// the map to (`fitBounds`, watched on Leaflet's prototype once the page has loaded), and
    /// reads the notice a map with nothing on it shows.
    static let emptyDayProbe = framed("geotrip/index.html", width: 1000, height: 800) + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, win = f.contentWindow, r = { fitted: [] };
  var original = win.L.Map.prototype.fitBounds;
  win.L.Map.prototype.fitBounds = function (bounds, options) {
    var b = win.L.latLngBounds(bounds);
    r.fitted.push([b.getSouth(), b.getWest(), b.getNorth(), b.getEast()]);
    return original.call(this, bounds, options);
  };
  var chip = doc.querySelector('.day-filter button[data-day="' + (doc.querySelectorAll('.day-filter button').length - 2) + '"]');
  if (chip) chip.click();
  var notice = doc.querySelector('#map .map-empty');
  r.notice = notice ? notice.textContent : null;
  r.nothing = Array.prototype.map.call(doc.querySelectorAll('section.day'), function (day) {
    var line = day.querySelector('.nothing');
    return line ? line.textContent : '';
  });
  document.getElementById('result').textContent = JSON.stringify(r);
});
</script>
"""#

    struct EmptyDayResult: Decodable {
        var fitted: [[Double]]
        var notice: String?
        var nothing: [String]
    }

    @Test("a day with nothing on the map keeps the trip in view, and says so in the timeline; a trip with nothing on the map says why over it",
          .enabled(if: chromium != nil, skipMessage))
    func nothingOnTheMap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The hotel's trip and a last day whose visits were all private (none in the input).
        var input = Self.hotelEvenings(cafeVisits: 0)
        input.days.append(.init(date: "2025-06-13"))
        _ = try Self.writePage(input, in: folder.url)
        let probe = folder.url.appendingPathComponent("probe.html")
        try Self.emptyDayProbe.write(to: probe, atomically: true, encoding: .utf8)
        let arguments = ["--allow-file-access-from-files", "--force-prefers-reduced-motion", "--window-size=1000,800", "--dump-dom"]
        var run = try Self.chromium(probe, arguments)
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        var result: EmptyDayResult = try Self.result(of: run)
        // Fitted to the trip's visits (Lisbon and Sintra), not to the world.
        let fitted = try #require(result.fitted.last, "the day's chip fitted no bounds")
        #expect(fitted[0] > 38.7 && fitted[2] < 38.8 && fitted[1] > -9.4 && fitted[3] < -9.1, "\(fitted)")
        #expect(result.notice == nil)
        #expect(result.nothing == ["", "", "", "Nothing on the map this day."])

        // Every visit private: the notice, and each day says it.
        input.visits = []
        _ = try Self.writePage(input, in: folder.url)
        run = try Self.chromium(probe, arguments)
        #expect(Self.consoleLines(run).isEmpty, "console: \(Self.consoleLines(run))")
        result = try Self.result(of: run)
        #expect(result.notice == TripMapWords.english.nothingOnMap)
        #expect(result.nothing == Array(repeating: "Nothing on the map this day.", count: 4))
    }

    /// Turns on the page's one online tile layer and reports what happened.
    static let tileProbe = framed("geotrip/index.html", width: 800, height: 700) + #"""
var f = document.getElementById('f');
f.addEventListener('load', function () {
  var doc = f.contentDocument, r = {};
  var boxes = doc.querySelectorAll('.leaflet-control-layers-selector');
  r.layersOffered = boxes.length;
  if (boxes.length) boxes[0].click();
  setTimeout(function () {
    var tile = doc.querySelector('.leaflet-tile');
    r.tiles = doc.querySelectorAll('.leaflet-tile').length;
    r.referrerPolicy = tile ? tile.referrerPolicy : null;
    r.visitMarkers = doc.querySelectorAll('.leaflet-marker-pane .visit-icon').length;
    r.baseDrawn = doc.querySelectorAll('.leaflet-base-pane canvas, .leaflet-pane canvas').length > 0;
    document.getElementById('result').textContent = JSON.stringify(r);
  }, 1500);
});
</script>
"""#

    struct TileProbeResult: Decodable {
        var layersOffered: Int
        var tiles: Int
        var referrerPolicy: String?
        var visitMarkers: Int
        var baseDrawn: Bool
    }

    @Test("--tiles is offered on top of the offline map, asks with the origin, and tiles that fail break nothing; no OpenStreetMap from file://",
          .enabled(if: chromium != nil, skipMessage))
    func failingTiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var input = TripMapPageTests.pacificInput()
        for index in input.visits.indices { input.visits[index].media = [] }
        // Nothing listens there, and the browser has no network anyway.
        input.tiles = .init(urlTemplate: "http://127.0.0.1:9/{z}/{x}/{y}.png", attribution: "Nobody's tiles")
        let page = folder.url.appendingPathComponent("geotrip/index.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TripMapPage(input: input).render(with: try TripMapResources.load(gazetteer: nil))
            .write(to: page, atomically: true, encoding: .utf8)
        let probe = folder.url.appendingPathComponent("probe.html")
        try Self.tileProbe.write(to: probe, atomically: true, encoding: .utf8)
        let run = try Self.chromium(probe, ["--allow-file-access-from-files", "--window-size=900,800", "--dump-dom"])
        let errors = Self.consoleLines(run).filter { $0.contains("Uncaught") }
        #expect(errors.isEmpty, "script errors: \(errors)")
        let result: TileProbeResult = try Self.result(of: run)
        #expect(result.layersOffered == 1, "only the person's tiles: OpenStreetMap needs an http(s) page")
        #expect(result.tiles > 0)
        #expect(result.referrerPolicy == "strict-origin-when-cross-origin")
        #expect(result.visitMarkers == 3)
        #expect(result.baseDrawn)
    }

    @Test("screenshots at desktop and phone widths, light and dark, in English and Korean",
          .enabled(if: chromium != nil, skipMessage))
    func screenshots() async throws {
        let folder = try TemporaryFolder()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("geotrip-map-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        // Every combination in English; Korean once on each screen, once in each scheme.
        let korean: Set<String> = ["desktop-light", "phone-dark"]
        for language in ["en", "ko"] {
            let rendered = try await SampleTripMap.render(in: folder, language: language)
            for (name, size) in [("desktop", "1280,900"), ("phone", "390,844")] {
                for dark in [false, true] where language == "en" || korean.contains("\(name)-\(dark ? "dark" : "light")") {
                    let file = shots.appendingPathComponent("\(language)-\(name)-\(dark ? "dark" : "light").png")
                    try? FileManager.default.removeItem(at: file)
                    let run = try Self.chromium(rendered.page, ["--window-size=\(size)", "--screenshot=\(file.path)"]
                                                + (dark ? ["--force-dark-mode"] : []))
                    #expect(Self.consoleLines(run).isEmpty, "console (\(file.lastPathComponent)): \(Self.consoleLines(run))")
                    #expect(FileManager.default.fileExists(atPath: file.path), "no screenshot: \(run.stderr.suffix(500))")
                }
            }
            try FileManager.default.removeItem(at: rendered.page.deletingLastPathComponent().deletingLastPathComponent())
        }
        folder.remove()
        print("Trip map screenshots: \(shots.path)")
    }
}
