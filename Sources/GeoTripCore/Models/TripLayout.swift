import Foundation

/// A photo as the clustering stage sees it: its identity, resolved instant and zone, camera
/// clock, and resolved position.
public struct ResolvedPhoto: Sendable, Equatable {
    /// The photo's catalog identity.
    public var id: Int64
    /// The resolved instant, when one could be decided.
    public var utc: Date?
    /// The resolved zone (IANA name or `±HH:MM`).
    public var zone: String?
    /// The camera's wall clock, `YYYY-MM-DDTHH:MM:SS[.fff]`, for photos without an instant.
    public var cameraTime: String?
    /// The resolved position and how far off it may be.
    public var coordinate: Coordinate?
    public var uncertaintyMeters: Double

    /// Creates a photo value.
    public init(id: Int64, utc: Date?, zone: String?, cameraTime: String?, coordinate: Coordinate?, uncertaintyMeters: Double) {
        self.id = id
        self.utc = utc
        self.zone = zone
        self.cameraTime = cameraTime
        self.coordinate = coordinate
        self.uncertaintyMeters = uncertaintyMeters
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
    /// Every day with a dated photo, placed or not, in order.
    public var days: [String] = []
}

/// Visits and places as the catalog holds them before a clustering run, and the last revision
/// of every id ever given (retired ones included).
public struct KnownLayout: Sendable, Equatable {
    public var visits: [KnownCluster] = []
    public var places: [KnownCluster] = []
    public var lastRevisions: [String: Int] = [:]

    /// Creates a known layout.
    public init(visits: [KnownCluster] = [], places: [KnownCluster] = [], lastRevisions: [String: Int] = [:]) {
        self.visits = visits
        self.places = places
        self.lastRevisions = lastRevisions
    }
}
