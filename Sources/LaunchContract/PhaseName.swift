/// The phase names of results (docs/conditions-and-phases.md, "Phases"), spelled once.
///
/// Each phase is a duration in milliseconds between two phase events of one run, both stamped
/// with `CLOCK_MONOTONIC`. "Start" is the run's origin: `launch.spawn` (the runner spawned the
/// app), or `relock.unlock` in the relock condition. A phase whose events did not happen is absent.
public enum PhaseName {
  /// `process_launch`: `launch.spawn` → `app.main` (not in relock, where the app is not relaunched).
  public static let processLaunch = "process_launch"
  /// `ui_ready`: `app.main` (relock: `relock.unlock`) → `ui.ready`.
  public static let uiReady = "ui_ready"
  /// `window_mapped`: start → `display.window_mapped`, the app's first window on the X screen
  /// (X11 path only; in relock the window stays mapped).
  public static let windowMapped = "window_mapped"
  /// `session_configure`: `session.configure` begin → end.
  public static let sessionConfigure = "session_configure"
  /// `start_running`: `session.start_running` begin → end.
  public static let startRunning = "start_running"
  /// `first_frame_presented`: start → `preview.first_present`, the app's own claim.
  public static let firstFramePresented = "first_frame_presented"
  /// `first_frame_observed`, the headline: start → `display.first_live_frame`, the scanout in
  /// which the probe first saw a live frame.
  public static let firstFrameObserved = "first_frame_observed"
  /// `deferred_start`: `deferred_start.will` → `deferred_start.did`; 0 when nothing was deferred.
  public static let deferredStart = "deferred_start"
  /// `first_frame_to_deferred_done`: `display.first_live_frame` → `deferred_start.did`; 0 when
  /// nothing was deferred.
  public static let firstFrameToDeferredDone = "first_frame_to_deferred_done"
  /// `shutter_to_photo`: `shutter.tap` → `photo.delivered`.
  public static let shutterToPhoto = "shutter_to_photo"
  /// `secondary_ui`: start → `ui.secondary_visible`.
  public static let secondaryUI = "secondary_ui"
  /// Device phases, reported when the camera writes `device.*` events (V4L2 does):
  /// open, format negotiation, buffer set-up, stream-on, and stream-on → first buffer.
  ///
  /// `device_open`: `device.open` begin → end.
  public static let deviceOpen = "device_open"
  /// `device_format`: `device.format` begin → end (format, size and rate negotiation).
  public static let deviceFormat = "device_format"
  /// `device_buffers`: `device.buffers` begin → end (requesting and mapping the buffer pool).
  public static let deviceBuffers = "device_buffers"
  /// `device_stream_on`: `device.stream_on` begin → end.
  public static let deviceStreamOn = "device_stream_on"
  /// `device_first_buffer`: `device.stream_on` end → `device.first_buffer` (the first dequeued buffer).
  public static let deviceFirstBuffer = "device_first_buffer"
  /// The device phases, in order.
  public static let device = [deviceOpen, deviceFormat, deviceBuffers, deviceStreamOn, deviceFirstBuffer]

  /// Every duration phase (docs/conditions-and-phases.md, "Phases"), in timeline order.
  public static let all = [
    processLaunch, uiReady, windowMapped, sessionConfigure, startRunning, firstFramePresented,
    firstFrameObserved,
    deferredStart, firstFrameToDeferredDone, shutterToPhoto, secondaryUI,
  ]
}
