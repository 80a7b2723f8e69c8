#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Foundation
import LaunchContract
import PhaseTrace
import Probe
import ResultsSchema
import Synchronization
import SyntheticCamera
import SystemCalls

/// Launches the app under test again and again, under each condition, and turns what the
/// runner, the app and the probe recorded into per-run phase records.
///
/// One run, for a launch condition (cold, warm, loaded):
/// 1. a fresh display surface (a size-sealed memory file the app inherits,
///    `FIRSTFRAME_DISPLAY=fd:4`) and compositor+probe; a control pipe (`FIRSTFRAME_CONTROL=fd:3`);
/// 2. cold: `SyntheticCamera.markCold` and page-cache eviction of the app's files;
/// 3. `launch.spawn`, then `posix_spawn`; the probe is armed from the spawn time;
/// 4. as soon as the probe sees the first live frame, `tap` goes down the pipe (from the
///    compositor thread, without waiting for the runner's loop);
/// 5. once the app reports what the run waits for (secondary UI, deferred start done, the
///    photo), `quit`; the app is reaped with `waitpid` and verified gone;
/// 6. the app's trace, the runner's events and the probe's events merge on CLOCK_MONOTONIC.
/// Relock keeps one app process per configuration for the whole cell and measures from unlock.
public final class BenchRunner: RunPerforming {
  let settings: RunSettings
  /// camera-app's path, when the app is ours.
  let appBinary: String?
  let stateDirectory: String
  /// The synthetic camera's power state folder (`FIRSTFRAME_SYNTHETIC_STATE`): the runner's own
  /// `stateDirectory`, or one shared with the other runners of the same device (see `init`).
  let deviceStateDirectory: String
  let learnedFiles = PThreadMutex<Set<String>>([])
  /// Per program: the set its counted cold runs evict, fixed at the first (``coldEvictionFiles(config:counted:)``).
  let coldFiles = PThreadMutex<[String: Set<String>]>([:])
  let pid = getpid()
  /// The display the runs present to (`settings.display`, set up for the whole benchmark).
  let display: BenchDisplay
  /// The light-board feeder's format follows (`--feed-light-board`): the runs they overlap
  /// show them in their timelines.
  public let feedFollows = FeedFollowLog()
  /// Puts the fed camera back in each configuration's own format before its runs (`--feed-light-board`).
  public let feedPriming = FeedPriming()

  /// Creates a runner. `appBinary` is camera-app, or nil with `settings.appCommand`; `display`
  /// is the one `settings.display` names, already set up (`BenchDisplay.open`).
  ///
  /// The apps' state (the synthetic camera's power state, the photo library) goes into a folder
  /// of the runner's own with an unpredictable name (`mkdtemp`, mode 0700, in `$TMPDIR` or
  /// `/tmp`), removed with the runner: never one at a predictable name that another user could
  /// have made first. Runners that share one camera (`bench ab`'s two sides, interleaved on the
  /// same device) share its power state: `deviceStateDirectory`, a private folder the caller
  /// made and removes; nil keeps it in the runner's own folder.
  /// - Throws: `RunnerError` when that folder cannot be made.
  public init(
    settings: RunSettings, appBinary: String?, display: BenchDisplay = .sharedMemory,
    deviceStateDirectory: String? = nil
  ) throws(RunnerError) {
    self.settings = settings
    self.appBinary = appBinary
    self.display = display
    do {
      self.stateDirectory = try PrivateDirectory.makeTemporary(prefix: "firstframe-bench-")
    } catch {
      throw RunnerError(
        .stateFolder, "cannot make the apps' state folder: \(error.message)", errno: error.errno)
    }
    self.deviceStateDirectory = deviceStateDirectory ?? stateDirectory
  }

  deinit {
    try? FileManager.default.removeItem(atPath: stateDirectory)
  }

  // MARK: - Argv and environment

  func argv(config: BenchConfiguration) -> [String] {
    let outputs = settings.outputs.map(\.rawValue).joined(separator: ",")
    guard case .builtIn(let config) = config else {
      return config.appConfiguration?.argv(camera: settings.camera, outputs: settings.outputs) ?? []
    }
    if let custom = settings.appCommand {
      return custom.map {
        $0.replacingOccurrences(of: "{config}", with: config.rawValue)
          .replacingOccurrences(of: "{outputs}", with: outputs)
          .replacingOccurrences(of: "{camera}", with: settings.camera.description)
      }
    }
    var args = [
      appBinary!, "--config", config.rawValue, "--outputs", outputs, "--camera", settings.camera.description,
    ]
    if let profile = settings.profilePath { args += ["--profile", profile] }
    return args
  }

