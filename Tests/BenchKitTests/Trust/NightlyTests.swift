import Foundation
import TestSupport
import TestThreads
import Testing

/// `scripts/nightly` with the debug bench (`BENCH=`), no baseline and no gates file: only what
/// bench itself says decides the exit status.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct NightlyTests {
  /// The checkout this test file is in.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Runs `scripts/nightly` once: the suite once (`GATE=baseline`: bench ab, the nightly's
  /// default, refuses --app, since the revisions name the app), warm and deferred, one run of an
  /// app that crashes, into `dir/name`, gated against `baseline`; only the benchmark and its gates
  /// (no calibration, planted or bisect check, peers in the VM, fuzzing or sanitizer runs: they
  /// come after). `extra` adds to the environment.
  static func nightly(dir: String, _ name: String, baseline: String, extra: [String: String] = [:]) throws
    -> TestProcess
  {
    var env = ProcessInfo.processInfo.environment
    env["BENCH"] = BuiltProducts.path("bench")
    env["GATE"] = "baseline"
    env["RUNS"] = "1"
    env["OUT"] = dir + "/" + name
    env["BASELINE"] = baseline
    env["GATES"] = dir + "/no-gates.json"
    env["GITHUB_STEP_SUMMARY"] = dir + "/summary.md"
    env["HISTORY_DB"] = dir + "/history.sqlite"
    for off in [
      "CALIBRATE_TRIALS", "FUZZ_SECONDS", "PLANTED", "BISECT_CHECK", "STATES_COST_PAIRS", "PEERS_RUNS",
      "UNPRIVILEGED",
    ] {
      env[off] = "0"
    }
    env["SANITIZE"] = "none"
    env.merge(extra) { $1 }
    let run = try TestProcess.run(
      "/bin/bash",
      [
        root.path + "/scripts/nightly", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--app", "/bin/sh -c 'kill -SEGV $$'",
      ], environment: env, timeout: .seconds(120))
    try #require(!run.timedOut, "the nightly did not finish")
    return run
  }

  @Test("the nightly exits non-zero when bench's runs failed, even though no gate failed")
  func failedRunsFailTheNightly() throws {
    let dir = temporaryFolder("nightly-failed-runs")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The checkout's own history (a user's Results/history.sqlite) is not the test's to write.
    let checkoutHistory = Self.root.path + "/Results/history.sqlite"
    let before = Self.fingerprint(checkoutHistory)
    let nightly = try Self.nightly(dir: dir, "out", baseline: dir + "/no-baseline.json")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/results.json"))
    #expect(nightly.terminationStatus == 1)
    // Tonight's crashed runs went into the history the test named, nowhere else.
    #expect(FileManager.default.fileExists(atPath: dir + "/history.sqlite"))
    #expect(Self.fingerprint(checkoutHistory) == before, "the test wrote into \(checkoutHistory)")
  }

  @Test(
    "the nightly gates with --noise-ceiling 4 by default (NOISE_CEILING=0: none) against a stored baseline; a NOISE_CEILING that is no number exits 2"
  )
  func noiseCeiling() throws {
    let dir = temporaryFolder("nightly-noise-ceiling")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The first night stores what the next ones are gated against.
    _ = try Self.nightly(dir: dir, "first", baseline: dir + "/none.json")
    let baseline = dir + "/first/results.json"
    try #require(FileManager.default.fileExists(atPath: baseline))
    let gated = try Self.nightly(dir: dir, "ceiling", baseline: baseline)
    let gatedText = String(decoding: gated.standardOutputData, as: UTF8.self)
    #expect(gatedText.contains("== gate (noise ceiling 4 %)"), "\(gatedText)")
    let plain = try Self.nightly(dir: dir, "none", baseline: baseline, extra: ["NOISE_CEILING": "0"])
    let plainText = String(decoding: plain.standardOutputData, as: UTF8.self)
    #expect(plainText.contains("== gate\n"), "\(plainText)")
    let bad = try Self.nightly(dir: dir, "bad", baseline: baseline, extra: ["NOISE_CEILING": "four"])
    #expect(bad.terminationStatus == 2)
    #expect(bad.standardErrorText.contains("NOISE_CEILING wants a noise in %"))
  }

  /// The database's and its write-ahead log's sizes and modification times ("-" for a file that
  /// does not exist): SQLite in WAL mode may leave the main file as it was until a checkpoint.
  private static func fingerprint(_ path: String) -> String {
    [path, path + "-wal"].map { file in
      guard let a = try? FileManager.default.attributesOfItem(atPath: file) else { return "-" }
      return "\(a[.size] ?? 0)@\((a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }.joined(separator: " ")
  }
}
