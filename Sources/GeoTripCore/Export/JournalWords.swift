import Foundation

/// The journal's own words in the trip's language (`--lang`): English and Korean complete,
/// English for the words of other languages. Dates, weekdays and country names come from
/// Foundation's locale data in every language it knows.
struct JournalWords: Sendable {
    /// The language the words are in (`en` or `ko`), and the one asked for (for dates and countries).
    let language: String
    let requested: String

    /// Words for `language` (a BCP 47 code such as `ko` or `pt-BR`).
    init(language: String) {
        requested = language
        let base = language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        self.language = Self.translated.contains(base) ? base : "en"
    }

    /// Languages whose words are all translated.
    static let translated: Set<String> = ["en", "ko"]

    private var korean: Bool { language == "ko" }

    /// The Foundation locale for dates and country names.
    var locale: Locale { Locale(identifier: requested) }

    /// `Tuesday, 10 June 2025` / `2025년 6월 10일 화요일`.
    func dayHeading(_ date: String) -> String {
        DayFormatting.string(date, template: "EEEEdMMMMy", locale: locale) ?? date
    }

    /// The country's name in the trip's language, else the name stored with the place.
    func countryName(code: String?, stored: String?) -> String? {
        guard let code, let name = locale.localizedString(forRegionCode: code), !name.isEmpty else { return stored }
        return name
    }

    // MARK: The library's page of trips

    /// The page's title.
    var tripsTitle: String { korean ? "여행" : "Trips" }

    /// `12 trips, 2016 to 2025, 143 days away` / `여행 12번, 2016–2025년, 143일`.
    func tripsSummary(trips: Int, firstYear: String, lastYear: String, daysAway: Int) -> String {
        let years = firstYear == lastYear ? firstYear : (korean ? "\(firstYear)–\(lastYear)" : "\(firstYear) to \(lastYear)")
        return korean ? "여행 \(trips)번, \(years)년, 여행한 날 \(daysAway)일"
            : "\(trips) trip\(trips == 1 ? "" : "s"), \(years), \(daysAway) day\(daysAway == 1 ? "" : "s") away"
    }

    /// `3–12 June 2019` / `2019년 6월 3일–12일`, from the locale's own interval format.
    func dateSpan(_ first: String, _ last: String) -> String {
        DayFormatting.span(first, last, template: "dMMMMy", locale: locale) ?? first + "–" + last
    }

    /// `10 days` / `10일`.
    func dayCount(_ count: Int) -> String { korean ? "\(count)일" : (count == 1 ? "1 day" : "\(count) days") }

    /// `4 places` / `장소 4곳`.
    func placeCount(_ count: Int) -> String { korean ? "장소 \(count)곳" : (count == 1 ? "1 place" : "\(count) places") }

    /// `312 km`.
    func distance(kilometres: Double) -> String { "\(Int(kilometres.rounded()).grouped) km" }

    /// The links to a trip's map and journal.
    var mapLink: String { korean ? "지도" : "map" }
    var journalLink: String { korean ? "일지" : "journal" }

    /// `3 photos` / `사진 3장`.
    func photoCount(_ count: Int) -> String {
        korean ? "사진 \(count)장" : (count == 1 ? "1 photo" : "\(count) photos")
    }

    /// `3 photos, 1 video` / `사진 3장, 동영상 1개`; the photos alone when there is no video.
    func mediaCount(photos: Int, videos: Int) -> String {
        guard videos > 0 else { return photoCount(photos) }
        let clips = korean ? "동영상 \(videos)개" : (videos == 1 ? "1 video" : "\(videos) videos")
        return photos > 0 ? photoCount(photos) + ", " + clips : clips
    }

    /// `video, 0:14` / `동영상, 0:14`; `video` when the length is not known.
    func video(seconds: Double?) -> String {
        let word = korean ? "동영상" : "video"
        guard let length = MediaDuration.text(seconds) else { return word }
        return word + ", " + length
    }

    /// The heading of the day's photos without a position.
    var unplacedHeading: String { korean ? "위치가 없는 사진" : "Photos without a position" }

    /// What to do about them.
    var unplacedHint: String {
        korean ? "이 명령의 LAT,LON을 사진을 찍은 곳의 좌표로 바꾸거나 --place \"이름\"을 써서 위치를 지정하세요:"
            : "To place them, replace LAT,LON in this command with where they were taken (or use --place \"NAME\"):"
    }

    /// Shown for a visit inside a `--hide-near` zone, instead of its name.
    var privatePlace: String { korean ? "비공개 장소" : "Private place" }

    /// A visit's name when none is known.
    var unnamedPlace: String { korean ? "이름 없는 장소" : "Unnamed place" }

    /// The footer's explanation of the notes rule.
    var footer: String {
        korean ? "메모는 notes 표시 줄과 end notes 표시 줄 사이에 쓰세요. geotrip은 실행할 때마다 이 파일의 나머지를 다시 씁니다"
            : "write your notes between the notes and end notes lines; geotrip rewrites the rest of this file on every run"
    }

