/// Which camera the app opens: `synthetic` or `v4l2:/dev/videoN`, spelled as on the command line
/// (`--camera`) and in results. This is the one place the syntax is parsed.
public enum CameraSelection: Sendable, Hashable, CustomStringConvertible {
  /// The embedded synthetic camera (the default).
  case synthetic
  /// A V4L2 device node.
  case v4l2(path: String)

  /// Parses `synthetic` or `v4l2:PATH`.
  /// - Throws: `LaunchContractError` saying what is accepted.
  public init(parsing text: String) throws(LaunchContractError) {
    if text == "synthetic" {
      self = .synthetic
    } else if text.hasPrefix("v4l2:"), text.count > 5 {
      self = .v4l2(path: String(text.dropFirst(5)))
    } else {
      throw LaunchContractError("unknown camera '\(text)' (use synthetic or v4l2:/dev/videoN)")
    }
  }

  /// `synthetic` or `v4l2:PATH`, as written on the command line and in results.
  public var description: String {
    switch self {
    case .synthetic: "synthetic"
    case .v4l2(let path): "v4l2:" + path
    }
  }

  /// The V4L2 device path, or nil for the synthetic camera.
  public var devicePath: String? {
    if case .v4l2(let path) = self { path } else { nil }
  }
}
