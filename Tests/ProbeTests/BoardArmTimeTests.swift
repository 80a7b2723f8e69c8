import LightBoard
import Testing

@testable import Probe

@Suite struct BoardArmTimeTests {
  static let width = 320
  static let height = 240

  static func board(capturedAt time: UInt64, sequence: UInt64) -> [UInt8] {
    var px = [UInt8](repeating: 0, count: width * height)
    px.withUnsafeMutableBufferPointer {
      LightBoard.render(
        captureTime: time, sequence: sequence, width: width, height: height, bytesPerRow: width,
        into: $0.baseAddress!)
    }
    return px
  }

  static func observe(_ px: [UInt8], at time: UInt64, _ detector: inout LiveFrameDetector) -> ScanoutClass {
    px.withUnsafeBufferPointer {
      detector.observe(
        LumaImage(base: $0.baseAddress!, width: width, height: height, bytesPerRow: width), at: time)
    }
  }

  @Test(
    "a light board frame captured before the unlock is stale, even within the same millisecond; one captured at it is live (once a second board confirms it)",
    arguments: [1, 300_000, 999_000])
  func capturedBeforeUnlock(nanosecondsBefore: UInt64) throws {
    let unlock: UInt64 = 5_000_700_000  // 5000.7 ms: not on a millisecond boundary
    var detector = LiveFrameDetector()
    detector.arm(.unlock(since: unlock))
    let early = Self.observe(
      Self.board(capturedAt: unlock - nanosecondsBefore, sequence: 1), at: unlock + 8_000_000, &detector)
    #expect(early == .stale)
    #expect(detector.firstLiveFrame == nil)
    let atUnlock = Self.observe(
      Self.board(capturedAt: unlock, sequence: 2), at: unlock + 24_000_000, &detector)
    #expect(atUnlock == .waiting)  // one board alone is not confirmed
    let next = Self.observe(
      Self.board(capturedAt: unlock + 33_000_000, sequence: 3), at: unlock + 40_000_000, &detector)
    #expect(next == .firstLive)
    let first = try #require(detector.firstLiveFrame)
    #expect(first.method == .board)
    #expect(first.scanoutTime == unlock + 24_000_000)
  }

  @Test("the board carries the capture time to the microsecond")
  func microseconds() {
    let t: UInt64 = 123_456_789_123_456
    let px = Self.board(capturedAt: t, sequence: 5)
    let reading = px.withUnsafeBufferPointer {
      LightBoard.decode(
        LumaImage(base: $0.baseAddress!, width: Self.width, height: Self.height, bytesPerRow: Self.width))
    }
    #expect(reading == .board(captureTimeMicroseconds: t / 1000, barStep: 5))
  }
}

@Suite struct BoardTimeOrderTests {
  @Test("board times are ordered against the arm time to the microsecond, across the 2⁴⁸ µs wrap")
  func order() {
    let mask: UInt64 = (1 << 48) - 1
    #expect(LiveFrameDetector.captured(microseconds: 5_000_700, atOrAfter: 5_000_700_000))
    #expect(!LiveFrameDetector.captured(microseconds: 5_000_699, atOrAfter: 5_000_699_001))
    #expect(LiveFrameDetector.captured(microseconds: 5_000_700, atOrAfter: 5_000_699_001))
    #expect(!LiveFrameDetector.captured(microseconds: 4_000_000, atOrAfter: 5_000_000_000))
    let since = (mask + 1) * 1_000 - 500_000  // 0.5 ms before the board's time wraps
    #expect(LiveFrameDetector.captured(microseconds: 2_000, atOrAfter: since))  // 2.5 ms after
    #expect(!LiveFrameDetector.captured(microseconds: mask - 1_000, atOrAfter: since))  // 0.5 ms before
  }
}
