import SystemCalls

/// A state file of kernel settings to put back (the cpufreq cap's originals): `PATH<TAB>VALUE`
/// lines, after header lines without a tab (`pid N`, `owner TOKEN`: the bench that saved them,
/// by its `MachineClaim` token). Bench writes them back when its condition ends; its guard, when
/// bench was killed first (``ProcessGuard/restoreOnExit(_:)``); the next bench, when both were.
package enum SavedControlValues {
  /// The token of the `owner` line of `text`, when it has one.
  package static func owner(in text: String) -> Substring? {
    text.split(separator: "\n").first { $0.hasPrefix("owner ") }?.dropFirst(6)
  }

  /// Writes the values in `file` back, the paths ending in `first` before the others (a
  /// governor before the frequency it clamps), then removes the file. With `owner` set, only a
  /// file whose `owner` line names that token is written back (another bench's is left alone).
  /// Returns how many values were written back.
  @discardableResult
  package static func writeBack(from file: String, first: String = "/scaling_governor", owner: String? = nil)
    -> Int
  {
    guard let text = FileSystem.readText(atPath: file, maxBytes: 1 << 20) else { return 0 }
    if let owner, Self.owner(in: text) != Substring(owner) { return 0 }
    let lines = text.split(separator: "\n").filter { $0.contains("\t") }
    let ordered = lines.filter { $0.contains(first + "\t") } + lines.filter { !$0.contains(first + "\t") }
    var restored = 0
    for line in ordered {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2 else { continue }
      if (try? FileSystem.writeControlFile(String(parts[1]) + "\n", atPath: String(parts[0]))) != nil {
        restored += 1
      }
    }
    try? FileSystem.remove(atPath: file, absentIsFine: true)
    return restored
  }
}
