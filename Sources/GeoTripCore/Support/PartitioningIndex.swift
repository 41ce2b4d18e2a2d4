extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` is true, in a
    /// collection where it is false for a prefix and true for the rest (sorted data, searched
    /// by binary search); `endIndex` when it is true for none. swift-algorithms' name and
    /// contract, for the one function of that package geotrip needs.
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
