/// What the detector made of one scanout.
public enum ScanoutClass: Sendable, Hashable {
  /// Before the arm time (the image still updates the pre-arm reference).
  case beforeArm
  /// Black or uniform: a cover, or nothing presented.
  case blank
  /// Content from before the arm time: a board time before it, or the pre-arm image again.
  case stale
  /// Not blank, not stale, but no evidence of a live scene yet (for example a repeat).
  case waiting
  /// The first live frame.
  case firstLive
  /// After the first live frame.
  case afterFirstLive
}
