import BenchCommands
import Foundation
import ResultsSchema
import TestSupport
import Testing

/// `bench power --sequential` (issue 39, item 3): a sequential design's expected and most runs a
/// side and its verdicts per planted shift, on recorded runs; `--size` sizes one.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct PowerSequentialTests {
  let dir = temporaryFolder("power-seq")

  func run(_ args: [String]) -> (Int32, String, String) {
    var out = ""
    var err = ""
    let code = PowerCommand.run(args, output: &out, errors: &err)
    return (code, out, err)
  }

  func sixty() throws -> String {
    let path = dir + "/sixty.json"
    try ResultsFile.save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 5, runs: 60), to: path)
    return path
  }

  @Test("prints the design, the verdicts per shift and the expected and most runs a side")
  func report() throws {
    let path = try sixty()
    let (code, out, err) = run([path, "--sequential", "--comparisons", "40"])
    #expect(code == 0, "\(err)")
    #expect(out.contains("a look every 4 pairs, at most 9 looks (36 runs a side)"), "\(out)")
    #expect(out.contains("deferred/warm (60 runs recorded):"), "\(out)")
    #expect(out.contains("expected runs a side (the costliest cell): "), "\(out)")
    #expect(out.contains("at most 36."), "\(out)")
    let (jsonCode, json, _) = run([
      path, "--sequential", "--comparisons", "40", "--runs-per-side", "16", "--format", "json",
    ])
    #expect(jsonCode == 0)
    #expect(json.contains("\"maximumRunsPerSide\" : 16") && json.contains("\"meanRuns\""), "\(json)")
  }

  @Test("α is split over the file's cells, as the bench ab that recorded them split it")
  func alphaSplit() throws {
    let path = dir + "/two.json"
    try ResultsFile.save(
      SyntheticResults.make(configs: ["deferred", "eager"], conditions: ["warm"], seed: 5, runs: 20), to: path
    )
    let (code, out, err) = run([path, "--sequential", "--comparisons", "20"])
    #expect(code == 0, "\(err)")
    #expect(out.contains("α = 0.01 over 2 cells: 0.005 a cell, β = 0.05"), "\(out)")
    let (_, one, _) = run([try sixty(), "--sequential", "--comparisons", "20"])
    #expect(one.contains(" α = 0.01, β = 0.05"), "\(one)")
  }

  @Test("--size tries designs of 2 to 12 looks and names the smallest meeting the goals, or says none did")
  func size() throws {
    let (code, out, err) = run([try sixty(), "--sequential", "--size", "--comparisons", "20"])
    #expect(code == 0, "\(err)")
    #expect(
      out.contains("smallest design meeting the goals: at most ")
        || out.contains("no design tried met the goals"),
      "\(out)")
    #expect(
      out.split(separator: "\n").filter { $0.hasSuffix(" yes") || $0.hasSuffix(" no") }.count == 11, "\(out)")
  }

  @Test("a results file without a cell of 10 runs is bad input (exit 2)")
  func tooFewRuns() throws {
    let path = dir + "/few.json"
    try ResultsFile.save(
      SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], seed: 5, runs: 6), to: path)
    let (code, _, err) = run([path, "--sequential"])
    #expect(code == 2 && err.contains("no cell with 10 runs"), "\(err)")
  }
}
