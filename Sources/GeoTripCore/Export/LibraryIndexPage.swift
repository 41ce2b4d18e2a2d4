import Foundation
import Mustache

/// The library's `index.html`: one line per trip, newest first, with its cover thumbnail, its
/// dates, countries, places, photos and distance, linking to the trip's own map and journal.
/// A plain page with no script, so it opens from `file://` anywhere; Mustache escapes every
/// name it inserts.
struct LibraryIndexPage {
    /// One trip as the page lists it.
    struct Entry {
        var number: Int
        /// The trip's folder, relative to the output folder (`trips/2019-06-03`).
        var folder: String
        var trip: Trip
        /// The cover thumbnail, relative to the output folder.
        var cover: String?
        /// Its photos and videos, those without a position too (`ExportedTrip.media`).
        var media: MediaCount
        /// Its distance, as its map gives it (`ExportedTrip.distance(of:outside:exported:)`).
        var kilometres: Double
    }

    var entries: [Entry]
    let words: JournalWords
    /// The page's `lang`.
    var language: String
    /// The zones kept out of everything shared: no trip is called after a place in one, and its
    /// countries and places count none in one (its distance, the map's, leaves them out too).
    var privacy = PrivacyZones()

    /// The whole page.
    func render() -> String {
        let trips = entries.reversed().map(view)
        // From the first trip's first day to the last day of any (a trip over New Year ends
        // in the next year).
        let firstYear = String(entries.first?.trip.days.first?.date.prefix(4) ?? "")
        let lastYear = entries.compactMap { $0.trip.days.last.map { String($0.date.prefix(4)) } }.max() ?? firstYear
        let away = entries.map(\.trip.calendarDays).reduce(0, +)
        let page = PageView(language: language, title: words.tripsTitle,
                            summary: words.tripsSummary(trips: entries.count, firstYear: firstYear, lastYear: lastYear, daysAway: away),
                            trips: trips, credit: "Place names: GeoNames (geonames.org), CC BY 4.0"
                                + (entries.contains { $0.trip.places.contains { $0.nameSource == NameSource.nominatim.rawValue } }
                                   ? "; © OpenStreetMap contributors, ODbL" : ""))
        return Self.template.render(page)
    }

    /// A trip's line.
    private func view(_ entry: Entry) -> TripView {
        let trip = entry.trip
        let first = trip.days.first?.date ?? "", last = trip.days.last?.date ?? ""
        let names = trip.mainPlaceNames(leavingOut: privacy)
        let countries = trip.countries(leavingOut: privacy).compactMap { code in
            words.countryName(code: code, stored: trip.places.first { $0.countryCode == code }?.country)
        }
        let title = Self.title(names: names, countries: countries, number: entry.number, isPrivate: trip.isPrivate(leavingOut: privacy), words: words)
        return TripView(number: entry.number, title: title, dates: words.dateSpan(first, last), days: words.dayCount(trip.calendarDays),
                        countries: countries.joined(separator: ", "), places: words.placeCount(trip.visitsAndPlaces(leavingOut: privacy).places),
                        photos: words.mediaCount(photos: entry.media.photos, videos: entry.media.videos), distance: words.distance(kilometres: entry.kilometres),
                        // The journal's first day's page: a bare folder opens only where folders are listed.
                        map: entry.folder + "/" + ExportStage.mapFile,
                        journal: entry.folder + "/" + ExportStage.journalFolder + "/" + (first.isEmpty ? "" : first + ".md"),
                        cover: entry.cover, mapWord: words.mapLink, journalWord: words.journalLink)
    }

    /// A trip's title: its main places' names, else its countries'; a trip whose every visit is
    /// private (a day at a partner's) is called so, and one whose places have neither a name
    /// nor a country (mid-ocean) goes by its number.
    static func title(names: [String], countries: [String], number: Int, isPrivate: Bool, words: JournalWords) -> String {
        if !names.isEmpty { return names.joined(separator: ", ") }
        if !countries.isEmpty { return countries.joined(separator: ", ") }
        return isPrivate ? words.privatePlace : "#\(number)"
    }

    // The views name their fields for the template (`MustacheParent`), as the journal's do.

    private struct PageView: MustacheParent {
        var language, title, summary: String
        var trips: [TripView]
        var credit: String

        func child(named name: String) -> Any? {
            switch name {
            case "language": language
            case "title": title
            case "summary": summary
            case "trips": trips
            case "credit": credit
            default: nil
            }
        }
    }

    private struct TripView: MustacheParent {
        var number: Int
        var title, dates, days, countries, places, photos, distance, map, journal: String
        var cover: String?
        var mapWord, journalWord: String

        func child(named name: String) -> Any? {
            switch name {
            case "number": number
            case "title": title
            case "dates": dates
            case "days": days
            case "countries": countries
            case "places": places
            case "photos": photos
            case "distance": distance
            case "map": map
            case "journal": journal
            case "cover": cover
            case "mapWord": mapWord
            case "journalWord": journalWord
            default: nil
            }
        }
    }

    private static let template: MustacheTemplate = {
        do {
            return try MustacheTemplate(string: source)
        } catch {
            // The template is part of geotrip: one that does not parse is a bug here.
            preconditionFailure("the trips page template does not parse: \(error)")
        }
    }()

    private static let source = """
        <!DOCTYPE html>
        <html lang="{{language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="geotrip">
        <title>{{title}}</title>
        <style>
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 56rem; padding: 1.5rem; color: #222; background: #fafaf7; overflow-wrap: anywhere; }
        h1 { margin: 0 0 .2rem; font-size: 1.8rem; }
        header p { margin: 0 0 1.2rem; color: #555; }
        ol { list-style: none; margin: 0; padding: 0; }
        li { display: flex; gap: 1rem; align-items: center; padding: .7rem 0; border-top: 1px solid #e3e1da; }
        .cover { flex: 0 0 9rem; height: 6.5rem; border-radius: .4rem; overflow: hidden; background: #dfe6e9; display: block; }
        .cover img { width: 100%; height: 100%; object-fit: cover; display: block; }
        h2 { margin: 0; font-size: 1.15rem; }
        h2 a { color: inherit; text-decoration: none; }
        h2 a:hover { text-decoration: underline; }
        .about { min-width: 0; }
        .about p { margin: .1rem 0; color: #444; }
        .figures { color: #666; font-size: .92rem; }
        .links a { color: #1f5fa8; }
        footer { margin-top: 1.5rem; color: #666; font-size: .85rem; }
        </style>
        </head>
        <body>
        <header><h1>{{title}}</h1><p class="summary">{{summary}}</p></header>
        <ol class="trips">
        {{#trips}}
        <li class="trip" id="trip-{{number}}">
        <a class="cover" href="{{map}}" aria-hidden="true" tabindex="-1">{{#cover}}<img src="{{cover}}" alt="" loading="lazy">{{/cover}}</a>
        <div class="about">
        <h2><a href="{{map}}">{{title}}</a></h2>
        <p class="dates">{{dates}} · {{days}}</p>
        <p class="countries">{{countries}}</p>
        <p class="figures">{{places}} · {{photos}} · {{distance}}</p>
        <p class="links"><a href="{{map}}">{{mapWord}}</a> · <a href="{{journal}}">{{journalWord}}</a></p>
        </div>
        </li>
        {{/trips}}
        </ol>
        <footer>{{credit}}</footer>
        </body>
        </html>

        """
}
