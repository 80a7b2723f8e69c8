#if canImport(Glibc)
  import Glibc
#endif
import Reports
import Foundation
import LaunchContract
import ResultsSchema
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import BenchKit
@testable import HostConditions

/// Every condition verified per run (issue 11, item 4): the cold eviction's set, the device's
/// power-up against the condition, and the burners' size and pinning.
@Suite(.serialized, .blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct PerRunVerificationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  // MARK: - Cold eviction

  @Test("camera-app's footprint: itself, the loader, libc and the Swift runtime, all real paths")
  func cameraAppFootprint() throws {
    let app = BuiltProducts.path("camera-app")
    let files = AppFootprint.files(ofExecutable: app)
    #expect(files.contains(URL(fileURLWithPath: app).resolvingSymlinksInPath().path))
    #expect(files.contains { $0.contains("/ld-linux") }, "\(files.sorted())")
    #expect(files.contains { $0.hasSuffix("/libc.so.6") }, "\(files.sorted())")
    #expect(files.contains { $0.hasSuffix("/libswiftCore.so") }, "\(files.sorted())")
    #expect(files.allSatisfy { $0.hasPrefix("/") && !$0.contains("/../") })
    // The libc the running test process maps is the one found for camera-app: the footprint is
    // what the loader resolves, not a guess.
    let mapped = CacheEvictor.mappedFiles(pid: getpid())
    for lib in mapped where lib.hasSuffix("/libc.so.6") {
      #expect(files.contains(URL(fileURLWithPath: lib).resolvingSymlinksInPath().path))
    }
  }

  @Test(
    "a script's footprint holds its interpreter's, through env too; a file that is not ELF is only itself")
  func scriptsAndOthers() throws {
    let dir = temporaryFolder("app-footprint")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let sh = try #require(FileSystem.realPath("/bin/sh"))
    for (name, line) in [("direct", "#!/bin/sh"), ("env", "#!/usr/bin/env sh")] {
      let script = try BenchInvocation.writeScript("\(line)\nexit 0\n", named: name, in: dir)
      let files = AppFootprint.files(ofExecutable: script)
      #expect(files.contains(sh), "\(name): \(files.sorted())")
      #expect(files.contains { $0.hasSuffix("/libc.so.6") }, "\(name): \(files.sorted())")
    }
    let text = dir + "/data.txt"
    try Data("not ELF".utf8).write(to: URL(fileURLWithPath: text))
    #expect(AppFootprint.files(ofExecutable: text).count == 1)
  }

  /// Before the fix the first cold run evicted only the executable (1 file) and later ones the
  /// libraries learned from earlier runs' maps: seen failing with `evicted_files` [1, 40].
  @Test("the first cold run evicts the same set as later ones: camera-app, its libraries and the profile")
  func firstColdRunEvictsTheSameSet() throws {
    let dir = temporaryFolder("bench-cold-set")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let profile = Self.root + "/Benchmarks/profiles/fast.json"
    let app = BuiltProducts.path("camera-app")
    _ = try #require(
      try BenchInvocation.run(
        [
          "--runs", "3", "--warmup", "0", "--conditions", "cold", "--configs", "deferred", "--profile",
          profile,
          "--quiet", "--out", dir + "/out",
        ], environment: ["FIRSTFRAME_CAMERA_APP": app]))
    let results = try ResultsFile.load(path: dir + "/out/results.json")
    let records = try #require(results.cells.first).records
    #expect(records.count == 3)
    let expected = AppFootprint.files(ofExecutable: app).count + 1
    let files = records.map { $0.counts["evicted_files"] }
    #expect(files == Array(repeating: expected, count: 3), "\(files) vs \(expected)")
    let bytes = records.compactMap { $0.counts["evicted_bytes"] }
    #expect(bytes.count == 3 && Set(bytes).count == 1 && bytes[0] > 1 << 20, "\(bytes)")
    #expect(records.allSatisfy { $0.counts["mapped_not_evicted"] != nil })
  }

  // MARK: - Power-up

  @Test("a power-up that does not match the condition fails the run; not reported is not a failure")
  func powerUpMismatch() {
    #expect(RunVerification.powerUpMismatch(1, condition: .cold) == nil)
    #expect(RunVerification.powerUpMismatch(0, condition: .warm) == nil)
    #expect(RunVerification.powerUpMismatch(0, condition: .relock) == nil)
    #expect(RunVerification.powerUpMismatch(0, condition: .loaded) == nil)
    #expect(RunVerification.powerUpMismatch(nil, condition: .cold) == nil)
    #expect(
      RunVerification.powerUpMismatch(0, condition: .cold)?.contains("powered up warm in a cold run") == true)
    #expect(
      RunVerification.powerUpMismatch(1, condition: .warm)?.contains("powered up cold in a warm run") == true)
    #expect(
      RunVerification.powerUpMismatch(1, condition: .lowPower)?.contains("powered up cold in a low-power run")
        == true)
    // hot: a soak longer than the camera's warm window leaves it cold, as a phone's camera is after
    // a minute of other work; a short soak leaves it warm. Either is recorded, neither fails.
    #expect(RunVerification.powerUpMismatch(1, condition: .hot) == nil)
    #expect(RunVerification.powerUpMismatch(0, condition: .hot) == nil)
    var record = BenchResults.RunRecord(
      run: 1, ok: true, error: nil, phases: [:], counts: ["power_up_cold": 0])
    RunVerification(realtimeCompositor: false, missedDeadlines: 3, condition: .cold).apply(
      to: &record)
    #expect(!record.ok)
    #expect(record.counts["missed_deadlines"] == 3)
  }

  @Test(
    "the table's notes name a primed cell with its priming run's power-up, and runs whose device bench released"
  )
  func primingAndReleaseNotes() {
    var results = SyntheticResults.make(conditions: ["warm"], runs: 3)
    results.cells[0].priming = .init(
      run: 0, ok: true, error: nil, phases: [:], counts: [CountKey.powerUpCold.rawValue: 1])
    results.cells[0].records[1].counts[.deviceReleasedByBench] = 1
    let text = ResultsTable.text(results)
    #expect(
      text.contains(
        "warm/deferred primed by one uncounted run before its first (--warmup 0, no earlier run of deferred); device powered up cold"
      ), "\(text)")
    #expect(text.contains("device released by bench in warm/deferred: 1 of 3 runs"), "\(text)")
    #expect(!text.contains("warm/eager primed"), "\(text)")
  }

  /// An app (a shell script) that leaves the synthetic camera warm — it records a close of the
  /// device just now in the runner's state folder — then runs the real camera-app. Its first
  /// argument is CLOCK_BOOTTIME − CLOCK_MONOTONIC in ns (see ForgedEventsTests).
  static let warmingApp = """
    #!/bin/sh
    offset=$1; shift
    read up _ < /proc/uptime
    now=$(awk -v u="$up" -v o="$offset" 'BEGIN { printf "%.0f", u * 1e9 - o }')
    read boot < /proc/sys/kernel/random/boot_id
    printf 'firstframe-synthetic-state 1\\nboot_id %s\\nlast_close_ns %s\\n' "$boot" "$now" \\
      > "$FIRSTFRAME_SYNTHETIC_STATE/synthetic-camera.state"
    exec "$@"
    """

  @Test("a cold run whose device powered up warm fails with that reason, counted in the table's notes")
  func coldRunThatWasNotCold() throws {
    let dir = temporaryFolder("bench-not-cold")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (results, output) = try Self.bench(
      wrapping: Self.warmingApp, argument: "\(ForgedEventsTests.clockOffsetNs())", in: dir,
      ["--runs", "1", "--warmup", "0", "--conditions", "cold,warm"])
    let cold = try #require(results.cells.first { $0.condition == "cold" }?.records.first)
    #expect(cold.counts["power_up_cold"] == 0, "\(cold.counts)")
    #expect(!cold.ok)
    #expect(cold.error?.contains("powered up warm in a cold run") == true, "\(cold.error ?? "ok")")
    let warm = try #require(results.cells.first { $0.condition == "warm" }?.records.first)
    #expect(warm.counts["power_up_cold"] == 0, "\(warm.counts)")
    #expect(warm.ok, "\(warm.error ?? "ok")")
    #expect(output.contains("cold runs not cold in cold/deferred: 1 of 1"), "\(output)")
  }

  /// Runs bench with `--configs deferred` and `arguments`, its `--app` the shell script `script`
  /// (written to `dir`) given `argument` and then camera-app's command with the fast profile;
  /// returns the results and bench's output.
  static func bench(wrapping script: String, argument: String, in dir: String, _ arguments: [String]) throws
    -> (BenchResults, String)
  {
    let app = try BenchInvocation.writeScript(script, named: "app", in: dir)
    let camera = BuiltProducts.path("camera-app")
    let profile = Self.root + "/Benchmarks/profiles/fast.json"
    let bench = try #require(
      try BenchInvocation.run(
        [
          "--app", "\(app) \(argument) \(camera) --config {config} --outputs {outputs} --profile \(profile)",
          "--configs", "deferred", "--run-timeout", "60", "--quiet", "--out", dir + "/out",
        ] + arguments))
    return (try ResultsFile.load(path: dir + "/out/results.json"), bench.output)
  }

  /// An app (a shell script) whose odd-numbered runs are killed holding the device: it starts
  /// camera-app with the profile its second argument names instead of the one it is given (one
  /// whose format negotiation, right after the device's power-up, takes 30 s, so that the run
  /// cannot finish first), waits until the app's trace says the device powered up, then
  /// SIGKILLs it and exits 1, as a crash would. Its even-numbered runs are camera-app itself.
  /// Its first argument is the file that counts its runs.
  static let killedEveryOtherApp = """
    #!/bin/sh
    count=$1; slow=$2; shift 2
    n=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 ))
    echo $n > "$count"
    if [ $((n % 2)) -eq 0 ]; then exec "$@"; fi
    given=$#; previous=
    for word in "$@"; do
      if [ "$previous" = --profile ]; then set -- "$@" "$slow"; else set -- "$@" "$word"; fi
      previous=$word
    done
    shift $given
    "$@" &
    app=$!
    i=0
    until grep -q 'device.power_up' "$FIRSTFRAME_TRACE" 2>/dev/null || [ $i -ge 1200 ]; do
      i=$((i + 1))
      sleep 0.05
    done
    kill -9 $app
    exit 1
    """

  /// Before the fix the killed app's device stayed "never released" in the synthetic camera's
  /// state, so the next warm run powered up cold and failed: seen failing with "the device
  /// powered up cold in a warm run".
  @Test(
    "a warm run after an app killed holding the device is warm: bench records the release when it reaps the app"
  )
  func releaseOfAKilledHolder() throws {
    let dir = temporaryFolder("bench-killed-holder")
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(dir, 0o777)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The warm-up run is killed: nothing else opened the device before run 1. Run 2 is killed
    // too, and run 3 follows it.
    let fast = try String(contentsOfFile: Self.root + "/Benchmarks/profiles/fast.json", encoding: .utf8)
    let slow = fast.replacingOccurrences(
      of: #""format_negotiation": { "kind": "hardware", "ms": 1 }"#,
      with: #""format_negotiation": { "kind": "hardware", "ms": 30000 }"#)
    try #require(slow != fast)
    try Data(slow.utf8).write(to: URL(fileURLWithPath: dir + "/slow.json"))
    let (results, output) = try Self.bench(
      wrapping: Self.killedEveryOtherApp, argument: "\(dir)/count \(dir)/slow.json", in: dir,
      ["--runs", "3", "--warmup", "1", "--conditions", "warm"])
    let runs = try #require(results.cells.first?.records, "\(output)")
    try #require(runs.count == 3)
    for run in [runs[0], runs[2]] {
      #expect(run.counts["power_up_cold"] == 0, "run \(run.run): \(run.counts)")
      #expect(run.error == nil, "run \(run.run)")
      #expect(run.counts["device_released_by_bench"] == nil, "run \(run.run): its app closed the device")
    }
    #expect(runs[1].error?.hasPrefix("app exited with status 1") == true, "\(runs[1].error ?? "ok")")
    #expect(runs[1].counts["device_released_by_bench"] == 1, "\(runs[1].counts)")
    #expect(
      output.contains("device released by bench in warm/deferred: 1 of 3 runs"), "\(output)")
  }
}
