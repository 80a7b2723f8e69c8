import LaunchContract
import PhaseTrace
import RunAnalysis
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct LightBoardCheckTests {
  static func event(_ ms: Double, _ name: EventName, _ fields: [String: PhaseFieldValue]) -> PhaseEvent {
    PhaseEvent(
      ts: 1_000_000_000 + UInt64(ms * 1e6), name: name.rawValue, kind: .event, pid: 7, fields: fields)
  }

  @Test("a forged board is counted and fails the run, naming how far after its scanout the first one was")
  func forgedBoardFails() {
    let events = [
      Self.event(80, .displayForgedBoard, ["ahead_ms": .double(2.5)]),
      Self.event(40, .displayForgedBoard, ["ahead_ms": .double(31_536_000_000)]),
      Self.event(120, .displayFirstLiveFrame, ["glass_to_glass_ms": .double(12)]),
    ]
    let finding = LightBoardCheck.check(events)
    #expect(finding.forgedBoards == 2)
    #expect(finding.failure == "forged light board: capture time 31536000000.000 ms after its scanout")
  }

  @Test("a first live frame with a negative glass-to-glass latency is a forged board")
  func negativeGlassToGlass() {
    let finding = LightBoardCheck.check([
      Self.event(120, .displayFirstLiveFrame, ["glass_to_glass_ms": .double(-0.4)])
    ])
    #expect(finding.forgedBoards == 1)
    #expect(finding.failure == "forged light board: capture time 0.400 ms after its scanout")
  }

  @Test("possible boards pass: zero forged, no failure")
  func possibleBoards() {
    let finding = LightBoardCheck.check([
      Self.event(120, .displayFirstLiveFrame, ["glass_to_glass_ms": .double(0)]),
      Self.event(150, .displayStaleFrame, [:]),
    ])
    #expect(finding.forgedBoards == 0)
    #expect(finding.failure == nil)
  }
}
