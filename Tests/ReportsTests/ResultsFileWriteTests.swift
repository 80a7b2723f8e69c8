import Foundation
import Reports
import ResultsSchema
import TestSupport
import Testing

@Suite struct ResultsFileWriteTests {
  @Test("a results file that cannot be written says which step failed and the errno")
  func errnoKept() {
    // /proc exists, but no file can be created in it (ENOENT), even by root.
    let error = #expect(throws: ResultsFileError.self) {
      try ResultsFile.save(SyntheticResults.make(runs: 1), to: "/proc/firstframe-results.json")
    }
    #expect(error?.errno?.name == "ENOENT")
    #expect(
      error?.description.contains("(ENOENT: No such file or directory)") == true,
      "\(String(describing: error))")
  }

  @Test("a baseline keeps the results file's bytes and adds the baseline record")
  func baselineSplice() throws {
    let results = SyntheticResults.make(runs: 3)
    let data = try ResultsFile.encode(results)
    let info = BenchResults.BaselineInfo(
      savedAt: "2026-12-01T00:00:00Z", source: "r.json", toolVersion: "0.1.0", camera: "synthetic",
      profileName: "phone")
    let spliced = try #require(ResultsFile.adding(baseline: info, to: data))
    let decoded = try ResultsFile.decode(spliced, name: "spliced")
    #expect(decoded.baseline == info)
    var expected = results
    expected.baseline = info
    #expect(try ResultsFile.encode(decoded) == ResultsFile.encode(expected))
  }

  @Test("reading without timelines keeps every phase and count; the reports' reading keeps one run per cell")
  func timelineSelection() throws {
    let data = try ResultsFile.encode(SyntheticResults.make(runs: 9))
    let all = try ResultsFile.decode(data, name: "r")
    let none = try ResultsFile.decode(data, name: "r", timelines: .none)
    let representative = try ResultsFile.decode(data, name: "r", timelines: .representative)
    for (i, cell) in all.cells.enumerated() {
      #expect(none.cells[i].records.map(\.phases) == cell.records.map(\.phases))
      #expect(none.cells[i].records.allSatisfy { $0.timeline == nil })
      let kept = representative.cells[i].records.filter { $0.timeline != nil }
      #expect(kept.map(\.run) == [MedianRun.pick(cell)?.run].compactMap { $0 })
      #expect(kept.first?.timeline == MedianRun.pick(cell)?.timeline)
    }
    #expect(SVGPlot.svg(results: representative) == SVGPlot.svg(results: all))
    #expect(TraceExport.json(results: representative) == TraceExport.json(results: all))
  }
}
