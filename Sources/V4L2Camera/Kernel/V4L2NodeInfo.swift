/// What `stat(2)` says about a device node: enough to explain why it cannot be opened.
public struct V4L2NodeInfo: Sendable, Hashable {
  /// Whether the node is a character device (every V4L2 node is one).
  public var isCharacterDevice: Bool
  /// The owning user's id.
  public var ownerID: UInt32
  /// The owning group's id (usually the `video` group).
  public var groupID: UInt32
  /// The permission bits (`0o660` for `crw-rw----`).
  public var permissions: UInt32

  /// Creates node information.
  public init(isCharacterDevice: Bool, ownerID: UInt32 = 0, groupID: UInt32, permissions: UInt32) {
    self.isCharacterDevice = isCharacterDevice
    self.ownerID = ownerID
    self.groupID = groupID
    self.permissions = permissions
  }

  /// `rw-rw----` for the permission bits.
  public var permissionString: String {
    let bits: [(UInt32, Character)] = [
      (0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"), (0o010, "x"),
      (0o004, "r"), (0o002, "w"), (0o001, "x"),
    ]
    return String(bits.map { permissions & $0.0 != 0 ? $0.1 : "-" })
  }
}
