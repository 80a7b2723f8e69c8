import BenchKit
import Foundation
@testable import HostConditions
import Synchronization
import SystemCalls
import TestThreads
import Testing
import TestSupport

/// The paths the evictor opens come from the app's `/proc/PID/maps`: the app chooses them.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct CacheEvictorHostileTests {
  @Test("a FIFO or a link put where a mapped file was is skipped without blocking; a regular file is evicted")
  func fifoAndLinks() throws {
    let dir = temporaryFolder("evictor")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/libfake.so"
    #expect(mkfifo(fifo, 0o600) == 0)
    let link = dir + "/link.so"
    #expect(symlink(fifo, link) == 0)
    let regular = dir + "/real.so"
    #expect(FileManager.default.createFile(atPath: regular, contents: Data(repeating: 1, count: 4096)))
    let done = Atomic<Bool>(false)
    try SystemThread.start(name: "test.evict") {
      CacheEvictor(files: [fifo, link, regular]).evict()
      done.store(true, ordering: .releasing)
    }
    let returned = blockUntil(timeout: .seconds(10)) { done.load(ordering: .acquiring) }
    if !returned {
      // Release the evictor blocked in open(2): a writer appears, the open returns.
      let w = open(fifo, O_WRONLY | O_NONBLOCK)
      if w >= 0 { close(w) }
    }
    #expect(returned, "evict() blocked on a FIFO")
  }
}
