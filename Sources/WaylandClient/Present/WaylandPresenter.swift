import CaptureKit
import Display
import SystemCalls

/// An app's preview window on a Wayland compositor: the `DisplaySink` camera-app presents into
/// when `FIRSTFRAME_DISPLAY` is `wayland:/PATH` (or, run by hand, `WAYLAND_DISPLAY` is set).
///
/// An xdg-shell toplevel (`xdg_toplevel`, title and app id given) on a `wl_surface`, drawn from
/// three `wl_shm` buffers in one pool (XRGB8888): a buffer is drawn only while the compositor
/// does not hold it (from its attach until its `wl_buffer.release`). Each frame is scaled to the
/// window (`FrameScaler`), turned into grey pixels, attached, damaged, given a frame callback
/// (and a `wp_presentation` feedback where offered) and committed, then followed by a round trip
/// (`wl_display.sync`), so that `present(_:)` returns only once the compositor has the commit —
/// as on X11, when `preview.first_present` is stamped, the frame is the window's content, not in
/// a buffer. The window is mapped (a black frame committed) before the initialiser returns.
///
/// A thread of its own reads the compositor's events: `xdg_wm_base.ping` (answered at once, or
/// the compositor ends the client), configures (acknowledged; the buffer stays at the preview's
/// size whatever size the compositor suggests), buffer releases, frame callbacks, presentation
/// feedback and `wl_display.error`. If the compositor goes away or reports a protocol error,
/// `onConnectionLost` runs once, on that thread.
package final class WaylandPresenter: DisplaySink, @unchecked Sendable {
  // @unchecked: everything mutable is behind `drawing` (the scaler and its scratch image, taken
  // for a whole present) or in `link` (behind its lock).

  /// The window's width in pixels.
  package let width: Int
  /// The window's height in pixels.
  package let height: Int
  /// The connection.
  package let connection: WaylandConnection
  /// The objects the window is made of.
  package let objects: Objects
  let link: WaylandPreviewLink
  private let pool: WaylandShmPool
  private let buffers: [UInt32]
  private let drawing: PThreadMutex<Drawing>

  /// The window's protocol objects on the connection.
  package struct Objects: Sendable {
    /// `wl_surface`.
    package var surface: UInt32
    /// `xdg_surface`.
    package var xdgSurface: UInt32
    /// `xdg_toplevel`.
    package var toplevel: UInt32
    /// The version of `wl_compositor` bound (4 and later: `damage_buffer`).
    package var compositorVersion: UInt32
    /// `wp_presentation`, where the compositor offers it.
    package var presentation: UInt32?
  }

  /// How long the compositor took with the frames presented so far (`CLOCK_MONOTONIC` ns, the
  /// first 4096 of each kind).
  package struct Timings: Sendable {
    /// Frames committed (black ones included).
    package var presents = 0
    /// From each commit to its frame callback's `done` as this client read it: the compositor
    /// drew the output with the frame (and asks for the next).
    package var commitToFrameDone: [UInt64] = []
    /// From each commit to the time the compositor says the frame was presented
    /// (`wp_presentation_feedback.presented`, on `CLOCK_MONOTONIC` only).
    package var commitToPresented: [UInt64] = []
    /// Frames the compositor discarded (`wp_presentation_feedback.discarded`): never shown.
    package var discarded = 0

    mutating func add(_ list: WritableKeyPath<Timings, [UInt64]>, from earlier: UInt64, to later: UInt64) {
      guard later >= earlier, self[keyPath: list].count < 4096 else { return }
      self[keyPath: list].append(later - earlier)
    }
  }

  private struct Drawing {
    var scaler = FrameScaler()
    var luma: [UInt8]
    var closed = false
  }

  /// The number of buffers the preview draws into in turn.
  static let bufferCount = 3

  /// Connects to the compositor at `socket` (an absolute path, or a name in `environment`'s
  /// `XDG_RUNTIME_DIR`), makes a `width`×`height` toplevel titled `title` with app id `appID`,
  /// waits (up to `timeoutMilliseconds`) for its first configure, and maps it with a black frame.
  /// `onConnectionLost` runs once if the compositor goes away afterwards.
  /// - Throws: ``WaylandError`` — the compositor unreachable, a global missing (`wl_compositor`,
  ///   `wl_shm`, `xdg_wm_base`), no configure in time, a protocol error.
  package init(
    socket: String, environment: [String: String] = [:], width: Int, height: Int, title: String,
    appID: String, timeoutMilliseconds: Int = 5_000,
    onConnectionLost: @escaping @Sendable (WaylandError) -> Void = { _ in }
  ) throws(WaylandError) {
    guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
      throw WaylandError(.sharedMemory, "a \(width)×\(height) Wayland preview")
    }
    let connection = try WaylandConnection(socket: socket, environment: environment)
    let link = WaylandPreviewLink(
      connection: connection, buffers: Self.bufferCount, onConnectionLost: onConnectionLost)
    let made: (Objects, WaylandShmPool, [UInt32])
    do {
      made = try Self.makeWindow(
        link: link, width: width, height: height, title: title, appID: appID,
        timeoutMilliseconds: timeoutMilliseconds)
      try link.startDispatching()
    } catch {
      connection.close()
      throw error
    }
    self.width = width
    self.height = height
    self.connection = connection
    self.link = link
    (objects, pool, buffers) = made
    drawing = PThreadMutex(Drawing(luma: [UInt8](repeating: 0, count: width * height)))
    // The first commit with a buffer maps the window.
    guard publishBlack() != nil else {
      let error =
        link.ended ?? WaylandError(.connectionLost, "the Wayland compositor did not map the preview")
      close()
      throw error
    }
  }

  deinit { close() }

  /// What the compositor took so far.
  package var timings: Timings { link.state.withLock { $0.timings } }

  /// The size the compositor last suggested for the window (`xdg_toplevel.configure`; 0 means
  /// the client's choice). The buffer keeps the preview's size whatever it is.
  package var suggestedSize: (width: Int, height: Int) { link.state.withLock { $0.suggestedSize } }

  /// Whether the compositor asked the window to close (`xdg_toplevel.close`). The preview stays:
  /// the app ends when it is told to (SIGTERM, `quit`), as on X11.
  package var closeRequested: Bool { link.state.withLock { $0.closeRequested } }

  /// Scales `frame` to the window and commits it; returns once the compositor has it.
  package func present(_ frame: VideoFrame) { _ = publish(frame) }

  /// Commits `frame` and returns the time the compositor had it (`CLOCK_MONOTONIC` ns, read
  /// after the round trip): `preview.first_present` means "the compositor has the frame", as on
  /// X11, not "sent".
  package func presentStamped(_ frame: VideoFrame) -> UInt64 {
    _ = publish(frame)
    return MonotonicClock.now()
  }

  /// Fills the window with black (the lock cover); returns once the compositor has it.
  package func presentBlack() { _ = publishBlack() }

  /// Commits `frame`; returns the ground-truth present time (`CLOCK_MONOTONIC` ns, read just
  /// before the commit was sent, so nothing on screen can show it earlier), or nil when the
  /// connection is gone or the preview closed.
  @discardableResult
  package func publish(_ frame: VideoFrame) -> UInt64? {
    drawing.withLock { d -> UInt64? in
      guard !d.closed else { return nil }
      let (w, h) = (width, height)
      frame.pixels.withUnsafeBufferPointer { px in
        d.luma.withUnsafeMutableBufferPointer { dest in
          guard let source = px.baseAddress, let target = dest.baseAddress else { return }
          d.scaler.scale(
            source: source, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow,
            into: target, width: w, height: h, bytesPerRow: w)
        }
      }
      let scaled = d.luma
      return commit { pixels in
        scaled.withUnsafeBufferPointer { luma in
          for i in 0..<(w * h) { pixels[i] = UInt32(luma[i]) &* 0x01_0101 }
        }
      }
    }
  }

  /// Commits a black frame; returns the ground-truth present time, or nil when the connection
  /// is gone or the preview closed.
  @discardableResult
  package func publishBlack() -> UInt64? {
    drawing.withLock { d -> UInt64? in
      guard !d.closed else { return nil }
      let count = width * height
      return commit { pixels in pixels.update(repeating: 0, count: count) }
    }
  }

  /// Draws with `draw` into a buffer the compositor does not hold, commits it and waits for the
  /// compositor to have it. Nil when the connection ended (its thread reports why).
  private func commit(draw: (UnsafeMutablePointer<UInt32>) -> Void) -> UInt64? {
    do throws(WaylandError) {
      let index = try takeFreeBuffer()
      let bytes = width * height * 4
      draw((pool.base + index * bytes).assumingMemoryBound(to: UInt32.self))
      return try commitBuffer(index)
    } catch {
      return nil
    }
  }

  /// Waits for a buffer the compositor does not hold and marks it held.
  private func takeFreeBuffer() throws(WaylandError) -> Int {
    var index: Int?
    try link.wait { state in state.held.contains(false) }
    link.state.withLock { state in
      index = state.held.firstIndex(of: false)
      if let index { state.held[index] = true }
    }
    guard let index else { throw WaylandError(.connectionLost, "no Wayland buffer came back") }
    return index
  }

  /// Attaches buffer `index`, damages it whole, asks for its frame callback (and presentation
  /// feedback), commits, and waits for the round trip. Returns the time read just before the
  /// commit was sent.
  private func commitBuffer(_ index: Int) throws(WaylandError) -> UInt64 {
    // Each new object is made just before the request that creates it: the compositor takes
    // new ids only in order (libwayland refuses a gap as "invalid arguments"), and only this
    // thread, holding `drawing`, makes objects once the window exists.
    let link = self.link
    let (asksFrame, asksFeedback) = link.reserveAnswers(feedback: objects.presentation != nil)
    let committedAt = MonotonicClock.now()
    let surface = objects.surface
    try link.send(surface, 1, [.object(buffers[index]), .int(0), .int(0)])  // attach
    // damage_buffer (4 and later) or damage: the whole buffer, scale 1.
    try link.send(
      surface, objects.compositorVersion >= 4 ? 9 : 2,
      [.int(0), .int(0), .int(Int32(width)), .int(Int32(height))])
    if asksFrame {
      let frameDone = connection.newObject { _, _ throws(WaylandError) in
        link.handleFrameDone(committedAt: committedAt)
      }
      try link.send(surface, 3, [.newID(frameDone)])  // frame
    }
    if asksFeedback, let presentation = objects.presentation {
      let feedback = connection.newObject { event, _ throws(WaylandError) in
        try link.handleFeedback(&event, committedAt: committedAt)
      }
      try link.send(presentation, 1, [.object(surface), .newID(feedback)])
    }
    try link.send(surface, 6)  // commit
    let answered = PThreadMutex(false)
    let sync = connection.newObject { _, _ throws(WaylandError) in
      answered.withLock { $0 = true }
      link.wake.signal()
    }
    try link.send(WaylandConnection.displayID, 0, [.newID(sync)])  // sync
    link.state.withLock { $0.timings.presents += 1 }
    try link.wait { _ in answered.withLock { $0 } }
    return committedAt
  }

  /// Destroys the window and its buffers and closes the connection (its thread ends within
  /// 0.1 s and closes it). Safe to call more than once.
  package func close() {
    let first = drawing.withLock { d -> Bool in
      defer { d.closed = true }
      return !d.closed
    }
    guard first else { return }
    if link.ended == nil {
      try? link.send(objects.toplevel, 0)
      try? link.send(objects.xdgSurface, 0)
      try? link.send(objects.surface, 0)
      for buffer in buffers { try? link.send(buffer, 0) }
    }
    link.sendingExclusively { pool.destroy() }
    link.stop()
  }
}
