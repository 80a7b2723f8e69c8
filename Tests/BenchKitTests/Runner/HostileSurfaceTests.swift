import Foundation
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// An app under test that attacks the display surface bench scans out: bench must survive it,
/// keep the run and say what happened.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct HostileSurfaceTests {
  /// An app (a shell script) that fills the surface's header and slot table with random bytes and
  /// then truncates the surface to nothing, through whatever `FIRSTFRAME_DISPLAY` names: a
  /// descriptor it inherited (`fd:N`) or a shared-memory name.
  static let shrinkingApp = """
    #!/bin/sh
    case "$FIRSTFRAME_DISPLAY" in
      fd:*) surface=/proc/$$/fd/${FIRSTFRAME_DISPLAY#fd:} ;;
      *) surface=/dev/shm$FIRSTFRAME_DISPLAY ;;
    esac
    dd if=/dev/urandom of="$surface" bs=4096 count=1 conv=notrunc 2>/dev/null
    echo "tampered: $?" >&2
    truncate -s 0 "$surface"
    echo "truncated: $?" >&2
    exec sleep 30
    """

  @Test(
    "an app that tampers with its surface's header and shrinks the surface: bench keeps running and reports the run"
  )
  func shrinkingSurface() throws {
    let dir = temporaryFolder("bench-hostile-surface")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.shrinkingApp, named: "shrink-surface", in: dir)
    let out = dir + "/results"

    let bench = try BenchInvocation.start([
      "--app", app, "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
      "--run-timeout", "1", "--quiet", "--out", out,
    ])
    try #require(bench.waitUntilExit(timeout: .seconds(60)), "bench did not finish within 60 s")

    // Killed by SIGBUS would be `.signaled(SIGBUS)`; a failed run is exit status 1.
    #expect(bench.termination == .exited(1), "bench \(bench.termination.map { "\($0)" } ?? "still runs")")
    let results = try ResultsFile.load(path: out + "/results.json")
    let records = results.cells.flatMap(\.records)
    #expect(records.count == 1)
    #expect(records.first?.ok == false)
    #expect(records.first?.error?.contains("no live frame") == true, "\(records.first?.error ?? "no record")")
    // The app's own account: on a sealed surface its writes land but its truncate is refused.
    let log = (try? String(contentsOfFile: out + "/traces/warm-deferred-1.log", encoding: .utf8)) ?? ""
    #expect(log.contains("tampered: 0"), "\(log)")
    #expect(log.contains("truncated: 1"), "\(log)")
  }
}
