import BenchCommands
import BenchKit
import CommandLineKit
import Foundation
import Gates
import ResultsSchema
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct PowerCommandTests {
  let dir = temporaryFolder("power")

  func run(_ command: (some Command).Type, _ args: [String]) -> (Int32, String, String) {
    var out = ""
    var err = ""
    let code = command.run(args, output: &out, errors: &err)
    return (code, out, err)
  }

  func save(_ r: BenchResults, _ name: String) throws -> String {
    let path = dir + "/" + name
    try ResultsFile.save(r, to: path)
    return path
  }

  @Test("bench power measures 40-run cells, and bench gate quotes those figures, naming where they came from")
  func gateQuotesMeasuredFigures() throws {
    let forty = try save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 5, runs: 40), "forty.json")
    let (code, json, err) = run(PowerCommand.self, [forty, "--comparisons", "40", "--format", "json"])
    #expect(code == 0, "\(err)")
    let figuresPath = dir + "/power.json"
    try json.write(toFile: figuresPath, atomically: true, encoding: .utf8)
    let figures = try PowerCommand.loadFigures(path: figuresPath)
    #expect(figures.aaComparisons == 40)

    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let same = try save(SyntheticResults.make(seed: 2), "same.json")
    // --inconclusive pass: an A/A cell slower than 5 % by chance is inconclusive, and this test is
    // about the quote, not that.
    let (ok, out, _) = run(
      GateCommand.self, ["--baseline", base, same, "--power", figuresPath, "--inconclusive", "pass"])
    #expect(ok == 0, "\(out)")
    let quoted = try #require(
      out.split(separator: "\n").first { $0.hasPrefix("power: first_frame_observed, from") })
    #expect(quoted.contains(figuresPath))
    #expect(quoted.contains("false alarms in \(figures.aaFalseAlarms) of 40 A/A comparisons"))
    #expect(quoted.contains("20 runs per side"))
    #expect(!quoted.contains("not the rule measured"))

    let (_, other, _) = run(
      GateCommand.self, ["--baseline", base, same, "--power", figuresPath, "--alpha", "0.05"])
    #expect(other.contains("(this gate uses α = 0.05: not the rule measured)"))
  }

  @Test("a --power file that is not a power report is bad input (exit 2); without figures the gate says so")
  func missingOrBadFigures() throws {
    let base = try save(SyntheticResults.make(seed: 1), "base.json")
    let same = try save(SyntheticResults.make(seed: 2), "same.json")
    let (bad, _, err) = run(GateCommand.self, ["--baseline", base, same, "--power", base])
    #expect(bad == 2)
    #expect(err.contains("is not a bench power --format json report"))
    let quote = try PowerCommand.quote(explicitPath: nil, options: Gate.BaselineOptions())
    if !FileManager.default.fileExists(atPath: PowerCommand.figuresPath) {
      #expect(quote.contains("were not measured here"))
    } else {
      #expect(quote.contains("measured by Benchmarks/gate-power"))
    }
  }

  @Test("bench power --size measures at the count chosen for CI, records it, and bench gate quotes it")
  func sizeRecordsTheChosenCount() throws {
    let results = try save(
      SyntheticResults.gaussian(
        [
          SyntheticResults.GaussianCell(config: "deferred", medianMs: 320, noise: 0.02),
          SyntheticResults.GaussianCell(config: "eager", medianMs: 750, noise: 0.01),
        ], runs: 40), "sized-results.json")
    let (code, json, err) = run(
      PowerCommand.self, [results, "--size", "--comparisons", "400", "--margin", "2", "--format", "json"])
    #expect(code == 0, "\(err)")
    let figuresPath = dir + "/sized.json"
    try json.write(toFile: figuresPath, atomically: true, encoding: .utf8)
    let figures = try PowerCommand.loadFigures(path: figuresPath)
    let sizing = try #require(figures.sizing)
    let smallest = try #require(sizing.smallestRunsPerSide)
    #expect(sizing.chosenRunsPerSide == min(20, 2 * smallest))
    #expect(figures.runsPerSide == sizing.chosenRunsPerSide)
    #expect(figures.inconclusive == .fail)
    #expect(figures.familyComparisons == 400)
    let quote = try PowerCommand.quote(explicitPath: figuresPath, options: Gate.BaselineOptions())
    #expect(quote.contains("CI runs \(sizing.chosenRunsPerSide!)"))
    #expect(quote.contains("family-wise (any of the 2 cells)"))

    let (table, text, _) = run(
      PowerCommand.self, [results, "--size", "--comparisons", "400", "--shift", "20"])
    #expect(table == 0)
    #expect(text.contains("sizing for a 20 % uniform slowdown over warm/deferred, warm/eager"))
    let (bad, _, badErr) = run(PowerCommand.self, [results, "--size", "--shift", "0"])
    #expect(bad == 2 && badErr.contains("--shift"))
  }

  @Test("too few runs per cell is bad input (exit 2) with the run count that would do")
  func tooFewRuns() throws {
    let thirty = try save(SyntheticResults.make(runs: 30), "thirty.json")
    let (code, _, err) = run(PowerCommand.self, [thirty])
    #expect(code == 2)
    #expect(err.contains("run bench with --runs 40"))
  }
}

