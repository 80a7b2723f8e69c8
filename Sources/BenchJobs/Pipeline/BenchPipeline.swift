#if canImport(Glibc)
  import Glibc
#endif
import CameraServices
import DisplayServers
import AppBuilds
import BenchKit
import Display
import Foundation
import SystemCalls
import Subprocess
import ResultsSchema
import CommandLineKit
import ThreadTracing

/// The one pipeline of `bench` and `bench ab` (and what comes next): the command's options are
/// prepared (``RunOptions/prepare()``), then
/// 1. the results folders are claimed, the process guard started, the apps located or built;
/// 2. the display is opened, and one journal, runner and session is set up per side;
/// 3. the job runs the sessions (``BenchJob/run(_:runners:progress:interrupted:log:)``);
/// 4. each side's results are written (``finish(_:folder:journal:format:quiet:displayFailure:output:errors:)``);
/// 5. the job reports (a comparison, a verdict), and the outcome is returned as a value
///    (``BenchOutcome``: not built, stopped, failed, or measured with each side's results and
///    the exit status: 0 ok, 1 runs failed or results not written, 130 interrupted).
package enum BenchPipeline {
  /// Runs `job` from its results folders to its outcome. `interrupt` is the flag a signal
  /// sets (installed here when nil): a command that runs several jobs (`bench bisect`) installs
  /// one and passes it to each, so that one Ctrl-C stops the job in flight and the command.
  /// - Throws: `UsageError` when a results folder cannot be made, is held by another bench or
  ///   holds results, or (`--no-wait`) another bench holds the machine lock a condition needs.
  package static func run(
    _ job: some BenchJob, interrupt: InterruptFlag? = nil, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) throws(UsageError) -> BenchOutcome {
    let interrupted = interrupt ?? InterruptFlag.install()
    let guardProcess = startGuard(errors: &errors)
    // The results folders first: one in use or holding results is refused before anything is built.
    let folders = try claim(job, errors: &errors)
    // What benches killed with SIGKILL left and their guards could not remove (claims free).
    BenchLeftovers.removeStale()
    // --no-wait: the machine lock taken now for the whole job, or the job refused before anything
    // runs (a bench refused half-way through would throw its runs away).
    if !job.settings.waitsForMachine, let use = job.resources.machineUse,
      let refusal = job.resources.machine.pin(for: use)
    {
      throw UsageError(refusal)
    }
    let apps: [String?]
    switch job.apps(interrupted: interrupted, log: { errors.write($0 + "\n") }) {
    case .apps(let found): apps = found
    case .notBuilt(let side, let reason): return .notBuilt(side: side, reason: reason)
    case .stopped: return .stopped
    case .failed: return .failed
    }
    // The benchmark's resources (opened when the command was prepared: the tracefs instance) go
    // with the pipeline — every condition restored, the instance removed — or, when bench is
    // killed, with the guard.
    let resources = job.resources
    defer { resources.close() }
    if case .tracefs(let session) = resources.threadStates {
      guardProcess?.removeDirectoryOnExit(session.path)
    }
    guard let display = openDisplay(job.settings, quiet: job.quiet, errors: &errors) else { return .failed }
    defer { display.stop() }
    // A camera served through PipeWire: bench's daemon, started here so that the first warm run
    // finds it running (a cold run starts its own).
    let cameraService: PipeWireService?
    switch openCameraService(job.settings, quiet: job.quiet, errors: &errors) {
    case .success(let service): cameraService = service
    case .failure: return .failed
    }
    defer { cameraService?.stop() }
    // A display that is gone (Xvfb exited) stops the benchmark as Ctrl-C does; the run in
    // flight fails with the reason (BenchRunner.displayFailure).
    let stop: @Sendable () -> Bool = { interrupted.isSet || display.failure != nil }
    let progress = ProgressReporter(total: job.progressTotal, quiet: job.quiet)
    // The camera's state the sides share: the apps' scratch, the app user's when the app runs as
    // another (``AppScratchFolder``: the next bench sweeps it after a SIGKILL).
    var deviceFolder: AppScratchFolder?
    if job.sharesDevice {
      do {
        deviceFolder = try AppScratchFolder(prefix: "firstframe-device-", user: job.settings.appUser)
      } catch {
        errors.write("bench: cannot make the camera's state folder: \(error.message)\n")
        return .failed
      }
    }
    if let deviceFolder { guardProcess?.removeOnExit(deviceFolder.folder) }
    // Best effort: the guard removes it too, when bench ends.
    defer { deviceFolder?.remove() }
    let device = deviceFolder?.scratch
    let context = SideContext(
      apps: apps, display: display, device: device, progress: progress, guardProcess: guardProcess,
      interrupted: stop, cameraService: cameraService)
    guard let sides = makeSides(job, folders: folders, context, errors: &errors) else { return .failed }
    guardProcess?.removeOnExit(
      in: "/dev/shm", namesStartingWith: DisplaySurface.namePrefix + MachineClaim.currentToken + "-")
    let results = job.run(
      sides.map(\.session), runners: sides.map(\.runner), progress: progress, interrupted: stop,
      log: { errors.write($0 + "\n") })
    let status = write(
      results, job: job, folders: folders, journals: sides.map(\.journal), displayFailure: display.failure,
      output: &output, errors: &errors)
    return .measured(results, status: job.report(results, status: status, output: &output, errors: &errors))
  }

  /// What every side of a job is set up with.
  struct SideContext {
    /// Per side: camera-app's path, or nil (``BenchJob/apps(interrupted:log:)``).
    let apps: [String?]
    /// The display the runs present to.
    let display: BenchDisplay
    /// The camera's power state folder the sides share, or nil: each runner's own.
    let device: String?
    /// The progress line of all sides.
    let progress: ProgressReporter
    /// The process guard, told of each runner's state folder.
    let guardProcess: ProcessGuard?
    /// Whether the benchmark stops (a signal, or the display gone).
    let interrupted: @Sendable () -> Bool
    /// The daemon serving the camera (`--camera pipewire:PATH`), or nil.
    let cameraService: PipeWireService?
  }

  /// One journal, runner and session per side, each on its results folder; nil (said on
  /// `errors`) when a journal or runner cannot be made.
  static func makeSides(
    _ job: some BenchJob, folders: [ResultsFolder], _ context: SideContext,
    errors: inout some TextOutputStream
  ) -> [(session: BenchSession, runner: BenchRunner, journal: RunJournal)]? {
    var sides: [(session: BenchSession, runner: BenchRunner, journal: RunJournal)] = []
    let checkouts = job.checkouts()
    for (index, side) in job.sides.enumerated() {
      var settings = job.settings
      settings.outDir = folders[index].path
      var base = baseResults(
        settings, threadStates: job.resources.threadStates, display: context.display,
        cameraService: context.cameraService)
      if index < checkouts.count, let checkout = checkouts[index] {
        base.tool.commit = checkout.commit
        base.tool.branch = checkout.branch
        base.tool.dirty = checkout.dirty
      }
      let journal: RunJournal
      let runner: BenchRunner
      do {
        journal = try RunJournal(folder: folders[index].path, base: base)
      } catch {
        errors.write("bench: \(error)\n")
        return nil
      }
      do {
        runner = try BenchRunner(
          settings: settings, resources: job.resources, appBinary: context.apps[index],
          display: context.display,
          deviceStateDirectory: context.device, cameraService: context.cameraService)
      } catch {
        errors.write("bench: \(error.message)\n")
        return nil
      }
      context.guardProcess?.removeOnExit(runner.stateFolder.folder)
      let session = BenchSession(
        settings: settings, runner: runner, progress: context.progress, base: base, journal: journal,
        label: side.label, interrupted: context.interrupted)
      sides.append((session, runner, journal))
    }
    return sides
  }

  /// Writes each side's results (``finish(_:folder:journal:format:quiet:displayFailure:output:errors:)``):
  /// on stdout as ``BenchJob/sideOutput`` says, or nowhere. Returns the sides' exit status: 130
  /// when one was interrupted, else the highest.
  static func write(
    _ results: [BenchResults?], job: some BenchJob, folders: [ResultsFolder], journals: [RunJournal],
    displayFailure: String?, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    var status: Int32 = 0
    var discard = ""
    for (index, result) in results.enumerated() {
      guard let result else { continue }
      let written =
        if let shown = job.sideOutput {
          finish(
            result, folder: folders[index], journal: journals[index], format: shown.format,
            quiet: shown.quiet, displayFailure: displayFailure, output: &output, errors: &errors)
        } else {
          finish(
            result, folder: folders[index], journal: journals[index], format: .table, quiet: true,
            displayFailure: displayFailure, output: &discard, errors: &errors)
        }
      status = status == 130 || written == 130 ? 130 : max(status, written)
    }
    return status
  }

  /// Claims each side's results folder (``ResultsFolder/claim(_:overwrite:note:)``); a named
  /// side's folder inside the job's is made here.
  static func claim(_ job: some BenchJob, errors: inout some TextOutputStream) throws(UsageError)
    -> [ResultsFolder]
  {
    var folders: [ResultsFolder] = []
    for side in job.sides {
      if let label = side.label {
        do throws(Errno) {
          try FileSystem.createDirectory(atPath: side.folder)
        } catch {
          throw UsageError(
            "--out \(job.settings.outDir): cannot create \(label)/ (\(error))")
        }
      }
      folders.append(
        try ResultsFolder.claim(side.folder, overwrite: job.overwrite) { errors.write($0 + "\n") })
    }
    return folders
  }

  /// Starts the process guard: every child bench starts dies with it, even after SIGKILL (see
  /// ``ProcessGuard``). Nil (said on `errors`) when it cannot be started.
  static func startGuard(errors: inout some TextOutputStream) -> ProcessGuard? {
    do {
      return try ProcessGuard.start()
    } catch {
      errors.write("bench: \(error.message); an app may outlive bench if bench is killed\n")
      return nil
    }
  }

  /// The daemon that serves `settings.camera` (`pipewire:PATH`), started, as the app user, its
  /// output in `pipewire.log` in `settings.outDir`; `.success(nil)` for a camera the app opens
  /// itself; `.failure` (said on `errors`) when it cannot be started.
  static func openCameraService(_ settings: RunSettings, quiet: Bool, errors: inout some TextOutputStream)
    -> Result<PipeWireService?, RunnerError>
  {
    guard case .pipewire(let path) = settings.camera else { return .success(nil) }
    do {
      let service = try PipeWireService(
        source: .device(path: path),
        user: settings.appUser.flatMap { $0.dropsPrivileges ? $0.identity : nil },
        logPath: settings.outDir + "/pipewire.log")
      let record = service.prepareRun(fresh: true)
      guard record.verified else {
        service.stop()
        let error = RunnerError(
          .spawnFailed, "--camera \(settings.camera): \(record.reason ?? "the daemon did not start")")
        errors.write("bench: \(error.message)\n")
        return .failure(error)
      }
      if !quiet {
        errors.write(
          "bench: camera \(settings.camera): PipeWire \(service.version ?? "") with WirePlumber (pid \(record.pid ?? 0)), node \(service.nodeName) listed \(String(format: "%.0f", record.startToReadyMs ?? 0)) ms after its start\n"
        )
      }
      return .success(service)
    } catch {
      errors.write("bench: \(error.message)\n")
      return .failure(error)
    }
  }

  /// The display `settings.display` names, set up for the whole benchmark (a private Xvfb logs
  /// to `xvfb.log` in `settings.outDir`); nil, said on `errors`, when it cannot be.
  static func openDisplay(_ settings: RunSettings, quiet: Bool, errors: inout some TextOutputStream)
    -> BenchDisplay?
  {
    let display: BenchDisplay
    do {
      display = try BenchDisplay.open(
        settings.display, width: settings.displayWidth, height: settings.displayHeight,
        refreshHz: settings.refreshHz, logFolder: settings.outDir)
    } catch {
      errors.write("bench: \(error.message)\n")
      return nil
    }
    // The display is opened to the app's user alone (Xwayland lets in sway's user only: bench's
    // own user too is let in by name).
    if let user = settings.appUser {
      do {
        try display.grant(toAppUser: user.identity.uid, group: user.identity.gid)
      } catch {
        display.stop()
        errors.write("bench: \(error.message)\n")
        return nil
      }
    }
    if let server = display.serverInfo, !quiet {
      let what = settings.display.server == .wayland ? "Wayland compositor" : "X server"
      errors.write("bench: display \(settings.display): \(what) \(server.name) (\(server.vendor))\n")
    }
    return display
  }
}
