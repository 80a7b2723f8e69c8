import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A program a test runs, that cannot hang the test: its output goes to temporary files (not
/// pipes, so a grandchild that keeps them open cannot block a read), every wait has a deadline,
/// and a program still running at the deadline is stopped (SIGTERM, then SIGKILL after 2 s) and
/// marked ``timedOut``. The names follow Foundation's `Process` so that a test changes little.
/// How it ended is a ``Termination`` (exit status or signal); ``signal(_:)`` sends it any signal.
///
/// Foundation's `Process` learns that a child ended only when every holder of a socket it hands
/// the child has closed it, and the child's own children inherit that socket: a helper or daemon
/// the program leaves running keeps it "running" to Foundation for as long as that lives. So the
/// end is also read from the kernel: a child that ended and that Foundation has not reaped is
/// reaped here (`waitpid` with `WNOHANG`), its status kept.
package final class TestProcess: @unchecked Sendable {
  // @unchecked: `process` is Foundation's `Process`, not marked Sendable, whose state reads and
  // `run()` lock internally; the rest is immutable or atomic.
  private let process = Process()
  /// The file its standard output goes to (removed when this object goes).
  package let standardOutputPath: String
  /// The file its standard error goes to, unless `standardError` gave a descriptor (removed when
  /// this object goes).
  package let standardErrorPath: String
  private let standardErrorHandle: FileHandle?
  private let stopped = Atomic<Bool>(false)
  /// The wait status of the child when this object reaped it (Foundation had not seen it end).
  private let reaped = Mutex<Int32?>(nil)

  /// Prepares `executable` with `arguments` and, when given, exactly `environment`, started from
  /// `workingDirectory` (this process's when nil). With `input` set, the program's standard input
  /// is that pipe's read end (for `fd:0` endpoints). With `standardError` set, the program's
  /// standard error is that descriptor (a pipe whose reader is gone, say) instead of
  /// ``standardErrorPath``; the caller keeps it open until ``run()`` returned, then closes it.
  package init(
    executable: String, arguments: [String] = [], environment: [String: String]? = nil,
    workingDirectory: String? = nil, input: Pipe? = nil, standardError: FileHandle? = nil
  ) {
    let base = NSTemporaryDirectory() + "test-process-\(UUID().uuidString)"
    standardOutputPath = base + ".out"
    standardErrorPath = base + ".err"
    standardErrorHandle = standardError
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
    process.standardInput = input ?? FileHandle.nullDevice
  }

  deinit {
    if isRunning { kill(process.processIdentifier, SIGKILL) }
    unlink(standardOutputPath)
    unlink(standardErrorPath)
  }

  /// Starts the program.
  package func run() throws {
    _ = FileManager.default.createFile(atPath: standardOutputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: standardErrorPath, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: standardOutputPath)
    process.standardError = standardErrorHandle ?? FileHandle(forWritingAtPath: standardErrorPath)
    try process.run()
  }

  /// The process id.
  package var processIdentifier: Int32 { process.processIdentifier }
  /// Whether it still runs: started, and not ended by Foundation's account or the kernel's.
  package var isRunning: Bool { process.processIdentifier > 0 && ended() == nil }

  /// How it ended, nil while it runs: Foundation's account when it has one, else the status this
  /// object reaped once the kernel said the child had ended (see the type's description).
  private func ended() -> Termination? {
    reaped.withLock { status -> Termination? in
      if let status { return Self.termination(ofStatus: status) }
      if !process.isRunning {
        switch process.terminationReason {
        case .uncaughtSignal: return .signaled(process.terminationStatus)
        case .exit: return .exited(process.terminationStatus)
        @unknown default: return .exited(process.terminationStatus)
        }
      }
      // ECHILD: Foundation reaped it a moment ago, and will say so.
      guard let ended = (try? ProcessControl.reapIfEnded(process.processIdentifier)) ?? nil else {
        return nil
      }
      status = ended
      return Self.termination(ofStatus: ended)
    }
  }

  /// A wait status as a ``Termination``.
  private static func termination(ofStatus status: Int32) -> Termination {
    ProcessControl.signal(ofStatus: status).map(Termination.signaled)
      ?? .exited(ProcessControl.exitCode(ofStatus: status) ?? status)
  }

  /// Asks it to end (SIGTERM), without waiting.
  package func terminate() { signal(SIGTERM) }

  /// Sends `signal` (`SIGINT`, `SIGKILL`, …) to the program alone, not to what it started; does
  /// nothing once it has ended and been reaped. The corresponding call is `kill(2)`.
  package func signal(_ signal: Int32) {
    guard isRunning else { return }
    kill(process.processIdentifier, signal)
  }

  /// Waits until the program ends, at most `timeout`; then stops it (SIGTERM, SIGKILL after 2 s)
  /// and marks it ``timedOut``. Returns whether it ended by itself in time.
  @discardableResult
  package func waitUntilExit(timeout: Duration) -> Bool {
    if blockUntil(timeout: timeout, every: .milliseconds(5), { !isRunning }) { return true }
    stopped.store(true, ordering: .releasing)
    signal(SIGTERM)
    if !blockUntil(timeout: .seconds(2), every: .milliseconds(5), { !isRunning }) {
      signal(SIGKILL)
      _ = blockUntil(timeout: .seconds(10), every: .milliseconds(5)) { !isRunning }
    }
    return false
  }

  /// Whether a wait had to stop the program.
  package var timedOut: Bool { stopped.load(ordering: .acquiring) }
  /// The exit status, or the signal number when a signal ended it (as `Process`); -1 while it runs.
  package var terminationStatus: Int32 {
    switch termination {
    case .exited(let status), .signaled(let status): return status
    case nil: return -1
    }
  }
  /// How it ended: its exit status or the signal that ended it; nil while it runs.
  package var termination: Termination? { process.processIdentifier > 0 ? ended() : nil }
  /// Everything it wrote to standard output so far.
  package var standardOutputData: Data { FileManager.default.contents(atPath: standardOutputPath) ?? Data() }
  /// Everything it wrote to standard error so far, as text.
  package var standardErrorText: String {
    String(decoding: FileManager.default.contents(atPath: standardErrorPath) ?? Data(), as: UTF8.self)
  }

  /// Runs `executable` to its end, at most `timeout` (see ``waitUntilExit(timeout:)``).
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    timeout: Duration = .seconds(120)
  ) throws -> TestProcess {
    let p = TestProcess(executable: executable, arguments: arguments, environment: environment)
    try p.run()
    p.waitUntilExit(timeout: timeout)
    return p
  }
}
