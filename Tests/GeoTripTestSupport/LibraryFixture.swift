import Foundation

/// A small photo library of three trips and the days at home between them, written by
/// exiftool from one sample photo: the schedule below is the ground truth the library tests
/// check geotrip's trips against.
public struct LibraryFixture: Sendable {
    /// One planned day of photos.
    public struct Day: Sendable {
        /// `YYYY-MM-DD`, local.
        public var date: String
        /// The trip it belongs to (1, 2, 3), nil at home.
        public var trip: Int?
        /// Where the photos are: each a latitude, longitude.
        public var spots: [(Double, Double)]
        /// The local clock's offset, `+01:00`.
        public var offset: String
        /// The subfolder its photos are in.
        public var folder: String

        /// Plans a day.
        public init(date: String, trip: Int?, spots: [(Double, Double)], offset: String, folder: String) {
            self.date = date
            self.trip = trip
            self.spots = spots
            self.offset = offset
            self.folder = folder
        }
    }

    /// Amsterdam, the house; a café 2 km away.
    public static let house = (52.3702, 4.8952)
    public static let cafe = (52.3600, 4.8850)

    /// Ninety-six days from 2024-01-01: home days, Lisbon (3 days), Kyoto (2), Lisbon again (3).
    public static let schedule: [Day] = {
        var days: [Day] = []
        func home(_ date: String) {
            days.append(Day(date: date, trip: nil, spots: [cafe, house], offset: "+01:00", folder: "home"))
        }
        for date in ["2024-01-01", "2024-01-06", "2024-01-11", "2024-01-21", "2024-01-31", "2024-02-15", "2024-03-01",
                     "2024-03-21", "2024-04-05"] { home(date) }
        for (index, date) in ["2024-01-15", "2024-01-16", "2024-01-17"].enumerated() {
            days.append(Day(date: date, trip: 1, spots: [(38.6916, -9.2160), (38.7139 + Double(index) * 0.01, -9.1334)],
                            offset: "+00:00", folder: "2024-01 Lisboa"))
        }
        for date in ["2024-02-20", "2024-02-21"] {
            days.append(Day(date: date, trip: 2, spots: [(35.0394, 135.7292), (34.9671, 135.7727)], offset: "+09:00", folder: "2024-02 Kyoto"))
        }
        for date in ["2024-03-11", "2024-03-12", "2024-03-13"] {
            days.append(Day(date: date, trip: 3, spots: [(38.7071, -9.1355), (38.7223, -9.1393)], offset: "+00:00", folder: "2024-03 Lisboa"))
        }
        return days.sorted { $0.date < $1.date }
    }()

    /// The planned trips as (first day, last day).
    public static var trips: [(String, String)] {
        (1...3).map { number in
            let dates = schedule.filter { $0.trip == number }.map(\.date)
            return (dates.first!, dates.last!)
        }
    }

    /// Writes the library into `folder`: for each day and spot a photo at 10:00, 16:00 and so
    /// on six hours apart (or `minutesApart` from 10:00), local time, with its offset and GPS
    /// position. Returns the paths written, relative to `folder`.
    @discardableResult
    public static func write(into folder: URL, days: [Day] = schedule, minutesApart: Int = 360) throws -> [String] {
        let template = TestPaths.sampleImages.appendingPathComponent("IMG_0032.JPG")
        var arguments: [String] = []
        var written: [String] = []
        for day in days {
            let subfolder = folder.appendingPathComponent(day.folder)
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
            for (index, spot) in day.spots.enumerated() {
                let relative = "\(day.folder)/\(day.date)-\(index).jpg"
                try FileManager.default.copyItem(at: template, to: folder.appendingPathComponent(relative))
                let minutes = 600 + index * minutesApart
                let time = day.date.replacingOccurrences(of: "-", with: ":") + String(format: " %02d:%02d:00", minutes / 60, minutes % 60)
                arguments += ["-all=", "-DateTimeOriginal=\(time)", "-OffsetTimeOriginal=\(day.offset)",
                              "-GPSLatitude=\(abs(spot.0))", "-GPSLatitudeRef=\(spot.0 >= 0 ? "N" : "S")",
                              "-GPSLongitude=\(abs(spot.1))", "-GPSLongitudeRef=\(spot.1 >= 0 ? "E" : "W")",
                              "-overwrite_original", folder.appendingPathComponent(relative).path, "-execute"]
                written.append(relative)
            }
        }
        let argumentFile = folder.appendingPathComponent(".exiftool-args")
        try arguments.joined(separator: "\n").write(to: argumentFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: argumentFile) }
        let run = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-q", "-@", argumentFile.path])
        guard run.status == 0 else { throw FixtureError(message: "exiftool failed: \(run.stderr)") }
        return written
    }

    /// Whether exiftool is here to write the library.
    public static var canWrite: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
