#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims
import Foundation
import PhaseTrace
import Probe
import Synchronization
import SyntheticCamera

/// Launches the app under test again and again, under each condition, and turns what the
/// runner, the app and the probe recorded into per-run phase records.
///
/// One run, for a launch condition (cold, warm, loaded):
/// 1. a fresh display surface and compositor+probe; a control pipe (`FIRSTFRAME_CONTROL=fd:3`);
/// 2. cold: `SyntheticCamera.markCold` and page-cache eviction of the app's files;
/// 3. `launch.spawn`, then `posix_spawn`; the probe is armed from the spawn time;
/// 4. as soon as the probe sees the first live frame, `tap` goes down the pipe (from the
///    compositor thread, without waiting for the runner's loop);
/// 5. once the app reports what the run waits for (secondary UI, deferred start done, the
///    photo), `quit`; the app is reaped with `waitpid` and verified gone;
/// 6. the app's trace, the runner's events and the probe's events merge on CLOCK_MONOTONIC.
/// Relock keeps one app process per configuration for the whole cell and measures from unlock.
public final class BenchRunner: Sendable {
  let settings: RunSettings
  /// camera-app's path, when the app is ours.
  let appBinary: String?
  let stateDirectory: String
  let learnedFiles = Mutex<Set<String>>([])
  let pid = getpid()

