import HostConditions
import LaunchContract
import SystemCalls
import Subprocess

/// Waiting for a run to settle: its first live frame, then the events it awaits, within its
/// time limits.
extension BenchRunner {
  /// Waits for the first live frame and then for `awaited` events in the trace (after `since`).
  /// On a display that maps windows (X11), a launch (`awaitsWindow`) whose app maps no window
  /// within `--window-timeout` fails. A headless program (`liveFrame` false) shows no frame: it
  /// waits for `awaited` alone, and an app that ends with status 0 after writing them has settled.
  func settle(
    _ app: LaunchedApp, since: UInt64, firstLive: FirstLiveFrameTime, awaited: [EventName],
    awaitsWindow: Bool = false, liveFrame: Bool = true, interrupted: @Sendable () -> Bool
  ) -> SettleOutcome {
    let timeoutNs = UInt64(settings.runTimeoutSeconds * 1e9)
    let windowTimeoutNs = UInt64(settings.windowTimeoutSeconds * 1e9)
    var windowSeen = !awaitsWindow || !liveFrame || !display.path.server.mapsWindows
    var lastTraceCheck: UInt64 = 0
    var learned = false
    var events = AwaitedEvents(awaited: awaited, since: since)
    while true {
      if let lost = displayFailure(app) { return .failed(lost) }
      if interrupted() { return .interrupted }
      if let end = app.child.poll() {
        return ended(app, end, events: &events, liveFrame: liveFrame).map(SettleOutcome.failed) ?? .settled
      }
      let now = MonotonicClock.now()
      if !liveFrame {
        if now - lastTraceCheck > 2_000_000 {
          lastTraceCheck = now
          if events.allSeen(in: app) { return .settled }
        }
        if now - since > timeoutNs {
          return .failed(
            "no \(events.missing) within \(Self.seconds(settings.runTimeoutSeconds)) s (last event: \(lastEventName(app, since: since)))"
          )
        }
        MonotonicClock.sleep(nanoseconds: 2_000_000)
        continue
      }
      let live = firstLive.value
      if live == nil {
        if !windowSeen && now - since > windowTimeoutNs {
          windowSeen = app.monitor.snapshot().windowMapped
          if !windowSeen {
            return .failed(
              "no window within \(Self.seconds(settings.windowTimeoutSeconds)) s (no window of the app was mapped on \(display.name ?? "the display"); last event: \(lastEventName(app, since: since)))"
            )
          }
        }
        if now - since > timeoutNs {
          return .failed(
            "no live frame within \(settings.runTimeoutSeconds) s (last event: \(lastEventName(app, since: since))\(windowHint(app))\(watchHint(app, since: since)))"
          )
        }
      } else {
        if !learned {
          learned = true
          learnMappedFiles(app)
        }
        if now - lastTraceCheck > 10_000_000 {
          lastTraceCheck = now
          if events.allSeen(in: app) { return .settled }
          if now - since > timeoutNs * 2 {
            return .failed(
              "the app did not report \(events.missing) in time")
          }
        }
      }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
  }

  func lastEventName(_ app: LaunchedApp, since: UInt64) -> String {
    app.trace.withLock { $0.drain() }.events.filter { $0.ts >= since }.max { $0.ts < $1.ts }?.name ?? "none"
  }

  /// Why a run whose app ended (`end`) before the run settled failed; nil when a headless
  /// program ended after writing the awaited events.
  func ended(
    _ app: LaunchedApp, _ end: ChildProcess.Termination, events: inout AwaitedEvents, liveFrame: Bool
  ) -> String? {
    let since = events.since
    // The app's group is gone: its pipes end once their last bytes are read (bounded).
    app.output.finish()
    if !liveFrame, end.isSuccess {
      // A headless program may end right after its first buffer: what it wrote is all there.
      // Every look reads at most `traceBytesPerPoll`, and the reader stops at its limits.
      for _ in 0...(Self.traceLimits.maxBytes / Self.traceBytesPerPoll) {
        if events.allSeen(in: app) { return nil }
      }
      return "app \(end) before \(events.missing) (last event: \(lastEventName(app, since: since)))"
    }
    let stderr = app.output.lastStderrLine.map { "; its last stderr line: \($0)" }
    return displayFailure(app, afterAppEnded: true)
      ?? "app \(end) (last event: \(lastEventName(app, since: since)))\(stderr ?? "")"
  }

  /// Learns the files the app has mapped once its first live frame is seen: the run's own (for
  /// its `mapped_not_evicted` count) and the runner's (for later cold runs' eviction).
  func learnMappedFiles(_ app: LaunchedApp) {
    let files = CacheEvictor.mappedFiles(pid: app.child.pid)
    app.mapped.withLock { $0 = files }
    learnedFiles.withLock { learned in
      for file in files where learned.count < Self.maxLearnedFiles { learned.insert(file) }
    }
  }

  /// The events a run waits for, as the app's trace shows them.
  struct AwaitedEvents {
    /// What the run waits for.
    let awaited: [EventName]
    /// Events before this time (CLOCK_MONOTONIC ns) belong to an earlier run.
    let since: UInt64
    /// The names seen so far.
    var seen = Set<String>()

    /// Reads what the trace gained (at most `traceBytesPerPoll` per look: a flooding app cannot
    /// keep the wait from checking the timeout and Ctrl-C); true once every awaited event is in.
    mutating func allSeen(in app: LaunchedApp) -> Bool {
      for event in app.trace.withLock({ Array($0.poll()) }) where event.ts >= since {
        seen.insert(event.name)
      }
      return awaited.allSatisfy { seen.contains($0.rawValue) }
    }

    /// The awaited events not seen yet, for a failure's reason.
    var missing: String {
      awaited.map(\.rawValue).filter { !seen.contains($0) }.joined(separator: ", ")
    }
  }
}

/// How the wait for a run to settle ended (``BenchRunner/settle(_:since:firstLive:awaited:awaitsWindow:liveFrame:interrupted:)``).
enum SettleOutcome: Equatable {
  /// The run settled: its first live frame and every awaited event are in.
  case settled
  /// The run failed, with the reason.
  case failed(String)
  /// An interrupt stopped the wait: the run is not recorded.
  case interrupted

  /// The reason the run did not settle (`interrupted` for an interrupt); nil when it settled.
  var failure: String? {
    switch self {
    case .settled: nil
    case .failed(let reason): reason
    case .interrupted: "interrupted"
    }
  }
}
