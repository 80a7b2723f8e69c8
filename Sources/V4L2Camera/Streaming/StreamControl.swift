import Dispatch
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Links a running stream thread and the code that stops it. Lock-free flags plus a semaphore;
/// the failure slot is behind its own `Mutex`.
final class StreamControl: Sendable {
  /// Set by `stopStream()`; the thread checks it at least every poll timeout.
  let stopRequested = Atomic<Bool>(false)
  /// Signalled once when the thread has left its loop (no `deliver` call runs after it).
  let finished = DispatchSemaphore(value: 0)
  /// Signalled once when `VIDIOC_STREAMON` has returned: the thread, started before it so that
  /// creating it is not between stream-on and the first frame, waits for this before it polls
  /// (when stream-on failed, `stopRequested` is set first and the thread leaves at once).
  let streamStarted = DispatchSemaphore(value: 0)
  /// The stream thread's `pthread_self()`, so a stop from inside `deliver` does not wait for itself.
  let thread = Atomic<UInt>(0)
  /// Why the stream ended on its own (device gone), if it did.
  let failure = PThreadMutex<V4L2Error?>(nil)

  /// Whether the caller is the stream thread.
  var isCurrentThread: Bool { thread.load(ordering: .acquiring) == UInt(pthread_self()) }
}
