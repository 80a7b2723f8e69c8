import CameraServices
import DisplayServers
import BenchKit
import Foundation
import Gates
import HostConditions
import Reports
import ResultsSchema
import ThreadTracing

/// The pipeline's records: what results.json holds before the first run, and the results
/// written when the runs end.
extension BenchPipeline {
  /// What results.json records before the first run: the tool, the host, the settings and
  /// the display the runs are shown on, and how their thread states are recorded.
  static func baseResults(
    _ settings: RunSettings, threadStates: ThreadStatesMethod, display: BenchDisplay,
    cameraService: PipeWireService? = nil
  ) -> BenchResults {
    var base = BenchResults(
      tool: .init(version: FirstFrameVersion.current), host: HostProbe.current(),
      settings: .init(
        runs: settings.runs, warmup: settings.warmup, conditions: settings.conditions.map(\.rawValue),
        configs: settings.benchConfigurations.map(\.name), outputs: settings.outputs.map(\.rawValue),
        camera: settings.camera.description,
        profile: settings.profilePath,
        profileName: settings.profileName, app: settings.appCommand?.joined(separator: " "),
        refreshHz: settings.refreshHz, tap: settings.tap, lockSeconds: settings.lockSeconds,
        runTimeoutSeconds: settings.runTimeoutSeconds, startedAt: ISO8601DateFormatter().string(from: Date()),
        display: settings.display.description,
        displayServer: display.serverInfo.map {
          var info = $0
          info.probeReads = settings.x11Read.rawValue
          return info
        }),
      cells: [])
    base.settings.profileHash = settings.profileHash
    base.settings.ab = settings.abPin
    base.settings.injectDelayMs = settings.injectDelayMs
    if !settings.readsLightBoard { base.settings.lightBoard = false }
    base.settings.load = settings.burnerPlan?.info
    if settings.conditions.contains(.lowPower), case .success(let plan) = settings.lowPowerPlan {
      base.settings.lowPower = plan.description
    }
    if settings.conditions.contains(.hot) { base.settings.soakSeconds = settings.soakSeconds }
    if let cameraService {
      base.settings.cameraDaemon =
        "pipewire \(cameraService.version ?? "(version unknown)") with WirePlumber, node \(cameraService.nodeName)"
    }
    base.settings.primedCells = settings.primedCells.isEmpty ? nil : settings.primedCells
    base.settings.threadStates = threadStates.name
    base.settings.kernelDevicePhases = threadStates.deviceTraceAbsence.map { "absent: \($0)" } ?? "kernel"
    base.settings.appUser = settings.appUser?.record
    record(apps: settings, in: &base.settings)
    return base
  }

  /// Records the third-party apps, the cells that cannot apply to them, the window timeout and a
  /// quit grace other than the default.
  package static func record(apps settings: RunSettings, in recorded: inout BenchResults.BenchSettings) {
    if !settings.appConfigs.isEmpty {
      recorded.appConfigs = Dictionary(
        uniqueKeysWithValues: settings.appConfigs.map { ($0.name, $0.command) })
    }
    let headless = settings.appConfigs.filter(\.headless).map(\.name)
    recorded.headlessAppConfigs = headless.isEmpty ? nil : headless
    recorded.preloadCameraApp = settings.preloadCameraApp ? true : nil
    var notRun: [String: String] = [:]
    for condition in settings.conditions {
      for config in settings.benchConfigurations {
        if let reason = settings.notRunReason(for: config, in: condition) {
          notRun["\(condition.rawValue)/\(config.name)"] = reason
        }
      }
    }
    recorded.notRun = notRun.isEmpty ? nil : notRun
    if settings.display.server.mapsWindows { recorded.windowTimeoutSeconds = settings.windowTimeoutSeconds }
    if settings.quitGraceSeconds != BenchResults.BenchSettings.defaultQuitGraceSeconds {
      recorded.quitGraceSeconds = settings.quitGraceSeconds
    }
  }

  /// Writes the final results (results.json, samples.csv, the reports), ends the journal when
  /// results.json is written, prints `format` and the closing lines. Every file that could not be
  /// written is named with its errno; the journal keeps the runs for `bench report` then.
  static func finish(
    _ results: BenchResults, folder: ResultsFolder, journal: RunJournal, format: RunFormat,
    quiet: Bool,
    displayFailure: String? = nil, output: inout some TextOutputStream, errors: inout some TextOutputStream
  )
    -> Int32
  {
    let dir = folder.path
    var problems: [String] = []
    var resultsWritten = false
    do {
      try ResultsFile.save(results, to: folder.resultsPath)
      resultsWritten = true
    } catch {
      problems.append("\(error)")
    }
    do {
      try ReportWriter.write(ResultsTable.csv(results), to: dir + "/samples.csv")
    } catch {
      problems.append("\(error)")
    }
    do {
      try ReportWriter.writeAll(results: results, folder: dir)
    } catch {
      problems.append("\(error)")
    }
    if resultsWritten {
      do {
        try journal.end(interrupted: results.settings.interrupted)
      } catch {
        problems.append("\(error)")
      }
    }
    do {
      try RunJob.linkLatest(dir)
    } catch {
      // Only the link is missing: the results are written, so this is a warning, not a failure.
      errors.write("bench: cannot point Results/latest at \(dir): \(error)\n")
    }
    switch format {
    case .json:
      output.write(String(decoding: (try? ResultsFile.encode(results)) ?? Data(), as: UTF8.self) + "\n")
    case .csv: output.write(ResultsTable.csv(results))
    case .markdown: output.write(MarkdownReport.summary(results: results))
    case .table:
      output.write(ResultsTable.text(results))
      output.write("\n")
      for line in Comparator.headlines(results) { output.write(line + "\n") }
    }
    let failed = results.cells.reduce(0) { $0 + $1.failed }
    let finished = results.cells.reduce(0) { $0 + $1.records.count }
    if !problems.isEmpty {
      for problem in problems { errors.write("bench: cannot write \(problem)\n") }
      let unsaved = journal.unsavedRuns
      let kept =
        if resultsWritten {
          "results.json holds the \(finished) finished runs"
        } else if unsaved == 0 {
          "the journal \(journal.path) keeps the \(finished) finished runs (bench report \(dir) rebuilds results.json)"
        } else {
          "\(unsaved) of the \(finished) finished runs are not on the disk: they are only in this output (--format json keeps them all)"
        }
      errors.write("bench: results could not be written to \(dir); \(kept)\n")
      return 1
    }
    if let displayFailure {
      errors.write("bench: stopped: \(displayFailure); \(finished) finished runs kept in \(dir)\n")
      return 1
    }
    if results.settings.interrupted {
      errors.write("bench: interrupted; \(finished) finished runs kept in \(dir)\n")
      return 130
    }
    if !quiet { errors.write("bench: results in \(dir)\n") }
    if failed > 0 {
      errors.write("bench: \(failed) of \(finished) runs failed (see results.json records)\n")
      return 1
    }
    return 0
  }
}
