import CXCBShims

extension X11Connection {
  /// Names `window` (`WM_NAME`, `_NET_WM_NAME`, `WM_CLASS`) and says which process owns it
  /// (`_NET_WM_PID`), as a desktop expects of every application window. The corresponding call
  /// is `xcb_change_property` (mode Replace).
  func setWindowProperties(_ window: UInt32, title: String, pid: Int32?) throws(X11Error) {
    let utf8String = try atom("UTF8_STRING")
    let netWMName = try atom("_NET_WM_NAME")
    let netWMPid = try atom("_NET_WM_PID")
    let titleBytes = Array(title.utf8)
    let wmClass = Array("firstframe\u{0}FirstFrame\u{0}".utf8)
    // Predefined atoms: WM_NAME 39, STRING 31, WM_CLASS 67, CARDINAL 6.
    _ = CXCBShims_changeProperty(raw, 0, window, 39, 31, 8, UInt32(titleBytes.count), titleBytes)
    _ = CXCBShims_changeProperty(
      raw, 0, window, netWMName, utf8String, 8, UInt32(titleBytes.count), titleBytes)
    _ = CXCBShims_changeProperty(raw, 0, window, 67, 31, 8, UInt32(wmClass.count), wmClass)
    if let pid {
      var owner = UInt32(bitPattern: pid)
      _ = CXCBShims_changeProperty(raw, 0, window, netWMPid, 6, 32, 1, &owner)
    }
  }

  /// The `_NET_WM_PID` of `window`, if it has one (`netWMPid` is the atom). The corresponding
  /// call is `xcb_get_property`.
  func processID(of window: UInt32, netWMPid: UInt32) -> Int32? {
    guard
      let reply = try? reply(CXCBShims_getProperty(raw, 0, window, netWMPid, 6, 0, 1), "xcb_get_property"),
      reply.u8(1) == 32, reply.u32(16) >= 1
    else { return nil }
    return Int32(bitPattern: reply.u32(32))
  }

  /// The children of `window`, bottom to top. The corresponding call is `xcb_query_tree`.
  func children(of window: UInt32) -> [UInt32] {
    guard let reply = try? reply(CXCBShims_queryTree(raw, window), "xcb_query_tree") else { return [] }
    let count = Int(reply.u16(16))
    return (0..<count).map { reply.u32(32 + 4 * $0) }
  }

  /// The size and depth of `drawable`. The corresponding call is `xcb_get_geometry`.
  func geometry(of drawable: UInt32) throws(X11Error) -> (width: Int, height: Int, depth: UInt8) {
    let reply = try reply(CXCBShims_getGeometry(raw, drawable), "xcb_get_geometry")
    return (Int(reply.u16(16)), Int(reply.u16(18)), reply.u8(1))
  }

  /// The visual of `window`, and whether it is viewable (mapped, with every ancestor mapped).
  /// The corresponding call is `xcb_get_window_attributes`.
  func attributes(of window: UInt32) throws(X11Error) -> (visual: UInt32, viewable: Bool) {
    let reply = try reply(CXCBShims_getWindowAttributes(raw, window), "xcb_get_window_attributes")
    return (reply.u32(8), reply.u8(26) == 2)
  }

  /// Where `window`'s origin is on the root window. The corresponding call is
  /// `xcb_translate_coordinates`.
  func rootPosition(of window: UInt32) throws(X11Error) -> (x: Int, y: Int) {
    let reply = try reply(
      CXCBShims_translateCoordinates(raw, window, screen.root, 0, 0), "xcb_translate_coordinates")
    return (Int(reply.i16(12)), Int(reply.i16(14)))
  }
}
