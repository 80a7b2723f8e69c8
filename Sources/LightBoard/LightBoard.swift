// API contract shared by SyntheticCamera (renders) and Probe (decodes).

/// What the decoder found in an image.
public enum LightBoardReading: Sendable, Hashable {
  /// A board whose check code matched: the frame's capture time (`CLOCK_MONOTONIC`, whole
  /// microseconds, i.e. capture time in ns divided by 1,000 and truncated, modulo 2⁴⁸ µs ≈ 8.9
  /// years) and the bar's step
  /// (sequence mod ``LightBoardLayout/barPeriod``).
  case board(captureTimeMicroseconds: UInt64, barStep: Int)
  /// No board, or a board whose check code did not match. Never a wrong time.
  case noBoard
}

/// Draws the light board into a luma image and reads it back.
///
/// The layout (where the bar and the code blocks are, relative to the image size) is documented
/// on ``LightBoardLayout``; the probe can use ``layout(width:height:)`` to look at the bar or the
/// band directly. A board scaled by any factor (e.g. a 1280×720 frame shown at 640×360) decodes
/// with the layout of the scaled size, and one scaled to fit a window of another shape, between
/// uniform dark bars (black, or a compositor's grey around a smaller client), is found inside
/// them. To decode a board shown inside a bigger surface, pass a
/// ``LumaImage`` whose `base` points at the board's top-left pixel and whose `bytesPerRow` is the surface's.
public enum LightBoard {
  /// Renders the board for a frame captured at `captureTime` (`CLOCK_MONOTONIC`, ns) with stream
  /// number `sequence` into `pixels` (row-major, `bytesPerRow * height` bytes): a background scene,
  /// a bar in slot `sequence mod 32`, and a band of blocks encoding the capture time in whole µs
  /// (48 bits) with a CRC-16. Images smaller than ``LightBoardLayout/minimumWidth`` ×
  /// ``LightBoardLayout/minimumHeight`` get the scene only.
  public static func render(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    LightBoardRenderer.render(
      captureTime: captureTime, sequence: sequence, width: width, height: height,
      bytesPerRow: bytesPerRow, into: pixels)
  }

  /// Draws only what changes from frame to frame (the bar track, the bar and the code band) over
  /// `pixels`, which already holds this size's scene: from ``renderScene(width:height:bytesPerRow:into:)``
  /// or an earlier ``render(captureTime:sequence:width:height:bytesPerRow:into:)``. The result is
  /// what `render` would draw, at a small part of its cost (a writer that keeps its image from
  /// frame to frame, such as the light-board feeder, draws the scene once).
  public static func renderBoard(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    LightBoardRenderer.renderBoard(
      captureTime: captureTime, sequence: sequence, width: width, height: height,
      bytesPerRow: bytesPerRow, into: pixels)
  }

  /// Renders the background scene alone, without bar or code: a board-less image that must
  /// decode to ``LightBoardReading/noBoard`` (for tests and calibration).
  public static func renderScene(
    width: Int, height: Int, bytesPerRow: Int, into pixels: UnsafeMutablePointer<UInt8>
  ) {
    LightBoardRenderer.renderScene(width: width, height: height, bytesPerRow: bytesPerRow, into: pixels)
  }

  /// Decodes the board in `image`, if there is one. Cheap enough to call on every scanout:
  /// about 350 pixel reads and no allocation.
  public static func decode(_ image: LumaImage) -> LightBoardReading {
    LightBoardDecoder.decode(image)
  }

  /// Where the bar slots and code blocks are in a `width × height` image.
  public static func layout(width: Int, height: Int) -> LightBoardLayout {
    LightBoardLayout(width: width, height: height)
  }
}