extension PowerCommandTests {
  @Test("bench power advises for low-power and hot cells as for the others")
  func lowPowerAndHotCells() throws {
    let forty = try save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["low-power", "hot"], seed: 7, runs: 40),
      "conditions.json")
    let (code, out, err) = run(PowerCommand.self, [forty, "--comparisons", "20"])
    #expect(code == 0, "\(err)")
    #expect(out.contains("low-power") && out.contains("hot"), "\(out)")
  }
}

extension PowerCommandTests {
  @Test(
    "bench power --relative measures the gates file's relative gates at CI's 3 runs a cell; beside --sequential, an unreadable file or a file without one, exit 2"
  )
  func relativeGates() throws {
    let results = try save(
      SyntheticResults.make(configs: ["deferred", "eager", "preview-only"], conditions: ["cold"], runs: 12),
      "relative.json")
    let gates = dir + "/gates.json"
    let definitions = """
      { "schema": "firstframe.gates/1", "relative": [
        { "name": "at least", "phase": "first_frame_observed", "condition": "cold",
          "numerator": "eager", "denominator": "deferred", "min_ratio": 1.8 } ] }
      """
    try Data(definitions.utf8).write(to: URL(fileURLWithPath: gates))
    let (code, text, err) = run(PowerCommand.self, [results, "--relative", gates, "--comparisons", "20"])
    #expect(code == 0, "\(err)")
    #expect(
      text.contains("relative gates on \(results): 3 runs drawn from each cell, 20 comparisons a shift"))
    #expect(text.contains("at least (≥ 1.8;") && text.contains("0 (A/A)"))
    let (json, out, _) = run(
      PowerCommand.self, [results, "--relative", gates, "--comparisons", "20", "--format", "json"])
    #expect(json == 0 && out.contains("\"familyFalseAlarms\""))
    let (both, _, bothErr) = run(PowerCommand.self, [results, "--relative", gates, "--sequential"])
    #expect(both == 2 && bothErr.contains("--relative measures the relative gates"))
    let (missing, _, missingErr) = run(PowerCommand.self, [results, "--relative", dir + "/none.json"])
    #expect(missing == 2 && missingErr.contains("none.json"))
    let empty = dir + "/empty-gates.json"
    try Data(#"{ "schema": "firstframe.gates/1" }"#.utf8).write(to: URL(fileURLWithPath: empty))
    let (none, _, noneErr) = run(PowerCommand.self, [results, "--relative", empty])
    #expect(none == 2 && noneErr.contains("holds no relative gate"))
    let (few, _, fewErr) = run(PowerCommand.self, [results, "--relative", gates, "--runs-per-side", "13"])
    #expect(few == 2 && fewErr.contains("with 13 runs each"))
  }
}

