import Foundation

extension Array where Element: Sendable {
    /// `transform` of every element, at most `width` at a time, in the elements' order; the
    /// first error thrown is thrown, after the children still running have finished.
    func concurrentMap<Result: Sendable>(width: Int = ProcessInfo.processInfo.activeProcessorCount,
                                         _ transform: @escaping @Sendable (Element) async throws -> Result) async throws -> [Result] {
        var results = [Result?](repeating: nil, count: count)
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func add() {
                guard next < count else { return }
                let index = next, element = self[index]
                group.addTask { (index, try await transform(element)) }
                next += 1
            }
            for _ in 0..<Swift.max(1, width) { add() }
            while let (index, result) = try await group.next() {
                results[index] = result
                add()
            }
        }
        return results.map { $0! }
    }
}
