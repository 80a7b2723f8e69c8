import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// `TestProcess` sees a program end when it ends, whatever it left running. Foundation's `Process`
/// learns of a child's end only when every holder of a socket it gives the child has closed it,
/// and a program's own children inherit that socket: a daemon or helper the program started
/// (the CI failure of 2026-12-08: gst-launch-1.0 through pipewiresrc, killed, stayed an unreaped
/// zombie for 30 s) kept the program "running" for as long as it lived.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct TestProcessEndTests {
  @Test("a program that exits leaving a child behind has ended, with its exit status")
  func exitLeavingAChild() throws {
    let p = try startLeavingAChild(then: "exit 3")
    defer { killLeftChild() }
    #expect(p.waitUntilExit(timeout: .seconds(20)), "the program was still running by Foundation's account")
    #expect(!p.timedOut && !p.isRunning)
    #expect(p.termination == .exited(3) && p.terminationStatus == 3)
  }

  @Test("a program killed by a signal while its child lives on has ended, by that signal")
  func killedLeavingAChild() throws {
    let p = try startLeavingAChild(then: "exec sleep 60")
    defer { killLeftChild() }
    #expect(blockUntil(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: pidFile()) })
    p.signal(SIGKILL)
    #expect(p.waitUntilExit(timeout: .seconds(20)))
    #expect(p.termination == .signaled(SIGKILL) && p.terminationStatus == SIGKILL)
    // Signalling an ended program does nothing (its pid may be another process's by now).
    p.signal(SIGKILL)
  }

  let folder = temporaryFolder("test-process-end")

  func pidFile() -> String { folder + "/child.pid" }

  /// Starts a shell that puts a `sleep` in the background (its pid in ``pidFile()``), then runs
  /// `then`.
  func startLeavingAChild(then: String) throws -> TestProcess {
    let p = TestProcess(
      executable: "/bin/sh", arguments: ["-c", "sleep 60 & echo $! > \"$0\"; \(then)", pidFile()])
    try p.run()
    return p
  }

  /// Stops the `sleep` a test's program left behind.
  func killLeftChild() {
    if let text = try? String(contentsOfFile: pidFile(), encoding: .utf8),
      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    {
      kill(pid, SIGKILL)
    }
    try? FileManager.default.removeItem(atPath: folder)
  }
}
