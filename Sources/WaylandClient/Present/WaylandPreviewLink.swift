import Dispatch
import SystemCalls

/// What a ``WaylandPresenter`` and its dispatching thread share: which buffers the compositor
/// holds, the configure state, the frame timings, and the connection's fate. The event
/// handlers (made before the presenter exists) capture this, not the presenter.
final class WaylandPreviewLink: @unchecked Sendable {  // mutable state behind `state`
  /// The connection.
  let connection: WaylandConnection
  /// Signalled when a buffer is released, a round trip is answered or the connection ends:
  /// whoever waits checks its own condition again.
  let wake = DispatchSemaphore(value: 0)
  let state: PThreadMutex<State>
  private let onConnectionLost: @Sendable (WaylandError) -> Void
  /// Serialises every request the presenter's threads send, so that their messages never mix.
  private let sendLock = PThreadMutex(())

  struct State {
    /// For each buffer, whether the compositor holds it (attached and not yet released).
    var held: [Bool]
    /// The serial of the last `xdg_surface.configure` acknowledged, nil before the first.
    var acknowledged: UInt32?
    /// The size the last `xdg_toplevel.configure` suggested (0: the client's choice).
    var suggestedSize: (width: Int, height: Int) = (0, 0)
    /// Whether the compositor asked the window to close (`xdg_toplevel.close`).
    var closeRequested = false
    /// The connection's failure, once it has failed.
    var failure: WaylandError?
    /// Whether the presenter was closed (its thread stops; nothing is sent any more).
    var stopping = false
    /// Whether the dispatching thread runs.
    var dispatching = false
    /// The clock of `wp_presentation`'s times (`CLOCK_MONOTONIC` is 1), once announced.
    var presentationClock: UInt32?
    /// The timings measured so far.
    var timings = WaylandPresenter.Timings()
    /// Frame callbacks asked for and not yet done.
    var awaitingFrames = 0
    /// Presentation feedbacks asked for and not yet answered.
    var awaitingFeedback = 0
  }

  /// The most frame callbacks (and, apart, presentation feedbacks) awaited at once. A
  /// compositor may keep them for ever — frame callbacks of a window that is not shown; headless
  /// sway's feedback for every frame it drew — so past this a commit asks for none, and the
  /// handlers of a long run stay bounded.
  static let maximumAwaiting = 64

  init(
    connection: WaylandConnection, buffers: Int, onConnectionLost: @escaping @Sendable (WaylandError) -> Void
  ) {
    self.connection = connection
    self.onConnectionLost = onConnectionLost
    state = PThreadMutex(State(held: [Bool](repeating: false, count: buffers)))
  }

