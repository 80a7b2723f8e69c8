import Reports
import RunAnalysis
import Gates
import BenchKit
import LightBoardFeed
import AppBuilds
import ResultsSchema

/// `bench`'s benchmark, prepared: one results folder, camera-app of this checkout (or the
/// apps the command line names), the light-board feeder when asked for, `format` on stdout.
package struct RunJob: BenchJob, Sendable {
  /// What to run; `settings.outDir` is the results folder, made by ``RunOptions/prepare()``.
  package var settings: RunSettings
  /// What the benchmark holds open, opened by ``RunOptions/prepare()``.
  package var resources: RunResources
  /// What goes to stdout at the end.
  package var format: RunFormat
  /// No progress output.
  package var quiet: Bool
  /// Write into a results folder that is not empty, replacing bench's earlier files there.
  package var overwrite = false

  package var sides: [BenchSide] { [BenchSide(label: nil, folder: settings.outDir)] }
  package var sharesDevice: Bool { false }
  package var sideOutput: (format: RunFormat, quiet: Bool)? { (format, quiet) }

  /// Every cell that runs, its warm-up and counted runs, and the priming runs.
  package var progressTotal: Int {
    let cellsRun = settings.conditions.reduce(0) { sum, condition in
      sum
        + settings.benchConfigurations.filter { settings.notRunReason(for: $0, in: condition) == nil }.count
    }
    return cellsRun * (settings.runs + settings.warmup) + settings.primedCells.count
  }

  /// camera-app, built as bench runs it when the built-in configurations run.
  package func apps(interrupted: InterruptFlag, log: (String) -> Void) -> BenchJobApps {
    var appBinary: String?
    if settings.appCommand == nil && !settings.configs.isEmpty {
      do {
        appBinary = try CameraAppLocator.locate(interrupted: { interrupted.isSet }) { line in
          if !quiet { log("bench: \(line)") }
        }
      } catch {
        if error.code == .interrupted { return .stopped }
        log("bench: \(error.message)")
        return .notBuilt(side: 0, reason: error.message)
      }
    }
    return interrupted.isSet ? .stopped : .apps([appBinary])
  }

  /// The session, with the light-board feeder beside it when `--feed-light-board` asks for it;
  /// what the feeder did is recorded in the results.
  package func run(
    _ sessions: [BenchSession], runners: [BenchRunner], progress: ProgressReporter,
    interrupted: @escaping @Sendable () -> Bool, log: (String) -> Void
  ) -> [BenchResults?] {
    let runner = runners[0]
    let feed = LightBoardFeed.start(
      output: settings.feedLightBoard, capture: settings.camera.devicePath, follows: runner.feedFollows
    ) { line in
      log("bench: \(line)")
    }
    if let feed { runner.feedPriming.attach(feed.feeder) }
    var results = sessions[0].run()
    results.settings.lightBoardFeed = feed?.stop()
    if feed != nil {
      let counts = runner.feedPriming.counts
      results.settings.lightBoardFeed?.primedRuns = counts.primed
      results.settings.lightBoardFeed?.primingFailed = counts.failed
    }
    if let info = results.settings.lightBoardFeed, let line = LightBoardFeed.lateWarning(info) {
      log("bench: \(line)")
    }
    return [results]
  }

  /// The results and closing lines are written with the side (``BenchPipeline/finish``).
  package func report(
    _ results: [BenchResults?], status: Int32, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    status
  }
}
