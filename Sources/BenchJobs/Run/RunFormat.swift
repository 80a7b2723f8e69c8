/// `--format`: what goes to stdout when the benchmark ends.
package enum RunFormat: String, Sendable, CaseIterable {
  /// The per-cell table and the headlines.
  case table
  /// results.json.
  case json
  /// The Markdown summary.
  case markdown
  /// samples.csv.
  case csv
}
