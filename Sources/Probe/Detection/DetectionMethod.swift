/// How the probe recognised the first live frame.
public enum DetectionMethod: String, Sendable, Hashable, Codable {
  /// The light board's capture time was at or after the arm time, and not after its scanout;
  /// a second board at the camera's cadence confirmed it.
  case board
  /// No board: the first of a run of changing scanouts at the camera's cadence, none of them
  /// similar to the pre-arm content (see `LiveFrameDetector`).
  case change
}
