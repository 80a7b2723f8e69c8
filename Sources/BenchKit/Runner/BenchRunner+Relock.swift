import Foundation
import LaunchContract
import PhaseTrace
import Probe
import ResultsSchema
import ThreadTracing
import Subprocess
import SystemCalls

/// Relock: one app process per configuration for the whole cell, locked and unlocked for every
/// run, each run measured from its unlock.
extension BenchRunner {
  /// A relock cell's app: launched once, then locked and unlocked for every run.
  package final class RelockSession: RelockRunning {
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
    package func run(number: Int, interrupted: @Sendable () -> Bool) -> RunOutcome? {
      runner.relockRun(self, number: number, interrupted: interrupted)
    }

    /// Ends the app (and records the device's release if it could not), then keeps its trace in
    /// the results folder (``LaunchedApp/keepTrace()``). Returns how many processes it had left
    /// that were killed when it ended (nil when bench is no subreaper).
    package func close() -> Int? {
      let escaped = runner.shutDown(app, .quit(grace: runner.settings.quitGraceSeconds)).escaped
      app.keepTrace()
      return escaped
    }
  }

  /// Launches the app for a relock cell and waits for its launch to settle; then locks it.
  package func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  )
    -> Result<any RelockRunning, RunnerError>
  {
    let firstLive = FirstLiveFrameTime()
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
      app, since: app.spawnedAt, firstLive: firstLive, awaited: awaited, interrupted: interrupted
    ).failure {
      _ = shutDown(app, .terminate(grace: 0.5))
      app.keepTrace()
      return .failure(RunnerError(.spawnFailed, "relock: the app did not launch: \(failure)"))
    }
    app.send(.lock)
    return .success(RelockSession(app: app, runner: self, config: config))
  }

  /// One relock run: the app is locked; wait `lockSeconds` (and, for an app that reports its
  /// session, until that session has stopped), unlock, measure, lock again.
  package func relockRun(_ session: RelockSession, number: Int, interrupted: @Sendable () -> Bool)
    -> RunOutcome?
  {
    let app = session.app
    let lockDeadline = MonotonicClock.now() + UInt64(settings.lockSeconds * 1e9)
    awaitSessionStopped(app, since: session.lockedAt.withLock { $0 }, interrupted: interrupted)
    guard MonotonicClock.sleep(until: lockDeadline, shouldStop: interrupted) else { return nil }
    let firstLive = FirstLiveFrameTime()
    let tap = settings.tap
    let control = app.control
    randomRefreshPhase()
    // The app's tree exists already: its thread states are traced from here, seeded from /proc;
    // bench's and the display server's threads as in a launch.
    let states = statesRecorder()
    states?.attach(to: app.child.pid)
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
    let settled = settle(
      app, since: unlockAt, firstLive: firstLive,
      awaited: settings.awaitedEvents(for: session.config, in: .relock),
      interrupted: interrupted)
    states?.end()
    if settled == .interrupted { return nil }
    // The app outlives the run, what it left outside its process group does not: the orphans
    // re-parented to bench and the processes under the app that left its group, counted as a
    // launch run's escaped processes are.
    let escaped = ProcessTree.killEscaped().map { $0 + ProcessTree.killLeftGroup(of: app.child.pid) }
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
      number: number, failure: settled.failure, tracePath: app.tracePath, read: read,
      extra: [lockEvent, unlockEvent] + report.events,
      start: unlockAt, end: endAt, relock: true, report: report,
      wallMs: MonotonicClock.milliseconds(from: unlockAt, to: endAt), windowStart: lockEvent.ts,
      droppedCommands: dropped, devicePriority: devicePriority(for: session.config), states: states)
    RunVerification(
      realtimeCompositor: app.monitor.realtimeGranted, missedDeadlines: report.missedDeadlines,
      condition: .relock
    ).apply(to: &run)
    if released { run.counts[.deviceReleasedByBench] = 1 }
    run.counts[.escapedProcesses] = escaped
    run.counts[.appOutputDroppedBytes] = outputDropped
    return RunOutcome(record: run, realtime: app.monitor.realtimeGranted)
  }
  /// Waits until the app says its session stopped after the lock at `lockedAt` (the end of
  /// `session.stop_running` in its trace), for an app that reports its session at all (its
  /// trace has `session.start_running`), at most the run timeout. A locked app whose session
  /// still runs keeps presenting new frames, so its unlock would measure nothing and show no
  /// stale frame; under load the stop can take seconds. Other apps are not waited for.
  func awaitSessionStopped(_ app: LaunchedApp, since lockedAt: UInt64, interrupted: @Sendable () -> Bool) {
    // A reader of its own from the start (the run's reader keeps only this run's window, which
    // lacks the session's start), bounded as the run's is: the app's trace is untrusted.
    let tail = TraceTail(
      path: app.privateTrace.path, reader: Self.traceLimits, maxBytesPerPoll: Self.traceBytesPerPoll)
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
