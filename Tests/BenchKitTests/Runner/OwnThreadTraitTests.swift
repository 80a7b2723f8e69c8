import TestThreads
import Testing

/// The `.ownThread` trait moves a test's body off Swift's cooperative pool, before and after
/// each await; without it the body runs on the pool (the control, so the check can tell).
@Suite struct OwnThreadTraitTests {
  @Test("with .ownThread a synchronous body runs on a thread of its own", .ownThread)
  func synchronousBody() {
    #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
  }

  @Test("with .ownThread an async body stays off the pool after it awaits", .ownThread)
  func asyncBody() async throws {
    #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
    try await Task.sleep(for: .milliseconds(5))
    #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
    async let child = ThreadPerJobExecutor.currentThreadName()
    #expect(await child == ThreadPerJobExecutor.threadName, "a structured child task inherits the preference")
  }

  @Test("without the trait the body runs on the cooperative pool")
  func control() {
    #expect(ThreadPerJobExecutor.currentThreadName() != ThreadPerJobExecutor.threadName)
  }
}

/// The trait given to a suite reaches each of its tests, a serialized suite's too.
@Suite(.ownThread, .serialized, .timeLimit(.minutes(1))) struct OwnThreadSuiteTraitTests {
  @Test("a test of a suite marked .ownThread runs on a thread of its own")
  func suiteLevel() {
    #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName)
  }

  @Test("a parameterized test's cases each run on a thread of its own", arguments: [1, 2])
  func parameterized(_ value: Int) {
    #expect(ThreadPerJobExecutor.currentThreadName() == ThreadPerJobExecutor.threadName, "case \(value)")
  }
}
