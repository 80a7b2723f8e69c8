import LaunchContract
import ResultsSchema
import RunAnalysis
import Statistics

extension Comparator {
  /// The headline lines for the configuration pairs (in `withinRunComparisons`' order) where the
  /// median run of one or both did not reach the first frame within the run timeout, failed runs
  /// ranked after every finished run: "deferred reaches the first frame in 250.1 ms (median);
  /// eager's median run did not reach it within the run timeout (10 s) (cold)". Such a pair has no
  /// ratio to store, so `withinRunComparisons` leaves it out and this says it instead.
  public static func timeoutHeadlines(_ results: BenchResults) -> [String] {
    let phase = PhaseName.firstFrameObserved
    let timeout = "the run timeout (\(NumberFormat.seconds(results.settings.runTimeoutSeconds)))"
    let cells = results.orderedCells
    var lines: [String] = []
    for (i, a) in cells.enumerated() {
      for b in cells[(i + 1)...] where b.condition == a.condition && b.camera == a.camera {
        let (sa, sb) = (a.rankedSamples(for: phase), b.rankedSamples(for: phase))
        guard !sa.isEmpty, !sb.isEmpty else { continue }
        let (ma, mb) = (Statistics.median(sa), Statistics.median(sb))
        switch (ma.isFinite, mb.isFinite) {
        case (true, true):
          continue
        case (false, false):
          lines.append(
            "neither \(a.config)'s nor \(b.config)'s median run reached the first frame within \(timeout)"
              + " (\(a.condition))")
        default:
          let (done, late, median) = ma.isFinite ? (a, b, ma) : (b, a, mb)
          lines.append(
            "\(done.config) reaches the first frame in \(NumberFormat.ms(median)) ms (median); \(late.config)'s median"
              + " run did not reach it within \(timeout) (\(a.condition))")
        }
      }
    }
    return lines
  }
}
