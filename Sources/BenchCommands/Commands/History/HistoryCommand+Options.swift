import BenchHistory
import CommandLineKit
import Foundation
import HistoryAnalysis

extension HistoryCommand {
  /// Which options each action takes (`--db` and `--format` aside): anything else is a usage error.
  static let actionOptions: [Action: [any CommandLineOption]] = [
    .record: [commit, branch, time],
    .show: [machine, cell, phase, since, branch, svg, commitURL],
    .detect: [machine, cell, phase, since, branch, alpha, permutations, minSegment],
  ]

  /// Checks the command line: an action, its arguments, and only the options it takes.
  package static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    guard let first = o.positional.first, let action = Action(rawValue: first) else {
      throw UsageError(
        "wants an action: record RESULTS.json…, show or detect (got \(o.positional.first.map { "'\($0)'" } ?? "none"))"
      )
    }
    for (other, options) in actionOptions where other != action {
      for option in options
      where o.isGiven(option) && !(actionOptions[action] ?? []).contains(where: { $0.name == option.name }) {
        throw UsageError("\(option.name) is not an option of bench history \(action.rawValue)")
      }
    }
    if action == .record && o.isGiven(format) {
      throw UsageError("--format is not an option of bench history record")
    }
    let text = try o.value(db)
    let database: HistoryDatabaseURL
    do throws(HistoryError) {
      database = try HistoryDatabaseURL(parsing: text)
    } catch {
      throw UsageError(error.description)
    }
    var options = Options(action: action, database: database)
    let arguments = Array(o.positional.dropFirst())
    switch action {
    case .record:
      guard !arguments.isEmpty else { throw UsageError("record wants one or more results files") }
      guard !arguments.contains("") else { throw UsageError("record wants results files, not an empty name") }
      options.results = arguments
      options.commit = try o.value(commit)
      options.branch = try o.value(branch)
      options.time = try o.value(time)
    case .show, .detect:
      guard arguments.isEmpty else {
        throw UsageError(
          "\(action.rawValue) takes no arguments (got '\(arguments[0])'); filter with --machine, --cell, --phase"
        )
      }
      options.query = try query(o, action: action)
      options.format = try o.value(format)
      options.svgFolder = try o.value(svg)
      options.commitURL = try o.value(commitURL)
      options.alpha = try o.value(alpha)
      options.permutations = try o.value(permutations)
      options.minimumSegment = try o.value(minSegment)
    }
    return options
  }

  /// The filters of `show` and `detect`.
  private static func query(_ o: ParsedOptions, action: Action) throws(UsageError) -> HistoryQuery {
    var query = HistoryQuery(
      machine: try o.value(machine), phase: try o.value(phase), since: try o.value(since),
      branch: try o.value(branch))
    if query.phase == nil && action == .show { query.phase = "first_frame_observed" }
    if let name = try o.value(cell) {
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
  static func openStore(_ o: Options) throws(UsageError) -> Result<any HistoryStore, HistoryError> {
    if case .sqlite(let path) = o.database, o.action != .record, !FileManager.default.fileExists(atPath: path)
    {
      throw UsageError("no history database at \(path): record results into it with bench history record")
    }
    do throws(HistoryError) {
      return .success(try o.database.open(readOnly: o.action != .record))
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
    _ o: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    // Every results file is read before the database is opened: a bad one records nothing.
    let benchmarks = try o.results.map { (path) throws(UsageError) in try load(path, options: o) }
    let store: any HistoryStore
    switch try openStore(o) {
    case .success(let opened): store = opened
    case .failure(let error):
      errors.write("bench history: \(UsageError.oneLine(error.description))\n")
      return 1
    }
    do throws(HistoryError) {
      switch o.action {
      case .record: try record(benchmarks, from: o.results, into: store, output: &output)
      case .show: try show(o, from: store, output: &output)
      case .detect: try detect(o, from: store, output: &output)
      }
      return 0
    } catch {
      errors.write("bench history: \(UsageError.oneLine(error.description))\n")
      return 1
    }
  }
}
