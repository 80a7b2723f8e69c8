import LaunchContract
import PhaseTrace

/// What the probe saw since it was last armed.
public struct ProbeReport: Sendable {
  /// What it was armed for, if anything.
  public var mode: ArmMode?
  /// The first live frame, if found.
  public var firstLiveFrame: FirstLiveFrame?
  /// The first live board still waiting for a second board to confirm it when the report was
  /// taken (nil once confirmed, or when no board was live): a run ending here has no first live frame.
  public var unconfirmedBoard: FirstLiveFrame?
  /// Light boards dated more than 1 ms after their scanout (`display.forged_board`).
  public var forgedBoards: Int
  /// Stale scanouts since the arm time (see `LiveFrameDetector`).
  public var staleFrames: Int
  /// Dropped frames since the first live frame (see `LiveFrameDetector`).
  public var droppedFrames: Int
  /// Scanouts analysed since the arm time.
  public var scanoutsSinceArm: Int
  /// The compositor's refresh interval, ns.
  public var refreshIntervalNanoseconds: UInt64
  /// Whether the compositor thread runs under `SCHED_FIFO`.
  public var realtimeGranted: Bool
  /// Latches refused because the surface header was corrupt.
  public var corruptReads: UInt64
  /// Latches given up because the slot was torn on every retry.
  public var tornReads: UInt64
  /// The compositor's missed refresh deadlines since the arm time (`DeadlineAccount`: a
  /// scanout latched half an interval or more after its tick, or a tick skipped); nil on X11,
  /// where the probe has no refresh grid of its own.
  public var missedDeadlines: UInt64?
  /// The analysis' thread CPU time per scanout, microseconds (mean over all scanouts).
  public var analysisMicrosecondsPerScanout: Double
  /// `display.first_live_frame`, `display.stale_frame`, `display.dropped_frame` (and on X11
  /// `display.window_mapped`), stamped with the probe's pid.
  public var events: [PhaseEvent]
  /// Wayland: how long after the compositor presented each frame since the arm the probe had it
  /// in hand (frames are stamped with their presentation time, so this is the probe's own delay,
  /// not part of any phase); nil on the other paths.
  public var presentationLag: ProbeLag? = nil
  /// What the probe read since the arm time (`LiveFrameDetector.watch`).
  public var watch = ProbeWatch()

  /// Whether the probe found the app's window on the screen (`display.window_mapped`; X11, and
  /// Wayland with a window watcher).
  public var windowMapped: Bool { events.contains { $0.name == EventName.displayWindowMapped.rawValue } }
}
