#if canImport(Glibc)
  import Glibc
#endif
import CommandLineKit
import Foundation

/// Progress on stderr: a bar with runs done/total and time left on a terminal, one plain line
/// per run otherwise, nothing with `--quiet`.
package final class ProgressReporter: Sendable {
  /// How progress is shown.
  package enum Style: Sendable {
    case bar
    case lines
    case quiet
  }

  let style: Style
  let total: Int
  let startedAt = Date()

  /// Chooses the style: `quiet`, else a bar when stderr is a terminal.
  package init(total: Int, quiet: Bool) {
    self.total = total
    style = quiet ? .quiet : (isatty(2) == 1 ? .bar : .lines)
  }

  /// Writes `text` to stderr whole through the one writer that never traps (``StandardStream``):
  /// a closed or full stderr is not worth stopping the run for.
  func emit(_ text: String) {
    var errors = StandardStream.error
    errors.write(text)
  }

  /// Reports that run `done` of `total` finished with `summary`.
  package func update(done: Int, label: String, summary: String) {
    switch style {
    case .quiet:
      return
    case .lines:
      emit("[\(done)/\(total)] \(label): \(summary)\n")
    case .bar:
      let width = 28
      let filled = total == 0 ? width : min(width, done * width / total)
      let elapsed = Date().timeIntervalSince(startedAt)
      let left = done == 0 ? 0 : elapsed / Double(done) * Double(total - done)
      let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
      emit("\r\u{1B}[2K\(bar) \(done)/\(total)  \(Self.duration(left)) left  \(label): \(summary)")
      if done == total { emit("\n") }
    }
  }

  /// A line that must stay visible (a failed run, a note).
  package func note(_ text: String) {
    switch style {
    case .quiet: return
    case .lines: emit(text + "\n")
    case .bar: emit("\r\u{1B}[2K" + text + "\n")
    }
  }

  /// A line that is shown even with `--quiet`: bench waits for something outside it (the machine
  /// lock), and a silent wait would look like a hang.
  package func notice(_ text: String) {
    emit((style == .bar ? "\r\u{1B}[2K" : "") + text + "\n")
  }

  /// Ends the bar line.
  package func finish() {
    if style == .bar { emit("\r\u{1B}[2K") }
  }

  static func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
  }
}
