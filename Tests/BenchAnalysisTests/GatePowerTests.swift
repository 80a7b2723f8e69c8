import BenchAnalysis
import LaunchContract
import Testing
import TestSupport

@Suite struct GatePowerTests {
  static let results = SyntheticResults.make(
    configs: ["deferred", "eager"], conditions: ["cold", "warm"], seed: 11, runs: 40)

  @Test("A/A splits of one distribution raise few false alarms, and a 20 % slowdown is nearly always caught")
  func falseAlarmsAndPower() {
    let r = GatePower.measure(Self.results, comparisonsPerCell: 100)
    #expect(r.cells.count == 4)
    #expect(r.aaComparisons == 400)
    #expect(r.falseAlarmRate <= 0.01, "\(r.aaFalseAlarms) false alarms")
    #expect((r.caughtRate(at: 0.20) ?? 0) >= 0.95)
    // A slowdown well below the 5 % threshold is rarely flagged: the medians must differ by 5 %.
    #expect((r.caughtRate(at: 0.01) ?? 1) <= 0.02)
    #expect((r.caughtRate(at: 0.03) ?? 1) < (r.caughtRate(at: 0.10) ?? 0))
    #expect((r.caughtRate(at: 0.15) ?? 0) >= (r.caughtRate(at: 0.08) ?? 1))
    let smallest = r.smallestShiftCaught()
    #expect(smallest != nil && smallest! > 0.05 && smallest! <= 0.20)
  }

  @Test("the measurement is reproducible from its seed; cells with too few runs are skipped, with the reason")
  func seededAndSkipped() {
    let a = GatePower.measure(Self.results, comparisonsPerCell: 20, shifts: [0.1])
    let b = GatePower.measure(Self.results, comparisonsPerCell: 20, shifts: [0.1])
    #expect(a == b)
    let few = GatePower.measure(SyntheticResults.make(runs: 30), comparisonsPerCell: 5, shifts: [0.1])
    #expect(few.cells.isEmpty)
    #expect(few.skipped.count == 8 && few.skipped.allSatisfy { $0.contains("30 ok runs") })
  }

  @Test("the table states each goal and whether it was met")
  func table() {
    let r = GatePower.measure(Self.results, comparisonsPerCell: 60)
    let text = GatePowerTable.text(r, source: "r.json")
    #expect(text.contains("false alarms: "))
    #expect(text.contains("goal ≤ 1 % over ≥ 200: met"))
    #expect(text.contains("smallest shift caught in ≥ 95 % of comparisons in every cell:"))
  }
}
