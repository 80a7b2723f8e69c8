import CommandLineKit
import LaunchContract

/// camera-app's command line as a ``Command``: the option table (parser and `--help`), parsed
/// into ``AppOptions``; executing it launches the app, which never returns.
package enum CameraAppCommand: Command {
  /// The defaults, stated once (in `AppOptions`).
  private static let defaults = AppOptions()

  static let config = Option(
    "--config", "NAME", "deferred, eager, manual or preview-only", default: defaults.configuration,
    parser: .converting(describe: { $0.rawValue }, LaunchConfiguration.init(parsing:)))
  static let outputs = Option(
    "--outputs", "LIST", "outputs to add: preview,photo,movie,analysis", default: defaults.outputs,
    parser: .list(of: CaptureOutputKind.selectable))
  static let camera = Option(
    "--camera", "CAMERA", "synthetic or v4l2:/dev/videoN", default: defaults.camera,
    parser: .converting(CameraSelection.init(parsing:)))
  static let profile = Option<String?>(
    "--profile", "FILE", "synthetic camera cost profile (JSON)", shownAs: "built-in default",
    parser: .fileName)
  // A day: the run loop's timer takes any of these (seconds × 1e9 fits its Int64 nanoseconds).
  static let duration = Option<Double?>(
    "--duration", "S", "quit after S seconds", shownAs: "run until quit",
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 86_400)))
  static let noCover = Flag("--no-cover", "do not cover the preview with black on lock")
  static let splash = Flag("--splash", "show a static launch image until the camera's first frame")
  static let noResponsiveCapture = Flag(
    "--no-responsive-capture", "disable responsive capture on the photo output")
  static let record = Option<String?>(
    "--record", "FILE", "record a Y4M movie to FILE once the movie output is ready", parser: .fileName)

  /// The option table.
  package static let spec = CommandLineSpec(
    command: "camera-app",
    synopsis: "[options]",
    summary: """
      The reference camera app that FirstFrame benchmarks: it creates its preview surface first,
      configures and starts a CaptureKit session off the main thread, and reports every launch
      phase through the trace protocol (FIRSTFRAME_TRACE, FIRSTFRAME_DISPLAY, FIRSTFRAME_CONTROL,
      FIRSTFRAME_RUN; see README.md).
      """,
    options: [config, outputs, camera, profile, duration, noCover, splash, noResponsiveCapture, record],
    epilogue: """
      environment:
        FIRSTFRAME_TRACE          append phase events to this path, or fd:N
        FIRSTFRAME_DISPLAY        where to present: fd:N (an inherited surface), a shared-memory name, x11:NAME,
                                  or wayland:/PATH (a compositor's socket); unset: a window on WAYLAND_DISPLAY's
                                  compositor if set, else on DISPLAY's X server if set, else a private surface
        FIRSTFRAME_CONTROL        read commands (tap, lock, unlock, quit) from this path or fd:N
        FIRSTFRAME_RUN            the run id, copied into app.main
        FIRSTFRAME_INJECT_DELAY_MS  delay the start of preview by N ms (to check that a gate catches it)
      exit status: 0 ok, 1 the camera failed, 2 bad usage or input
      """)

  /// Checks the command line: no arguments, known names, numbers in their bounds.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> AppOptions {
    try parsed.expectNoArguments()
    var o = AppOptions()
    o.configuration = try parsed.value(config)
    o.outputs = try parsed.value(outputs)
    if !o.outputs.contains(.preview) { o.outputs.insert(.preview, at: 0) }
    o.camera = try parsed.value(camera)
    o.profilePath = try parsed.value(profile)
    o.durationSeconds = try parsed.value(duration)
    o.noCover = parsed.isSet(noCover)
    o.splash = parsed.isSet(splash)
    o.responsiveCapture = !parsed.isSet(noResponsiveCapture)
    o.recordPath = try parsed.value(record)
    return o
  }

  /// Launches the app (``CameraApp/launch(_:)``); never returns.
  package static func execute(
    _ options: AppOptions, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    CameraApp.launch(options)
  }
}
