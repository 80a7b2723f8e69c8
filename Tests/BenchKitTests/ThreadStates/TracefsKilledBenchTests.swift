#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import TestSupport
import TestThreads
import Testing
import ThreadTracing

/// Bench's tracefs instance never outlives bench: killed with SIGKILL mid-run, its guard removes
/// it. Needs root and tracefs; skipped otherwise, with the reason.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: TracefsAvailability.reason == nil, Comment(rawValue: TracefsAvailability.reason ?? "")))
struct TracefsKilledBenchTests {
  static let instances = TracefsSession.defaultRoot + "/instances/"

  @Test("bench killed with SIGKILL mid-run leaves no instance: its guard removes it")
  func sigkill() async throws {
    let dir = temporaryFolder("tracefs-sigkill")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let bench = try BenchInvocation.start([
      "--runs", "20", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--thread-states",
      "on",
      "--quiet", "--out", dir + "/results",
    ])
    // Bench's instance: named by its claim, whose token begins with its pid.
    let named = TracefsSession.instancePrefix + "\(bench.processIdentifier)x"
    @Sendable func found() -> String? {
      ((try? FileManager.default.contentsOfDirectory(atPath: Self.instances)) ?? []).first {
        $0.hasPrefix(named) && !$0.hasSuffix(TracefsSession.runtimeSuffix)
      }.map { Self.instances + $0 }
    }
    // Until the instance exists or bench has ended (then it never will: say how bench ended).
    let made = await waitUntil(timeout: .seconds(300)) { found() != nil || !bench.isRunning }
    let instance = found() ?? Self.instances + named + "…"
    let exists = FileManager.default.fileExists(atPath: instance)
    let ended = !bench.isRunning
    bench.signal(SIGKILL)
    _ = bench.waitUntilExit(timeout: .seconds(60))
    #expect(
      made && exists,
      """
      bench never made \(instance) (\(ended ? "bench ended first, status \(bench.terminationStatus)" : "bench still running after the wait")): \
      \(bench.standardErrorText)
      """)
    let gone = await waitUntil(timeout: .seconds(60)) {
      !FileManager.default.fileExists(atPath: instance)
        && !FileManager.default.fileExists(atPath: instance + TracefsSession.runtimeSuffix)
    }
    let guards = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let guardAlive = guards.contains { pid in
      ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").contains(
        " \(bench.processIdentifier) ")
    }
    #expect(
      gone, "\(instance) outlived bench (a child of bench alive: \(guardAlive)); \(bench.standardErrorText)")
    if !gone { TracefsSession.removeStale() }
  }
}
