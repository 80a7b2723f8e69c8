/// How hard the system is pressed, mildest first (the levels of `AVCaptureDevice.SystemPressureState`).
public enum SystemPressureLevel: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
  /// No pressure worth acting on.
  case nominal
  /// Some pressure; capture is unaffected.
  case fair
  /// Capture quality or frame rate may suffer; reduce work (frame rate, analysis).
  case serious
  /// Capture is impaired; reduce work drastically.
  case critical
  /// The hardware is about to protect itself (thermal only); stop capturing.
  case shutdown

  private var rank: Int { SystemPressureLevel.allCases.firstIndex(of: self) ?? 0 }

  /// Milder levels sort first.
  public static func < (lhs: SystemPressureLevel, rhs: SystemPressureLevel) -> Bool { lhs.rank < rhs.rank }
}
