import BenchHistory
import CommandLineKit
import HistoryAnalysis
import Reports
import Statistics

/// `bench history record|show|detect`: every benchmark remembered in a database (SQLite by
/// default, `Results/history.sqlite`), looked at as series per machine × cell × phase, and the
/// change points found in them (E-divisive means). docs/history.md.
package enum HistoryCommand: Command {
  /// What to do.
  package enum Action: String, Sendable, CaseIterable {
    /// Store results files.
    case record
    /// Print the series.
    case show
    /// Find change points.
    case detect
  }

  /// `--detector`.
  package enum DetectorName: String, Sendable, CaseIterable {
    /// Windowed E-divisive with a t-test merge, the newest benchmark tested on its own, and
    /// Benjamini–Hochberg across series (default).
    case windowed
    /// E-divisive over each whole series with a permutation test.
    case edivisive
  }

  /// `--format`.
  package enum Format: String, Sendable, CaseIterable {
    /// A table for people.
    case table
    /// Comma-separated values (show: Otava's layout, one row per benchmark).
    case csv
    /// JSON for tools.
    case json
  }

  /// The command line, checked.
  package struct Options: Sendable {
    /// What to do.
    package var action: Action
    /// `record`: the results files, in order.
    package var results: [String] = []
    /// `--db`.
    package var database: HistoryDatabaseURL
    /// `record`: `--commit`; nil takes the one results.json records.
    package var commit: String?
    /// `record`: `--branch`; nil takes the one results.json records with its commit (or none).
    package var branch: String?
    /// `record`: `--time`, normalized to UTC; nil takes `settings.startedAt`.
    package var time: String?
    /// `show`, `detect`: the filters.
    package var query = HistoryQuery()
    /// `show`, `detect`: what goes to stdout.
    package var format = Format.table
    /// `show`: `--svg`, the folder the trend plots go to.
    package var svgFolder: String?
    /// `show --svg`: each point's link, `{commit}` replaced by its hash.
    package var commitURL = HistoryTrendPlot.defaultCommitURL
    /// `detect`: the method.
    package var detector = DetectorName.windowed
    /// `detect --detector windowed`: points per window.
    package var window = WindowedChangePoints.Options.history.windowLength
    /// `detect --detector windowed`: the largest p-value of a change point in its series.
    package var maxPValue = WindowedChangePoints.Options.history.maxPValue
    /// `detect --detector windowed`: the false discovery rate across series.
    package var falseDiscoveryRate = 0.01
    /// `detect --detector windowed`: the smallest move of the mean at a change point.
    package var minimumMagnitude = WindowedChangePoints.Options.history.minimumMagnitude
    /// `detect`: the significance level of the permutation test.
    package var alpha = EDivisive.Options.history.alpha
    /// `detect`: permutations per test.
    package var permutations = EDivisive.Options.history.permutations
    /// `detect`: the fewest points on each side of a change point.
    package var minimumSegment = EDivisive.Options.history.minimumSegment
  }

  static let db = Option(
    "--db", "URL",
    "the history database: a path, sqlite:PATH, postgresql://USER@HOST/DB or 'host=HOST dbname=DB' (libpq; PG* variables apply)",
    default: .default, parser: .historyDatabase)
  static let commit = Option<String?>(
    "--commit", "SHA", "record: the commit measured", shownAs: "the one results.json records",
    parser: .fileName)
  static let branch = Option<String?>(
    "--branch", "NAME",
    "record: the branch it was on; show, detect: only that branch's benchmarks (without it, every branch but bisect's probes)",
    shownAs: "the one results.json records",
    parser: .fileName)
  static let time = Option<String?>(
    "--time", "ISO8601", "record: when it ran (UTC)", shownAs: "settings.startedAt",
    parser: .converting { (text: String) throws(UsageError) -> String in
      guard let time = HistoryTime.normalize(text) else {
        throw UsageError("--time wants ISO 8601 (2026-12-01T10:06:53Z or 2026-12-01), not \(text)")
      }
      return time
    })
  static let machine = Option<String?>(
    "--machine", "M", "a machine's fingerprint (or its first digits) or host name", parser: .fileName)
  static let cell = Option<String?>(
    "--cell", "CONDITION/CONFIG", "one cell (warm/deferred)", parser: .fileName)
  static let phase = Option<String?>(
    "--phase", "P", "one phase", shownAs: "show: first_frame_observed; detect: every phase", parser: .fileName
  )
  static let since = Option<String?>(
    "--since", "DATE", "benchmarks at or after DATE (ISO 8601)",
    parser: .converting { (text: String) throws(UsageError) -> String in
      guard let time = HistoryTime.normalize(text) else {
        throw UsageError("--since wants a date (2026-12-01) or ISO 8601 time, not \(text)")
      }
      return time
    })
  static let format = Option(
    "--format", "FORMAT", "table, csv or json", default: Format.table, parser: .choice())
  static let svg = Option<String?>(
    "--svg", "DIR", "show: write a trend plot per machine × cell × phase into DIR", parser: .folderName)
  static let commitURL = Option(
    "--commit-url", "TEMPLATE", "show --svg: each point's link; {commit} is replaced by the hash",
    default: HistoryTrendPlot.defaultCommitURL, shownAs: "GitHub's commit search", parser: .text)
  static let detector = Option(
    "--detector", "NAME",
    "detect: windowed (E-divisive in windows, t-test merge, the newest benchmark tested on its own, Benjamini-Hochberg across series) or edivisive (permutation test)",
    default: DetectorName.windowed, parser: .choice())
  static let window = Option(
    "--window", "N",
    "detect --detector windowed: benchmarks per window (a t-test compares up to two windows a side)",
    default: WindowedChangePoints.Options.history.windowLength, parser: .integer(in: 3...10_000))
  static let maxP = Option(
    "--max-p", "P", "detect --detector windowed: the largest p-value of a change point in its series",
    default: WindowedChangePoints.Options.history.maxPValue,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let minMagnitude = Option(
    "--min-magnitude", "R",
    "detect --detector windowed: the smallest move of the mean at a change point (0.02: 2 %)",
    default: WindowedChangePoints.Options.history.minimumMagnitude,
    parser: .number(in: NumberRange(atLeast: 0)))
  static let fdr = Option(
    "--fdr", "Q", "detect --detector windowed: the false discovery rate across the series detected together",
    default: 0.01, parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let alpha = Option(
    "--alpha", "P", "detect --detector edivisive: the permutation test's significance level",
    default: EDivisive.Options.history.alpha,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let permutations = Option(
    "--permutations", "N", "detect --detector edivisive: permutations per test",
    default: EDivisive.Options.history.permutations, parser: .integer(in: 10...100_000))
  static let minSegment = Option(
    "--min-segment", "N", "detect --detector edivisive: the fewest benchmarks on each side of a change point",
    default: EDivisive.Options.history.minimumSegment,
    parser: .integer(in: 1...1000))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench history",
    synopsis: "record RESULTS.json… | show | detect [options]",
    summary: """
      Remembers every benchmark and finds where launch got slower. record stores each results
      file — commit, branch, time, the machine's fingerprint, the settings and every run's phases,
      counts and pass/fail — once: recording the same results again adds nothing. show prints one
      line per benchmark of each series (machine × cell × phase: the median of the runs with its
      95 % interval, and k of n runs failed), as a table, CSV (Otava's layout) or JSON, and with
      --svg a trend plot per series. detect finds the change points in each series of run medians
      and lists each: where, the commits around it, the shift with its interval and the p-value.
      The default detector is windowed E-divisive with a t-test merge (Apache Otava's method),
      with Benjamini-Hochberg across the series detected together; --detector edivisive runs
      E-divisive means with a permutation test instead. Two machines are never
      mixed in one series.
      """,
    options: [
      db, commit, branch, time, machine, cell, phase, since, format, svg, commitURL, detector, window, maxP,
      fdr,
      minMagnitude, alpha, permutations, minSegment,
    ],
    epilogue: """
      exit status: 0 done, 1 the database failed or its library (libsqlite3, libpq) is missing, 2 bad usage, unreadable results or no connection
      """)
}
