import Glibc
import SystemCalls
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct FileDescriptorIODeadlineTests {
  /// One read of `fd` with `deadline`.
  static func read(_ fd: Int32, until deadline: UInt64) throws -> (count: Int?, bytes: [UInt8]) {
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = try buffer.withUnsafeMutableBytes { try FileDescriptorIO.read(fd, into: $0, until: deadline) }
    return (count, Array(buffer[..<(count ?? 0)]))
  }

  @Test("waiting bytes are read at once")
  func readsWaitingBytes() throws {
    let pipe = try ProcessControl.pipe()
    defer { [pipe.read, pipe.write].forEach(FileDescriptorIO.close) }
    try FileDescriptorIO.writeAll(pipe.write, "abc")
    let read = try Self.read(pipe.read, until: MonotonicClock.now() + 30_000_000_000)
    #expect(read.count == 3 && read.bytes == Array("abc".utf8))
  }

  @Test("a silent pipe reads as nil once the deadline passes, not before")
  func silentPipeTimesOut() throws {
    let pipe = try ProcessControl.pipe()
    defer { [pipe.read, pipe.write].forEach(FileDescriptorIO.close) }
    let deadline = MonotonicClock.now() + 20_000_000
    let read = try Self.read(pipe.read, until: deadline)
    #expect(read.count == nil)
    #expect(MonotonicClock.now() >= deadline)
    // A deadline already past still gives nil, not a wait.
    #expect(try Self.read(pipe.read, until: 0).count == nil)
  }

  @Test("a pipe whose writer closed reads as end of input")
  func closedWriterEndsInput() throws {
    let pipe = try ProcessControl.pipe()
    defer { FileDescriptorIO.close(pipe.read) }
    FileDescriptorIO.close(pipe.write)
    #expect(try Self.read(pipe.read, until: MonotonicClock.now() + 30_000_000_000).count == 0)
  }

  @Test("bytes written while the reader waits end its wait")
  func wakesOnWrite() throws {
    let pipe = try ProcessControl.pipe()
    defer { [pipe.read, pipe.write].forEach(FileDescriptorIO.close) }
    let writer = pipe.write
    try SystemThread.start(name: "deadline-writer") {
      MonotonicClock.sleep(nanoseconds: 10_000_000)  // not a timing assertion: the write comes later
      try? FileDescriptorIO.writeAll(writer, "x")
    }
    let read = try Self.read(pipe.read, until: MonotonicClock.now() + 30_000_000_000)
    #expect(read.bytes == [UInt8(ascii: "x")])
  }

  @Test("a descriptor that is not open is EBADF")
  func badDescriptor() {
    #expect(throws: Errno.badFileDescriptor) {
      try Self.read(999_999, until: MonotonicClock.now() + 1_000_000_000)
    }
  }
}
