#if canImport(Glibc)
  import Glibc
#endif
import CameraServices
import DisplayServers
import RunAnalysis
import Foundation
import HostConditions
import LaunchContract
import LightBoardFeed
import PhaseTrace
import Probe
import ResultsSchema
import Subprocess
import Synchronization
import SyntheticCamera
import SystemCalls
import ThreadTracing

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
package final class BenchRunner: RunPerforming {
  let settings: RunSettings
  /// What the benchmark holds open (the conditions' controls, the thread-states method), shared
  /// with its other runners.
  let resources: RunResources
  /// camera-app's path, when the app is ours.
  let appBinary: String?
  /// The apps' state: the scratch of ``stateFolder``, the app user's.
  package var stateDirectory: String { stateFolder.scratch }
  /// The runner's own folder, named with bench's claim (``AppScratchFolder``), removed with it.
  package let stateFolder: AppScratchFolder
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
  package let feedFollows = FeedFollowLog()
  /// Puts the fed camera back in each configuration's own format before its runs (`--feed-light-board`).
  package let feedPriming = FeedPriming()
  /// The daemon that serves the camera (`--camera pipewire:PATH`), set up for the whole
  /// benchmark; nil for a camera the app opens itself.
  let cameraService: PipeWireService?

  /// Creates a runner. `appBinary` is camera-app, or nil with `settings.appCommand`; `display`
  /// is the one `settings.display` names, already set up (`BenchDisplay.open`); `resources` are
  /// the benchmark's (nil: the runner's own, with no thread states).
  ///
  /// The apps' state (the synthetic camera's power state, the photo library) goes into a folder
  /// of the runner's own with an unpredictable name (``AppScratchFolder``: `mkdtemp` in `$TMPDIR`
  /// or `/tmp`, named with bench's claim), removed with the runner: never one at a predictable
  /// name that another user could have made first. Runners that share one camera (`bench ab`'s two sides, interleaved on the
  /// same device) share its power state: `deviceStateDirectory`, a private folder the caller
  /// made and removes; nil keeps it in the runner's own folder.
  /// - Throws: `RunnerError` when that folder cannot be made.
  package init(
    settings: RunSettings, resources: RunResources? = nil, appBinary: String?,
    display: BenchDisplay = .sharedMemory, deviceStateDirectory: String? = nil,
    cameraService: PipeWireService? = nil
  ) throws(RunnerError) {
    self.settings = settings
    self.cameraService = cameraService
    self.resources = resources ?? RunResources(settings: settings)
    self.appBinary = appBinary
    self.display = display
    // The apps' state is their scratch: handed to the app user when the app runs as another
    // user than bench's (bench, root, still writes the camera's power state in it, replacing
    // files atomically, never following what the app left there); the folder around it is
    // bench's, named with its claim, so that the next bench sweeps it after a SIGKILL.
    self.stateFolder = try AppScratchFolder(prefix: "firstframe-bench-", user: settings.appUser)
    self.deviceStateDirectory = deviceStateDirectory ?? stateFolder.scratch
  }

  deinit {
    stateFolder.remove()
  }

  /// The benchmark's control of `condition`.
  package func control(for condition: LaunchCondition) -> any LaunchConditionControl {
    resources.control(for: condition)
  }

  /// The benchmark's gate to the machine lock (its resources').
  package var machine: MachineGate? { resources.machine }

  /// Leaves `pids` out of the tracefs session's events (a condition's burners); nothing for
  /// `sampled` or `off`.
  package func leaveUntraced(_ pids: [Int32]) {
    if case .tracefs(let session) = resources.threadStates { try? session.untrack(pids) }
  }

  // MARK: - Argv and environment

  /// The app's argv for `config`; camera-app gets `--profile profile` (nil: the run's own
  /// `--profile`, as the cold eviction reads it; a launch passes its private copy,
  /// `PrivateTrace.profile`).
  func argv(config: BenchConfiguration, profile: String? = nil) -> [String] {
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
    if let profile = profile ?? settings.profilePath { args += ["--profile", profile] }
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
  /// run's kept trace is cut at 16 MiB.
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
    var environment = launch.applied(to: self.display.clientEnvironment(inherited))
    // A camera served through PipeWire: the app reaches bench's daemon, never another one.
    if let cameraService { environment.merge(cameraService.clientEnvironment) { _, daemon in daemon } }
    // A third-party app gets its device phases and app.main from the preload library, when the
    // loader can load it into the program (RunSettings.preloadReasons says when not); camera-app
    // too with --preload-camera-app.
    if settings.preloadsLibrary(into: config), let library = settings.preloadLibrary {
      return PreloadLibrary.environment(environment, library: library, trace: .path(trace))
    }
    return environment
  }

  /// One launch run (cold, warm, loaded, low-power, hot): the condition's part set up right
  /// before the spawn (``LaunchConditionControl/beginRun(_:interrupted:)``) and checked after the
  /// run (``ConditionRunState/verify(_:into:)``).
  package func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    if settings.feedLightBoard != nil { feedPriming.prime(before: config.name, interrupted: interrupted) }
    let context = ConditionRunContext(
      runID: runID, benchPID: pid,
      evictionFiles: { [self] in coldEvictionFiles(config: config, counted: number >= 1) },
      markCold: { [deviceStateDirectory] in
        try? SyntheticCamera.markCold(stateDirectory: deviceStateDirectory)
      })
    guard let conditionRun = control(for: condition).beginRun(context, interrupted: interrupted) else {
      return nil
    }
    let (daemonRun, failed) = prepareCameraDaemon(number: number, condition: condition, after: conditionRun)
    if var record = failed {
      conditionRun.verify(ConditionRunObservation(), into: &record)
      return RunOutcome(record: record, realtime: false)
    }
    let (firstLive, states) = (FirstLiveFrameTime(), statesRecorder())
    let app: LaunchedApp
    do {
      app = try launch(
        config: config, runID: runID, tracePath: tracePath, firstLive: firstLive,
        tapOnFirstFrame: settings.tap, group: conditionRun.cgroup, onFirstFrame: conditionRun.onFirstFrame,
        states: states)
    } catch {
      states?.end()
      conditionRun.cgroup?.remove()
      return RunOutcome(
        record: .init(run: number, ok: false, error: error.message, phases: [:], counts: [:]), realtime: false
      )
    }
    let spawnEvent = PhaseEvent(
      ts: app.spawnedAt, name: EventName.launchSpawn.rawValue, kind: .event, pid: pid)
    let settled = settle(
      app, since: app.spawnedAt, firstLive: firstLive,
      awaited: settings.awaitedEvents(for: config, in: condition), awaitsWindow: true,
      liveFrame: settings.expectsLiveFrame(for: config), interrupted: interrupted)
    let (report, realtime) = (app.monitor.snapshot(), app.monitor.realtimeGranted)
    // The run is settled: its phases are over, and the app's shutdown is not traced.
    states?.end()
    let cpuUsage = conditionRun.cgroup?.measureCPU(since: app.spawnedAt)  // as the app runs
    // A third-party app reads no control pipe: it is stopped (SIGTERM, then SIGKILL), and how it
    // ends then is bench's doing, not a fault of the run.
    let thirdParty = config.appConfiguration != nil
    let (end, released, escaped) = shutDown(
      app,
      settled == .settled && !thirdParty
        ? .quit(grace: settings.quitGraceSeconds) : .terminate(grace: thirdParty ? 1 : 0.5))
    let wallMs = MonotonicClock.milliseconds(from: app.spawnedAt, to: MonotonicClock.now())
    if settings.feedLightBoard != nil { feedPriming.noteFormat(after: config.name) }
    if settled == .interrupted {
      conditionRun.cgroup?.remove()
      return nil
    }
    var reason = settled.failure
    if reason == nil, !thirdParty, case .signaled = end { reason = "app \(end) after the run" }
    // The final read comes after the app (and its process group) stopped: nothing is appended
    // while it reads, and it stops at the limits.
    let read = app.trace.withLock { $0.finish() }
    app.keepTrace()
    var run = record(
      number: number, failure: reason, tracePath: tracePath, read: read, extra: [spawnEvent] + report.events,
      start: app.spawnedAt, end: UInt64.max, relock: false, report: report, wallMs: wallMs,
      droppedCommands: app.control.droppedCommands, liveFrame: settings.expectsLiveFrame(for: config),
      devicePriority: devicePriority(for: config), states: states)
    RunVerification(
      realtimeCompositor: realtime, missedDeadlines: report.missedDeadlines, condition: condition
    ).apply(to: &run)
    conditionRun.verify(
      ConditionRunObservation(
        placement: app.placement, cpuUsage: cpuUsage, appEvents: read.events,
        mappedFiles: app.mapped.withLock { $0 }),
      into: &run)
    finishCameraDaemon(daemonRun, into: &run)
    if released { run.counts[.deviceReleasedByBench] = 1 }
    (run.counts[.escapedProcesses], run.counts[.appOutputDroppedBytes]) = (escaped, app.output.droppedBytes)
    return RunOutcome(record: run, realtime: realtime)
  }

  func record(
    number: Int, failure: String?, tracePath: String, read: TraceReader.Result, extra: [PhaseEvent],
    start: UInt64, end: UInt64, relock: Bool, report: ProbeReport, wallMs: Double, windowStart: UInt64? = nil,
    droppedCommands: Int, liveFrame: Bool = true,
    devicePriority: [String] = [PhaseExtractor.kernelSource, PhaseExtractor.appSource],
    states: ThreadStatesRecorder? = nil
  ) -> BenchResults.RunRecord {
    // The trust boundary: runner and probe events come from `extra` only; the same names in the
    // app's trace are ignored and counted. A relock trace holds every run of the cell, so only
    // forgeries inside this run's window count against it.
    let app = TrustBoundary.split(appTrace: read.events)
    let forged = app.forged.filter { !relock || ($0.ts >= (windowStart ?? start) && $0.ts <= end) }.count
    let follows = feedFollows.follows(overlapping: start, through: min(end, MonotonicClock.now()))
    let kernel = kernelDevice(states, start: windowStart ?? start)
    let extra = extra + follows.flatMap { FeedFollowLog.events($0, pid: pid) } + kernel.events
    let all = (app.trusted + extra).filter { $0.ts >= (windowStart ?? start) && $0.ts <= end }.sorted {
      $0.ts < $1.ts
    }
    let events = all.filter { $0.ts >= start }
    let (intervals, deviceSources) = PhaseExtractor.intervals(
      from: events, start: start, relock: relock, devicePriority: devicePriority)
    let phases = intervals.mapValues { Double($0.end - $0.start) / 1_000_000 }  // CLOCK_MONOTONIC ns → ms
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
    let boards = LightBoardCheck.check(events)
    counts[.forgedBoards] = boards.forgedBoards
    var error = boards.failure.map { forged in failure.map { "\(forged); \($0)" } ?? forged } ?? failure
    if error == nil && liveFrame && phases[PhaseName.firstFrameObserved] == nil {
      error =
        report.unconfirmedBoard == nil
        ? "the probe saw no live frame"
        : "the probe saw no live frame: one light board, unconfirmed (no second board at the camera's cadence)"
    }
    var run = BenchResults.RunRecord(
      run: number, ok: error == nil, error: error, phases: phases, counts: counts,
      trace: "traces/" + (tracePath as NSString).lastPathComponent, wallMs: wallMs,
      timeline: all.map { BenchResults.TimelineEvent($0, originNs: start) },
      detection: report.firstLiveFrame?.method.rawValue)
    run.threadStates = states.flatMap { threadStates($0, events: events, intervals: intervals) }
    run.devicePhases = devicePhasesRecord(
      events: events, start: start, relock: relock, sources: deviceSources, kernel: kernel)
    return run
  }

}

/// The first live frame's scanout time (CLOCK_MONOTONIC ns), set once from the compositor thread.
final class FirstLiveFrameTime: Sendable {
  private let storage = PThreadMutex<UInt64?>(nil)
  /// Keeps `ts` unless a time is already recorded.
  func record(_ ts: UInt64) { storage.withLock { if $0 == nil { $0 = ts } } }
  /// The recorded time, if any.
  var value: UInt64? { storage.withLock { $0 } }
}
