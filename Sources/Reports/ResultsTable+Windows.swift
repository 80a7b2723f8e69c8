import LaunchContract
import ResultsSchema

extension ResultsTable {
  /// Why a Wayland benchmark's cells have no `window_mapped` (issue 36): the compositor tells no
  /// one which process owns a window — cage 0.1.4 has no IPC and offers no foreign-toplevel
  /// protocol; a running compositor (`wayland:SOCKET`) was reached without sway's IPC
  /// (`SWAYSOCK`). Only an app that writes `display.window_mapped` itself (camera-app) has the
  /// phase there. Empty elsewhere, and for cells where some run has the phase.
  static func windowNotes(_ results: BenchResults) -> String {
    guard let text = results.settings.display, let path = try? DisplayPath(parsing: text),
      path.server == .wayland
    else { return "" }
    let why: String
    switch path {
    case .privateWayland(.cage, _):
      why =
        "cage 0.1.4 tells no one which process owns a window (no IPC; it offers no foreign-toplevel protocol)"
    case .wayland where !(results.settings.displayServer?.vendor.hasPrefix("sway") ?? false):
      why =
        "the running compositor was reached without sway's IPC (SWAYSOCK), which names each window's process"
    default: return ""
    }
    let cells = results.cells.filter { c in
      !c.records.isEmpty && !c.records.contains { $0.phases[PhaseName.windowMapped] != nil }
    }
    guard !cells.isEmpty else { return "" }
    let names = cells.map { "\($0.condition)/\($0.config)" }.joined(separator: ", ")
    return
      "- window_mapped not measured in \(names): \(why); only an app that writes display.window_mapped"
      + " itself (camera-app) has it on \(text)\n"
  }
}