  /// Sends a request, unless the presenter is closed.
  /// - Throws: the connection's error.
  func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument] = []) throws(WaylandError) {
    let result = sendLock.withLock { _ -> Result<Void, WaylandError> in
      do throws(WaylandError) {
        try connection.send(object, opcode, arguments)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Runs `body`, which sends requests by other means (a pool's own `destroy`), holding the
  /// lock every request of the presenter is sent under.
  func sendingExclusively(_ body: () -> Void) { sendLock.withLock { _ in body() } }

  // MARK: - The dispatching thread

  /// Starts the thread that reads the compositor's events until the presenter is closed or the
  /// connection fails; a failure is reported once through `onConnectionLost`.
  /// - Throws: `.connectionLost` when no thread can be started.
  func startDispatching() throws(WaylandError) {
    state.withLock { $0.dispatching = true }
    do {
      try SystemThread.start(name: "wayland.events") { [self] in dispatchLoop() }
    } catch {
      state.withLock { $0.dispatching = false }
      throw WaylandError(.connectionLost, "cannot start the Wayland event thread: \(error)")
    }
  }

  private func dispatchLoop() {
    var failure: WaylandError?
    while !state.withLock({ $0.stopping }) {
      do {
        // A bounded wait, so that a closed presenter's thread ends within it.
        try connection.dispatch(waitingMilliseconds: 100)
      } catch {
        failure = error
        break
      }
    }
    let (closesConnection, reports) = state.withLock { state -> (Bool, Bool) in
      state.dispatching = false
      if let failure, state.failure == nil { state.failure = failure }
      return (state.stopping, failure != nil && !state.stopping)
    }
    wake.signal()
    if closesConnection { connection.close() }
    if reports, let failure { onConnectionLost(failure) }
  }

  /// Stops the thread; closes the connection now when the thread has already ended (else the
  /// thread closes it as it ends). Safe to call more than once.
  func stop() {
    let closesNow = state.withLock { state -> Bool in
      guard !state.stopping else { return false }
      state.stopping = true
      return !state.dispatching
    }
    wake.signal()
    if closesNow { connection.close() }
  }

  /// The connection's failure or the presenter's close, as an error; nil while both are open.
  var ended: WaylandError? {
    state.withLock { state in
      state.failure
        ?? (state.stopping ? WaylandError(.connectionLost, "the Wayland preview was closed") : nil)
    }
  }

  /// Waits until `condition` holds or the connection ends (then throws why), in slices so that
  /// a wake-up meant for another waiter is never lost.
  func wait(until condition: (State) -> Bool) throws(WaylandError) {
    while true {
      if state.withLock({ condition($0) }) { return }
      if let ended { throw ended }
      _ = wake.wait(timeout: .now() + .milliseconds(20))
    }
  }

  /// Whether the next commit asks for a frame callback and for presentation feedback (when
  /// `feedback`, the compositor offering it): each while fewer than ``maximumAwaiting`` are
  /// awaited; counted as awaited.
  func reserveAnswers(feedback: Bool) -> (frame: Bool, feedback: Bool) {
    state.withLock { state in
      let frame = state.awaitingFrames < Self.maximumAwaiting
      let feedback = feedback && state.awaitingFeedback < Self.maximumAwaiting
      if frame { state.awaitingFrames += 1 }
      if feedback { state.awaitingFeedback += 1 }
      return (frame, feedback)
    }
  }

  // MARK: - Events

  /// `xdg_wm_base.ping`: answered with `pong` at once, or the compositor ends the client.
  func handleWindowManager(_ event: inout WaylandEvent, base: UInt32) throws(WaylandError) {
    guard event.opcode == 0 else { return }
    try send(base, 3, [.uint(try event.uint())])
  }

  /// `xdg_surface.configure`: acknowledged at once (the next commit applies it).
  func handleSurfaceConfigure(_ event: inout WaylandEvent, xdgSurface: UInt32) throws(WaylandError) {
    guard event.opcode == 0 else { return }
    let serial = try event.uint()
    try send(xdgSurface, 4, [.uint(serial)])
    state.withLock { $0.acknowledged = serial }
    wake.signal()
  }

  /// `xdg_toplevel.configure` (the size suggested) and `close`.
  func handleToplevel(_ event: inout WaylandEvent) throws(WaylandError) {
    switch event.opcode {
    case 0:
      let width = Int(try event.int())
      let height = Int(try event.int())
      state.withLock { $0.suggestedSize = (width, height) }
    case 1:
      state.withLock { $0.closeRequested = true }
    default:
      break
    }
  }

  /// `wl_buffer.release` of buffer `index`: it may be drawn again.
  func handleRelease(_ event: WaylandEvent, index: Int) {
    guard event.opcode == 0 else { return }
    state.withLock { if $0.held.indices.contains(index) { $0.held[index] = false } }
    wake.signal()
  }

  /// `wp_presentation.clock_id`.
  func handlePresentationClock(_ event: inout WaylandEvent) throws(WaylandError) {
    guard event.opcode == 0 else { return }
    let clock = try event.uint()
    state.withLock { $0.presentationClock = clock }
  }

  /// `wp_presentation_feedback.presented` (opcode 1) or `discarded` (2) for the frame committed
  /// at `committedAt`.
  func handleFeedback(_ event: inout WaylandEvent, committedAt: UInt64) throws(WaylandError) {
    switch event.opcode {
    case 1:
      let high = UInt64(try event.uint())
      let low = UInt64(try event.uint())
      let nanoseconds = UInt64(try event.uint())
      let presented = ((high << 32) | low) &* 1_000_000_000 &+ nanoseconds
      state.withLock { state in
        state.awaitingFeedback -= 1
        // Only a time on CLOCK_MONOTONIC (1) compares with the commit's.
        guard state.presentationClock == 1 else { return }
        state.timings.add(\.commitToPresented, from: committedAt, to: presented)
      }
    case 2:
      state.withLock {
        $0.awaitingFeedback -= 1
        $0.timings.discarded += 1
      }
    default:
      break
    }
  }

  /// `wl_callback.done` of a frame callback for the frame committed at `committedAt`.
  func handleFrameDone(committedAt: UInt64) {
    let now = MonotonicClock.now()
    state.withLock { state in
      state.awaitingFrames -= 1
      state.timings.add(\.commitToFrameDone, from: committedAt, to: now)
    }
  }
}
