/// A luma histogram of one frame: how many pixels have each value 0…255.
public struct LumaHistogram: Sendable, Hashable {
  /// The frame's number in its stream.
  public var sequence: UInt64
  /// The frame's capture time: `CLOCK_MONOTONIC`, ns.
  public var captureTime: UInt64
  /// 256 bins; `bins[v]` counts the pixels of value `v`.
  public var bins: [Int]

  /// Creates a histogram.
  public init(sequence: UInt64, captureTime: UInt64, bins: [Int]) {
    self.sequence = sequence
    self.captureTime = captureTime
    self.bins = bins
  }

  /// Counts the luma values of `frame` (padding bytes beyond `width` are ignored).
  public init(frame: VideoFrame) {
    var bins = [Int](repeating: 0, count: 256)
    frame.pixels.withUnsafeBufferPointer { src in
      bins.withUnsafeMutableBufferPointer { out in
        for row in 0..<frame.height {
          let start = row * frame.bytesPerRow
          for x in 0..<frame.width { out[Int(src[start + x])] += 1 }
        }
      }
    }
    self.init(sequence: frame.sequence, captureTime: frame.captureTime, bins: bins)
  }

  /// The number of pixels counted.
  public var pixelCount: Int { bins.reduce(0, +) }

  /// The mean luma, 0…255 (0 for an empty histogram).
  public var mean: Double {
    let total = pixelCount
    guard total > 0 else { return 0 }
    var sum = 0
    for (value, count) in bins.enumerated() { sum += value * count }
    return Double(sum) / Double(total)
  }
}
