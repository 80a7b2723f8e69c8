import DisplayServers
import Foundation
import LaunchContract
import ProbeCalibration

/// The shared-memory display for bench's commands: calibration through a real shared-memory
/// surface, the real compositor and detector (a presenter writing known frames), and the probe's
/// cost per scanout. It needs nothing of the machine, so `bench doctor` has no line for it.
enum SharedMemoryServerCommands: DisplayServerCommands {
  static var kind: DisplayServerKind { .sharedMemory }

  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    var reports: [CalibrationReport] = []
    for load in options.load ? [false, true] : [false] {
      var settings = options.settings
      settings.load = load
      do {
        reports.append(try Calibration.run(settings))
      } catch {
        errors.write("bench calibrate: \(error)\n")
        return 1
      }
    }
    let costs = [
      ProbeCostBenchmark.run(width: 640, height: 480), ProbeCostBenchmark.run(width: 1280, height: 720),
    ]
    switch options.format {
    case .json:
      output.write(CalibrateCommand.json(CalibrateCommand.JSONReport(calibration: reports, probeCost: costs)))
    case .table:
      output.write(table(reports, costs))
    }
    return CalibrateCommand.status(of: reports, errors: &errors)
  }

  static func doctorLine() -> String? { nil }

  static func table(_ reports: [CalibrationReport], _ costs: [ProbeCostReport]) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    var s = ""
    if let r = reports.first {
      s +=
        "refresh interval: \(f(r.refreshIntervalMilliseconds)) ms (\(f(r.refreshHz)) Hz), real-time priority: \(r.realtimeGranted ? "granted" : "not granted") (presenter: \(r.presenterRealtime == true ? "granted" : "not granted")), light board decodes: \(r.boardDecodes ? "yes" : "no")\n\n"
    }
    s += CalibrateCommand.rowsHeader + "methods\n"
    for r in reports {
      let methods = r.methods.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
        separator: ", ")
      s += CalibrateCommand.row(r) + methods + "\n"
    }
    for r in reports {
      let load = r.load ? "with \(r.loadThreads) burners" : "without load"
      s +=
        r.violations.isEmpty
        ? "bound (no early, no miss, lag p99 ≤ \(CalibrateCommand.boundFormula(r))) holds \(load)\n"
        : "bound BROKEN \(load): \(r.violations.joined(separator: "; "))\n"
    }
    s += CalibrateCommand.hostWakeupLines(reports)
    s +=
      "\nprobe cost (thread CPU per scanout; goal ≤ 3 % of one core at 120 Hz for 640×480, release build):\n"
    for c in costs {
      s +=
        "  \(c.width)×\(c.height): \(f(c.microsecondsPerScanout)) µs/scanout, \(f(c.percentOfCoreAt120Hz)) % of one core at 120 Hz\n"
    }
    return s
  }
}
