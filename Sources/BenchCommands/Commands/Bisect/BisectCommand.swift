import BenchHistory
import BenchKit
import Foundation
import LaunchContract

/// `bench bisect GOOD BAD`: the first commit after GOOD, along BAD's first parents, that makes
/// one cell's phase slower, found by binary search (``BisectSearch``) with interleaved `bench ab`
/// sessions of each probed commit against GOOD, each decided by the baseline gate. Every probe's
/// results are recorded in the history. docs/history.md "Bisect".
package enum BisectCommand: Command {
  /// The command line, checked (``BisectOptions``).
  package typealias Options = BisectOptions

  static let cell = Option(
    "--cell", "CONDITION/CONFIG", "the cell bisected", default: "warm/deferred", parser: .fileName)
  static let phase = Option(
    "--phase", "P", "the phase bisected", default: PhaseName.firstFrameObserved, parser: .fileName)
  static let runs = Option(
    "--runs", "N", "with --fixed, counted runs per side in a probe's first session", default: 10,
    parser: .integer(in: 2...100_000))
  static let maxRuns = Option(
    "--max-runs", "N",
    "the most runs per side a probe gets (sequential: the design's maximum; --fixed: doubling from --runs)",
    default: 40,
    parser: .integer(in: 2...100_000))
  static let threshold = Option(
    "--threshold", "FRACTION",
    "slower means beyond this (0.05 = 5 %); half the shift being chased keeps healthy commits clear of it",
    default: 0.05, parser: .number(in: NumberRange(greaterThan: 0, below: 10)))
  static let db = Option(
    "--db", "URL", "the history database every probe's results are recorded in",
    default: .default, parser: .historyDatabase)
  static let fixed = Flag(
    "--fixed", "probes of --runs runs a side, doubled while inconclusive, instead of sequential ones")
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
      session (camera-app built incrementally in .build/ab, cached per tree), three ways at the
      baseline gate's α = 0.01 (--threshold, 5 % by default; failed runs ranked slowest): slower
      when the gate fails it, not slower only when the ratio's upper bound is inside the threshold
      (a ratio inside it is not enough), otherwise inconclusive. Sequentially: a look every 4
      pairs, stopping at SLOWER or at SAME or FASTER (not slower: the bound held over the looks),
      UNKNOWN at --max-runs (inconclusive). With --fixed, a probe runs --runs a side and an
      inconclusive one is measured again with twice the runs, up to --max-runs. A commit that does
      not build is skipped as git bisect skip does; an inconclusive probe clears nothing: the bisect
      stops and reports the range it could not narrow. Prints the culprit, its subject, its shift with the interval and every probe;
      records every probe's results in the history (--db; branch "bisect", each at its commit's
      time).
      """,
    options: [ABCommand.repo, cell, phase, fixed, runs, maxRuns, threshold, db, out] + passedThrough,
    epilogue: """
      A range of n commits needs at most ⌈log₂(n + 1)⌉ probes (4 for 15 commits, 5 for 16 to 31),
      each building at most its own commit; GOOD is built once.
      exit status: 0 a culprit found, 1 nothing regressed (BAD is not slower than GOOD), only
      untestable commits were left, or GOOD could not be measured; 2 bad usage; 3 a probe stayed
      inconclusive at --max-runs (the range it could not narrow is reported); 130 interrupted
      (finished probes are kept in the history and OUT/bisect.json)
      """)

  /// Reads the command line: two revisions and the options; nothing touches the machine.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.count == 2 else {
      throw UsageError("wants two git revisions, GOOD and BAD (got \(parsed.positional.count) arguments)")
    }
    let database = try parsed.value(db)
    let cellName = try parsed.value(cell)
    let parts = cellName.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2, let condition = LaunchCondition(rawValue: parts[0]),
      let config = LaunchConfiguration(rawValue: parts[1])
    else {
      throw UsageError("--cell wants CONDITION/CONFIG of bench's (warm/deferred), not \(cellName)")
    }
    let first = try parsed.value(runs)
    let most = try parsed.value(maxRuns)
    guard most >= first else { throw UsageError("--max-runs \(most) is below --runs \(first)") }
    // `bench`'s own reading of the options passed through, as `bench ab` reads its own.
    var given: [String] = []
    for option in passedThrough {
      if let value = parsed.values[option.name] { given.append("\(option.name)=\(value)") }
      if parsed.flags.contains(option.name) { given.append(option.name) }
    }
    var probe = try RunCommand.options(from: try RunCommand.spec.parse(given))
    probe.settings.conditions = [condition]
    probe.settings.configs = [config]
    probe.configsGiven = true
    var options = Options(
      revisions: (parsed.positional[0], parsed.positional[1]), repo: try parsed.value(ABCommand.repo),
      condition: parts[0],
      config: parts[1], phase: try parsed.value(phase), runs: first, maxRuns: most,
      threshold: try parsed.value(threshold),
      database: database,
      out: try parsed.value(out),
      quiet: parsed.flags.contains("--quiet"), probe: probe)
    options.fixed = parsed.isSet(fixed)
    return options
  }

  /// Bisects (``Bisection``) and prints the culprit and the evidence.
  /// - Throws: `UsageError` for revisions that cannot be bisected, a database that cannot be
  ///   opened, or `bench ab`'s options that it refuses.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    try Bisection.prepare(options, build: nil).run(output: &output, errors: &errors)
  }
}
