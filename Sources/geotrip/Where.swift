import ArgumentParser
import Foundation
import GeoTripCore

struct Where: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Name the place at a coordinate, offline: place, region, country and time zone.",
        discussion: """
            With no coordinate, reads one LAT,LON per line from standard input and writes one JSON \
            object per line (JSON Lines); a line that cannot be read gives an object with "error" \
            and the batch goes on. Negative latitudes work as they are: geotrip where -33.86,151.21

            Place names: GeoNames (geonames.org), CC BY 4.0.
            """)

    @Argument(parsing: .allUnrecognized, help: "LAT,LON in decimal degrees, such as 35.0116,135.7681.")
    var coordinate: [String] = []

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Name the nearest populated place, however small, instead of the one people would name.")
    var nearest = false

    func run() async throws {
        let gazetteer = try Diagnostics.loadGazetteer()
        let rule: NamingRule = nearest ? .nearest : .preferTowns
        guard !coordinate.filter({ $0 != "--" }).isEmpty else {
            try Self.batch(gazetteer, rule: rule)
            return
        }
        let point: Coordinate
        do {
            point = try Coordinate(parsing: coordinate.filter { $0 != "--" }.joined(separator: " "))
        } catch {
            throw ValidationError(error.message)
        }
        let answer = gazetteer.describe(point, rule: rule)
        if json {
            try Diagnostics.printJSON(answer)
        } else {
            print(Self.sentence(answer))
        }
    }

    /// JSON Lines from standard input to standard output, buffered. Lines are read in bounded
    /// memory: one longer than `BoundedLineReader`'s 1 KB (no coordinate is) is an error line
    /// quoting its first bytes, never echoed whole.
    ///
    /// Each record is the object `JSONEncoder` (sorted keys, slashes unescaped) writes for the
    /// answer or the error, byte for byte, but written by `JSONLineWriter` (the encoder took
    /// most of the time), and the common `LAT,LON` line is read from its bytes; anything else
    /// goes through `Coordinate(parsing:)`, which words the errors.
    static func batch(_ gazetteer: Gazetteer, rule: NamingRule) throws {
        var output = JSONLineWriter()
        var lineNumber = 0, failures = 0
        var lines = BoundedLineReader(descriptor: STDIN_FILENO)
        // The loop reads `lines` and `output` directly: captured by a nested function, both
        // were boxed, and every access paid a run-time exclusivity check.
        while true {
            let next: BoundedLineReader.RawLine?
            do {
                next = try lines.nextBytes()
            } catch {
                FileHandle.standardOutput.write(Data(output.bytes))
                let what = error.code == EISDIR ? "it is a folder" : error.description.lowercased()
                StandardError.write("geotrip: standard input cannot be read (\(what)). Give a coordinate, or pipe in one LAT,LON per line: geotrip where < points.txt\n")
                throw ExitCode.failure
            }
            guard let line = next else { break }
            lineNumber += 1
            switch line {
            case .bytes(let bytes):
                if let point = bytes.withUnsafeBufferPointer(Coordinate.init(plainDecimalUTF8:)) {
                    gazetteer.describe(point, rule: rule).writeJSONLine(to: &output)
                } else {
                    let text = String(decoding: bytes, as: UTF8.self)
                    do {
                        gazetteer.describe(try Coordinate(parsing: text), rule: rule).writeJSONLine(to: &output)
                    } catch {
                        failures += 1
                        LineError(line: lineNumber, input: text, error: error.message).writeJSONLine(to: &output)
                    }
                }
            case .tooLong(let prefix, let length):
                failures += 1
                LineError(
                    line: lineNumber, input: String(decoding: prefix, as: UTF8.self) + "…",
                    error: "the line is \(length) bytes long, more than a coordinate can be (at most \(lines.maximumLength)); only its start is shown"
                ).writeJSONLine(to: &output)
            }
            if output.bytes.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(output.bytes))
                output.removeAll()
            }
        }
        FileHandle.standardOutput.write(Data(output.bytes))
        if failures > 0 {
            StandardError.write("geotrip: \(failures) of \(lineNumber) lines were not coordinates; their lines say why.\n")
        }
    }

    /// The JSON line for an input line that is not a coordinate.
    struct LineError {
        var line: Int
        var input: String
        var error: String

        /// What `JSONEncoder` with `.sortedKeys` writes for it, as a JSON Lines record.
        func writeJSONLine(to writer: inout JSONLineWriter) {
            writer.beginObject()
            writer.field("error", error)
            writer.field("input", input)
            writer.field("line", line)
            writer.endObjectLine()
        }
    }

    /// "Kyoto, Kyoto, Japan (JP), 1.2 km away; population 1,459,640; Asia/Tokyo"
    static func sentence(_ answer: PlaceAnswer) -> String {
        let distance = answer.distanceMeters < 1000
            ? "\(Int(answer.distanceMeters.rounded())) m" : String(format: "%.1f km", answer.distanceMeters / 1000)
        let zone = answer.timeZone.map { "; \($0)" } ?? ""
        let region = [answer.admin1, answer.country.map { "\($0) (\(answer.countryCode ?? "?"))" }].compactMap { $0 }
        switch answer.kind {
        case .place:
            let place = answer.place!
            let population = place.population > 0 ? "; population \(place.population.grouped)" : ""
            return ([place.name] + region).joined(separator: ", ") + ", \(distance) away\(population)\(zone)"
        case .region:
            return region.joined(separator: ", ") + " (no town within \(Int(Gazetteer.placeReach / 1000)) km; nearest: \(answer.nearest.name), \(distance))\(zone)"
        case .openSea:
            return "Open sea (nearest place: \(answer.nearest.name), \(answer.nearest.countryCode ?? "?"), \(distance) away)\(zone)"
        }
    }
}

struct Find: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find places by name, offline (for tagging photos without GPS).",
        discussion: """
            Case and accents do not matter, and alternate names count: "lisbon" finds Lisboa. \
            Narrow with a country code, country or region after a comma: "Kyoto, JP".

            Place names: GeoNames (geonames.org), CC BY 4.0.
            """)

    @Argument(help: "A place name, optionally followed by \", COUNTRY\" or \", REGION\".")
    var name: String

    @Flag(help: "Print a JSON array.")
    var json = false

    @Option(help: "How many places to list.")
    var limit = 10

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let gazetteer = try Diagnostics.loadGazetteer()
        let matches = gazetteer.search(name, limit: limit)
        if json {
            try Diagnostics.printJSON(matches)
        } else {
            for match in matches {
                let place = match.place
                let region = [place.admin1, place.country].compactMap { $0 }.joined(separator: ", ")
                let population = place.population > 0 ? "population \(place.population.grouped), " : ""
                print("\(place.name), \(region) (\(place.countryCode ?? "?")): \(population)"
                      + String(format: "%.5f,%.5f", place.coordinate.latitude, place.coordinate.longitude)
                      + (place.timeZone.map { ", \($0)" } ?? ""))
            }
        }
        if matches.isEmpty {
            StandardError.write("geotrip: no place is named \"\(name)\". Check the spelling, or try fewer words.\n")
            throw ExitCode.failure
        }
    }
}
