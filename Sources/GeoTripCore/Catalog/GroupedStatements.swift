import GRDB

extension Database {
    /// Runs one statement over many rows, a group of rows at a time: `sql(count)` is the
    /// statement for `count` rows (a `VALUES` list of that many tuples of `width` values), and
    /// `values` appends a row's values in order. Returns the rows the statements changed.
    ///
    /// One statement per row spent more in GRDB's argument handling (boxing, checking, binding
    /// each row's values) than in SQLite's own work: a library's fresh ingest writes several
    /// rows for every photo, a million photos' worth.
    func executeInGroups<Rows: Collection>(_ rows: Rows, width: Int, sql: (_ count: Int) -> String,
                                           values: (Rows.Element, inout [DatabaseValue]) -> Void) throws -> Int {
        // 999 variables, the least any SQLite allows (older builds' limit), and 64 rows at most.
        let groupSize = max(1, min(64, 999 / width))
        let fullGroupSQL = sql(groupSize)
        var changed = 0
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(width * groupSize)
        var pending = 0
        func flush() throws {
            guard pending > 0 else { return }
            // The full groups' statement is prepared once; the last, shorter group's apart.
            let statement = pending == groupSize ? try cachedStatement(sql: fullGroupSQL) : try makeStatement(sql: sql(pending))
            statement.setUncheckedArguments(StatementArguments(arguments))
            try statement.execute()
            changed += changesCount
            arguments.removeAll(keepingCapacity: true)
            pending = 0
        }
        for row in rows {
            values(row, &arguments)
            pending += 1
            if pending == groupSize { try flush() }
        }
        try flush()
        return changed
    }

    /// `(?, ?, …), (?, ?, …)…`: `count` tuples of `width` placeholders, for `executeInGroups`.
    static func valuesList(_ count: Int, width: Int) -> String {
        let tuple = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return Array(repeating: tuple, count: count).joined(separator: ", ")
    }
}
