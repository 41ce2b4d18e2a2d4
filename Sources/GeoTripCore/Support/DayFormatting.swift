import Foundation
import Synchronization

/// Calendar days (`YYYY-MM-DD`) and whole numbers written in a language, with one Foundation
/// formatter per language and pattern for the whole process. Making a `DateFormatter` costs
/// about a millisecond (ICU loads the locale's patterns): a library's journals and maps, with
/// thousands of days, paid that for every heading. The formatters are used under a lock, as
/// Foundation does not promise they may be shared between threads.
enum DayFormatting {
    private static let dates = Mutex<[String: DateFormatter]>([:])
    private static let numbers = Mutex<[String: NumberFormatter]>([:])
    private static let intervals = Mutex<[String: DateIntervalFormatter]>([:])

    /// The days `first` to `last` (`YYYY-MM-DD`) from the date template `template` in `locale`,
    /// as the locale writes a span (`3–12 June 2019`); nil when either is not a date. One
    /// formatter per locale and template: the library's page writes one span per trip, and
    /// making a formatter each time was most of that page's cost.
    static func span(_ first: String, _ last: String, template: String, locale: Locale) -> String? {
        guard let from = LocalDate.dayNumber(first), let to = LocalDate.dayNumber(last) else { return nil }
        return intervals.withLock { cache in
            let key = locale.identifier + "|" + template
            let formatter = cache[key] ?? {
                let formatter = DateIntervalFormatter()
                formatter.locale = locale
                formatter.timeZone = TimeZone(identifier: "UTC")!
                formatter.dateTemplate = template
                return formatter
            }()
            cache[key] = formatter
            return formatter.string(from: Date(timeIntervalSince1970: Double(from) * 86_400), to: Date(timeIntervalSince1970: Double(to) * 86_400))
        }
    }

    /// `day` written from the date template `template` (`yMMMMEEEEd`) in `locale`; nil for text
    /// that is not a date.
    static func string(_ day: String, template: String, locale: Locale) -> String? {
        guard let number = LocalDate.dayNumber(day) else { return nil }
        let date = Date(timeIntervalSince1970: Double(number) * 86_400)
        return dates.withLock { cache in
            let key = locale.identifier + "|" + template
            if let formatter = cache[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.setLocalizedDateFormatFromTemplate(template)
            cache[key] = formatter
            return formatter.string(from: date)
        }
    }

    /// `value` rounded to a whole number, with the locale's digit grouping (`1,234`).
    static func wholeNumber(_ value: Double, locale: Locale) -> String {
        numbers.withLock { cache in
            let formatter: NumberFormatter
            if let cached = cache[locale.identifier] {
                formatter = cached
            } else {
                formatter = NumberFormatter()
                formatter.locale = locale
                formatter.numberStyle = .decimal
                formatter.maximumFractionDigits = 0
                cache[locale.identifier] = formatter
            }
            return formatter.string(from: NSNumber(value: value.rounded())) ?? String(Int(value.rounded()))
        }
    }
}
