/// Everything the trip map page shows, in the page's own terms: the export stage maps the
/// `Trip`, the route and the thumbnails into it. Strings are shown as text, never as markup.
public struct TripMapInput: Sendable, Equatable {
    /// A photo or video shown with a visit.
    public struct Media: Sendable, Equatable {
        /// What the file is.
        public enum Kind: String, Sendable, Equatable {
            case photo, video
        }

        public var kind: Kind
        /// The original file, relative to the page's folder (`../IMG_0001.JPG`), as a plain path:
        /// the page URL-encodes it. Nil to leave the original out of a shared page.
        public var path: String?
        /// The thumbnail, relative to the page's folder (`thumbs/12-0a1b2c3d.jpg`); nil when
        /// there is none (videos, photos that could not be decoded).
        public var thumbnail: String?
        /// For videos, when known.
        public var durationSeconds: Double?
        /// Where a video was made, for its own marker on the map (nil for photos, and for
        /// videos whose place is kept private).
        public var coordinate: Coordinate?
        /// `path`'s bytes when they are not its text: a name that is not UTF-8, catalogued in
        /// its `%XX` spelling (`FolderScanner.rawBytes`), is linked by them.
        public var pathBytes: [UInt8]?

        /// Creates a media entry.
        public init(kind: Kind = .photo, path: String?, thumbnail: String?, durationSeconds: Double? = nil,
                    coordinate: Coordinate? = nil) {
            self.kind = kind
            self.path = path
            self.thumbnail = thumbnail
            self.durationSeconds = durationSeconds
            self.coordinate = coordinate
        }
    }

    /// A visit: a stay at a place, on the map as a marker and in the timeline as an entry.
    public struct Visit: Sendable, Equatable {
        public var id: String
        public var placeId: String
        /// The place's name as it is to be shown (nil: the page says "unnamed place").
        public var name: String?
        public var admin1: String?
        public var country: String?
        public var countryCode: String?
        public var latitude: Double
        public var longitude: Double
        /// The traveller's day (`YYYY-MM-DD`) the visit belongs to.
        public var localDate: String
        /// `YYYY-MM-DDTHH:MM:SS±HH:MM` on the place's clock, when known.
        public var localArrival: String?
        public var localDeparture: String?
        /// The zone as shown after the times (`WEST`, `KST`, `+09:00`).
        public var zone: String?
        /// The zone's name at departure when the clocks changed during the visit (`WEST` for
        /// one that began in `WET`); nil when it is `zone`.
        public var departureZone: String?
        public var photoCount: Int
        /// What the person wrote about the visit (the journal's notes block).
        public var notes: String?
        /// Photos and videos to show, in time order (a page shows the first few).
        public var media: [Media]

        /// Creates a visit.
        public init(id: String, placeId: String, name: String?, admin1: String? = nil, country: String? = nil,
                    countryCode: String? = nil, latitude: Double, longitude: Double, localDate: String,
                    localArrival: String? = nil, localDeparture: String? = nil, zone: String? = nil,
                    photoCount: Int, notes: String? = nil, media: [Media] = []) {
            self.id = id
            self.placeId = placeId
            self.name = name
            self.admin1 = admin1
            self.country = country
            self.countryCode = countryCode
            self.latitude = latitude
            self.longitude = longitude
            self.localDate = localDate
            self.localArrival = localArrival
            self.localDeparture = localDeparture
            self.zone = zone
            self.photoCount = photoCount
            self.notes = notes
            self.media = media
        }
    }

    /// A traveller's day.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`.
        public var date: String
        /// What the person wrote about the day.
        public var notes: String?
        /// Photos of the day without a position (counted in the timeline).
        public var unplacedPhotoCount: Int

