import SystemCalls

/// Reads a wlroots compositor's output (`zwlr_screencopy_manager_v1`, version 2 or later) into
/// shared memory, one frame at a time: with damage, a copy waits until the output changed and
/// says where. Each frame carries the compositor's presentation time of the output commit
/// (the `ready` event: `CLOCK_MONOTONIC` in wlroots) and the client's own clock when it arrived.
///
/// Used from one thread (the probe's): ``nextFrame(waitingMilliseconds:)`` keeps a copy that
/// is still pending across calls, so a caller can poll with a short wait and stop at any time.
package final class WaylandScreencopy: @unchecked Sendable {  // mutable state behind `state`
  /// One copied frame. Its pixels stay valid until the next call of `nextFrame`.
  package struct Frame: @unchecked Sendable {  // `pixels` points into the pool, read on the caller's thread
    /// The layout (`wl_shm` format code: 0 ARGB8888, 1 XRGB8888, else a DRM fourcc).
    package var format: UInt32
    /// Pixels.
    package var width: Int
    /// Pixels.
    package var height: Int
    /// Bytes a row.
    package var stride: Int
    /// Whether the rows come bottom up (`flags` `y_invert`).
    package var yInverted: Bool
    /// The rectangles that changed since the previous copy (x, y, width, height), in the
    /// output's pixels; empty for a copy without damage.
    package var damage: [(x: Int, y: Int, width: Int, height: Int)]
    /// The compositor's presentation time of the frame, ns on `CLOCK_MONOTONIC`.
    package var presentedNanoseconds: UInt64
    /// When the client read the `ready` event, ns on `CLOCK_MONOTONIC`.
    package var receivedNanoseconds: UInt64
    /// The pixels, `stride × height` bytes.
    package var pixels: UnsafeRawBufferPointer
  }

  /// The connection.
  package let connection: WaylandConnection
  /// The screencopy protocol's version bound (3 on wlroots 0.15).
  package let version: UInt32
  private let manager: UInt32
  private let shm: UInt32
  private let output: UInt32
  private let withDamage: Bool
  private let state = PThreadMutex(State())

  private struct State {
    var pool: WaylandShmPool?
    var buffer: UInt32?
    var bufferShape: Shape?
    var pending: Pending?
    var copies: UInt64 = 0
    var failures: UInt64 = 0
  }

  private struct Shape: Equatable {
    var format: UInt32
    var width: Int
    var height: Int
    var stride: Int
  }

  /// A capture asked for and not yet ready.
  private struct Pending {
    var frame: UInt32
    var shape: Shape?
    var shapeComplete = false
    var copied = false
    var yInverted = false
    var damage: [(x: Int, y: Int, width: Int, height: Int)] = []
    var ready: (presented: UInt64, received: UInt64)?
    var failed = false
  }

  /// Binds what a capture needs on `connection` (its `registry`): `wl_shm`, the screencopy
  /// manager and the first output. `withDamage` asks each copy to wait for a change
  /// (`copy_with_damage`, version 2 or later).
  /// - Throws: `.missingGlobal` naming what the compositor lacks (weston, GNOME and KDE have no
  ///   wlr-screencopy); the connection's error.
  package init(registry: WaylandRegistry, withDamage: Bool = true) throws(WaylandError) {
    connection = registry.connection
    self.withDamage = withDamage
    (manager, version) = try registry.bind(
      "zwlr_screencopy_manager_v1", version: 3, minimumVersion: withDamage ? 2 : 1)
    shm = try registry.bind("wl_shm", version: 1).id
    output = try registry.bind("wl_output", version: 1).id
    try connection.roundtrip(timeoutMilliseconds: 2_000)
  }

  /// Copies made and copies the compositor refused (`failed`) so far.
  package var counts: (copies: UInt64, failures: UInt64) { state.withLock { ($0.copies, $0.failures) } }

  /// The next frame: asks for a capture when none is pending, then reads events for at most
  /// `milliseconds` until it is copied. Returns nil when the copy is still pending (call again)
  /// or the compositor refused it (counted in ``counts``; the next call asks again).
  /// - Throws: the connection's ``WaylandError``; `.sharedMemory` for a buffer it cannot make.
  package func nextFrame(waitingMilliseconds milliseconds: Int) throws(WaylandError) -> Frame? {
    if state.withLock({ $0.pending == nil }) { try requestCapture() }
    let deadline = MonotonicClock.now() &+ UInt64(max(0, milliseconds)) * 1_000_000
    while true {
      if case .done(let frame) = try advance() { return frame }
      let now = MonotonicClock.now()
      guard now < deadline else { return nil }
      try connection.dispatch(waitingMilliseconds: Int32(clamping: (deadline - now) / 1_000_000 + 1))
    }
  }

  /// Ends a pending capture and frees the buffer. Safe to call more than once.
  package func close() {
    let (pending, buffer, pool) = state.withLock { state in
      defer {
        state.pending = nil
        state.buffer = nil
        state.pool = nil
      }
      return (state.pending?.frame, state.buffer, state.pool)
    }
    if let pending { try? connection.send(pending, 1) }
    if let buffer { pool?.destroyBuffer(buffer) }
    pool?.destroy()
  }

  // MARK: - The capture's steps

  private func requestCapture() throws(WaylandError) {
    let state = self.state
    let frame = connection.newObject { event, _ throws(WaylandError) in
      try Self.handle(&event, state: state)
    }
    state.withLock { $0.pending = Pending(frame: frame) }
    // capture_output(frame, overlay_cursor 0, output)
    try connection.send(manager, 0, [.newID(frame), .int(0), .object(output)])
  }

  /// Where a capture stands after ``advance()``.
  private enum Step {
    /// Still waiting for the compositor.
    case waiting
    /// Finished: the frame, or nil when the compositor refused the copy.
    case done(Frame?)
  }

  /// Moves the pending capture on: copies once its buffer is described, and finishes it once
  /// it is ready or refused.
  private func advance() throws(WaylandError) -> Step {
    let pending = state.withLock { $0.pending }
    guard let pending else { return .waiting }
    if pending.failed {
      state.withLock {
        $0.pending = nil
        $0.failures += 1
      }
      try connection.send(pending.frame, 1)
      return .done(nil)
    }
    if !pending.copied, pending.shapeComplete || (version < 3 && pending.shape != nil) {
      guard let shape = pending.shape else {
        throw WaylandError(.malformed, "the compositor offered no shared-memory buffer for screencopy")
      }
      let buffer = try buffer(for: shape)
      state.withLock { $0.pending?.copied = true }
      try connection.send(pending.frame, withDamage ? 2 : 0, [.object(buffer)])
      return .waiting
    }
    guard let ready = pending.ready, let shape = pending.shape else { return .waiting }
    let pixels = state.withLock { $0.pool?.bytes(offset: 0, count: shape.stride * shape.height) }
    state.withLock {
      $0.pending = nil
      $0.copies += 1
    }
    try connection.send(pending.frame, 1)
    guard let pixels else { return .done(nil) }
    let frame = Frame(
      format: shape.format, width: shape.width, height: shape.height, stride: shape.stride,
      yInverted: pending.yInverted, damage: pending.damage, presentedNanoseconds: ready.presented,
      receivedNanoseconds: ready.received, pixels: pixels)
    return .done(frame)
  }

  /// The buffer for `shape`, made anew when the shape changed.
  private func buffer(for shape: Shape) throws(WaylandError) -> UInt32 {
    let (current, oldBuffer, oldPool) = state.withLock {
      ($0.bufferShape == shape ? $0.buffer : nil, $0.buffer, $0.pool)
    }
    if let current { return current }
    if let oldBuffer { oldPool?.destroyBuffer(oldBuffer) }
    oldPool?.destroy()
    let bytes = shape.stride * shape.height
    guard shape.width > 0, shape.height > 0, shape.stride >= shape.width * 4, bytes <= 256 << 20 else {
      throw WaylandError(
        .malformed,
        "the compositor asked for a \(shape.width)×\(shape.height) screencopy buffer, stride \(shape.stride)")
    }
    let pool = try WaylandShmPool(connection: connection, shm: shm, size: bytes)
    let buffer = try pool.makeBuffer(
      offset: 0, width: shape.width, height: shape.height, stride: shape.stride, format: shape.format)
    state.withLock {
      $0.pool = pool
      $0.buffer = buffer
      $0.bufferShape = shape
    }
    return buffer
  }

  /// `zwlr_screencopy_frame_v1`'s events, into the pending capture.
  private static func handle(_ event: inout WaylandEvent, state: PThreadMutex<State>) throws(WaylandError) {
    guard state.withLock({ $0.pending?.frame == event.sender }) else { return }
    switch event.opcode {
    case 0:  // buffer(format, width, height, stride): a shared-memory layout
      let shape = Shape(
        format: try event.uint(), width: Int(try event.uint()), height: Int(try event.uint()),
        stride: Int(try event.uint()))
      state.withLock { $0.pending?.shape = shape }
    case 1:  // flags(flags): bit 0 is y_invert
      let flags = try event.uint()
      state.withLock { $0.pending?.yInverted = flags & 1 != 0 }
    case 2:  // ready(tv_sec_hi, tv_sec_lo, tv_nsec)
      let received = MonotonicClock.now()
      let high = UInt64(try event.uint())
      let low = UInt64(try event.uint())
      let nanoseconds = UInt64(try event.uint())
      let presented = ((high << 32) | low) &* 1_000_000_000 &+ nanoseconds
      state.withLock { $0.pending?.ready = (presented, received) }
    case 3:  // failed
      state.withLock { $0.pending?.failed = true }
    case 4:  // damage(x, y, width, height)
      let rectangle = (
        x: Int(try event.uint()), y: Int(try event.uint()), width: Int(try event.uint()),
        height: Int(try event.uint())
      )
      state.withLock { $0.pending?.damage.append(rectangle) }
    case 6:  // buffer_done: every layout has been offered
      state.withLock { $0.pending?.shapeComplete = true }
    default:  // linux_dmabuf (5): not used; the shared-memory layout is
      break
    }
  }
}
