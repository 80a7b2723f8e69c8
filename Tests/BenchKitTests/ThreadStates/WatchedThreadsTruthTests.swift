import CommandLineKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import Testing

@testable import BenchKit
@testable import DisplayServers

/// Bench's own threads and the display server's get figures of their own (`thread_states.bench`,
/// `thread_states.display_server`) from the real trace: the probe's compositor reads the display
/// until it sees the first live frame, so bench's threads run in `first_frame_observed`; on the
/// X11 path the X server, on the Wayland path the compositor (sway, run as nobody), takes the
/// app's window and frames before the probe can see one, so its threads run then too. Physical
/// facts, not timings. Needs root and tracefs (CI runs as root); skipped otherwise, with the
/// reason.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: TracefsAvailability.reason == nil, Comment(rawValue: TracefsAvailability.reason ?? "")))
struct WatchedThreadsTruthTests {
  /// Why `--display x11` cannot run here (no Xvfb, no XCB libraries), or nil.
  static let x11Reason: String? = {
    do throws(UsageError) {
      try BenchDisplay.validate(.privateX11)
      return nil
    } catch {
      return "thread states of the X server need Xvfb: \(error.message)"
    }
  }()

  /// Why `--display wayland` cannot run here (no sway), or nil.
  static let waylandReason: String? = {
    do throws(UsageError) {
      try BenchDisplay.validate(.privateWayland(.sway))
      return nil
    } catch {
      return "thread states of the Wayland compositor need sway: \(error.message)"
    }
  }()

  /// Runs `bench --runs 2 --conditions CONDITIONS --configs deferred --thread-states on` with
  /// `extra` arguments; returns its results once every run is checked to be exact.
  static func bench(_ extra: [String], conditions: String = "warm") throws -> BenchResults {
    let out = temporaryFolder("watched-threads") + "/results"
    defer { try? FileManager.default.removeItem(atPath: (out as NSString).deletingLastPathComponent) }
    let bench = try #require(
      try BenchInvocation.run(
        [
          "--runs", "2", "--warmup", "0", "--conditions", conditions, "--configs", "deferred",
          "--thread-states", "on", "--run-timeout", "120", "--quiet", "--out", out,
        ] + extra, timeout: .seconds(600)), "bench did not finish")
    let results = try ResultsFile.load(path: out + "/results.json")
    let failures = results.cells.flatMap { cell in cell.records.compactMap(\.error) }
    #expect(bench.status == 0, "\(bench.errors) \(failures)")
    #expect(results.settings.threadStates == "tracefs")
    return results
  }

  /// Every finished run's `figures` (bench's or the display server's) have CPU time in
  /// `first_frame_observed`, the phase that ends at the first live frame.
  static func expectWorkAtFirstFrame(
    _ results: BenchResults, _ who: String,
    _ figures: (BenchResults.ThreadStatesRecord) -> [String: BenchResults.TreeStates]?
  ) throws {
    let runs = results.cells.flatMap(\.records).filter(\.ok)
    #expect(!runs.isEmpty, "no run finished")
    for run in runs {
      let states = try #require(run.threadStates, "run \(run.run) has no thread_states")
      let phase = try #require(
        figures(states)?[PhaseName.firstFrameObserved],
        "run \(run.run) has no \(who) figures at the first frame")
      #expect(phase.cpuMs > 0, "run \(run.run): \(who) \(phase)")
      #expect(phase.voluntarySwitches + phase.involuntarySwitches > 0, "run \(run.run): \(who) \(phase)")
    }
  }

  @Test("shared memory: bench's threads run before the first frame is seen; no display server figures")
  func benchThreads() throws {
    let results = try Self.bench([])
    try Self.expectWorkAtFirstFrame(results, "bench") { $0.bench }
    for run in results.cells.flatMap(\.records) {
      #expect(
        run.threadStates?.displayServer == nil, "run \(run.run): a display server on the shared-memory path")
    }
  }

  @Test(
    "x11: the private Xvfb's threads and bench's run before the first frame is seen",
    .enabled(if: x11Reason == nil, Comment(rawValue: x11Reason ?? "")))
  func xServerThreads() throws {
    let results = try Self.bench(["--display", "x11"])
    try Self.expectWorkAtFirstFrame(results, "display_server") { $0.displayServer }
    try Self.expectWorkAtFirstFrame(results, "bench") { $0.bench }
  }

  @Test(
    "wayland: the private sway's threads (run as nobody) and bench's run before the first frame is seen, after a launch and after an unlock",
    .enabled(if: waylandReason == nil, Comment(rawValue: waylandReason ?? "")))
  func compositorThreads() throws {
    // relock: its recorder attaches to the running app, and once watched no display server.
    let results = try Self.bench(["--display", "wayland"], conditions: "warm,relock")
    #expect(Set(results.cells.map(\.condition)) == ["warm", "relock"])
    try Self.expectWorkAtFirstFrame(results, "display_server") { $0.displayServer }
    try Self.expectWorkAtFirstFrame(results, "bench") { $0.bench }
  }
}

/// `x11:NAME`'s server pid, read from its lock file the way X servers write it.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct XServerLockTests {
  @Test("a local display's lock names a live pid; a remote name, a missing lock or a dead pid give none")
  func lockedPID() throws {
    let folder = temporaryFolder("x-lock")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let me = ProcessInfo.processInfo.processIdentifier
    try "      \(me)\n".write(toFile: folder + "/.X7-lock", atomically: true, encoding: .utf8)
    #expect(X11Server.lockedPID(display: ":7", lockFolder: folder) == me)
    #expect(X11Server.lockedPID(display: ":7.0", lockFolder: folder) == me)
    #expect(X11Server.lockedPID(display: "remote:7", lockFolder: folder) == nil)
    #expect(X11Server.lockedPID(display: ":8", lockFolder: folder) == nil)
    try "      999999999\n".write(toFile: folder + "/.X9-lock", atomically: true, encoding: .utf8)
    #expect(X11Server.lockedPID(display: ":9", lockFolder: folder) == nil)
  }
}
