import Foundation
import LaunchContract
import TestSupport
import TestThreads
import Testing

/// `bench bisect` when a probe cannot be decided (issue 37, item 5): it clears no commit on a
/// ratio alone, reports the range it could not narrow and exits 3.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ScratchRepository.gitAvailable, ScratchRepository.noGit))
struct BisectUndecidedTests {
  /// camera-app whose first frame waits 200 ms and 2000 ms in turn (a counter beside it): GOOD
  /// and every commit read the same runs in the same order, so the ratio of medians is 1, the
  /// rank test says nothing, and the ratio's upper bound (pairs of 2.2 s over 0.3 s) is far
  /// beyond any threshold — evidence of neither slower nor not slower, whatever the load.
  static func alternating(counter: String, pids: String) -> String {
    """
    #!/bin/sh
    echo $$ >> '\(pids)'
    n=$(cat '\(counter)' 2>/dev/null || echo 0)
    echo $((n + 1)) > '\(counter)'
    if [ $((n % 2)) -eq 0 ]; then ms=200; else ms=2000; fi
    FIRSTFRAME_INJECT_DELAY_MS=$ms exec '\(BuiltProducts.path("camera-app"))' "$@"

    """
  }

  @Test(
    "a probe with a ratio inside the threshold but no bound clears nothing: the range is reported, exit 3")
  func undecidedProbeReportsTheRange() throws {
    let repo = try BisectRepository.make(["one", "two", "three"])
    let dir = temporaryFolder("bisect-undecided")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(dir, 0o777)
    try repo.placeBinaries { folder in
      chmod(folder, 0o777)
      return Self.alternating(counter: folder + "/launches", pids: dir + "/pids")
    }
    let arguments = [
      "bisect", "--repo", repo.repo.path, repo.commits[0], "HEAD", "--fixed", "--runs", "6", "--max-runs",
      "6",
      "--threshold", "0.5", "--warmup", "0", "--run-timeout", "\(15 * TestTime.scale)", "--profile",
      try BisectRepository.profile(in: dir), "--out", dir + "/out", "--db", dir + "/h.sqlite", "--quiet",
    ]
    let run = try #require(
      try BenchInvocation.run(
        arguments, environment: [LaunchEnvironment.Key.cameraApp.rawValue: nil], timeout: .seconds(480)))
    // Before issue 37 the ratio (1.0, inside 50 %) cleared every commit: "nothing regressed", exit 1.
    #expect(run.status == 3, "\(run.output)\(run.errors)")
    let range = repo.commits[1...].map { String($0.prefix(12)) }.joined(separator: " ")
    #expect(run.output.contains("could not narrow: "), "\(run.output)")
    #expect(run.output.contains("the first slower commit is one of \(range)"), "\(run.output)")
    #expect(run.output.contains(" inconclusive ") && !run.output.contains("not-slower"), "\(run.output)")
    let record =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/bisect.json")))
      as? [String: Any]
    #expect(record?["outcome"] as? String == "inconclusive")
    #expect((record?["range"] as? [String])?.count == 3)
  }
}
