import CaptureKit
import Display
import Probe
import X11Display

/// What calibration presents known frames through: an app's side of a display path, returning
/// the ground-truth present time of each frame (`CLOCK_MONOTONIC` ns, read just before the frame
/// could become visible), or nil once the display is gone.
protocol CalibrationPresenter {
  /// Presents `frame`.
  @discardableResult func publish(_ frame: VideoFrame) -> UInt64?
  /// Presents black (the lock cover).
  @discardableResult func publishBlack() -> UInt64?
}

extension SharedMemoryDisplay: CalibrationPresenter {}
extension X11Presenter: CalibrationPresenter {}

/// A 64-bit digest of an image's bytes (FNV-1a over 8-byte words): the X11 path's ground truth
/// names the frame the probe saw by matching its pixels with what was presented.
enum ImageDigest {
  static func of(_ pixels: [UInt8]) -> UInt64 {
    pixels.withUnsafeBytes { raw in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      let words = raw.count / 8
      for i in 0..<words {
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) &* 0x100_0000_01b3
      }
      for i in (8 * words)..<raw.count { hash = (hash ^ UInt64(raw[i])) &* 0x100_0000_01b3 }
      return hash
    }
  }

  /// The digests of `pixels` (`width`×`height`, rows packed) as a reader that takes one pixel in
  /// `scale` each way would see it, from each of the `scale`² phases: pixel (x, y) of phase
  /// (px, py) is (`scale`·x + px, `scale`·y + py), the image `width / scale` × `height / scale`.
  /// One digest, of `pixels` itself, at `scale` 1.
  static func subsampled(_ pixels: [UInt8], width: Int, height: Int, scale: Int) -> [UInt64] {
    guard scale > 1 else { return [of(pixels)] }
    let w = width / scale
    let h = height / scale
    var image = [UInt8](repeating: 0, count: w * h)
    var digests: [UInt64] = []
    for py in 0..<scale {
      for px in 0..<scale {
        for y in 0..<h {
          for x in 0..<w { image[y * w + x] = pixels[(scale * y + py) * width + scale * x + px] }
        }
        digests.append(of(image))
      }
    }
    return digests
  }
}