  /// Where a run's app's stdout lands: next to its trace, `NAME.stdout.log`, at most
  /// ``AppOutputDrain/maxBytesPerStream`` bytes.
  static func stdoutPath(trace: String) -> String {
    trace.replacingOccurrences(of: ".jsonl", with: ".stdout.log")
  }

  /// Where a run's app's stderr lands: next to its trace, `NAME.log`, at most
  /// ``AppOutputDrain/maxBytesPerStream`` bytes (a failed run quotes its last line, kept apart).
  static func stderrPath(trace: String) -> String { trace.replacingOccurrences(of: ".jsonl", with: ".log") }

  /// `seconds` as `--help` and error lines show it: `10`, `2.5`.
  static func seconds(_ seconds: Double) -> String {
    seconds.rounded() == seconds && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
  }

  /// The descriptor number the app reads control commands from.
  static let controlDescriptor: Int32 = 3
  /// The descriptor number the app finds its display surface at (`FIRSTFRAME_DISPLAY=fd:4`).
  static let surfaceDescriptor: Int32 = 4

  /// What the runner reads of an app's trace per run: at most 2,000 events (a camera-app run writes
  /// about 60) and 16 MiB, 256 KiB per look while the run goes on. An app that floods its trace
  /// cannot keep the runner reading, hold its memory, or bloat results.json; what it wrote past
  /// the limits is counted in the run's `dropped_trace_lines` and `unread_trace_bytes`, and a
  /// launch run's kept trace is cut at 16 MiB.
  static let traceLimits = TraceReader(maxLineBytes: 64 * 1024, maxEvents: 2_000, maxBytes: 16 << 20)
  /// Bytes read from a trace per look while a run goes on.
  static let traceBytesPerPoll = 256 * 1024
  /// The most file paths learned from the apps' memory maps for cold eviction.
  static let maxLearnedFiles = 4096

  func environment(trace: String, display: DisplayTarget, runID: String, config: BenchConfiguration)
    -> [String: String]
  {
    var launch = LaunchEnvironment()
    launch.trace = .path(trace)
    launch.display = display
    launch.control = .descriptor(Self.controlDescriptor)
    launch.runID = runID
    launch.configuration = config.name
    launch.syntheticState = deviceStateDirectory
    launch.appState = stateDirectory + "/app"
    launch.injectDelayMilliseconds = settings.injectDelayMs
    // What the app is told comes from bench's own settings only: none of the launch keys is
    // inherited from bench's environment (FIRSTFRAME_INJECT_DELAY_MS only via --inject-delay-ms).
    var inherited = ProcessInfo.processInfo.environment
    for key in LaunchEnvironment.launchKeys { inherited[key.rawValue] = nil }
    let environment = launch.applied(to: self.display.clientEnvironment(inherited))
    // A third-party app gets its device phases and app.main from the preload library, when the
    // loader can load it into the program (RunSettings.preloadReasons says when not).
    if case .app(let app) = config, let library = settings.preloadLibrary,
      settings.preloadReasons[app.name] == nil
    {
      return PreloadLibrary.environment(environment, library: library, trace: .path(trace))
    }
    return environment
  }

  // MARK: - A launch

  /// A launched app with its display, control pipe and trace.
  final class LaunchedApp: Sendable {
    let child: ChildProcess
    let monitor: DisplayMonitor
    let control: ControlSender
    /// The app's stdout and stderr, drained into capped files.
    let output: AppOutputDrain
    let tracePath: String
    let spawnedAt: UInt64
    /// The app's trace, followed for as long as the app runs (one reader, so nothing is read twice).
    let trace: PThreadMutex<TraceTail>
    /// The files the app had mapped when its first live frame was seen (empty before then).
    let mapped = PThreadMutex<Set<String>>([])
    init(
      child: ChildProcess, monitor: DisplayMonitor, control: ControlSender, output: AppOutputDrain,
      tracePath: String, spawnedAt: UInt64
    ) {
      self.child = child
      self.monitor = monitor
      self.control = control
      self.output = output
      self.tracePath = tracePath
      self.spawnedAt = spawnedAt
      self.trace = PThreadMutex(
        TraceTail(
          path: tracePath, reader: BenchRunner.traceLimits, maxBytesPerPoll: BenchRunner.traceBytesPerPoll))
    }

