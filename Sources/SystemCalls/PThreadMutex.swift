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
/// and the value are one allocation each when the lock is made.
public final class PThreadMutex<Value>: @unchecked Sendable {
  // The mutex and the value live at fixed addresses of their own (pthread mutexes must not move);
  // the value is only read or written between `pthread_mutex_lock` and `pthread_mutex_unlock` on
  // the mutex. The value is not a stored property: Swift's exclusivity checks would then mark
  // each `withLock` as an access to the object, and for an empty value (`PThreadMutex<Void>`,
  // a lock that guards a section rather than data) TSan placed that access at the object's first
  // bytes and reported it against another thread reading them before it locked.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  /// Creates the mutex (`pthread_mutex_init`, default attributes) guarding `initialValue`.
  public init(_ initialValue: Value) {
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // With default attributes glibc's pthread_mutex_init cannot fail.
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with exclusive access to the value (`pthread_mutex_lock`, then
  /// `pthread_mutex_unlock` when `body` returns or throws) and returns what it returns.
  public func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
