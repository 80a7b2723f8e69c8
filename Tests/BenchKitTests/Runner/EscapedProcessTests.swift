#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import ResultsSchema
import TestSupport
import Testing

/// A process the app moves out of its process group (`setsid`, a double fork) does not outlive
/// the run: bench, its child subreaper, kills and reaps it at the run's end and counts it as
/// `escaped_processes` (docs/reliability.md, "Escaped processes").
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct EscapedProcessTests {
  /// An app (a shell script) that leaves two `sleep 1000` behind — one in a session of its own
  /// (`setsid`, a child of the app), one double-forked (its parent exits, so it is re-parented at
  /// once) — writes each one's pid to `<folder>/setsid.<pid>` and `<folder>/double.<pid>`, waits
  /// until both are written, then runs the real camera-app. Its first argument is the folder.
  static let escapingApp = """
    #!/bin/sh
    dir=$1; shift
    setsid sh -c 'echo $$ > "$0.tmp" && mv "$0.tmp" "$0"; exec sleep 1000' "$dir/setsid.$$" &
    ( setsid sh -c 'sleep 1000 & echo $! > "$0.tmp" && mv "$0.tmp" "$0"' "$dir/double.$$" & )
    while [ ! -s "$dir/setsid.$$" ] || [ ! -s "$dir/double.$$" ]; do sleep 0.01; done
    exec "$@"
    """

  /// The pids the app's runs wrote to `folder` (files named `setsid.*` and `double.*`).
  static func leftPids(in folder: String) -> [pid_t] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { ($0.hasPrefix("setsid.") || $0.hasPrefix("double.")) && !$0.hasSuffix(".tmp") }
      .compactMap { name in
        let text = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
      }
  }

  /// Whether `pid` is a `sleep` that still runs (not a zombie, not a reused pid).
  static func sleepRuns(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return stat.contains("(sleep)") && state != "Z"
  }

  /// What a bench of two deferred runs under `condition` (with `extra` arguments) of
  /// ``escapingApp`` left: the sleeps' pids, whether they were all gone within 10 s of bench's
  /// end (any still running is killed then), the runs' records and bench's outcome.
  static func runEscapingApp(condition: String, extra: [String] = []) async throws -> (
    left: [pid_t], gone: Bool, records: [BenchResults.RunRecord], bench: BenchInvocation.Outcome
  ) {
    let dir = temporaryFolder("bench-escaped-\(condition)")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let pids = dir + "/pids"
    try FileManager.default.createDirectory(atPath: pids, withIntermediateDirectories: true)
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(pids, 0o777)
    let app = try BenchInvocation.writeScript(Self.escapingApp, named: "escape", in: dir)
    let out = dir + "/results"
    let camera = BuiltProducts.path("camera-app")
    let bench = try #require(
      try BenchInvocation.run(
        [
          "--app", "\(app) \(pids) \(camera) --config {config} --outputs {outputs}",
          "--runs", "2", "--warmup", "0", "--conditions", condition, "--configs", "deferred", "--quiet",
          "--out",
          out,
        ] + extra), "bench did not finish")
    let left = Self.leftPids(in: pids)
    defer { left.forEach { kill($0, SIGKILL) } }
    let gone = await waitUntil(timeout: .seconds(10)) { !left.contains(where: Self.sleepRuns) }
    let records = try ResultsFile.load(path: out + "/results.json").cells.flatMap(\.records)
    return (left, gone, records, bench)
  }

  @Test("an app that leaves a setsid and a double-forked sleep: both killed at each run's end, counted")
  func escapedProcessesAreKilledAndCounted() async throws {
    let (left, gone, records, bench) = try await Self.runEscapingApp(condition: "warm")
    #expect(left.count >= 4, "the two runs did not each leave two sleeps: \(left)")
    #expect(gone, "still running after bench: \(left.filter(Self.sleepRuns))\n\(bench.errors)")
    #expect(records.count == 2)
    for record in records {
      #expect((record.counts[.escapedProcesses] ?? 0) >= 1, "\(record.counts)")
    }
    #expect(
      bench.output.contains("escaped"), "the table does not name the escaped processes:\n\(bench.output)")
  }

  /// Before the fix a relock cell's app kept what it left until the cell ended, counted in no run
  /// (issue 41: 0 escaped processes in both runs).
  @Test(
    "a relock app that leaves a setsid and a double-forked sleep: both counted in its runs and ended before the next run"
  )
  func relockEscapesAreKilledAndCounted() async throws {
    let (left, gone, records, bench) = try await Self.runEscapingApp(
      condition: "relock", extra: ["--lock-seconds", "0.2"])
    #expect(left.count == 2, "the relock app, launched once, did not leave two sleeps: \(left)")
    #expect(gone, "still running after bench: \(left.filter(Self.sleepRuns))\n\(bench.errors)")
    #expect(records.count == 2)
    // Both sleeps escaped before the first run ended: that run counts them and ends them, so the
    // second run finds none.
    #expect(
      (records.first?.counts[.escapedProcesses] ?? 0) >= 2 && records.last?.counts[.escapedProcesses] == 0,
      "\(records.map(\.counts))")
  }

  @Test("a clean camera-app run counts no escaped process")
  func cleanRunCountsNone() throws {
    let dir = temporaryFolder("bench-escaped-clean")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/results"
    _ = try #require(
      try BenchInvocation.run([
        "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--quiet", "--out",
        out,
      ]), "bench did not finish")
    let records = try ResultsFile.load(path: out + "/results.json").cells.flatMap(\.records)
    #expect(!records.isEmpty)
    for record in records {
      #expect(record.counts[.escapedProcesses] == 0, "\(record.counts)")
    }
  }
}
