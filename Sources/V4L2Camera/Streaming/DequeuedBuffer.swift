/// A buffer the driver filled, between `VIDIOC_DQBUF` and the `VIDIOC_QBUF` that gives it back
/// (see ``BufferPool/dequeue(on:timeoutMilliseconds:)``). Its bytes are valid only until then.
struct DequeuedBuffer {
  /// The buffer's index in the pool (what `VIDIOC_QBUF` takes back).
  var index: Int
  /// The bytes the driver filled (`bytesused`; the whole mapping when the driver says 0).
  var bytes: UnsafeRawBufferPointer
  /// When the frame was captured: the driver's timestamp when it is `CLOCK_MONOTONIC` (as V4L2
  /// stamps by default), else the time of the dequeue; ns.
  var captureTime: UInt64
}
