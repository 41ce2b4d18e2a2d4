import Foundation
import GRDB

/// The person's notes for one visit or day, as last read from (or written to) the journal.
struct JournalNoteRecord: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    static let databaseTableName = "journalNote"

    /// A visit id (`v17`) or a day (`2025-06-10`).
    var ownerId: String
    /// `visit` or `day`.
    var kind: String
    /// The notes, byte for byte as written between the markers.
    var text: String
    /// The visit's place name and day when the notes were last seen with it.
    var placeName: String?
    var localDate: String?
    /// ISO 8601.
    var updatedAt: String
    /// `JournalNote.members`, as a JSON array of photo ids (v25).
    var members: String? = nil

    enum Columns {
        static let ownerId = Column(CodingKeys.ownerId)
    }

    /// The note as the export stage sees it.
    var note: JournalNote {
        JournalNote(ownerID: ownerId, text: text, placeName: placeName, localDate: localDate,
                    members: members.flatMap { try? JSONDecoder().decode([Int64].self, from: Data($0.utf8)) })
    }

    /// `JournalNote.members` as stored.
    static func membersText(_ members: [Int64]?) -> String? {
        members.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }
    }
}
