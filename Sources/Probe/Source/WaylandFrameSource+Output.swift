import SystemCalls
import WaylandClient

extension WaylandFrameSource {
  /// The refresh interval of the output screencopy reads (the first `wl_output`): its current
  /// mode's refresh (mHz), or nil when the compositor gave none.
  static func outputRefresh(_ registry: WaylandRegistry) throws(WaylandError) -> UInt64? {
    let refresh = PThreadMutex<UInt64?>(nil)
    _ = try registry.bind("wl_output", version: 1) { event, _ throws(WaylandError) in
      guard event.opcode == 1 else { return }  // mode(flags, width, height, refresh mHz)
      let flags = try event.uint()
      _ = try event.uint()
      _ = try event.uint()
      let millihertz = try event.uint()
      if flags & 1 != 0, millihertz > 0 { refresh.withLock { $0 = 1_000_000_000_000 / UInt64(millihertz) } }
    }
    try registry.connection.roundtrip(timeoutMilliseconds: 2_000)
    return refresh.withLock { $0 }
  }
}