    func send(_ command: ControlCommand) { control.send(command) }

    /// Closes the runner's end of the control pipe.
    func closeControl() { FileDescriptorIO.close(control.fd) }

    /// Quits the app, waits for it, and releases the pipes and display. Returns how it ended.
    @discardableResult
    func shutDown(grace: Double) -> ChildProcess.Termination {
      send(.quit)
      let end = child.wait(timeout: grace) ?? child.terminate(grace: grace / 3)
      output.finish()
      closeControl()
      monitor.stop()
      return end
    }
  }

  func launch(
    config: BenchConfiguration, runID: String, tracePath: String, firstLive: FirstLiveFrameBox,
    tapOnFirstFrame: Bool
  )
    throws(RunnerError) -> LaunchedApp
  {
    let monitor = try makeMonitor()
    let readEnd: Int32
    let writeEnd: Int32
    do {
      (readEnd, writeEnd) = try ProcessControl.pipe()
    } catch {
      monitor.stop()
      throw RunnerError(.spawnFailed, "cannot create the control pipe: \(error.message)", errno: error)
    }
    let control = ControlSender(fd: writeEnd)
    let output: AppOutputDrain
    do {
      output = try AppOutputDrain(
        stdoutPath: Self.stdoutPath(trace: tracePath), stderrPath: Self.stderrPath(trace: tracePath))
    } catch {
      FileDescriptorIO.close(readEnd)
      FileDescriptorIO.close(writeEnd)
      monitor.stop()
      throw RunnerError(.spawnFailed, "cannot capture the app's output: \(error.message)", errno: error)
    }
    // Shared memory: the app inherits the sealed surface as descriptor 4; X11: the server's name.
    let surface = monitor.surfaceDescriptor
    let target = surface >= 0 ? DisplayTarget.surfaceDescriptor(Self.surfaceDescriptor) : monitor.appDisplay
    let env = environment(trace: tracePath, display: target, runID: runID, config: config)
    // Each run's trace starts empty: a file left by an earlier bench in the same folder must not
    // lend this run its events or its malformed lines.
    _ = FileManager.default.createFile(atPath: tracePath, contents: nil)
    randomRefreshPhase()
    let spawnedAt = MonotonicClock.now()
    monitor.arm(.launch(since: spawnedAt)) { @Sendable observation in
      firstLive.record(observation.scanoutTime)
      if tapOnFirstFrame { control.send(.tap) }
    }
    let child: ChildProcess
    var inherited = [Self.controlDescriptor: readEnd, 1: output.stdoutForApp, 2: output.stderrForApp]
    if surface >= 0 { inherited[Self.surfaceDescriptor] = surface }
    do {
      child = try ChildProcess.spawn(argv: argv(config: config), environment: env, inheritedFDs: inherited)
    } catch {
      FileDescriptorIO.close(readEnd)
      FileDescriptorIO.close(writeEnd)
      output.finish(within: 0)
      monitor.stop()
      throw error
    }
    output.spawned()
    FileDescriptorIO.close(readEnd)
    monitor.watch(processID: child.pid)
    return LaunchedApp(
      child: child, monitor: monitor, control: control, output: output, tracePath: tracePath,
      spawnedAt: spawnedAt)
  }

  /// Waits a random fraction of one refresh interval, so that launches start at a random phase
  /// of the display's scanout, as a person's tap does: otherwise every run would begin at the
  /// same offset from the compositor's ticks and the refresh quantisation would bias every
  /// sample the same way.
  func randomRefreshPhase() {
    let interval = 1e9 / settings.refreshHz
    MonotonicClock.sleep(nanoseconds: UInt64(Double.random(in: 0..<interval)))
  }

