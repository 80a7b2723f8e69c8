#if canImport(Glibc)
  import Glibc
#endif
import AppBuilds
import HistoryAnalysis
import BenchHistory
import BenchKit
import Foundation
import ResultsSchema

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

  /// Measures the commit at `index` against GOOD: one interleaved session with `--runs` runs per
  /// side; while the gate reads inconclusive, another with twice the runs, up to `--max-runs`.
  /// Every session's results are recorded in the history.
  func probe(_ index: Int, errors: inout some TextOutputStream) -> ProbeResult {
    let commit = range[index]
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
  /// builder and interrupt flag), decided by the baseline gate.
  func session(_ commit: RangeCommit, runs: Int, errors: inout some TextOutputStream) -> ProbeResult {
    sessions += 1
    let folder = out + String(format: "/%02d-", sessions) + commit.commit.prefix(12) + "-r\(runs)"
    let arguments = Self.abArguments(
      options, repository: repository, good: good, commit: commit.commit, runs: runs, folder: folder)
    let status: Int32
    do throws(UsageError) {
      // GOOD was resolved once, at the start; the commit is checked here (no camera-app: untestable).
      let probed = try builder.resolve(commit.commit)
      guard var options = try ABCommand.parse(arguments) else { return .interrupted }
      options.resolved = (good, probed)
      var job = try options.prepare()
      job.builder = builder
      var comparison = ""
      status = try BenchPipeline.run(job, interrupt: interrupt, output: &comparison, errors: &errors)
    } catch {
      // A commit bench ab refuses (no camera-app; the checkout's HEAD with uncommitted changes):
      // not measurable.
      return .measured(
        BisectProbe(commit: commit.commit, subject: commit.subject, verdict: .untestable, note: error.message)
      )
    }
    if status == 130 || interrupt.isSet { return .interrupted }
    guard let a = try? ResultsFile.load(path: folder + "/A/results.json", timelines: .none),
      let b = try? ResultsFile.load(path: folder + "/B/results.json", timelines: .none)
    else {
      if access(builder.cachedBinary(good.commit), X_OK) != 0 {
        return .goodFailed("camera-app at GOOD \(good.shortCommit) did not build (exit \(status); see above)")
      }
      if access(builder.cachedBinary(commit.commit), X_OK) != 0 {
        return .measured(
          BisectProbe(
            commit: commit.commit, subject: commit.subject, verdict: .untestable,
            note: "camera-app did not build (skipped, as git bisect skip)"))
      }
      return .goodFailed("the session in \(folder) wrote no results (exit \(status))")
    }
    record(a, commit: good.commit, time: builder.commitTime(good), errors: &errors)
    record(b, commit: commit.commit, time: commit.time, errors: &errors)
    guard
      let outcome = BisectProbe.verdict(
        good: a, probe: b, condition: options.condition, config: options.config, phase: options.phase,
        threshold: options.threshold)
    else {
      return .measured(
        BisectProbe(
          commit: commit.commit, subject: commit.subject, verdict: .inconclusive, runs: runs, folder: folder,
          note: "the gate checked no \(options.phase) of \(options.config)/\(options.condition)"))
    }
    return .measured(
      BisectProbe(
        commit: commit.commit, subject: commit.subject, verdict: BisectProbe.reading(outcome.status),
        ratio: outcome.ratio, ci95: outcome.ci95, pValue: outcome.pValue, runs: runs, folder: folder,
        note: outcome.line))
  }

  /// Records one side's results in the history, as `commit` on branch `bisect` at `time` (the
  /// commit's time, so that a series stays in the order of the code's history); a failure is
  /// said on `errors` and the bisect goes on.
  func record(_ results: BenchResults, commit: String, time: String?, errors: inout some TextOutputStream) {
    let benchmark = HistoryBenchmark(
      results: results, commit: commit, branch: "bisect", time: time.flatMap(HistoryTime.normalize))
    do throws(HistoryError) {
      _ = try store.record(benchmark)
    } catch {
      errors.write("bench bisect: not recorded in the history: \(UsageError.oneLine(error.description))\n")
    }
  }
}
