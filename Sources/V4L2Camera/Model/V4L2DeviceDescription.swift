/// What `V4L2Camera.enumerate()` reports about one `/dev/video*` node.
public struct V4L2DeviceDescription: Sendable, Hashable {
  /// The node, e.g. `/dev/video0`.
  public var path: String
  /// The driver's card name (`v4l2_capability.card`), empty when the node could not be opened.
  public var card: String
  /// The driver name (`uvcvideo`, `vivid`).
  public var driver: String
  /// The bus (`usb-0000:00:14.0-1`, `platform:vivid-000`).
  public var bus: String
  /// Whether the node captures video and streams (video capture + streaming capabilities).
  public var isCaptureDevice: Bool
  /// The pixel formats, with sizes and rates (empty when the node could not be opened).
  public var formats: [V4L2PixelFormat]
  /// Whether this user may open the node.
  public var mayOpen: Bool
  /// Why not (one line from ``V4L2Error``), or `nil` when it may be opened.
  public var problem: String?

  /// Creates a description.
  public init(
    path: String, card: String = "", driver: String = "", bus: String = "", isCaptureDevice: Bool = false,
    formats: [V4L2PixelFormat] = [], mayOpen: Bool, problem: String? = nil
  ) {
    self.path = path
    self.card = card
    self.driver = driver
    self.bus = bus
    self.isCaptureDevice = isCaptureDevice
    self.formats = formats
    self.mayOpen = mayOpen
    self.problem = problem
  }
}
