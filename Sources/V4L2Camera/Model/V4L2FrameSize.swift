/// One frame size of a pixel format, with the frame intervals the device offers at that size.
public struct V4L2FrameSize: Sendable, Hashable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The intervals offered, fastest first (`VIDIOC_ENUM_FRAMEINTERVALS`). Empty when the driver
  /// does not enumerate intervals.
  public var intervals: [V4L2FrameInterval]

  /// Creates a size.
  public init(width: Int, height: Int, intervals: [V4L2FrameInterval]) {
    self.width = width
    self.height = height
    self.intervals = intervals
  }

  /// The fastest rate offered, frames per second (30 when the driver lists none).
  public var maxFrameRate: Double {
    intervals.map(\.framesPerSecond).max() ?? 30
  }

  /// `640x480 (1-25 fps)`.
  public var description: String {
    let rates = intervals.map(\.framesPerSecond)
    guard let low = rates.min(), let high = rates.max() else { return "\(width)x\(height)" }
    let lowText = String(format2: low)
    let highText = String(format2: high)
    return low == high
      ? "\(width)x\(height) (\(highText) fps)" : "\(width)x\(height) (\(lowText)-\(highText) fps)"
  }
}
