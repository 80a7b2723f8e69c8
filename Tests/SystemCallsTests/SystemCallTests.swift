import Glibc
import Synchronization
import SystemCalls
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct SystemCallTests {
  @Test("a call interrupted by a signal is retried, and -1 becomes the thread's errno as a value")
  func retrying() throws {
    var calls = 0
    let result = try SystemCall.retrying { () -> Int32 in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7 && calls == 3)
    #expect(throws: Errno.noSuchFile) {
      try SystemCall.retrying { () -> Int32 in
        errno = ENOENT
        return -1
      }
    }
  }

  @Test("a call that returns its error number is retried on EINTR and throws anything else")
  func retryingReturnedError() throws {
    var codes: [Int32] = [EINTR, EINTR, 0]
    try SystemCall.retryingReturnedError { codes.removeFirst() }
    #expect(codes.isEmpty)
    #expect(throws: Errno(rawValue: EAGAIN)) { try SystemCall.retryingReturnedError { EAGAIN } }
  }

  @Test("an errno value knows its C name and the C library's text")
  func errnoNames() {
    #expect(Errno.noSuchFile.name == "ENOENT")
    #expect(Errno.noSuchFile.description == "No such file or directory")
    #expect(Errno(rawValue: 4095).name == "errno 4095")
  }

  @Test("PThreadMutex: threads that update a value or run a section under it never interleave")
  func pthreadMutex() throws {
    let counter = PThreadMutex(0)
    let section = PThreadMutex<Void>(())
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    for t in 0..<4 {
      try SystemThread.start(name: "test.lock\(t)") {
        for _ in 0..<5_000 {
          counter.withLock { $0 += 1 }
          section.withLock { _ in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
              overlaps.add(1, ordering: .relaxed)
            }
            inside.subtract(1, ordering: .acquiringAndReleasing)
          }
        }
        finished.add(1, ordering: .releasing)
      }
    }
    let timedOut = MonotonicClock.sleep(until: MonotonicClock.now() + 60_000_000_000, slice: 1_000_000) {
      finished.load(ordering: .acquiring) == 4
    }
    #expect(!timedOut, "the threads did not finish")
    #expect(counter.withLock { $0 } == 20_000)
    #expect(overlaps.load(ordering: .relaxed) == 0)
  }

  @Test("writeAll delivers a buffer larger than the pipe holds, whole and in order")
  func writeAllPipe() throws {
    let (readEnd, writeEnd) = try ProcessControl.pipe()
    defer { FileDescriptorIO.close(readEnd) }
    let bytes = (0..<(1 << 18)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let received = PThreadMutex<[UInt8]>([])
    let done = Atomic<Bool>(false)
    try SystemThread.start(name: "test.reader") {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = (try? chunk.withUnsafeMutableBytes { try FileDescriptorIO.read(readEnd, into: $0) }) ?? 0
        if n == 0 { break }
        received.withLock { $0 += chunk.prefix(n) }
      }
      done.store(true, ordering: .releasing)
    }
    try FileDescriptorIO.writeAll(writeEnd, bytes)
    FileDescriptorIO.close(writeEnd)
    let finished = MonotonicClock.sleep(until: MonotonicClock.now() + 30_000_000_000, slice: 1_000_000) {
      done.load(ordering: .acquiring)
    }
    #expect(!finished, "the reader did not see the end of the pipe")
    #expect(received.withLock { $0 } == bytes)
  }

  @Test("writeAll to a pipe nobody reads throws EPIPE as a value")
  func writeAllBrokenPipe() throws {
    signal(SIGPIPE, SIG_IGN)
    let (readEnd, writeEnd) = try ProcessControl.pipe()
    defer { FileDescriptorIO.close(writeEnd) }
    FileDescriptorIO.close(readEnd)
    #expect(throws: Errno.brokenPipe) { try FileDescriptorIO.writeAll(writeEnd, "lost\n") }
  }
}
