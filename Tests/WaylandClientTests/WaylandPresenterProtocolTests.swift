#if canImport(Glibc)
  import Glibc
#endif
import Synchronization
import SystemCalls
import TestSupport
import Testing
import WaylandClient

/// The preview window's side of the protocol, against a fake compositor that sends what sway
/// rarely does on its own: pings, configures after the first, a protocol error.
@Suite("The preview window's protocol, against a fake compositor", .timeLimit(.minutes(TestTime.minutes(10))))
struct WaylandPresenterProtocolTests {
  /// What the fake compositor saw and which objects the client made.
  final class Session {
    let compositor: FakeCompositor
    var ids: [String: UInt32] = [:]
    var pongs: [UInt32] = []
    var acks: [UInt32] = []
    var commits = 0

    init(_ compositor: FakeCompositor) { self.compositor = compositor }

    /// Reads and answers requests until `done` holds (checked at least every two seconds, the
    /// fake's wait for a request), for at most 30 seconds.
    func serve(until done: () -> Bool) throws {
      let deadline = MonotonicClock.now() + UInt64(TestTime.scale) * 30_000_000_000
      while !done() {
        do {
          try answer(try compositor.request())
        } catch let error as Errno where error == Errno(rawValue: ETIMEDOUT) {
          guard MonotonicClock.now() < deadline else { throw error }
        }
      }
    }

    private func answer(_ request: (object: UInt32, opcode: UInt16, body: [UInt8], descriptors: [Int32]))
      throws
    {
      request.descriptors.forEach { Glibc.close($0) }
      var body = WaylandEvent(sender: request.object, opcode: request.opcode, body: request.body)
      switch (request.object, request.opcode) {
      case (1, 1):  // get_registry
        let registry = try body.uint()
        ids["wl_registry"] = registry
        for (name, interface, version) in [(1, "wl_compositor", 4), (2, "wl_shm", 1), (3, "xdg_wm_base", 2)] {
          try compositor.event(
            registry, 0, [.uint(UInt32(name)), .string(interface), .uint(UInt32(version))])
        }
      case (1, 0):  // sync: done at once
        try compositor.event(try body.uint(), 0, [.uint(0)])
      case (ids["wl_registry"], 0):  // bind(name, interface, version, id)
        _ = try body.uint()
        let interface = try body.string() ?? ""
        _ = try body.uint()
        ids[interface] = try body.uint()
      case (ids["xdg_wm_base"], 2):  // get_xdg_surface
        ids["xdg_surface"] = try body.uint()
      case (ids["xdg_wm_base"], 3):  // pong
        pongs.append(try body.uint())
      case (ids["xdg_surface"], 1):  // get_toplevel
        ids["xdg_toplevel"] = try body.uint()
      case (ids["xdg_surface"], 4):  // ack_configure
        acks.append(try body.uint())
      case (ids["wl_compositor"], 0):  // create_surface
        ids["wl_surface"] = try body.uint()
      case (ids["wl_surface"], 6):  // commit
        commits += 1
        if commits == 1 { try configure(serial: 41, ping: 7) }
      default:
        break
      }
    }

    /// A ping, a toplevel configure and its xdg_surface configure.
    func configure(serial: UInt32, ping: UInt32) throws {
      guard let base = ids["xdg_wm_base"], let toplevel = ids["xdg_toplevel"],
        let surface = ids["xdg_surface"]
      else { return }
      try compositor.event(base, 0, [.uint(ping)])
      try compositor.event(toplevel, 0, [.int(800), .int(600), .array([])])
      try compositor.event(surface, 0, [.uint(serial)])
    }
  }

  @Test(
    "ping is answered with its serial, every configure acknowledged with its own, a protocol error reported once"
  )
  func answersTheCompositor() throws {
    let compositor = try FakeCompositor()
    let session = Session(compositor)
    let made = Mutex<Result<WaylandPresenter, WaylandError>?>(nil)
    let reports = Mutex<[WaylandError]>([])
    let path = compositor.path
    try SystemThread.start(name: "test.presenter") {
      let result = Result { () throws(WaylandError) -> WaylandPresenter in
        try WaylandPresenter(
          socket: path, width: 64, height: 36, title: "camera-app", appID: "camera-app",
          onConnectionLost: { error in reports.withLock { $0.append(error) } })
      }
      made.withLock { $0 = result }
    }
    compositor.accept()
    // The window is mapped (a black frame committed after the first configure) before init returns.
    try session.serve { made.withLock { $0 != nil } }
    let presenter = try #require(try made.withLock { $0 }?.get())
    defer { presenter.close() }
    #expect(session.pongs == [7])
    #expect(session.acks == [41])
    #expect(session.commits == 2)
    #expect(presenter.suggestedSize == (800, 600))

    // Later ones are answered on the presenter's own thread.
    try session.configure(serial: 42, ping: 8)
    try session.serve { session.pongs.count == 2 && session.acks.count == 2 }
    #expect(session.pongs == [7, 8])
    #expect(session.acks == [41, 42])

    // wl_display.error(object, code, message) ends the connection, reported once.
    try compositor.event(1, 0, [.object(session.ids["wl_surface"] ?? 0), .uint(2), .string("bad buffer")])
    #expect(blockUntil(timeout: .seconds(20)) { !reports.withLock(\.isEmpty) })
    compositor.hangUp()
    #expect(presenter.publishBlack() == nil)
    let lost = reports.withLock { $0 }
    #expect(lost.count == 1 && lost.first?.kind == .protocolError, "\(lost)")
    #expect(lost.first?.message.contains("bad buffer") == true, "\(lost)")
  }
}
