import LaunchContract

extension LaunchFloorReport {
  /// One launch goal: camera-app's median in `condition` at most `limit` times `reference`'s.
  package struct Goal: Sendable {
    /// The condition the medians come from.
    package var condition: LaunchCondition
    /// The reference program, by its name in the table.
    package var reference: String
    /// The largest ratio of medians that meets the goal.
    package var limit: Double
  }

  /// The launch goals (issue 14): warm ≤ 3× the dynamic C hello, cold ≤ 1.5× the static Swift
  /// hello. `Benchmarks/launch-floor` links both references as camera-app is linked (issue 28:
  /// `-no-pie`, the C++ runtime inside), so a goal compares camera-app with the floor of its own
  /// way of linking.
  package static let goals = [
    Goal(condition: .warm, reference: "c-dynamic", limit: 3),
    Goal(condition: .cold, reference: "swift-static", limit: 1.5),
  ]

  /// One line per goal whose condition and reference were both measured beside camera-app:
  /// `goal: warm ≤ 3× c-dynamic — 2.2×, met` (or `not met`).
  package var goalLines: [String] {
    Self.goals.compactMap { goal in
      guard conditions.contains(goal.condition),
        reports.contains(where: { $0.program.name == goal.reference }),
        reports.contains(where: { $0.program.name == "camera-app" })
      else { return nil }
      let ratio = median("camera-app", goal.condition) / median(goal.reference, goal.condition)
      let verdict = ratio.isFinite ? (ratio <= goal.limit ? "met" : "not met") : "not measured"
      return
        "goal: \(goal.condition.rawValue) ≤ \(Self.factor(goal.limit))× \(goal.reference) — \(Self.factor(ratio))×, \(verdict)"
    }
  }
}
