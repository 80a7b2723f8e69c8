import BenchHistory
import BenchKit
import Foundation
import LaunchContract

/// `bench bisect GOOD BAD`: the first commit after GOOD, along BAD's first parents, that makes
/// one cell's phase slower, found by binary search (``BisectSearch``) with interleaved `bench ab`
/// sessions of each probed commit against GOOD, each decided by the baseline gate. Every probe's
/// results are recorded in the history. docs/history.md "Bisect".
package enum BisectCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// GOOD and BAD, as given.
    package var revisions: (good: String, bad: String)
    /// `--repo`, as given.
    package var repo: String?
    /// `--cell`: the condition and configuration bisected.
    package var condition = "warm"
    /// `--cell`'s configuration.
    package var config = "deferred"
    /// `--phase`.
    package var phase = PhaseName.firstFrameObserved
    /// `--runs`: counted runs per side in a probe's first session.
    package var runs = 10
    /// `--max-runs`: the most runs per side an inconclusive probe is given.
    package var maxRuns = 40
    /// `--threshold`: how much slower than GOOD (a fraction: 0.05 = 5 %) a probe must be to be
    /// slower; within it, not slower.
    package var threshold = 0.05
    /// `--db`.
    package var database: HistoryDatabaseURL
    /// `--out`, as given: the folder each probe's session goes in, and `bisect.json`.
    package var out: String?
    /// `--quiet`.
    package var quiet = false
    /// `bench ab`'s options passed through to every probe (`--warmup 1`, `--profile FILE`, …).
    package var passedThrough: [String] = []
  }

  static let cell = Option(
    "--cell", "CONDITION/CONFIG", "the cell bisected", default: "warm/deferred", parser: .fileName)
  static let phase = Option(
    "--phase", "P", "the phase bisected", default: PhaseName.firstFrameObserved, parser: .fileName)
  static let runs = Option(
    "--runs", "N", "counted runs per side in a probe's first session", default: 10,
    parser: .integer(in: 2...100_000))
  static let maxRuns = Option(
    "--max-runs", "N", "the most runs per side an inconclusive probe gets (doubling from --runs)",
    default: 40,
    parser: .integer(in: 2...100_000))
  static let threshold = Option(
    "--threshold", "FRACTION",
    "slower means beyond this (0.05 = 5 %); half the shift being chased keeps healthy commits clear of it",
    default: 0.05, parser: .number(in: NumberRange(greaterThan: 0, below: 10)))
  static let db = Option(
    "--db", "URL", "the history database every probe's results are recorded in",
    default: HistoryDatabaseURL.defaultPath, parser: .fileName)
  static let out = Option<String?>(
    "--out", "DIR", "the folder of every probe's session (NN-COMMIT-rRUNS/A, B) and bisect.json",
    shownAs: "Results/bisect-<UTC timestamp>", parser: .folderName)

  /// `bench ab`'s options that every probe gets as given: all but the ones bisect sets
  /// (`--runs`, `--conditions`, `--configs`, `--out`).
  static let passedThrough: [any CommandLineOption] = ABCommand.shared.filter {
    !["--runs", "--conditions", "--configs", "--out", "--overwrite"].contains($0.name)
  }

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench bisect", synopsis: "GOOD BAD [options]",
    summary: """
      Finds the first commit after GOOD, along BAD's first parents (git log --first-parent
      GOOD..BAD: the mainline; a side branch counts as its merge), whose camera-app is slower than
      GOOD's in one cell and phase (--cell, --phase). Binary search, as git bisect: BAD is taken as
      slower until measured, each probed commit is measured against GOOD in one interleaved bench ab
      session (camera-app built incrementally in .build/ab, cached per commit) and decided by the
      baseline gate's rule (--threshold, 5 % by default; α = 0.01; failed runs ranked slowest). A
      commit that does not build is skipped as git bisect skip does; an inconclusive probe is
      measured again with twice the runs, up to --max-runs, then the range it could not narrow is
      reported. Prints the culprit, its subject, its shift with the interval and every probe;
      records every probe's results in the history (--db; branch "bisect", each at its commit's
      time).
      """,
    options: [ABCommand.repo, cell, phase, runs, maxRuns, threshold, db, out] + passedThrough,
    epilogue: """
      A range of n commits needs at most ⌈log₂(n + 1)⌉ probes (4 for 15 commits, 5 for 16 to 31),
      each building at most its own commit; GOOD is built once.
      exit status: 0 a culprit found, 1 nothing regressed (BAD is not slower than GOOD), a probe
      stayed inconclusive, only untestable commits were left, or GOOD could not be measured; 2 bad
      usage; 130 interrupted (finished probes are kept in the history and OUT/bisect.json)
      """)

  /// Reads the command line: two revisions and the options; nothing touches the machine.
  package static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    guard o.positional.count == 2 else {
      throw UsageError("wants two git revisions, GOOD and BAD (got \(o.positional.count) arguments)")
    }
    let text = try o.value(db)
    let database: HistoryDatabaseURL
    do throws(HistoryError) {
      database = try HistoryDatabaseURL(parsing: text)
    } catch {
      throw UsageError(error.description)
    }
    let cellName = try o.value(cell)
    let parts = cellName.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, LaunchCondition(rawValue: parts[0]) != nil,
      LaunchConfiguration(rawValue: parts[1]) != nil
    else {
      throw UsageError("--cell wants CONDITION/CONFIG of bench's (warm/deferred), not \(cellName)")
    }
    let first = try o.value(runs)
    let most = try o.value(maxRuns)
    guard most >= first else { throw UsageError("--max-runs \(most) is below --runs \(first)") }
    var given: [String] = []
    for option in passedThrough {
      if let value = o.values[option.name] { given += [option.name, value] }
      if o.flags.contains(option.name) { given.append(option.name) }
    }
    return Options(
      revisions: (o.positional[0], o.positional[1]), repo: try o.value(ABCommand.repo), condition: parts[0],
      config: parts[1], phase: try o.value(phase), runs: first, maxRuns: most,
      threshold: try o.value(threshold),
      database: database,
      out: try o.value(out),
      quiet: o.flags.contains("--quiet"), passedThrough: given)
  }

  /// Bisects (``Bisection``) and prints the culprit and the evidence.
  /// - Throws: `UsageError` for revisions that cannot be bisected, a database that cannot be
  ///   opened, or `bench ab`'s options that it refuses.
  package static func execute(
    _ o: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    try Bisection.prepare(o, build: nil).run(output: &output, errors: &errors)
  }
}
