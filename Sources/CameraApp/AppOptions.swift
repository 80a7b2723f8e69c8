import CaptureKit
import LaunchContract

/// camera-app's command line as typed values (docs/any-app-and-trace-protocol.md: `--config`, `--outputs`, `--camera`,
/// `--profile`, `--duration`, `--no-cover`); `CameraAppCommand` parses it from its option table.
public struct AppOptions: Sendable, Equatable {
  /// The launch configuration.
  public var configuration: LaunchConfiguration = .deferred
  /// The outputs besides preview (`preview` is always there; `video-data` replaces it in manual).
  public var outputs: [CaptureOutputKind] = [.preview, .photo, .movie]
  /// `synthetic` or `v4l2:/dev/videoN`.
  public var camera: CameraSelection = .synthetic
  /// A synthetic camera cost profile (JSON); nil means the built-in default profile.
  public var profilePath: String?
  /// Quit after this many seconds; nil runs until `quit`, EOF on the control channel, or a signal.
  public var durationSeconds: Double?
  /// Skip covering the preview with black on `lock`.
  public var noCover = false
  /// Show a static launch image (`SplashImage`) until the camera's first frame replaces it.
  public var splash = false
  /// Record a movie to this file (Y4M) once the movie output is ready.
  public var recordPath: String?
  /// Whether photos get responsive capture (default on, as the seeds recommend).
  public var responsiveCapture = true

  /// Creates the defaults.
  public init() {}
}
