import Foundation
import ResultsSchema
import TestSupport
import Testing

/// Without tracefs (`--thread-states sampled`, as a user without root gets): the same fields
/// from `/proc`, marked `sampled`, with their error bound, and still true to the probe's work.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct SampledThreadStatesTests {
  @Test("a sampled run's 100 ms spin shows as running in process_launch, complete, with an error bound")
  func sampledSpin() throws {
    let dir = temporaryFolder("thread-states-sampled")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let probe = try ThreadStatesTruthTests.compileProbe(in: dir)
    let out = dir + "/results"
    let camera = BuiltProducts.path("camera-app")
    let bench = try #require(
      try BenchInvocation.run(
        [
          "--app", "\(probe) {config} /dev/null \(camera) --config {config} --outputs {outputs}",
          "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
          "--thread-states", "sampled", "--run-timeout", "120", "--quiet", "--out", out,
        ], timeout: .seconds(600)), "bench did not finish")
    #expect(bench.status == 0, "\(bench.errors)")
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.settings.threadStates == "sampled")
    let record = try #require(results.cells.first?.records.first)
    let states = try #require(record.threadStates)
    #expect(states.method == "sampled")
    #expect(!states.incomplete, "\(states)")
    let bound = try #require(states.errorBoundMs)
    #expect(bound > 0 && bound < 1000)
    let spin = try #require(states.main["process_launch"])
    // 100 ms of CPU by construction; the phase's end is interpolated between samples `bound` apart.
    #expect(spin.running + bound >= 80, "the 100 ms spin, sampled: \(spin) (error bound \(bound) ms)")
  }

  @Test("sampled relock runs count from the unlock: complete, every phase, far fewer faults than a launch")
  func sampledRelock() throws {
    let dir = temporaryFolder("thread-states-sampled-relock")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let results = try RelockThreadStatesTests.bench(
      ["--conditions", "warm,relock", "--thread-states", "sampled"], out: dir + "/results")
    #expect(results.settings.threadStates == "sampled")
    let relock = try RelockThreadStatesTests.okRecords(results, condition: "relock")
    for record in relock {
      let states = try #require(record.threadStates, "relock run \(record.run) has no thread_states")
      #expect(states.method == "sampled")
      #expect(!states.incomplete, "relock run \(record.run): \(states)")
      #expect(Set(states.main.keys) == Set(record.phases.keys), "relock run \(record.run)")
    }
    try RelockThreadStatesTests.expectFewerFaults(
      relock: relock, warm: try RelockThreadStatesTests.launches(results))
  }
}
