import CaptureKit
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
  /// Signalled once by the stream thread: when its `VIDIOC_STREAMON` failed, or when its first
  /// poll for a buffer has returned (the first buffer dequeued, or one poll timeout); also when
  /// it leaves before. `startStream` waits for it (and for `finished` when stream-on failed).
  let streamStarted = DispatchSemaphore(value: 0)
  /// Whether the stream thread got `SCHED_FIFO`: 1 granted, 0 refused, -1 not asked yet.
  let realtime = Atomic<Int8>(-1)
  /// Why `VIDIOC_STREAMON` failed, set before `streamStarted` is signalled; nil when it succeeded.
  let streamOnFailure = PThreadMutex<V4L2Error?>(nil)
  /// The stream thread's `pthread_self()`, so a stop from inside `deliver` does not wait for itself.
  let thread = Atomic<UInt>(0)
  /// Why the stream ended on its own (device gone), if it did.
  let failure = PThreadMutex<V4L2Error?>(nil)
  /// Counts a delivery after `stopStream()` returned (none, as the stop waits for `finished`).
  let afterStop: DeliveryAfterStopCounter.Gate

  init(afterStop: DeliveryAfterStopCounter.Gate) { self.afterStop = afterStop }

  /// Whether the caller is the stream thread.
  var isCurrentThread: Bool { thread.load(ordering: .acquiring) == UInt(pthread_self()) }
}
