import CaptureKit
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The app's side of a display surface: the `DisplaySink` that `PreviewOutput` presents into.
///
/// `present(_:)` scales the frame to the surface's size (area average when shrinking, nearest
/// neighbour when growing), writes it into a free slot under the slot's seqlock and publishes it
/// as the newest complete slot. The compositor in the runner's process scans it out.
public final class SharedMemoryDisplay: DisplaySink, @unchecked Sendable {
  // @unchecked: the mapping, the slot cursor and the scaler live in `state` (a Mutex); every
  // access to shared memory holds it, so `close()` cannot unmap under a writer.

  /// The shared-memory name this display presents into, or `fd:N` for one opened from a descriptor.
  public let name: String
  /// The surface's width in pixels.
  public let width: Int
  /// The surface's height in pixels.
  public let height: Int
  let geometry: SurfaceLayout.Geometry
  private let state: PThreadMutex<State?>
  /// The surface this display created for itself (`createPrivate`), closed with it.
  private let privateOwner: DisplaySurface?

  // @unchecked: a raw pointer that only ever lives inside `state` (a Mutex).
  struct State: @unchecked Sendable {
    var base: UnsafeMutableRawPointer
    var size: Int
    /// The descriptor this display opened itself (closed with it), or -1 for one it was given.
    var fd: Int32
    var nextSlot: Int
    var scaler = FrameScaler()
  }

  private init(name: String, geometry: SurfaceLayout.Geometry, state: State, privateOwner: DisplaySurface?) {
    self.name = name
    self.width = geometry.width
    self.height = geometry.height
    self.geometry = geometry
    self.state = PThreadMutex(state)
    self.privateOwner = privateOwner
  }

  /// Opens the surface called `name` (the value of `FIRSTFRAME_DISPLAY`) and checks its header.
  /// The corresponding calls are `shm_open`, `fstat` and `mmap`.
  /// - Throws: `DisplayError` — `.surfaceNotFound`, `.notASurface`, `.unsupportedVersion`,
  ///   `.invalidHeader`, `.sizeMismatch`, `.tornHeader` or `.systemCallFailed`.
  public static func open(name: String) throws(DisplayError) -> SharedMemoryDisplay {
    let fd: Int32
    do {
      fd = try Syscalls.check("shm_open", "could not open the display surface \(name)") {
        () throws(Errno) in try Syscalls.shmOpen(name, flags: O_RDWR, mode: 0)
      }
    } catch  where error.errno == .noSuchFile {
      throw DisplayError(
        .surfaceNotFound,
        "there is no display surface called \(name); check FIRSTFRAME_DISPLAY, or run without it to present into a private surface",
        systemCall: "shm_open", errno: .noSuchFile)
    }
    do {
      return try map(fd, name: name, owned: true, privateOwner: nil)
    } catch {
      Syscalls.closeDescriptor(fd)
      throw error
    }
  }

  /// Opens the surface behind descriptor `fd` (`FIRSTFRAME_DISPLAY=fd:N`: one the runner left
  /// open in this process) and checks its header. The descriptor stays the caller's: the display
  /// keeps only the mapping, so the caller may close it at once. The corresponding calls are
  /// `fstat` and `mmap`.
  /// - Throws: `DisplayError` — `.notASurface`, `.unsupportedVersion`, `.invalidHeader`,
  ///   `.sizeMismatch`, `.tornHeader` or `.systemCallFailed` (`EBADF` for a descriptor that is not open).
  public static func open(descriptor fd: Int32) throws(DisplayError) -> SharedMemoryDisplay {
    try map(fd, name: "fd:\(fd)", owned: false, privateOwner: nil)
  }

  /// Creates a surface of its own (for an app running without `FIRSTFRAME_DISPLAY`) and opens
  /// it: a sealed memory file without a name, so nothing is left behind even if the app crashes.
  public static func createPrivate(width: Int, height: Int) throws(DisplayError) -> SharedMemoryDisplay {
    let owner = try DisplaySurface.createSealed(width: width, height: height, slots: 3)
    guard let fd = owner.descriptor else {
      throw DisplayError(.closed, "the private display surface was closed while it was opened")
    }
    return try map(fd, name: owner.name, owned: false, privateOwner: owner)
  }

