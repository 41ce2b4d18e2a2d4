/// What one run's naming stage did with the places, for the summary (`named` in `--json`).
public struct NamingCounts: Sendable, Equatable, Codable {
    /// Places named by a request to the online service in this run.
    public var online = 0
    /// Places named online from the shared cache, with no request sent.
    public var cached = 0
    /// Places named by the offline gazetteer in this run.
    public var offline = 0
    /// Places with the person's own name (`geotrip rename`), which no namer touches.
    public var manual = 0
    /// Online answers discarded because their place moved, went or was renamed while they were
    /// in flight.
    public var stale = 0
    /// Places the online service was asked about without a usable answer (they keep the name
    /// they had, and the next run asks again).
    public var failed = 0
    /// Places the service answered with no name (the open sea, or data that does not reach
    /// them): they keep showing their offline names, and are not asked again.
    public var nameless = 0
    /// HTTP requests sent, retries included.
    public var requests = 0

    /// Creates counts.
    public init() {}
}
