import Foundation
import PhaseTrace
import Synchronization
import SystemCalls
import TestSupport
import Testing

/// The trace is written by the app under test: whatever it puts there, reading it ends, stays
/// within its limits and never blocks.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct TraceTailLimitsTests {
  static func tempFile() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
  }

  /// One event line at ts 100,000 + i: all of the same length (i < 900,000).
  static func line(_ i: Int) -> String {
    #"{"ts":\#(100_000 + i),"name":"app.flood","kind":"event","pid":1}"# + "\n"
  }

  /// Runs `body` on its own thread; true when it returned within `seconds`.
  static func returns(within seconds: UInt64, _ body: @escaping @Sendable () -> Void) throws -> Bool {
    let done = Atomic<Bool>(false)
    try SystemThread.start(name: "test.trace") {
      body()
      done.store(true, ordering: .releasing)
    }
    return blockUntil(timeout: .seconds(seconds)) { done.load(ordering: .acquiring) }
  }

  @Test("one poll reads at most its byte budget, however much the app has written")
  func pollBudget() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = (0..<20_000).map(Self.line).joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let tail = TraceTail(path: path, maxBytesPerPoll: 64 * 1024)
    let first = tail.poll()
    #expect(!first.isEmpty)
    #expect(first.count <= 64 * 1024 / Self.line(0).utf8.count + 1)
    #expect(tail.drain().events.count == 20_000)
  }

  @Test("past maxEvents lines are counted, not kept; past maxBytes nothing is read and the rest is counted")
  func windowLimits() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = (0..<10_000).map(Self.line).joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let byEvents = TraceReader(maxEvents: 100).read(path: path)
    #expect(byEvents.events.count == 100)
    #expect(byEvents.droppedLines == 9_900)
    let limit = 50 * Self.line(0).utf8.count
    let byBytes = TraceReader(maxBytes: limit).read(path: path)
    #expect(byBytes.events.count == 50)
    #expect(byBytes.unreadBytes == text.utf8.count - limit)
  }

  @Test("a new window forgets the earlier events and gets fresh limits")
  func windows() throws {
    let path = Self.tempFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data((0..<30).map(Self.line).joined().utf8).write(to: URL(fileURLWithPath: path))
    let tail = TraceTail(path: path, reader: TraceReader(maxEvents: 20))
    #expect(tail.drain().events.count == 20)
    #expect(tail.result.droppedLines == 10)
    tail.startWindow(keepingEventsFrom: 100_015)
    #expect(tail.result.events.map(\.ts) == Array(100_015..<100_020))
    let fd = open(path, O_WRONLY | O_APPEND)
    defer { close(fd) }
    try FileDescriptorIO.writeAll(fd, (30..<40).map(Self.line).joined())
    #expect(tail.drain().events.map(\.ts) == Array(100_015..<100_020) + Array(100_030..<100_040))
    #expect(tail.result.droppedLines == 0)
  }

  @Test("a trace replaced by a FIFO, a device or a link is refused at once, not read or waited on")
  func notARegularFile() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/fifo.jsonl"
    #expect(mkfifo(fifo, 0o600) == 0)
    let zero = dir + "/zero.jsonl"
    #expect(symlink("/dev/zero", zero) == 0)
    for path in [fifo, zero, "/dev/zero", "/dev/urandom"] {
      let result = PThreadMutex<TraceReader.Result?>(nil)
      let returned = try Self.returns(within: 10) { result.withLock { $0 = TraceReader().read(path: path) } }
      if !returned {
        // Release a reader blocked opening the FIFO.
        let w = open(fifo, O_WRONLY | O_NONBLOCK)
        if w >= 0 { close(w) }
      }
      #expect(returned, "reading \(path) did not return")
      let problems = result.withLock { $0?.problems } ?? []
      #expect(problems.contains { $0.contains("not read") }, "\(path): \(problems)")
    }
  }
}
