import DisplayServers
import BenchKit
import Foundation
import LaunchContract
import ProbeCalibration
import ResultsSchema
import X11Display

/// An X server for bench's commands: calibration through a real X client on a private Xvfb or
/// an existing server, the X11 probe's cost, and `bench doctor`'s line on the X11 path.
enum X11ServerCommands: DisplayServerCommands {
  static var kind: DisplayServerKind { .x11 }

  /// `bench calibrate --display x11|x11:NAME`: the trials through a real X client, without and
  /// with load, then the X11 probe's cost at 640×480 and 1280×720, reading every pixel and
  /// reading at half size (the default), one after the other. Returns 0 when every report
  /// passes (no early detection, no miss, lag p99 ≤ 4 ms), 1 otherwise.
  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    let server: X11Server
    do {
      server = try X11Server.open(
        options.display, width: options.settings.width, height: options.settings.height, logFolder: nil)
    } catch {
      errors.write("bench calibrate: \(error.message)\n")
      return 1
    }
    defer { server.stop() }
    let name = server.displayName
    var reports: [CalibrationReport] = []
    var costs: [X11ProbeCostReport] = []
    do {
      for load in options.load ? [false, true] : [false] {
        var settings = options.settings
        settings.load = load
        var report = try Calibration.runX11(
          settings, display: name, authorization: server.authorization,
          serverRealtime: server.xvfb?.realtimeGranted ?? true)
        report.displayServerRealtime = server.xvfb?.realtimeGranted
        reports.append(report)
      }
      for (w, h) in [(640, 480), (1280, 720)] {
        for resolution in [X11WindowCapture.Resolution.full, .reduced] {
          costs.append(
            try X11ProbeCost.run(
              width: w, height: h, display: name, authorization: server.authorization,
              serverPID: server.xvfb?.pid, resolution: resolution))
        }
      }
    } catch {
      errors.write("bench calibrate: \(server.failure ?? error.message)\n")
      return 1
    }
    switch options.format {
    case .json:
      output.write(
        CalibrateCommand.json(CalibrateCommand.JSONReport(calibration: reports, x11ProbeCost: costs)))
    case .table: output.write(table(reports, costs, server: server.serverInfo))
    }
    return CalibrateCommand.status(of: reports, errors: &errors)
  }

  /// How the probe read the window, for a person: "every pixel read", "read at 1/2 size".
  static func readScale(_ scale: Int) -> String { scale > 1 ? "read at 1/\(scale) size" : "every pixel read" }

  static func table(
    _ reports: [CalibrationReport], _ costs: [X11ProbeCostReport], server: BenchResults.DisplayServerInfo
  ) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    func yes(_ b: Bool?) -> String {
      b.map { $0 ? "granted" : "not granted" } ?? "not bench's (existing server)"
    }
    var s = ""
    if let r = reports.first {
      s +=
        "display: \(r.display ?? "x11") (\(server.vendor) \(server.release), \(server.started ? "Xvfb started by bench" : "existing server")), images: \(r.sharedMemoryImages == true ? "MIT-SHM" : "through the socket"), window \(readScale(r.x11ReadScale ?? 1))\n"
      s +=
        "real-time priority: probe \(yes(r.realtimeGranted)), X server \(yes(r.displayServerRealtime)), presenter \(yes(r.presenterRealtime))\n"
      s +=
        "goal: no early detection, no miss, lag p99 ≤ \(f(r.pathLagBoundMilliseconds ?? .nan)) ms + the host's wake-up allowance, measured in the same trials\n\n"
    }
    s += CalibrateCommand.verdictLines(reports)
    let build = CalibrateCommand.buildKind
    s +=
      "\nX11 probe cost (probe thread CPU per observed frame; goal ≤ 3 % of one core at 60 frames/s; \(build)):\n"
    for c in costs {
      let read = readScale(c.readScale)
      s +=
        "  \(c.width)×\(c.height), \(c.resolution) (\(read)): \(f(c.probeMicrosecondsPerFrame)) µs/frame (detector \(f(c.detectorMicrosecondsPerFrame))), \(f(c.probePercentOfCore)) % of one core at \(Int(c.framesPerSecond)) frames/s (\(c.framesObserved) of \(c.framesPresented) frames read)"
      if let added = c.serverAddedMicrosecondsPerFrame {
        s +=
          "; X server +\(f(added)) µs/frame for the probe (probe + server \(f(c.probeMicrosecondsPerFrame + added)))"
      }
      s += "\n"
    }
    return s
  }
}
