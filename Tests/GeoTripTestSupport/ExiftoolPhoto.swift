import Foundation

/// Photos for a test, their metadata written by exiftool (the independent writer): a copy of
/// the sample trip's IMG_0032.JPG with all of its own taken out.
public enum ExiftoolPhoto {
    /// Writes the photo at `url`, taken at `dateTime` (`YYYY:MM:DD HH:MM:SS`) on a clock `offset`
    /// from UTC (`+01:00`), at `position` (signed degrees) or without GPS (nil). Returns whether
    /// exiftool succeeded.
    public static func write(to url: URL, dateTime: String, offset: String, at position: (latitude: Double, longitude: Double)?) throws -> Bool {
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0032.JPG"), to: url)
        let gps = position.map { position in
            ["-GPSLatitude=\(abs(position.latitude))", "-GPSLatitudeRef=\(position.latitude < 0 ? "S" : "N")",
             "-GPSLongitude=\(abs(position.longitude))", "-GPSLongitudeRef=\(position.longitude < 0 ? "W" : "E")"]
        } ?? []
        let written = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"),
                                         ["-q", "-overwrite_original", "-all=", "-DateTimeOriginal=\(dateTime)", "-OffsetTimeOriginal=\(offset)"]
                                             + gps + [url.path])
        return written.status == 0
    }

    /// Writes the photo at `url` with exiftool's `arguments` (`-DateTimeOriginal#=…` writes a
    /// value as given, unchecked). Returns whether exiftool succeeded.
    public static func write(to url: URL, _ arguments: [String]) throws -> Bool {
        try FileManager.default.copyItem(at: TestPaths.sampleImages.appendingPathComponent("IMG_0032.JPG"), to: url)
        let written = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-q", "-overwrite_original", "-all="] + arguments + [url.path])
        return written.status == 0
    }
}
