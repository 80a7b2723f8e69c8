import Foundation

/// The history's one time format: UTC, ISO 8601 to the second (`2026-12-01T10:06:53Z`), which
/// sorts as text in time order, so that SQL compares times as strings.
package enum HistoryTime {
  /// Now, in that format.
  package static func now() -> String { format(Date()) }

  /// `date` in that format.
  package static func format(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// `text` (ISO 8601 with a time and a zone, or a date alone, `2026-12-01`, meaning its
  /// midnight UTC) in the history's format; nil when it is neither.
  package static func normalize(_ text: String) -> String? {
    let full = ISO8601DateFormatter()
    full.formatOptions = [.withInternetDateTime]
    if let date = full.date(from: text) { return format(date) }
    full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = full.date(from: text) { return format(date) }
    let day = ISO8601DateFormatter()
    day.formatOptions = [.withFullDate]
    day.timeZone = TimeZone(identifier: "UTC")
    return day.date(from: text).map(format)
  }
}
