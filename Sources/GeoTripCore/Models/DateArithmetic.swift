import Foundation

/// The package's one set of calendar arithmetic: civil dates to and from day numbers
/// (Howard Hinnant's algorithms, proleptic Gregorian) and the UTC text form the catalog keeps.
/// No Calendar or DateFormatter per photo: they cost far more, and ingest formats several dates
/// per photo.
extension Date {
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, milliseconds only when there are some; nil for instants
    /// outside years 1 to 9999 (a clock offset can push a bad date there).
    public var geotripISO8601: String? {
        // Years 1 to 9999 lie within ±2.6e11 s of 1970; beyond, the Int conversion could trap.
        guard abs(timeIntervalSince1970) < 3e11 else { return nil }
        let milliseconds = Int((timeIntervalSince1970 * 1000).rounded())
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, inDay) = dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let civil = Self.civilDate(daysSince1970: day)
        let seconds = inDay / 1000
        let time = LocalDateTime(year: civil.year, month: civil.month, day: civil.day, hour: seconds / 3600,
                                 minute: seconds / 60 % 60, second: seconds % 60,
                                 millisecond: inDay % 1000 == 0 ? nil : inDay % 1000)
        return time.map { $0.iso8601 + "Z" }  // nil outside years 1...9999
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days),
    /// so formatting needs no Calendar.
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
