import AppBuilds
import HistoryAnalysis
import BenchHistory
import BenchKit
import Foundation
import Gates
import ResultsSchema
import RunAnalysis
import CommandLineKit

extension Bisection {
  /// What measuring one commit came to.
  enum ProbeResult {
    /// A verdict (slower, not slower, inconclusive after `--max-runs`, untestable).
    case measured(BisectProbe)
    /// GOOD could not be measured: no probe can be.
    case goodFailed(String)
    /// A signal stopped the session.
    case interrupted
  }

  /// Measures the commit at `index` against GOOD: one interleaved sequential session of at most
  /// `--max-runs` runs per side that stops when its verdict is clear; with `--fixed`, one with
  /// `--runs` runs per side and, while the gate reads inconclusive, another with twice the runs,
  /// up to `--max-runs`. Every session's results are recorded in the history.
  func probe(_ index: Int, errors: inout some TextOutputStream) -> ProbeResult {
    let commit = range[index]
    guard options.fixed else { return session(commit, runs: options.maxRuns, errors: &errors) }
    var runs = options.runs
    while true {
      let result = session(commit, runs: runs, errors: &errors)
      guard case .measured(let found) = result, found.verdict == .inconclusive, runs < options.maxRuns else {
        return result
      }
      if !options.quiet {
        errors.write(
          "bench bisect: \(found.line); inconclusive with \(runs) runs per side: again with \(min(options.maxRuns, 2 * runs))\n"
        )
      }
      runs = min(options.maxRuns, 2 * runs)
    }
  }

  /// One `bench ab` session of GOOD against `commit` (``BenchPipeline`` with this bisect's
  /// builder and interrupt flag), decided by the baseline gate from the results it returns.
  func session(_ commit: RangeCommit, runs: Int, errors: inout some TextOutputStream) -> ProbeResult {
    sessions += 1
    let folder = out + String(format: "/%02d-", sessions) + commit.commit.prefix(12) + "-r\(runs)"
    let outcome: BenchOutcome
    do throws(UsageError) {
      // GOOD was resolved once, at the start; the commit is checked here (no camera-app: untestable).
      let probed = try builder.resolve(commit.commit)
      var job = try abOptions(probed: probed, runs: runs, folder: folder).prepare()
      job.builder = builder
      var comparison = ""
      outcome = try BenchPipeline.run(job, interrupt: interrupt, output: &comparison, errors: &errors)
    } catch {
      // A commit bench ab refuses (no camera-app; the checkout's HEAD with uncommitted changes):
      // not measurable.
      return .measured(
        BisectProbe(commit: commit.commit, subject: commit.subject, verdict: .untestable, note: error.message)
      )
    }
    if interrupt.isSet { return .interrupted }
    let a: BenchResults
    let b: BenchResults
    switch outcome {
    case .stopped: return .interrupted
    case .notBuilt(let side, _) where side == 0:
      return .goodFailed(
        "camera-app at GOOD \(good.shortCommit) did not build (exit \(outcome.exitStatus); see above)")
    case .notBuilt:
      return .measured(
        BisectProbe(
          commit: commit.commit, subject: commit.subject, verdict: .untestable,
          note: "camera-app did not build (skipped, as git bisect skip)"))
    case .failed:
      return .goodFailed("the session in \(folder) wrote no results (exit \(outcome.exitStatus))")
    case .measured(let results, let status):
      if status == 130 { return .interrupted }
      guard results.count == 2, let resultsA = results[0], let resultsB = results[1] else {
        return .goodFailed("the session in \(folder) wrote no results (exit \(status))")
      }
      (a, b) = (resultsA, resultsB)
    }
    record(a, commit: good.commit, time: builder.commitTime(good), errors: &errors)
    record(b, commit: commit.commit, time: commit.time, errors: &errors)
    let design = b.settings.sequential
    let decided = design?.cells.first { $0.cell == "\(options.config)/\(options.condition)" }
    guard
      let read = BisectProbe.verdict(
        good: a, probe: b, condition: options.condition, config: options.config, phase: options.phase,
        threshold: options.threshold)
    else {
      return .measured(
        BisectProbe(
          commit: commit.commit, subject: commit.subject, verdict: .inconclusive, runs: runs, folder: folder,
          note: "the gate checked no \(options.phase) of \(options.config)/\(options.condition)"))
    }
    let gate = read.outcome
    if let design, let decided {
      return .measured(
        sequential(commit, design: design, decided: decided, sides: (a, b), gate: gate, folder: folder))
    }
    return .measured(
      BisectProbe(
        commit: commit.commit, subject: commit.subject, verdict: read.verdict,
        ratio: gate.ratio, ci95: gate.ci95, upperBound: read.upperBound, pValue: gate.pValue,
        runs: runs, folder: folder, note: gate.line))
  }

  /// A sequential probe's record: the verdict is the design's
  /// (``Gate/bisectDesign(threshold:maximumRuns:alpha:)``: SAME is the ratio's upper bound inside
  /// the threshold at α over the looks), at the look it stopped; the gate's numbers and the upper
  /// bound at that look's SAME bound are read on the same runs, for the evidence.
  func sequential(
    _ commit: RangeCommit, design: BenchResults.SequentialAB, decided: BenchResults.SequentialAB.Cell,
    sides: (BenchResults, BenchResults), gate: GateOutcome, folder: String
  ) -> BisectProbe {
    // A bound the design never crosses (none spent at that look) is recorded as nil: +∞.
    let look = min(max(decided.look, 1), design.equivalenceBounds.count) - 1
    let bound =
      design.equivalenceBounds.indices.contains(look)
      ? BisectProbe.upperBound(
        reference: samples(sides.0), new: samples(sides.1), z: design.equivalenceBounds[look] ?? .infinity)
      : nil
    return BisectProbe(
      commit: commit.commit, subject: commit.subject, verdict: Self.reading(decided.verdict),
      ratio: gate.ratio, ci95: gate.ci95, upperBound: bound, pValue: gate.pValue,
      runs: decided.runsPerSide, folder: folder,
      note: "\(decided.verdict) at look \(decided.look) (\(decided.runsPerSide) runs a side); \(gate.line)")
  }

  /// The bisected cell's phase in `results`, a failed run `+∞` (the samples the gate read).
  func samples(_ results: BenchResults) -> [Double] {
    results.cells.first { $0.condition == options.condition && $0.config == options.config }?
      .rankedSamples(for: options.phase) ?? []
  }

  /// A sequential verdict as bisect reads it: SLOWER is slower, SAME (the ratio's upper bound
  /// inside the threshold at α) and FASTER not slower, UNKNOWN (no bound crossed at `--max-runs`)
  /// inconclusive: undecided, so not cleared.
  static func reading(_ verdict: String) -> BisectVerdict {
    switch SequentialVerdict(rawValue: verdict) {
    case .slower: .slower
    case .same, .faster: .notSlower
    case .unknown, nil: .inconclusive
    }
  }

  /// Records one side's results in the history, as `commit` on branch `bisect` at `time` (the
  /// commit's time, so that a series stays in the order of the code's history); a failure is
  /// said on `errors` and the bisect goes on.
  func record(_ results: BenchResults, commit: String, time: String?, errors: inout some TextOutputStream) {
    let benchmark = HistoryBenchmark(
      results: results, commit: commit, branch: HistoryQuery.bisectBranch,
      time: time.flatMap(HistoryTime.normalize))
    do throws(HistoryError) {
      _ = try store.record(benchmark)
    } catch {
      errors.write("bench bisect: not recorded in the history: \(UsageError.oneLine(error.description))\n")
    }
  }
}
