/// A count of photos and of videos, told apart: what the page of trips and `trips` give a
/// trip (`Catalog.mediaCount(of:leavingOut:)`).
public struct MediaCount: Sendable, Equatable {
    public var photos: Int
    public var videos: Int

    public init(photos: Int, videos: Int) {
        self.photos = photos
        self.videos = videos
    }
}

extension MediaCount {
    /// `3 photos, 1 video`, as an English journal writes it: for the terminal.
    public var text: String { JournalWords(language: "en").mediaCount(photos: photos, videos: videos) }
}
