/// The map page's own words in one language. `en` and `ko` are complete; any other language
/// gets English words (dates and country names still come in that language from Foundation).
public struct TripMapWords: Sendable, Equatable {
    /// The language these words are in.
    public var language: String
    var pageTitle: String
    /// The link from a library trip's page back to the page of trips.
    var allTrips: String
    var skipToTimeline: String
    var figuresHeading: String
    /// A figure card's label for its number: "1 day", "3 days" / "일".
    let days: @Sendable (Int) -> String
    let visits: @Sendable (Int) -> String
    let places: @Sendable (Int) -> String
    var ground: String
    var flown: String
    let countries: @Sendable (Int) -> String
    var overview: String
    var mapLabel: String
    var dayFilter: String
    var allDays: String
    var timeline: String
    var unnamedPlace: String
    var notes: String
    var video: String
    /// The title of a thumbnail's link to its original.
    var openOriginal: String
    /// The label of a popup's close button.
    var close: String
    var offlineMap: String
    var onlineTiles: String
    var credits: String
    var creditPlaceNames: String
    var creditOpenStreetMap: String
    var creditShores: String
    var creditCountries: String
    var creditLeaflet: String
    var madeWith: String
    /// Over a map with nothing on it: why a trip shows no place.
    var nothingOnMap: String
    /// Under a day's heading when the day shows no visit and no photo without a position.
    var nothingThisDay: String
    /// "1 photo", "3 photos" / "사진 3장".
    let photoCount: @Sendable (Int) -> String
    /// "1 video" / "동영상 1개".
    let videoCount: @Sendable (Int) -> String
    /// "2 photos without a position".
    let unplacedCount: @Sendable (Int) -> String
    /// Which of a visit's media a thumbnail is: "photo 2 of 7" / "사진 2/7".
    let mediaOf: @Sendable (TripMapInput.Media.Kind, Int, Int) -> String
    /// The thumbnails a visit does not show, which its link opens the day's journal page for:
    /// "4 more, on the day's journal page" / "4개 더, 그날의 일지에".
    let more: @Sendable (Int) -> String
    // A group of markers that would overlap is named by the script, which counts them: `{n}`
    // stands for a number it fills in.
    /// A group's visits: "1 visit" / "{n} visits".
    var groupVisits: (one: String, many: String)
    /// A group's videos: "1 video" / "{n} videos".
    var groupVideos: (one: String, many: String)
    /// Between a group's visits and its videos: " and ".
    var groupAnd: String
    /// The visits a group's name leaves out: "and {n} more".
    var groupMore: String
    /// What opening a group does: "Show them one by one".
    var groupOpen: String

    /// The words for `language` (a BCP 47 code; only its first subtag is looked at).
    public static func forLanguage(_ language: String) -> TripMapWords {
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? "en"
        return primary == "ko" ? korean : english
    }

    public static func == (a: TripMapWords, b: TripMapWords) -> Bool { a.language == b.language }

    static let english = TripMapWords(
        language: "en", pageTitle: "Trip map", allTrips: "All trips", skipToTimeline: "Skip to the timeline",
        figuresHeading: "The trip in figures", days: { $0 == 1 ? "day" : "days" }, visits: { $0 == 1 ? "visit" : "visits" },
        places: { $0 == 1 ? "place" : "places" },
        ground: "on the ground", flown: "flown", countries: { $0 == 1 ? "country" : "countries" }, overview: "Where in the world",
        mapLabel: "Map of the trip", dayFilter: "Show a day", allDays: "All days", timeline: "Timeline",
        unnamedPlace: "Unnamed place", notes: "Notes", video: "Video", openOriginal: "Open the original", close: "Close",
        offlineMap: "Offline map", onlineTiles: "Online map tiles", credits: "Credits",
        creditPlaceNames: "Place and town names: GeoNames (CC BY 4.0)",
        creditOpenStreetMap: "Place names from OpenStreetMap: © OpenStreetMap contributors (ODbL 1.0)",
        creditShores: "Coastlines, lakes and borders: GSHHG by Wessel and Smith (LGPL 3.0)",
        creditCountries: "Countries of the overview: Natural Earth (public domain)",
        creditLeaflet: "Map library: Leaflet (BSD 2-Clause) and Leaflet.markercluster (MIT)", madeWith: "Made by geotrip from the trip's photos.",
        nothingOnMap: "No place of this trip is on the map: its photos have no position or no date, or were taken inside privacy zones.",
        nothingThisDay: "Nothing on the map this day.",
        photoCount: { $0 == 1 ? "1 photo" : "\($0) photos" },
        videoCount: { $0 == 1 ? "1 video" : "\($0) videos" },
        unplacedCount: { $0 == 1 ? "1 photo without a position" : "\($0) photos without a position" },
        mediaOf: { "\($0 == .video ? "video" : "photo") \($1) of \($2)" },
        more: { "\($0) more, on the day's journal page" },
        groupVisits: ("1 visit", "{n} visits"), groupVideos: ("1 video", "{n} videos"), groupAnd: " and ",
        groupMore: "and {n} more", groupOpen: "Show them one by one")

    static let korean = TripMapWords(
        language: "ko", pageTitle: "여행 지도", allTrips: "모든 여행", skipToTimeline: "일정으로 건너뛰기",
        figuresHeading: "숫자로 보는 여행", days: { _ in "일" }, visits: { _ in "방문" }, places: { _ in "장소" },
        ground: "지상 이동", flown: "비행", countries: { _ in "국가" }, overview: "세계 지도에서 보기",
        mapLabel: "여행 지도", dayFilter: "날짜 선택", allDays: "모든 날짜", timeline: "일정",
        unnamedPlace: "이름 없는 장소", notes: "메모", video: "동영상", openOriginal: "원본 열기", close: "닫기",
        offlineMap: "오프라인 지도", onlineTiles: "온라인 지도 타일", credits: "출처",
        creditPlaceNames: "장소와 도시 이름: GeoNames (CC BY 4.0)",
        creditOpenStreetMap: "OpenStreetMap 장소 이름: © OpenStreetMap 기여자 (ODbL 1.0)",
        creditShores: "해안선, 호수, 국경: GSHHG, Wessel and Smith (LGPL 3.0)",
        creditCountries: "개요 지도의 국가: Natural Earth (퍼블릭 도메인)",
        creditLeaflet: "지도 라이브러리: Leaflet (BSD 2-Clause), Leaflet.markercluster (MIT)", madeWith: "geotrip이 여행 사진으로 만들었습니다.",
        nothingOnMap: "지도에 표시된 장소가 없습니다. 사진에 위치 정보나 날짜가 없거나 개인 정보 보호 구역 안에서 찍은 사진입니다.",
        nothingThisDay: "이날은 지도에 표시된 곳이 없습니다.",
        photoCount: { "사진 \($0)장" },
        videoCount: { "동영상 \($0)개" },
        unplacedCount: { "위치 없는 사진 \($0)장" },
        mediaOf: { "\($0 == .video ? "동영상" : "사진") \($1)/\($2)" },
        more: { "\($0)개 더, 그날의 일지에" },
        groupVisits: ("방문 1곳", "방문 {n}곳"), groupVideos: ("동영상 1개", "동영상 {n}개"), groupAnd: ", ",
        groupMore: "외 {n}곳", groupOpen: "하나씩 보기")

    /// "3 photos, 1 video": a visit's photos and videos (`count` holds both).
    func mediaCount(_ count: Int, videos: Int) -> String {
        guard videos > 0 else { return photoCount(count) }
        return count > videos ? photoCount(count - videos) + ", " + videoCount(videos) : videoCount(videos)
    }
}