  /// Waits for the first live frame and then for `awaited` events in the trace (after `since`).
  /// On X11, a launch (`awaitsWindow`) whose app maps no window within `--window-timeout`
  /// fails. A headless program (`liveFrame` false) shows no frame: it waits for `awaited` alone,
  /// and an app that ends with status 0 after writing them has settled. Returns nil when settled,
  /// or a failure reason.
  func settle(
    _ app: LaunchedApp, since: UInt64, firstLive: FirstLiveFrameBox, awaited: [EventName],
    awaitsWindow: Bool = false, liveFrame: Bool = true, interrupted: @Sendable () -> Bool
  ) -> String? {
    let timeoutNs = UInt64(settings.runTimeoutSeconds * 1e9)
    let windowTimeoutNs = UInt64(settings.windowTimeoutSeconds * 1e9)
    var windowSeen = !awaitsWindow || !liveFrame || display.x11Name == nil
    var lastTraceCheck: UInt64 = 0
    var learned = false
    var seen = Set<String>()
    /// Reads what the trace gained (at most `traceBytesPerPoll` per look: a flooding app cannot
    /// keep this loop from checking the timeout and Ctrl-C); true once every awaited event is in.
    func awaitedSeen() -> Bool {
      for event in app.trace.withLock({ Array($0.poll()) }) where event.ts >= since {
        seen.insert(event.name)
      }
      return awaited.allSatisfy { seen.contains($0.rawValue) }
    }
    /// The awaited events not seen yet, for a failure's reason.
    func missing() -> String {
      awaited.map(\.rawValue).filter { !seen.contains($0) }.joined(separator: ", ")
    }
    while true {
      if let lost = displayFailure(app) { return lost }
      if interrupted() { return "interrupted" }
      if let end = app.child.poll() {
        // The app's group is gone: its pipes end once their last bytes are read (bounded).
        app.output.finish()
        if !liveFrame, end.isSuccess {
          // A headless program may end right after its first buffer: what it wrote is all there.
          // Every look reads at most `traceBytesPerPoll`, and the reader stops at its limits.
          for _ in 0...(Self.traceLimits.maxBytes / Self.traceBytesPerPoll) {
            if awaitedSeen() { return nil }
          }
          return "app \(end) before \(missing()) (last event: \(lastEventName(app, since: since)))"
        }
        let stderr = app.output.lastStderrLine.map { "; its last stderr line: \($0)" }
        return displayFailure(app, afterAppEnded: true)
          ?? "app \(end) (last event: \(lastEventName(app, since: since)))\(stderr ?? "")"
      }
      let now = MonotonicClock.now()
      if !liveFrame {
        if now - lastTraceCheck > 2_000_000 {
          lastTraceCheck = now
          if awaitedSeen() { return nil }
        }
        if now - since > timeoutNs {
          return
            "no \(missing()) within \(Self.seconds(settings.runTimeoutSeconds)) s (last event: \(lastEventName(app, since: since)))"
        }
        MonotonicClock.sleep(nanoseconds: 2_000_000)
        continue
      }
      let live = firstLive.value
      if live == nil {
        if !windowSeen && now - since > windowTimeoutNs {
          windowSeen = app.monitor.snapshot().windowMapped
          if !windowSeen {
            return
              "no window within \(Self.seconds(settings.windowTimeoutSeconds)) s (no window of the app was mapped on \(display.x11Name ?? "the display"); last event: \(lastEventName(app, since: since)))"
          }
        }
        if now - since > timeoutNs {
          return
            "no live frame within \(settings.runTimeoutSeconds) s (last event: \(lastEventName(app, since: since))\(windowHint(app)))"
        }
      } else {
        if !learned {
          learned = true
          let files = CacheEvictor.mappedFiles(pid: app.child.pid)
          app.mapped.withLock { $0 = files }
          learnedFiles.withLock { learned in
            for file in files where learned.count < Self.maxLearnedFiles { learned.insert(file) }
          }
        }
        if now - lastTraceCheck > 10_000_000 {
          lastTraceCheck = now
          if awaitedSeen() { return nil }
          if now - since > timeoutNs * 2 {
            return
              "the app did not report \(missing()) in time"
          }
        }
      }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
  }

  func lastEventName(_ app: LaunchedApp, since: UInt64) -> String {
    app.trace.withLock { $0.drain() }.events.filter { $0.ts >= since }.max { $0.ts < $1.ts }?.name ?? "none"
  }

  /// One launch run (cold, warm, loaded).
  public func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    var eviction: CacheEvictor.Outcome?
    let evictionSet = condition == .cold ? coldEvictionFiles(config: config, counted: number >= 1) : []
    if condition == .cold {
      try? SyntheticCamera.markCold(stateDirectory: deviceStateDirectory)
      eviction = CacheEvictor(files: evictionSet).evict()
    }
    if settings.feedLightBoard != nil { feedPriming.prime(before: config.name, interrupted: interrupted) }
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
    let spawnEvent = PhaseEvent(
      ts: app.spawnedAt, name: EventName.launchSpawn.rawValue, kind: .event, pid: pid)
    let failure = settle(
      app, since: app.spawnedAt, firstLive: firstLive,
      awaited: settings.awaitedEvents(for: config, in: condition), awaitsWindow: true,
      liveFrame: settings.expectsLiveFrame(for: config), interrupted: interrupted)
    let report = app.monitor.snapshot()
    let realtime = app.monitor.realtimeGranted
    // A third-party app reads no control pipe: it is stopped (SIGTERM, then SIGKILL), and how it
    // ends then is bench's doing, not a fault of the run.
    let thirdParty = config.appConfiguration != nil
    let end =
      failure == nil && !thirdParty
      ? app.shutDown(grace: settings.quitGraceSeconds) : app.child.terminate(grace: thirdParty ? 1 : 0.5)
    app.output.finish()
    if failure == nil && thirdParty {
      app.closeControl()
      app.monitor.stop()
    }
    if failure != nil {
      app.closeControl()
      app.monitor.stop()
    }
    let released = recordDeviceRelease()
    let wallMs = MonotonicClock.milliseconds(from: app.spawnedAt, to: MonotonicClock.now())
    if settings.feedLightBoard != nil { feedPriming.noteFormat(after: config.name) }
    if failure == "interrupted" { return nil }
    var reason = failure
    if reason == nil, !thirdParty, case .signaled = end { reason = "app \(end) after the run" }
    // The final read comes after the app (and its process group) stopped: nothing is appended
    // while it reads, and it stops at the limits.
    let read = app.trace.withLock { $0.finish() }
    if read.unreadBytes > 0 { truncate(tracePath, off_t(Self.traceLimits.maxBytes)) }
    var run = record(
      number: number, failure: reason, tracePath: tracePath, read: read, extra: [spawnEvent] + report.events,
      start: app.spawnedAt, end: UInt64.max, relock: false, report: report, wallMs: wallMs,
      droppedCommands: app.control.droppedCommands, liveFrame: settings.expectsLiveFrame(for: config))
    RunVerification(
      realtimeCompositor: realtime, missedDeadlines: report.missedDeadlines, eviction: eviction,
      condition: condition
    ).apply(to: &run)
    if released { run.counts[.deviceReleasedByBench] = 1 }
    run.counts[.appOutputDroppedBytes] = app.output.droppedBytes
    if condition == .cold {
      run.counts[.mappedNotEvicted] = app.mapped.withLock {
        $0.subtracting(evictionSet).count
      }
    }
    return RunOutcome(record: run, realtime: realtime)
  }

