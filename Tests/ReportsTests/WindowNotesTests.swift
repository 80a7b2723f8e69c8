import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing

/// Why `window_mapped` is missing on Wayland (issue 36): cage names no window's owner, and a
/// running compositor reached without sway's IPC neither; said once in the table's notes.
@Suite struct WindowNotesTests {
  /// `SyntheticResults` on `display` (vendor `vendor`), every run with `window_mapped` when
  /// `mapped`, none without.
  static func results(display: String, vendor: String = "sway 1.7", mapped: Bool) -> BenchResults {
    var results = SyntheticResults.make(runs: 3)
    results.settings.display = display
    results.settings.displayServer = .init(
      name: "/tmp/w/wayland-1", vendor: vendor, release: 0, started: true, screen: nil, realtime: nil,
      sharedMemory: true)
    for c in results.cells.indices {
      for r in results.cells[c].records.indices {
        results.cells[c].records[r].phases[PhaseName.windowMapped] = mapped ? 120 : nil
      }
    }
    return results
  }

  static let note = "- window_mapped not measured in"

  @Test(
    "wayland-cage without window_mapped: one note naming the cells and why (cage names no window's owner)")
  func cage() {
    let text = ResultsTable.text(Self.results(display: "wayland-cage", vendor: "cage 0.1.4", mapped: false))
    let lines = text.split(separator: "\n").filter { $0.hasPrefix(Self.note) }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("cage 0.1.4 tells no one which process owns a window") == true)
    #expect(lines.first?.contains("on wayland-cage") == true)
  }

  @Test(
    "a running compositor without sway's IPC is named; with it, or with the phase measured, nothing is said")
  func runningCompositor() {
    let without = ResultsTable.text(
      Self.results(display: "wayland:wayland-0", vendor: "Wayland compositor", mapped: false))
    #expect(without.contains("without sway's IPC (SWAYSOCK)"))
    for quiet in [
      Self.results(display: "wayland:wayland-0", vendor: "sway 1.7", mapped: false),
      Self.results(display: "wayland", mapped: false),
      Self.results(display: "wayland-cage", vendor: "cage 0.1.4", mapped: true),
      Self.results(display: "x11", mapped: false),
    ] {
      #expect(!ResultsTable.text(quiet).contains(Self.note))
    }
  }
}
