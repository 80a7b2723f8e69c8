import DisplayServers
import LaunchContract

/// One display server as bench's commands use it beyond a benchmark: the probe's calibration
/// against ground truth on that server (`bench calibrate --display …`) and its line in
/// `bench doctor`. ``DisplayCommands/servers`` lists the implementations, one per kind.
protocol DisplayServerCommands {
  /// The kind of server this implements.
  static var kind: DisplayServerKind { get }

  /// `bench calibrate` on `options.display` (already validated): the trials without and (unless
  /// `--no-load`) with load and the probe's cost, the report on `output`. Returns 0 when the
  /// probe's error bound holds under every load level, 1 otherwise (each violation, or why the
  /// display could not be used, on `errors`).
  static func calibrate(
    _ options: CalibrateCommand.Options, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32

  /// `bench doctor`'s line on whether this display path can run here, or nil for none (a path
  /// that needs nothing of the machine).
  static func doctorLine() -> String?
}

/// The display servers bench's commands know.
enum DisplayCommands {
  /// One implementation per `DisplayServerKind`, in `bench doctor`'s order; a new server is one
  /// more entry.
  static var servers: [any DisplayServerCommands.Type] {
    [SharedMemoryServerCommands.self, X11ServerCommands.self, WaylandServerCommands.self]
  }

  /// The implementation of `kind`.
  static func server(_ kind: DisplayServerKind) -> any DisplayServerCommands.Type {
    guard let type = servers.first(where: { $0.kind == kind }) else {
      fatalError("DisplayCommands.servers has no implementation of the display server '\(kind)'")
    }
    return type
  }
}
