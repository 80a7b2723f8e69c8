import Foundation
import SystemCalls
import TestSupport

/// One `bench` process of the suite, the fault suite's layer over ``BenchInvocation``: bench
/// started as the other tests start it (a ``TestProcess``: output in files, bounded waits), with a
/// marker in its environment (every process it starts inherits it, so the ones left behind can be
/// found), its peak memory sampled while it runs, and a deadline — a bench that hangs is killed
/// and counted, never waited on forever.
final class BenchProcess {
  let process: TestProcess
  let marker: String
  let started = MonotonicClock.now()

  /// How one bench run ended.
  struct Outcome {
    /// How it ended; `.signaled(SIGKILL)` also when the suite killed it at the deadline.
    var termination: TestProcess.Termination
    /// True when it did not end by the deadline.
    var hung: Bool
    /// Seconds from start to end.
    var seconds: Double
    /// Peak resident memory of bench's address space (VmHWM sampled every 20 ms), KiB.
    var peakKB: Int
    /// stderr (progress lines, notes and errors).
    var log: String
    /// stdout.
    var stdout: String
    /// Live processes with the marker once bench ended (after up to 5 s for them to go).
    var leftovers: [pid_t]
    /// Each of them as `pid (ppid P, group G): command line`.
    var leftoverDescriptions: [String] = []

    /// The last 30 lines of stderr, for failure messages.
    var logTail: String {
      log.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
    }

    /// Counted runs bench announced as finished ("[k/N] warm/deferred run 2: …").
    var announcedRuns: Int { BenchProcess.announcedRuns(in: log) }
  }

  /// Counted runs announced so far in bench's stderr.
  var announcedRuns: Int { Self.announcedRuns(in: log) }

  static func announcedRuns(in log: String) -> Int {
    log.split(separator: "\n").filter { $0.hasPrefix("[") && $0.contains(" run ") && $0.contains("/") }.count
  }

  /// Starts `bench arguments` with ``BenchInvocation/start(_:environment:inheriting:in:executable:standardError:)``.
  /// `environment` adds to (or, with nil, removes from) the tests' bench environment; `stderr`
  /// replaces bench's standard error with a descriptor; `executable` replaces ``FaultCase/bench``
  /// (a shell that execs it under a limit).
  init(
    _ arguments: [String], environment: [String: String?] = [:], stderr: Int32? = nil,
    executable: String = FaultCase.bench
  ) throws {
    let id = UUID().uuidString
    marker = "\(Self.markerKey)=\(id)"
    var changes = environment
    changes[Self.markerKey] = id
    process = try BenchInvocation.start(
      arguments, environment: changes, executable: executable,
      standardError: stderr.map { FileHandle(fileDescriptor: $0, closeOnDealloc: false) })
  }

  /// The environment variable that marks the processes of one bench.
  static let markerKey = "FIRSTFRAME_FAULT_CASE"

  /// Sends `signal` to bench alone (not its process group).
  func send(_ signal: Int32) { process.signal(signal) }

  /// bench's stderr so far.
  var log: String { process.standardErrorText }

  /// Waits until `condition` holds or `seconds` pass; true when it held.
  func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    blockUntil(timeout: .milliseconds(Int(seconds * 1000)), every: .milliseconds(2), condition)
  }

  /// Waits for bench to end, up to `deadline` seconds from its start (stretched by
  /// ``TestTime/scale``); kills it (SIGKILL) then.
  func finish(deadline unscaled: Double) -> Outcome {
    let deadline = started &+ UInt64(TestTime.seconds(unscaled) * 1e9)
    // bench's peak memory: the high-water mark of its own address space (VmHWM), read while it
    // runs. Not ru_maxrss: a child started by posix_spawn (vfork) keeps the parent's peak across
    // exec, so it would report the test process's size.
    var peakKB = 0
    let reachedDeadline = MonotonicClock.sleep(until: deadline, slice: 20_000_000) {
      peakKB = max(peakKB, Self.highWaterKB(process.processIdentifier) ?? 0)
      return !process.isRunning
    }
    let hung = reachedDeadline && process.isRunning
    if hung {
      process.signal(SIGKILL)
      process.waitUntilExit(timeout: .seconds(5))
    }
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    var leftovers: [pid_t] = []
    _ = blockUntil(timeout: .seconds(5), every: .milliseconds(20)) {
      leftovers = Self.processes(marked: marker)
      return leftovers.isEmpty
    }
    let described = leftovers.map(Self.describe)
    for pid in leftovers { kill(pid, SIGKILL) }
    return Outcome(
      termination: process.termination ?? .signaled(SIGKILL), hung: hung, seconds: seconds,
      peakKB: peakKB, log: log, stdout: String(decoding: process.standardOutputData, as: UTF8.self),
      leftovers: leftovers, leftoverDescriptions: described)
  }

  /// The peak resident memory of `pid`'s address space (VmHWM in /proc/PID/status), KiB.
  static func highWaterKB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
  }

  /// `pid (ppid P, group G): command line`, from /proc.
  static func describe(_ pid: pid_t) -> String {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    let cmdline =
      FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map {
        String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
      } ?? "?"
    let ppid = fields.count > 1 ? String(fields[1]) : "?"
    let group = fields.count > 2 ? String(fields[2]) : "?"
    return "\(pid) (ppid \(ppid), group \(group)): \(cmdline)"
  }

  /// Live processes (not zombies, which are already dead) whose environment holds `marker`.
  static func processes(marked marker: String) -> [pid_t] {
    let me = getpid()
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
      guard let pid = pid_t(entry), pid != me,
        let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
        environ.range(of: Data(marker.utf8)) != nil,
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      let state = stat[stat.index(close, offsetBy: 2)]
      return state == "Z" || state == "X" ? nil : pid
    }
  }
}

/// A case's temporary folder, with the small apps it writes.
struct Workspace {
  let path: String

  init(_ name: String) {
    path = temporaryFolder("fault-\(name)")
    // The apps run as nobody when the tests run as root (--app-user) and leave marks here.
    chmod(path, 0o777)
  }

  /// Writes an executable shell script `name` with `body`; returns its path.
  func script(_ name: String, _ body: String) throws -> String {
    try BenchInvocation.writeScript("#!/bin/sh\n" + body + "\n", named: name, in: path)
  }

  /// Removes the folder.
  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