    /// The day's notes, above its visits.
    var dayNotesHint: String { korean ? "이날의 메모" : "Notes for the day" }

    /// The title of `unplaced-notes.md`.
    var unplacedNotesTitle: String { korean ? "방문이 사라진 메모" : "Notes whose visit is gone" }

    /// What `unplaced-notes.md` is.
    var unplacedNotesIntro: String {
        korean ? "이 메모의 방문은 더 이상 여행에 없습니다(사진이 지워졌거나 다시 묶였거나, 그날이 여행이 아닌 집에서 보낸 날이 되었습니다). 필요한 곳으로 옮기고 여기서는 지우세요. 같은 방문이 돌아오면 메모도 돌아갑니다."
            : "These notes belong to visits the trip no longer has (their photos were deleted or regrouped, or their day is now a day at home, which no trip's journal shows). Move what you want to keep to another visit's notes and empty the block here; if the visit comes back, its notes go back with it."
    }

    /// The title of `undated-photos.md`.
    var undatedTitle: String { korean ? "날짜가 없는 사진" : "Photos without a date" }

    /// Why they are on no day's page.
    var undatedIntro: String {
        korean ? "이 사진들에서는 쓸 수 있는 찍은 시각을 찾지 못했습니다(EXIF나 XMP에 날짜가 없거나, 카메라 날짜가 1826년 이전이나 내일 이후이거나, 위치 없이 GPS 시각만 있습니다). 그래서 어느 날의 페이지에도, 지도에도 없습니다."
            : "geotrip found no time it could use for these photos (no date in their EXIF or XMP, a camera date before 1826 or after tomorrow, or a GPS time with no position to place it), so they are on no day's page and not on the map."
    }

    /// What to do about them.
    var undatedHint: String {
        korean ? "날짜를 넣으려면 XMP 사이드카를 쓰는 사진 관리 프로그램(Lightroom, darktable, digiKam)에서 날짜를 지정하거나, 사진마다 이런 명령에 날짜를 채워 사이드카에 날짜를 넣으세요(사이드카가 없으면 새로 만들고, 사진 파일은 바뀌지 않습니다). 그다음 geotrip ingest를 다시 실행하세요. 카메라 날짜가 1826년 이전이나 내일 이후이면 사이드카보다 그 날짜가 우선하니, 그런 사진은 카메라의 시계를 geotrip ingest --clock-offset으로 바로잡으세요. 날짜가 없는 첫 사진의 명령:"
            : "To date one, set its date in a photo manager that writes XMP sidecars (Lightroom, darktable, digiKam), or put the date into its sidecar with a command like this one, the date filled in, for each photo (the sidecar is made when there is none; the photo itself is not changed); then run geotrip ingest again. A camera date before 1826 or after tomorrow counts over a sidecar's: for those, put the camera's clock right with geotrip ingest --clock-offset. For the first photo without a date:"
    }

    /// What to do when every undated photo's name is not UTF-8.
    var undatedRenameHint: String {
        korean ? "이 사진들의 이름은 UTF-8이 아니어서 geotrip이 옆의 XMP 사이드카를 읽지 못합니다. 이름을 바꾼 뒤 사진 관리 프로그램이나 exiftool로 날짜를 넣고 geotrip ingest를 다시 실행하세요."
            : "These photos' names are not UTF-8, and geotrip reads no XMP sidecar beside such a name: rename them, then give them a date in a photo manager or with exiftool, and run geotrip ingest again."
    }

    /// What to do when every undated photo has an implausible camera date.
    var undatedClockHint: String {
        korean ? "이 사진들의 카메라 날짜는 1826년 이전이나 내일 이후라서 쓸 수 없습니다. 그 카메라의 시계를 geotrip ingest --clock-offset으로 바로잡거나, 사진 관리 프로그램에서 날짜를 고치세요."
            : "These photos' camera dates are before 1826 or after tomorrow, so geotrip cannot use them: put their camera's clock right with geotrip ingest --clock-offset, or correct the dates in a photo manager."
    }

    /// The footer's words on a page without notes.
    var rewrittenFooter: String { korean ? "geotrip은 실행할 때마다 이 파일을 다시 씁니다" : "geotrip rewrites this file on every run" }

    /// `Visit v17: Lisbon, 2025-06-10`; without a place name known (the note was written in
    /// the run its visit went), `Visit v17, 2025-06-10`.
    func goneVisit(id: String, place: String?, date: String?) -> String {
        if JournalNote.isDay(id) { return korean ? "\(id)의 메모" : "Notes for \(id)" }
        if !JournalNote.isGeotripsName(id) {
            // A block the person named: not a visit's.
            let day = date.map { ", \($0)" } ?? ""
            return korean ? "직접 이름 붙인 블록 \(id)\(day)" : "Your own block \(id)\(day)"
        }
        let seen = [place, date ?? (korean ? "날짜 모름" : "day unknown")].compactMap { $0 }.joined(separator: ", ")
        if korean { return "방문 \(id)" + (place == nil ? ", " : ": ") + seen }
        return "Visit \(id)" + (place == nil ? ", " : ": ") + seen
    }
}
