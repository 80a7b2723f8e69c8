#if canImport(Glibc)
  import Glibc
#endif

/// A value guarded by a POSIX mutex (`pthread_mutex_lock` / `pthread_mutex_unlock`), with the
/// same `withLock` as `Synchronization.Mutex`: the lock for all of FirstFrame's shared mutable
/// state, in its libraries, its executables and its tests.
///
/// Why not `Synchronization.Mutex`, which is as correct and as fast uncontended: on Linux it is
/// built from atomics and the futex system call inside a library compiled without
/// ThreadSanitizer, so TSan sees no lock at all and reports every pair of accesses it guards,
/// from two threads, as a data race. The suite under `scripts/sanitize thread` reported 12 such
/// races in its first minutes (DisplayMonitor, X11FrameSource, InMemoryTrace, PhotoOutput, each
/// inside `withLock`) and would have needed a suppression that hides real races too. TSan
/// intercepts `pthread_mutex_*` and sees this lock. `scripts/tsan-mutex-repro` shows both: the
/// same two-thread program reports a race with `Mutex` and none with this type, and both keep
/// every element.
///
/// Uncontended, a lock and an unlock are one atomic operation each, as with `Mutex`; the mutex
/// itself is one allocation when the value is made.
public final class PThreadMutex<Value>: @unchecked Sendable {
  // The mutex lives at a fixed address (pthread mutexes must not move); `value` is only read
  // or written between `pthread_mutex_lock` and `pthread_mutex_unlock` on it.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Creates the mutex (`pthread_mutex_init`, default attributes) guarding `initialValue`.
  public init(_ initialValue: Value) {
    value = initialValue
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // With default attributes glibc's pthread_mutex_init cannot fail.
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value (`pthread_mutex_lock`, then
  /// `pthread_mutex_unlock` when `body` returns or throws) and returns what it returns.
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
