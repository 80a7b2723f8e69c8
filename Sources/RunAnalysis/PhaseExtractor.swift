import LaunchContract
import PhaseTrace
import ResultsSchema

/// Turns one run's merged events (runner, app and probe, one clock) into phase durations (ms).
///
/// Every phase is measured from events at or after the run's start marker (`launch.spawn`, or
/// `relock.unlock` in the relock condition), taking the first matching event:
///
/// | phase | from → to |
/// |---|---|
/// | `process_launch` | `launch.spawn` → `app.main` |
/// | `ui_ready` | `app.main` (relock: `relock.unlock`) → `ui.ready` |
/// | `window_mapped` | start → `display.window_mapped` (X11: the app's window on the screen) |
/// | `session_configure` | `session.configure` begin → end |
/// | `start_running` | `session.start_running` begin → end |
/// | `first_frame_presented` | start → `preview.first_present` (the app's own claim) |
/// | `first_frame_observed` | start → `display.first_live_frame` (the probe's scanout time) |
/// | `deferred_start` | `deferred_start.will` → `deferred_start.did`; 0 when nothing was deferred |
/// | `first_frame_to_deferred_done` | `display.first_live_frame` → `deferred_start.did`; 0 when nothing was deferred |
/// | `shutter_to_photo` | `shutter.tap` → `photo.delivered` |
/// | `secondary_ui` | start → `ui.secondary_visible` |
/// | `device_open`, `device_format`, `device_buffers`, `device_stream_on` | `device.*` begin → end (V4L2) |
/// | `device_first_buffer` | `device.stream_on` end → `device.first_buffer` (V4L2) |
///
/// A phase whose events did not happen in the run is absent (for example `process_launch`
/// in relock, where the app is not relaunched).
///
/// With `deviceSource`, the five device phases come only from `device.*` events whose `source`
/// field has that value (`kernel`: bench's device trace; `preload`: the preload library's, one
/// instrument for every app in a table; `app`: the app's own, which carry no `source`). Without
/// it, every `device.*` event counts. `intervals(from:start:relock:devicePriority:)` takes each
/// device phase from the first source that has it.
public enum PhaseExtractor {
  /// Extracts phases from `events` (any order) for a run that started at `start` (CLOCK_MONOTONIC
  /// ns). `deviceSource`: the `source` field the device phases' events must carry; nil for any.
  public static func phases(
    from events: [PhaseEvent], start: UInt64, relock: Bool, deviceSource: String? = nil
  ) -> [String: Double] {
    intervals(from: events, start: start, relock: relock, deviceSource: deviceSource).mapValues {
      Double($0.end - $0.start) / 1_000_000  // CLOCK_MONOTONIC ns → ms
    }
  }

