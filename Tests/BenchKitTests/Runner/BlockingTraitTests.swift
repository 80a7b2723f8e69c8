import TestSupport
import TestThreads
import Testing

/// The `.blocking` trait moves a test's body off Swift's cooperative pool onto the blocking
/// tests' threads, before and after each await; without it the body runs on the pool (the
/// control, so the check can tell).
@Suite struct BlockingTraitTests {
  static func onBlockingThread() -> Bool {
    BlockingTestExecutor.shared.runsCurrentThread()
  }

  @Test("with .blocking a synchronous body runs on a blocking test thread", .blocking)
  func synchronousBody() {
    #expect(Self.onBlockingThread())
  }

  @Test("with .blocking an async body stays there after it awaits, and so do its child tasks", .blocking)
  func asyncBody() async throws {
    #expect(Self.onBlockingThread())
    try await Task.sleep(for: .milliseconds(5))  // not a timing assertion: a suspension point to resume from
    #expect(Self.onBlockingThread())
    async let child = Self.onBlockingThread()
    #expect(await child, "a structured child task inherits the executor preference")
  }

  @Test("without the trait the body runs on the cooperative pool")
  func control() {
    #expect(!Self.onBlockingThread())
  }
}

/// The trait given to a suite reaches each of its tests, a serialized suite's too. Its limit is
/// the blocking suites' 10 minutes: a case waits its turn behind them with its clock running
/// (a 1-minute limit ran out in a CI rehearsal).
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct BlockingSuiteTraitTests {
  @Test("a test of a suite marked .blocking runs on a blocking test thread")
  func suiteLevel() {
    #expect(BlockingTraitTests.onBlockingThread())
  }

  @Test("a parameterized test's cases each run on a blocking test thread", arguments: [1, 2])
  func parameterized(_ value: Int) {
    #expect(BlockingTraitTests.onBlockingThread(), "case \(value)")
  }
}
