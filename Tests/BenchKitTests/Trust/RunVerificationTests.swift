import Foundation
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// Every condition verified per run, not assumed: what the cold eviction did and whether the
/// compositor and the camera thread got real-time priority are in each run's counts.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct RunVerificationTests {
  @Test("a cold run records what its eviction did and each run whether real-time priority was granted")
  func coldRunRecordsItsEviction() throws {
    let dir = temporaryFolder("bench-run-verification")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    _ = try #require(
      try BenchInvocation.run(
        [
          "--runs", "1", "--warmup", "0", "--conditions", "cold,warm", "--configs", "deferred",
          "--profile", root + "/Benchmarks/profiles/fast.json", "--quiet", "--out", dir + "/out",
        ], environment: ["FIRSTFRAME_CAMERA_APP": BuiltProducts.path("camera-app")]))
    let results = try ResultsFile.load(path: dir + "/out/results.json")
    let cold = try #require(results.cells.first { $0.condition == "cold" }?.records.first)
    #expect((cold.counts["evicted_files"] ?? 0) >= 1, "\(cold.counts)")
    #expect([0, 1].contains(cold.counts["drop_caches"]), "\(cold.counts)")
    for record in results.cells.flatMap(\.records) {
      #expect([0, 1].contains(record.counts["realtime_compositor"]), "\(record.counts)")
      if record.ok { #expect([0, 1].contains(record.counts["realtime_camera"]), "\(record.counts)") }
    }
    let warm = try #require(results.cells.first { $0.condition == "warm" }?.records.first)
    #expect(warm.counts["evicted_files"] == nil)
  }
}
