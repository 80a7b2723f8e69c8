import RunAnalysis

/// One phase of one cell compared between two results files ("B vs A": B is new, A the reference).
public struct PhaseComparison: Sendable, Hashable, Codable {
  /// The phase, e.g. `first_frame_observed`.
  public var phase: String
  /// The configuration, e.g. `deferred`.
  public var config: String
  /// The condition, e.g. `cold`.
  public var condition: String
  /// The camera, e.g. `synthetic`.
  public var camera: String
  /// The numbers: ratio median(B)/median(A), CI, p, verdict for B relative to A.
  public var result: SampleComparison

  /// Creates a comparison.
  public init(phase: String, config: String, condition: String, camera: String, result: SampleComparison) {
    self.phase = phase
    self.config = config
    self.condition = condition
    self.camera = camera
    self.result = result
  }

  /// `deferred/cold` (plus the camera when it is not `synthetic`).
  public var cellName: String { CellKey(config: config, condition: condition, camera: camera).name }
}
