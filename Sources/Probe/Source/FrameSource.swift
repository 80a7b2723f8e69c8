import LaunchContract
import PhaseTrace

/// Where the probe's frames come from: what `DisplayMonitor` watches, and the probe's side of
/// the display-server seam (one source per `DisplayServerKind`). Every source feeds the same
/// detector (`LiveFrameDetector`) on its own thread, one frame at a time, each frame stamped on
/// `CLOCK_MONOTONIC` when the probe saw it.
///
/// - `SurfaceFrameSource`: the compositor's scanouts of a shared-memory surface, at a fixed
///   refresh rate (every scanout, changed or not).
/// - `X11FrameSource`: an X server's window, read whenever DAMAGE says it changed (and once
///   when the probe is armed), so there is no refresh grid.
/// - `WaylandFrameSource`: a wlroots compositor's output, copied (wlr-screencopy) whenever it
///   changed and once when the probe is armed, each frame stamped with the compositor's
///   presentation time.
protocol FrameSource: AnyObject, Sendable {
  /// The display server the frames come from.
  var server: DisplayServerKind { get }
  /// The app's pid, once it is spawned: a source whose server maps windows
  /// (`DisplayServerKind.mapsWindows`) watches the window that pid owns; the others ignore it.
  func watch(processID pid: Int32)
  /// Starts delivering frames (to the closure the source was created with), on the source's
  /// thread; returns once that thread runs.
  func start() throws(ProbeSourceError)
  /// A new measurement begins: a source without a refresh grid reads the screen once now, so
  /// that what is already shown (a stale frame, a cover) is seen at the start, and returns
  /// once those pixels are in hand (bounded), before the caller unlocks or spawns.
  func armed()
  /// Stops the thread and waits for it. Safe to call more than once.
  func stop()
  /// Whether the source's thread got `SCHED_FIFO`.
  var realtimeGranted: Bool { get }
  /// The refresh interval (ns), or nil without a refresh grid.
  var refreshIntervalNanoseconds: UInt64? { get }
  /// Reads refused or damaged: the surface's corrupt headers and torn slots, or the X server's
  /// or the compositor's refusals.
  var faults: FrameSourceFaults { get }
  /// The source's own probe events (`display.window_mapped`), stamped with the probe's pid.
  var events: [PhaseEvent] { get }
  /// Why the source stopped delivering (the X server or the compositor went away), or nil.
  var failure: String? { get }
  /// Refresh deadlines missed since the source started (`DeadlineAccount`), or nil without a
  /// refresh grid of the source's own (X11: the server's scanout is not the probe's).
  var missedDeadlines: UInt64? { get }
}

/// Reads a source refused or could not trust.
public struct FrameSourceFaults: Sendable, Hashable {
  /// Latches refused because the surface header was corrupt (shared memory).
  public var corruptReads: UInt64 = 0
  /// Latches given up because the slot was torn on every retry (shared memory).
  public var tornReads: UInt64 = 0
  /// Reads the X server refused (a window off screen or unmapped meanwhile), or copies the
  /// Wayland compositor refused (screencopy `failed`).
  public var refusedReads: UInt64 = 0
}

/// A frame source that could not start: one line, and its cause.
public struct ProbeSourceError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// Creates the error.
  public init(_ message: String) { self.message = message }
  /// The line.
  public var description: String { message }
}
