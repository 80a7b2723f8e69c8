import HistoryAnalysis
import TestSupport
import Testing

/// `bench bisect`'s search on simulated commits: which to measure, what it concludes, how many
/// probes it takes.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct BisectSearchTests {
  /// Runs the search over `n` commits where the first slower one is `culprit` (nil: none) and
  /// the commits in `broken` cannot be measured; returns how it ended and the indices probed.
  func simulate(_ n: Int, culprit: Int?, broken: Set<Int> = []) -> (BisectSearch.Step, [Int]) {
    var search = BisectSearch(commits: (0..<n).map { "c\($0)" })
    var probed: [Int] = []
    while case .probe(let index) = search.next {
      #expect(!probed.contains(index), "probed \(index) twice")
      if probed.contains(index) { break }
      probed.append(index)
      let verdict: BisectVerdict =
        broken.contains(index) ? .untestable : (culprit.map { index >= $0 } ?? false) ? .slower : .notSlower
      search.record(index, verdict)
    }
    return (search.outcome ?? search.next, probed)
  }

  /// ⌈log₂(x)⌉ for x ≥ 1.
  func ceilLog2(_ x: Int) -> Int { x <= 1 ? 0 : Int.bitWidth - (x - 1).leadingZeroBitCount }

  @Test(
    "names every possible culprit, and says nothing regressed when none is, in ⌈log₂(n + 1)⌉ probes at most")
  func findsEveryCulprit() {
    for n in 1...40 {
      for culprit in Array(0..<n).map(Optional.some) + [nil] {
        let (end, probed) = simulate(n, culprit: culprit)
        if let culprit {
          #expect(end == .culprit(culprit), "n \(n), culprit \(culprit): \(end)")
          #expect(probed.contains(culprit), "the culprit's own probe read slower")
        } else {
          #expect(end == .nothingRegressed, "n \(n): \(end)")
        }
        #expect(probed.count <= ceilLog2(n + 1), "n \(n), culprit \(String(describing: culprit)): \(probed)")
      }
    }
  }

  @Test("15 commits after GOOD take at most 4 probes (5 revisions built with GOOD); 16 take at most 5")
  func buildsForSixteenRevisions() {
    let fifteen = (Array(0..<15).map(Optional.some) + [nil]).map { simulate(15, culprit: $0).1.count }
    #expect(fifteen.max() == 4)
    let sixteen = (Array(0..<16).map(Optional.some) + [nil]).map { simulate(16, culprit: $0).1.count }
    #expect(sixteen.max() == 5)
  }

  @Test("a commit that cannot be measured is skipped: the nearest other commit is probed instead")
  func skipsUntestable() {
    // Eight commits, the fourth (index 3, the first split point) does not build, the culprit is 1.
    let (end, probed) = simulate(8, culprit: 1, broken: [3])
    #expect(probed.first == 3 && probed.dropFirst().first == 2, "\(probed)")
    #expect(end == .culprit(1))
  }

  @Test("when only unmeasurable commits separate the last good one from the first slower, it names them all")
  func untestableRange() {
    // The commit before the culprit does not build: either could be the first slower one.
    let (end, _) = simulate(8, culprit: 4, broken: [3])
    #expect(end == .untestable(3...4))
    // Every commit broken, BAD included: nothing can be said, and the whole range is named.
    let (all, probed) = simulate(5, culprit: 2, broken: Set(0..<5))
    #expect(all == .untestable(0...4) && probed.count == 5)
  }

  @Test("an inconclusive probe changes nothing: the same commit is asked for again")
  func inconclusiveChangesNothing() {
    var search = BisectSearch(commits: ["a", "b", "c"])
    let first = search.next
    guard case .probe(let index) = first else {
      Issue.record("no probe: \(first)")
      return
    }
    search.record(index, .inconclusive)
    #expect(search.next == first && search.outcome == nil)
  }
}
