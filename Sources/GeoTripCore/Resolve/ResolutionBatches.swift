import Foundation

/// A full resolution pass divided into batches along the key axis (`ResolutionWindow`), so a
/// library is resolved a stretch at a time and its memory is bounded by a batch, not by the
/// library (issue 15).
///
/// Each batch keeps the results of its *core*, a run of consecutive photos in key order, and
/// resolves them together with every photo whose key lies within `reach` of the core's first
/// and last keys (its *window*): nothing farther can change a core photo's result, so each
/// result is the whole library's. Cores together hold every keyed photo once. A boundary
/// is put where few photos lie within `reach` of it, so windows overlap little; where photos
/// are dense on both sides of every candidate (a burst of many thousands of photos within a
/// day and a half), the batch grows until they thin out, at worst to the whole library.
/// Photos without a key neither borrow nor lend anything and are resolved apart, by id.
struct ResolutionBatches {
    /// A photo's place on the key axis.
    struct Key: Equatable {
        var key: Date
        var id: Int64
    }

    /// One batch: indices into the keys in key order.
    struct Batch: Equatable {
        /// The photos whose results it keeps.
        var core: Range<Int>
        /// The photos it resolves (a superset of `core`).
        var window: Range<Int>
    }

    /// Photos a batch keeps results for, about: small enough that a batch's evidence and
    /// results are a few megabytes, large enough that its windows' overlap and its
    /// transaction are a small part of its cost.
    static let defaultSize = 50_000

    /// Batches over `keys` (sorted by key, then id) for a reach of `reach` seconds (plus a
    /// minute, as `ResolutionWindow.stretches` adds for the text bounds), of about `size`
    /// photos each.
    static func plan(_ keys: [Key], reach: TimeInterval, size: Int = defaultSize) -> [Batch] {
        let margin = reach + 60
        let size = max(1, size)
        // The first index whose key is at least `date`, and the first past those at most it.
        func first(atLeast date: Date) -> Int { keys.partitioningIndex { $0.key >= date } }
        func end(atMost date: Date) -> Int { keys.partitioningIndex { $0.key > date } }
        var batches: [Batch] = []
        var start = 0
        while start < keys.count {
            var stop = min(keys.count, start + size)
            // Move the boundary on until the photos around it (itself included) are a quarter of
            // a batch at most.
            while stop < keys.count {
                let around = end(atMost: keys[stop].key.addingTimeInterval(margin)) - first(atLeast: keys[stop].key.addingTimeInterval(-margin))
                if around <= max(2, size / 4) { break }
                stop = min(keys.count, stop + max(1, size / 8))
            }
            let window = first(atLeast: keys[start].key.addingTimeInterval(-margin))..<end(atMost: keys[stop - 1].key.addingTimeInterval(margin))
            batches.append(Batch(core: start..<stop, window: window))
            start = stop
        }
        return batches
    }
}
