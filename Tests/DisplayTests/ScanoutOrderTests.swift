import CaptureKit
import SystemCalls
import Testing

@testable import Display

/// The order that makes the probe's error bound hold: a frame's present time is read before its
/// slot becomes visible, and the compositor latches the slot before it reads the scanout time, so
/// no scanout of a frame is ever stamped before the frame was presented.
@Suite struct ScanoutOrderTests {
  /// A 64×48 surface, the app's display on it, and the compositor's latch and buffer.
  final class Screen {
    let surface: DisplaySurface
    let display: SharedMemoryDisplay
    var latch: SurfaceLatch
    var pixels = [UInt8](repeating: 0, count: 64 * 48)

    init() throws {
      surface = try DisplaySurface.create(width: 64, height: 48)
      display = try SharedMemoryDisplay.open(name: surface.name)
      latch = SurfaceLatch(geometry: surface.geometry)
    }

    deinit {
      display.close()
      surface.close()
    }

    func frame(_ sequence: UInt64) -> VideoFrame {
      VideoFrame(
        width: 64, height: 48, pixels: [UInt8](repeating: UInt8(sequence % 200 + 20), count: 64 * 48),
        sequence: sequence, captureTime: sequence)
    }

    /// One compositor step with `clock` as its clock.
    func scan(clock: () -> UInt64) -> (outcome: SurfaceLatch.Outcome, time: UInt64)? {
      pixels.withUnsafeMutableBufferPointer { buffer in
        Compositor.scan(surface, latch: &latch, into: buffer.baseAddress!, clock: clock)
      }
    }
  }

  @Test("a frame published while the compositor reads its clock is never stamped before its present time")
  func latchThenStamp() throws {
    let screen = try Screen()
    for round in 0..<20 {
      // The worst moment for a present: right after the compositor's clock read.
      let step = screen.scan {
        let t = MonotonicClock.now()
        _ = screen.display.publish(screen.frame(UInt64(round + 1)))
        return t
      }
      let (outcome, time) = try #require(step)
      if case .latched(let info) = outcome {
        #expect(
          info.presentTime <= time, "round \(round): scanout stamped \(info.presentTime - time) ns early")
      }
    }
  }

  @Test("the present time a display returns is read before the frame can be latched")
  func presentStampBeforeVisible() throws {
    let screen = try Screen()
    let stamp = screen.display.presentStamped(screen.frame(7))
    let (outcome, time) = try #require(screen.scan(clock: MonotonicClock.now))
    guard case .latched(let info) = outcome else {
      Issue.record("the frame was not latched: \(outcome)")
      return
    }
    #expect(info.presentTime == stamp)
    #expect(stamp <= time)
  }
}
