// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "geotrip",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "geotrip", targets: ["geotrip"]),
        .library(name: "GeoTripCore", targets: ["GeoTripCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // The C libraries, nothing else: each module map names one system library.
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CMarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // glibc's malloc.h (malloc_trim): no library beyond the C library.
        .systemLibrary(name: "CMalloc"),
        // Linux's renameat2 (exchange, no-replace) for journal pages: no library beyond the C library.
        .systemLibrary(name: "CRename"),
        // The pipeline. Never imports ArgumentParser.
        .target(
            name: "GeoTripCore",
            dependencies: [
                "CExif",
                "CHeif",
                "CXML2",
                "CTurboJPEG",
                "CMarkGFM",
                "CMalloc",
                "CRename",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // Found by ResourceLocator (Gazetteer.resourceURL(), BaseMap.resourceURL()), never through Bundle.module (which traps on Linux
            // when the folder is missing).
            exclude: ["Resources/gazetteer.bin.sha256", "Resources/basemap.bin.sha256", "Resources/zones.bin.sha256"],
            resources: [.copy("Resources/gazetteer.bin"), .copy("Resources/basemap.bin"), .copy("Resources/zones.bin")]
        ),
        // The gazetteer measurements of `make bench` (not installed).
        .executableTarget(
            name: "gazetteer-bench",
            dependencies: ["GeoTripCore"]
        ),
        // The clustering measurements of `make bench` (not installed).
        .executableTarget(
            name: "cluster-bench",
            dependencies: ["GeoTripCore"]
        ),
        // Argument parsing only; turns errors into exit codes.
        .executableTarget(
            name: "geotrip",
            dependencies: [
                "GeoTripCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Paths to the sample trip and fixtures, and exiftool's record of them, for both test targets.
        .target(
            name: "GeoTripTestSupport",
            path: "Tests/GeoTripTestSupport"
        ),
        .testTarget(
            name: "GeoTripCoreTests",
            dependencies: [
                "GeoTripCore", "GeoTripTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
            ],
            // Fixtures are found through #filePath, so they are not bundled.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "geotripTests",
            dependencies: [
                "GeoTripCore", "GeoTripTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The fake Nominatim is run by python3, found through #filePath.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
