import BenchKit
import CommandLineKit
import Foundation
import Gates
import ResultsSchema
import TestSupport
import Testing
@testable import BenchCommands

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct GateCommandTests {
  let dir = temporaryFolder("gate")

  func save(_ r: BenchResults, _ name: String) throws -> String {
    let path = dir + "/" + name
    try ResultsFile.save(r, to: path)
    return path
  }

  func gate(_ args: [String]) -> (Int32, String, String) {
    var out = ""
    var err = ""
    let code = GateCommand.run(args, output: &out, errors: &err)
    return (code, out, err)
  }

  var gatesFile: String {
    // Tests/BenchCommandsTests/<this file> → the package's folder.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Benchmarks/gates.json").path
  }

  @Test(
    "the same distribution passes and a 25 % slowdown fails with exit 1, naming the phase and its numbers")
  func baselineGate() throws {
    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let same = try save(SyntheticResults.make(seed: 2), "same.json")
    let slow = try save(SyntheticResults.make(seed: 3, scale: 1.25), "slow.json")
    // Two samples of one distribution show no regression; at 20 runs a cell can still be
    // inconclusive (slower beyond 5 % by chance, p >= 0.01), which fails under the default
    // --inconclusive fail, so the A/A half asks for the significance rule alone.
    let (ok, okOut, _) = gate(["--baseline", base, same, "--inconclusive", "pass"])
    #expect(ok == 0, "\(okOut)")
    #expect(okOut.contains("gate: passed"))
    #expect(!okOut.contains("FAIL "))
    let (bad, badOut, badErr) = gate(["--baseline", base, slow, "--junit", dir + "/junit.xml"])
    #expect(bad == 1)
    #expect(badErr.isEmpty)
    #expect(badOut.contains("FAIL first_frame_observed deferred/cold: median"))
    #expect(badOut.contains("95 % CI") && badOut.contains("p = ") && badOut.contains("ratio"))
    let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
    // 8 cells: first_frame_observed, the failure rate and the quality of each.
    #expect(junit.contains("<failure") && junit.contains("tests=\"24\""), "\(junit.prefix(300))")
    #expect(XMLParser(data: Data(junit.utf8)).parse())
  }

  @Test("a per-phase threshold can loosen the gate, and --threshold PHASE=PCT gates that phase")
  func thresholds() throws {
    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let slow = try save(SyntheticResults.make(seed: 3, scale: 1.25), "slow.json")
    #expect(gate(["--baseline", base, slow, "--threshold", "first_frame_observed=60"]).0 == 0)
    let (code, out, _) = gate([
      "--baseline", base, slow, "--threshold", "first_frame_observed=60,start_running=5",
    ])
    #expect(code == 1)
    #expect(out.contains("FAIL start_running"))
    let (bad, _, err) = gate(["--baseline", base, slow, "--threshold", "nonsense=5"])
    #expect(bad == 2 && err.contains("unknown phase 'nonsense'"))
  }

  @Test("a baseline from another camera or tool version is refused with exit 2 unless --force")
  func foreignBaseline() throws {
    let base = try save(SyntheticResults.make(seed: 1, camera: "v4l2:/dev/video0"), "base.json")
    let res = try save(SyntheticResults.make(seed: 2), "res.json")
    let (code, _, err) = gate(["--baseline", base, res])
    #expect(code == 2)
    #expect(err.split(separator: "\n").count == 1)
    #expect(err.contains("camera v4l2:/dev/video0 vs synthetic") && err.contains("--force"))
    let v2 = try save(SyntheticResults.make(seed: 1, version: "0.2.0"), "v2.json")
    #expect(gate(["--baseline", v2, res]).0 == 2)
    // Accepted: the checks run (an A/A cell may be inconclusive, which is not this test's subject).
    let (forced, out, _) = gate(["--baseline", v2, res, "--force", "--inconclusive", "pass"])
    #expect(forced == 0, "\(out)")
    #expect(out.contains("warning: comparing against a foreign baseline"))
  }

  @Test(
    "results of this version refuse a baseline the previous stage's tool (0.1.0) made: the version check can fire"
  )
  func versionCheckFires() throws {
    #expect(FirstFrameVersion.current != "0.1.0")
    let old = try save(SyntheticResults.make(seed: 1, version: "0.1.0"), "old.json")
    let res = try save(SyntheticResults.make(seed: 2, version: FirstFrameVersion.current), "res.json")
    let (code, _, err) = gate(["--baseline", old, res])
    #expect(code == 2)
    #expect(err.contains("tool version 0.1.0 vs \(FirstFrameVersion.current)"), "\(err)")
  }

  @Test("a baseline measured on another display path (shm vs X11) is refused with exit 2 unless --force")
  func otherDisplayPath() throws {
    let base = try save(SyntheticResults.make(seed: 1), "base.json")  // before X11: shm
    var x11 = SyntheticResults.make(seed: 2)
    x11.settings.display = "x11"
    let res = try save(x11, "x11.json")
    let (code, _, err) = gate(["--baseline", base, res])
    #expect(code == 2)
    #expect(err.contains("display shm vs x11"), "\(err)")
    #expect(gate(["--baseline", base, res, "--force", "--inconclusive", "pass"]).0 == 0)
  }

  @Test("corrupt, truncated, empty, missing and foreign-schema files give one line and exit 2")
  func badInput() throws {
    let good = try save(SyntheticResults.make(seed: 1, runs: 5), "good.json")
    let text = try String(contentsOfFile: good, encoding: .utf8)
    let cases: [(String, String, String)] = [
      ("truncated.json", String(text.prefix(text.count / 2)), "truncated or not valid JSON"),
      ("corrupt.json", "{\"schema\": \"firstframe.results/1\", \"cells\": [}", "truncated or not valid JSON"),
      ("empty.json", "", "is empty"),
      ("foreign.json", "{\"schema\": \"otherbench/3\", \"runs\": []}", "has schema 'otherbench/3'"),
      ("noschema.json", "[1, 2, 3]", "expected a JSON object"),
      ("missing-field.json", "{\"schema\": \"firstframe.results/1\", \"cells\": []}", "missing field"),
      ("inconsistent.json", text.replacingOccurrences(of: "\"n\" : 5", with: "\"n\" : 6"), "inconsistent"),
    ]
    for (name, body, phrase) in cases {
      let path = dir + "/" + name
      try body.write(toFile: path, atomically: true, encoding: .utf8)
      for args in [["--baseline", path, good], ["--baseline", good, path]] {
        let (code, out, err) = gate(args)
        #expect(code == 2, "\(name)")
        #expect(err.split(separator: "\n").count == 1, "\(name): \(err)")
        #expect(
          err.hasPrefix("bench gate: ") && err.contains(path) && err.contains(phrase), "\(name): \(err)")
        #expect(!out.contains("PASS") && !out.contains("FAIL"))
      }
      #expect(throws: ResultsFileError.self) { try ResultsFile.load(path: path) }
    }
    let (code, _, err) = gate(["--baseline", dir + "/nope.json", good])
    #expect(code == 2 && err.contains("does not exist"))
    var out = ""
    var err2 = ""
    #expect(CompareCommand.run([dir + "/truncated.json", good], output: &out, errors: &err2) == 2)
    #expect(ReportCommand.run([dir + "/foreign.json"], output: &out, errors: &err2) == 2)
    #expect(
      BaselineCommand.run(["save", dir + "/corrupt.json", dir + "/b.json"], output: &out, errors: &err2) == 2)
  }

  @Test(
    "Benchmarks/gates.json holds the two cold relative gates, which pass on healthy results, and an optional low-power one, skipped where low-power was not run"
  )
  func relativeGatesPass() throws {
    let defs = try GateDefinitions.load(path: gatesFile)
    #expect(defs.relative?.count == 3)
    #expect(
      defs.relative?.contains {
        $0.condition == "low-power" && $0.numerator == "eager" && $0.denominator == "deferred"
          && $0.optional == true && ($0.min_ratio ?? 0) > 1
      } == true)
    #expect(
      defs.relative?.contains {
        $0.numerator == "eager" && $0.denominator == "deferred" && $0.min_ratio == 1.8
      } == true)
    #expect(
      defs.relative?.contains {
        $0.numerator == "deferred" && $0.denominator == "preview-only" && $0.max_ratio == 1.1
      } == true)
    let res = try save(
      SyntheticResults.make(configs: ["deferred", "eager", "preview-only"], conditions: ["cold"]), "r.json")
    let (code, out, _) = gate(["--gates", gatesFile, res])
    #expect(code == 0, "\(out)")
    #expect(
      out.contains("PASS deferred start reaches the first frame at least 1.8x sooner than eager (cold)"))
    #expect(out.contains("(low-power)") && out.contains("in low-power (the gate is optional)"), "\(out)")
  }

  @Test(
    "the low-power gate decides where the results hold low-power: it fails when deferral stops working there")
  func lowPowerGateDecides() throws {
    var r = SyntheticResults.make(
      configs: ["deferred", "eager", "preview-only"], conditions: ["cold", "low-power"])
    let healthy = try save(r, "healthy.json")
    let (ok, okOut, _) = gate(["--gates", gatesFile, healthy])
    #expect(ok == 0, "\(okOut)")
    #expect(
      okOut.contains(
        "PASS deferred start reaches the first frame at least 1.5x sooner than eager (low-power)"))
    let eager = try #require(r.cells.firstIndex { $0.config == "eager" && $0.condition == "low-power" })
    let deferred = try #require(r.cells.firstIndex { $0.config == "deferred" && $0.condition == "low-power" })
    r.cells[deferred].phases = r.cells[eager].phases
    r.cells[deferred].records = r.cells[eager].records
    let (code, out, _) = gate(["--gates", gatesFile, try save(r, "broken.json")])
    #expect(code == 1)
    #expect(
      out.contains("FAIL deferred start reaches the first frame at least 1.5x sooner than eager (low-power)"))
  }

  @Test("a relative gate whose cell was not run fails, with the reason (gates.json marks none optional)")
  func relativeGateMissingCellFails() throws {
    let res = try save(SyntheticResults.make(), "r.json")
    let (code, out, _) = gate(["--gates", gatesFile, res])
    #expect(code == 1)
    #expect(out.contains("FAIL deferred start is within 10 % of preview-only"))
    #expect(out.contains("no preview-only cell in cold"))
  }

  @Test("a relative gate fails when deferral stops working")
  func relativeGateFails() throws {
    var r = SyntheticResults.make(configs: ["deferred", "eager"], conditions: ["cold"])
    // Make "deferred" behave like eager.
    let eager = r.cells.first { $0.config == "eager" }!
    r.cells[0].phases = eager.phases
    r.cells[0].records = eager.records
    let path = try save(r, "r.json")
    let (code, out, _) = gate(["--gates", gatesFile, path])
    #expect(code == 1)
    #expect(
      out.contains(
        "FAIL deferred start reaches the first frame at least 1.8x sooner than eager (cold): eager/deferred"))
  }

  @Test("bench gate with nothing to check is a usage error")
  func nothingToCheck() throws {
    let res = try save(SyntheticResults.make(runs: 3), "r.json")
    let (code, _, err) = gate([res])
    #expect(code == 2 && err.contains("nothing to check"))
  }

  @Test("baseline save records the tool version, camera and profile, and refuses interrupted results")
  func baselineSave() throws {
    let res = try save(SyntheticResults.make(runs: 5), "r.json")
    var out = ""
    var err = ""
    #expect(
      BaselineCommand.run(["save", res, dir + "/baselines/synthetic.json"], output: &out, errors: &err) == 0)
    let saved = try ResultsFile.load(path: dir + "/baselines/synthetic.json")
    #expect(saved.baseline?.toolVersion == "0.1.0")
    #expect(saved.baseline?.camera == "synthetic")
    #expect(saved.baseline?.profileName == "phone")
    #expect(saved.baseline?.source == res)
    var interrupted = SyntheticResults.make(runs: 5)
    interrupted.settings.interrupted = true
    let ir = try save(interrupted, "i.json")
    #expect(BaselineCommand.run(["save", ir, dir + "/b2.json"], output: &out, errors: &err) == 2)
    #expect(BaselineCommand.run(["save", ir, dir + "/b2.json", "--force"], output: &out, errors: &err) == 0)
    #expect(BaselineCommand.run(["load", ir, dir + "/b2.json"], output: &out, errors: &err) == 2)
  }

  @Test("the gate warns when the runs are too few for the test to mean anything")
  func fewRunsWarning() throws {
    let base = try save(SyntheticResults.make(seed: 1, runs: 3), "base.json")
    let res = try save(SyntheticResults.make(seed: 2, runs: 3, scale: 1.5), "res.json")
    // 3 runs cannot reach p < 0.01, so a 50 % slowdown is inconclusive, not a regression: under
    // --inconclusive pass the gate passes, with the warning (by default it fails: see
    // inconclusiveBaselineFails).
    let (code, out, _) = gate(["--baseline", base, res, "--inconclusive", "pass"])
    #expect(code == 0, "\(out)")
    #expect(out.contains("cannot reach p < 0.01"))
  }

  @Test("--help prints the option table")
  func help() {
    for (name, run) in [
      ("gate", GateCommand.run), ("compare", CompareCommand.run), ("report", ReportCommand.run),
      ("baseline", BaselineCommand.run),
    ] as [(String, ([String], inout String, inout String) -> Int32)] {
      var out = ""
      var err = ""
      #expect(run(["--help"], &out, &err) == 0)
      #expect(out.hasPrefix("usage: bench \(name)"))
    }
  }
}
