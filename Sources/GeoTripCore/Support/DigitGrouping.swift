extension Int {
    /// 12340 as "12,340", the same in every locale: the progress line, the summary and `where`
    /// print counts one way (Foundation's `formatted()` follows the locale, and a summary read
    /// back by a script should not change with it).
    public var grouped: String {
        let digits = String(magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (self < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