extension PowerCommandTests {
  @Test(
    "bench power --against draws the baseline side from another recording and says so; a recording bench gate would refuse, or --against beside --sequential, exit 2"
  )
  func againstAnotherSession() throws {
    let monday = try save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 5, runs: 30), "monday.json")
    let tuesday = try save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 6, runs: 30), "tuesday.json")
    let (code, text, err) = run(PowerCommand.self, [tuesday, "--against", monday, "--comparisons", "20"])
    #expect(code == 0, "\(err)")
    #expect(
      text.hasPrefix("gate power of \(tuesday) against the baseline \(monday): first_frame_observed, 20 runs")
    )
    #expect(text.contains("runs drawn from the baseline's cell"))
    let (json, out, _) = run(
      PowerCommand.self, [tuesday, "--against", monday, "--comparisons", "20", "--format", "json"])
    #expect(json == 0 && out.contains("\"baselineMeasuredOn\""))
    // Without --against, 30 runs are too few for two halves of 20; across sessions each side needs 20.
    #expect(run(PowerCommand.self, [tuesday]).0 == 2)
    var other = SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 7, runs: 30)
    other.host.kernel = "another"
    let foreign = try save(other, "foreign.json")
    let (refused, _, refusedErr) = run(PowerCommand.self, [tuesday, "--against", foreign])
    #expect(refused == 2 && refusedErr.contains("kernel") && refusedErr.contains("bench gate refuses it"))
    let (both, _, bothErr) = run(PowerCommand.self, [tuesday, "--against", monday, "--sequential"])
    #expect(both == 2 && bothErr.contains("--against measures the baseline gate across two recordings"))
    let (missing, _, missingErr) = run(PowerCommand.self, [tuesday, "--against", dir + "/none.json"])
    #expect(missing == 2 && missingErr.contains("none.json"))
  }
}

extension PowerCommandTests {
  @Test(
    "--noise-ceiling: bench power measures that rule and records it, bench gate names figures measured without it; out of range or beside --sequential, exit 2"
  )
  func noiseCeilingOption() throws {
    let forty = try save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 5, runs: 40), "ceiling.json")
    let (code, json, err) = run(
      PowerCommand.self, [forty, "--comparisons", "20", "--noise-ceiling", "4", "--format", "json"])
    #expect(code == 0, "\(err)")
    let figuresPath = dir + "/ceiling-power.json"
    try json.write(toFile: figuresPath, atomically: true, encoding: .utf8)
    #expect(try PowerCommand.loadFigures(path: figuresPath).noiseCeiling == 0.04)
    let base = try save(SyntheticResults.make(seed: 1), "ceiling-base.json")
    let same = try save(SyntheticResults.make(seed: 2), "ceiling-same.json")
    let (_, measured, _) = run(
      GateCommand.self, ["--baseline", base, same, "--power", figuresPath, "--noise-ceiling", "4"])
    #expect(
      measured.contains("passing above a 4 % noise ceiling") && !measured.contains("not the rule measured"))
    let (_, other, _) = run(GateCommand.self, ["--baseline", base, same, "--power", figuresPath])
    #expect(other.contains("(this gate uses no noise ceiling: not the rule measured)"), "\(other)")
    let (zero, _, zeroErr) = run(GateCommand.self, ["--baseline", base, same, "--noise-ceiling", "0"])
    #expect(zero == 2 && zeroErr.contains("--noise-ceiling"))
    let (both, _, bothErr) = run(PowerCommand.self, [forty, "--sequential", "--noise-ceiling", "4"])
    #expect(both == 2 && bothErr.contains("--noise-ceiling is the baseline gate's"))
  }
}
