import CaptureKit

/// A static launch image, as apps show before their camera's first frame: a light striped
/// rectangle on a dark field. Not blank, never live: what change detection must not take for the
/// first live frame (camera-app `--splash`, and calibration's splash trial).
public enum SplashImage {
  /// The splash at `width`×`height` (sequence and capture time 0).
  public static func frame(width: Int, height: Int) -> VideoFrame {
    var pixels = [UInt8](repeating: 50, count: width * height)
    for y in height / 3..<2 * height / 3 {
      for x in width / 4..<3 * width / 4 { pixels[y * width + x] = y % 8 < 4 ? 210 : 180 }
    }
    return VideoFrame(width: width, height: height, pixels: pixels, sequence: 0, captureTime: 0)
  }
}
