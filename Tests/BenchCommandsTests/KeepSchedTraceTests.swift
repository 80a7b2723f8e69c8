import Foundation
import LaunchContract
import TestSupport
import TestThreads
import Testing

/// `FIRSTFRAME_KEEP_SCHED_TRACE=DIR` asks bench to keep each traced run's raw trace in DIR: a
/// folder that is not there is bad input, said at once (one line, exit status 2), not a
/// benchmark whose traces silently go nowhere.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct KeepSchedTraceTests {
  @Test("a missing FIRSTFRAME_KEEP_SCHED_TRACE folder is a usage error before any run")
  func missingFolder() throws {
    let folder = temporaryFolder("keep-sched-trace")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let missing = folder + "/not-there"
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--quiet",
          "--out", folder + "/out",
        ],
        environment: [HarnessVariable.keepSchedTrace.rawValue: missing], timeout: .seconds(120)))
    #expect(outcome.status == 2)
    let lines = outcome.errors.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(outcome.errors.contains("FIRSTFRAME_KEEP_SCHED_TRACE") && outcome.errors.contains(missing))
  }
}
