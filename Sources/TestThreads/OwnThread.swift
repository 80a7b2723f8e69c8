import Foundation
import Testing

/// Runs each test of a suite (or one test) on threads of its own instead of Swift's cooperative
/// pool, which has one thread per core: 2 here. A test that blocks its thread — waiting for a
/// child process, a build of camera-app, a bench run — held one of those two for its whole length,
/// and every other test of the run (even the async ones that only await) queued behind it: in CI a
/// CaptureKit test of well under a second took 85 s and one exceeded its time limit while two
/// blocking tests waited for camera-app's release build. With this trait the blocking test's body
/// runs under a task executor preference for ``ThreadPerJobExecutor``.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of the suite, and of suites nested in it.
  public var isRecursive: Bool { true }

  /// Provides scope to each test case's run, not to the suite as a whole.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs `function` (the test case's body) under a task executor preference for
  /// ``ThreadPerJobExecutor/shared``.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
  }
}

extension Trait where Self == OwnThreadTrait {
  /// This test blocks its thread (processes, builds, blocking waits): run its body on a thread of
  /// its own, never on one of the cooperative pool's few threads (``OwnThreadTrait``).
  public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs every job it is given on a new thread, named
/// ``ThreadPerJobExecutor/threadName``. For tests only: a job that blocks holds only its own thread.
public final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
  /// The one executor the trait uses.
  public static let shared = ThreadPerJobExecutor()
  /// The name of each thread it starts.
  public static let threadName = "test-own-thread"

  /// Runs `job` on a new thread (8 MiB of stack) named ``threadName``.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    let thread = Thread {
      Thread.current.name = Self.threadName
      job.runSynchronously(on: executor)
    }
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// The calling thread's name (Foundation's `Thread.current.name`), "" when it has none.
  public static func currentThreadName() -> String { Thread.current.name ?? "" }
}
