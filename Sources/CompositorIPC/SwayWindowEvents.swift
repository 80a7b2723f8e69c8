import JSONDecoding
import SystemCalls

/// One window event (`SUBSCRIBE ["window"]`) as bench read it.
public struct SwayWindowEvent: Sendable, Hashable {
  /// sway's `change`: `new` (mapped), `focus`, `title`, `move`, `close`, …
  public var change: String
  /// The window, with the pid of the client that owns it.
  public var window: SwayWindow
  /// When bench read the event, `CLOCK_MONOTONIC` ns (the clock of the phase events). For a
  /// window found already mapped (``SwayWindowEvents/firstWindow(ownedBy:until:)`` looks at the
  /// tree first), when bench found it there.
  public var seenAt: UInt64

  /// An event `change` for `window`, seen at `seenAt`.
  public init(change: String, window: SwayWindow, seenAt: UInt64) {
    self.change = change
    self.window = window
    self.seenAt = seenAt
  }
}

/// sway's window events on a connection of their own (`SUBSCRIBE ["window"]`): what the
/// Wayland probe reads `window_mapped` from. A window is the app's when a process of the app
/// owns it (its `pid` is the app or one it started), as on X11.
///
/// Open it before the app is launched (``init(ipcSocket:until:)``), then read ``next(until:)``
/// or ``firstWindow(ownedBy:until:)`` from one thread at a time; ``readableDescriptor`` lets a
/// caller wait on it with `poll` beside its other descriptors.
public final class SwayWindowEvents: Sendable {
  /// The events to report: a window mapped (`new`) or given the focus (`focus`).
  public static let reported: Set<String> = ["new", "focus"]

  /// The subscribed connection.
  public let connection: SwayIPC

  /// Connects to sway's IPC socket `ipcSocket` and subscribes to window events, by `deadline`.
  /// - Throws: ``SwayIPCError``: no socket, or sway refused the subscription.
  public init(ipcSocket: String, until deadline: UInt64) throws(SwayIPCError) {
    connection = try SwayIPC(path: ipcSocket)
    let reply = try connection.request(.subscribe, payload: #"["window"]"#, until: deadline)
    guard case .object(let o) = reply, case .bool(true) = o["success"] else {
      connection.close()
      throw SwayIPCError(.protocolError, "sway refused the window subscription on \(ipcSocket)")
    }
  }

  /// The descriptor, readable when an event arrived.
  public var readableDescriptor: Int32 { connection.readableDescriptor }

  /// The next `new` or `focus` event (others are skipped), by `deadline`; nil at the deadline.
  /// - Throws: ``SwayIPCError`` when the compositor closed the socket or sent what is not i3-ipc.
  public func next(until deadline: UInt64) throws(SwayIPCError) -> SwayWindowEvent? {
    while let message = try connection.nextMessage(until: deadline) {
      let seen = MonotonicClock.now()
      guard message.type & SwayIPC.eventBit != 0 else { continue }
      if let event = Self.event(message.payload, type: message.type, seenAt: seen) { return event }
    }
    return nil
  }

  /// The first window that a process satisfying `owns` owns: one already in the tree (mapped
  /// before this subscription saw it), else the first `new` or `focus` event for one, by
  /// `deadline`; nil at the deadline. Pass `{ ProcessControl.isProcess($0, selfOrDescendantOf: app) }`
  /// for "a process of the app".
  /// - Throws: ``SwayIPCError``.
  public func firstWindow(ownedBy owns: (Int32) -> Bool, until deadline: UInt64) throws(SwayIPCError)
    -> SwayWindowEvent?
  {
    let found = try connection.windows(until: deadline).first { owns($0.pid) }
    if let found { return SwayWindowEvent(change: "tree", window: found, seenAt: MonotonicClock.now()) }
    while let event = try next(until: deadline) {
      if owns(event.window.pid) { return event }
    }
    return nil
  }

  /// Closes the connection. Safe to call more than once.
  public func close() { connection.close() }

  /// The event in a window event's payload when its change is ``reported``.
  static func event(_ payload: [UInt8], type: UInt32, seenAt: UInt64) -> SwayWindowEvent? {
    guard let value = try? SwayIPC.parse(payload, type: type), case .object(let o) = value,
      case .string(let change) = o["change"], reported.contains(change),
      let container = o["container"], let window = SwayWindow(node: container)
    else { return nil }
    return SwayWindowEvent(change: change, window: window, seenAt: seenAt)
  }
}
