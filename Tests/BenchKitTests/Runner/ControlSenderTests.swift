import BenchKit
import Foundation
import LaunchContract
import Synchronization
import SystemCalls
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct ControlSenderTests {
  @Test("commands to an app that never reads its control pipe are dropped and counted, never waited for")
  func neverRead() throws {
    let (readEnd, writeEnd) = try ProcessControl.pipe()
    defer { close(writeEnd) }
    let sender = ControlSender(fd: writeEnd)
    let total = 50_000  // ~300 KB of commands: far more than a pipe holds
    let done = Atomic<Bool>(false)
    let delivered = Atomic<Int>(0)
    try SystemThread.start(name: "test.control") {
      for _ in 0..<total where sender.send(.tap) { delivered.add(1, ordering: .relaxed) }
      done.store(true, ordering: .releasing)
    }
    let finished = blockUntil(timeout: .seconds(20)) { done.load(ordering: .acquiring) }
    // A blocked writer is released by closing the reader (its write then fails with EPIPE).
    close(readEnd)
    #expect(finished, "send blocked on a full pipe")
    _ = blockUntil(timeout: .seconds(5)) { done.load(ordering: .acquiring) }
    #expect(sender.droppedCommands > 0)
    #expect(sender.droppedCommands + delivered.load(ordering: .relaxed) == total)
  }

  @Test("a command to an app that closed its end is dropped and counted")
  func closedByApp() throws {
    let (readEnd, writeEnd) = try ProcessControl.pipe()
    defer { close(writeEnd) }
    close(readEnd)
    let sender = ControlSender(fd: writeEnd)
    signal(SIGPIPE, SIG_IGN)
    #expect(!sender.send(.quit))
    #expect(sender.droppedCommands == 1)
  }
}
