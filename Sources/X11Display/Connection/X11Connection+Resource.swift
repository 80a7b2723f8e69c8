import CXCBShims

extension X11Connection {
  /// The X-Resource version whose `QueryClientIds` this client speaks (1.2).
  static let clientIdsVersion = (major: UInt8(1), minor: UInt8(2))
  /// `XRES_CLIENT_ID_PID_MASK`: the process id of a client, in a `QueryClientIds` spec or value.
  static let processIDMask: UInt32 = 2

  /// Whether the server speaks X-Resource 1.2 or later, and so can say which process owns a
  /// window (``clientProcessID(of:)``). Xvfb, Xorg and Xwayland do. The corresponding calls are
  /// `xcb_get_extension_data` for "X-Resource" and its `QueryVersion`.
  func hasClientIds() -> Bool {
    guard extensionInfo(Int32(CXCBShims_ExtensionResource)).present,
      let reply = try? reply(
        CXCBShims_resQueryVersion(raw, Self.clientIdsVersion.major, Self.clientIdsVersion.minor),
        "X-Resource QueryVersion")
    else { return false }
    let (major, minor) = (reply.u16(8), reply.u16(10))
    return major > 1 || (major == 1 && minor >= UInt16(Self.clientIdsVersion.minor))
  }

  /// The process id of the client that owns `resource` (a window), as the server knows it from
  /// the client's socket — nothing the client says about itself. Nil when the server does not
  /// know it (a client over TCP), when the resource is gone, or without X-Resource. The
  /// corresponding call is X-Resource 1.2's `QueryClientIds` with `XRES_CLIENT_ID_PID_MASK`.
  func clientProcessID(of resource: UInt32) -> Int32? {
    guard
      let reply = try? reply(
        CXCBShims_resQueryClientIds(raw, resource, Self.processIDMask), "X-Resource QueryClientIds")
    else { return nil }
    return reply.withBytes(from: 0) { base, count in
      Self.processID(inClientIdsReply: WireBytes(base, count: count))
    }
  }

  /// The process id in a `QueryClientIds` reply: the first value whose mask is
  /// `XRES_CLIENT_ID_PID_MASK` and which holds a CARD32, or nil. The reply is read within its
  /// bounds whatever its counts say: `num_ids` at byte 8, then from byte 32 each value as its
  /// spec (client, mask), its length in bytes, then that many bytes.
  static func processID(inClientIdsReply reply: WireBytes) -> Int32? {
    guard reply.count >= 32 else { return nil }
    var offset = 32
    for _ in 0..<reply.u32(8) {
      guard offset + 12 <= reply.count else { return nil }
      let mask = reply.u32(offset + 4)
      let length = Int(reply.u32(offset + 8))
      guard length <= reply.count - offset - 12 else { return nil }
      if mask == processIDMask, length >= 4 { return Int32(bitPattern: reply.u32(offset + 12)) }
      offset += 12 + WireBytes.padded(length)
    }
    return nil
  }
}