  /// Where each phase of `phases(from:start:relock:deviceSource:)` starts and ends, on the
  /// events' clock (ns): the same phases, from the same events. trace.json places each phase's
  /// thread states (issue 27) from these.
  public static func intervals(
    from events: [PhaseEvent], start: UInt64, relock: Bool, deviceSource: String? = nil
  ) -> [String: (start: UInt64, end: UInt64)] {
    let sorted = events.filter { $0.ts >= start }.sorted { $0.ts < $1.ts }
    func first(_ name: EventName, _ kind: PhaseEventKind? = nil, after t: UInt64 = 0) -> UInt64? {
      sorted.first {
        $0.name == name.rawValue && (kind == nil || $0.kind == kind!) && $0.ts >= t
          && (deviceSource == nil || !isDevice(name)
            || ($0.fields[sourceField]?.stringValue ?? appSource) == deviceSource)
      }?.ts
    }
    func interval(_ a: UInt64?, _ b: UInt64?) -> (start: UInt64, end: UInt64)? {
      guard let a, let b, b >= a else { return nil }
      return (a, b)
    }
    var out: [String: (start: UInt64, end: UInt64)?] = [:]
    let appMain = relock ? nil : first(.appMain)
    if !relock { out[PhaseName.processLaunch] = interval(start, appMain) }
    out[PhaseName.uiReady] = interval(relock ? start : appMain, first(.uiReady))
    out[PhaseName.windowMapped] = interval(start, first(.displayWindowMapped))
    if let b = first(.sessionConfigure, .begin) {
      out[PhaseName.sessionConfigure] = interval(b, first(.sessionConfigure, .end, after: b))
    }
    if let b = first(.sessionStartRunning, .begin) {
      out[PhaseName.startRunning] = interval(b, first(.sessionStartRunning, .end, after: b))
    }
    out[PhaseName.firstFramePresented] = interval(start, first(.previewFirstPresent))
    let observed = first(.displayFirstLiveFrame)
    out[PhaseName.firstFrameObserved] = interval(start, observed)
    if let will = first(.deferredStartWill) {
      let did = first(.deferredStartDid, after: will)
      out[PhaseName.deferredStart] = interval(will, did)
      out[PhaseName.firstFrameToDeferredDone] = interval(observed, did)
    } else if let observed, relock || sorted.contains(where: { isOutputInitEnd($0) && $0.ts <= observed }) {
      // Nothing was deferred in this launch: every output was ready before the first frame
      // (eager, preview-only, or a relock whose outputs stayed initialised). Deferred start
      // took no time, and the camera was complete when the first frame appeared.
      out[PhaseName.deferredStart] = (observed, observed)
      out[PhaseName.firstFrameToDeferredDone] = (observed, observed)
    }
    if let tap = first(.shutterTap) {
      out[PhaseName.shutterToPhoto] = interval(tap, first(.photoDelivered, after: tap))
    }
    out[PhaseName.secondaryUI] = interval(start, first(.uiSecondaryVisible))
    let deviceIntervals = [
      (PhaseName.deviceOpen, EventName.deviceOpen),
      (PhaseName.deviceFormat, EventName.deviceFormat),
      (PhaseName.deviceBuffers, EventName.deviceBuffers),
      (PhaseName.deviceStreamOn, EventName.deviceStreamOn),
    ]
    for (phase, event) in deviceIntervals {
      if let b = first(event, .begin) { out[phase] = interval(b, first(event, .end, after: b)) }
    }
    if let on = first(.deviceStreamOn, .end) {
      out[PhaseName.deviceFirstBuffer] = interval(on, first(.deviceFirstBuffer, after: on))
    }
    return out.compactMapValues { $0 }
  }

  /// Phase intervals as ``intervals(from:start:relock:deviceSource:)`` gives them, each device
  /// phase from the first source in `devicePriority` that has it (`kernel`, `preload`, or
  /// ``appSource`` for the app's own events), with the source each came from.
  public static func intervals(
    from events: [PhaseEvent], start: UInt64, relock: Bool, devicePriority: [String]
  ) -> (intervals: [String: (start: UInt64, end: UInt64)], deviceSources: [String: String]) {
    var out = intervals(from: events, start: start, relock: relock, deviceSource: devicePriority.first)
    var sources: [String: String] = [:]
    for phase in PhaseName.device where out[phase] != nil { sources[phase] = devicePriority.first }
    for source in devicePriority.dropFirst() where sources.count < PhaseName.device.count {
      let theirs = intervals(from: events, start: start, relock: relock, deviceSource: source)
      for phase in PhaseName.device where sources[phase] == nil {
        guard let interval = theirs[phase] else { continue }
        out[phase] = interval
        sources[phase] = source
      }
    }
    return (out, sources)
  }

  /// The `source` of bench's device events from the kernel's trace (docs/kernel-device-phases.md).
  public static let kernelSource = "kernel"

  /// The `source` of the app's own device events, which carry none (camera-app's trace).
  public static let appSource = "app"

  /// The field that names which instrument wrote an event (`source`: `preload` for the preload
  /// library's); camera-app's own events carry none.
  public static let sourceField = "source"

  /// Whether `name` is one of the device phases' events.
  static func isDevice(_ name: EventName) -> Bool {
    [.deviceOpen, .deviceFormat, .deviceBuffers, .deviceStreamOn, .deviceFirstBuffer].contains(name)
  }

  static func isOutputInitEnd(_ e: PhaseEvent) -> Bool {
    e.name == EventName.outputInit.rawValue && e.kind == .end
  }

  /// Counts of probe events in the run.
  public static func counts(from events: [PhaseEvent], start: UInt64) -> [String: Int] {
    var stale = 0
    var dropped = 0
    for e in events where e.ts >= start {
      if e.name == EventName.displayStaleFrame.rawValue { stale += 1 }
      if e.name == EventName.displayDroppedFrame.rawValue { dropped += 1 }
    }
    return [CountKey.staleFrames.rawValue: stale, CountKey.droppedFrames.rawValue: dropped]
  }
}
