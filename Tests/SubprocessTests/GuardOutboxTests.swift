import Glibc
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// What bench tells its process guard arrives, every line, in order, though the guard's pipe
/// is full when it is sent.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10))))
struct GuardOutboxTests {
  @Test("no message is dropped, cut or reordered when the guard's non-blocking pipe is full")
  func fullPipe() throws {
    let (readEnd, writeEnd) = try ProcessControl.pipe()
    defer {
      FileDescriptorIO.close(readEnd)
      FileDescriptorIO.close(writeEnd)
    }
    #expect(FileDescriptorIO.setNonBlocking(writeEnd))
    let outbox = GuardOutbox(fd: writeEnd)
    // Five times a default pipe's 64 KiB, sent while nobody reads.
    let lines = (0..<3000).map {
      "rmdir /sys/kernel/tracing/instances/firstframe-\($0)x" + String(repeating: "f", count: 60)
    }
    for line in lines { outbox.send(line) }
    #expect(outbox.pendingBytes > 0, "the pipe never filled: the test proves nothing")
    // Now the guard reads: everything arrives.
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let expected = lines.reduce(0) { $0 + $1.utf8.count + 1 }
    let done = blockUntil(timeout: .seconds(120)) {
      let n: Int = buffer.withUnsafeMutableBytes {
        (try? FileDescriptorIO.read(readEnd, into: $0, until: MonotonicClock.now() &+ 10_000_000)) ?? 0
      }
      if n > 0 { received += buffer[0..<n] }
      return received.count >= expected
    }
    #expect(done, "\(received.count) of \(expected) bytes arrived")
    #expect(String(decoding: received, as: UTF8.self) == lines.map { $0 + "\n" }.joined())
    #expect(outbox.pendingBytes == 0)
  }
}
