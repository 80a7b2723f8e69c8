#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Testing

/// Runs each test of a suite (or one test) on the blocking tests' own threads
/// (``BlockingTestExecutor``) instead of Swift's cooperative pool.
///
/// Swift Testing starts every test at once on the cooperative pool, which has one thread per
/// core (2 here), and a test's clock (its `.timeLimit`) runs from then on. A test that blocks its
/// thread — waiting for a child process, a build of camera-app, a bench run — held one of those
/// two for its whole length, and every other test, even one that needs a millisecond, waited
/// behind it with its clock running: in CI, parsing tests took 85 s and 1-minute limits were
/// exceeded while two tests waited for camera-app's release build. Tests with this trait take
/// turns on threads of their own, as many as the machine has cores, so the blocking ones still
/// do not all run at once (which overloads the machine: every bench run at the same time), and
/// the cooperative pool stays free for the rest.
package struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of the suite, and of suites nested in it.
  package var isRecursive: Bool { true }

  /// Provides scope to each test case's run, not to the suite as a whole.
  package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs `function` (the test case's body) under a task executor preference for
  /// ``BlockingTestExecutor/shared``.
  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
  }
}

extension Trait where Self == BlockingTrait {
  /// This test blocks its thread (processes, builds, blocking waits): run it on the blocking
  /// tests' threads, never on one of the cooperative pool's (``BlockingTrait``).
  package static var blocking: Self { BlockingTrait() }
}

/// A task executor with a fixed number of threads of its own that run the jobs given to it in the
/// order given. For tests only: a job that blocks holds one of these threads, never the
/// cooperative pool's.
package final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor ``BlockingTrait`` uses: one thread per active processor, at least 2.
  package static let shared = BlockingTestExecutor(
    threads: max(2, ProcessInfo.processInfo.activeProcessorCount))
  private let condition = NSCondition()
  private var queue: [UnownedJob] = []
  private var head = 0
  /// Its threads (`pthread_self()` of each), under `condition`'s lock.
  private var threads: [pthread_t] = []

  /// Starts `threads` threads (8 MiB of stack each) that wait for jobs.
  package init(threads: Int) {
    for _ in 0..<max(1, threads) {
      let thread = Thread { [unowned self] in self.serve() }
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// Queues `job`; the next free thread runs it.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    queue.append(job)
    condition.signal()
    condition.unlock()
  }

  private func serve() {
    // Marked for TestSupport's `waitUntil`, which polls on such a thread instead of suspending
    // (a suspended check would queue behind every other blocking test's job).
    Thread.current.threadDictionary[Self.threadMarker] = true
    condition.lock()
    threads.append(pthread_self())
    condition.unlock()
    let executor = asUnownedTaskExecutor()
    while true {
      condition.lock()
      while head == queue.count { condition.wait() }
      let job = queue[head]
      head += 1
      if head > 1024 && head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      condition.unlock()
      job.runSynchronously(on: executor)
    }
  }

  /// The key under which a blocking test thread's `Thread.threadDictionary` holds `true`
  /// (TestSupport's `BlockingThreadMarker` reads the same key; TestSupport cannot import this
  /// module, which links Testing).
  package static let threadMarker = "firstframe.blocking-test-thread"

  /// Whether the calling thread is one of this executor's (Foundation's thread names are no
  /// guide: a new thread starts with its creator's name, and `Thread.current.name` may read it).
  package func runsCurrentThread() -> Bool {
    let me = pthread_self()
    condition.lock()
    defer { condition.unlock() }
    return threads.contains { pthread_equal($0, me) != 0 }
  }
}
