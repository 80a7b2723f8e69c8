import CaptureKit
import CommandLineKit
import LaunchContract

/// camera-app's command line (DESIGN.md: `--config`, `--outputs`, `--camera`, `--profile`,
/// `--duration`, `--no-cover`), parsed from one option table so `--help` cannot drift.
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
  /// Record a movie to this file (Y4M) once the movie output is ready.
  public var recordPath: String?
  /// Whether photos get responsive capture (default on, as the seeds recommend).
  public var responsiveCapture = true
  /// Print help and exit.
  public var showHelp = false

  /// Creates the defaults.
  public init() {}

  /// The option table.
  public static let spec = CommandLineSpec(
    command: "camera-app",
    synopsis: "[options]",
    summary: """
      The reference camera app that FirstFrame benchmarks: it creates its preview surface first,
      configures and starts a CaptureKit session off the main thread, and reports every launch
      phase through the trace protocol (FIRSTFRAME_TRACE, FIRSTFRAME_DISPLAY, FIRSTFRAME_CONTROL,
      FIRSTFRAME_RUN; see README.md).
      """,
    options: [
      .value("--config", "NAME", "deferred, eager, manual or preview-only", default: "deferred"),
      .value(
        "--outputs", "LIST", "outputs to add: preview,photo,movie,analysis", default: "preview,photo,movie"),
      .value("--camera", "CAMERA", "synthetic or v4l2:/dev/videoN", default: "synthetic"),
      .value("--profile", "FILE", "synthetic camera cost profile (JSON)", default: "built-in default"),
      .value("--duration", "S", "quit after S seconds", default: "run until quit"),
      .flag("--no-cover", "do not cover the preview with black on lock"),
      .flag("--no-responsive-capture", "disable responsive capture on the photo output"),
      .value("--record", "FILE", "record a Y4M movie to FILE once the movie output is ready"),
    ],
    epilogue: """
      environment:
        FIRSTFRAME_TRACE          append phase events to this path, or fd:N
        FIRSTFRAME_DISPLAY        the shared-memory display surface to present into
        FIRSTFRAME_CONTROL        read commands (tap, lock, unlock, quit) from this path or fd:N
        FIRSTFRAME_RUN            the run id, copied into app.main
        FIRSTFRAME_INJECT_DELAY_MS  delay the start of preview by N ms (to check that a gate catches it)
      exit status: 0 ok, 1 the camera failed, 2 bad usage or input
      """)

  /// Parses `arguments` (without the program name).
  public static func parse(_ arguments: [String]) throws(UsageError) -> AppOptions {
    let parsed = try spec.parse(arguments)
    var o = AppOptions()
    if parsed.has("--help") {
      o.showHelp = true
      return o
    }
    if let extra = parsed.positional.first {
      throw UsageError("unexpected argument '\(extra)' (see camera-app --help)")
    }
    if let raw = parsed.value("--config") {
      do {
        o.configuration = try LaunchConfiguration(parsing: raw)
      } catch {
        throw UsageError(error.message)
      }
    }
    let names = try parsed.list(
      "--outputs", allowed: CaptureOutputKind.selectable.map(\.rawValue),
      default: o.outputs.map(\.rawValue))
    o.outputs = names.compactMap(CaptureOutputKind.init(rawValue:))
    if !o.outputs.contains(.preview) { o.outputs.insert(.preview, at: 0) }
    if let cam = parsed.value("--camera") {
      do {
        o.camera = try CameraSelection(parsing: cam)
      } catch {
        throw UsageError(error.message)
      }
    }
    o.profilePath = parsed.value("--profile")
    if parsed.value("--duration") != nil {
      o.durationSeconds = try parsed.double("--duration", default: 0)
    }
    o.noCover = parsed.has("--no-cover")
    o.responsiveCapture = !parsed.has("--no-responsive-capture")
    o.recordPath = parsed.value("--record")
    return o
  }
}
