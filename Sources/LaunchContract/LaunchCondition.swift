/// The seeds' test matrix (DESIGN.md "Conditions"), spelled as on the command line.
public enum LaunchCondition: String, Sendable, Hashable, CaseIterable, Codable {
  /// Previous app killed and verified gone; executable and libraries evicted from the page
  /// cache; the synthetic device cold.
  case cold
  /// A fresh process right after the last; caches warm; device recently closed.
  case warm
  /// One app process per cell: lock (cover + stop session), wait, unlock; measured from unlock.
  case relock
  /// As warm, with one CPU-burner process per core for the whole cell.
  case loaded

  /// Whether each run starts a new app process (all but relock, which measures from unlock).
  public var launchesProcess: Bool { self != .relock }
}
