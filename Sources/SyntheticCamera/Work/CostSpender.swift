import SystemCalls

/// Spends one profile cost on the calling thread: a wait or real work.
enum CostSpender {
  /// Spends `cost`; for software costs `plan` says what to allocate. Returns the work's product
  /// (nil for a hardware cost).
  @discardableResult
  static func spend(_ cost: CostProfile.Cost, plan: WorkPlan) -> WorkProduct? {
    guard cost.ms > 0 else { return nil }
    switch cost.kind {
    case .hardware:
      MonotonicClock.sleep(until: MonotonicClock.now() + UInt64(cost.ms * 1_000_000))
      return nil
    case .software:
      return SoftwareWork.run(milliseconds: cost.ms, plan: plan)
    }
  }
}
