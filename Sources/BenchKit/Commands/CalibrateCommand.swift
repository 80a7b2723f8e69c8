import Display
import Foundation
import Probe

/// `bench calibrate`: the probe against ground truth through the real display path (a presenter
/// writing known frames into a real shared-memory surface, the real compositor and detector),
/// with and without CPU load, plus the probe's per-scanout cost.
public enum CalibrateCommand {
  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench calibrate",
    synopsis: "[--refresh-hz N] [--trials N] [--no-load] [--format table|json]",
    summary:
      "Presents known frames at known times through the real display path and reports the probe's detection error: early detections (must be 0), misses (must be 0) and lag p50/p99/max in ms, without and with CPU burners on every core, plus the probe's CPU cost per scanout.",
    options: [
      .value("--refresh-hz", "N", "the display's refresh rate in Hz", default: "60"),
      .value("--trials", "N", "trials per load condition", default: "60"),
      .flag("--no-load", "skip the run with CPU burners on every core"),
      .value("--format", "FORMAT", "table or json", default: "table"),
    ],
    epilogue: "Exit status: 0 no early detections and no misses, 1 otherwise, 2 usage error.")

  /// Runs the command with `arguments` (after `calibrate`); returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    let refreshHz: Double
    let trials: Int
    let format: String
    let parsed: ParsedOptions
    do throws(UsageError) {
      parsed = try spec.parse(arguments)
      if parsed.has("--help") {
        print(spec.help, terminator: "")
        return 0
      }
      guard parsed.positional.isEmpty else {
        throw UsageError("bench calibrate takes no arguments, not '\(parsed.positional[0])'")
      }
      refreshHz = try parsed.double("--refresh-hz", default: 60)
      guard refreshHz >= 1 && refreshHz <= 1000 else {
        throw UsageError("--refresh-hz must be 1…1000, not \(refreshHz)")
      }
      trials = try parsed.int("--trials", default: 60, minimum: 1)
      format = parsed.value("--format") ?? "table"
      guard format == "table" || format == "json" else {
        throw UsageError("--format wants table or json, not '\(format)'")
      }
    } catch {
      FileHandle.standardError.write(Data("bench calibrate: \(error.message)\n".utf8))
      return 2
    }

    var reports: [CalibrationReport] = []
    for load in parsed.has("--no-load") ? [false] : [false, true] {
      var settings = CalibrationSettings()
      settings.refreshHz = refreshHz
      settings.trials = trials
      settings.load = load
      do {
        reports.append(try Calibration.run(settings))
      } catch {
        FileHandle.standardError.write(Data("bench calibrate: \(error)\n".utf8))
        return 1
      }
    }
    let costs = [
      ProbeCostBenchmark.run(width: 640, height: 480), ProbeCostBenchmark.run(width: 1280, height: 720),
    ]
    if format == "json" {
      struct Output: Encodable {
        var calibration: [CalibrationReport]
        var probeCost: [ProbeCostReport]
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      if let data = try? encoder.encode(Output(calibration: reports, probeCost: costs)) {
        print(String(decoding: data, as: UTF8.self))
      }
    } else {
      print(table(reports, costs), terminator: "")
    }
    return reports.allSatisfy { $0.early == 0 && $0.misses == 0 } ? 0 : 1
  }

  static func table(_ reports: [CalibrationReport], _ costs: [ProbeCostReport]) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    var s = ""
    if let r = reports.first {
      s +=
        "refresh interval: \(f(r.refreshIntervalMilliseconds)) ms (\(f(r.refreshHz)) Hz), real-time priority: \(r.realtimeGranted ? "granted" : "not granted"), light board decodes: \(r.boardDecodes ? "yes" : "no")\n\n"
    }
    s +=
      "load       trials  early  misses  lag p50 ms  lag p99 ms  lag max ms  stale w/o cover  stale with cover  methods\n"
    for r in reports {
      let load = r.load ? "\(r.loadThreads) burners" : "none"
      let methods = r.methods.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
        separator: ", ")
      s += load.padding(toLength: 11, withPad: " ", startingAt: 0)
      s += String(r.trials).padding(toLength: 8, withPad: " ", startingAt: 0)
      s += String(r.early).padding(toLength: 7, withPad: " ", startingAt: 0)
      s += String(r.misses).padding(toLength: 8, withPad: " ", startingAt: 0)
      s += f(r.lagP50Milliseconds).padding(toLength: 12, withPad: " ", startingAt: 0)
      s += f(r.lagP99Milliseconds).padding(toLength: 12, withPad: " ", startingAt: 0)
      s += f(r.lagMaxMilliseconds).padding(toLength: 12, withPad: " ", startingAt: 0)
      s += "\(r.staleReportedWithoutCover)/\(r.trialsWithoutCover)".padding(
        toLength: 17, withPad: " ", startingAt: 0)
      s += String(r.staleReportedWithCover).padding(toLength: 18, withPad: " ", startingAt: 0)
      s += methods + "\n"
    }
    s +=
      "\nprobe cost (thread CPU per scanout; goal ≤ 3 % of one core at 120 Hz for 640×480, release build):\n"
    for c in costs {
      s +=
        "  \(c.width)×\(c.height): \(f(c.microsecondsPerScanout)) µs/scanout, \(f(c.percentOfCoreAt120Hz)) % of one core at 120 Hz\n"
    }
    return s
  }
}
