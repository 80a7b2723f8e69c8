/// What the detector made of one scanout.
public enum ScanoutClass: Sendable, Hashable {
  /// Before the arm time (the image still updates the pre-arm reference).
  case beforeArm
  /// Black or uniform: a cover, or nothing presented.
  case blank
  /// Content from before the arm time: a board time before it, or the pre-arm image again.
  case stale
  /// A light board dated more than 1 ms after this scanout: drawn, not captured (see
  /// `LiveFrameDetector+Board.swift`).
  case forged
  /// Not blank, not stale, but no evidence of a live scene yet: a repeat, a still image, or an
  /// image of a change run or a board not yet confirmed.
  case waiting
  /// The first live frame was found on this scanout: the first board this one confirmed (board), or the run of changing
  /// scanouts this one completed, whose first scanout is the first live frame (change).
  case firstLive
  /// After the first live frame.
  case afterFirstLive
}
