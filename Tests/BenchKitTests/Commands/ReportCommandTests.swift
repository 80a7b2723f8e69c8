import BenchAnalysis
import BenchCommands
import BenchKit
import Foundation
import ResultsSchema
import Testing
import TestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct ReportCommandTests {
  @Test("the report command writes every requested format, and defaults to the results folder")
  func reportCommand() throws {
    let dir = temporaryFolder("report")
    try ResultsFile.save(SyntheticResults.make(seed: 5, runs: 6, failEvery: 5), to: dir + "/results.json")
    var out = ""
    var err = ""
    let code = ReportCommand.run(
      [
        dir + "/results.json", "--markdown", dir + "/s.md", "--junit", dir + "/j.xml", "--json-bench",
        dir + "/b.json",
      ],
      output: &out, errors: &err)
    #expect(code == 0, "\(err)")
    let md = try String(contentsOfFile: dir + "/s.md", encoding: .utf8)
    #expect(md.contains("## Headline") && md.contains("deferred reaches the first frame"))
    #expect(md.contains("| deferred/cold |") && md.contains("## Failed runs"))
    let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
    #expect(XMLParser(data: Data(junit.utf8)).parse())
    #expect(
      junit.contains("<testcase classname=\"gate.runs\" name=\"deferred/cold\"") && junit.contains("<failure")
    )
    let bench = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/b.json")))
        as? [[String: Any]])
    #expect(!bench.isEmpty)
    for item in bench {
      #expect(item["name"] is String && item["unit"] as? String == "ms" && item["value"] is Double)
      #expect(item["range"] is String && item["extra"] is String)
    }
    #expect(bench.contains { $0["name"] as? String == "first_frame_observed deferred/cold" })
    out = ""
    #expect(ReportCommand.run([dir + "/results.json"], output: &out, errors: &err) == 0)
    for name in ["plot.svg", "trace.json", "summary.md"] {
      #expect(FileManager.default.fileExists(atPath: dir + "/" + name))
    }
  }

  @Test(
    "--states prints the thread-states table and writes no other file; results without any are exit 2 with one line"
  )
  func statesOption() throws {
    let dir = temporaryFolder("report-states")
    let plain = SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 4)
    try ResultsFile.save(SyntheticResults.withThreadStates(plain), to: dir + "/results.json")
    var out = ""
    var err = ""
    #expect(
      ReportCommand.run([dir + "/results.json", "--states"], output: &out, errors: &err) == 0, "\(err)")
    #expect(out.contains("deferred/cold · tracefs · 4 runs") && out.contains("main thread (ms)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["results.json"])

    let bare = temporaryFolder("report-no-states")
    try ResultsFile.save(plain, to: bare + "/results.json")
    out = ""
    err = ""
    #expect(ReportCommand.run([bare + "/results.json", "--states"], output: &out, errors: &err) == 2)
    #expect(err.contains(ThreadStatesTable.noThreadStates) && err.split(separator: "\n").count == 1, "\(err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: bare) == ["results.json"])
  }
}
