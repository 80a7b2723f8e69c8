#if canImport(Glibc)
  import Glibc
#endif
import DisplayServers
import Foundation
import HostConditions
import LaunchContract
import PhaseTrace
import Probe
import SystemCalls
import Subprocess
import ThreadTracing

/// A launch: the app spawned with its display, control pipe and trace, and the one way it is
/// shut down.
extension BenchRunner {
  /// A launched app with its display, control pipe and trace.
  final class LaunchedApp: Sendable {
    let child: ChildProcess
    let monitor: DisplayMonitor
    let control: ControlSender
    /// The app's stdout and stderr, drained into capped files.
    let output: AppOutputDrain
    /// Where bench keeps the run's trace: `<out>/traces/NAME.jsonl`, a copy made after the run
    /// (``keepTrace()``); the app never sees this path.
    let tracePath: String
    /// The trace the app writes, in a private folder outside the results folder.
    let privateTrace: PrivateTrace
    let spawnedAt: UInt64
    /// The app's trace, followed for as long as the app runs (one reader, so nothing is read twice).
    let trace: PThreadMutex<TraceTail>
    /// The files the app had mapped when its first live frame was seen (empty before then).
    let mapped = PThreadMutex<Set<String>>([])
    /// `low-power` with a quota: how the app entered its run's cgroup; nil otherwise.
    let placement: CgroupPlacement?
    init(
      child: ChildProcess, monitor: DisplayMonitor, control: ControlSender, output: AppOutputDrain,
      tracePath: String, privateTrace: PrivateTrace, spawnedAt: UInt64, placement: CgroupPlacement? = nil
    ) {
      self.placement = placement
      self.child = child
      self.monitor = monitor
      self.control = control
      self.output = output
      self.tracePath = tracePath
      self.privateTrace = privateTrace
      self.spawnedAt = spawnedAt
      self.trace = PThreadMutex(
        TraceTail(
          path: privateTrace.path, reader: BenchRunner.traceLimits,
          maxBytesPerPoll: BenchRunner.traceBytesPerPoll))
    }

    func send(_ command: ControlCommand) { control.send(command) }

    /// Copies the app's trace (at most the reader's `maxBytes`) to ``tracePath``; called once the
    /// app has ended. The private folder goes when this launch is released.
    func keepTrace() { privateTrace.keep(at: tracePath, maxBytes: BenchRunner.traceLimits.maxBytes) }

    /// Closes the runner's end of the control pipe.
    func closeControl() { FileDescriptorIO.close(control.fd) }

    /// How a launched app is ended.
    enum Ending {
      /// `quit` down the control pipe and `grace` seconds to go; then SIGTERM and `grace`/3 more.
      case quit(grace: Double)
      /// SIGTERM (SIGKILL after `grace` seconds): a run that failed, or an app that reads no
      /// control pipe.
      case terminate(grace: Double)
    }

    /// Ends the app as `ending` says, waits for it, and releases its output, control pipe and
    /// display. Returns how it ended, and how many live processes it left outside its process
    /// group that were killed once it ended, before its output was drained (nil when bench is no
    /// subreaper: ``ProcessTree/killEscaped(grace:)``). Called through ``BenchRunner/shutDown(_:_:)`` only.
    fileprivate func shutDown(_ ending: Ending) -> (end: ChildProcess.Termination, escaped: Int?) {
      let end: ChildProcess.Termination
      switch ending {
      case .quit(let grace):
        send(.quit)
        end = child.wait(timeout: grace) ?? child.terminate(grace: grace / 3)
      case .terminate(let grace):
        end = child.terminate(grace: grace)
      }
      // An escaped process may hold the app's output pipes: it goes before they are drained.
      let escaped = ProcessTree.killEscaped()
      output.finish()
      closeControl()
      monitor.stop()
      return (end, escaped)
    }
  }

  /// Launches `config`'s app for one run. `group` (a `low-power` run's cgroup) receives the app
  /// as ``spawn(argv:environment:inheritedFDs:into:)`` says; `onFirstFrame` is called from the
  /// compositor's thread when the probe sees the first live frame (it must not block). `states`
  /// (`--thread-states`) starts tracing just before the spawn and sampling just after it.
  func launch(
    config: BenchConfiguration, runID: String, tracePath: String, firstLive: FirstLiveFrameTime,
    tapOnFirstFrame: Bool, group: RunCgroup? = nil, onFirstFrame: (@Sendable () -> Void)? = nil,
    states: ThreadStatesRecorder? = nil
  )
    throws(RunnerError) -> LaunchedApp
  {
    // The app's trace starts empty in a folder of its own, outside the results folder: a file
    // left by an earlier bench cannot lend this run its events, and the app cannot reach
    // bench's files (PrivateTrace).
    let privateTrace = try PrivateTrace(appUser: settings.appUser, profile: settings.profilePath)
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
    let env = environment(trace: privateTrace.path, display: target, runID: runID, config: config)
    randomRefreshPhase()
    states?.begin()
    let spawnedAt = MonotonicClock.now()
    monitor.arm(.launch(since: spawnedAt)) { @Sendable observation in
      firstLive.record(observation.scanoutTime)
      if tapOnFirstFrame { control.send(.tap) }
      onFirstFrame?()
    }
    let child: ChildProcess
    let placement: CgroupPlacement?
    var inherited = [Self.controlDescriptor: readEnd, 1: output.stdoutForApp, 2: output.stderrForApp]
    if surface >= 0 { inherited[Self.surfaceDescriptor] = surface }
    do {
      (child, placement) = try spawn(
        argv: argv(config: config, profile: privateTrace.profile), environment: env, inheritedFDs: inherited,
        into: group)
    } catch {
      FileDescriptorIO.close(readEnd)
      FileDescriptorIO.close(writeEnd)
      output.finish(within: 0)
      monitor.stop()
      throw error
    }
    states?.spawned(child.pid, at: spawnedAt)
    output.spawned()
    FileDescriptorIO.close(readEnd)
    monitor.watch(processID: child.pid)
    return LaunchedApp(
      child: child, monitor: monitor, control: control, output: output, tracePath: tracePath,
      privateTrace: privateTrace, spawnedAt: spawnedAt, placement: placement)
  }

  /// Waits a random fraction of one refresh interval, so that launches start at a random phase
  /// of the display's scanout, as a person's tap does: otherwise every run would begin at the
  /// same offset from the compositor's ticks and the refresh quantisation would bias every
  /// sample the same way.
  func randomRefreshPhase() {
    let interval = 1e9 / settings.refreshHz
    MonotonicClock.sleep(nanoseconds: UInt64(Double.random(in: 0..<interval)))
  }

  /// The one way an app is shut down (a launch run's end, a relock cell's close, a relock launch
  /// that failed): ended as `ending` says, its output, pipe and display released, then the
  /// device's release recorded if the app could not record it (``recordDeviceRelease()``).
  /// Returns how the app ended and whether a release was recorded.
  func shutDown(_ app: LaunchedApp, _ ending: LaunchedApp.Ending) -> (
    end: ChildProcess.Termination, released: Bool, escaped: Int?
  ) {
    let (end, escaped) = app.shutDown(ending)
    return (end, recordDeviceRelease(), escaped)
  }
}
