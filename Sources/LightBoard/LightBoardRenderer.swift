// PLACEHOLDER until the light board lands (issue 2): fills mid-grey.
enum LightBoardRenderer {
  static func render(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    for y in 0..<height { (pixels + y * bytesPerRow).update(repeating: 128, count: width) }
  }
}
