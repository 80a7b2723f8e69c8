import BenchKit
import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// Runs the real `bench` executable against the real (debug) camera-app, the way a user does.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct BenchEndToEndTests {
  static var binDir: String { BuiltProducts.directory }

  /// How long one of these short benchmarks may take, even on a loaded machine.
  static let benchTimeout = Duration.seconds(300)
  /// `--run-timeout` for runs that must succeed: these tests check behaviour, and a loaded machine
  /// or a sanitizer build (several times slower) must not turn a slow run into a failed one.
  static let runTimeout = "60"

  /// Processes (other than bench) whose environment mentions `marker`: the apps and burners a
  /// bench run started.
  static func leftovers(mentioning marker: String) -> [Int32] {
    let me = getpid()
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
      guard let pid = Int32(entry), pid != me,
        let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
      else { return nil }
      return String(decoding: environ, as: UTF8.self).contains(marker) ? pid : nil
    }
  }

  @Test(
    "a short benchmark: every cell's runs succeed and the probe never sees a frame before the app presents it"
  )
  func shortRun() throws {
    let out = temporaryFolder("bench-e2e")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--runs", "2", "--warmup", "0", "--conditions", "warm,relock", "--configs", "deferred,eager",
        "--lock-seconds", "0.3", "--quiet", "--run-timeout", Self.runTimeout, "--out", out,
      ])
    #expect(p.waitUntilExit(timeout: Self.benchTimeout), "bench did not finish: \(p.standardErrorText)")
    #expect(p.terminationStatus == 0)
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.cells.count == 4)
    BenchInvocation.expectEveryPhaseMeasuredOrExplained(results, runs: 2)
    for cell in results.cells {
      for r in cell.records {
        let observed = try #require(r.phases["first_frame_observed"])
        let presented = try #require(r.phases["first_frame_presented"])
        #expect(observed >= presented)
        if cell.condition == "relock" { #expect(r.counts["stale_frames"] == 0) }
      }
    }
    for file in ["results.json", "samples.csv", "summary.md", "plot.svg", "trace.json"] {
      #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file) missing")
    }
    #expect(Self.leftovers(mentioning: out).isEmpty)
  }

  @Test("without the lock cover, frames from before the lock are counted as stale after unlock")
  func staleWithoutCover() throws {
    let out = temporaryFolder("bench-e2e")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let app = Self.binDir + "/camera-app"
    let p = try BenchInvocation.start(
      [
        "--runs", "2", "--warmup", "0", "--conditions", "relock", "--configs", "deferred", "--no-tap",
        "--lock-seconds", "0.3", "--quiet", "--run-timeout", Self.runTimeout, "--app",
        "\(app) --no-cover --config {config} --outputs {outputs}", "--out", out,
      ])
    #expect(p.waitUntilExit(timeout: Self.benchTimeout), "bench did not finish: \(p.standardErrorText)")
    let results = try ResultsFile.load(path: out + "/results.json")
    let records = results.cells.flatMap(\.records)
    #expect(records.count == 2)
    #expect(records.allSatisfy { ($0.counts["stale_frames"] ?? 0) > 0 })
  }

  @Test(
    "a splash screen does not fool change detection: the first frame observed is never before the app presents it, and the table says the headline rests on change detection",
    .timeLimit(.minutes(TestTime.minutes(10))))
  func splashScreen() throws {
    let out = temporaryFolder("bench-e2e")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let app = Self.binDir + "/camera-app"
    let p = try BenchInvocation.start(
      [
        // Preview only: nothing deferred keeps the debug app's quit quick on a loaded machine.
        "--runs", "3", "--warmup", "0", "--conditions", "warm", "--configs", "preview-only", "--outputs",
        "preview", "--no-board", "--no-tap", "--quiet", "--run-timeout", Self.runTimeout, "--app",
        "\(app) --splash --config {config} --outputs {outputs}", "--out", out,
      ])
    #expect(p.waitUntilExit(timeout: Self.benchTimeout), "bench did not finish: \(p.standardErrorText)")
    #expect(p.terminationStatus == 0)
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.settings.lightBoard == false)
    let cell = try #require(results.cells.first)
    #expect(cell.runs == 3 && cell.failed == 0, "\(cell.records.map { $0.error ?? "ok" })")
    #expect(cell.detection == ["change": 3])
    for r in cell.records {
      let observed = try #require(r.phases["first_frame_observed"])
      let presented = try #require(r.phases["first_frame_presented"])
      #expect(observed >= presented, "run \(r.run): the splash was taken for the first frame")
      #expect(r.detection == "change")
    }
    #expect(ResultsTable.text(results).contains("change detection only in warm/preview-only"))
  }

  @Test("an app that crashes or shows nothing is a failed run with its reason; the benchmark goes on")
  func failedRuns() throws {
    let out = temporaryFolder("bench-e2e")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let crash = try BenchInvocation.start(
      [
        "--runs", "2", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--quiet",
        "--app", "/bin/sh -c 'kill -SEGV $$'", "--out", out + "/crash",
      ])
    #expect(crash.waitUntilExit(timeout: Self.benchTimeout))
    #expect(crash.terminationStatus == 1)
    let crashed = try ResultsFile.load(path: out + "/crash/results.json").cells.flatMap(\.records)
    #expect(crashed.count == 2)
    #expect(crashed.allSatisfy { !$0.ok && ($0.error ?? "").contains("SIGSEGV") })

    let hang = try BenchInvocation.start(
      [
        "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "eager", "--quiet",
        "--run-timeout", "0.5", "--app", "/bin/sleep 30", "--out", out + "/hang",
      ])
    #expect(hang.waitUntilExit(timeout: Self.benchTimeout))
    #expect(hang.terminationStatus == 1)
    let hung = try ResultsFile.load(path: out + "/hang/results.json").cells.flatMap(\.records)
    #expect(hung.count == 1)
    let reason = hung.first?.error ?? ""
    #expect(reason.contains("no live frame within 0.5 s"), "\(reason)")
    #expect(Self.leftovers(mentioning: out).isEmpty)
  }

  @Test("Ctrl-C keeps the finished runs and leaves no app or burner behind")
  func interrupt() throws {
    let out = temporaryFolder("bench-e2e")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--runs", "50", "--warmup", "0", "--conditions", "loaded", "--configs", "deferred", "--quiet",
        "--out", out,
      ])
    // Wait for the first finished run (in the run journal), then interrupt in the middle of the next.
    var finished = 0
    _ = blockUntil(timeout: .seconds(120), every: .milliseconds(50)) {
      finished =
        (try? RunJournal.read(path: out + "/" + RunJournal.fileName))?.results.cells
        .reduce(0) { $0 + $1.records.count } ?? 0
      return finished > 0
    }
    #expect(finished > 0)
    usleep(300_000)  // not a timing assertion: lands SIGINT within a later run; any moment passes
    kill(p.processIdentifier, SIGINT)
    #expect(p.waitUntilExit(timeout: .seconds(60)), "bench did not stop after SIGINT")
    #expect(p.terminationStatus == 130)
    let results = try ResultsFile.load(path: out + "/results.json")
    #expect(results.settings.interrupted && results.complete == true)
    #expect(results.cells.reduce(0) { $0 + $1.records.count } >= finished)
    var left: [Int32] = []
    _ = blockUntil(timeout: .seconds(2), every: .milliseconds(50)) {
      left = Self.leftovers(mentioning: out)
      return left.isEmpty
    }
    #expect(left.isEmpty, "processes left behind: \(left)")
    let burners = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
      let cmd =
        FileManager.default.contents(atPath: "/proc/\(entry)/cmdline").map {
          String(decoding: $0, as: UTF8.self)
        } ?? ""
      return cmd.contains("__burn\u{0}\(p.processIdentifier)")
    }
    #expect(burners.isEmpty, "burners left behind: \(burners)")
  }
}
