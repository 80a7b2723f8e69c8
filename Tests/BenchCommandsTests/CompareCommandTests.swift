import BenchCommands
import BenchKit
import Foundation
import ResultsSchema
import TestSupport
import Testing

@Suite struct CompareCommandTests {
  @Test("the compare command prints a table, Markdown or JSON defining the ratio as B/A")
  func compareCommand() throws {
    let dir = temporaryFolder()
    try ResultsFile.save(SyntheticResults.make(seed: 1), to: dir + "/a.json")
    try ResultsFile.save(SyntheticResults.make(seed: 2, scale: 0.8), to: dir + "/b.json")
    for format in ["table", "markdown", "json"] {
      var out = ""
      var err = ""
      let code = CompareCommand.run(
        [dir + "/a.json", dir + "/b.json", "--format", format], output: &out, errors: &err)
      #expect(code == 0 && err.isEmpty, "\(err)")
      #expect(out.contains("first_frame_observed"))
      #expect(out.contains(format == "json" ? "median(B) / median(A)" : "B/A"))
      if format != "json" { #expect(out.contains("B faster")) }
    }
    var out = ""
    var err = ""
    #expect(CompareCommand.run([dir + "/a.json"], output: &out, errors: &err) == 2)
    #expect(err.split(separator: "\n").count == 1)
  }
}
