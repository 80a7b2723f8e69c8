import LightBoard
import SystemCalls
import TestSupport
import WaylandClient

/// A screencopy reader of a test compositor's output, for checking what a preview shows there.
final class WaylandPreviewCapture {
  let connection: WaylandConnection
  let copy: WaylandScreencopy

  init(socket: String) throws {
    connection = try WaylandConnection(socket: socket)
    copy = try WaylandScreencopy(registry: try WaylandRegistry(connection: connection), withDamage: false)
  }

  deinit {
    copy.close()
    connection.close()
  }

  /// Copies the output until `accept` holds for a copy (true) or `seconds` pass (false).
  /// `accept` is given the copy's luma (the green byte of each XRGB pixel, rows top down).
  func waitForCopy(seconds: Int = 30, _ accept: (_ luma: [UInt8], _ width: Int, _ height: Int) -> Bool) throws
    -> Bool
  {
    let deadline = MonotonicClock.now() &+ UInt64(TestTime.scale) &* UInt64(seconds) &* 1_000_000_000
    while MonotonicClock.now() < deadline {
      guard let frame = try copy.nextFrame(waitingMilliseconds: 100) else { continue }
      var luma = [UInt8](repeating: 0, count: frame.width * frame.height)
      for y in 0..<frame.height {
        let row = frame.yInverted ? frame.height - 1 - y : y
        for x in 0..<frame.width { luma[y * frame.width + x] = frame.pixels[row * frame.stride + x * 4 + 1] }
      }
      if accept(luma, frame.width, frame.height) { return true }
    }
    return false
  }

  /// The light board in `luma` (`width`×`height`), if one decodes.
  static func board(_ luma: [UInt8], width: Int, height: Int) -> LightBoardReading {
    luma.withUnsafeBufferPointer { pixels in
      guard let base = pixels.baseAddress else { return .noBoard }
      return LightBoard.decode(LumaImage(base: base, width: width, height: height, bytesPerRow: width))
    }
  }
}
