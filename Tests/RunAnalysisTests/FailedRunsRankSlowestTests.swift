import Gates
import LaunchContract
import ResultsSchema
import RunAnalysis
import TestSupport
import Testing

/// Every failed run ranks after every finished run, whatever its failure (issue 37 item 4): a run
/// that failed after recording its first frame — a forged light board, a low-power run whose cap
/// did not take effect, a hot run that was not soaked — measured something other than the cell's
/// launch, and its often faster time must not make the cell look faster.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct FailedRunsRankSlowestTests {
  /// The failures that leave a first frame behind, by the run (0-based) they befall.
  static let failures: [(run: Int, error: String)] = [
    (1, "forged light board: capture time 4.2 ms after its scanout"),
    (4, "cgroup-v1-quota: cpu.cfs_quota_us read back -1, not 50000"),
    (7, "hot: the soak's burners did not start; the launch was not soaked"),
  ]

  /// `deferred/warm` with `RankedSamplesTests.clean`'s ten runs, the three of `failures` failed
  /// with a first frame of 40-60 ms: faster than every finished run.
  static func results() -> BenchResults {
    var results = SyntheticResults.explicit(
      [.init(config: "deferred", condition: "warm", firstFrames: RankedSamplesTests.clean)])
    for (i, failure) in failures.enumerated() {
      var record = results.cells[0].records[failure.run]
      record.ok = false
      record.error = failure.error
      record.phases[PhaseName.firstFrameObserved] = 40 + 10 * Double(i)
      results.cells[0].records[failure.run] = record
    }
    results.cells[0].records[1].counts[.forgedBoards] = 1
    results.cells[0].records[4].lowPower = .init(
      method: "cgroup-v1-quota", verified: false, reason: failures[1].error)
    results.cells[0].failed = failures.count
    return results
  }

  @Test("forged-board, uncapped low-power and unsoaked hot runs faster than every good run rank slowest")
  func failedRunsRankSlowest() throws {
    let cell = try #require(Self.results().cells.first)
    let ranked = cell.rankedSamples(for: PhaseName.firstFrameObserved)
    #expect(ranked.count == 10)
    for failure in Self.failures {
      #expect(ranked[failure.run] == .infinity, "\(failure.error): \(ranked)")
    }
    let finished = ranked.filter(\.isFinite)
    #expect(finished.count == 7 && finished.allSatisfy { $0 >= 97 }, "\(ranked)")
    let slowest = try #require(cell.rankedPercentiles(for: PhaseName.firstFrameObserved, [0, 1]))
    #expect(slowest == [97, .infinity], "\(slowest)")
  }

  @Test("the comparison with a clean baseline does not find them faster")
  func notFaster() throws {
    let comparison = try #require(
      Comparator.compare(RankedSamplesTests.results(RankedSamplesTests.clean), Self.results()).first {
        $0.phase == PhaseName.firstFrameObserved
      })
    #expect(comparison.result.verdict != .faster, "\(comparison.result)")
    #expect(comparison.result.newMedian > comparison.result.referenceMedian, "\(comparison.result)")
  }
}
