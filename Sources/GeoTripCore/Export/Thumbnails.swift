/// What a `ThumbnailProvider` gave.
public struct Thumbnails: Sendable, Equatable {
    /// Each photo's thumbnail, relative to the output folder, by photo id.
    public var paths: [Int64: String]
    /// How many were made in this run (the summary's `thumbnails`).
    public var made: Int
    /// Photos whose thumbnail could not be made (or only from their readable part).
    public var problems: [PhotoDiagnostic] = []

    /// Creates the answer.
    public init(paths: [Int64: String] = [:], made: Int = 0) {
        self.paths = paths
        self.made = made
    }
}
