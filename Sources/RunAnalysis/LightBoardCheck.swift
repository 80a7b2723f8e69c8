import LaunchContract
import PhaseTrace

/// The light board's side of the trust boundary, checked on a run's merged events. The board is
/// drawn by the app under test, so a capture time after the scanout that showed it can only be
/// drawn, never captured: the probe marks each such board (`display.forged_board`, more than
/// 1 ms after its scanout), and a first live frame whose `glass_to_glass_ms` is negative (its
/// board after its scanout by any amount) is one too. Either fails the run.
package enum LightBoardCheck {
  /// What the check found in one run.
  package struct Finding: Sendable, Equatable {
    /// Forged boards: `display.forged_board` events, plus 1 for a first live frame with a
    /// negative glass-to-glass latency (`counts.forged_boards`).
    package var forgedBoards: Int
    /// The run's failure, naming the first forged board: "forged light board: capture time
    /// X ms after its scanout"; nil when every board was possible.
    package var failure: String?
  }

  /// Checks `events` (one run's, any order).
  package static func check(_ events: [PhaseEvent]) -> Finding {
    var finding = Finding(forgedBoards: 0, failure: nil)
    var firstAhead: (ts: UInt64, ms: Double)?
    for e in events {
      var ahead: Double?
      if e.name == EventName.displayForgedBoard.rawValue {
        finding.forgedBoards += 1
        if case .double(let ms)? = e.fields["ahead_ms"] { ahead = ms }
      } else if e.name == EventName.displayFirstLiveFrame.rawValue,
        case .double(let g2g)? = e.fields["glass_to_glass_ms"], g2g < 0
      {
        finding.forgedBoards += 1
        ahead = -g2g
      }
      if let ahead, firstAhead.map({ e.ts < $0.ts }) ?? true { firstAhead = (e.ts, ahead) }
    }
    if finding.forgedBoards > 0 {
      let what = firstAhead.map { "\(NumberFormat.fixed($0.ms, decimals: 3)) ms" } ?? "an unknown time"
      finding.failure = "forged light board: capture time \(what) after its scanout"
    }
    return finding
  }
}
