/// A device control (`VIDIOC_QUERY_EXT_CTRL`): brightness, exposure, vivid's horizontal movement…
public struct V4L2Control: Sendable, Hashable, CustomStringConvertible {
  /// The control id (`V4L2_CID_BRIGHTNESS` = 0x00980900).
  public var id: UInt32
  /// The driver's name, e.g. `Horizontal Movement`.
  public var name: String
  /// The V4L2 control type (`V4L2_CTRL_TYPE_INTEGER` = 1, `…_BOOLEAN` = 2, `…_MENU` = 3, …).
  public var type: UInt32
  /// The lowest value.
  public var minimum: Int64
  /// The highest value.
  public var maximum: Int64
  /// The step between values.
  public var step: UInt64
  /// The default value.
  public var defaultValue: Int64
  /// `V4L2_CTRL_FLAG_*` bits (disabled, read-only, …).
  public var flags: UInt32

  /// Creates a control description.
  public init(
    id: UInt32, name: String, type: UInt32, minimum: Int64, maximum: Int64, step: UInt64,
    defaultValue: Int64, flags: UInt32
  ) {
    self.id = id
    self.name = name
    self.type = type
    self.minimum = minimum
    self.maximum = maximum
    self.step = step
    self.defaultValue = defaultValue
    self.flags = flags
  }

  /// Whether the value can be read and set with `VIDIOC_G_CTRL`/`VIDIOC_S_CTRL` (a plain
  /// integer, boolean, menu or button control that is neither disabled nor read-only).
  public var isSimpleWritable: Bool {
    [1, 2, 3, 4, 9].contains(type) && flags & 0x0001 == 0 && flags & 0x0004 == 0 && flags & 0x0100 == 0
  }

  /// `Horizontal Movement (0x00f0f002): 0...6, default 3`.
  public var description: String {
    let hex = String(id, radix: 16)
    return "\(name) (0x\(String(repeating: "0", count: max(0, 8 - hex.count)) + hex)): "
      + "\(minimum)...\(maximum), default \(defaultValue)"
  }
}
