import Foundation
import PhaseTrace
import Testing

/// `TraceReader.parse(text:)` (in-memory traces) and a file read (`read(path:)`, the runner's
/// `TraceTail`) must read the same bytes the same way; the trace fuzz target checks it on every
/// input (Fuzz/Corpus/trace/check-*).
@Suite struct TraceReaderAgreementTests {
  @Test("parse(text:) splits at every newline byte, as a file read does, also after a carriage return")
  func carriageReturns() throws {
    let text =
      "{\"ts\": 1, \"name\": \"a\", \"kind\": \"event\"}\r\n{\"ts\": 2, \"name\": \"b\", \"kind\": \"event\"}\r\nx\r\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UUID().uuidString)").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fromFile = TraceReader().read(path: path)
    let fromText = TraceReader().parse(text: text)
    #expect(fromText.events == fromFile.events)
    #expect(fromText.malformedLines == fromFile.malformedLines)
    #expect(fromText.problems == fromFile.problems)
    #expect(fromFile.events.map(\.name) == ["a", "b"])
    #expect(fromFile.problems == ["line 3: not a trace event"])
  }
}
