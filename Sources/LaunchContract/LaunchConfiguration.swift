/// How the app wires its capture session: the configurations the benchmark compares.
/// Spelled as on the command line (`--config deferred|eager|manual|preview-only`).
public enum LaunchConfiguration: String, Sendable, Hashable, CaseIterable, Codable {
  /// Preview layer undeferred; photo, movie and analysis outputs deferred; automatic deferred start.
  case deferred
  /// Every output initialised before `startRunning()` returns (deferral off everywhere).
  case eager
  /// The app renders preview itself from a `VideoDataOutput` and calls
  /// `runDeferredStartWhenNeeded()` after its own first present (manual deferred start).
  case manual
  /// Only the preview output: the floor that deferred start approaches.
  case previewOnly = "preview-only"

  /// Parses a configuration name.
  /// - Throws: `LaunchContractError` listing the names there are.
  public init(parsing name: String) throws(LaunchContractError) {
    guard let c = LaunchConfiguration(rawValue: name) else {
      throw LaunchContractError(
        "unknown configuration '\(name)' (choose from \(Self.allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    self = c
  }

  /// The two configurations the main job compares: `deferred` and `eager`.
  public static let mainJob: [LaunchConfiguration] = [.deferred, .eager]
}
