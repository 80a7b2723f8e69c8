#if canImport(Glibc)
  import Glibc
#endif
import BenchKit
import Foundation
import ResultsSchema
import Subprocess
import SystemCalls
import TestSupport
import Testing

/// What an `--app` program writes to stdout and stderr is untrusted: on disk it stays within
/// ``AppOutputDrain/maxBytesPerStream`` per file, the rest is counted, and the run is reported
/// with the app's last stderr line.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct AppOutputCapTests {
  /// 50 MiB to stdout and 50 MiB to stderr as fast as `yes` goes (the last line cut short),
  /// then an error line; exits 3.
  static let floodingApp = """
    #!/bin/sh
    yes "stdout flood" | head -c 52428800
    yes "stderr flood" | head -c 52428800 >&2
    printf '\\nERROR: flooded\\n' >&2
    exit 3
    """
  static let flood = 2 * 52_428_800 + "\nERROR: flooded\n".utf8.count

  static func size(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : -1
  }

  @Test(
    "an app that floods stdout and stderr: each file stays at the cap, the rest is counted, the run is reported"
  )
  func flood() throws {
    let dir = temporaryFolder("app-output-flood")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.floodingApp, named: "flooder", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--app-config", "flood=\(app)", "--runs", "1", "--warmup", "0", "--conditions", "warm", "--quiet",
        "--out", dir + "/results",
      ]))
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    let record = try #require(results.cells.first?.records.first)
    #expect(!record.ok)
    let error = record.error ?? ""
    #expect(error.contains("app exited with status 3"), "\(error)")
    #expect(error.hasSuffix("its last stderr line: ERROR: flooded"), "\(error)")
    let trace = dir + "/results/" + (record.trace ?? "")
    let stdoutLog = trace.replacingOccurrences(of: ".jsonl", with: ".stdout.log")
    let stderrLog = trace.replacingOccurrences(of: ".jsonl", with: ".log")
    let kept = Self.size(stdoutLog) + Self.size(stderrLog)
    #expect(Self.size(stdoutLog) == AppOutputDrain.maxBytesPerStream, "\(stdoutLog)")
    #expect(Self.size(stderrLog) == AppOutputDrain.maxBytesPerStream, "\(stderrLog)")
    #expect(record.counts[.appOutputDroppedBytes] == Self.flood - kept, "\(record.counts)")
    // The kept bytes are the first ones the app wrote.
    let head = try String(
      decoding: Data(contentsOf: URL(fileURLWithPath: stderrLog)).prefix(26), as: UTF8.self)
    #expect(head == "stderr flood\nstderr flood\n")
  }
}

extension AppOutputCapTests {
  /// Leaves a program of its own session (outside the process group bench kills) holding its
  /// stdout and stderr for a minute, then fails. The pid file is the run's own: removed first.
  static func leavingApp(pidFile: String) -> String {
    """
    #!/bin/sh
    rm -f '\(pidFile)'
    setsid sh -c 'echo $$ > "$0"; exec sleep 60' '\(pidFile)' &
    while [ ! -s '\(pidFile)' ]; do sleep 0.01; done
    echo "ERROR: left a program behind" >&2
    exit 3
    """
  }

  @Test(
    "a program the app left holding its output pipes does not hold bench: it is killed, counted, the run reported"
  )
  func leftHolder() throws {
    let dir = temporaryFolder("app-output-holder")
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(dir, 0o777)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let pidFile = dir + "/holder.pid"
    let app = try BenchInvocation.writeScript(Self.leavingApp(pidFile: pidFile), named: "leaver", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--app-config", "leaver=\(app)", "--runs", "2", "--warmup", "0", "--conditions", "warm", "--quiet",
        "--out", dir + "/results",
      ]))
    let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
    let holder = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    defer { kill(holder, SIGKILL) }
    // Bench, the holder's subreaper, killed it at the run's end and counted it.
    #expect(ProcessControl.isAlive(holder) == false)
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    let records = results.cells.first?.records ?? []
    #expect(records.count == 2)
    for record in records {
      #expect(
        record.error?.hasSuffix("its last stderr line: ERROR: left a program behind") == true, "\(record)")
      #expect(record.counts[.escapedProcesses] == 1, "\(record.counts)")
    }
  }
}
