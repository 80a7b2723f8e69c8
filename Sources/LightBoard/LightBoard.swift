// API contract shared by SyntheticCamera (renders) and Probe (decodes). The implementation
// (issue 2) fills these in; keep the signatures.

/// What the decoder found in an image.
public enum LightBoardReading: Sendable, Hashable {
  /// A board whose check code matched: the frame's capture time (`CLOCK_MONOTONIC`, whole
  /// milliseconds as encoded, converted back to nanoseconds) and the bar's step (sequence mod the bar's period).
  case board(captureTimeMilliseconds: UInt64, barStep: Int)
  /// No board, or a board whose check code did not match. Never a wrong time.
  case noBoard
}

/// Draws the light board into a luma image and reads it back.
public enum LightBoard {
  /// Renders the board for a frame captured at `captureTime` (CLOCK_MONOTONIC ns) with stream
  /// number `sequence` into `pixels` (row-major, `bytesPerRow * height` bytes): a background scene,
  /// a bar that moves one step per frame, and a row of blocks encoding the capture time in ms with a check code.
  public static func render(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    LightBoardRenderer.render(
      captureTime: captureTime, sequence: sequence, width: width, height: height,
      bytesPerRow: bytesPerRow, into: pixels)
  }

  /// Decodes the board in `image`, if there is one.
  public static func decode(_ image: LumaImage) -> LightBoardReading {
    LightBoardDecoder.decode(image)
  }
}