  /// Maps the surface open as `fd` and checks its header; an `owned` descriptor is closed with the
  /// display. On failure nothing is mapped and `fd` is left open.
  private static func map(_ fd: Int32, name: String, owned: Bool, privateOwner: DisplaySurface?)
    throws(DisplayError)
    -> SharedMemoryDisplay
  {
    let st: (size: Int, mode: mode_t)
    do {
      st = try Syscalls.stat(fd)
    } catch {
      throw DisplayError(
        .systemCallFailed, "could not read the size of the display surface \(name)", systemCall: "fstat",
        errno: error)
    }
    guard st.size >= SurfaceLayout.headerBytes else {
      throw DisplayError(
        .notASurface,
        "\(name) holds \(st.size) bytes, less than a FirstFrame surface header (\(SurfaceLayout.headerBytes)); check FIRSTFRAME_DISPLAY"
      )
    }
    let base: UnsafeMutableRawPointer
    do {
      base = try Syscalls.map(fd, st.size)
    } catch {
      throw DisplayError(
        .systemCallFailed, "could not map the display surface \(name)", systemCall: "mmap", errno: error)
    }
    let geometry: SurfaceLayout.Geometry
    do {
      geometry = try SurfaceMemory(base: base).readGeometry(objectBytes: st.size)
    } catch {
      Syscalls.unmap(base, st.size)
      throw error
    }
    let state = State(base: base, size: st.size, fd: owned ? fd : -1, nextSlot: 0)
    return SharedMemoryDisplay(name: name, geometry: geometry, state: state, privateOwner: privateOwner)
  }

  /// Scales `frame` to the surface and publishes it for the next scanout.
  public func present(_ frame: VideoFrame) { _ = publish(frame) }

  /// Publishes `frame` and returns the present time stamped inside the slot's seqlock, just
  /// before the slot became visible (the clock, after the fact, when the display is closed and
  /// nothing was shown).
  public func presentStamped(_ frame: VideoFrame) -> UInt64 { publish(frame) ?? MonotonicClock.now() }

  /// Publishes a black frame (the lock cover).
  public func presentBlack() { _ = publishBlack() }

  /// Publishes `frame`; returns the ground-truth present time (`CLOCK_MONOTONIC` ns, read just
  /// before the slot became visible), or nil when closed.
  @discardableResult
  package func publish(_ frame: VideoFrame) -> UInt64? {
    frame.pixels.withUnsafeBufferPointer { px in
      publish(sequence: frame.sequence, captureTime: frame.captureTime, black: false) { dest, scaler in
        scaler.scale(
          source: px.baseAddress!, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow,
          into: dest, width: geometry.width, height: geometry.height, bytesPerRow: geometry.bytesPerRow)
      }
    }
  }

  /// Publishes a black frame; returns the ground-truth present time, or nil when closed.
  @discardableResult
  package func publishBlack() -> UInt64? {
    publish(sequence: 0, captureTime: 0, black: true) { dest, _ in
      dest.update(repeating: 0, count: geometry.slotBytes)
    }
  }

  private func publish(
    sequence: UInt64, captureTime: UInt64, black: Bool,
    draw: (UnsafeMutablePointer<UInt8>, inout FrameScaler) -> Void
  ) -> UInt64? {
    state.withLock { s -> UInt64? in
      guard var current = s else { return nil }
      let m = SurfaceMemory(base: current.base)
      let slot = current.nextSlot % geometry.slots
      let record = SurfaceMemory.slotRecord(slot)
      let seq = m.atomic64(record + SurfaceLayout.slotOffSequence)
      let even = seq.pointee.load(ordering: .relaxed) & ~1
      seq.pointee.store(even &+ 1, ordering: .relaxed)
      atomicMemoryFence(ordering: .releasing)
      draw(m.pixels(slot: slot, geometry: geometry), &current.scaler)
      m.setU64(record + SurfaceLayout.slotOffFrameSequence, sequence)
      m.setU64(record + SurfaceLayout.slotOffCaptureTime, captureTime)
      m.setU32(record + SurfaceLayout.slotOffFlags, black ? SurfaceLayout.flagBlack : 0)
      let presentTime = MonotonicClock.now()
      m.setU64(record + SurfaceLayout.slotOffPresentTime, presentTime)
      seq.pointee.store(even &+ 2, ordering: .releasing)
      m.atomic32(SurfaceLayout.offNewestSlot).pointee.store(UInt32(slot), ordering: .releasing)
      m.atomic64(SurfaceLayout.offPublishCount).pointee.add(1, ordering: .relaxed)
      current.nextSlot = (slot + 1) % geometry.slots
      s = current
      return presentTime
    }
  }

  /// Test hook: runs `body` on the raw mapping (`totalBytes` bytes) under the lock.
  package func withRawMemory<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R? {
    state.withLock { s -> R? in
      guard let current = s else { return nil }
      return body(UnsafeMutableRawBufferPointer(start: current.base, count: current.size))
    }
  }

  /// Unmaps the surface; later presents do nothing. A private surface is closed too.
  public func close() {
    state.withLock { s in
      guard let current = s else { return }
      Syscalls.unmap(current.base, current.size)
      if current.fd >= 0 { Syscalls.closeDescriptor(current.fd) }
      s = nil
    }
    privateOwner?.close()
  }

  deinit { close() }
}
