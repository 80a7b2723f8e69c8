/// A format a device can stream: size, maximum frame rate, and whether it is binned.
public struct CaptureFormat: Sendable, Hashable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The highest frame rate of the format, frames per second. `hardwareCost` assumes it
  /// unless the session sets a frame-rate override.
  public var maxFrameRate: Double
  /// A binned format groups sensor pixels and costs less hardware bandwidth.
  public var isBinned: Bool
  /// The device's pixel format, as a four-character code (`GREY`, `YUYV`, …).
  public var fourCC: String

  /// Creates a format.
  public init(width: Int, height: Int, maxFrameRate: Double, isBinned: Bool = false, fourCC: String = "GREY")
  {
    self.width = width
    self.height = height
    self.maxFrameRate = maxFrameRate
    self.isBinned = isBinned
    self.fourCC = fourCC
  }

  /// `640x480@30 GREY` (with `binned` when it is).
  public var description: String {
    let rate = maxFrameRate.rounded() == maxFrameRate ? String(Int(maxFrameRate)) : String(maxFrameRate)
    return "\(width)x\(height)@\(rate) \(fourCC)" + (isBinned ? " binned" : "")
  }
}
