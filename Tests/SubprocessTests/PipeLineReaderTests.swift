import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct PipeLineReaderTests {
  /// A deadline far enough away never to be reached by a passing test.
  static var later: UInt64 { MonotonicClock.now() + 30_000_000_000 }

  @Test("a line that arrives in pieces is handed on once, whole, without its newline")
  func linesInPieces() throws {
    let pipe = try ProcessControl.pipe()
    defer { [pipe.read, pipe.write].forEach(FileDescriptorIO.close) }
    var reader = PipeLineReader(pipe.read)
    try FileDescriptorIO.writeAll(pipe.write, "12")
    let writer = pipe.write
    try SystemThread.start(name: "pipe-writer") {
      MonotonicClock.sleep(nanoseconds: 10_000_000)  // not a timing assertion: the rest comes later
      try? FileDescriptorIO.writeAll(writer, "3\nfour\nfi")
    }
    #expect(reader.lines(until: Self.later) == .lines(["123", "four"]))
    try FileDescriptorIO.writeAll(pipe.write, "ve\n")
    #expect(reader.lines(until: Self.later) == .lines(["five"]))
  }

  @Test("a closed writer ends the input, and a part line before it is dropped")
  func endOfInput() throws {
    let pipe = try ProcessControl.pipe()
    defer { FileDescriptorIO.close(pipe.read) }
    var reader = PipeLineReader(pipe.read)
    try FileDescriptorIO.writeAll(pipe.write, "partial")
    FileDescriptorIO.close(pipe.write)
    #expect(reader.lines(until: Self.later) == .endOfInput)
  }

  @Test("a silent pipe, or one with only a part line, times out at the deadline")
  func timesOut() throws {
    let pipe = try ProcessControl.pipe()
    defer { [pipe.read, pipe.write].forEach(FileDescriptorIO.close) }
    var reader = PipeLineReader(pipe.read)
    #expect(reader.lines(until: MonotonicClock.now() + 10_000_000) == .timedOut)
    try FileDescriptorIO.writeAll(pipe.write, "no newline")
    #expect(reader.lines(until: MonotonicClock.now() + 10_000_000) == .timedOut)
  }

  @Test("a descriptor that is not open fails with EBADF")
  func badDescriptor() {
    var reader = PipeLineReader(999_999)
    #expect(reader.lines(until: Self.later) == .failed(.badFileDescriptor))
  }
}
