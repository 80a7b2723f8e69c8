import BenchCommands
import BenchKit
import Foundation
import Gates
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `bench --display x11` the way a user runs it: the real bench and camera-app on a private Xvfb.
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct X11BenchTests {
  /// Processes whose environment mentions `marker` (the apps a bench started), and Xvfbs whose
  /// command line names an authority file of bench `pid`.
  static func leftovers(mentioning marker: String, benchPID: Int32) -> [Int32] {
    let me = getpid()
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
      guard let pid = Int32(entry), pid != me, pid != benchPID else { return nil }
      let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") ?? Data()
      let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") ?? Data()
      if String(decoding: environ, as: UTF8.self).contains(marker) { return pid }
      if String(decoding: cmdline, as: UTF8.self).contains("firstframe-xvfb-\(benchPID)x") { return pid }
      return nil
    }
  }

  /// The private Xvfb of bench `benchPID`, once it runs.
  static func xvfb(of benchPID: Int32) -> Int32? {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).first {
      pid in
      let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
      let text = String(decoding: cmdline, as: UTF8.self)
      return text.hasPrefix("/") && text.contains("Xvfb") && text.contains("firstframe-xvfb-\(benchPID)x")
    }
  }

  /// Whether bench `benchPID` left its Xauthority folder in /tmp.
  static func authorityFolderLeft(by benchPID: Int32) -> Bool {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).contains {
      $0.hasPrefix("firstframe-xvfb-\(benchPID)x")
    }
  }

  @Test(
    "a short benchmark on X11: every run succeeds, window_mapped is measured or explained, the display is recorded, nothing is left"
  )
  func shortRun() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "2", "--warmup", "0", "--conditions", "warm,relock", "--configs",
        "deferred,eager", "--lock-seconds", "0.3", "--quiet",
        // Defaults (10 s) in a normal run; a sanitizer-built camera-app once took longer than
        // twice that to report its deferred start under TSan.
        "--run-timeout", "\(10 * TestTime.scale)", "--window-timeout", "\(10 * TestTime.scale)", "--out", out,
      ])
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    #expect(p.terminationStatus == 0)
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.settings.display == "x11")
    #expect(results.settings.displayServer?.started == true)
    #expect(results.settings.displayServer?.probeReads == "window")
    #expect(results.cells.count == 4)
    BenchInvocation.expectEveryPhaseMeasuredOrExplained(results, runs: 2)
    for cell in results.cells {
      for r in cell.records {
        // On X11 the app stamps preview.first_present after its round trip, so the probe may
        // see the frame up to one round trip earlier; never before the frame was captured.
        let observed = try #require(r.phases[PhaseName.firstFrameObserved])
        #expect(r.phases[PhaseName.firstFramePresented] != nil)
        let live = try #require(r.timeline?.first { $0.name == EventName.displayFirstLiveFrame.rawValue })
        if let glassToGlass = live.fields?["glass_to_glass_ms"].flatMap(Double.init) {
          #expect(glassToGlass >= 0)
        }
        if cell.condition == "warm" {
          let mapped = try #require(r.phases[PhaseName.windowMapped])
          #expect(mapped <= observed)
        }
        if cell.condition == "relock" { #expect(r.counts["stale_frames"] == 0) }
      }
    }
    #expect(FileManager.default.fileExists(atPath: out + "/xvfb.log"))
    #expect(Self.leftovers(mentioning: out, benchPID: p.processIdentifier).isEmpty)
    #expect(!Self.authorityFolderLeft(by: p.processIdentifier))
  }

  @Test("a relock without the lock cover shows stale frames on X11 too")
  func staleWithoutCover() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let app = BuiltProducts.path("camera-app")
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "2", "--warmup", "0", "--conditions", "relock", "--configs", "deferred",
        "--no-tap", "--lock-seconds", "0.3", "--quiet", "--app",
        "\(app) --no-cover --config {config} --outputs {outputs}", "--out", out,
      ])
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    let records = try ResultsFile.load(path: out + "/results.json").cells.flatMap(\.records)
    #expect(records.count == 2)
    #expect(records.allSatisfy { ($0.counts["stale_frames"] ?? 0) > 0 }, "\(records.map(\.counts))")
  }

  @Test("an app that never maps a window fails its run with a reason that says so")
  func noWindowMapped() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--no-tap", "--run-timeout", "1", "--quiet", "--app", "/bin/sleep 30", "--out", out,
      ])
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    #expect(p.terminationStatus == 1)
    let record = try #require(try ResultsFile.load(path: out + "/results.json").cells.first?.records.first)
    #expect(!record.ok)
    #expect(
      record.error?.hasPrefix("no live frame within 1.0 s") == true
        && record.error?.contains("no window of the app was mapped on :") == true, "\(record.error ?? "ok")")
    #expect(Self.leftovers(mentioning: out, benchPID: p.processIdentifier).isEmpty)
  }

  @Test(
    "bad input is one line and exit status 2: an unknown display, an X server or Wayland compositor that is not there, --x11-read without X11",
    arguments: [
      (["--display", "weston"], "unknown display 'weston'"),
      (
        ["--display", "wayland:/nonexistent-firstframe/wayland-9"],
        "no Wayland compositor answers at /nonexistent-firstframe/wayland-9"
      ),
      (["--display", "x11:nonexistent"], "cannot connect to the X display nonexistent"),
      (["--x11-read", "screen"], "--x11-read applies to --display x11"),
      (["--display", "x11", "--x11-read", "glass"], "unknown x11 read 'glass'"),
    ])
  func badInput(arguments: [String], message: String) {
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(arguments, output: &output, errors: &errors)
    #expect(status == 2)
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(errors.contains(message), "\(errors)")
  }

  @Test("--display x11 where Xvfb is not on PATH: one line naming the package, exit status 2")
  func xvfbMissing() throws {
    let bench = try #require(
      try BenchInvocation.run(
        ["--display", "x11", "--runs", "1"], environment: ["PATH": "/nonexistent"], inheriting: false,
        timeout: .seconds(60)),
      "bench did not end")
    let text = bench.errors
    #expect(bench.status == 2)
    #expect(text.split(separator: "\n").count == 1, "\(text)")
    #expect(text.contains("needs Xvfb: install the package xvfb"), "\(text)")
  }

  @Test(
    "Xvfb dying mid-benchmark fails the run in flight with that reason, stops bench cleanly and leaves nothing"
  )
  func xvfbDies() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "50", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--out", out,
      ])
    defer { if p.isRunning { p.terminate() } }
    let finished = Self.awaitFinishedRun(out)
    #expect(finished > 0)
    let server = try #require(Self.xvfb(of: p.processIdentifier))
    kill(server, SIGKILL)
    #expect(
      blockUntil(timeout: .seconds(30), every: .milliseconds(20)) { !p.isRunning }, "bench did not stop")
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    #expect(p.terminationStatus == 1)
    let results = try ResultsFile.load(path: out + "/results.json")
    let records = results.cells.flatMap(\.records)
    #expect(records.count >= finished && records.count < 50)
    let inFlight = try #require(records.last)
    #expect(!inFlight.ok)
    #expect(inFlight.error?.contains("the X server (Xvfb") == true, "\(records.map { $0.error ?? "ok" })")
    let stderr = p.standardErrorText
    #expect(stderr.contains("bench: stopped: the X server"), "\(stderr)")
    var left: [Int32] = []
    _ = blockUntil(timeout: .seconds(5), every: .milliseconds(50)) {
      left = Self.leftovers(mentioning: out, benchPID: p.processIdentifier)
      return left.isEmpty
    }
    #expect(left.isEmpty, "processes left behind: \(left)")
    #expect(!Self.authorityFolderLeft(by: p.processIdentifier))
    let locks = ((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { name in
      name.hasPrefix(".X") && name.hasSuffix("-lock")
        && (try? String(contentsOfFile: "/tmp/" + name, encoding: .utf8))?.contains("\(server)") == true
    }
    #expect(locks.isEmpty, "Xvfb's lock left behind: \(locks)")
  }

  @Test("Ctrl-C on X11 keeps the finished runs, stops Xvfb and leaves nothing behind")
  func interrupted() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "50", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--out", out,
      ])
    defer { if p.isRunning { p.terminate() } }
    let finished = Self.awaitFinishedRun(out)
    #expect(finished > 0)
    let server = try #require(Self.xvfb(of: p.processIdentifier))
    kill(p.processIdentifier, SIGINT)
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    #expect(p.terminationStatus == 130)
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.settings.interrupted)
    #expect(results.cells.reduce(0) { $0 + $1.records.count } >= finished)
    #expect(
      blockUntil(timeout: .seconds(5), every: .milliseconds(20)) { kill(server, 0) != 0 },
      "Xvfb outlived bench")
    var left: [Int32] = []
    _ = blockUntil(timeout: .seconds(5), every: .milliseconds(50)) {
      left = Self.leftovers(mentioning: out, benchPID: p.processIdentifier)
      return left.isEmpty
    }
    #expect(left.isEmpty, "processes left behind: \(left)")
    #expect(!Self.authorityFolderLeft(by: p.processIdentifier))
  }

  @Test("bench killed with SIGKILL takes its Xvfb with it (PR_SET_PDEATHSIG)")
  func benchKilled() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "x11", "--runs", "50", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--out", out,
      ])
    var server: Int32?
    _ = blockUntil(timeout: .seconds(60), every: .milliseconds(20)) {
      server = Self.xvfb(of: p.processIdentifier)
      return server != nil
    }
    let xvfb = try #require(server)
    kill(p.processIdentifier, SIGKILL)
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    #expect(
      blockUntil(timeout: .seconds(10), every: .milliseconds(20)) { kill(xvfb, 0) != 0 },
      "Xvfb outlived bench")
    // What only bench could have stopped (its app, orphaned by SIGKILL) is stopped here, by pid.
    for pid in Self.leftovers(mentioning: out, benchPID: p.processIdentifier) { kill(pid, SIGKILL) }
  }

  /// Waits (at most 60 s) until bench's run journal in `out` holds a finished run; returns how
  /// many it holds (results.json is written only at the end).
  static func awaitFinishedRun(_ out: String) -> Int {
    var finished = 0
    _ = blockUntil(timeout: .seconds(60), every: .milliseconds(50)) {
      finished =
        (try? RunJournal.read(path: out + "/" + RunJournal.fileName))?.results.cells.reduce(0) {
          $0 + $1.records.count
        } ?? 0
      return finished > 0
    }
    return finished
  }
}
