import Gates
import LaunchContract
import ResultsSchema
import TestSupport
import Testing

@Suite struct VerdictWordingTests {
  func comparison(ratio: Double, verdict: String, p: Double = 1e-4) -> BenchResults.Comparison {
    BenchResults.Comparison(
      phase: PhaseName.firstFrameObserved, condition: "cold", a: "deferred", b: "eager", ratioP50: ratio,
      ci95: [ratio * 0.98, ratio * 1.02], pValue: p, verdict: verdict)
  }

  @Test("a significant 4 % difference reads \"4 % sooner\", not \"1.0× sooner\"")
  func smallDifferenceInPercent() {
    #expect(
      Comparator.headline(for: comparison(ratio: 0.96, verdict: "faster"))
        == "deferred reaches the first frame 4 % sooner than eager (cold)")
    var other = comparison(ratio: 0.96, verdict: "faster")
    other.phase = PhaseName.startRunning
    #expect(
      Comparator.headline(for: other) == "deferred is 4 % faster than eager at start_running (cold)")
  }

  @Test("no verdict line between 0.5 and 2 says 1.0×, in either direction, significant or not")
  func neverOnePointZeroTimes() {
    for step in 0...150 {
      let ratio = 0.5 + Double(step) * 0.01
      for (verdict, p) in [
        (ratio < 1 ? "faster" : "slower", 1e-4), ("no significant difference", 0.3),
      ] {
        let line = Comparator.headline(for: comparison(ratio: ratio, verdict: verdict, p: p)) ?? ""
        #expect(!line.contains("1.0×"), "ratio \(ratio): \(line)")
      }
    }
  }

  @Test("from 1.5× on the factor stays: ratio 1/2.1 reads 2.1× sooner")
  func largeDifferenceAsFactor() {
    #expect(
      Comparator.headline(for: comparison(ratio: 1 / 2.1, verdict: "faster"))
        == "deferred reaches the first frame 2.1× sooner than eager (cold)")
  }
}
