import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing

/// `bench power --relative` (issue 37, item 1): the relative gates measured as bench gate decides
/// them, at CI's 3 runs a cell — how often a healthy build fails, and how far toward the bound a
/// ratio must move before the gate fails it.
@Suite struct RelativeGatePowerTests {
  /// Cold cells with a small spread (±0.2 %) around `medians` (config → ms).
  static func results(_ medians: [String: Double], runs: Int = 30) -> BenchResults {
    var r = SyntheticResults.make(configs: medians.keys.sorted(), conditions: ["cold"], runs: runs)
    for (config, median) in medians {
      let i = r.cells.firstIndex { $0.config == config }!
      let samples = (0..<runs).map { median * (1 + 0.002 * (Double($0 % 5) - 2) / 2) }
      r.cells[i].setSamples(samples, for: PhaseName.firstFrameObserved)
    }
    return r
  }

  func gates() throws -> [GateDefinitions.RelativeGate] {
    try #require(
      try JSONDecoder().decode(GateDefinitions.self, from: Data(RelativeGateRuleTests.gatesJSON.utf8))
        .relative)
  }

  @Test(
    "a ratio 11 % above its floor never fails a healthy build and fails from +15 %; a ratio 2 % under its ceiling fails from +10 %"
  )
  func reach() throws {
    // eager/deferred = 2.0 against ≥ 1.8; deferred/preview-only = 1.02 against ≤ 1.1.
    let r = Self.results(["eager": 2000, "deferred": 1000, "preview-only": 980.4])
    let report = RelativeGatePower.measure(r, gates: try gates(), runsPerCell: 3, comparisons: 40)
    let floor = try #require(report.gates.first { $0.gate == "at least" })
    let ceiling = try #require(report.gates.first { $0.gate == "required" })
    #expect(abs(floor.recordedRatio - 2.0) < 0.01)
    #expect(floor.shifts.first { $0.shift == 0 }?.failures == 0)
    #expect(floor.shifts.first { $0.shift == 0.10 }?.failures == 0)  // 1.82: still above 1.8
    #expect(floor.shifts.first { $0.shift == 0.15 }?.failures == 40)  // 1.74
    #expect(ceiling.shifts.first { $0.shift == 0.05 }?.failures == 0)  // 1.071
    #expect(ceiling.shifts.first { $0.shift == 0.10 }?.failures == 40)  // 1.122
    #expect(report.familyFalseAlarms == 0)
    // 40 of 40 shows ≥ 92.8 % only (95 % lower bound): not "caught in ≥ 95 %"; 200 of 200 does.
    #expect(floor.smallestShiftCaught == nil)
    let more = RelativeGatePower.measure(r, gates: try gates(), runsPerCell: 3, comparisons: 200)
    #expect(more.gates.first { $0.gate == "at least" }?.smallestShiftCaught == 0.15)
    #expect(more.gates.first { $0.gate == "required" }?.smallestShiftCaught == 0.10)
    let text = RelativePowerTable.text(more, source: "r.json")
    #expect(text.contains("caught in ≥ 95 % (lower bound) from +15 %"))
    #expect(text.contains("a healthy build fails in 0 of 200"))
  }

  @Test(
    "a gate whose ratio sits at its bound fails healthy builds; cells with fewer runs than drawn are named")
  func atTheBound() throws {
    // deferred/preview-only = 1.1 exactly at 3 runs: the bootstrap CI straddles the bound, inconclusive.
    var r = Self.results(["deferred": 1100, "preview-only": 1000])
    let i = r.cells.firstIndex { $0.config == "deferred" }!
    let spread: [Double] = (0..<30).map { k in
      let step = Double(k % 7) - 3
      return 1100 * (1 + 0.05 * step / 3)
    }
    r.cells[i].setSamples(spread, for: PhaseName.firstFrameObserved)
    let report = RelativeGatePower.measure(r, gates: try gates(), runsPerCell: 3, comparisons: 100)
    let ceiling = try #require(report.gates.first { $0.gate == "required" })
    let aa = try #require(ceiling.shifts.first { $0.shift == 0 })
    #expect(aa.failures > 20, "\(aa)")  // inconclusive counts as failing, as in CI
    let passing = RelativeGatePower.measure(
      r, gates: try gates(), runsPerCell: 3, comparisons: 100, inconclusive: .pass)
    let lenient = try #require(passing.gates.first { $0.gate == "required" }?.shifts.first { $0.shift == 0 })
    #expect(lenient.failures < aa.failures)
    #expect(report.skipped.contains { $0.contains("at least") && $0.contains("no eager or deferred cell") })
    let few = RelativeGatePower.measure(r, gates: try gates(), runsPerCell: 31, comparisons: 10)
    #expect(few.gates.isEmpty && few.skipped.contains { $0.contains("fewer than 31") })
  }
}
