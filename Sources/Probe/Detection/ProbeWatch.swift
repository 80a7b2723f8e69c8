/// What the probe read since it was armed (issue 40 item 5): for a run with no live frame, what
/// tells an app that never drew (every image blank, or nothing changed) from a probe that looked in
/// the wrong place (images that changed, but never at the camera's cadence or with a board), or one
/// that read nothing at all.
public struct ProbeWatch: Sendable, Equatable {
  /// Images read since the arm time.
  public var reads = 0
  /// Of them, blank (one shade: the detector's blank test).
  public var blank = 0
  /// Of them, different from the image read before (a resize counts as a change).
  public var changes = 0
  /// When the last change was read (`CLOCK_MONOTONIC` ns), nil when nothing changed.
  public var lastChange: UInt64?
  /// The width of the last image read (the window or output at the probe's read scale), pixels.
  public var width = 0
  /// Its height, pixels.
  public var height = 0

  /// Nothing read yet.
  public init() {}

  /// Counts one image read at `time`.
  mutating func note(blank isBlank: Bool, changed: Bool, at time: UInt64, width: Int, height: Int) {
    reads += 1
    if isBlank { blank += 1 }
    if changed || (self.width, self.height) != (width, height) && reads > 1 {
      changes += 1
      lastChange = time
    }
    self.width = width
    self.height = height
  }

  /// One clause for a run's failure: "412 images read since the launch (320×240 each): all
  /// blank, none changed", "… 3 changed, the last 1204.5 ms after the launch", or "no image
  /// read since the launch".
  public func summary(since: UInt64) -> String {
    guard reads > 0 else { return "no image read since the launch" }
    let blankPart =
      blank == reads ? "all blank" : blank == 0 ? "none blank" : "\(blank) blank"
    let changePart: String
    if let lastChange, changes > 0 {
      let ms = Double(lastChange &- min(lastChange, since)) / 1e6
      changePart =
        "\(changes) changed from the one before, the last \((ms * 10).rounded() / 10) ms after the launch"
    } else {
      changePart = "none changed from the one before"
    }
    return
      "\(reads) image\(reads == 1 ? "" : "s") read since the launch (\(width)×\(height)): \(blankPart), \(changePart)"
  }
}
