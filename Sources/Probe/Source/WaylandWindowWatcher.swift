/// A window a Wayland compositor shows, as its own bookkeeping reports it (sway's IPC: a new
/// window's container id and the pid of the client that owns it, and where the client's pixels
/// are on the output). A watcher reports a window again, with the same identifier, when its
/// place or size changed.
package struct WaylandWindow: Sendable, Hashable {
  /// The compositor's name for the window (sway: the container id).
  package var identifier: String
  /// The process of the Wayland client that owns the window (the compositor reads it from the
  /// client's socket, so a client cannot claim another's window).
  package var ownerProcessID: Int32
  /// When the watcher learnt of the window, ns on `CLOCK_MONOTONIC`.
  package var seenNanoseconds: UInt64
  /// The left edge of the client's pixels on the output (output pixels from its left edge).
  package var x: Int
  /// The top edge of the client's pixels on the output (output pixels from its top edge).
  package var y: Int
  /// The window's size in the output's pixels, when the compositor says (0 otherwise).
  package var width: Int
  /// The window's size in the output's pixels, when the compositor says (0 otherwise).
  package var height: Int

  /// Creates the report.
  package init(
    identifier: String, ownerProcessID: Int32, seenNanoseconds: UInt64, x: Int = 0, y: Int = 0,
    width: Int = 0,
    height: Int = 0
  ) {
    self.identifier = identifier
    self.ownerProcessID = ownerProcessID
    self.seenNanoseconds = seenNanoseconds
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// What tells the Wayland probe (`WaylandFrameSource`) which windows the compositor maps: wlr-screencopy
/// reads the whole output and names no window, so the compositor's own interface (sway's IPC,
/// `SUBSCRIBE ["window"]`, and `GET_TREE` for where the window is) is asked. The source starts the watcher with itself and stops it in
/// `stop()`; the first window owned by the app's process or one it started becomes
/// `display.window_mapped`, stamped with `WaylandWindow.seenNanoseconds`. Without a watcher the
/// source emits no `display.window_mapped`.
package protocol WaylandWindowWatcher: AnyObject, Sendable {
  /// How windows are matched to processes, as `display.window_mapped`'s `method` field says
  /// (`sway_ipc`).
  var method: String { get }
  /// Starts reporting every window mapped from now on to `report`, from any thread, until
  /// `stop()`, and each reported window again when its place or size on the output changed;
  /// returns once it watches.
  /// - Throws: `ProbeSourceError` when the compositor's interface cannot be reached.
  func start(reporting report: @escaping @Sendable (WaylandWindow) -> Void) throws(ProbeSourceError)
  /// Stops reporting and waits for the watcher's thread, if any. Safe to call more than once.
  func stop()
}

/// How long after the compositor presented a frame the probe had it in hand (the `ready`
/// event read, minus the presentation time it carries): the probe's own delay on Wayland, where a
/// frame is stamped with when it was on screen.
public struct ProbeLag: Sendable, Hashable {
  /// Frames measured.
  public var frames: Int
  /// The median lag, ns (nearest rank).
  public var p50Nanoseconds: UInt64
  /// The 99th percentile, ns (nearest rank).
  public var p99Nanoseconds: UInt64
  /// The largest lag, ns.
  public var maximumNanoseconds: UInt64

  /// The lags' summary, or nil without any.
  public init?(_ lags: [UInt64]) {
    guard !lags.isEmpty else { return nil }
    let sorted = lags.sorted()
    func rank(_ q: Double) -> UInt64 {
      sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))]
    }
    frames = sorted.count
    p50Nanoseconds = rank(0.5)
    p99Nanoseconds = rank(0.99)
    maximumNanoseconds = sorted[sorted.count - 1]
  }
}
