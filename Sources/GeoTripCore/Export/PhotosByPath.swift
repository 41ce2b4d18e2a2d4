/// A trip's photos by path, the paths compared byte for byte (`PathKey`): `Café.jpg` written
/// composed and `Café.jpg` written as macOS writes it (an `e` and a combining accent) are two
/// files, which Swift's `String ==` takes for one, and each has its own thumbnail and line.
/// The first of two photos with one path (there are none in a catalog) is kept.
struct PhotosByPath: Sendable, ExpressibleByDictionaryLiteral {
    private var photos: [PathKey: TripPhoto] = [:]

    init(_ photos: some Sequence<TripPhoto>) {
        for photo in photos where self.photos[PathKey(photo.path)] == nil { self.photos[PathKey(photo.path)] = photo }
    }

    init(dictionaryLiteral elements: (String, TripPhoto)...) {
        self.init(elements.map(\.1))
    }

    subscript(path: String) -> TripPhoto? {
        get { photos[PathKey(path)] }
        set { photos[PathKey(path)] = newValue }
    }
}
