/// Which camera the app opens: `synthetic`, `v4l2:/dev/videoN`, or `pipewire:/dev/videoN` (the
/// same V4L2 node served to the app by a private PipeWire daemon bench starts), spelled as on the
/// command line (`--camera`) and in results. This is the one place the syntax is parsed.
public enum CameraSelection: Sendable, Hashable, CustomStringConvertible {
  /// The embedded synthetic camera (the default).
  case synthetic
  /// A V4L2 device node the app opens itself.
  case v4l2(path: String)
  /// A V4L2 device node served as a PipeWire camera node by bench's private PipeWire daemon: the
  /// app connects to the node, the daemon opens and streams the device.
  case pipewire(path: String)

  /// Parses `synthetic`, `v4l2:PATH` or `pipewire:PATH`.
  /// - Throws: `LaunchContractError` saying what is accepted.
  public init(parsing text: String) throws(LaunchContractError) {
    if text == "synthetic" {
      self = .synthetic
    } else if text.hasPrefix("v4l2:"), text.count > 5 {
      self = .v4l2(path: String(text.dropFirst(5)))
    } else if text.hasPrefix("pipewire:"), text.count > 9 {
      self = .pipewire(path: String(text.dropFirst(9)))
    } else {
      throw LaunchContractError(
        "unknown camera '\(text)' (use synthetic, v4l2:/dev/videoN or pipewire:/dev/videoN)")
    }
  }

  /// `synthetic`, `v4l2:PATH` or `pipewire:PATH`, as written on the command line and in results.
  public var description: String {
    switch self {
    case .synthetic: "synthetic"
    case .v4l2(let path): "v4l2:" + path
    case .pipewire(let path): "pipewire:" + path
    }
  }

  /// The V4L2 device node, whoever opens it (the app, or the PipeWire daemon); nil for the
  /// synthetic camera.
  public var devicePath: String? {
    switch self {
    case .synthetic: nil
    case .v4l2(let path), .pipewire(let path): path
    }
  }

  /// The node when the app opens it itself (`v4l2:`); nil for the synthetic camera and for a
  /// camera served through PipeWire.
  public var appOpenedDevicePath: String? {
    if case .v4l2(let path) = self { path } else { nil }
  }

  /// The name of the camera node bench's PipeWire daemon makes (`node.name`), which a client
  /// targets (`pipewiresrc target-object=firstframe.camera`; `{node}` in an app's command).
  public static let pipeWireNodeName = "firstframe.camera"

  /// Whether a PipeWire daemon serves the camera to the app.
  public var isServedByPipeWire: Bool {
    if case .pipewire = self { true } else { false }
  }
}
