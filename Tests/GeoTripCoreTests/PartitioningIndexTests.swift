import Testing
@testable import GeoTripCore

/// `partitioningIndex(where:)`, the binary search behind the track's and the videos' time windows.
@Suite("Partitioning index")
struct PartitioningIndexTests {
    @Test("the first element past the partition, as a linear search finds it, on slices too")
    func matchesLinearSearch() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in Int.random(in: 0..<20, using: &generator) }.sorted()
            let slice = values.dropFirst(values.isEmpty ? 0 : Int.random(in: 0...values.count, using: &generator))
            for pivot in -1...21 {
                #expect(values.partitioningIndex { $0 >= pivot } == values.firstIndex { $0 >= pivot } ?? values.endIndex)
                #expect(values.partitioningIndex { $0 > pivot } == values.firstIndex { $0 > pivot } ?? values.endIndex)
                #expect(slice.partitioningIndex { $0 >= pivot } == slice.firstIndex { $0 >= pivot } ?? slice.endIndex)
            }
        }
    }
}
