// The image tests behind each scanout's class (LiveFrameDetector's documentation): blank, the
// same as another image, changed beyond the noise.
extension LiveFrameDetector {
  /// Whether `s` is blank: its column-band and row-band ranges under `blankBandSpread` and its
  /// 32×32-block range under `blankBlockSpread` (an empty signature is blank).
  func isBlank(_ s: ImageSignature) -> Bool {
    guard !s.isEmpty else { return true }
    let c = configuration
    if ImageSignature.range(s.columns, samples: s.columnSamples) >= c.blankBandSpread { return false }
    if ImageSignature.range(s.rows, samples: s.rowSamples) >= c.blankBandSpread { return false }
    if ImageSignature.range(s.blocks32, samples: 1024) >= c.blankBlockSpread { return false }
    return true
  }

  /// Whether `a` and `b` are the same image: no 8×8 cell mean differs by more than
  /// `identicalTolerance`.
  func isSame(_ a: ImageSignature, _ b: ImageSignature) -> Bool {
    ImageSignature.maxDifference(a.cells, b.cells, samples: 64) <= configuration.identicalTolerance
  }

  /// The threshold for a mean over `samples` pixels: `significance` × sigma × √2 / √samples,
  /// never below `floor` luma levels.
  func threshold(samples: Int, floor: Double) -> Double {
    let c = configuration
    return max(floor, c.significance * c.noiseSigma * 2.0.squareRoot() / Double(max(samples, 1)).squareRoot())
  }

  /// Whether `b` differs from `a` beyond the noise: a column-band or row-band mean by more than
  /// its threshold (at least 0.75 luma levels), or a 16×16-block mean by more than its own (at
  /// least 2).
  func hasChanged(_ a: ImageSignature, _ b: ImageSignature) -> Bool {
    if ImageSignature.maxDifference(a.columns, b.columns, samples: a.columnSamples)
      > threshold(samples: a.columnSamples, floor: 0.75)
    {
      return true
    }
    if ImageSignature.maxDifference(a.rows, b.rows, samples: a.rowSamples)
      > threshold(samples: a.rowSamples, floor: 0.75)
    {
      return true
    }
    return ImageSignature.maxDifference(a.blocks16, b.blocks16, samples: 256)
      > threshold(samples: 256, floor: 2)
  }
}
