/// Who may write an event into a run's record (the trust boundary, docs/gates-and-ci.md).
public enum EventOwner: String, Sendable, Hashable, CaseIterable {
  /// The runner: `launch.*`, `relock.*`, `feed.*` (what bench's light-board feeder did to the
  /// device during a run). Taken from the runner's own records only.
  case runner
  /// The probe: `display.*`. Taken from the probe's own records only.
  case probe
  /// The app under test (or a library preloaded into it): everything else.
  case app

  /// The owner of the event called `name`: by its prefix, so that an event this table does not
  /// list (a later `display.something`) still belongs to the right writer.
  public init(eventName name: String) {
    if name.hasPrefix("launch.") || name.hasPrefix("relock.") || name.hasPrefix("feed.") {
      self = .runner
    } else if name.hasPrefix("display.") {
      self = .probe
    } else {
      self = .app
    }
  }
}

/// The event names of the trace protocol, spelled once (STYLE.md rule 11), each with its owner.
public enum EventName: String, Sendable, Hashable, CaseIterable {
  /// The app's `main` was reached (its first statement).
  case appMain = "app.main"
  /// The minimum UI (the preview surface) exists.
  case uiReady = "ui.ready"
  /// The session's one configuration commit (begin/end).
  case sessionConfigure = "session.configure"
  /// The blocking `startRunning()` (begin/end).
  case sessionStartRunning = "session.start_running"
  /// `stopRunning()` (begin/end).
  case sessionStopRunning = "session.stop_running"
  /// An output initialising (begin/end, field `output`).
  case outputInit = "output.init"
  /// The app handed its first preview frame to the display.
  case previewFirstPresent = "preview.first_present"
  /// Deferred start is about to run.
  case deferredStartWill = "deferred_start.will"
  /// Deferred start finished: every deferred output is ready.
  case deferredStartDid = "deferred_start.did"
  /// The app saw a shutter press.
  case shutterTap = "shutter.tap"
  /// The photo output accepted the request (field `readiness`).
  case shutterAccepted = "shutter.accepted"
  /// A photo was delivered.
  case photoDelivered = "photo.delivered"
  /// A photo request failed (field `error`).
  case photoFailed = "photo.failed"
  /// A movie recording could not start (field `error`).
  case movieFailed = "movie.failed"
  /// The secondary UI (thumbnail well, mode picker) is visible.
  case uiSecondaryVisible = "ui.secondary_visible"
  /// The system-pressure level changed (field `level`).
  case pressureLevel = "pressure.level"
  /// Whether the camera's frame thread got real-time priority (field `granted`).
  case deviceRealtimePriority = "device.realtime_priority"
  /// How the camera powered up when the session opened (or restarted) it: field `kind`,
  /// `cold` or `warm` (`DevicePowerUp`), and field `source`.
  case devicePowerUp = "device.power_up"
  /// Device phases (begin/end): open.
  case deviceOpen = "device.open"
  /// Device phases (begin/end): format negotiation.
  case deviceFormat = "device.format"
  /// Device phases (begin/end): buffer set-up.
  case deviceBuffers = "device.buffers"
  /// Device phases (begin/end): stream-on.
  case deviceStreamOn = "device.stream_on"
  /// Device phases: the first buffer came back from the device.
  case deviceFirstBuffer = "device.first_buffer"
  /// The runner spawned the app (the start of a launch run).
  case launchSpawn = "launch.spawn"
  /// The runner locked the app (relock).
  case relockLock = "relock.lock"
  /// The runner unlocked the app (the start of a relock run).
  case relockUnlock = "relock.unlock"
  /// bench's light-board feeder reconfigured the looped output to the capture format an app
  /// chose: begin when it saw the new format, end when the output streamed it (`--feed-light-board`;
  /// field `format`, e.g. `640x480 GREY`). During a follow the feeder's ioctls share the device
  /// with the app's.
  case feedFollow = "feed.follow"
  /// The probe saw the first live frame on the display.
  case displayFirstLiveFrame = "display.first_live_frame"
  /// The probe saw a frame from before the run (stale) after the start.
  case displayStaleFrame = "display.stale_frame"
  /// The probe read a light board dated more than 1 ms after the scanout that showed it: drawn,
  /// not captured (fields `scanout_ns`, `capture_time_us`, `ahead_ms`). bench fails the run.
  case displayForgedBoard = "display.forged_board"
  /// The probe saw the display repeat a frame when a new one was due.
  case displayDroppedFrame = "display.dropped_frame"
  /// The probe saw the app's window mapped on the X screen (X11 path; fields `window`,
  /// `method`: `client_pid` (its owner from X-Resource) or `net_wm_pid` (a server without it;
  /// `first_mapped` in older traces), `app_pid`, `owner_pid` (the app or a process it started),
  /// `width`, `height`).
  case displayWindowMapped = "display.window_mapped"
  /// The Wayland probe began to analyse a region of the output: the app's window, once the
  /// compositor said where it is, else the whole output (fields `window`, empty before the app's
  /// window is known, `x`, `y`, `width`, `height` in the output's pixels, `output_width`,
  /// `output_height`, `read_scale`). Each change of the region or of the window is one event,
  /// stamped with the first frame read so. On X11: the probe moved to a larger window of the app,
  /// mapped after the one it watched (fields `window`, `method`, `app_pid`, `owner_pid`, `width`,
  /// `height`, `read_scale`), stamped when that window was mapped.
  case displayProbeRegion = "display.probe_region"

  /// Who may write this event.
  public var owner: EventOwner { EventOwner(eventName: rawValue) }
}
