import LightBoard
import Testing

@testable import Probe

/// What the probe read since it was armed (issue 40 item 5), as a run with no live frame reports
/// it: images read, blank ones, changes from the image before and when the last came.
@Suite struct ProbeWatchTests {
  static let width = 64
  static let height = 48

  /// A uniform image of `level`, or one with a bright square at `x` when given.
  static func image(_ level: UInt8, squareAt x: Int? = nil) -> [UInt8] {
    var px = [UInt8](repeating: level, count: width * height)
    if let x {
      for row in 10..<30 { for col in x..<(x + 20) { px[row * width + col] = 230 } }
    }
    return px
  }

  static func observe(_ px: [UInt8], at time: UInt64, _ detector: inout LiveFrameDetector) {
    px.withUnsafeBufferPointer {
      _ = detector.observe(
        LumaImage(base: $0.baseAddress!, width: width, height: height, bytesPerRow: width), at: time)
    }
  }

  @Test("blank reads, then a picture that changes twice: counted from the arm, the last change's time kept")
  func counts() {
    var detector = LiveFrameDetector()
    Self.observe(Self.image(0), at: 500_000_000, &detector)  // before the arm: not counted
    detector.arm(.launch(since: 1_000_000_000))
    for i in 0..<4 { Self.observe(Self.image(0), at: 1_000_000_000 + UInt64(i) * 16_000_000, &detector) }
    #expect(detector.watch.reads == 4 && detector.watch.blank == 4 && detector.watch.changes == 0)
    #expect(detector.watch.summary(since: 1_000_000_000).contains("all blank, none changed"))
    Self.observe(Self.image(40, squareAt: 5), at: 1_100_000_000, &detector)
    Self.observe(Self.image(40, squareAt: 5), at: 1_116_000_000, &detector)
    Self.observe(Self.image(40, squareAt: 30), at: 1_250_500_000, &detector)
    let watch = detector.watch
    #expect(watch.reads == 7 && watch.blank == 4 && watch.changes == 2)
    #expect(watch.lastChange == 1_250_500_000)
    #expect((watch.width, watch.height) == (Self.width, Self.height))
    #expect(
      watch.summary(since: 1_000_000_000)
        == "7 images read since the launch (64×48): 4 blank, 2 changed from the one before, the last 250.5 ms after the launch"
    )
    // A new arm starts a new count.
    detector.arm(.launch(since: 2_000_000_000))
    #expect(detector.watch == ProbeWatch())
    #expect(detector.watch.summary(since: 2_000_000_000) == "no image read since the launch")
  }
}
