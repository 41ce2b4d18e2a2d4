/// What a `ThumbnailProvider` gave.
public struct Thumbnails: Sendable, Equatable {
    /// Each photo's thumbnail, relative to the output folder, by photo id.
    public var paths: [Int64: String]
    /// How many were made in this run (the summary's `thumbnails`).
    public var made: Int
    /// Photos whose thumbnail could not be made (or only from their readable part).
    public var problems: [PhotoDiagnostic] = []
    /// Of the photos whose thumbnails were kept as they are (`keepingAlso`), those the folder
    /// has none of: deleted by hand, or never made (a video, a photo that could not be decoded).
    public var missingAmongKept: Set<Int64> = []

    /// Creates the answer.
    public init(paths: [Int64: String] = [:], made: Int = 0) {
        self.paths = paths
        self.made = made
    }
}
