import LaunchContract
import ResultsSchema
/// What identifies a cell across results files: configuration, condition and camera.
public struct CellKey: Sendable, Hashable, Codable, Comparable {
  /// e.g. `deferred`.
  public var config: String
  /// e.g. `cold`.
  public var condition: String
  /// e.g. `synthetic`.
  public var camera: String

  /// Creates a key.
  public init(config: String, condition: String, camera: String) {
    self.config = config
    self.condition = condition
    self.camera = camera
  }

  /// The key of `cell`.
  public init(_ cell: BenchResults.Cell) {
    self.init(config: cell.config, condition: cell.condition, camera: cell.camera)
  }

  /// `deferred/cold`, with `@camera` appended unless the camera is `synthetic`.
  public var name: String {
    camera == CameraSelection.synthetic.description
      ? "\(config)/\(condition)" : "\(config)/\(condition)@\(camera)"
  }

  /// The order people expect: conditions cold, warm, relock, loaded; configs deferred, eager,
  /// manual, preview-only; unknown names after, alphabetically.
  public static func < (l: CellKey, r: CellKey) -> Bool {
    if l.camera != r.camera { return l.camera < r.camera }
    let lc = rank(l.condition, in: conditionOrder)
    let rc = rank(r.condition, in: conditionOrder)
    if lc != rc { return lc < rc }
    if l.condition != r.condition { return l.condition < r.condition }
    let lg = rank(l.config, in: configOrder)
    let rg = rank(r.config, in: configOrder)
    if lg != rg { return lg < rg }
    return l.config < r.config
  }

  /// The canonical condition order.
  public static let conditionOrder = LaunchCondition.allCases.map(\.rawValue)
  /// The canonical configuration order.
  public static let configOrder = LaunchConfiguration.allCases.map(\.rawValue)

  static func rank(_ name: String, in order: [String]) -> Int { order.firstIndex(of: name) ?? order.count }
}
