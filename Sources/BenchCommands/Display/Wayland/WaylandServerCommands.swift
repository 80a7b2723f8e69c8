import DisplayServers
import LaunchContract

/// The Wayland display for bench's commands. Calibration needs the screencopy probe, which is
/// not in this build (``WaylandServer/unavailableMessage``; `bench calibrate --display wayland`
/// stops at ``BenchDisplay/validate(_:)`` with that line); `bench doctor` says so and which
/// compositors are installed.
enum WaylandServerCommands: DisplayServerCommands {
  static var kind: DisplayServerKind { .wayland }

  /// Says why there is nothing to calibrate; returns 1.
  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    errors.write("bench calibrate: \(WaylandServer.unavailableMessage)\n")
    return 1
  }

  /// `Wayland display path (--display wayland): no (…; sway present, cage missing)`.
  static func doctorLine() -> String? {
    let found = WaylandServer.compositors.map {
      "\($0) \(WaylandServer.locate($0) == nil ? "missing" : "present")"
    }
    return
      "Wayland display path (--display wayland): no (not measurable in this build yet; \(found.joined(separator: ", ")))"
  }
}
