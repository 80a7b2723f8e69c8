import BenchKit
import Foundation
import LaunchContract
import PhaseTrace
import Subprocess
import TestSupport
import Testing

/// Runs `firstframe-v4l2-client` (built next to the test bundle) with or without the preload
/// library and the fake V4L2 driver, and reads back what it printed and traced.
struct PreloadHarness {
  /// The time limit of every suite that starts programs through the harness. Ten minutes, as for
  /// every `.blocking` suite: a test's clock runs while it waits its turn on the blocking threads
  /// behind bench runs, and at 2 minutes all of PreloadLibraryTests ran out in a clean-clone
  /// rehearsal before they had started (160 s after the suite began).
  static let timeLimit: TimeLimitTrait = .timeLimit(.minutes(TestTime.minutes(10)))

  /// What one run of the client left.
  struct Run {
    var status: Int32
    var output: String
    var errors: String
    var trace: TraceReader.Result
    var traceText: String
    var events: [PhaseEvent] { trace.events }
    /// The call log (`name ret=R errno=E` lines).
    var log: [String] { output.split(separator: "\n").map(String.init) }
  }

  let library: String
  let fakeDriver: String
  let client: String
  /// A fresh folder holding the stand-in device (a regular file) and the traces.
  let folder: String
  /// The stand-in device's path: under both the library's and the fake driver's prefix.
  let device: String

  init() throws {
    library = try PreloadLibrary.locate()
    fakeDriver = try PreloadLibrary.locate(PreloadLibrary.fakeDriverFileName)
    client = try PreloadLibrary.locate(PreloadLibrary.clientFileName)
    folder = temporaryFolder("preload")
    device = folder + "/fake-video0"
    _ = FileManager.default.createFile(atPath: device, contents: Data())
  }

  /// Whether libv4l2 can be loaded here (libv4l-0).
  static let libv4l2Installed: Bool = {
    guard let handle = dlopen("libv4l2.so.0", RTLD_LAZY) else { return false }
    dlclose(handle)
    return true
  }()

  /// The client's `--api` values this machine can run.
  static var apis: [String] { ["ioctl"] + (libv4l2Installed ? ["libv4l2", "libv4l2-dlopen"] : []) }

  /// Runs the client with `arguments` (the device is appended unless `device` is nil).
  /// - Parameters:
  ///   - preload: load the library.
  ///   - fake: load the fake driver (after the library).
  ///   - trace: `FIRSTFRAME_TRACE` (a fresh file in the folder unless said; nil: unset).
  func run(
    _ arguments: [String], device: String? = nil, preload: Bool, fake: Bool = true,
    trace: String?? = .none, timeout: Duration = .seconds(60)
  ) throws -> Run {
    var environment = ProcessInfo.processInfo.environment.filter {
      $0.key != "LD_PRELOAD" && !$0.key.hasPrefix("FIRSTFRAME_") && !$0.key.hasPrefix("LIBV4L")
    }
    environment[LaunchEnvironment.Key.preloadDevicePrefix.rawValue] = folder + "/fake-video"
    environment[LaunchEnvironment.Key.fakeV4L2Prefix.rawValue] = folder + "/fake-video"
    let tracePath: String? =
      switch trace {
      case .none: folder + "/trace-\(UUID().uuidString).jsonl"
      case .some(let given): given
      }
    let preloads = (preload ? [library] : []) + (fake ? [fakeDriver] : [])
    if !preloads.isEmpty { environment["LD_PRELOAD"] = preloads.joined(separator: ":") }
    if let tracePath { environment[LaunchEnvironment.Key.trace.rawValue] = tracePath }

    let outPath = folder + "/out-\(UUID().uuidString)"
    let errPath = outPath + ".err"
    let argv = [client] + arguments + [device ?? self.device]
    let status = try Self.spawn(
      argv, environment: environment, stdout: outPath, stderr: errPath, timeout: timeout)
    let traceText = tracePath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
    return Run(
      status: status,
      output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
      errors: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
      trace: TraceReader().parse(text: traceText), traceText: traceText)
  }

  /// Runs `argv` with its stdout and stderr in the files named; returns its exit status (-1 when
  /// it was still running after `timeout` and was stopped, 128 + N when signal N killed it).
  /// `posix_spawn` (BenchKit's `ChildProcess`), not Foundation's `Process`, which hung in the
  /// vivid VM's guest ("Could not create wakeup socket pair for CFSocket").
  static func spawn(
    _ argv: [String], environment: [String: String], stdout: String, stderr: String, timeout: Duration
  ) throws -> Int32 {
    let out = open(stdout, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    let err = open(stderr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    defer {
      close(out)
      close(err)
    }
    let child = try ChildProcess.spawn(argv: argv, environment: environment, inheritedFDs: [1: out, 2: err])
    guard let ended = child.wait(timeout: Double(TestTime.scaled(timeout).components.seconds)) else {
      child.terminate()
      return -1
    }
    switch ended {
    case .exited(let status): return status
    case .signaled(let signal): return 128 + signal
    }
  }

  /// The events' (name, kind) pairs in file order.
  static func sequence(_ events: [PhaseEvent]) -> [String] {
    events.map { "\($0.name) \($0.kind.rawValue)" }
  }

  /// What the library writes for one capture, in order.
  static let captureSequence = [
    "app.main event",
    "device.open begin", "device.open end",
    "device.format begin", "device.format end",
    "device.buffers begin", "device.buffers end",
    "device.stream_on begin", "device.stream_on end",
    "device.first_buffer event",
  ]

  /// The `api` field each `--api` shows in the library's events.
  static func apiField(forClientAPI api: String) -> String {
    switch api {
    case "libv4l2": "libv4l2"
    case "libv4l2-dlopen": "syscall"
    default: "libc"
    }
  }

  func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }
}
