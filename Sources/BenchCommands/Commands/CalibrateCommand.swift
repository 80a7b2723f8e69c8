import DisplayServers
import BenchKit
import Foundation
import LaunchContract
import ProbeCalibration

/// `bench calibrate`: the probe against ground truth through the real display path (a presenter
/// writing known frames into a real shared-memory surface, the real compositor and detector),
/// with and without CPU load, plus the probe's per-scanout cost.
package enum CalibrateCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// Refresh rate and trials (load is set per run).
    package var settings: CalibrationSettings
    /// Also run with CPU burners on every core.
    package var load: Bool
    /// What goes to stdout.
    package var format: Format
    /// The display path to calibrate (`--display`).
    package var display: DisplayPath = .sharedMemory
  }

  /// `--format`.
  package enum Format: String, Sendable, CaseIterable {
    /// A table for people.
    case table
    /// JSON for tools.
    case json
  }

  private static let defaults = CalibrationSettings()

  static let refreshHz = Option(
    "--refresh-hz", "N", "the display's refresh rate in Hz", default: defaults.refreshHz, parser: .refreshRate
  )
  // A trial is a few refresh intervals: ten thousand take minutes at 60 Hz.
  static let trials = Option(
    "--trials", "N", "trials per load condition", default: defaults.trials, parser: .integer(in: 1...10_000))
  static let noLoad = Flag("--no-load", "skip the run with CPU burners on every core")
  static let format = Option("--format", "FORMAT", "table or json", default: Format.table, parser: .choice())
  static let display = Option(
    "--display", "DISPLAY",
    "shm, x11 (a private Xvfb), x11:NAME (an existing X server), wayland (a private headless sway), wayland-cage or wayland:SOCKET (a running compositor)",
    default: DisplayPath.sharedMemory, parser: .displayPath)

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench calibrate",
    synopsis: "[--display shm|x11|x11:NAME] [--refresh-hz N] [--trials N] [--no-load] [--format table|json]",
    summary:
      "Presents known frames at known times through the real display path and reports the probe's detection error: early detections (must be 0), misses (must be 0) and lag p50/p99/max in ms (p99 must be at most one refresh + 2 ms + the host's wake-up allowance), without and with CPU burners on every core, plus the probe's CPU cost per scanout. The allowance is measured in the same trials: a pinned thread per CPU at the compositor's priority records how late each of its wake-ups came, and the allowance is the delay every wake-up on the trials' lags stays under 99 % of the time.",
    options: [display, refreshHz, trials, noLoad, format],
    epilogue:
      "On X11 a real X client presents the frames and the probe reads them back through DAMAGE and MIT-SHM; the lag must stay within 4 ms + the host's wake-up allowance at the 99th percentile instead (no refresh grid), and the probe's cost is measured at 640×480 and 1280×720, 60 frames/s.\nExit status: 0 when under every load level no detection is early, none is missed and the lag p99 is within its bound; 1 otherwise (each violation is named); 2 usage error."
  )

  /// Checks the command line (no arguments, the numbers in their bounds).
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    try parsed.expectNoArguments()
    var settings = CalibrationSettings()
    settings.refreshHz = try parsed.value(refreshHz)
    settings.trials = try parsed.value(trials)
    return Options(
      settings: settings, load: !parsed.isSet(noLoad), format: try parsed.value(format),
      display: try parsed.value(display))
  }

  /// Runs the trials without and (unless `--no-load`) with load, then the probe-cost benchmark,
  /// and writes the report to `output`. Returns `status(of:)`: 0 when the probe's error bound holds
  /// under every load level, 1 otherwise (each violation goes to `errors`).
  /// - Throws: `UsageError` when the display cannot be used (``BenchDisplay/validate(_:)``).
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    // The display, checked here rather than in `options(from:)`: parsing opens nothing.
    try BenchDisplay.validate(options.display)
    return DisplayCommands.server(options.display.server).calibrate(options, output: &output, errors: &errors)
  }

  /// The exit status for `reports`: 0 when the probe's error bound holds under every load level
  /// (`CalibrationReport.violations` empty), 1 otherwise; each violation goes to `errors`.
  static func status(of reports: [CalibrationReport], errors: inout some TextOutputStream) -> Int32 {
    for r in reports {
      for violation in r.violations {
        errors.write(
          "bench calibrate: \(r.load ? "with \(r.loadThreads) burners" : "without load"): \(violation)\n")
      }
    }
    return CalibrationReport.boundHolds(under: reports) ? 0 : 1
  }

  /// `--format json`: the reports and the probe's costs.
  struct JSONReport: Encodable {
    var calibration: [CalibrationReport]
    var probeCost: [ProbeCostReport]?
    var x11ProbeCost: [X11ProbeCostReport]?
    var waylandProbeCost: [WaylandProbeCostReport]?
  }

  static func json(_ report: JSONReport) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
  }

  /// The columns every calibration table shows, up to the last one.
  static let rowsHeader =
    "load       trials  early  misses  lag p50 ms  lag p99 ms  lag max ms  stale w/o cover  stale with cover  "

  /// The verdict table of `reports` (one row each, `ok` or `FAIL`), each level's lag bound as a
  /// formula, and the host's wake-up lines: what the X11 and Wayland tables share.
  static func verdictLines(_ reports: [CalibrationReport]) -> String {
    var s = rowsHeader + "verdict\n"
    for r in reports { s += row(r) + (r.passes ? "ok" : "FAIL") + "\n" }
    for r in reports {
      s += "\(r.load ? "with \(r.loadThreads) burners" : "without load"): lag p99 ≤ \(boundFormula(r))\n"
    }
    return s + hostWakeupLines(reports)
  }

  /// What kind of build measured a probe's cost, for the tables.
  static var buildKind: String {
    #if DEBUG
      "a debug build: unoptimised, many times a release build's cost"
    #else
      "release build"
    #endif
  }

  /// One report's columns under `rowsHeader`.
  static func row(_ r: CalibrationReport) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    let columns: [(String, Int)] = [
      (r.load ? "\(r.loadThreads) burners" : "none", 11), (String(r.trials), 8), (String(r.early), 7),
      (String(r.misses), 8), (f(r.lagP50Milliseconds), 12), (f(r.lagP99Milliseconds), 12),
      (f(r.lagMaxMilliseconds), 12), ("\(r.staleReportedWithoutCover)/\(r.trialsWithoutCover)", 17),
      (String(r.staleReportedWithCover), 18),
    ]
    return columns.map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined()
  }

  /// The lag bound as a sum a reader can check: "one refresh + 2 ms + host wake-up allowance
  /// 0.41 ms = 19.08 ms" (shared memory), "4.00 ms + host wake-up allowance 0.41 ms = 4.41 ms" (X11).
  static func boundFormula(_ r: CalibrationReport) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    let bound = f(r.lagBoundMilliseconds ?? .nan)
    let path = r.refreshHz > 0 ? "one refresh + 2 ms" : "\(f(r.pathLagBoundMilliseconds ?? .nan)) ms"
    guard let host = r.hostWakeup else { return "\(bound) ms" }
    return "\(path) + host wake-up allowance \(f(host.allowanceMilliseconds)) ms = \(bound) ms"
  }

  /// The host's wake-up latency in each load level's trials, one line each.
  static func hostWakeupLines(_ reports: [CalibrationReport]) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    var s = ""
    for r in reports {
      guard let h = r.hostWakeup else { continue }
      let load = r.load ? "with \(r.loadThreads) burners" : "without load"
      s +=
        "host wake-up latency \(load) (\(h.samples) sleeps on \(h.cpus) CPU\(h.cpus == 1 ? "" : "s") at the compositor's priority, \(h.realtime ? "SCHED_FIFO" : "normal policy"), same trials): p50 \(f(h.p50Milliseconds)) ms, p99 \(f(h.p99Milliseconds)) ms, max \(f(h.maxMilliseconds)) ms; allowance (the q\(String(format: "%.4g", h.allowanceQuantile * 100)) the trials stay under 99 % of the time) \(f(h.allowanceMilliseconds)) ms\n"
    }
    return s
  }
}
