import Synchronization

/// Counts the frames a device delivered after its `stopStream()` had returned — which must be
/// none — at the place the delivery happens, so that a test asserts "no frame after stop" right
/// after the stop returns, with no sleep that the stream thread could outlast.
///
/// A device keeps one counter and gives each stream a ``Gate``. The stream thread passes every
/// delivery through ``Gate/deliver(_:_:)``; `stopStream()` calls ``Gate/stopReturned(fromDelivery:)``
/// just before it returns. A delivery counts when it began after that, or was still running then
/// (unless `stopStream()` was called from that delivery). Both sides use sequentially consistent
/// flags, so a delivery that overlaps the stop's return is seen by one side or the other.
package final class DeliveryAfterStopCounter: Sendable {
  private let count = Atomic<Int>(0)

  /// A counter at 0.
  package init() {}

  /// The frames delivered after a `stopStream()` had returned, over every stream of the device.
  package var framesDeliveredAfterStop: Int { count.load(ordering: .sequentiallyConsistent) }

  /// The gate for a new stream.
  package func gate() -> Gate { Gate(counter: self) }

  /// One stream's side of the counter.
  package final class Gate: Sendable {
    private let counter: DeliveryAfterStopCounter
    private let stopped = Atomic<Bool>(false)
    private let delivering = Atomic<Bool>(false)

    fileprivate init(counter: DeliveryAfterStopCounter) { self.counter = counter }

    /// Calls `deliver(frame)`, counting it when the stream's `stopStream()` has already returned.
    package func deliver(_ frame: VideoFrame, _ deliver: (VideoFrame) -> Void) {
      delivering.store(true, ordering: .sequentiallyConsistent)
      if stopped.load(ordering: .sequentiallyConsistent) {
        counter.count.add(1, ordering: .sequentiallyConsistent)
      }
      deliver(frame)
      delivering.store(false, ordering: .sequentiallyConsistent)
    }

    /// Marks the stream's `stopStream()` as returning; counts a delivery still running then,
    /// unless `fromDelivery` (the stop was called from inside that delivery, its last).
    package func stopReturned(fromDelivery: Bool) {
      stopped.store(true, ordering: .sequentiallyConsistent)
      if !fromDelivery && delivering.load(ordering: .sequentiallyConsistent) {
        counter.count.add(1, ordering: .sequentiallyConsistent)
      }
    }
  }
}
