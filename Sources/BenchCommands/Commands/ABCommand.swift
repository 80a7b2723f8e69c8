import AppBuilds
import BenchKit
import Gates

/// `bench ab REV_A REV_B`: code against code on one machine in one run. Builds camera-app at
/// two git revisions (``RevisionBuilder``) and runs both, interleaved run by run
/// (``ABSession``), into one results folder: `A/results.json` and `B/results.json` are ordinary
/// results files with the same cells, so `bench compare` and `bench gate --baseline` read
/// "B vs A" for every configuration and condition.
package enum ABCommand: Command {
  /// The command line, parsed (``ABOptions``).
  package typealias Options = ABOptions
  /// `bench ab`'s benchmark, prepared (``ABJob``).
  package typealias Run = ABJob

  static let repo = Option<String?>(
    "--repo", "DIR", "the FirstFrame git repository to build the revisions from", shownAs: "this package",
    parser: .folderName)

  // `bench`'s --out, read by `bench`'s parser; the folder gets A/ and B/ and is not Results/latest.
  static let out = Option<String?>(
    "--out", "DIR", "results folder (A/, B/, comparison.txt)", shownAs: "Results/<UTC timestamp>",
    parser: .folderName)

  // `bench`'s --profile, read by `bench`'s parser; without it both sides run REV_A's default.
  static let profile = Option<String?>(
    "--profile", "FILE", "the one cost profile both revisions' synthetic camera runs",
    shownAs: "REV_A's Benchmarks/profiles/default.json, as OUT/profile.json", parser: .fileName)

  static let sequential = Flag(
    "--sequential",
    "stop each cell as soon as its verdict is clear: a look every 4 pairs, SLOWER, FASTER, SAME or UNKNOWN (the default)"
  )
  static let fixed = Flag("--fixed", "run every cell --runs runs a side and decide nothing (before issue 39)")

  /// The options `bench ab` shares with `bench`: all but `--app` (the revisions name the app),
  /// `--inject-delay-ms` (it would delay both sides alike) and `--format`.
  static let shared: [any CommandLineOption] = [
    RunCommand.runs, RunCommand.warmup, RunCommand.conditions, RunCommand.configs, RunCommand.outputs,
    RunCommand.camera, profile, RunCommand.display, RunCommand.x11Read, RunCommand.refreshHz,
    RunCommand.lockSeconds, RunCommand.runTimeout, RunCommand.noTap, RunCommand.appUser, out,
    RunCommand.overwrite,
    RunCommand.quiet,
  ]

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench ab", synopsis: "REV_A REV_B [options]",
    summary: """
      Measures two revisions of camera-app against each other on this machine, in one run: builds
      camera-app at each git revision (release, as bench builds it; in a worktree under
      .build/ab, one cached binary per source tree), then runs both under every condition and
      configuration, interleaved run by run (A B, then B A, …) so that machine drift hits both
      alike. Both run the same simulated hardware: one cost profile (--profile, else REV_A's
      default profile, copied to OUT/profile.json), recorded in both results with whether the
      simulated camera's sources differ between the revisions (then the comparison and the gate
      say so). The results folder holds A/results.json and B/results.json (ordinary results, same
      cells) and comparison.txt; gate B against A with
      bench gate --baseline OUT/A/results.json OUT/B/results.json.
      """,
    options: [repo, sequential, fixed] + shared,
    epilogue: """
      REV_A is the reference, REV_B the new one: any git revision (HEAD~1, origin/main, v0.1.0, a hash).
      Sequential (the default): each cell's first frame is decided every 4 interleaved pairs by a
      group-sequential rank test (α = 0.01 over all the looks and all the cells, each of the k
      cells, conditions × configurations, spending α/k; β = 0.05 a cell, threshold 5 %, powered
      for 10 %, Pocock-type spending) and the cell stops at SLOWER, FASTER or SAME; UNKNOWN at the
      most runs. --runs N is then the most runs a side, rounded up to whole looks (default 36, 9
      looks). The verdicts, the looks and the runs used are printed and recorded in both results
      (settings.sequential). --fixed runs every cell --runs runs a side (default 20) as before.
      exit status: 0 ok, 1 a build or runs failed or a cell SLOWER, 2 bad usage (an unknown revision, one without
      camera-app, HEAD with uncommitted changes, no --profile and REV_A without a default profile
      that parses), 130 interrupted
      """)

  /// Reads the command line: two revisions, then `bench`'s options, read as `bench` reads them.
  /// Nothing here touches the machine; ``Options/prepare()`` does, in the pipeline.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.count == 2 else {
      throw UsageError("wants two git revisions, REV_A and REV_B (got \(parsed.positional.count) arguments)")
    }
    // `bench`'s own reading of the shared options, without the revisions.
    let rest = try RunCommand.spec.parse(
      parsed.values.filter { $0.key != repo.name }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        + parsed.flags.subtracting([sequential.name, fixed.name]).sorted())
    var run = try RunCommand.options(from: rest)
    let design = try design(parsed, run: &run)
    return Options(
      revisions: (parsed.positional[0], parsed.positional[1]), repo: try parsed.value(repo), run: run,
      design: design)
  }

  /// The sequential design (`--sequential`, the default), at most `--runs` a side rounded up to
  /// whole looks (then `run`'s runs are that maximum), or 36, its α split over the run's cells
  /// (conditions × configurations); nil with `--fixed`.
  /// - Throws: `UsageError` when both are given.
  static func design(_ parsed: ParsedOptions, run: inout RunOptions) throws(UsageError) -> SequentialDesign? {
    if parsed.isSet(fixed) {
      guard !parsed.isSet(sequential) else {
        throw UsageError("--sequential and --fixed exclude each other: give one (sequential is the default)")
      }
      return nil
    }
    let given = parsed.values[RunCommand.runs.name] != nil ? run.settings.runs : nil
    let cells = run.settings.conditions.count * run.settings.configs.count
    let design = Gate.sequentialDesign(maximumRuns: given, cells: cells)
    run.settings.runs = design.maximumRuns
    return design
  }

  /// Builds both revisions, runs them interleaved, writes both results and the comparison, and
  /// prints the comparison table: the one pipeline (``BenchPipeline``) with ``Run``.
  /// - Throws: `UsageError` for a revision that cannot be used, what `bench`'s options name, or
  ///   when `A/` or `B/` is held by another bench or holds results.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    try BenchPipeline.run(options.prepare(), output: &output, errors: &errors).exitStatus
  }
}
