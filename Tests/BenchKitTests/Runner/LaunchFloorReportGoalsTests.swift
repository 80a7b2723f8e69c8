import BenchKit
import LaunchContract
import TestSupport
import TestThreads
import Testing

/// `bench launch-floor`'s goal lines: camera-app's ratio of medians to the reference each goal
/// names, met or not, and no line for a goal whose reference or condition was not measured.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct LaunchFloorReportGoalsTests {
  static func report(_ name: String, warm: [Double], cold: [Double]) -> LaunchFloor.Report {
    var report = LaunchFloor.Report(
      program: LaunchFloor.Program(name: name, argv: ["/bin/true"]), binaryBytes: 1, mappedFiles: [:])
    report.samples = [.warm: warm, .cold: cold]
    return report
  }

  @Test("each goal says camera-app's ratio to its reference and whether it is met")
  func goalsMetOrNot() {
    let text = LaunchFloorReport(
      reports: [
        Self.report("c-dynamic", warm: [1, 1, 1], cold: [2, 2, 2]),
        Self.report("swift-static", warm: [2, 2, 2], cold: [10, 10, 10]),
        Self.report("camera-app", warm: [2, 2, 2], cold: [20, 20, 20]),
      ], conditions: [.warm, .cold]
    ).text
    #expect(text.contains("goal: warm ≤ 3.0× c-dynamic — 2.0×, met"), "\(text)")
    #expect(text.contains("goal: cold ≤ 1.5× swift-static — 2.0×, not met"), "\(text)")
  }

  @Test("a goal whose reference or condition was not measured has no line")
  func goalsLeftOut() {
    let report = LaunchFloorReport(
      reports: [
        Self.report("c-dynamic", warm: [1], cold: []), Self.report("camera-app", warm: [2], cold: []),
      ], conditions: [.warm])
    #expect(report.goalLines == ["goal: warm ≤ 3.0× c-dynamic — 2.0×, met"])
  }
}
