import Glibc
import Synchronization
import SystemCalls
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct ProcessControlSpawnTests {
  /// Runs `/bin/sh -c script` with `descriptors` and waits for its wait status.
  static func run(_ script: String, descriptors: [Int32: ProcessControl.ChildDescriptor] = [:]) throws
    -> Int32
  {
    let pid = try ProcessControl.spawn(
      path: "/bin/sh", arguments: ["sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"],
      descriptors: descriptors)
    return try ProcessControl.waitForExit(pid)
  }

  /// Everything the pipe `fd` carries until its writer closes it (or 30 s pass).
  static func drain(_ fd: Int32) throws -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    let deadline = MonotonicClock.now() + 30_000_000_000
    while true {
      let count = try buffer.withUnsafeMutableBytes {
        try FileDescriptorIO.read(fd, into: $0, until: deadline)
      }
      guard let count = try #require(Optional(count)), count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test("a child's exit code and its log, stderr with stdout, come back")
  func exitCodeAndLog() throws {
    let log = "/tmp/firstframe-spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
    defer { unlink(log) }
    let status = try Self.run(
      "echo out; echo err >&2; exit 3", descriptors: [1: .appending(toPath: log), 2: .sameAs(1)])
    #expect(ProcessControl.exitCode(ofStatus: status) == 3)
    #expect(ProcessControl.signal(ofStatus: status) == nil)
    #expect(FileSystem.readText(atPath: log) == "out\nerr\n")
  }

  @Test("a child runs in a process group of its own, with stdin from /dev/null")
  func ownGroup() throws {
    let pipe = try ProcessControl.pipe()
    defer { FileDescriptorIO.close(pipe.read) }
    let pid = try ProcessControl.spawn(
      path: "/bin/sh", arguments: ["sh", "-c", "cut -d ' ' -f 5 /proc/$$/stat; cat"],
      environment: ["PATH": "/usr/bin:/bin"], descriptors: [1: .inherited(pipe.write)])
    FileDescriptorIO.close(pipe.write)
    let printed = try Self.drain(pipe.read)
    _ = try ProcessControl.waitForExit(pid)
    #expect(printed == "\(pid)\n")
  }

  /// Where the test's pipes sit among this process's descriptors.
  enum Placement: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Wherever `pipe` puts them.
    case lowest
    /// The second pipe's write end moved to 99 or the lowest free number above it.
    case secondAtOrAbove99
    /// The first pipe at 98 and 99, as in a full run holding ~100 descriptors (CI, 2026-12-03:
    /// moving the second pipe onto 99 with `dup2` closed the first pipe's write end there).
    case firstAt98
    var testDescription: String { rawValue }
  }

  @Test(
    "inherited descriptors land on the numbers asked for, even when one's source is another's target",
    arguments: Placement.allCases)
  func inheritedDescriptors(placement: Placement) throws {
    // Other tests run in this process at the same time: the test takes only free numbers, never
    // one `dup2` would have to close.
    var fillers: [Int32] = []
    defer { fillers.forEach(FileDescriptorIO.close) }
    while placement == .firstAt98 {
      let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
      guard fd >= 0, fd < 98 else {
        if fd >= 0 { FileDescriptorIO.close(fd) }
        break
      }
      fillers.append(fd)
    }
    let first = try ProcessControl.pipe()
    var second = try ProcessControl.pipe()
    if placement == .secondAtOrAbove99 {
      let moved = fcntl(second.write, F_DUPFD_CLOEXEC, Int32(99))
      try #require(moved >= 99)
      FileDescriptorIO.close(second.write)
      second = (read: second.read, write: moved)
    }
    defer { [first.read, second.read].forEach(FileDescriptorIO.close) }
    // The child's descriptor `second.write` gets the first pipe, and `target` the second: a naive
    // order of dup2 calls would overwrite the second pipe's source before copying it.
    let target: Int32 = second.write == 99 ? 100 : 99
    var descriptors: [Int32: ProcessControl.ChildDescriptor] = [:]
    descriptors[second.write] = .inherited(first.write)
    descriptors[target] = .inherited(second.write)
    let pid = try ProcessControl.spawn(
      path: "/bin/bash", arguments: ["bash", "-c", "echo one >&\(second.write); echo two >&\(target)"],
      environment: ["PATH": "/usr/bin:/bin"], descriptors: descriptors)
    [first.write, second.write].forEach(FileDescriptorIO.close)
    #expect(try Self.drain(first.read) == "one\n")
    #expect(try Self.drain(second.read) == "two\n")
    #expect(ProcessControl.exitCode(ofStatus: try ProcessControl.waitForExit(pid)) == 0)
  }

  @Test("a program that does not exist is ENOENT, with and without a death signal")
  func missingProgram() {
    for deathSignal in [nil, SIGKILL] {
      #expect(throws: Errno.noSuchFile) {
        try ProcessControl.spawn(
          path: "/nonexistent/firstframe", arguments: ["x"], environment: [:], deathSignal: deathSignal)
      }
    }
  }

  @Test("a child tied to a thread gets its death signal when that thread ends")
  func deathSignal() throws {
    let spawned = PThreadMutex<Result<pid_t, Errno>?>(nil)
    try SystemThread.start(name: "spawn-test") {
      let result = Result { () throws(Errno) in
        try ProcessControl.spawn(
          path: "/bin/sleep", arguments: ["sleep", "60"], environment: [:], deathSignal: SIGKILL)
      }
      spawned.withLock { $0 = result }
    }
    #expect(blockUntil(timeout: .seconds(30)) { spawned.withLock { $0 } != nil })
    let pid = try #require(spawned.withLock { $0 }).get()
    #expect(ProcessControl.signal(ofStatus: try ProcessControl.waitForExit(pid)) == SIGKILL)
  }

  @Test("a running child is not reaped, an ended one is, and then it is no longer alive")
  func reapAndLiveness() throws {
    let pid = try ProcessControl.spawn(path: "/bin/sleep", arguments: ["sleep", "60"], environment: [:])
    #expect(try ProcessControl.reapIfEnded(pid) == nil)
    #expect(ProcessControl.isAlive(pid))
    kill(pid, SIGTERM)
    var status: Int32?
    #expect(
      blockUntil(timeout: .seconds(30)) {
        status = try? ProcessControl.reapIfEnded(pid)
        return status != nil
      })
    #expect(status.flatMap(ProcessControl.signal(ofStatus:)) == SIGTERM)
    #expect(!ProcessControl.isAlive(pid))
    #expect(throws: Errno(rawValue: ECHILD)) { try ProcessControl.reapIfEnded(pid) }
    #expect(ProcessControl.isAlive(getpid()))
  }
}
