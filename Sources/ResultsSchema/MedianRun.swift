import LaunchContract
import Sampling

/// Picks the run that represents a cell: the ok run whose `first_frame_observed` is closest to the
/// cell's median (the earlier run on a tie); the first ok run when no run has that phase.
/// The plot's timeline and `trace.json` show this run.
public enum MedianRun {
  /// The representative run of `cell`, or nil when no run succeeded.
  public static func pick(_ cell: BenchResults.Cell) -> BenchResults.RunRecord? {
    let ok = cell.records.filter(\.ok)
    let measured = ok.filter { $0.phases[PhaseName.firstFrameObserved] != nil }
    guard !measured.isEmpty else { return ok.first }
    let median = Percentile.type7(
      sorted: measured.map { $0.phases[PhaseName.firstFrameObserved]! }.sorted(), 0.5)
    return measured.min { l, r in
      let dl = abs(l.phases[PhaseName.firstFrameObserved]! - median)
      let dr = abs(r.phases[PhaseName.firstFrameObserved]! - median)
      return dl != dr ? dl < dr : l.run < r.run
    }
  }
}
