import CXCBShims
import CaptureKit
import Display
import Synchronization
import SystemCalls

/// An app's preview window on an X server: the `DisplaySink` camera-app presents into when
/// `FIRSTFRAME_DISPLAY` is `x11:NAME` (or `DISPLAY` is set and `FIRSTFRAME_DISPLAY` is not).
///
/// A window of the preview's size (`_NET_WM_PID` set to this process, so that a probe can find
/// it), with a black background and backing store. Each frame is scaled to the window
/// (`FrameScaler`), turned into the server's 32-bit pixels, put with `ShmPutImage` (MIT-SHM; plain
/// `PutImage` in bands when the server refuses shared memory), and followed by a round trip, so
/// that `present(_:)` returns only once the server has the frame — when `preview.first_present`
/// is stamped, the frame is on the X screen, not in a buffer.
package final class X11Presenter: DisplaySink, @unchecked Sendable {
  // @unchecked: everything mutable (the pixel buffers, the scaler, the shared segment) lives
  // in `state` (a Mutex) and every request that uses it is made holding that lock.

  /// The window's width in pixels.
  package let width: Int
  /// The window's height in pixels.
  package let height: Int
  /// The window's id on the server.
  package let window: UInt32
  /// The connection (the display name, the setup).
  package let connection: X11Connection
  /// Whether frames cross in shared memory (MIT-SHM) rather than through the socket.
  package let usesSharedMemory: Bool

  private let format: X11PixelFormat
  private let gc: UInt32
  private let greyPixels: [UInt32]
  private let onConnectionLost: @Sendable (X11Error) -> Void
  private let state: PThreadMutex<State>

  // @unchecked: the segment is only touched holding `state`.
  struct State: @unchecked Sendable {
    var scaler = FrameScaler()
    var luma: [UInt8]
    /// The image in the server's format: the shared segment, or this buffer without MIT-SHM.
    var segment: X11SharedMemory?
    var pixels: [UInt32]
    var lost = false
  }

  /// Connects to `display` (nil: `$DISPLAY`), creates and maps a `width`×`height` window titled
  /// `title` with `_NET_WM_PID` = `pid` (none when nil), and prepares its image. `onConnectionLost`
  /// runs once if the server goes away while presenting.
  /// - Throws: `X11Error` — the library or the server missing, or a screen that is not 24/32-bit
  ///   TrueColor.
  package convenience init(
    display: String?, authorization: X11Authorization? = nil, width: Int, height: Int, title: String,
    pid: Int32?, onConnectionLost: @escaping @Sendable (X11Error) -> Void = { _ in }
  ) throws(X11Error) {
    try self.init(
      display: display, authorization: authorization, width: width, height: height, title: title, pid: pid,
      allowsSharedMemory: true, onConnectionLost: onConnectionLost)
  }

  /// `init(display:…)`, with `allowsSharedMemory` false putting images through the socket as
  /// on a server that refuses MIT-SHM (tests).
  package init(
    display: String?, authorization: X11Authorization?, width: Int, height: Int, title: String, pid: Int32?,
    allowsSharedMemory: Bool, onConnectionLost: @escaping @Sendable (X11Error) -> Void
  ) throws(X11Error) {
    let connection = try X11Connection(
      display: display, authorization: authorization, libraries: X11Library.presenting)
    let screen = connection.screen
    guard let visual = connection.setup.visual(screen.rootVisual, on: connection.screenNumber) else {
      throw X11Error(.unsupportedVisual, "the X screen's root visual is not in its setup")
    }
    let format = try X11PixelFormat(setup: connection.setup, visual: visual, depth: screen.rootDepth)
    let window = try connection.generateID()
    // CWBackPixel | CWBackingStore | CWEventMask, in that (bit) order: black, Always, no events.
    let values: [UInt32] = [screen.blackPixel, 2, 0]
    let created = CXCBShims_createWindow(
      connection.raw, screen.rootDepth, window, screen.root, 0, 0, UInt16(width), UInt16(height), 0, 1,
      screen.rootVisual, 0x2 | 0x40 | 0x800, values)
    try connection.setWindowProperties(window, title: title, pid: pid)
    let gc = try connection.generateID()
    _ = CXCBShims_createGC(connection.raw, gc, window, 0x10000, [0])  // GCGraphicsExposures: off
    _ = CXCBShims_mapWindow(connection.raw, window)
    try connection.check(created, "xcb_create_window")

    var segment: X11SharedMemory?
    if allowsSharedMemory && X11SharedMemory.isAvailable(on: connection) {
      segment = try? X11SharedMemory(connection: connection, size: 4 * width * height, serverWrites: false)
    }
    self.width = width
    self.height = height
    self.window = window
    self.connection = connection
    self.usesSharedMemory = segment != nil
    self.format = format
    self.gc = gc
    self.greyPixels = format.greyPixels()
    self.onConnectionLost = onConnectionLost
    self.state = PThreadMutex(
      State(
        luma: [UInt8](repeating: 0, count: width * height), segment: segment,
        pixels: segment == nil ? [UInt32](repeating: 0, count: width * height) : []))
  }

  /// Scales `frame` to the window and puts it; returns once the server has it.
  package func present(_ frame: VideoFrame) { _ = publish(frame) }

  /// Puts `frame` and returns the time the server had it (`CLOCK_MONOTONIC` ns, read after the
  /// round trip): on X11 `preview.first_present` means "the server has the frame", not "sent".
  package func presentStamped(_ frame: VideoFrame) -> UInt64 {
    _ = publish(frame)
    return MonotonicClock.now()
  }

  /// Fills the window with black (the lock cover); returns once the server has it.
  package func presentBlack() { _ = publishBlack() }

  /// Puts `frame`; returns the ground-truth present time (`CLOCK_MONOTONIC` ns, read just before
  /// the image request was sent, so nothing on screen can show it earlier), or nil when the
  /// connection is gone.
  @discardableResult
  package func publish(_ frame: VideoFrame) -> UInt64? {
    state.withLock { s -> UInt64? in
      let (w, h) = (width, height)
      frame.pixels.withUnsafeBufferPointer { px in
        s.luma.withUnsafeMutableBufferPointer { dest in
          s.scaler.scale(
            source: px.baseAddress!, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow,
            into: dest.baseAddress!, width: w, height: h, bytesPerRow: w)
        }
      }
      let scaled = s.luma
      return put(&s) { pixels in
        scaled.withUnsafeBufferPointer { luma in
          greyPixels.withUnsafeBufferPointer { table in
            for i in 0..<(w * h) { pixels[i] = table[Int(luma[i])] }
          }
        }
      }
    }
  }

  /// Puts a black image; returns the ground-truth present time, or nil when the connection is gone.
  @discardableResult
  package func publishBlack() -> UInt64? {
    state.withLock { s -> UInt64? in
      let black = greyPixels[0]
      let count = width * height
      return put(&s) { pixels in pixels.update(repeating: black, count: count) }
    }
  }

  /// Puts the grey image `luma` (`width`×`height`, rows packed) at (`x`, `y`) of the window —
  /// a change to part of it — through the socket (`PutImage`), and waits for the server to have
  /// it. False when the server refused it or is gone (tests).
  package func publishPart(_ luma: [UInt8], x: Int, y: Int, width: Int, height: Int) -> Bool {
    state.withLock { s -> Bool in
      guard !s.lost, luma.count == width * height else { return false }
      let pixels = luma.map { greyPixels[Int($0)] }
      pixels.withUnsafeBytes { raw in
        _ = CXCBShims_putImage(
          connection.raw, 2, window, gc, UInt16(width), UInt16(height), Int16(x), Int16(y), 0, format.depth,
          UInt32(raw.count), raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
      }
      return (try? connection.roundTrip()) != nil
        && !connection.pendingEvents().contains { if case .error = $0 { true } else { false } }
    }
  }

  /// Draws with `draw` into the image and puts it, then waits for the server to have it.
  private func put(_ s: inout State, draw: (UnsafeMutablePointer<UInt32>) -> Void) -> UInt64? {
    guard !s.lost else { return nil }
    let presentTime: UInt64
    if let segment = s.segment {
      draw(segment.base.assumingMemoryBound(to: UInt32.self))
      presentTime = MonotonicClock.now()
      _ = CXCBShims_shmPutImage(
        connection.raw, window, gc, UInt16(width), UInt16(height), 0, 0, UInt16(width), UInt16(height), 0, 0,
        format.depth, 2, 0, segment.segment, 0)
    } else {
      s.pixels.withUnsafeMutableBufferPointer { draw($0.baseAddress!) }
      presentTime = MonotonicClock.now()
      putInBands(s.pixels)
    }
    do throws(X11Error) {
      try connection.roundTrip()
      for case .error(let code, let major, _) in connection.pendingEvents() {
        throw X11Error(
          .requestFailed,
          "the X server refused an image (request \(major)): \(X11Connection.errorName(code))",
          xErrorCode: code)
      }
    } catch {
      s.lost = true
      onConnectionLost(error)
      return nil
    }
    return presentTime
  }

  /// `PutImage` (ZPixmap) in bands of rows that fit the server's maximum request length.
  private func putInBands(_ pixels: [UInt32]) {
    let rowBytes = format.bytesPerRow(width: width)
    let maxBytes = Int(CXCBShims_maximumRequestLength(connection.raw)) * 4 - 32
    let rowsPerBand = max(1, min(height, maxBytes / rowBytes))
    pixels.withUnsafeBytes { raw in
      var y = 0
      while y < height {
        let rows = min(rowsPerBand, height - y)
        _ = CXCBShims_putImage(
          connection.raw, 2, window, gc, UInt16(width), UInt16(rows), 0, Int16(y), 0, format.depth,
          UInt32(rows * rowBytes), raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * rowBytes)
        y += rows
      }
    }
  }

  /// Destroys the window and closes the connection. Safe to call more than once.
  package func close() {
    state.withLock { s in
      s.segment?.close()
      s.segment = nil
      s.lost = true
    }
    connection.disconnect()
  }

  deinit { close() }
}
