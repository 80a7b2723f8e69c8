import CXCBShims
import Synchronization
import SystemCalls

/// A connection to an X server through XCB (loaded at run time, `X11Library`): the setup the
/// server sent, requests with their errors checked, replies, events, and a round trip.
///
/// Requests are sent by the functions in `CXCBShims` (one per XCB call); this type turns their
/// failures into `X11Error`s that name the request.
package final class X11Connection: @unchecked Sendable {
  // @unchecked: XCB serialises every use of one connection under its own lock (libxcb's
  // iolock), so the connection may be used from any thread; `raw` and `setup` never change, and
  // `disconnect()` runs once, guarded by `closed` (a Mutex).

  /// The display as it was asked for (`:1`), or `$DISPLAY` when none was given.
  package let displayName: String
  /// What the server sent at connection setup.
  package let setup: X11Setup
  /// The screen the display name selects (`:1.0` is 0).
  package let screenNumber: Int
  let raw: OpaquePointer
  private let closed = PThreadMutex(false)

  /// Loads `libraries` and connects to `display` (nil: `$DISPLAY`). Without `authorization`,
  /// XCB reads `$XAUTHORITY` (or `~/.Xauthority`) as every X client does. The corresponding
  /// calls are `xcb_connect` / `xcb_connect_to_display_with_auth_info` and `xcb_get_setup`.
  /// - Throws: `X11Error` `.libraryMissing` (with the package to install) or `.cannotConnect`.
  package init(display: String?, authorization: X11Authorization? = nil, libraries: [X11Library])
    throws(X11Error)
  {
    try X11Library.load(libraries)
    var screen: Int32 = 0
    let connection: OpaquePointer?
    // XCB reports only "connection error"; the errno its failed connect, read or write left says
    // which (ECONNREFUSED, EAGAIN, EINTR, ECONNRESET …).
    Errno.clear()
    if let authorization {
      connection = authorization.name.withCString { name in
        authorization.data.withUnsafeBufferPointer { data in
          data.baseAddress!.withMemoryRebound(to: CChar.self, capacity: data.count) { bytes in
            CXCBShims_connectWithAuth(
              display, name, Int32(authorization.name.utf8.count), bytes, Int32(data.count), &screen)
          }
        }
      }
    } else {
      connection = CXCBShims_connect(display, &screen)
    }
    let shown = display ?? LibcEnvironment.value("DISPLAY").map { "$DISPLAY (\($0))" } ?? "$DISPLAY (unset)"
    guard let connection else {
      throw X11Error(
        .cannotConnect, "cannot connect to the X display \(shown): out of memory", call: "xcb_connect")
    }
    let code = CXCBShims_connectionError(connection)
    guard code == 0 else {
      let cause = Errno.current
      CXCBShims_disconnect(connection)
      let detail = cause.rawValue == 0 ? "" : " (\(cause.name): \(cause.message))"
      throw X11Error(
        .cannotConnect,
        "cannot connect to the X display \(shown): \(Self.describeConnectionError(code))\(detail)",
        call: "xcb_connect", errno: cause.rawValue == 0 ? nil : cause)
    }
    self.raw = connection
    self.displayName = display ?? LibcEnvironment.value("DISPLAY") ?? ""
    self.screenNumber = Int(screen)
    self.setup = X11Setup(wire: CXCBShims_setup(connection))
    guard setup.screens.indices.contains(Int(screen)) else {
      CXCBShims_disconnect(connection)
      throw X11Error(.cannotConnect, "the X display \(shown) has no screen \(screen)", call: "xcb_connect")
    }
  }

  /// What `xcb_connection_has_error`'s code means, for a person.
  static func describeConnectionError(_ code: Int32) -> String {
    switch code {
    case 1:
      "no X server answers there, or it refused this client (is it running? is the name right? the authorization?)"
    case 2: "the server lacks an extension this client needs"
    case 3: "out of memory"
    case 4: "a request was longer than the server accepts"
    case 5: "the display name does not parse (use :N, or HOST:N)"
    case 6: "the server has no such screen"
    case 7: "passing a file descriptor to the server failed"
    default: "XCB connection error \(code)"
    }
  }

  /// The screen the display name selects.
  package var screen: X11Setup.Screen { setup.screens[screenNumber] }

  /// The connection's socket, to `poll` for events. The corresponding call is `xcb_get_file_descriptor`.
  package var fileDescriptor: Int32 { CXCBShims_fileDescriptor(raw) }

  /// Why the connection broke, or nil while it works. The corresponding call is
  /// `xcb_connection_has_error`.
  package var failure: X11Error? {
    let code = CXCBShims_connectionError(raw)
    guard code != 0 else { return nil }
    return X11Error(
      .connectionLost,
      "the X display \(displayName) closed the connection: \(Self.describeConnectionError(code))",
      call: "xcb_connection_has_error")
  }

  /// A new resource id (window, GC, DAMAGE, segment). The corresponding call is `xcb_generate_id`.
  package func generateID() throws(X11Error) -> UInt32 {
    let id = CXCBShims_generateID(raw)
    guard id != UInt32.max else { throw failure ?? lost("xcb_generate_id") }
    return id
  }

  /// Sends what is buffered. The corresponding call is `xcb_flush`.
  package func flush() throws(X11Error) {
    guard CXCBShims_flush(raw) > 0 else { throw failure ?? lost("xcb_flush") }
  }

  /// Waits until the server has handled every request sent so far: `GetInputFocus` and its
  /// reply (the cheapest round trip).
  package func roundTrip() throws(X11Error) {
    _ = try reply(CXCBShims_getInputFocus(raw), "xcb_get_input_focus")
  }

  /// The reply to `cookie`, or the request's error. The corresponding call is `xcb_wait_for_reply`.
  func reply(_ cookie: CXCBShims_Cookie, _ request: String) throws(X11Error) -> X11Reply {
    var error: UnsafeMutableRawPointer?
    if let reply = CXCBShims_waitForReply(raw, cookie, &error) { return X11Reply(reply: reply) }
    if let error { throw requestError(X11Reply(fixed: error), request) }
    throw failure ?? lost(request)
  }

  /// Waits for a checked request and throws its error, if any. The corresponding call is
  /// `xcb_request_check`.
  func check(_ cookie: CXCBShims_Cookie, _ request: String) throws(X11Error) {
    if let error = CXCBShims_requestCheck(raw, cookie) { throw requestError(X11Reply(fixed: error), request) }
    if let failure { throw failure }
  }

  func requestError(_ error: X11Reply, _ request: String) -> X11Error {
    let code = error.u8(1)
    return X11Error(
      .requestFailed, "the X server refused \(request): \(Self.errorName(code))", call: request,
      xErrorCode: code)
  }

  func lost(_ call: String) -> X11Error {
    X11Error(.connectionLost, "the X display \(displayName) closed the connection", call: call)
  }

  /// The X protocol's name for error `code` (`BadMatch`).
  package static func errorName(_ code: UInt8) -> String {
    let names = [
      "Success", "BadRequest", "BadValue", "BadWindow", "BadPixmap", "BadAtom", "BadCursor", "BadFont",
      "BadMatch", "BadDrawable", "BadAccess", "BadAlloc", "BadColor", "BadGC", "BadIDChoice", "BadName",
      "BadLength", "BadImplementation",
    ]
    return Int(code) < names.count ? names[Int(code)] : "error \(code)"
  }

  /// The atom called `name` (created if it does not exist). The corresponding call is
  /// `xcb_intern_atom`.
  package func atom(_ name: String) throws(X11Error) -> UInt32 {
    let cookie = name.withCString { CXCBShims_internAtom(raw, 0, UInt16(name.utf8.count), $0) }
    return try reply(cookie, "xcb_intern_atom").u32(8)
  }

  /// The next event or unchecked error, if one has arrived (never blocks). The corresponding call
  /// is `xcb_poll_for_event`.
  func nextEvent(damageFirstEvent: UInt8?) -> X11Event? {
    guard let raw = CXCBShims_pollForEvent(raw) else { return nil }
    defer { CXCBShims_free(raw) }
    return X11Event(wire: raw, damageFirstEvent: damageFirstEvent)
  }

  /// Every event that has arrived (never blocks).
  package func pendingEvents() -> [X11Event] {
    var events: [X11Event] = []
    while let event = nextEvent(damageFirstEvent: nil) { events.append(event) }
    return events
  }

  /// Whether the server has extension `CXCBShims_Extension…`, with its first event code.
  func extensionInfo(_ which: Int32) -> (present: Bool, firstEvent: UInt8) {
    guard let data = CXCBShims_extensionData(raw, which) else { return (false, 0) }
    let w = WireBytes(data, count: 12)
    return (w.u8(8) != 0, w.u8(10))
  }

  /// Closes the connection (the server then destroys its windows). Safe to call more than once.
  /// The corresponding call is `xcb_disconnect`.
  package func disconnect() {
    let first = closed.withLock { c -> Bool in
      defer { c = true }
      return !c
    }
    if first { CXCBShims_disconnect(raw) }
  }

  deinit { disconnect() }
}
