/// What the probe is measuring from: a launch (spawn) or an unlock, and when it began.
public enum ArmMode: Sendable, Hashable {
  /// The app was spawned at `since` (`CLOCK_MONOTONIC` ns).
  case launch(since: UInt64)
  /// The runner unlocked the app at `since` (`CLOCK_MONOTONIC` ns).
  case unlock(since: UInt64)

  /// The start time, `CLOCK_MONOTONIC` ns.
  public var since: UInt64 {
    switch self {
    case .launch(let t), .unlock(let t): t
    }
  }

  /// `launch` or `unlock`, as written in events.
  public var name: String {
    switch self {
    case .launch: "launch"
    case .unlock: "unlock"
    }
  }
}
