import Foundation

/// What resolution knows of one photo: what it recorded, as it was read.
public struct PhotoEvidence: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    /// Relative to the trip folder, for diagnostics.
    public var path: String
    /// The camera's wall clock, `YYYY-MM-DDTHH:MM:SS[.fff]`.
    public var localTime: String?
    /// The offset tag, `±HH:MM`.
    public var utcOffset: String?
    /// GPS date and time, `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    public var gpsTime: String?
    public var make: String?
    public var model: String?
    /// The photo's own position: its GPS tags (a video's QuickTime position), else its embedded
    /// XMP, else another program's sidecar.
    public var exifCoordinate: Coordinate?
    /// Which of those `exifCoordinate` came from.
    public var positionSource: LocationSource
    /// The container (`video` for videos, whose `mvhd` time may be UTC).
    public var format: ImageFormat?
    /// The field `localTime` came from.
    public var timeField: CaptureTimeField?
    /// For a Live Photo's video, its still's id.
    public var liveStillID: Int64?

    /// Creates evidence.
    public init(id: Int64, path: String, localTime: String?, utcOffset: String?, gpsTime: String?, make: String?, model: String?,
                exifCoordinate: Coordinate?, positionSource: LocationSource = .exif) {
        self.positionSource = positionSource
        self.id = id
        self.path = path
        self.localTime = localTime
        self.utcOffset = utcOffset
        self.gpsTime = gpsTime
        self.make = make
        self.model = model
        self.exifCoordinate = exifCoordinate
    }
}

/// A photo as resolution decided it, and as the later stages (sidecars, clustering) take it:
/// its identity, instant and zone, camera clock, position, and which rules decided them.
public struct ResolvedPhoto: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    /// The resolved instant, when one could be decided.
    public var utc: Date?
    /// The resolved zone (IANA name or `±HH:MM`).
    public var zone: String?
    /// The camera's wall clock, `YYYY-MM-DDTHH:MM:SS[.fff]`, as corrected (`wallTime`, else as
    /// the camera wrote it): the day of a photo whose instant and zone do not give it.
    public var cameraTime: String?
    /// The resolved position and how far off it may be.
    public var coordinate: Coordinate?
    public var uncertaintyMeters: Double
    /// Relative to the trip folder.
    public var path: String
    /// The rules that decided the time and the position.
    public var timeSource: TimeSource
    public var locationSource: LocationSource?
    /// For a Live Photo's video, its still's id: it is one moment with the still, clustered with
    /// it and not counted apart.
    public var liveStillID: Int64?
    /// The camera's clock as a `--clock-offset` corrected it, for a photo whose day that clock
    /// gives (no instant or no zone) when the correction moved it; nil otherwise.
    public var wallTime: String?

    /// Creates a photo value.
    public init(id: Int64, utc: Date?, zone: String?, cameraTime: String?, coordinate: Coordinate?, uncertaintyMeters: Double,
                path: String = "", timeSource: TimeSource = .none, locationSource: LocationSource? = nil, liveStillID: Int64? = nil,
                wallTime: String? = nil) {
        self.id = id
        self.utc = utc
        self.zone = zone
        self.cameraTime = cameraTime
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
        self.path = path
        self.timeSource = timeSource
        self.locationSource = locationSource
        self.liveStillID = liveStillID
        self.wallTime = wallTime
    }
}

/// What clustering makes of a trip: places and visits with stable ids and revisions, and the
/// trip's days. Names are not part of it; the naming stage adds them apart.
public struct TripLayout: Sendable, Equatable {
    /// A place: where one or more visits happened.
    public struct Place: Sendable, Equatable {
        public var id: String
        /// Grows whenever the members or the centre change, and never goes back (an id that
        /// disappears and returns continues from its last revision).
        public var revision: Int
        public var centre: Coordinate
        /// The first visit's arrival.
        public var start: Date
    }

    /// A visit: photos close in time and space.
    public struct Visit: Sendable, Equatable {
        public var id: String
        public var placeID: String
        public var revision: Int
        public var cluster: VisitCluster
        /// The traveller's day of its first photo (`LocalDayRule`).
        public var localDate: String
        /// The zone of its first photo with one: the clock the traveller saw on arrival.
        public var timeZone: String?
    }

    /// In order of their first visit.
    public var places: [Place] = []
    /// In time order.
    public var visits: [Visit] = []
    /// The traveller's day of every dated photo, placed or not (Live Photos' videos aside).
    public var photoDays: [Int64: String] = [:]

    /// Every day with a dated photo, in order.
    public var days: [String] { Set(photoDays.values).sorted() }
}

/// What a clustering run changes in the catalog's layout: the visits and places it made or
/// made again, the kept visits that moved to another place, and the ids it retired. A full
/// recompute (`isFull`) lists every visit and place; an incremental one only what changed.
public struct LayoutChange: Sendable, Equatable {
    /// Whether every visit and place is listed (the catalog's others are all retired).
    public var isFull: Bool
    /// Places made or made again, in order of their first visit.
    public var places: [TripLayout.Place] = []
    /// Visits made or made again, in time order.
    public var visits: [TripLayout.Visit] = []
    /// Untouched visits whose place is now another: visit id -> place id.
    public var movedVisits: [String: String] = [:]
    /// Ids no longer given.
    public var retiredVisits: Set<String> = []
    public var retiredPlaces: Set<String> = []
    /// The day of each photo whose day may have changed (every dated photo, when full); nil:
    /// it counts for no day (undated, gone, or a Live Photo's video).
    public var photoDays: [Int64: String?] = [:]

    /// Creates an empty change.
    public init(isFull: Bool) { self.isFull = isFull }

    /// The change that makes the catalog's layout `layout`, whatever it was.
    public init(replacingWith layout: TripLayout) {
        isFull = true
        places = layout.places
        visits = layout.visits
        photoDays = layout.photoDays.mapValues { Optional($0) }
    }
}

/// Visits and places as the catalog holds them before a clustering run, and the last revision
/// of every id ever given (retired ones included).
public struct KnownLayout: Sendable, Equatable {
    public var visits: [KnownCluster] = []
    /// Places, whose `members` the clustering stage gathers from their visits (any given are
    /// not used).
    public var places: [KnownCluster] = []
    public var lastRevisions: [String: Int] = [:]

    /// Creates a known layout.
    public init(visits: [KnownCluster] = [], places: [KnownCluster] = [], lastRevisions: [String: Int] = [:]) {
        self.visits = visits
        self.places = places
        self.lastRevisions = lastRevisions
    }
}
