/// How the app wires its capture session: the configurations the benchmark compares.
/// Spelled as on the command line (`--config deferred|eager|manual|preview-only`).
public enum LaunchConfiguration: String, Sendable, CaseIterable {
  /// Preview layer undeferred; photo, movie and analysis outputs deferred; automatic deferred start.
  case deferred
  /// Every output initialised before `startRunning()` returns (deferral off everywhere).
  case eager
  /// The app renders preview itself from a `VideoDataOutput` and calls
  /// `runDeferredStartWhenNeeded()` after its own first present (manual deferred start).
  case manual
  /// Only the preview output: the floor that deferred start approaches.
  case previewOnly = "preview-only"
}
