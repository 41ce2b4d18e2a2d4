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
    /// `1,992 photos, 1 video`: for the terminal, in English, thousands grouped; the photos
    /// alone when there is no video, the videos alone when there is no photo.
    public var text: String {
        let clips = videos == 1 ? "1 video" : "\(videos.grouped) videos"
        guard photos > 0 || videos == 0 else { return clips }
        let stills = photos == 1 ? "1 photo" : "\(photos.grouped) photos"
        return videos > 0 ? stills + ", " + clips : stills
    }
}
