import GRDB

/// One remembered setting or stage memo of the trip (`Catalog.SettingKey` names them all).
struct TripSettingRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "tripSetting"

    var key: String
    var value: String

    enum Columns {
        static let key = Column(CodingKeys.key)
    }

    /// The value stored under `key`, inside a transaction.
    static func value(_ db: Database, _ key: String) throws -> String? {
        try TripSettingRecord.fetchOne(db, key: key)?.value
    }

    /// Stores `value` under `key`, inside a transaction (with the results it describes).
    static func set(_ db: Database, _ key: String, to value: String) throws {
        try TripSettingRecord(key: key, value: value).upsert(db)
    }
}
