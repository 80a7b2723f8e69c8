import CaptureKit
import DisplayServers
import Foundation
import LaunchContract
import ProbeCalibration
import ResultsSchema
import SystemCalls
import WaylandClient

/// The Wayland display for bench's commands: calibration through a real Wayland client on a
/// private headless compositor (or a running one), the Wayland probe's cost, and `bench
/// doctor`'s line on which compositors are installed and whether one starts headless here.
enum WaylandServerCommands: DisplayServerCommands {
  static var kind: DisplayServerKind { .wayland }

  /// `bench calibrate --display wayland|wayland-cage|wayland:SOCKET`: the trials through a real
  /// Wayland client (`WaylandPresenter`), without and with load, then the probe's cost while a
  /// client changes every refresh. Returns 0 when every report passes (no early detection, no
  /// miss, lag p99 ≤ one refresh + 2 ms + the host's wake-up allowance), 1 otherwise.
  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    let server: WaylandServer
    do {
      server = try WaylandServer.open(
        options.display, width: options.settings.width, height: options.settings.height,
        refreshHz: options.settings.refreshHz, logFolder: nil)
    } catch {
      errors.write("bench calibrate: \(error.message)\n")
      return 1
    }
    defer { server.stop() }
    let refreshHz = server.output.map { Double($0.refreshMillihertz) / 1000 } ?? options.settings.refreshHz
    var reports: [CalibrationReport] = []
    var costs: [WaylandProbeCostReport] = []
    do {
      for load in options.load ? [false, true] : [false] {
        var settings = options.settings
        settings.load = load
        reports.append(
          try Calibration.runWayland(
            settings, socket: server.socketPath, refreshHz: refreshHz, windows: server.windowWatcher()))
      }
      costs.append(
        try probeCost(
          socket: server.socketPath, width: options.settings.width,
          height: options.settings.height, refreshHz: refreshHz))
    } catch {
      errors.write("bench calibrate: \(server.failure ?? error.message)\n")
      return 1
    }
    switch options.format {
    case .json:
      output.write(
        CalibrateCommand.json(CalibrateCommand.JSONReport(calibration: reports, waylandProbeCost: costs)))
    case .table: output.write(table(reports, costs, server: server.serverInfo))
    }
    return CalibrateCommand.status(of: reports, errors: &errors)
  }

  /// The probe's cost while a client of this process presents a new frame every refresh.
  static func probeCost(socket: String, width: Int, height: Int, refreshHz: Double) throws(WaylandError)
    -> WaylandProbeCostReport
  {
    let presenter = try WaylandPresenter(
      socket: socket, width: width, height: height, title: "FirstFrame probe cost",
      appID: "firstframe-probe-cost")
    defer { presenter.close() }
    let stop = PThreadMutex(false)
    let done = DispatchSemaphore(value: 0)
    let interval = UInt64(1e9 / refreshHz)
    Thread.detachNewThread {
      defer { done.signal() }
      var level: UInt8 = 0
      var next = MonotonicClock.now()
      while !stop.withLock({ $0 }) {
        level = level &+ 37
        let frame = VideoFrame(
          width: width, height: height, pixels: [UInt8](repeating: level, count: width * height), sequence: 0,
          captureTime: next)
        guard presenter.publish(frame) != nil else { return }
        next &+= interval
        MonotonicClock.sleep(until: next)
      }
    }
    defer {
      stop.withLock { $0 = true }
      done.wait()
    }
    return try WaylandProbeCost.run(socket: socket, seconds: 4)
  }

  static func table(
    _ reports: [CalibrationReport], _ costs: [WaylandProbeCostReport], server: BenchResults.DisplayServerInfo
  ) -> String {
    func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.2f", v) }
    var s = ""
    if let r = reports.first {
      s +=
        "display: \(r.display ?? "wayland") (\(server.vendor), \(server.started ? "started by bench" : "existing compositor")\(server.screen.map { ", output " + $0 } ?? "")), wlr-screencopy with damage into shared memory\n"
      s +=
        "real-time priority: probe \(r.realtimeGranted == true ? "granted" : "not granted"), presenter \(r.presenterRealtime == true ? "granted" : "not granted")\n"
      s +=
        "goal: no early detection, no miss, lag p99 ≤ \(f(r.pathLagBoundMilliseconds ?? .nan)) ms (one refresh + 2 ms) + the host's wake-up allowance, measured in the same trials\n\n"
    }
    s += CalibrateCommand.verdictLines(reports)
    let build = CalibrateCommand.buildKind
    s +=
      "\nWayland probe cost (probe thread CPU per copied frame, a client changing every refresh; \(build)):\n"
    for c in costs {
      s +=
        "  read at 1/\(c.readScale) size: \(f(c.probeMicrosecondsPerFrame)) µs/frame (detector \(f(c.detectorMicrosecondsPerFrame))), \(f(c.probePercentOfCore)) % of one core, \(c.framesObserved) frames in \(f(c.seconds)) s (\(c.framesLate) late); lag presented → received p50 \(f(c.lagP50Milliseconds)) ms, p99 \(f(c.lagP99Milliseconds)) ms, max \(f(c.lagMaximumMilliseconds)) ms\n"
    }
    return s
  }

  /// `Wayland display path (--display wayland): no (the screencopy probe is not in this build;
  /// sway 1.7 present, starts headless in 41 ms at 640x360@60Hz; cage present)`.
  static func doctorLine() -> String? {
    var found: [String] = []
    for kind in WaylandCompositorKind.allCases {
      guard WaylandServer.locate(kind.program) != nil else {
        found.append("\(kind.program) missing (apt-get install \(kind.program))")
        continue
      }
      found.append(kind == .sway ? startFinding(kind) : "\(kind.program) present")
    }
    return "Wayland display path (--display wayland): \(found.joined(separator: "; "))"
  }

  /// Whether `kind` starts headless at 640×360, 60 Hz, and how long it took to be ready.
  static func startFinding(_ kind: WaylandCompositorKind) -> String {
    do {
      let compositor = try WaylandCompositor(kind, width: 640, height: 360, refreshHz: 60, timeout: 10)
      defer { compositor.stop() }
      let o = compositor.output
      let user = compositor.runsAs.map { " as uid \($0)" } ?? ""
      return
        "\(kind.program) \(compositor.version) present, starts headless\(user) in \(compositor.startToReadyNanoseconds / 1_000_000) ms at \(o.width)x\(o.height)@\(Double(o.refreshMillihertz) / 1000)Hz"
    } catch {
      return "\(kind.program) present but does not start headless: \(error.message)"
    }
  }
}
