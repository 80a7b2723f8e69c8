import BenchHistory
import CommandLineKit

extension ValueParser where Value == HistoryDatabaseURL {
  /// `--db` of `bench history` and `bench bisect`: a path, `sqlite:PATH` or `postgresql://…`
  /// (``HistoryDatabaseURL/init(parsing:)``); an empty value or an unknown scheme is a usage
  /// error, one line (exit status 2).
  static var historyDatabase: ValueParser<HistoryDatabaseURL> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> HistoryDatabaseURL in
        guard !text.isEmpty else { throw UsageError("\(name) wants a file name, not an empty one") }
        do throws(HistoryError) {
          return try HistoryDatabaseURL(parsing: text)
        } catch {
          throw UsageError(error.description)
        }
      }, describe: { $0.description })
  }
}
