// The gazetteer's part of `make bench` (scripts/bench.py runs it): load time, single-core
// nearest-place throughput, time zone lookups (the polygon index against the nearest town's zone
// it replaced) and peak memory, on a file of points shared with reverse_geocoder.
//
// Usage: gazetteer-bench POINTS_FILE
// POINTS_FILE holds little-endian float64 pairs (latitude, longitude). Prints one JSON object.
import Foundation
import GeoTripCore

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func peakResidentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return -1 }
    return kilobytes / 1024
}

guard CommandLine.arguments.count == 2, let raw = FileManager.default.contents(atPath: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: gazetteer-bench POINTS_FILE (float64 latitude, longitude pairs)\n".utf8))
    exit(64)
}
let points: [Double] = raw.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
let count = points.count / 2

let clock = ContinuousClock()
var loadTimes: [Double] = []
var loaded: Gazetteer?
for _ in 0..<5 {
    let start = clock.now
    loaded = try Gazetteer.load()
    loadTimes.append(seconds(clock.now - start))
}
let gazetteer = loaded!
loadTimes.sort()

// Nearest place, one core.
var checksum = 0
var start = clock.now
for index in 0..<count {
    checksum &+= gazetteer.nearestIndex(latitude: points[index * 2], longitude: points[index * 2 + 1])
}
let nearestSeconds = seconds(clock.now - start)

// The full answer (name choice, strings), one core, on the first 100,000 points.
let describedCount = min(count, 100_000)
start = clock.now
for index in 0..<describedCount {
    let answer = gazetteer.describe(Coordinate(latitude: points[index * 2], longitude: points[index * 2 + 1]))
    checksum &+= answer.place?.name.utf8.count ?? 0
}
let describeSeconds = seconds(clock.now - start)

// Time zones, one core: the polygon index, and the nearest town's zone it replaced (the
// gazetteer's fallback when the index is missing).
start = clock.now
for index in 0..<count {
    checksum &+= gazetteer.timeZone(for: Coordinate(latitude: points[index * 2], longitude: points[index * 2 + 1]))?.utf8.count ?? 0
}
let zoneSeconds = seconds(clock.now - start)
let townZones = try Gazetteer.load(zones: URL(fileURLWithPath: "/nonexistent/zones.bin"))
start = clock.now
for index in 0..<count {
    checksum &+= townZones.timeZone(for: Coordinate(latitude: points[index * 2], longitude: points[index * 2 + 1]))?.utf8.count ?? 0
}
let townZoneSeconds = seconds(clock.now - start)

let result: [String: Double] = [
    "zonePerSecond": Double(count) / zoneSeconds,
    "nearestTownZonePerSecond": Double(count) / townZoneSeconds,
    "places": Double(gazetteer.count),
    "points": Double(count),
    "loadSecondsMedian": loadTimes[loadTimes.count / 2],
    "loadSecondsBest": loadTimes[0],
    "nearestSeconds": nearestSeconds,
    "nearestPerSecond": Double(count) / nearestSeconds,
    "describePerSecond": Double(describedCount) / describeSeconds,
    "peakMegabytes": peakResidentMegabytes(),
    "checksum": Double(checksum % 1_000_000),
]
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
