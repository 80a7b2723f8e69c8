import CompositorIPC
import Dispatch
import Probe
import SystemCalls

/// sway's IPC as the Wayland probe's window watcher: a thread of its own subscribed to window
/// events (`SwayWindowEvents`) reports every window sway maps or focuses, with the pid sway read
/// from the client's socket, to the probe's source, which takes the first one a process of the
/// app owns as `display.window_mapped`.
package final class SwayWindowWatcher: WaylandWindowWatcher {  // mutable state behind `state`
  package let method = "sway_ipc"
  /// How long the subscription may take (2 s): sway answers in well under a millisecond.
  static let subscribeTimeoutNanoseconds: UInt64 = 2_000_000_000
  /// How long the thread waits for an event before it looks at `stopRequested` (50 ms).
  static let pollNanoseconds: UInt64 = 50_000_000

  private let ipcSocket: String
  private let state = PThreadMutex(State())
  private let exited = DispatchSemaphore(value: 0)

  private struct State {
    var events: SwayWindowEvents?
    var stopRequested = false
    var running = false
  }

  /// A watcher of the sway whose IPC socket is `ipcSocket`.
  package init(ipcSocket: String) { self.ipcSocket = ipcSocket }

  package func start(reporting report: @escaping @Sendable (WaylandWindow) -> Void) throws(ProbeSourceError) {
    let events: SwayWindowEvents
    do {
      events = try SwayWindowEvents(
        ipcSocket: ipcSocket, until: MonotonicClock.now() &+ Self.subscribeTimeoutNanoseconds)
    } catch {
      throw ProbeSourceError("cannot watch sway's windows at \(ipcSocket): \(error.message)")
    }
    state.withLock {
      $0.events = events
      $0.running = true
    }
    do {
      try SystemThread.start(name: "ff-sway-windows") { [self] in
        defer { exited.signal() }
        watch(events, report: report)
      }
    } catch {
      state.withLock { $0.running = false }
      events.close()
      throw ProbeSourceError("cannot start the sway window watcher: \(error)")
    }
  }

  /// Reports each window event until stopped or until sway closes the socket.
  private func watch(_ events: SwayWindowEvents, report: @Sendable (WaylandWindow) -> Void) {
    while !state.withLock({ $0.stopRequested }) {
      let event: SwayWindowEvent?
      do {
        event = try events.next(until: MonotonicClock.now() &+ Self.pollNanoseconds)
      } catch {
        return  // sway went away: the frame source reports the compositor's failure itself
      }
      guard let event, event.window.pid > 0 else { continue }
      report(
        WaylandWindow(
          identifier: String(event.window.id), ownerProcessID: event.window.pid,
          seenNanoseconds: event.seenAt,
          width: event.window.rect?.width ?? 0, height: event.window.rect?.height ?? 0))
    }
  }

  package func stop() {
    let (events, wasRunning) = state.withLock { state in
      defer {
        state.stopRequested = true
        state.running = false
        state.events = nil
      }
      return (state.events, state.running)
    }
    if wasRunning { exited.wait() }
    events?.close()
  }
}
