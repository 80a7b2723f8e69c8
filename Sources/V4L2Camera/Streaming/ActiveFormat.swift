/// The negotiated format, as the driver confirmed it (`VIDIOC_S_FMT`, `VIDIOC_G_PARM`).
struct ActiveFormat: Sendable, Hashable {
  /// The streamed pixel format's code and text.
  var pixelFormat: UInt32
  var fourCC: String
  /// Size in pixels.
  var width: Int
  var height: Int
  /// Bytes per row of the (first) plane.
  var bytesPerLine: Int
  /// Bytes per buffer.
  var sizeImage: Int
  /// The rate the driver confirmed, frames per second (`nil` when it cannot set one).
  var frameRate: Double?
  /// Where luma sits.
  var layout: LumaLayout
}