  func record(
    number: Int, failure: String?, tracePath: String, read: TraceReader.Result, extra: [PhaseEvent],
    start: UInt64, end: UInt64, relock: Bool, report: ProbeReport, wallMs: Double, windowStart: UInt64? = nil,
    droppedCommands: Int, liveFrame: Bool = true
  ) -> BenchResults.RunRecord {
    // The trust boundary: runner and probe events come from `extra` only; the same names in the
    // app's trace are ignored and counted. A relock trace holds every run of the cell, so only
    // forgeries inside this run's window count against it.
    let app = TrustBoundary.split(appTrace: read.events)
    let forged = app.forged.filter { !relock || ($0.ts >= (windowStart ?? start) && $0.ts <= end) }.count
    let follows = feedFollows.follows(overlapping: start, through: min(end, MonotonicClock.now()))
    let extra = extra + follows.flatMap { FeedFollowLog.events($0, pid: pid) }
    let all = (app.trusted + extra).filter { $0.ts >= (windowStart ?? start) && $0.ts <= end }.sorted {
      $0.ts < $1.ts
    }
    let events = all.filter { $0.ts >= start }
    let phases = PhaseExtractor.phases(from: events, start: start, relock: relock)
    var counts = PhaseExtractor.counts(from: events, start: start)
    counts[.malformedTraceLines] = read.malformedLines
    counts[.droppedTraceLines] = read.droppedLines
    counts[.unreadTraceBytes] = read.unreadBytes
    counts[.controlCommandsDropped] = droppedCommands
    counts[.forgedEvents] = forged
    if settings.feedLightBoard != nil { counts[.feedFollows] = follows.count }
    // How the probe found the first live frame: by the light board's capture time, or, where
    // the window shows no board (a third-party app without the board in its feed), by change
    // detection alone, which cannot tell a live frame from any other new image.
    if let live = events.first(where: { $0.name == EventName.displayFirstLiveFrame.rawValue }),
      case .string(let method) = live.fields["method"]
    {
      counts[.firstFrameByChange] = method == "change" ? 1 : 0
    }
    if let granted = RunVerification.cameraRealtime(in: events) {
      counts[.realtimeCamera] = granted ? 1 : 0
    }
    if let powerUp = RunVerification.powerUp(in: events) {
      counts[.powerUpCold] = powerUp == .cold ? 1 : 0
    }
    var error = failure
    if error == nil && liveFrame && phases[PhaseName.firstFrameObserved] == nil {
      error = "the probe saw no live frame"
    }
    return BenchResults.RunRecord(
      run: number, ok: error == nil, error: error, phases: phases, counts: counts,
      trace: "traces/" + (tracePath as NSString).lastPathComponent, wallMs: wallMs,
      timeline: all.map { BenchResults.TimelineEvent($0, originNs: start) },
      detection: report.firstLiveFrame?.method.rawValue)
  }

