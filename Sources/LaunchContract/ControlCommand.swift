/// A command the runner sends on `FIRSTFRAME_CONTROL`, one per line.
public enum ControlCommand: String, Sendable, CaseIterable {
  /// Press the shutter.
  case tap
  /// Lock the device: cover the preview and stop the session.
  case lock
  /// Unlock: uncover and restart the session.
  case unlock
  /// Quit cleanly.
  case quit

  /// The command as it goes down the pipe: its name and a newline.
  public var line: String { rawValue + "\n" }

  /// The command a received line names (surrounding spaces and tabs ignored), or nil.
  public init?(line: some StringProtocol) {
    var s = Substring(line)
    while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
    self.init(rawValue: String(s))
  }
}
