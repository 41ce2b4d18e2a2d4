/// What the person wrote in one notes block of the journal: for a visit or for a day.
public struct JournalNote: Sendable, Equatable {
    /// A visit id (`v17`) or a day (`2025-06-10`).
    public var ownerID: String
    /// The lines between the markers, byte for byte (each ending in its newline; "" when empty).
    public var text: String
    /// For a visit: its place name and day when the note was last shown with it, so notes of a
    /// visit that disappears can still say where they were written.
    public var placeName: String?
    public var localDate: String?
    /// For a visit: the ids of its photos when the note was last shown with it, so a note
    /// waiting for its visit goes back only to a visit holding some of them (an id can be
    /// given again to other photos). For a day: the photos of its visits when its words last
    /// changed, which it follows to another day (`JournalNotes.settle`). Nil when not known (a
    /// catalog from before they were kept).
    public var members: [Int64]?

    /// Creates a note.
    public init(ownerID: String, text: String, placeName: String? = nil, localDate: String? = nil, members: [Int64]? = nil) {
        self.ownerID = ownerID
        self.text = text
        self.placeName = placeName
        self.localDate = localDate
        self.members = members
    }

    /// The owner id of a note set apart from the visit its id now names (`JournalNotes`):
    /// `v17@2025-06-10` (`v17@waiting` when its day is not known), never a visit's or a day's,
    /// so it waits on the page of unplaced notes
    /// until the person moves its words.
    static func setApart(_ owner: String, day: String?) -> String {
        owner + "@" + (day ?? "waiting")
    }

    /// The visit id a note set apart was written under (`v17` of `v17@2025-06-10`).
    static func writtenUnder(_ owner: String) -> String {
        owner.firstIndex(of: "@").map { String(owner[..<$0]) } ?? owner
    }

    /// Whether the owner is a day (`YYYY-MM-DD`) rather than a visit.
    public var isDayNote: Bool { Self.isDay(ownerID) }

    /// Whether the note holds anything but white space: only such notes are worth keeping
    /// when their owner is gone.
    public var hasWords: Bool { text.contains { !$0.isWhitespace } }

    /// Whether geotrip gives `id` to a block: a visit's (`v17`), a day's, or one set apart
    /// (`v17@2025-06-10`, `v17@waiting-2`); not a block the person made up and named
    /// (`<!-- notes packing -->`), whose words wait on the page of unplaced notes.
    static func isGeotripsName(_ id: String) -> Bool {
        let base = writtenUnder(id)
        return isDay(base) || isVisitID(base)
    }

    /// Whether `id` names a visit (`v17`, as clustering gives them).
    static func isVisitID(_ id: String) -> Bool {
        id.utf8.count > 1 && id.utf8.first == UInt8(ascii: "v") && id.utf8.dropFirst().allSatisfy { (48...57).contains($0) }
    }

    /// Whether `id` names a day (`YYYY-MM-DD`).
    static func isDay(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
