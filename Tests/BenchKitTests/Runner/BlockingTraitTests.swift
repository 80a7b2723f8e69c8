import SystemCalls
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

/// `waitUntil` on a blocking test's thread keeps that thread while it polls. Were it to suspend
/// (as it does on the cooperative pool), its next check would queue behind every other blocking
/// test's job, which may hold the threads for minutes: in a CI run, a test waiting to see bench's
/// tracefs instance resumed only after 300 s, when the bench it watched had finished and removed it.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct BlockingWaitTests {
  @Test("waitUntil on a blocking thread sees a state that holds only while the other jobs hold the threads")
  func waitKeepsItsThread() async throws {
    let executor = BlockingTestExecutor(threads: 1)
    let flag = PThreadMutex(false)
    let seen = PThreadMutex(false)
    let observing = PThreadMutex(false)
    let occupierStarted = PThreadMutex(false)
    let flipped = PThreadMutex(false)
    let observer = Task(executorPreference: executor) { () async -> Bool in
      observing.withLock { $0 = true }
      let saw = await waitUntil(timeout: .seconds(90)) { flag.withLock { $0 } }
      if saw { seen.withLock { $0 = true } }
      return saw
    }
    #expect(blockUntil { observing.withLock { $0 } })
    // The other job: it holds the executor's one thread until the state has come and gone.
    let occupier = Task(executorPreference: executor) {
      occupierStarted.withLock { $0 = true }
      _ = blockUntil(timeout: .seconds(120)) { flipped.withLock { $0 } }
    }
    // The state holds while the occupier runs (or, when it never gets to, from 5 s on) until
    // the observer has seen it, at most 60 s.
    try SystemThread.start(name: "flipper") {
      _ = blockUntil(timeout: .seconds(5)) { occupierStarted.withLock { $0 } }
      flag.withLock { $0 = true }
      _ = blockUntil(timeout: .seconds(60)) { seen.withLock { $0 } }
      flag.withLock { $0 = false }
      flipped.withLock { $0 = true }
    }
    #expect(await observer.value, "waitUntil never saw the state: its check waited behind the other job")
    await occupier.value
  }
}
