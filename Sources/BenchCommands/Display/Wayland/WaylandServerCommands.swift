import DisplayServers
import Foundation
import LaunchContract

/// The Wayland display for bench's commands. Calibration needs the screencopy probe, which is
/// not in this build (``WaylandServer/probeMissingMessage``; `bench calibrate --display wayland`
/// stops at ``BenchDisplay/validate(_:)`` with that line); `bench doctor` says which compositors
/// are installed and whether one starts headless here.
enum WaylandServerCommands: DisplayServerCommands {
  static var kind: DisplayServerKind { .wayland }

  /// Says why there is nothing to calibrate; returns 1.
  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    errors.write("bench calibrate: \(WaylandServer.probeMissingMessage)\n")
    return 1
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
    let measurable = WaylandServer.probeAvailable ? "yes" : "no (the screencopy probe is not in this build)"
    return "Wayland display path (--display wayland): \(measurable); \(found.joined(separator: "; "))"
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
