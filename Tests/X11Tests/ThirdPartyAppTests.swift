import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Programs we did not write, benchmarked as users run them (`--app-config NAME=COMMAND`) on
/// bench's private Xvfb: a GStreamer pipeline and ffplay. Each test needs its program and is
/// skipped with the reason where it is missing (`scripts/install-deps` installs them).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct ThirdPartyAppTests {
  /// Whether `gst-launch-1.0` and the elements the tests use (videotestsrc, ximagesink) are here.
  static let gstreamer: Bool = {
    guard Prerequisites.onPath("gst-launch-1.0") != nil, let inspect = Prerequisites.onPath("gst-inspect-1.0")
    else { return false }
    return ["videotestsrc", "ximagesink"].allSatisfy { element in
      let p = Process()
      p.executableURL = URL(fileURLWithPath: inspect)
      p.arguments = ["--exists", element]
      p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
      p.standardError = FileHandle(forWritingAtPath: "/dev/null")
      guard (try? p.run()) != nil, p.waitUntilExit(timeout: .seconds(60)) else { return false }
      return p.terminationStatus == 0
    }
  }()
  static let gstreamerMissing: Comment =
    "skipped: gst-launch-1.0 with videotestsrc and ximagesink missing (scripts/install-deps installs gstreamer1.0-tools, -plugins-base, -plugins-good, -x)"
  static let ffplay = Prerequisites.onPath("ffplay") != nil
  static let ffplayMissing: Comment = "skipped: ffplay missing (scripts/install-deps installs ffmpeg)"

  /// Generous limits for the tests that expect every run to succeed: under a full parallel
  /// suite on 2 cores, ffplay has taken more than 10 s (the defaults) to load its libraries and
  /// map its window. The tests check behaviour, not speed.
  static let patientLimits = ["--run-timeout", "60", "--window-timeout", "60"]

  /// Runs bench to its end; returns its exit status and results.
  static func bench(_ args: [String], out: String) throws -> (status: Int32, results: BenchResults) {
    let p = try BenchInvocation.start(args + ["--display", "x11", "--quiet", "--out", out])
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    return (p.terminationStatus, try ResultsFile.load(path: out + "/results.json"))
  }

  @Test(
    "gst-launch-1.0 videotestsrc ! ximagesink: its window is found, window_mapped and first_frame_observed (by change detection) measured, cold, warm and loaded",
    .enabled(if: gstreamer, gstreamerMissing))
  func gstreamerPipeline() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (status, results) = try Self.bench(
      [
        "--app-config", "gst=gst-launch-1.0 videotestsrc ! ximagesink", "--runs", "2", "--warmup", "1",
        "--conditions", "cold,warm,relock,loaded",
      ] + Self.patientLimits, out: out)
    let errors = results.cells.flatMap { c in
      c.records.compactMap { $0.error.map { "\(c.condition): \($0)" } }
    }
    #expect(status == 0, "\(errors)")
    #expect(results.cells.map(\.condition) == ["cold", "warm", "loaded"])
    #expect(results.settings.notRun?["relock/gst"] != nil)
    for cell in results.cells {
      #expect(cell.config == "gst")
      #expect(cell.runs == 2 && cell.failed == 0, "\(cell.condition): \(errors)")
      for record in cell.records {
        let mapped = try #require(record.phases[PhaseName.windowMapped])
        let observed = try #require(record.phases[PhaseName.firstFrameObserved])
        #expect(mapped <= observed)
        #expect(record.counts[.firstFrameByChange] == 1)
        // app.main from the preload library bench loaded into the pipeline: process_launch.
        let main = try #require(record.timeline?.first { $0.name == EventName.appMain.rawValue })
        #expect(main.fields?["source"] == PreloadLibrary.eventSource)
        #expect(try #require(record.phases[PhaseName.processLaunch]) <= mapped)
        if cell.condition == "cold" {
          // The pipeline's executable and the libraries the loader resolves for it.
          #expect((record.counts["evicted_files"] ?? 0) > 10, "\(record.counts)")
        }
      }
    }
  }

  @Test(
    "a bad pipeline gives a failed run with the pipeline's own error line and exit status",
    .enabled(if: gstreamer, gstreamerMissing))
  func badPipeline() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (status, results) = try Self.bench(
      [
        "--app-config", "bad=gst-launch-1.0 nosuchelement ! ximagesink", "--runs", "1", "--warmup", "0",
        "--conditions", "warm",
      ], out: out)
    #expect(status == 1)
    let record = try #require(results.cells.first?.records.first)
    #expect(!record.ok)
    let error = record.error ?? ""
    #expect(error.contains("app exited with status 1"), "\(error)")
    #expect(
      error.hasSuffix(#"its last stderr line: WARNING: erroneous pipeline: no element "nosuchelement""#),
      "\(error)")
  }

  @Test(
    "ffplay -f lavfi -i testsrc: its window is found and its first frame observed",
    .enabled(if: ffplay, ffplayMissing))
  func ffplayTestSource() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (status, results) = try Self.bench(
      [
        "--app-config", "ffplay=ffplay -loglevel error -nostats -an -f lavfi -i testsrc", "--runs", "2",
        "--warmup", "1", "--conditions", "warm",
      ] + Self.patientLimits, out: out)
    let cell = try #require(results.cells.first)
    #expect(status == 0, "\(cell.records.map { $0.error ?? "ok" })")
    #expect(cell.runs == 2 && cell.failed == 0)
    for record in cell.records {
      #expect(record.phases[PhaseName.windowMapped] != nil)
      #expect(record.phases[PhaseName.firstFrameObserved] != nil)
    }
  }

  @Test("an app that never shows a window fails with \"no window within N s\"")
  func noWindow() throws {
    let out = temporaryFolder("bench-x11")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (status, results) = try Self.bench(
      [
        "--app-config", "sleeper=/bin/sleep 30", "--runs", "1", "--warmup", "0", "--conditions", "warm",
        "--window-timeout", "1",
      ], out: out)
    #expect(status == 1)
    #expect(results.settings.windowTimeoutSeconds == 1)
    let error = try #require(results.cells.first?.records.first?.error)
    #expect(error.hasPrefix("no window within 1 s"), "\(error)")
  }
}
