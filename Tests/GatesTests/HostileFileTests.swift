import Foundation
import Gates
import ResultsSchema
import Testing

/// Files bench reads can come from anywhere; what they contain must not break the one-line error
/// rule (found by the results fuzz target's check: Fuzz/Corpus/results/check-*).
@Suite struct HostileFileTests {
  @Test("a schema with a newline or control characters in it still gives a one-line error")
  func schemaWithNewline() {
    let results = #expect(throws: ResultsFileError.self) {
      try ResultsFile.decode(Data(#"{"schema": "firstframe.results/9\nX\u001b[2J"}"#.utf8), name: "r.json")
    }
    #expect(results?.message.contains(where: { $0.isNewline }) == false, "\(String(describing: results))")
    #expect(results?.message.unicodeScalars.contains { $0.value < 0x20 } == false)
    #expect(results?.message.contains("r.json") == true)
    let gates = #expect(throws: ResultsFileError.self) {
      try GateDefinitions.decode(Data(#"{"schema": "x\r\ny"}"#.utf8), name: "g.json")
    }
    #expect(gates?.message.contains(where: { $0.isNewline }) == false, "\(String(describing: gates))")
  }
}