  // MARK: - Relock

  /// A relock cell's app: launched once, then locked and unlocked for every run.
  public final class RelockSession: RelockRunning {
    let app: LaunchedApp
    let runner: BenchRunner
    let config: BenchConfiguration
    /// When the runner last sent `lock` (CLOCK_MONOTONIC ns): the run's `relock.lock` event.
    let lockedAt = PThreadMutex<UInt64>(MonotonicClock.now())
    /// Control commands dropped before the current run.
    let droppedBefore = PThreadMutex(0)
    /// The app's output bytes dropped before the current run.
    let outputDroppedBefore = PThreadMutex(0)
    init(app: LaunchedApp, runner: BenchRunner, config: BenchConfiguration) {
      self.app = app
      self.runner = runner
      self.config = config
      startWindow()
    }

    /// The next run begins at the last `lock`: the trace keeps only events from then on, with
    /// fresh limits, and the dropped commands are counted from here.
    func startWindow() {
      let from = lockedAt.withLock { $0 }
      app.trace.withLock { $0.startWindow(keepingEventsFrom: from) }
      droppedBefore.withLock { $0 = app.control.droppedCommands }
      outputDroppedBefore.withLock { $0 = app.output.droppedBytes }
    }

    /// One relock run (``BenchRunner/relockRun(_:number:interrupted:)``).
    public func run(number: Int, interrupted: @Sendable () -> Bool) -> RunOutcome? {
      runner.relockRun(self, number: number, interrupted: interrupted)
    }

    /// Ends the app (and records the device's release if it could not).
    public func close() {
      _ = app.shutDown(grace: runner.settings.quitGraceSeconds)
      _ = runner.recordDeviceRelease()
    }
  }

