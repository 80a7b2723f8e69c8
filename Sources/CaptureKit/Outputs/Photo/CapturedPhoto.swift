/// A delivered photo: luma pixels, when its moment was captured, and when it was asked for and delivered.
public struct CapturedPhoto: Sendable {
  /// The `PhotoSettings.uniqueID` of the request.
  public var settingsID: Int64
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The luma plane, `width * height` bytes, tightly packed.
  public var pixels: [UInt8]
  /// When the sensor captured the moment: `CLOCK_MONOTONIC`, ns.
  public var captureTime: UInt64
  /// When `capturePhoto` was called: `CLOCK_MONOTONIC`, ns.
  public var requestedAt: UInt64
  /// When the photo was handed to the completion: `CLOCK_MONOTONIC`, ns.
  public var deliveredAt: UInt64
  /// The request's metadata plus `sequence` (the frame number) and `source` (`ring` or `still`).
  public var metadata: [String: String]
  /// True when the moment came from the ring of streamed frames at request time (responsive
  /// capture), false when it was a still taken after the photo output was ready.
  public var wasResponsiveCapture: Bool

  /// Creates a photo.
  public init(
    settingsID: Int64, width: Int, height: Int, pixels: [UInt8], captureTime: UInt64, requestedAt: UInt64,
    deliveredAt: UInt64, metadata: [String: String], wasResponsiveCapture: Bool
  ) {
    self.settingsID = settingsID
    self.width = width
    self.height = height
    self.pixels = pixels
    self.captureTime = captureTime
    self.requestedAt = requestedAt
    self.deliveredAt = deliveredAt
    self.metadata = metadata
    self.wasResponsiveCapture = wasResponsiveCapture
  }
}
