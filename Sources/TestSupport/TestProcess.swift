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
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
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
  /// Whether it still runs.
  package var isRunning: Bool { process.isRunning }

  /// Asks it to end (SIGTERM), without waiting.
  package func terminate() { signal(SIGTERM) }

  /// Sends `signal` (`SIGINT`, `SIGKILL`, …) to the program alone, not to what it started; does
  /// nothing once it has ended and been reaped. The corresponding call is `kill(2)`.
  package func signal(_ signal: Int32) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, signal)
  }

  /// Waits until the program ends, at most `timeout`; then stops it (SIGTERM, SIGKILL after 2 s)
  /// and marks it ``timedOut``. Returns whether it ended by itself in time.
  @discardableResult
  package func waitUntilExit(timeout: Duration) -> Bool {
    if blockUntil(timeout: timeout, every: .milliseconds(5), { !process.isRunning }) { return true }
    stopped.store(true, ordering: .releasing)
    kill(process.processIdentifier, SIGTERM)
    if !blockUntil(timeout: .seconds(2), every: .milliseconds(5), { !process.isRunning }) {
      kill(process.processIdentifier, SIGKILL)
      _ = blockUntil(timeout: .seconds(10), every: .milliseconds(5)) { !process.isRunning }
    }
    return false
  }

  /// Whether a wait had to stop the program.
  package var timedOut: Bool { stopped.load(ordering: .acquiring) }
  /// The exit status, or the signal number when a signal ended it (as `Process`); -1 while it runs.
  package var terminationStatus: Int32 { process.isRunning ? -1 : process.terminationStatus }
  /// How it ended: its exit status or the signal that ended it; nil while it runs.
  package var termination: Termination? {
    guard !process.isRunning else { return nil }
    switch process.terminationReason {
    case .exit: return .exited(process.terminationStatus)
    case .uncaughtSignal: return .signaled(process.terminationStatus)
    @unknown default: return .exited(process.terminationStatus)
    }
  }
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
