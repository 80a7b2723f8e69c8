/// A frame interval as V4L2 states it: `numerator / denominator` seconds per frame.
public struct V4L2FrameInterval: Sendable, Hashable, CustomStringConvertible {
  /// Seconds per frame, numerator.
  public var numerator: UInt32
  /// Seconds per frame, denominator.
  public var denominator: UInt32

  /// Creates an interval of `numerator / denominator` seconds.
  public init(numerator: UInt32, denominator: UInt32) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// Frames per second (`denominator / numerator`); 0 for a malformed interval.
  public var framesPerSecond: Double {
    numerator == 0 ? 0 : Double(denominator) / Double(numerator)
  }

  /// `30 fps`, `12.5 fps`.
  public var description: String {
    let fps = framesPerSecond
    let text = fps.rounded() == fps ? String(Int(fps)) : String(format2: fps)
    return "\(text) fps"
  }
}

extension String {
  /// `12.5` for 12.5, `29.97` for 29.97: at most two decimals, no trailing zeros.
  init(format2 value: Double) {
    let hundredths = (value * 100).rounded()
    var text = String(Int(hundredths) / 100) + "." + String(Int(hundredths) % 100 + 100).dropFirst()
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    self = text
  }
}