  /// Launches the app for a relock cell and waits for its launch to settle; then locks it.
  public func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  )
    -> Result<any RelockRunning, RunnerError>
  {
    let firstLive = FirstLiveFrameBox()
    let app: LaunchedApp
    do {
      app = try launch(
        config: config, runID: "relock-\(config.name)", tracePath: tracePath, firstLive: firstLive,
        tapOnFirstFrame: false)
    } catch {
      return .failure(error)
    }
    // The launch of a relock cell is not tapped: it waits for what a launch waits for but the photo.
    var untapped = settings
    untapped.tap = false
    let awaited = untapped.awaitedEvents(for: config, in: .warm)
    if let failure = settle(
      app, since: app.spawnedAt, firstLive: firstLive, awaited: awaited, interrupted: interrupted)
    {
      app.child.terminate(grace: 0.5)
      app.output.finish()
      app.closeControl()
      app.monitor.stop()
      _ = recordDeviceRelease()
      return .failure(RunnerError(.spawnFailed, "relock: the app did not launch: \(failure)"))
    }
    app.send(.lock)
    return .success(RelockSession(app: app, runner: self, config: config))
  }

  /// One relock run: the app is locked; wait `lockSeconds` (and, for an app that reports its
  /// session, until that session has stopped), unlock, measure, lock again.
  public func relockRun(_ session: RelockSession, number: Int, interrupted: @Sendable () -> Bool)
    -> RunOutcome?
  {
    let app = session.app
    let lockDeadline = MonotonicClock.now() + UInt64(settings.lockSeconds * 1e9)
    awaitSessionStopped(app, since: session.lockedAt.withLock { $0 }, interrupted: interrupted)
    guard MonotonicClock.sleep(until: lockDeadline, shouldStop: interrupted) else { return nil }
    let firstLive = FirstLiveFrameBox()
    let tap = settings.tap
    let control = app.control
    randomRefreshPhase()
    let unlockAt = MonotonicClock.now()
    app.monitor.arm(.unlock(since: unlockAt)) { @Sendable observation in
      firstLive.record(observation.scanoutTime)
      if tap { control.send(.tap) }
    }
    app.send(.unlock)
    let unlockEvent = PhaseEvent(ts: unlockAt, name: EventName.relockUnlock.rawValue, kind: .event, pid: pid)
    let lockEvent = PhaseEvent(
      ts: session.lockedAt.withLock { $0 }, name: EventName.relockLock.rawValue, kind: .event, pid: pid,
      fields: ["seconds": .double(settings.lockSeconds)])
    let failure = settle(
      app, since: unlockAt, firstLive: firstLive,
      awaited: settings.awaitedEvents(for: session.config, in: .relock),
      interrupted: interrupted)
    if failure == "interrupted" { return nil }
    // An app that ended during the run (crashed) released the device when it ended.
    let released = app.child.poll() != nil && recordDeviceRelease()
    let report = app.monitor.snapshot()
    let endAt = MonotonicClock.now()
    let read = app.trace.withLock { $0.drain() }
    let dropped = app.control.droppedCommands - session.droppedBefore.withLock { $0 }
    let outputDropped = app.output.droppedBytes - session.outputDroppedBefore.withLock { $0 }
    app.send(.lock)
    session.lockedAt.withLock { $0 = MonotonicClock.now() }
    session.startWindow()
    var run = record(
      number: number, failure: failure, tracePath: app.tracePath, read: read,
      extra: [lockEvent, unlockEvent] + report.events,
      start: unlockAt, end: endAt, relock: true, report: report,
      wallMs: MonotonicClock.milliseconds(from: unlockAt, to: endAt), windowStart: lockEvent.ts,
      droppedCommands: dropped)
    RunVerification(
      realtimeCompositor: app.monitor.realtimeGranted, missedDeadlines: report.missedDeadlines, eviction: nil,
      condition: .relock
    ).apply(to: &run)
    if released { run.counts[.deviceReleasedByBench] = 1 }
    run.counts[.appOutputDroppedBytes] = outputDropped
    return RunOutcome(record: run, realtime: app.monitor.realtimeGranted)
  }
}

extension BenchRunner {
  /// Waits until the app says its session stopped after the lock at `lockedAt` (the end of
  /// `session.stop_running` in its trace), for an app that reports its session at all (its
  /// trace has `session.start_running`), at most the run timeout. A locked app whose session
  /// still runs keeps presenting new frames, so its unlock would measure nothing and show no
  /// stale frame; under load the stop can take seconds. Other apps are not waited for.
  func awaitSessionStopped(_ app: LaunchedApp, since lockedAt: UInt64, interrupted: @Sendable () -> Bool) {
    // A reader of its own from the start (the run's reader keeps only this run's window, which
    // lacks the session's start), bounded as the run's is: the app's trace is untrusted.
    let tail = TraceTail(
      path: app.tracePath, reader: Self.traceLimits, maxBytesPerPoll: Self.traceBytesPerPoll)
    var reportsSession = false
    let deadline = lockedAt &+ UInt64(settings.runTimeoutSeconds * 1e9)
    while !interrupted() && app.child.poll() == nil && MonotonicClock.now() < deadline {
      for event in tail.poll() {
        if event.name == EventName.sessionStartRunning.rawValue { reportsSession = true }
        if event.name == EventName.sessionStopRunning.rawValue && event.kind == .end && event.ts >= lockedAt {
          return
        }
      }
      if !reportsSession { return }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
  }
}

/// The first live frame's scanout time (CLOCK_MONOTONIC ns), set once from the compositor thread.
final class FirstLiveFrameBox: Sendable {
  private let storage = PThreadMutex<UInt64?>(nil)
  /// Keeps `ts` unless a time is already recorded.
  func record(_ ts: UInt64) { storage.withLock { if $0 == nil { $0 = ts } } }
  /// The recorded time, if any.
  var value: UInt64? { storage.withLock { $0 } }
}
