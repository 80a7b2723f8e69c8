import BenchCommands
import BenchKit
import Foundation
import Reports
import ResultsSchema
import TestSupport
import Testing

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

  @Test("--states reads thread_states written by name, as docs/results.md lists the fields")
  func statesFromDocumentedNames() throws {
    let dir = temporaryFolder("report-states-json")
    try ResultsFile.save(
      SyntheticResults.make(configs: ["eager"], conditions: ["warm"], runs: 1), to: dir + "/results.json")
    var root = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/results.json")))
        as? [String: Any])
    let states = """
      {"method": "sampled", "lost_events": 0, "incomplete": false, "error_bound_ms": 2.5, "events": 9,
       "main": {"start_running": {"running": 41.5, "runnable": 7.25, "io": 3, "sleeping": 12}},
       "tree": {"start_running": {"cpu_ms": 88, "runqueue_ms": 9.5, "io_ms": 3, "major_faults": 17,
         "minor_faults": 2048, "voluntary_switches": 31, "involuntary_switches": 6}},
       "running_at_first_frame": {"pid": 7, "tid": 9, "name": "gst-worker"}}
      """
    var cells = try #require(root["cells"] as? [[String: Any]])
    var records = try #require(cells[0]["records"] as? [[String: Any]])
    records[0]["thread_states"] = try JSONSerialization.jsonObject(with: Data(states.utf8))
    cells[0]["records"] = records
    root["cells"] = cells
    try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: dir + "/results.json"))
    var out = ""
    var err = ""
    #expect(
      ReportCommand.run([dir + "/results.json", "--states"], output: &out, errors: &err) == 0, "\(err)")
    let lines = out.split(separator: "\n").filter { $0.hasPrefix("start_running") }
    #expect(lines.count == 2, "\(out)")
    #expect(lines.first?.contains("41.5 (41.5)") == true && lines.first?.contains("7.2 (7.2)") == true)
    #expect(lines.last?.contains("17 (17)") == true && lines.last?.contains("2048 (2048)") == true)
    #expect(out.contains("eager/warm · sampled · 1 run · 9 samples per run (p50)"))
    #expect(out.contains("running at first frame: gst-worker in 1 of 1 runs"))
    #expect(out.contains("largest: eager/warm 2.50 ms"))
  }
}
