/// How the probe recognised the first live frame.
public enum DetectionMethod: String, Sendable, Hashable, Codable {
  /// The light board's capture time was at or after the arm time.
  case board
  /// No board: the image changed significantly and is not the pre-arm content.
  case change
}
