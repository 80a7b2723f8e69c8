/// How the device powered up at its last `open()`.
public enum PowerUp: String, Sendable, Hashable {
  /// Closed longer ago than the profile's warm window, never, or in another boot.
  case cold
  /// Closed (by any process) within the warm window, this boot.
  case warm
}
