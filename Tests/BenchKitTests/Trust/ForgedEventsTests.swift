#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// The app under test is untrusted: events owned by the runner and the probe are taken from
/// their own records only, whatever the app writes into its trace.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct ForgedEventsTests {
  /// An app (a shell script) that appends two owned events to its trace, `display.first_live_frame`
  /// and `launch.spawn`, stamped 10 ms after it starts, and then runs the real camera-app. Its
  /// first argument is CLOCK_BOOTTIME − CLOCK_MONOTONIC in ns, so that it can turn
  /// `/proc/uptime` (boot time, 10 ms steps) into the trace's clock.
  static let forgingApp = """
    #!/bin/sh
    offset=$1; shift
    read up _ < /proc/uptime
    ts=$(awk -v u="$up" -v o="$offset" 'BEGIN { printf "%.0f", u * 1e9 - o + 10e6 }')
    for name in display.first_live_frame launch.spawn; do
      printf '{"ts":%s,"name":"%s","kind":"event","pid":%s,"fields":{}}\\n' "$ts" "$name" "$$" >> "$FIRSTFRAME_TRACE"
    done
    exec "$@"
    """

  static func clockOffsetNs() -> Int64 {
    var boot = timespec()
    var mono = timespec()
    clock_gettime(CLOCK_BOOTTIME, &boot)
    clock_gettime(CLOCK_MONOTONIC, &mono)
    return (Int64(boot.tv_sec) - Int64(mono.tv_sec)) * 1_000_000_000 + Int64(boot.tv_nsec - mono.tv_nsec)
  }

  @Test(
    "an --app that writes display.first_live_frame and launch.spawn: ignored, counted, named in the notes")
  func forgedEventsAreIgnored() throws {
    let dir = temporaryFolder("bench-forged-events")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.forgingApp, named: "forge", in: dir)
    let out = dir + "/results"
    let camera = BuiltProducts.path("camera-app")
    let bench = try #require(
      try BenchInvocation.run([
        "--app", "\(app) \(Self.clockOffsetNs()) \(camera) --config {config} --outputs {outputs}",
        // Cold, not warm: a warm run is one whose device was closed moments ago, and in a CI
        // rehearsal's full suite (2 cores, every blocking test at once) both warm runs here found
        // it cold and failed on the power-up, which says nothing about forged events. A cold run
        // makes its device cold first. A patient run timeout for the same load.
        "--runs", "2", "--warmup", "0", "--conditions", "cold", "--configs", "deferred", "--run-timeout",
        "60",
        "--quiet", "--out", out,
      ]), "bench did not finish")
    let text = bench.output
    let results = try ResultsFile.load(path: out + "/results.json")
    let records = results.cells.flatMap(\.records)
    #expect(records.count == 2)
    for record in records where record.ok {
      // The probe sees a frame only after the app has presented it; a forged one is earlier.
      let observed = try #require(record.phases[PhaseName.firstFrameObserved])
      let presented = try #require(record.phases[PhaseName.firstFramePresented])
      #expect(observed >= presented, "the app's forged first_live_frame set the headline")
      #expect(record.counts[.forgedEvents] == 2)
      let timeline = record.timeline ?? []
      #expect(timeline.filter { $0.name == EventName.launchSpawn.rawValue }.count == 1)
      #expect(timeline.filter { $0.name == EventName.displayFirstLiveFrame.rawValue }.count == 1)
    }
    #expect(records.contains { $0.ok }, "\(records.map { $0.error ?? "ok" })")
    #expect(text.contains("forged"), "the table's notes do not name the forged events:\n\(text)")
  }
}
