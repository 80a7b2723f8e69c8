/// The photo output's device-side set-up: the full-resolution size and a preallocated luma
/// destination (`width * height` bytes, pages touched), so a capture does not allocate.
struct StillSetup: Sendable {
  /// The largest size of the streaming pixel format, in pixels.
  var width: Int
  var height: Int
  /// The pixel format stills are taken in.
  var fourCC: String
  /// Where the still's luma is written.
  var luma: [UInt8]
}
