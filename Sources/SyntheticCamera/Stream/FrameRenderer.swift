import CaptureKit
import LightBoard

/// Makes one frame: the light board at the frame's size and capture time, plus sensor noise.
enum FrameRenderer {
  static func frame(width: Int, height: Int, captureTime: UInt64, sequence: UInt64, noise: SensorNoise?)
    -> VideoFrame
  {
    let count = width * height
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      let base = buffer.baseAddress!
      LightBoard.render(
        captureTime: captureTime, sequence: sequence, width: width, height: height, bytesPerRow: width,
        into: base)
      noise?.apply(to: base, width: width, height: height, bytesPerRow: width, seed: sequence)
      initialized = count
    }
    return VideoFrame(
      width: width, height: height, bytesPerRow: width, pixels: pixels, sequence: sequence,
      captureTime: captureTime)
  }
}
