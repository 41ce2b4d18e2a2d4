import Foundation
import GeoTripTestSupport
import Testing
@testable import GeoTripCore

@Suite("Folder scan")
struct FolderScannerTests {
    /// Makes an empty file at `relative` (its folders too) and returns the path the listing should show.
    @discardableResult
    func touch(_ relative: String, in temp: TemporaryFolder, bytes: Int = 0) throws -> String {
        let url = temp.url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 7, count: bytes).write(to: url)
        return relative
    }

    @Test("the listing is every path in String order, however the walk splits the tree among the cores")
    func pathOrder() throws {
        // Given names that sort differently one by one than as paths (a space and a dash sort
        // before `/`), a folder big enough to be examined on several cores, more subfolders than
        // the walk shares out, an NFD name and a name that is not UTF-8
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        var expected: [String] = []
        for name in ["a", "a b.jpg", "a-b.jpg", "a.jpg", "a/x.jpg", "a/x/y.jpg", "a b/z.jpg", "a-/w.jpg", "B.jpg", "b.jpg",
                     "cafe\u{301}/1.jpg", "z/caf\u{E9}.jpg"] {
            if name == "a" { continue }  // a folder, made by its files
            expected.append(try touch(name, in: temp))
        }
        for index in 0..<9_000 { expected.append(try touch(String(format: "roll/IMG_%05d.JPG", (index * 7_919) % 9_000), in: temp)) }
        for folder in 0..<40 {
            for index in 0..<3 { expected.append(try touch("\(2000 + (folder * 13) % 40)/day \(folder % 7)-\(folder)/\(index).jpg", in: temp)) }
        }
        let raw = Array(temp.path.utf8) + Array("/z/caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        try #require(descriptor >= 0)
        close(descriptor)
        expected.append("z/caf%E9.jpg")
        try touch("sized.jpg", in: temp, bytes: 1_234)
        expected.append("sized.jpg")

        // When the folder is scanned
        let listing = try FolderScanner(root: temp.path).scan()

        // Then every file is there once, in the order of sorting the paths as Strings
        #expect(listing.files.map(\.relativePath) == expected.sorted())
        #expect(listing.files.first { $0.relativePath == "sized.jpg" }?.size == 1_234)
        #expect(listing.files.first { $0.relativePath == "z/caf%E9.jpg" }?.rawPath != nil)
        #expect(listing.problems.isEmpty)
    }

    @Test("a sidecar, a dot file and geotrip's output folder are not photos, wherever the walk reads them")
    func skipped() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        for folder in 0..<20 { try touch("d\(folder)/IMG.JPG", in: temp) }
        try touch("d3/IMG.JPG.xmp", in: temp)
        try touch("d4/.hidden.jpg", in: temp)
        try touch("geotrip/thumbs/1.jpg", in: temp)
        try touch("d5/geotrip/kept.jpg", in: temp)

        let listing = try FolderScanner(root: temp.path).scan()

        #expect(listing.files.count == 21)
        #expect(listing.files.contains { $0.relativePath == "d5/geotrip/kept.jpg" })
        #expect(listing.sidecars == ["d3/IMG.JPG.xmp"])
        #expect(listing.files.first { $0.relativePath == "d3/IMG.JPG" }?.sidecars.map(\.relativePath) == ["d3/IMG.JPG.xmp"])
    }

    @Test("one file by several names (hard links, a symbolic link to it) is listed once, by its own name first, the others said")
    func oneFileOnce() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // Spread over folders the walk reads apart, so each name is found on its own.
        for folder in 0..<20 { try touch("d\(folder)/IMG.JPG", in: temp, bytes: folder + 1) }
        let photo = temp.url.appendingPathComponent("d7/IMG.JPG")
        try FileManager.default.linkItem(at: photo, to: temp.url.appendingPathComponent("d2/hard.JPG"))
        try FileManager.default.linkItem(at: photo, to: temp.url.appendingPathComponent("d9/hard.JPG"))
        try FileManager.default.createSymbolicLink(atPath: temp.url.appendingPathComponent("a-link.JPG").path, withDestinationPath: "d7/IMG.JPG")
        // A link to a file outside the folder is that file's only name here: read.
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try Data([1, 2, 3]).write(to: outside.url.appendingPathComponent("elsewhere.JPG"))
        try FileManager.default.createSymbolicLink(atPath: temp.url.appendingPathComponent("d4/far.JPG").path,
                                                   withDestinationPath: outside.url.appendingPathComponent("elsewhere.JPG").path)

        let listing = try FolderScanner(root: temp.path).scan()

        let paths = Set(listing.files.map(\.relativePath))
        #expect(paths.contains("d2/hard.JPG") && !paths.contains("d7/IMG.JPG") && !paths.contains("d9/hard.JPG") && !paths.contains("a-link.JPG"))
        #expect(paths.contains("d4/far.JPG") && listing.files.count == 21)
        #expect(listing.problems.sorted() == ["a-link.JPG", "d7/IMG.JPG", "d9/hard.JPG"].map {
            "\($0): not read: it is the same file as d2/hard.JPG (a hard link, or a symbolic link to it), which is read once"
        })

        // In a folder big enough to be examined in parts on several cores; the name with a
        // sidecar (Lightroom's b.xmp) is the one read; a file that is no photo is not said.
        for index in 0..<8_200 { try touch("big/n\(index).txt", in: temp) }
        try touch("big/a.JPG", in: temp, bytes: 9)
        try FileManager.default.linkItem(at: temp.url.appendingPathComponent("big/a.JPG"), to: temp.url.appendingPathComponent("big/b.JPG"))
        try touch("big/b.xmp", in: temp)
        try FileManager.default.linkItem(at: temp.url.appendingPathComponent("big/n7.txt"), to: temp.url.appendingPathComponent("big/n7-copy.txt"))
        let big = try FolderScanner(root: temp.path).scan()
        #expect(big.files.contains { $0.relativePath == "big/b.JPG" } && !big.files.contains { $0.relativePath == "big/a.JPG" })
        #expect(big.problems.contains("big/a.JPG: not read: it is the same file as big/b.JPG (a hard link, or a symbolic link to it), which is read once"),
                "\(big.problems)")
        #expect(!big.problems.contains { $0.hasPrefix("big/n7") }, "\(big.problems)")
    }
}
