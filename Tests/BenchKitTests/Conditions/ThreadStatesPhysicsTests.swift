#if canImport(Glibc)
  import Glibc
#endif
import BenchKit
import Foundation
import ResultsSchema
import TestThreads
import Testing
import TestSupport

/// The thread-state breakdown shows what the physics of each condition must show (issue 27, "Checks
/// that it tells the truth"), from one real benchmark of camera-app with the kernel's scheduler
/// events: loaded runs wait for a CPU several times as long as warm ones; cold launches fault pages
/// in from disk and warm ones do not; eager's `startRunning` burns the CPU time of the outputs it
/// initialises and deferred's does not; a CPU quota (low-power) stretches that work but does not
/// hide it (this kernel leaves some switches into a thread out of the trace, most under a quota:
/// bench places them from `sched_stat_runtime`); and every exact run's main-thread states add up to
/// each phase. Each expectation is a difference of hundreds of milliseconds, or of zero against some,
/// built into the profile (photo and movie initialisation are 420 ms of real work) or into the
/// condition (a spinning burner on every CPU; the page cache evicted) — never a close margin. Warm
/// runs wait for a CPU too (camera-app's own threads and bench's real-time compositor share two
/// cores: 57 ms median before the first frame on an idle machine, 2026-12-03), so "several times"
/// is held at 2× or more: 4.3× measured idle, 2.1× while other builds loaded the machine.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct ThreadStatesPhysicsTests {
  /// Why the suite does not run here, or nil. The scheduler's events need root and tracefs; and the
  /// comparison of run-queue waits needs a machine with nothing else running (other tests' bench
  /// runs would make warm runs wait too), so it runs as a step of its own in `.ci/run`, with
  /// `FIRSTFRAME_THREAD_STATES_PHYSICS=1`, not inside the whole suite.
  static let unavailable: String? = {
    if ProcessInfo.processInfo.environment["FIRSTFRAME_THREAD_STATES_PHYSICS"] != "1" {
      return "set FIRSTFRAME_THREAD_STATES_PHYSICS=1 on an otherwise idle machine (.ci/run does)"
    }
    if getuid() != 0 { return "the scheduler's events (tracefs) need root" }
    let roots = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"]
    if !roots.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
      return "this kernel has no tracefs"
    }
    return nil
  }()

  /// One benchmark for every check: cold, warm, loaded and low-power; deferred and eager; 5 runs a
  /// cell.
  static func benchmark() throws -> BenchResults {
    let out = temporaryFolder("bench-thread-states-physics")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--runs", "5", "--warmup", "1", "--conditions", "cold,warm,loaded,low-power", "--configs",
          "deferred,eager",
          "--thread-states", "on", "--run-timeout", "60", "--quiet", "--out", out,
        ], timeout: .seconds(480)))
    #expect(outcome.status == 0, "\(outcome.errors)")
    return try ResultsFile.load(path: out + "/results.json")
  }

  /// The median of `values` (nil when empty).
  static func median(_ values: [Double]) -> Double? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The exact, complete breakdowns of the ok runs of `condition` (every configuration, or one).
  static func states(
    _ results: BenchResults, _ condition: String, config: String? = nil
  ) -> [(record: BenchResults.RunRecord, states: BenchResults.ThreadStatesRecord)] {
    results.cells.filter { $0.condition == condition && (config == nil || $0.config == config) }
      .flatMap(\.records).compactMap { record in
        guard record.ok, let states = record.threadStates, states.method == "tracefs", !states.incomplete
        else {
          return nil
        }
        return (record, states)
      }
  }

  /// The median over `runs` of one tree figure in one phase.
  static func treeMedian(
    _ runs: [(record: BenchResults.RunRecord, states: BenchResults.ThreadStatesRecord)], _ phase: String,
    _ figure: (BenchResults.TreeStates) -> Double
  ) -> Double? {
    median(runs.compactMap { $0.states.tree[phase].map(figure) })
  }

  @Test(
    "loaded waits for a CPU at least twice as long as warm; cold faults pages in that warm does not; eager's startRunning burns more CPU than deferred's, and as much under a CPU quota; every exact run's main thread adds up",
    .disabled(if: unavailable != nil, Comment(rawValue: unavailable ?? "")))
  func physics() throws {
    let results = try Self.benchmark()
    let warm = Self.states(results, "warm")
    let loaded = Self.states(results, "loaded")
    let cold = Self.states(results, "cold")
    try #require(warm.count >= 8 && loaded.count >= 8 && cold.count >= 8, "too few exact runs to judge")

    let warmWait = try #require(Self.treeMedian(warm, "first_frame_observed") { $0.runqueueMs })
    let loadedWait = try #require(Self.treeMedian(loaded, "first_frame_observed") { $0.runqueueMs })
    print(
      "thread states: run-queue wait before the first frame, median: loaded \(loadedWait) ms, warm \(warmWait) ms"
    )
    #expect(
      loadedWait >= 2 * warmWait && loadedWait >= 20,
      "run-queue wait: loaded \(loadedWait) ms, warm \(warmWait) ms")

    let coldFaults = try #require(Self.treeMedian(cold, "process_launch") { Double($0.majorFaults) })
    let warmFaults = try #require(Self.treeMedian(warm, "process_launch") { Double($0.majorFaults) })
    print("thread states: process_launch major faults, median: cold \(coldFaults), warm \(warmFaults)")
    #expect(
      coldFaults >= 1 && warmFaults == 0,
      "major faults in process_launch: cold \(coldFaults), warm \(warmFaults)")
    let coldIO = try #require(Self.treeMedian(cold, "process_launch") { $0.ioMs })
    let warmIO = try #require(Self.treeMedian(warm, "process_launch") { $0.ioMs })
    print("thread states: process_launch uninterruptible, median: cold \(coldIO) ms, warm \(warmIO) ms")
    #expect(coldIO > warmIO, "uninterruptible time in process_launch: cold \(coldIO) ms, warm \(warmIO) ms")

    let eager = ["warm", "cold"].flatMap { Self.states(results, $0, config: "eager") }
    let deferred = ["warm", "cold"].flatMap { Self.states(results, $0, config: "deferred") }
    let eagerCPU = try #require(Self.treeMedian(eager, "start_running") { $0.cpuMs })
    let deferredCPU = try #require(Self.treeMedian(deferred, "start_running") { $0.cpuMs })
    print("thread states: start_running tree CPU, median: eager \(eagerCPU) ms, deferred \(deferredCPU) ms")
    #expect(
      eagerCPU >= deferredCPU + 100, "CPU in start_running: eager \(eagerCPU) ms, deferred \(deferredCPU) ms")

    // The quota stretches eager's 420 ms of output set-up over several periods, but its CPU time
    // is the same work: before the switches were placed, tracefs showed 96–462 ms of it here.
    let lowPower = Self.states(results, "low-power")
    try #require(lowPower.count >= 8, "too few exact low-power runs to judge")
    let warmEager = try #require(
      Self.treeMedian(Self.states(results, "warm", config: "eager"), "start_running") { $0.cpuMs })
    let quotaEager = try #require(
      Self.treeMedian(Self.states(results, "low-power", config: "eager"), "start_running") { $0.cpuMs })
    print(
      "thread states: eager start_running tree CPU, median: low-power \(quotaEager) ms, warm \(warmEager) ms")
    #expect(
      quotaEager >= 0.8 * warmEager,
      "CPU in eager start_running: low-power \(quotaEager) ms, warm \(warmEager) ms")

    for (record, states) in warm + loaded + cold + lowPower {
      #expect(
        (states.unseenMs ?? 0) < 1,
        "run \(record.run): \(states.unseenSwitchIns ?? 0) switches in neither traced nor placed, \(states.unseenMs ?? 0) ms"
      )
      for (phase, main) in states.main {
        guard let duration = record.phases[phase] else { continue }
        #expect(
          abs(main.total - duration) <= 1,
          "run \(record.run) \(phase): main thread's states sum to \(main.total) ms, the phase is \(duration) ms"
        )
      }
    }
  }
}
