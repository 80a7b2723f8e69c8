import Foundation
import PhaseTrace
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct TraceRoundTripTests {
  static func tempFile() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
  }

  @Test("events written by TraceWriter read back identically, fields and all")
  func roundTrip() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writer = try TraceWriter(destination: path)
    let events = [
      PhaseEvent(ts: 1, name: "app.main", kind: .event, pid: 42, fields: ["run": "cold-deferred-1"]),
      PhaseEvent(ts: 2, name: "output.init", kind: .begin, pid: 42, fields: ["output": "photo"]),
      PhaseEvent(
        ts: 3, name: "odd \"name\"\n\t\\", kind: .end, pid: 42,
        fields: ["int": 7, "double": 2.5, "bool": true, "ctl": .string("a\u{1}b"), "unicode": "ünïcødé ✓"]),
      PhaseEvent(ts: UInt64.max, name: "display.first_live_frame", kind: .event, pid: 1),
    ]
    events.forEach(writer.record)
    let read = TraceReader().read(path: path)
    #expect(read.malformedLines == 0)
    #expect(read.events == events)
  }

  @Test("the file follows the protocol: one JSON object per line with ts, name, kind, pid, fields")
  func protocolShape() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    Signposter(sink: try TraceWriter(destination: path), pid: 9).interval("session.start_running") {}
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(Set(object.keys) == ["ts", "name", "kind", "pid", "fields"])
      #expect(object["name"] as? String == "session.start_running")
      #expect(object["pid"] as? Int == 9)
    }
  }

  @Test("malformed and unknown lines are counted, never fatal; unknown names are kept")
  func malformed() {
    let text = """
      {"ts": 1, "name": "app.main", "kind": "event", "pid": 3, "fields": {}}
      not json at all
      {"ts": "soon", "name": "x", "kind": "event", "pid": 3}
      {"ts": 2, "name": "my.custom_event", "kind": "event", "pid": 3}
      {"ts": 3, "name": "x", "kind": "sideways", "pid": 3}

      {"ts": 4, "name": "ui.ready", "kind": "event", "pid": 3, "fields": {"n": 1}}
      """
    let r = TraceReader().parse(text: text)
    #expect(r.events.map(\.name) == ["app.main", "my.custom_event", "ui.ready"])
    #expect(r.malformedLines == 3)
    #expect(r.problems.first == "line 2: not a trace event")
  }

  @Test("an overlong line is skipped and counted without being held in memory")
  func overlong() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var data = Data(#"{"ts": 1, "name": "a", "kind": "event", "pid": 1}"#.utf8 + [0x0A])
    data.append(Data(repeating: UInt8(ascii: "x"), count: 5_000_000))
    data.append(Data([0x0A]) + Data(#"{"ts": 2, "name": "b", "kind": "event", "pid": 1}"#.utf8))
    try data.write(to: URL(fileURLWithPath: path))
    let r = TraceReader(maxLineBytes: 4096).read(path: path)
    #expect(r.events.map(\.name) == ["a", "b"])
    #expect(r.malformedLines == 1)
    #expect(r.problems.first?.contains("longer than 4096 bytes") == true)
  }

  @Test("a tail returns only the lines appended since the last poll, and waits for a line's end")
  func tail() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let tail = TraceTail(path: path)
    #expect(tail.poll().isEmpty)  // not created yet
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    defer { close(fd) }
    func append(_ text: String) { _ = text.withCString { write(fd, $0, strlen($0)) } }
    append(#"{"ts": 1, "name": "app.main", "kind": "event", "pid": 1}"# + "\n" + #"{"ts": 2, "name": "ui."#)
    #expect(tail.poll().map(\.name) == ["app.main"])
    append(#"ready", "kind": "event", "pid": 1}"# + "\n")
    #expect(tail.poll().map(\.name) == ["ui.ready"])
    #expect(tail.poll().isEmpty)
    append(#"{"ts": 3, "name": "cut", "kind": "event", "pid": 1}"#)  // killed mid-line: no newline
    #expect(tail.poll().isEmpty)
    let result = tail.finish()
    #expect(result.events.map(\.name) == ["app.main", "ui.ready", "cut"])
    #expect(result.malformedLines == 0)
  }

  @Test("lines from many threads never interleave")
  func concurrentWriters() async throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writer = try TraceWriter(destination: path)
    await withTaskGroup(of: Void.self) { group in
      for t in 0..<8 {
        group.addTask {
          for i in 0..<250 {
            writer.record(
              PhaseEvent(
                ts: UInt64(i), name: "thread.\(t)", kind: .event, pid: Int32(t),
                fields: ["pad": .string(String(repeating: "p", count: 300))]))
          }
        }
      }
    }
    let r = TraceReader().read(path: path)
    #expect(r.malformedLines == 0)
    #expect(r.events.count == 2000)
  }

  @Test("fd:N appends to an inherited descriptor; a bad destination is a clear error")
  func destinations() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    #expect(fd >= 0)
    defer { close(fd) }
    let writer = try TraceWriter(destination: "fd:\(fd)")
    writer.record(PhaseEvent(ts: 5, name: "ui.ready", kind: .event, pid: 1))
    #expect(TraceReader().read(path: path).events.map(\.name) == ["ui.ready"])
    #expect(throws: TraceWriterError.self) { try TraceWriter(destination: "fd:987654") }
    #expect(throws: TraceWriterError.self) { try TraceWriter(destination: "/nonexistent/dir/t.jsonl") }
    do {
      _ = try TraceWriter(destination: "/nonexistent/dir/t.jsonl")
    } catch {
      #expect(error.description.contains("/nonexistent/dir/t.jsonl"))
    }
  }

  @Test("a new trace file is private to its owner (mode 0600)")
  func mode() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try TraceWriter(destination: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }
}
