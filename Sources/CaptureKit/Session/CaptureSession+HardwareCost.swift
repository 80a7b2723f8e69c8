extension CaptureSession {
  /// The share of pixel throughput that 2×2 binned formats need compared with full readout.
  public static let binnedCostFactor = 0.25

  /// `hardwareCost` of a set of committed inputs (see `hardwareCost`).
  static func hardwareCost(of inputs: [CommittedInput]) -> Double {
    inputs.reduce(0) { $0 + cost(of: $1) }
  }

  /// One input's share: `width × height × fps × binFactor / device.pixelBudget`.
  static func cost(of input: CommittedInput) -> Double {
    let budget = input.device.pixelBudget
    guard budget > 0 else { return .infinity }
    return pixelRate(of: input) / budget
  }

  /// Pixels per second the input streams, after binning.
  static func pixelRate(of input: CommittedInput) -> Double {
    let binFactor = input.format.isBinned ? binnedCostFactor : 1.0
    return Double(input.format.width) * Double(input.format.height) * input.frameRate * binFactor
  }

  /// The error `startRunning()` throws when the configuration costs more than the hardware sustains.
  static func hardwareCostError(cost: Double, inputs: [CommittedInput]) -> CaptureError {
    let cameras = inputs.enumerated().map { index, input -> String in
      let megapixels: Double = pixelRate(of: input) / 1e6
      let budget: Double = input.device.pixelBudget / 1e6
      let size = "\(input.format.width)x\(input.format.height)"
      let rate = formatNumber(input.frameRate)
      let binning = input.format.isBinned ? "binned (x\(binnedCostFactor))" : "not binned"
      let share = formatNumber(CaptureSession.cost(of: input))
      let who = "camera \(index + 1) of \(inputs.count) (\(input.device.uniqueID))"
      return "\(who) streams \(size) at \(rate) fps, \(binning): \(formatNumber(megapixels)) Mpx/s "
        + "of a \(formatNumber(budget)) Mpx/s budget (cost \(share))"
    }
    return CaptureError(
      .hardwareCostExceeded,
      "hardware cost \(formatNumber(cost)) exceeds 1.0 with \(inputs.count) camera(s): "
        + cameras.joined(separator: "; ")
        + "; choose a smaller or binned format, set a lower frameRateOverride, or use fewer cameras")
  }

  private static func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
