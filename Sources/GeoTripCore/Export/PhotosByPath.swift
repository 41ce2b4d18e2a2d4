/// A trip's photos by path, the paths compared byte for byte (`PathKey`): `Café.jpg` written
/// composed and `Café.jpg` written as macOS writes it (an `e` and a combining accent) are two
/// files, which Swift's `String ==` takes for one, and each has its own thumbnail and line.
/// The first of two photos with one path (there are none in a catalog) is kept.
struct PhotosByPath: Sendable {
    private var photos: [PathKey: TripPhoto] = [:]

    /// `photos`, each by its own path (none by default).
    init(_ photos: some Sequence<TripPhoto> = [TripPhoto]()) {
        for photo in photos where self.photos[PathKey(photo.path)] == nil { self.photos[PathKey(photo.path)] = photo }
    }

    subscript(path: String) -> TripPhoto? {
        get { photos[PathKey(path)] }
        set { photos[PathKey(path)] = newValue }
    }
}
