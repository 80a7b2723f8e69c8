import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// What reaches the app is what bench was told: each run's trace starts empty, and the injected
/// delay comes only from `--inject-delay-ms`.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct LaunchHygieneTests {
  /// An app that reports the delay it was given and shows nothing (the run fails fast).
  static let reportingApp = """
    #!/bin/sh
    echo "inject=${FIRSTFRAME_INJECT_DELAY_MS:-none}" >&2
    exit 3
    """

  @Test("a trace file left in the results folder is emptied before its run")
  func traceStartsEmpty() throws {
    let dir = temporaryFolder("bench-trace-empty")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.reportingApp, named: "report", in: dir)
    let out = dir + "/results"
    try FileManager.default.createDirectory(atPath: out + "/traces", withIntermediateDirectories: true)
    let stale = #"{"ts":1,"name":"app.main","kind":"event","pid":1,"fields":{}}"# + "\nnot json\n"
    try Data(stale.utf8).write(to: URL(fileURLWithPath: out + "/traces/warm-deferred-1.jsonl"))
    _ = try #require(
      try BenchInvocation.run([
        "--app", app, "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--out", out, "--overwrite",
      ]))
    let trace = (try? String(contentsOfFile: out + "/traces/warm-deferred-1.jsonl", encoding: .utf8)) ?? ""
    #expect(!trace.contains("not json"), "the run's trace kept an earlier run's lines: \(trace)")
    let record = try #require(try ResultsFile.load(path: out + "/results.json").cells.first?.records.first)
    #expect(record.counts["malformed_trace_lines"] == 0)
  }

  @Test(
    "FIRSTFRAME_INJECT_DELAY_MS in bench's environment does not reach the app; --inject-delay-ms does, and is recorded"
  )
  func injectedDelayOnlyWhenAsked() throws {
    let dir = temporaryFolder("bench-inject-delay")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.reportingApp, named: "report", in: dir)
    let args = [
      "--app", app, "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
    ]
    _ = try #require(
      try BenchInvocation.run(
        args + ["--quiet", "--out", dir + "/leak"], environment: ["FIRSTFRAME_INJECT_DELAY_MS": "30"]))
    let leaked =
      (try? String(contentsOfFile: dir + "/leak/traces/warm-deferred-1.log", encoding: .utf8)) ?? ""
    #expect(leaked.contains("inject=none"), "\(leaked)")

    let asked = try #require(
      try BenchInvocation.run(args + ["--inject-delay-ms", "30", "--out", dir + "/asked"]))
    let log = (try? String(contentsOfFile: dir + "/asked/traces/warm-deferred-1.log", encoding: .utf8)) ?? ""
    #expect(log.contains("inject=30"), "\(log)")
    let results = try ResultsFile.load(path: dir + "/asked/results.json")
    #expect(results.settings.injectDelayMs == 30)
    #expect(asked.output.contains("injected delay"), "\(asked.output)")
  }
}
