#if canImport(Glibc)
  import Glibc
#endif
import HostConditions
import LaunchContract
import PhaseTrace
import Subprocess
import SystemCalls

/// Launch stage one against its floor (`bench launch-floor`): spawn → `app.main` of camera-app next
/// to small reference programs (a C hello, dynamic and static; a static Swift hello), measured the
/// way `bench` measures `process_launch` — the runner's `CLOCK_MONOTONIC` just before
/// ``ChildProcess/spawn(argv:environment:inheritedFDs:logPath:)``, the program's own
/// `CLOCK_MONOTONIC` first thing in `main`, written as an `app.main` trace line — warm and cold
/// (the program's files evicted as ``CacheEvictor`` does for bench's cold condition).
///
/// Launches are interleaved (program A, B, C, A, B, C, …) so that drift hits every program alike.
/// Each program writes its trace to a pipe (`FIRSTFRAME_TRACE=fd:3`); the runner reads up to
/// `app.main` and stops the program (SIGTERM, then SIGKILL), so only stage one is measured.
package struct LaunchFloor: Sendable {
  /// One program to launch.
  package struct Program: Sendable, Hashable {
    /// Its name in the table (`c-dynamic`, `camera-app`).
    package var name: String
    /// The executable and its arguments.
    package var argv: [String]
    /// The event after which its mappings are read once, before the timed launches: `app.main`
    /// for a hello, `preview.first_present` for camera-app (its camera is running by then).
    package var inspectAfter: EventName

    /// Creates a program.
    package init(name: String, argv: [String], inspectAfter: EventName = .appMain) {
      self.name = name
      self.argv = argv
      self.inspectAfter = inspectAfter
    }
  }

  /// What one program's launches gave.
  package struct Report: Sendable {
    /// The program.
    package var program: Program
    /// Its executable's size, in bytes.
    package var binaryBytes: Int64
    /// The files it mapped when inspected (path → size in bytes), the executable included.
    package var mappedFiles: [String: Int64]
    /// Spawn → `app.main` per condition, in ms, in launch order.
    package var samples: [LaunchCondition: [Double]] = [:]
    /// Launches that gave no `app.main` (why, per launch).
    package var failures: [String] = []
    /// The uid it ran as when inspected (the owner of its `/proc/<pid>`); nil when not read.
    package var uid: uid_t?

    /// Creates a report with no launches yet.
    package init(program: Program, binaryBytes: Int64, mappedFiles: [String: Int64]) {
      self.program = program
      self.binaryBytes = binaryBytes
      self.mappedFiles = mappedFiles
    }
  }

  /// Timed launches per program and condition.
  package var launches: Int
  /// `warm`, `cold` or both, in this order.
  package var conditions: [LaunchCondition]
  /// How long one launch may take to reach the awaited event, in seconds.
  package var timeoutSeconds: Double = 10
  /// The environment every program gets (plus `FIRSTFRAME_TRACE=fd:3`).
  package var environment: [String: String]
  /// The user every program runs as when bench is root and the app is not (``AppUser``, as
  /// bench's runs spawn the app: issue 41 item 3); nil: bench's own.
  package var user: UserIdentity?

  /// Creates a benchmark of `launches` launches per program and condition.
  package init(
    launches: Int, conditions: [LaunchCondition], environment: [String: String], user: UserIdentity? = nil
  ) {
    self.launches = launches
    self.conditions = conditions
    self.environment = environment
    self.user = user
  }

  /// The descriptor each program's trace is written to.
  static let traceDescriptor: Int32 = 3

  /// Inspects each program once (its mappings, which double as its warm-up), then runs the timed
  /// launches, interleaved, condition by condition. `progress` gets one line per finished round;
  /// `interrupted` stops between launches (the reports keep what was measured).
  package func run(
    _ programs: [Program], progress: (String) -> Void, interrupted: () -> Bool
  ) -> [Report] {
    var reports = programs.map { program in
      let inspected = launch(program, until: program.inspectAfter, evicting: nil)
      var report = Report(
        program: program, binaryBytes: Self.fileSize(program.argv[0]) ?? 0, mappedFiles: [:])
      switch inspected {
      case .success(let launched):
        for file in launched.mappedFiles { report.mappedFiles[file] = Self.fileSize(file) ?? 0 }
        report.uid = launched.uid
      case .failure(let why):
        report.failures.append("inspection: \(why.message)")
      }
      // By its real path, as /proc/PID/maps names it (argv[0] may be a symbolic link to it).
      report.mappedFiles[FileSystem.realPath(program.argv[0]) ?? program.argv[0]] = report.binaryBytes
      return report
    }
    for condition in conditions {
      for round in 1...launches {
        for index in reports.indices {
          if interrupted() { return reports }
          var evictor: CacheEvictor?
          if condition == .cold { evictor = CacheEvictor(files: Set(reports[index].mappedFiles.keys)) }
          switch launch(reports[index].program, until: .appMain, evicting: evictor) {
          case .success(let launched):
            reports[index].samples[condition, default: []].append(launched.milliseconds)
          case .failure(let why):
            reports[index].failures.append("\(condition.rawValue) launch \(round): \(why.message)")
          }
        }
        if round % 10 == 0 || round == launches {
          progress("\(condition.rawValue): \(round)/\(launches) rounds of \(reports.count) programs")
        }
      }
    }
    return reports
  }

  /// Launches `program` (without evicting anything) until its `inspectAfter` event, returns the
  /// files it maps then (`/proc/PID/maps`) and stops it.
  package func inspect(_ program: Program) -> Result<Set<String>, RunnerError> {
    launch(program, until: program.inspectAfter, evicting: nil).map { $0.mappedFiles }
  }

  /// What one launch gave.
  struct Launched {
    /// Spawn → `app.main`, in ms.
    var milliseconds: Double
    /// The program's file-backed mappings when `until` arrived.
    var mappedFiles: Set<String>
    /// The uid it ran as then (the owner of its `/proc/<pid>`).
    var uid: uid_t?
  }

  /// One launch: evict (cold), stamp, spawn, read the trace pipe up to `app.main` and then up
  /// to `until`, read the mappings, stop the program.
  func launch(_ program: Program, until: EventName, evicting evictor: CacheEvictor?) -> Result<
    Launched, RunnerError
  > {
    let pipe: (read: Int32, write: Int32)
    do {
      pipe = try ProcessControl.pipe()
    } catch {
      return .failure(
        RunnerError(.spawnFailed, "cannot create the trace pipe: \(error.message)", errno: error))
    }
    defer { FileDescriptorIO.close(pipe.read) }
    evictor?.evict()
    var env = environment
    env[LaunchEnvironment.Key.trace.rawValue] = "fd:\(Self.traceDescriptor)"
    let spawnedAt = MonotonicClock.now()
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        argv: program.argv, environment: env, inheritedFDs: [Self.traceDescriptor: pipe.write], user: user)
    } catch {
      FileDescriptorIO.close(pipe.write)
      return .failure(error)
    }
    FileDescriptorIO.close(pipe.write)
    defer { child.terminate(grace: 1) }
    let deadline = spawnedAt &+ UInt64(timeoutSeconds * 1e9)
    var reader = PipeLineReader(pipe.read)
    var mainAt: UInt64?
    while true {
      let lines: [String]
      switch reader.lines(until: deadline) {
      case .lines(let read): lines = read
      case .timedOut:
        return .failure(RunnerError(.spawnFailed, "no \(until.rawValue) within \(timeoutSeconds) s"))
      case .failed(let error):
        return .failure(
          RunnerError(.spawnFailed, "cannot read the trace pipe: \(error.message)", errno: error))
      case .endOfInput:
        let end = child.wait(timeout: 1).map { "\($0)" } ?? "closed its trace"
        return .failure(RunnerError(.spawnFailed, "\(program.name) \(end) before \(until.rawValue)"))
      }
      for line in lines {
        for event in TraceReader().parse(text: line).events where event.pid == child.pid {
          if event.name == EventName.appMain.rawValue, mainAt == nil {
            guard event.ts >= spawnedAt else {
              return .failure(RunnerError(.spawnFailed, "app.main is earlier than the spawn"))
            }
            mainAt = event.ts
          }
          if event.name == until.rawValue, let mainAt {
            let files = CacheEvictor.mappedFiles(pid: child.pid)
            var st = stat()
            let uid = stat("/proc/\(child.pid)", &st) == 0 ? st.st_uid : nil
            return .success(
              Launched(
                milliseconds: MonotonicClock.milliseconds(from: spawnedAt, to: mainAt), mappedFiles: files,
                uid: uid))
          }
        }
      }
    }
  }

  /// The size of `path` in bytes (`stat(2)`), nil when it cannot be read.
  static func fileSize(_ path: String) -> Int64? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Int64(st.st_size)
  }
}
