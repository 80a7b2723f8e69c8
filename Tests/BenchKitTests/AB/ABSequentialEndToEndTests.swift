import AppBuilds
import BenchCommands
import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import Testing

/// `bench ab` sequential (the default, issue 39) as a user runs it, with real camera-app runs.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ScratchRepository.gitAvailable, ScratchRepository.noGit))
struct ABSequentialEndToEndTests {
  @Test("a far slower B is SLOWER before the last look; the design and the stopping look are in both results")
  func stopsEarlyOnBigDifference() throws {
    let repo = try ScratchRepository.make()
    let out = temporaryFolder("ab-seq")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let app = BuiltProducts.path("camera-app")
    // As ABEndToEndTests: B is camera-app with its injected-delay hook set far beyond any noise
    // (3 s; 12 s under a sanitizer), so every B run is slower than every A run.
    let delayMs = TestTime.scale > 1 ? 12_000 : 3000
    try repo.plantCameraApp(at: "HEAD~1", script: "#!/bin/sh\nexec '\(app)' \"$@\"\n")
    try repo.plantCameraApp(
      at: "HEAD", script: "#!/bin/sh\nFIRSTFRAME_INJECT_DELAY_MS=\(delayMs) exec '\(app)' \"$@\"\n")
    let profile = out + "-profile.json"
    try ScratchRepository.writeWideWarmProfile(to: profile)
    defer { try? FileManager.default.removeItem(atPath: profile) }
    // At most 16 runs a side: 4 looks of 4 pairs. With every B run slower, the rank statistic at
    // 8 pairs (z = 3.36) is beyond the second look's bound.
    let run = try #require(
      try BenchInvocation.run(
        [
          "ab", "--repo", repo.path, "HEAD~1", "HEAD", "--runs", "16", "--warmup", "1", "--conditions",
          "warm",
          "--run-timeout", "\(10 * TestTime.scale)", "--configs", "deferred", "--profile", profile, "--quiet",
          "--out", out,
        ],
        environment: [LaunchEnvironment.Key.cameraApp.rawValue: nil], timeout: .seconds(240)))
    // SLOWER exits as the gate's failure does.
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    let line = try #require(
      run.output.split(separator: "\n").first {
        $0.hasPrefix("SLOWER first_frame_observed deferred/warm: look ")
      },
      "\(run.output)")
    #expect(line.contains("of 4") && line.contains("crossed the SLOWER bound"), "\(line)")
    #expect(
      run.output.contains("sequential: a look every 4 pairs, at most 4 looks (16 runs a side)"),
      "\(run.output)")
    for side in ["A", "B"] {
      let results = try ResultsFile.load(path: "\(out)/\(side)/results.json")
      let design = try #require(results.settings.sequential, "\(side)")
      #expect(design.pairsPerLook == 4 && design.looks == 4 && design.maximumRunsPerSide == 16, "\(side)")
      #expect(design.spending == "pocock" && design.alpha == 0.01 && design.beta == 0.05, "\(side)")
      #expect(design.threshold == 0.05 && design.phase == "first_frame_observed", "\(side)")
      // One cell: it spends all of α.
      #expect(design.gatedCells == 1 && design.cellAlpha == 0.01, "\(side)")
      #expect(design.efficacyBounds.count == 4 && design.equivalenceBounds.count == 4, "\(side)")
      let cell = try #require(design.cells.first, "\(side)")
      #expect(design.cells.count == 1 && cell.cell == "deferred/warm" && cell.verdict == "SLOWER", "\(side)")
      // Stopped before the last look, with the runs it used.
      #expect(cell.look < 4 && cell.runsPerSide == 4 * cell.look, "\(side): \(cell)")
      #expect(results.complete == true && results.cells.map(\.runs) == [cell.runsPerSide], "\(side)")
    }
  }
}