        /// Creates a day.
        public init(date: String, notes: String? = nil, unplacedPhotoCount: Int = 0) {
            self.date = date
            self.notes = notes
            self.unplacedPhotoCount = unplacedPhotoCount
        }
    }

    /// How a leg of the route was travelled, as far as geotrip can tell: the route model's own.
    public typealias LegKind = TripRoute.Kind

    /// One leg of the route, from one visit to the next.
    public struct Leg: Sendable, Equatable {
        /// The traveller's day the leg is drawn with (its colour and filter).
        public var localDate: String
        public var kind: LegKind
        /// The way, in order; a flight needs only its two ends.
        public var coordinates: [Coordinate]

        /// Creates a leg.
        public init(localDate: String, kind: LegKind, coordinates: [Coordinate]) {
            self.localDate = localDate
            self.kind = kind
            self.coordinates = coordinates
        }
    }

    /// The trip in figures, shown at the top.
    public struct Figures: Sendable, Equatable {
        public var days: Int
        public var visits: Int
        public var places: Int
        public var groundKilometres: Double
        public var flownKilometres: Double
        /// ISO 3166-1 alpha-2 codes, highlighted on the overview.
        public var countries: [String]

        /// Creates figures.
        public init(days: Int, visits: Int, places: Int, groundKilometres: Double, flownKilometres: Double, countries: [String]) {
            self.days = days
            self.visits = visits
            self.places = places
            self.groundKilometres = groundKilometres
            self.flownKilometres = flownKilometres
            self.countries = countries
        }
    }

    /// An online tile layer the person chose (`--tiles`), offered on top of the offline map.
    public struct Tiles: Sendable, Equatable {
        /// `https://…/{z}/{x}/{y}.png`.
        public var urlTemplate: String
        /// Shown as text in the map's corner.
        public var attribution: String

        /// Creates a tile layer.
        public init(urlTemplate: String, attribution: String) {
            self.urlTemplate = urlTemplate
            self.attribution = attribution
        }
    }

    /// The page's title (nil: the trip's dates).
    public var title: String?
    /// BCP 47 code of the page's language (`en`, `ko`); words without a translation are English.
    public var language: String
    /// In time order.
    public var visits: [Visit]
    /// Every day of the trip, in order.
    public var days: [Day]
    /// The route in time order.
    public var legs: [Leg]
    /// Nil: computed from the visits and legs (`TripMapInput.computedFigures`).
    public var figures: Figures?
    /// An online tile layer to offer, if the person chose one.
    public var tiles: Tiles?
    /// Whether any name shown comes from OpenStreetMap (Nominatim), which must then be credited.
    public var namesFromOpenStreetMap: Bool
    /// For a trip of a library: the page of all trips, relative to this page (`../../index.html`).
    public var libraryIndex: String?

    /// Creates the input of one page.
    public init(title: String? = nil, language: String, visits: [Visit], days: [Day], legs: [Leg],
                figures: Figures? = nil, tiles: Tiles? = nil, namesFromOpenStreetMap: Bool = false, libraryIndex: String? = nil) {
        self.libraryIndex = libraryIndex
        self.title = title
        self.language = language
        self.visits = visits
        self.days = days
        self.legs = legs
        self.figures = figures
        self.tiles = tiles
        self.namesFromOpenStreetMap = namesFromOpenStreetMap
    }

    /// The figures as the visits and legs give them: ground distance along track and direct
    /// legs, flown distance along flights (great circles between consecutive points).
    public var computedFigures: Figures {
        func kilometres(_ legs: [Leg]) -> Double {
            legs.reduce(0) { sum, leg in
                sum + zip(leg.coordinates, leg.coordinates.dropFirst()).reduce(0) { $0 + GreatCircle.distance($1.0, $1.1) }
            } / 1000
        }
        // Days as the page of trips and `trips` count them.
        return Figures(days: LocalDate.calendarDays(from: days.first?.date, to: days.last?.date) ?? days.count, visits: visits.count, places: Set(visits.map(\.placeId)).count,
                       groundKilometres: kilometres(legs.filter { $0.kind != .flight }),
                       flownKilometres: kilometres(legs.filter { $0.kind == .flight }),
                       countries: Array(Set(visits.compactMap(\.countryCode))).sorted())
    }
}
