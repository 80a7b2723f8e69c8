import Foundation
import LaunchContract
import ResultsSchema
import Statistics
import TestSupport
import Testing
@testable import BenchCommands

/// A gate that could not decide, or compared nothing, does not pass (issue 25 item 3); with
/// `GateCommandTests`' folder and helpers.
extension GateCommandTests {
  /// A 3-run baseline and 3 runs 50 % slower: beyond the 5 % threshold, but 3 against 3 runs
  /// cannot reach p < 0.01 (the smallest possible p is 0.1), so every check is inconclusive.
  func inconclusivePair() throws -> (base: String, results: String) {
    (
      try save(SyntheticResults.make(seed: 1, runs: 3), "base3.json"),
      try save(SyntheticResults.make(seed: 2, runs: 3, scale: 1.5), "slow3.json")
    )
  }

  @Test(
    "a baseline check slower beyond its threshold but not significant fails by default, passes with --inconclusive pass"
  )
  func inconclusiveBaselineFails() throws {
    let (base, res) = try inconclusivePair()
    let (code, out, err) = gate(["--baseline", base, res])
    #expect(code == 1, "\(out)")
    #expect(err.isEmpty)
    #expect(out.contains("INCONCLUSIVE first_frame_observed deferred/cold: median"), "\(out)")
    #expect(out.contains("more runs would decide"), "\(out)")
    // The fewest equal run counts whose exact rank test can reach p < 0.01 at all.
    let needed = try #require((2...50).first { PowerAdvice.smallestPossibleP(n1: $0, n2: $0) < 0.01 })
    #expect(out.contains("at least \(needed) runs per side can"), "\(out)")
    #expect(
      out.contains("gate: FAILED") && out.contains("first_frame_observed deferred/cold (inconclusive)"),
      "\(out)")
    let (passCode, passOut, _) = gate(["--baseline", base, res, "--inconclusive", "pass"])
    #expect(passCode == 0, "\(passOut)")
    #expect(passOut.contains("gate: passed") && passOut.contains("8 inconclusive"), "\(passOut)")
  }

  @Test("JUnit shows an inconclusive check as a failure under --inconclusive fail, as skipped under pass")
  func inconclusiveJUnit() throws {
    let (base, res) = try inconclusivePair()
    let failPath = dir + "/inconclusive-fail.xml"
    let passPath = dir + "/inconclusive-pass.xml"
    _ = gate(["--baseline", base, res, "--junit", failPath])
    _ = gate(["--baseline", base, res, "--junit", passPath, "--inconclusive", "pass"])
    let failing = try String(contentsOfFile: failPath, encoding: .utf8)
    let passing = try String(contentsOfFile: passPath, encoding: .utf8)
    #expect(failing.contains("<failure message=\"inconclusive: median"), "\(failing)")
    #expect(failing.contains("type=\"inconclusive\""))
    #expect(!failing.contains("<skipped message=\"inconclusive"))
    #expect(passing.contains("<skipped message=\"inconclusive: median"), "\(passing)")
    #expect(!passing.contains("<failure"))
  }

  @Test(
    "a cell on one side only fails, named; --optional-cells and baseline.optional_cells skip it with the reason"
  )
  func missingCellFails() throws {
    // One seed: the cells both files have hold the same samples, so only the missing ones decide.
    let base = try save(SyntheticResults.make(conditions: ["cold", "warm"], seed: 1), "base.json")
    let res = try save(SyntheticResults.make(conditions: ["cold", "warm", "loaded"], seed: 1), "res.json")
    let (code, out, _) = gate(["--baseline", base, res])
    #expect(code == 1, "\(out)")
    #expect(
      out.contains("FAIL first_frame_observed deferred/loaded: the baseline has no deferred/loaded cell"),
      "\(out)")
    let (optional, optionalOut, _) = gate([
      "--baseline", base, res, "--optional-cells", "deferred/loaded,eager/loaded",
    ])
    #expect(optional == 0, "\(optionalOut)")
    #expect(
      optionalOut.contains(
        "SKIPPED first_frame_observed eager/loaded: skipped: the baseline has no eager/loaded cell (the cell is optional)"
      ), "\(optionalOut)")
    // The other way round: the results lack the cells the baseline has.
    let (reverse, reverseOut, _) = gate(["--baseline", res, base])
    #expect(reverse == 1)
    #expect(
      reverseOut.contains("FAIL first_frame_observed eager/loaded: the results have no eager/loaded cell"),
      "\(reverseOut)")
    let gates = dir + "/optional-gates.json"
    try """
    { "schema": "firstframe.gates/1", "baseline": { "optional_cells": ["deferred/loaded", "eager/loaded"] } }
    """.write(toFile: gates, atomically: true, encoding: .utf8)
    #expect(gate(["--baseline", base, res, "--gates", gates]).0 == 0)
  }

  @Test(
    "an --optional-cells name that is no cell of either file, or not config/condition, is one line and exit 2"
  )
  func unknownOptionalCell() throws {
    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let res = try save(SyntheticResults.make(seed: 2), "res.json")
    for name in ["deferred/lodaed", "deferred", "/cold"] {
      let (code, out, err) = gate(["--baseline", base, res, "--optional-cells", name])
      #expect(code == 2, "\(name): \(out)")
      #expect(err.split(separator: "\n").count == 1 && err.contains(name), "\(name): \(err)")
    }
    let (noBaseline, _, noBaselineErr) = gate([
      "--gates", gatesFile, res, "--optional-cells", "deferred/cold",
    ])
    #expect(noBaseline == 2 && noBaselineErr.contains("--optional-cells applies to the baseline gate"))
    let gates = dir + "/bad-optional.json"
    try """
    { "schema": "firstframe.gates/1", "baseline": { "optional_cells": ["loaded"] } }
    """.write(toFile: gates, atomically: true, encoding: .utf8)
    let (badFile, _, badFileErr) = gate(["--baseline", base, res, "--gates", gates])
    #expect(badFile == 2, "\(badFileErr)")
    #expect(
      badFileErr.split(separator: "\n").count == 1
        && badFileErr.contains("baseline.optional_cells has 'loaded'"))
  }

  @Test("a baseline without samples of the gated phase fails unless the cell is optional")
  func baselineWithoutSamplesFails() throws {
    var baseline = SyntheticResults.make(conditions: ["cold"], seed: 1)
    let phase = PhaseName.firstFrameObserved
    baseline.cells[0].phases[phase] = nil
    for i in baseline.cells[0].records.indices { baseline.cells[0].records[i].phases[phase] = nil }
    let base = try save(baseline, "base.json")
    let res = try save(SyntheticResults.make(conditions: ["cold"], seed: 1), "res.json")
    let (code, out, _) = gate(["--baseline", base, res])
    #expect(code == 1, "\(out)")
    #expect(
      out.contains(
        "FAIL first_frame_observed deferred/cold: the baseline has no first_frame_observed samples"), "\(out)"
    )
    let (optional, optionalOut, _) = gate(["--baseline", base, res, "--optional-cells", "deferred/cold"])
    #expect(optional == 0, "\(optionalOut)")
  }

  @Test(
    "interrupted or unfinished results fail the gate, named; --allow-incomplete gates them with a warning")
  func incompleteFails() throws {
    // One seed on both sides: identical samples, so only completeness can fail the gate.
    var interrupted = SyntheticResults.make(seed: 1)
    interrupted.settings.interrupted = true
    interrupted.settings.runs = 25  // 8 cells of 20 runs each: stopped after 160 of 200
    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let res = try save(interrupted, "interrupted.json")
    let (code, out, _) = gate(["--baseline", base, res])
    #expect(code == 1, "\(out)")
    #expect(out.contains("\(res) is incomplete: the run was interrupted after 160 of 200 runs"), "\(out)")
    let (allowed, allowedOut, _) = gate(["--baseline", base, res, "--allow-incomplete"])
    #expect(allowed == 0, "\(allowedOut)")
    #expect(allowedOut.contains("warning: \(res) is incomplete"), "\(allowedOut)")
    var snapshot = SyntheticResults.make(seed: 1)
    snapshot.complete = false
    let unfinished = try save(snapshot, "unfinished.json")
    let (baseCode, baseOut, _) = gate([
      "--baseline", unfinished, try save(SyntheticResults.make(seed: 1), "r.json"),
    ])
    #expect(baseCode == 1, "\(baseOut)")
    #expect(baseOut.contains("\(unfinished) is incomplete: \"complete\": false"), "\(baseOut)")
    // The relative gates alone check the results file too: the one below holds on these cells.
    let relative = dir + "/relative-gates.json"
    try """
    { "schema": "firstframe.gates/1", "relative": [ { "name": "eager slower", "phase": "first_frame_observed",
      "condition": "cold", "numerator": "eager", "denominator": "deferred", "min_ratio": 1.1 } ] }
    """.write(toFile: relative, atomically: true, encoding: .utf8)
    #expect(gate(["--gates", relative, try save(SyntheticResults.make(seed: 1), "whole.json")]).0 == 0)
    let (relativeCode, relativeOut, _) = gate(["--gates", relative, res])
    #expect(relativeCode == 1, "\(relativeOut)")
    #expect(relativeOut.contains("FAIL complete \(res)"), "\(relativeOut)")
  }
}