  /// Creates a runner. `appBinary` is camera-app, or nil with `settings.appCommand`.
  public init(settings: RunSettings, appBinary: String?) {
    self.settings = settings
    self.appBinary = appBinary
    self.stateDirectory = "/tmp/firstframe-bench-\(getuid())-\(getpid())"
    try? FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: stateDirectory)
  }

  /// The outcome of one run.
  public struct RunOutcome: Sendable {
    /// The record for results.json.
    public var record: BenchResults.RunRecord
    /// Whether the compositor ran with real-time priority.
    public var realtime: Bool
  }

  // MARK: - Argv and environment

  func argv(config: String) -> [String] {
    if let custom = settings.appCommand {
      return custom.map {
        $0.replacingOccurrences(of: "{config}", with: config)
          .replacingOccurrences(of: "{outputs}", with: settings.outputs.joined(separator: ","))
          .replacingOccurrences(of: "{camera}", with: settings.camera)
      }
    }
    var args = [
      appBinary!, "--config", config, "--outputs", settings.outputs.joined(separator: ","), "--camera",
      settings.camera,
    ]
    if let profile = settings.profilePath { args += ["--profile", profile] }
    return args
  }

  func environment(trace: String, display: String, runID: String, config: String) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["FIRSTFRAME_TRACE"] = trace
    env["FIRSTFRAME_DISPLAY"] = display
    env["FIRSTFRAME_CONTROL"] = "fd:3"
    env["FIRSTFRAME_RUN"] = runID
    env["FIRSTFRAME_CONFIG"] = config
    env["FIRSTFRAME_SYNTHETIC_STATE"] = stateDirectory
    env["FIRSTFRAME_APP_STATE"] = stateDirectory + "/app"
    return env
  }

  // MARK: - A launch

  /// A launched app with its display, control pipe and trace.
  final class LaunchedApp: Sendable {
    let child: ChildProcess
    let monitor: DisplayMonitor
    let controlFD: Int32
    let tracePath: String
    let spawnedAt: UInt64
    init(child: ChildProcess, monitor: DisplayMonitor, controlFD: Int32, tracePath: String, spawnedAt: UInt64)
    {
      self.child = child
      self.monitor = monitor
      self.controlFD = controlFD
      self.tracePath = tracePath
      self.spawnedAt = spawnedAt
    }

    func send(_ command: String) {
      let line = command + "\n"
      _ = line.withCString { write(controlFD, $0, strlen($0)) }
    }

    /// Quits the app, waits for it, and releases the pipe and display. Returns how it ended.
    @discardableResult
    func shutDown(grace: Double = 3) -> ChildProcess.Termination {
      send("quit")
      let end = child.wait(timeout: grace) ?? child.terminate(grace: 1)
      close(controlFD)
      monitor.stop()
      return end
    }
  }

  func launch(
    config: String, runID: String, tracePath: String, firstLive: FirstLiveFrameBox, tapOnFirstFrame: Bool
  )
    throws(RunnerError) -> LaunchedApp
  {
    let monitor: DisplayMonitor
    do {
      monitor = try DisplayMonitor(
        width: settings.displayWidth, height: settings.displayHeight, refreshHz: settings.refreshHz, slots: 3)
    } catch {
      throw RunnerError(.displayFailed, "cannot create the display surface: \(error)")
    }
    var fds: [Int32] = [0, 0]
    guard CPlatformShims_pipeCloexec(&fds) == 0 else {
      monitor.stop()
      throw RunnerError(.spawnFailed, "cannot create the control pipe: \(String(cString: strerror(errno)))")
    }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    let env = environment(trace: tracePath, display: monitor.surfaceName, runID: runID, config: config)
    randomRefreshPhase()
    let spawnedAt = MonotonicClock.now()
    monitor.arm(.launch(since: spawnedAt)) { @Sendable observation in
      firstLive.record(observation.scanoutTime)
      if tapOnFirstFrame { _ = write(writeEnd, "tap\n", 4) }
    }
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        argv: argv(config: config), environment: env, inheritedFDs: [3: readEnd],
        logPath: tracePath.replacingOccurrences(of: ".jsonl", with: ".log"))
    } catch {
      close(readEnd)
      close(writeEnd)
      monitor.stop()
      throw error
    }
    close(readEnd)
    return LaunchedApp(
      child: child, monitor: monitor, controlFD: writeEnd, tracePath: tracePath, spawnedAt: spawnedAt)
  }

  /// Waits a random fraction of one refresh interval, so that launches start at a random phase
  /// of the display's scanout, as a person's tap does: otherwise every run would begin at the
  /// same offset from the compositor's ticks and the refresh quantisation would bias every
  /// sample the same way.
  func randomRefreshPhase() {
    let interval = 1e9 / settings.refreshHz
    var request = timespec(tv_sec: 0, tv_nsec: Int(Double.random(in: 0..<interval)))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  /// The events a run waits for after the first live frame before it ends.
  func awaitedEvents(config: String, relock: Bool) -> [String] {
    var names: [String] = []
    let hasPhoto = settings.outputs.contains("photo") && config != "preview-only"
    if settings.tap && hasPhoto { names.append(PhaseEventName.photoDelivered) }
    if !relock {
      names.append(PhaseEventName.uiSecondaryVisible)
      let deferredOutputs = settings.outputs.contains { $0 != "preview" }
      if (config == "deferred" || config == "manual") && deferredOutputs && settings.appCommand == nil {
        names.append(PhaseEventName.deferredStartDid)
      }
    }
    return names
  }

  /// Waits for the first live frame and then for `awaited` events in the trace (after `since`).
  /// Returns nil when settled, or a failure reason.
  func settle(
    _ app: LaunchedApp, since: UInt64, firstLive: FirstLiveFrameBox, awaited: [String],
    interrupted: @Sendable () -> Bool
  ) -> String? {
    let timeoutNs = UInt64(settings.runTimeoutSeconds * 1e9)
    var lastTraceCheck: UInt64 = 0
    var learned = false
    let tail = TraceTail(path: app.tracePath)
    var seen = Set<String>()
    while true {
      if interrupted() { return "interrupted" }
      if let end = app.child.poll() {
        return "app \(end) (last event: \(lastEventName(app.tracePath, since: since)))"
      }
      let now = MonotonicClock.now()
      let live = firstLive.value
      if live == nil {
        if now - since > timeoutNs {
          return
            "no live frame within \(settings.runTimeoutSeconds) s (last event: \(lastEventName(app.tracePath, since: since)))"
        }
      } else {
        if !learned {
          learned = true
          let files = CacheEvictor.mappedFiles(pid: app.child.pid)
          learnedFiles.withLock { $0.formUnion(files) }
        }
        if now - lastTraceCheck > 10_000_000 {
          lastTraceCheck = now
          for event in tail.poll() where event.ts >= since { seen.insert(event.name) }
          if awaited.allSatisfy(seen.contains) { return nil }
          if now - since > timeoutNs * 2 {
            return
              "the app did not report \(awaited.filter { !seen.contains($0) }.joined(separator: ", ")) in time"
          }
        }
      }
      usleep(2000)
    }
  }

  func lastEventName(_ path: String, since: UInt64) -> String {
    TraceReader().read(path: path).events.filter { $0.ts >= since }.max { $0.ts < $1.ts }?.name ?? "none"
  }

  /// One launch run (cold, warm, loaded).
  public func launchRun(
    config: String, condition: BenchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    if condition == .cold {
      try? SyntheticCamera.markCold(stateDirectory: stateDirectory)
      var files = learnedFiles.withLock { $0 }
      if let exe = argv(config: config).first { files.insert(exe) }
      CacheEvictor(files: files).evict()
    }
    let firstLive = FirstLiveFrameBox()
    let app: LaunchedApp
    do {
      app = try launch(
        config: config, runID: runID, tracePath: tracePath, firstLive: firstLive,
        tapOnFirstFrame: settings.tap)
    } catch {
      return RunOutcome(
        record: .init(run: number, ok: false, error: error.message, phases: [:], counts: [:]), realtime: false
      )
    }
    let spawnEvent = PhaseEvent(ts: app.spawnedAt, name: PhaseEventName.launchSpawn, kind: .event, pid: pid)
    let failure = settle(
      app, since: app.spawnedAt, firstLive: firstLive, awaited: awaitedEvents(config: config, relock: false),
      interrupted: interrupted)
    let report = app.monitor.snapshot()
    let realtime = app.monitor.realtimeGranted
    let end = failure == nil ? app.shutDown() : app.child.terminate(grace: 0.5)
    if failure != nil { close(app.controlFD); app.monitor.stop() }
    let wallMs = MonotonicClock.milliseconds(from: app.spawnedAt, to: MonotonicClock.now())
    if failure == "interrupted" { return nil }
    var reason = failure
    if reason == nil, case .signaled = end { reason = "app \(end) after the run" }
    return RunOutcome(
      record: record(
        number: number, failure: reason, tracePath: tracePath, extra: [spawnEvent] + report.events,
        start: app.spawnedAt, end: UInt64.max, relock: false, report: report, wallMs: wallMs),
      realtime: realtime)
  }

  func record(
    number: Int, failure: String?, tracePath: String, extra: [PhaseEvent], start: UInt64, end: UInt64,
    relock: Bool,
    report: ProbeReport, wallMs: Double, windowStart: UInt64? = nil
  ) -> BenchResults.RunRecord {
    let read = TraceReader().read(path: tracePath)
    let all = (read.events + extra).filter { $0.ts >= (windowStart ?? start) && $0.ts <= end }.sorted {
      $0.ts < $1.ts
    }
    let events = all.filter { $0.ts >= start }
    let phases = PhaseExtractor.phases(from: events, start: start, relock: relock)
    var counts = PhaseExtractor.counts(from: events, start: start)
    counts["malformed_trace_lines"] = read.malformedLines
    var error = failure
    if error == nil && phases[PhaseName.firstFrameObserved] == nil { error = "the probe saw no live frame" }
    return BenchResults.RunRecord(
      run: number, ok: error == nil, error: error, phases: phases, counts: counts,
      trace: "traces/" + (tracePath as NSString).lastPathComponent, wallMs: wallMs,
      timeline: all.map { BenchResults.TimelineEvent($0, originNs: start) })
  }

  // MARK: - Relock

  /// A relock cell's app: launched once, then locked and unlocked for every run.
  public final class RelockSession: Sendable {
    let app: LaunchedApp
    let runner: BenchRunner
    let config: String
    /// When the runner last sent `lock` (CLOCK_MONOTONIC ns): the run's `relock.lock` event.
    let lockedAt = Mutex<UInt64>(MonotonicClock.now())
    init(app: LaunchedApp, runner: BenchRunner, config: String) {
      self.app = app
      self.runner = runner
      self.config = config
    }

    /// Ends the app.
    public func close() { app.shutDown() }
  }

  /// Launches the app for a relock cell and waits for its launch to settle; then locks it.
  public func startRelockSession(config: String, tracePath: String, interrupted: @Sendable () -> Bool)
    -> Result<RelockSession, RunnerError>
  {
    let firstLive = FirstLiveFrameBox()
    let app: LaunchedApp
    do {
      app = try launch(
        config: config, runID: "relock-\(config)", tracePath: tracePath, firstLive: firstLive,
        tapOnFirstFrame: false)
    } catch {
      return .failure(error)
    }
    var awaited = awaitedEvents(config: config, relock: false)
    awaited.removeAll { $0 == PhaseEventName.photoDelivered }
    if let failure = settle(
      app, since: app.spawnedAt, firstLive: firstLive, awaited: awaited, interrupted: interrupted)
    {
      app.child.terminate(grace: 0.5)
      close(app.controlFD)
      app.monitor.stop()
      return .failure(RunnerError(.spawnFailed, "relock: the app did not launch: \(failure)"))
    }
    app.send("lock")
    return .success(RelockSession(app: app, runner: self, config: config))
  }

  /// One relock run: the app is locked; wait `lockSeconds`, unlock, measure, lock again.
  public func relockRun(_ session: RelockSession, number: Int, interrupted: @Sendable () -> Bool)
    -> RunOutcome?
  {
    let app = session.app
    let lockDeadline = MonotonicClock.now() + UInt64(settings.lockSeconds * 1e9)
    while MonotonicClock.now() < lockDeadline {
      if interrupted() { return nil }
      usleep(5000)
    }
    let firstLive = FirstLiveFrameBox()
    let tap = settings.tap
    let controlFD = app.controlFD
    randomRefreshPhase()
    let unlockAt = MonotonicClock.now()
    app.monitor.arm(.unlock(since: unlockAt)) { @Sendable observation in
      firstLive.record(observation.scanoutTime)
      if tap { _ = write(controlFD, "tap\n", 4) }
    }
    app.send("unlock")
    let unlockEvent = PhaseEvent(ts: unlockAt, name: PhaseEventName.relockUnlock, kind: .event, pid: pid)
    let lockEvent = PhaseEvent(
      ts: session.lockedAt.withLock { $0 }, name: PhaseEventName.relockLock, kind: .event, pid: pid,
      fields: ["seconds": .double(settings.lockSeconds)])
    let failure = settle(
      app, since: unlockAt, firstLive: firstLive,
      awaited: awaitedEvents(config: session.config, relock: true),
      interrupted: interrupted)
    if failure == "interrupted" { return nil }
    let report = app.monitor.snapshot()
    let endAt = MonotonicClock.now()
    app.send("lock")
    session.lockedAt.withLock { $0 = MonotonicClock.now() }
    return RunOutcome(
      record: record(
        number: number, failure: failure, tracePath: app.tracePath,
        extra: [lockEvent, unlockEvent] + report.events,
        start: unlockAt, end: endAt, relock: true, report: report,
        wallMs: MonotonicClock.milliseconds(from: unlockAt, to: endAt), windowStart: lockEvent.ts),
      realtime: app.monitor.realtimeGranted)
  }
}

/// The first live frame's scanout time (CLOCK_MONOTONIC ns), set once from the compositor thread.
final class FirstLiveFrameBox: Sendable {
  private let storage = Mutex<UInt64?>(nil)
  /// Keeps `ts` unless a time is already recorded.
  func record(_ ts: UInt64) { storage.withLock { if $0 == nil { $0 = ts } } }
  /// The recorded time, if any.
  var value: UInt64? { storage.withLock { $0 } }
}
