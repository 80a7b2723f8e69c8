import LaunchContract
import LightBoard
import PhaseTrace

/// The light board's checks. The board is drawn inside the app under test (the synthetic camera
/// renders it into the frames the app presents), so its time is evidence to weigh, not a fact:
/// - **possible**: a frame cannot be captured after the scanout that showed it. A board time
///   more than `forgedBoardToleranceMicroseconds` (1 ms) after its scanout is forged: counted
///   (`forgedBoards`, a `display.forged_board` event with `ahead_ms`), never live, and bench
///   fails the run. An honest board is never after its scanout at all (the compositor stamps a
///   scanout after it latched the frame, the board truncates to whole microseconds); the
///   millisecond is slack for a probe that stamps its scanouts early, not for the app.
/// - **confirmed**: one board is not a first live frame. The first live board waits
///   (`unconfirmedBoard`) for a second new board whose capture time is later by a step the
///   camera's cadence allows (`boardStepFits`); the first one is then the one reported,
///   confirmed on the second's scanout (`FirstLiveFrame.confirmedAt`). A second board that does
///   not fit replaces the first as the one waiting. A run that ends with a board still waiting
///   has no first live frame (bench says so: "one light board, unconfirmed").
extension LiveFrameDetector {
  /// How far after its scanout a board's capture time may be before it is forged, µs.
  public static let forgedBoardToleranceMicroseconds: UInt64 = 1_000

  /// The fastest camera a board step may show when the camera's frame interval is not known:
  /// two boards less than this apart (1 ms: 1000 frames per second) are not two frames, ns.
  static let shortestBoardStepNanoseconds: UInt64 = 1_000_000

  /// How far a board time (whole µs, modulo 2⁴⁸) is after the scanout at `time` (ns), µs,
  /// when that is more than the tolerance: the board is forged. Nil for a possible board.
  static func forgedAhead(microseconds us: UInt64, scanout time: UInt64) -> UInt64? {
    let mask: UInt64 = (1 << 48) - 1
    let ahead = (us &- time / 1_000) & mask
    guard ahead >> 47 == 0, ahead > forgedBoardToleranceMicroseconds else { return nil }
    return ahead
  }

  /// Whether two boards' capture times `step` ns apart can be consecutive frames of the camera
  /// (one may have been dropped between them): at least half a frame interval and at most the
  /// change run's reach (`runReachNanoseconds`: two frame intervals plus a refresh plus the
  /// cadence tolerance). Without a known interval, at least 1 ms and at most the reach for the
  /// slowest camera allowed (`slowestFrameIntervalNanoseconds`).
  func boardStepFits(_ step: UInt64) -> Bool {
    let shortest =
      configuration.cameraFrameIntervalNanoseconds.map { $0 / 2 } ?? Self.shortestBoardStepNanoseconds
    return step >= shortest && step <= runReachNanoseconds
  }

  /// Classifies a non-blank scanout at `time` whose light board reads `us` (whole µs).
  mutating func classifyBoard(
    microseconds us: UInt64, at time: UInt64, mode: ArmMode, sameAsPrevious: Bool
  ) -> ScanoutClass {
    if let ahead = Self.forgedAhead(microseconds: us, scanout: time) {
      unconfirmedBoard = nil
      if !sameAsPrevious { recordForged(at: time, captureTimeMicroseconds: us, aheadMicroseconds: ahead) }
      return .forged
    }
    if !Self.captured(microseconds: us, atOrAfter: mode.since) {
      recordStale(at: time, reason: "board_time_before_arm", captureTimeMicroseconds: us)
      return .stale
    }
    if firstLiveFrame != nil { return .afterFirstLive }
    if sameAsPrevious { return .waiting }  // a repeat shows the same board again
    let board = FirstLiveFrame(mode: mode, scanoutTime: time, method: .board, captureTimeMicroseconds: us)
    guard let waiting = unconfirmedBoard, let firstUs = waiting.captureTimeMicroseconds else {
      unconfirmedBoard = board
      return .waiting
    }
    let stepUs = (us &- firstUs) & ((1 << 48) - 1)
    if stepUs == 0 { return .waiting }  // the same capture drawn again
    guard stepUs >> 47 == 0, boardStepFits(stepUs &* 1_000) else {
      unconfirmedBoard = board
      return .waiting
    }
    var confirmed = waiting
    confirmed.confirmedAt = time
    unconfirmedBoard = nil
    found(confirmed)
    // The confirming board is a new image too: without it the next board's gap is measured from
    // the first board, two frames, and counted one dropped frame that never was.
    noteNewImage(at: time)
    return .firstLive
  }

  private mutating func recordForged(
    at time: UInt64, captureTimeMicroseconds us: UInt64, aheadMicroseconds: UInt64
  ) {
    forgedBoards += 1
    append(
      EventName.displayForgedBoard.rawValue, at: time,
      [
        "scanout_ns": .int(Int64(bitPattern: time)), "capture_time_us": .int(Int64(bitPattern: us)),
        "ahead_ms": .double(Double(aheadMicroseconds) / 1e3),
      ])
  }
}
