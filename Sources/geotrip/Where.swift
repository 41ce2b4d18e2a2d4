import ArgumentParser
import Foundation
import GeoTripCore

struct Where: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Name the place at a coordinate, offline: place, region, country and time zone (from the zone polygons).",
        discussion: """
            With no coordinate, reads one LAT,LON per line from standard input and writes one JSON \
            object per line (JSON Lines); a line that cannot be read gives an object with "error" \
            and the batch goes on. Negative latitudes work as they are: geotrip where -33.86,151.21

            Place names: GeoNames (geonames.org), CC BY 4.0. Time zones: timezone-boundary-builder, \
            from OpenStreetMap data, © OpenStreetMap contributors, ODbL 1.0.
            """)

    @Argument(parsing: .allUnrecognized, help: "LAT,LON in decimal degrees, such as 35.0116,135.7681; several name each in turn.")
    var coordinate: [String] = []

    @Flag(help: "Print one JSON object (an array of them for several coordinates).")
    var json = false

    @Flag(help: "Name the nearest populated place, however small, instead of the one people would name.")
    var nearest = false

    /// A bad coordinate is refused here, where the parser still knows the command (its usage
    /// line is `geotrip where`, not the top level's).
    func validate() throws { _ = try points() }

    /// The coordinates given: the words as one (`38.7, -9.1` is two words), or else each word
    /// one coordinate (`38.7,-9.1 40.4,-3.7`); the error is the one of the words as one.
    func points() throws -> [Coordinate] {
        let given = coordinate.filter { $0 != "--" }
        guard !given.isEmpty else { return [] }
        do {
            return [try Coordinate(parsing: given.joined(separator: " "))]
        } catch {
            if given.count > 1, let each = try? given.map({ try Coordinate(parsing: $0) }) { return each }
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let gazetteer = try Diagnostics.loadGazetteer()
        let rule: NamingRule = nearest ? .nearest : .preferTowns
        let points = try points()
        guard !points.isEmpty else {
            // On a terminal, nothing would seem to happen: say what it waits for.
            if isatty(STDIN_FILENO) == 1 {
                StandardError.write("geotrip where: reading one LAT,LON per line (Ctrl-D to end); give a coordinate to name one place.\n")
            }
            try await Self.batch(gazetteer, rule: rule)
            return
        }
        let answers = points.map { gazetteer.describe($0, rule: rule) }
        if json {
            // One object for one coordinate, as before; an array of them for several.
            if answers.count == 1 { try Diagnostics.printJSON(answers[0]) } else { try Diagnostics.printJSON(answers) }
        } else {
            answers.forEach { print(Self.sentence($0)) }
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
    ///
    /// Lines are read and parsed in order, a block at a time; the block's answers are looked
    /// up and written on every core (`describe` is most of the work), and the parts are written
    /// out in order, so the output is the same whatever the number of cores.
    static func batch(_ gazetteer: Gazetteer, rule: NamingRule) async throws {
        var lines = BoundedLineReader(descriptor: STDIN_FILENO)
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var block: [BatchLine] = []
        block.reserveCapacity(Self.blockLines)
        var lineNumber = 0, failures = 0
        var finished = false
        while !finished {
            block.removeAll(keepingCapacity: true)
            while block.count < Self.blockLines {
                // Answer what has been read before waiting on a slow pipe (a logger, `tail -f`).
                if !block.isEmpty && lines.needsRead && !Self.inputReady() { break }
                let next: BoundedLineReader.RawLine?
                do {
                    next = try lines.nextBytes()
                } catch {
                    FileHandle.standardOutput.write(Data(await Self.answer(block, gazetteer: gazetteer, rule: rule, workers: workers)))
                    let what = error.code == EISDIR ? "it is a folder" : error.description.lowercased()
                    StandardError.write("geotrip: standard input cannot be read (\(what))\(lineNumber > 0 ? " after \(lineNumber) lines, whose answers were written" : ""). Give a coordinate, or pipe in one LAT,LON per line: geotrip where < points.txt\n")
                    throw ExitCode.failure
                }
                guard let line = next else {
                    finished = true
                    break
                }
                lineNumber += 1
                switch line {
                case .bytes(let bytes):
                    if let point = bytes.withUnsafeBufferPointer(Coordinate.init(plainDecimalUTF8:)) {
                        block.append(.point(point))
                    } else {
                        let text = String(decoding: bytes, as: UTF8.self)
                        do {
                            block.append(.point(try Coordinate(parsing: text)))
                        } catch {
                            failures += 1
                            block.append(.error(LineError(line: lineNumber, input: text, error: error.message)))
                        }
                    }
                case .tooLong(let prefix, let length):
                    failures += 1
                    block.append(.error(LineError(
                        line: lineNumber, input: String(decoding: prefix, as: UTF8.self) + "…",
                        error: "the line is \(length) bytes long, more than a coordinate can be (at most \(lines.maximumLength)); only its start is shown")))
                }
            }
            FileHandle.standardOutput.write(Data(await Self.answer(block, gazetteer: gazetteer, rule: rule, workers: workers)))
        }
        if failures > 0 {
            StandardError.write("geotrip: \(failures) of \(lineNumber) lines were not coordinates; their lines say why.\n")
        }
    }

    /// Lines answered at a time, at most: enough to keep every core busy for milliseconds.
    /// A block is answered sooner when the input has nothing more ready.
    static let blockLines = 16_384

    /// Whether standard input has bytes ready now (always, for a file).
    static func inputReady() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// A line of input, read and parsed.
    enum BatchLine: Sendable {
        /// A coordinate to answer.
        case point(Coordinate)
        /// A line that is not one, with why.
        case error(LineError)
    }

    /// The JSON Lines for `block`, in order, its slices answered on `workers` cores.
    static func answer(_ block: [BatchLine], gazetteer: Gazetteer, rule: NamingRule, workers: Int) async -> [UInt8] {
        let slice = (block.count + workers - 1) / max(workers, 1)
        guard slice > 0 else { return [] }
        let parts = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for start in stride(from: 0, to: block.count, by: slice) {
                group.addTask {
                    var output = JSONLineWriter()
                    for line in block[start..<min(start + slice, block.count)] {
                        switch line {
                        case .point(let point): gazetteer.describe(point, rule: rule).writeJSONLine(to: &output)
                        case .error(let error): error.writeJSONLine(to: &output)
                        }
                    }
                    return (start, output.bytes)
                }
            }
            var parts: [(Int, [UInt8])] = []
            for await part in group { parts.append(part) }
            return parts
        }
        return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
    }

    /// The JSON line for an input line that is not a coordinate.
    struct LineError: Sendable {
        /// The line's number, from 1.
        var line: Int
        /// The line as read (its start, for an overlong one).
        var input: String
        /// Why it is not a coordinate.
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
        guard name.contains(where: { !$0.isWhitespace }) else { throw ValidationError("Give the name of a place to find, such as Sintra.") }
    }

    func run() async throws {
        let gazetteer = try Diagnostics.loadGazetteer(usesZones: false)
        let matches = gazetteer.search(name, limit: limit)
        if json {
            try Diagnostics.printJSON(matches)
        } else {
            for match in matches {
                let place = match.place
                let region = [place.admin1, place.country].compactMap { $0 }.joined(separator: ", ")
                let population = place.population > 0 ? "population \(place.population.grouped), " : ""
                // The query is echoed in the label ("found as …"): shown as the terminal rule says.
                print((match.label("\(place.name), \(region) (\(place.countryCode ?? "?"))", query: name) + ": \(population)"
                      + String(format: "%.5f,%.5f", place.coordinate.latitude, place.coordinate.longitude)
                      + (place.timeZone.map { ", \($0)" } ?? "")).terminalSafe)
            }
        }
        if matches.isEmpty {
            let advice = gazetteer.qualifierAdvice(name)
                ?? (SearchKey.hasOtherScript(name) ? SearchKey.otherScriptAdvice : "Check the spelling, or try fewer words.")
            StandardError.write(("geotrip: no place is named \"\(name)\". " + advice).terminalSafe + "\n")
            throw ExitCode.failure
        }
    }
}
