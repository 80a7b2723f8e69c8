import BenchKit
import Foundation
import Subprocess
import TestThreads
import Testing
import TestSupport

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct ChildProcessTests {
  @Test("exit statuses and signals are reported as they happened")
  func termination() throws {
    let ok = try ChildProcess.spawn(argv: ["/bin/sh", "-c", "exit 3"], environment: [:])
    #expect(ok.wait(timeout: 10) == .exited(3))
    let killed = try ChildProcess.spawn(argv: ["/bin/sh", "-c", "kill -SEGV $$"], environment: [:])
    #expect(killed.wait(timeout: 10) == .signaled(SIGSEGV))
  }

  @Test("terminate stops the child and everything in its process group")
  func terminateGroup() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let pidFile = dir.appendingPathComponent("grandchild").path
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "sleep 60 & echo $! > \(pidFile); wait"], environment: [:])
    var grandchild: Int32?
    _ = blockUntil(timeout: .seconds(5), every: .milliseconds(10)) {
      grandchild = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      return grandchild != nil
    }
    let gc = try #require(grandchild)
    child.terminate(grace: 1)
    let gone = blockUntil(timeout: .seconds(5), every: .milliseconds(10)) { kill(gc, 0) != 0 }
    #expect(gone, "the grandchild \(gc) outlived terminate()")
  }

  @Test("a missing executable is a spawn error with its name and posix_spawn's errno")
  func missing() {
    let error = #expect(throws: RunnerError.self) {
      try ChildProcess.spawn(argv: ["/nonexistent/app"], environment: [:])
    }
    #expect(error?.code == .spawnFailed && error?.message.contains("/nonexistent/app") == true)
    #expect(error?.errno?.rawValue == ENOENT)
  }

  @Test(
    "with stdout given as a descriptor and no error log, stderr goes to the log file, not to the parent's stdout"
  )
  func stderrToLogWhenStdoutGiven() throws {
    // The fault suite gives bench its stdout as a descriptor and reads its progress from the
    // log file: once stdout could be a drained pipe, stderr followed the parent's own stdout
    // instead, and the suite saw an empty log.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let outPath = dir.appendingPathComponent("out").path
    let logPath = dir.appendingPathComponent("log").path
    let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    try #require(out >= 0)
    defer { close(out) }
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "echo to-stdout; echo to-stderr >&2"], environment: [:], inheritedFDs: [1: out],
      logPath: logPath)
    #expect(child.wait(timeout: 10) == .exited(0))
    #expect((try? String(contentsOfFile: outPath, encoding: .utf8)) == "to-stdout\n")
    #expect((try? String(contentsOfFile: logPath, encoding: .utf8)) == "to-stderr\n")
  }

  @Test("inherited descriptors arrive at the requested numbers")
  func inheritedFD() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "echo hello >&3"], environment: [:], inheritedFDs: [3: fds[1]])
    close(fds[1])
    #expect(child.wait(timeout: 10) == .exited(0))
    var buf = [UInt8](repeating: 0, count: 16)
    let n = read(fds[0], &buf, 16)
    close(fds[0])
    #expect(String(decoding: buf.prefix(max(0, n)), as: UTF8.self) == "hello\n")
  }

  @Test("descriptors whose numbers cross (one's source is another's target) each arrive where asked")
  func crossedDescriptors() throws {
    var a: [Int32] = [0, 0]
    var b: [Int32] = [0, 0]
    #expect(pipe(&a) == 0 && pipe(&b) == 0)
    // Close-on-exec, so that no other test's child holds a write end open.
    for fd in a + b { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // Put b's write end at n, the number a's write end goes to in the child. Tests run in
    // parallel in this process and open descriptors of their own: n and n + 1 are two free
    // numbers far above the ones they get (open returns the lowest free one).
    let n = try #require(
      (Int32(900)..<1000).first { fcntl($0, F_GETFD) == -1 && fcntl($0 + 1, F_GETFD) == -1 },
      "no two free descriptors")
    #expect(fcntl(b[1], F_DUPFD_CLOEXEC, n) == n)
    close(b[1])
    let child = try ChildProcess.spawn(
      // bash: dash takes only one-digit descriptors in a redirection.
      argv: ["/bin/bash", "-c", "echo A >&\(n); echo B >&\(n + 1)"], environment: [:],
      inheritedFDs: [n: a[1], n + 1: n])
    close(a[1])
    close(n)
    #expect(child.wait(timeout: 10) == .exited(0))
    func drain(_ fd: Int32) -> String {
      var buf = [UInt8](repeating: 0, count: 16)
      let n = read(fd, &buf, 16)
      close(fd)
      return String(decoding: buf.prefix(max(0, n)), as: UTF8.self)
    }
    #expect(drain(a[0]) == "A\n")
    #expect(drain(b[0]) == "B\n")
  }
}

/// The second Ctrl-C ends bench inside `ChildProcess.withNoSpawnInFlight`, so that no child is
/// left between its spawn and the process guard's knowing of its group.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct SpawnInFlightTests {
  @Test("no child starts while withNoSpawnInFlight runs; the spawn completes after it")
  func spawnWaits() throws {
    let dir = FileManager.default.temporaryDirectory.path + "/spawn-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let started = dir + "/started"
    let spawned = Collector<ChildProcess>()
    let startedWhileHeld = ChildProcess.withNoSpawnInFlight { () -> Bool in
      Thread.detachNewThread {
        if let child = try? ChildProcess.spawn(argv: ["/bin/sh", "-c", ": > '\(started)'"], environment: [:])
        {
          spawned.append(child)
        }
      }
      // Without the lock the child starts (and makes its file) within milliseconds.
      return blockUntil(timeout: .seconds(2), every: .milliseconds(5)) {
        FileManager.default.fileExists(atPath: started)
      }
    }
    #expect(!startedWhileHeld, "a child started while withNoSpawnInFlight ran")
    #expect(spawned.blockUntilCount(1, timeout: .seconds(20)), "the spawn completed after it")
    #expect(spawned.values.first?.wait(timeout: 20) == .exited(0))
    #expect(FileManager.default.fileExists(atPath: started))
  }
}
