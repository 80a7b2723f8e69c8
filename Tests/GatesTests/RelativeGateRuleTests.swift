import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing

/// The relative gates' decision rule (GateDefinitions): a NaN or missing ratio fails, a gate whose
/// cells were not run fails unless it is marked optional, and a bootstrap that refused cannot let
/// a violated bound pass as "inconclusive".
@Suite struct RelativeGateRuleTests {
  static let gatesJSON = """
    { "schema": "firstframe.gates/1", "relative": [
      { "name": "required", "phase": "first_frame_observed", "condition": "cold",
        "numerator": "deferred", "denominator": "preview-only", "max_ratio": 1.1 },
      { "name": "optional", "phase": "first_frame_observed", "condition": "cold",
        "numerator": "deferred", "denominator": "preview-only", "max_ratio": 1.1, "optional": true },
      { "name": "at least", "phase": "first_frame_observed", "condition": "cold",
        "numerator": "eager", "denominator": "deferred", "min_ratio": 1.8 } ] }
    """

  func gates() throws -> [GateDefinitions.RelativeGate] {
    try #require(try JSONDecoder().decode(GateDefinitions.self, from: Data(Self.gatesJSON.utf8)).relative)
  }

  /// Sets the cold cell's `first_frame_observed` samples, in its summary and, when it has as
  /// many runs, in its run records (whichever the gate reads).
  func setSamples(_ r: inout BenchResults, config: String, _ samples: [Double]) {
    let i = r.cells.firstIndex { $0.config == config && $0.condition == "cold" }!
    r.cells[i].setSamples(samples, for: PhaseName.firstFrameObserved)
  }

  @Test("a gate whose cells were not run fails, named as such, unless the gates file marks it optional")
  func missingCells() throws {
    let results = SyntheticResults.make(conditions: ["cold"], runs: 8)
    let out = Gate.checkRelative(try gates(), results: results)
    let required = try #require(out.first { $0.name == "required" })
    #expect(required.status == .fail)
    #expect(required.message.contains("no preview-only cell in cold"))
    #expect(out.first { $0.name == "optional" }?.status == .skipped)
    #expect(out.first { $0.name == "at least" }?.status == .pass)
  }

  @Test("a NaN ratio (0 ms over 0 ms) fails for a lower and an upper bound")
  func nanRatioFails() throws {
    var r = SyntheticResults.make(
      configs: ["deferred", "eager", "preview-only"], conditions: ["cold"], runs: 8)
    for config in ["deferred", "eager", "preview-only"] {
      setSamples(&r, config: config, [Double](repeating: 0, count: 8))
    }
    let out = Gate.checkRelative(try gates(), results: r)
    #expect(out.count == 3)
    for outcome in out {
      #expect(outcome.status == .fail, "\(outcome.line)")
      #expect(outcome.message.contains("no finite ratio"), "\(outcome.line)")
    }
  }

  @Test("an infinite ratio (a 0 ms denominator) fails an upper bound")
  func infiniteRatioFails() throws {
    var r = SyntheticResults.make(
      configs: ["deferred", "eager", "preview-only"], conditions: ["cold"], runs: 8)
    setSamples(&r, config: "preview-only", [Double](repeating: 0, count: 8))
    let out = Gate.checkRelative(try gates(), results: r)
    #expect(out.first { $0.name == "required" }?.status == .fail)
  }

  @Test("a violated bound whose bootstrap refused fails instead of reading inconclusive")
  func refusedBootstrapFails() throws {
    // deferred/preview-only: medians 70.9 / 61.5 = 1.15 > 1.1, but 8 of 20 preview-only runs took
    // 0 ms, so about one resample in eight has a zero median: the bootstrap refuses. (Without the
    // refusal, the interval of the remaining resamples includes 1.1: "inconclusive".)
    var r = SyntheticResults.make(
      configs: ["deferred", "eager", "preview-only"], conditions: ["cold"], runs: 20)
    setSamples(&r, config: "deferred", (0..<20).map { 68 + Double($0) * 0.3 })
    setSamples(
      &r, config: "preview-only", [Double](repeating: 0, count: 8) + (0..<12).map { 60 + Double($0) })
    let out = Gate.checkRelative(try gates(), results: r)
    let required = try #require(out.first { $0.name == "required" })
    #expect(required.status == .fail, "\(required.line)")
    #expect(required.message.contains("refused"), "\(required.line)")
  }

  @Test("eager/deferred 1.7 from 3 noisy runs against min 1.8 is inconclusive, and fails the gate by default")
  func inconclusiveFails() throws {
    var r = SyntheticResults.make(configs: ["deferred", "eager"], conditions: ["cold"], runs: 3)
    setSamples(&r, config: "deferred", [230, 250, 300])
    setSamples(&r, config: "eager", [380, 425, 520])  // medians 425 / 250 = 1.7
    let out = Gate.checkRelative(try gates().filter { $0.name == "at least" }, results: r)
    let check = try #require(out.first)
    #expect(check.status == .inconclusive, "\(check.line)")
    #expect(check.message.contains("more runs would decide"))
    let report = GateReport(outcomes: out)
    #expect(!report.passed)
    #expect(report.failures.map(\.name) == ["at least"])
    #expect(MarkdownReport.gateSection(report).contains("## Gate: ❌ 1 failed check"))
    var lenient = report
    lenient.inconclusive = .pass
    #expect(lenient.passed)
  }
}
