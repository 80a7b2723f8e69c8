import Foundation
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// An `--app-config` app gets the thread-states breakdown by process tree with no change to it
/// (issue 27 item 4): a shell script that forks a child doing CPU work, waits for it, then execs a
/// GStreamer pipeline. The child's CPU time is in the tree's, not the main thread's; the main
/// thread waited (sleeping) meanwhile.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ThirdPartyAppTests.gstreamer, ThirdPartyAppTests.gstreamerMissing))
struct ThirdPartyThreadStatesTests {
  static let forker = """
    #!/bin/sh
    ( i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done ) &
    wait
    exec gst-launch-1.0 videotestsrc ! ximagesink
    """

  @Test("a forking shell-script app: the child's CPU time is the tree's, the waiting main thread sleeps")
  func forkingScript() throws {
    let out = temporaryFolder("bench-x11-states")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let script = try BenchInvocation.writeScript(Self.forker, named: "forker", in: out)
    let (status, results) = try ThirdPartyAppTests.bench(
      ["--app-config", "forker=\(script)", "--runs", "1", "--warmup", "0", "--conditions", "warm"]
        + ThirdPartyAppTests.patientLimits, out: out + "/results")
    #expect(status == 0)
    let record = try #require(results.cells.first?.records.first)
    let states = try #require(record.threadStates)
    // first_frame_observed, not process_launch: the preload library's app.main fires as the
    // script's shell starts, before it forks.
    let main = try #require(states.main["first_frame_observed"])
    let tree = try #require(states.tree["first_frame_observed"])
    #expect(tree.cpuMs > main.running, "the forked child's CPU is not in the tree: \(tree) vs \(main)")
    #expect(main.sleeping > 0, "\(main)")
  }
}
