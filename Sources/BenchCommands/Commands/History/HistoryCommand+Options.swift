import BenchHistory
import CommandLineKit
import SystemCalls
import Foundation
import HistoryAnalysis

extension HistoryCommand {
  /// Which options each action takes (`--db` and `--format` aside): anything else is a usage error.
  static let actionOptions: [Action: [any CommandLineOption]] = [
    .record: [commit, branch, time],
    .show: [machine, cell, phase, since, branch, svg, commitURL],
    .detect: [
      machine, cell, phase, since, branch, detector, window, maxP, fdr, minMagnitude, alpha, permutations,
      minSegment,
    ],
  ]

  /// Checks the command line: an action, its arguments, and only the options it takes.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard let first = parsed.positional.first, let action = Action(rawValue: first) else {
      throw UsageError(
        "wants an action: record RESULTS.json…, show or detect (got \(parsed.positional.first.map { "'\($0)'" } ?? "none"))"
      )
    }
    for (other, options) in actionOptions where other != action {
      for option in options
      where parsed.isGiven(option)
        && !(actionOptions[action] ?? []).contains(where: { $0.name == option.name })
      {
        throw UsageError("\(option.name) is not an option of bench history \(action.rawValue)")
      }
    }
    if action == .record && parsed.isGiven(format) {
      throw UsageError("--format is not an option of bench history record")
    }
    var options = Options(action: action, database: try parsed.value(db))
    let arguments = Array(parsed.positional.dropFirst())
    switch action {
    case .record:
      guard !arguments.isEmpty else { throw UsageError("record wants one or more results files") }
      guard !arguments.contains("") else { throw UsageError("record wants results files, not an empty name") }
      options.results = arguments
      options.commit = try parsed.value(commit)
      options.branch = try parsed.value(branch)
      options.time = try parsed.value(time)
    case .show, .detect:
      guard arguments.isEmpty else {
        throw UsageError(
          "\(action.rawValue) takes no arguments (got '\(arguments[0])'); filter with --machine, --cell, --phase"
        )
      }
      options.query = try query(parsed, action: action)
      options.format = try parsed.value(format)
      options.svgFolder = try parsed.value(svg)
      options.commitURL = try parsed.value(commitURL)
      options.detector = try parsed.value(detector)
      options.window = try parsed.value(window)
      options.maxPValue = try parsed.value(maxP)
      options.falseDiscoveryRate = try parsed.value(fdr)
      options.minimumMagnitude = try parsed.value(minMagnitude)
      options.alpha = try parsed.value(alpha)
      options.permutations = try parsed.value(permutations)
      options.minimumSegment = try parsed.value(minSegment)
    }
    return options
  }

  /// The filters of `show` and `detect`.
  private static func query(_ parsed: ParsedOptions, action: Action) throws(UsageError) -> HistoryQuery {
    var query = HistoryQuery(
      machine: try parsed.value(machine), phase: try parsed.value(phase), since: try parsed.value(since),
      branch: try parsed.value(branch))
    if query.phase == nil && action == .show { query.phase = "first_frame_observed" }
    if let name = try parsed.value(cell) {
      let parts = name.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw UsageError("--cell wants CONDITION/CONFIG (warm/deferred), not \(name)")
      }
      query.condition = String(parts[0])
      query.config = String(parts[1])
    }
    return query
  }

  /// Opens the store named by `--db`: `show` and `detect` read an existing one.
  /// - Throws: `UsageError` when there is no database to read or the URL is bad; a `HistoryError`
  ///   for the rest (the library missing, the database failing), which `execute` reports with
  ///   exit status 1.
  static func openStore(_ options: Options) throws(UsageError) -> Result<any HistoryStore, HistoryError> {
    if case .sqlite(let path) = options.database, options.action != .record, !FileSystem.exists(atPath: path)
    {
      throw UsageError("no history database at \(path): record results into it with bench history record")
    }
    do throws(HistoryError) {
      return .success(try options.database.open(readOnly: options.action != .record))
    } catch {
      switch error.code {
      case .badDatabaseURL, .cannotOpen: throw UsageError(error.description)
      default: return .failure(error)
      }
    }
  }

  /// Does the action.
  /// - Throws: `UsageError` for bad input (an unreadable results file, no database).
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    // Every results file is read before the database is opened: a bad one records nothing.
    let benchmarks = try options.results.map { (path) throws(UsageError) in try load(path, options: options) }
    let store: any HistoryStore
    switch try openStore(options) {
    case .success(let opened): store = opened
    case .failure(let error):
      errors.write("bench history: \(UsageError.oneLine(error.description))\n")
      return 1
    }
    do throws(HistoryError) {
      switch options.action {
      case .record: try record(benchmarks, from: options.results, into: store, output: &output)
      case .show: try show(options, from: store, output: &output)
      case .detect: try detect(options, from: store, output: &output)
      }
      return 0
    } catch {
      errors.write("bench history: \(UsageError.oneLine(error.description))\n")
      return 1
    }
  }
}
