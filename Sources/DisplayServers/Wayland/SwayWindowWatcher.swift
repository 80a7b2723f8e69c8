import CompositorIPC
import Dispatch
import Probe
import SystemCalls

/// sway's IPC as the Wayland probe's window watcher: a thread of its own subscribed to window
/// events (`SwayWindowEvents`) reports every window sway maps or focuses, with the pid sway read
/// from the client's socket, to the probe's source, which takes the first one a process of the
/// app owns as `display.window_mapped`.
///
/// **Where the window is.** A window's first event comes before sway laid it out (its rect is
/// 0×0), so once it reported a window the thread asks sway's tree (`GET_TREE`, on a second
/// connection) at once and then every `treePollNanoseconds` while it runs, and reports the
/// window again (same identifier, same `seenNanoseconds`) whenever where the client's pixels are
/// on its output (`SwayWindow.surfaceOnOutput`: centred in its container when smaller; an
/// Xwayland window's whole content area) changed.
package final class SwayWindowWatcher: WaylandWindowWatcher {  // mutable state behind `state`
  package let method = "sway_ipc"
  /// How long the subscription may take (2 s): sway answers in well under a millisecond.
  static let subscribeTimeoutNanoseconds: UInt64 = 2_000_000_000
  /// How long the thread waits for an event before it looks at `stopRequested` (50 ms).
  static let pollNanoseconds: UInt64 = 50_000_000
  /// How often the thread asks sway's tree where the reported windows are (100 ms).
  static let treePollNanoseconds: UInt64 = 100_000_000
  /// How long one `GET_TREE` may take (200 ms): a tree not read by then is asked again later.
  static let treeTimeoutNanoseconds: UInt64 = 200_000_000
  /// Windows whose place is followed, at most (the first ones reported).
  static let followedWindows = 64

  private let ipcSocket: String
  private let state = PThreadMutex(State())
  private let exited = DispatchSemaphore(value: 0)

  private struct State {
    var events: SwayWindowEvents?
    var tree: SwayIPC?
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
    let tree: SwayIPC
    do {
      tree = try SwayIPC(path: ipcSocket)
    } catch {
      events.close()
      throw ProbeSourceError("cannot read sway's tree at \(ipcSocket): \(error.message)")
    }
    state.withLock {
      $0.events = events
      $0.tree = tree
      $0.running = true
    }
    do {
      try SystemThread.start(name: "ff-sway-windows") { [self] in
        defer { exited.signal() }
        watch(events, tree: tree, report: report)
      }
    } catch {
      state.withLock { $0.running = false }
      events.close()
      tree.close()
      throw ProbeSourceError("cannot start the sway window watcher: \(error)")
    }
  }

  /// Reports each window event until stopped or until sway closes the socket, and each reported
  /// window again when the tree says it moved or changed size.
  private func watch(_ events: SwayWindowEvents, tree: SwayIPC, report: @Sendable (WaylandWindow) -> Void) {
    var followed: [Int: WaylandWindow] = [:]
    var nextTreePoll: UInt64?
    while !state.withLock({ $0.stopRequested }) {
      let now = MonotonicClock.now()
      if let due = nextTreePoll, now >= due {
        follow(&followed, tree: tree, report: report)
        nextTreePoll = MonotonicClock.now() &+ Self.treePollNanoseconds
        continue
      }
      let event: SwayWindowEvent?
      do {
        event = try events.next(until: min(now &+ Self.pollNanoseconds, nextTreePoll ?? UInt64.max))
      } catch {
        return  // sway went away: the frame source reports the compositor's failure itself
      }
      guard let event, event.window.pid > 0 else { continue }
      let surface = event.window.surfaceOnOutput
      let window = WaylandWindow(
        identifier: String(event.window.id), ownerProcessID: event.window.pid,
        seenNanoseconds: event.seenAt, x: surface?.x ?? 0, y: surface?.y ?? 0,
        width: surface?.width ?? event.window.rect?.width ?? 0,
        height: surface?.height ?? event.window.rect?.height ?? 0)
      report(window)
      if followed[event.window.id] != nil || followed.count < Self.followedWindows {
        followed[event.window.id] = window
      }
      nextTreePoll = MonotonicClock.now()  // where it is now, before the next event
    }
  }

  /// Asks sway's tree where the followed windows are and reports each one whose place changed.
  private func follow(
    _ followed: inout [Int: WaylandWindow], tree: SwayIPC, report: @Sendable (WaylandWindow) -> Void
  ) {
    guard !followed.isEmpty,
      let windows = try? tree.windows(until: MonotonicClock.now() &+ Self.treeTimeoutNanoseconds)
    else { return }
    for window in windows {
      guard var known = followed[window.id], let surface = window.surfaceOnOutput else { continue }
      guard
        known.x != surface.x || known.y != surface.y || known.width != surface.width
          || known.height != surface.height
      else { continue }
      known.x = surface.x
      known.y = surface.y
      known.width = surface.width
      known.height = surface.height
      followed[window.id] = known
      report(known)
    }
  }

  package func stop() {
    let (events, tree, wasRunning) = state.withLock { state in
      defer {
        state.stopRequested = true
        state.running = false
        state.events = nil
        state.tree = nil
      }
      return (state.events, state.tree, state.running)
    }
    if wasRunning { exited.wait() }
    events?.close()
    tree?.close()
  }
}
