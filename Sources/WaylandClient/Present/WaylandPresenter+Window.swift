import SystemCalls

extension WaylandPresenter {
  /// Binds the globals, makes the toplevel and its buffers, and waits for the first configure
  /// (acknowledged by its handler), reading events on the calling thread.
  ///
  /// Opcodes, from wayland.xml and xdg-shell.xml: `wl_compositor.create_surface` 0;
  /// `xdg_wm_base.get_xdg_surface` 2, `pong` 3; `xdg_surface.get_toplevel` 1, `ack_configure` 4;
  /// `xdg_toplevel.set_title` 2, `set_app_id` 3; `wl_surface.commit` 6.
  static func makeWindow(
    link: WaylandPreviewLink, width: Int, height: Int, title: String, appID: String, timeoutMilliseconds: Int
  ) throws(WaylandError) -> (Objects, WaylandShmPool, [UInt32]) {
    let connection = link.connection
    let registry = try WaylandRegistry(connection: connection, timeoutMilliseconds: timeoutMilliseconds)
    let (compositor, compositorVersion) = try registry.bind("wl_compositor", version: 4)
    let shm = try registry.bind("wl_shm", version: 1).id
    let base = try registry.bind("xdg_wm_base", version: 5) { event, _ throws(WaylandError) in
      try link.handleWindowManager(&event, base: event.sender)
    }.id
    var presentation: UInt32?
    if registry.global("wp_presentation") != nil {
      presentation = try registry.bind("wp_presentation", version: 1) { event, _ throws(WaylandError) in
        try link.handlePresentationClock(&event)
      }.id
    }

    let surface = connection.newObject()
    try link.send(compositor, 0, [.newID(surface)])
    let xdgSurface = connection.newObject { event, _ throws(WaylandError) in
      try link.handleSurfaceConfigure(&event, xdgSurface: event.sender)
    }
    try link.send(base, 2, [.newID(xdgSurface), .object(surface)])
    let toplevel = connection.newObject { event, _ throws(WaylandError) in try link.handleToplevel(&event) }
    try link.send(xdgSurface, 1, [.newID(toplevel)])
    try link.send(toplevel, 2, [.string(title)])
    try link.send(toplevel, 3, [.string(appID)])
    // The first commit carries no buffer: it asks for the first configure.
    try link.send(surface, 6)

    let bytes = width * height * 4
    let pool = try WaylandShmPool(connection: connection, shm: shm, size: bytes * bufferCount)
    var buffers: [UInt32] = []
    do {
      for index in 0..<bufferCount {
        buffers.append(
          try pool.makeBuffer(
            offset: index * bytes, width: width, height: height, stride: width * 4,
            format: WaylandShmPool.Format.xrgb8888.rawValue
          ) { event, _ throws(WaylandError) in link.handleRelease(event, index: index) })
      }
      try waitForConfigure(link: link, timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      pool.destroy()
      throw error
    }
    let objects = Objects(
      surface: surface, xdgSurface: xdgSurface, toplevel: toplevel, compositorVersion: compositorVersion,
      presentation: presentation)
    return (objects, pool, buffers)
  }

  /// Reads events until the first `xdg_surface.configure` has been acknowledged.
  /// - Throws: `.timedOut` after `timeoutMilliseconds`; the connection's error.
  private static func waitForConfigure(link: WaylandPreviewLink, timeoutMilliseconds: Int)
    throws(WaylandError)
  {
    let deadline = MonotonicClock.now() &+ UInt64(max(0, timeoutMilliseconds)) * 1_000_000
    while link.state.withLock({ $0.acknowledged == nil }) {
      let now = MonotonicClock.now()
      guard now < deadline else {
        throw WaylandError(
          .timedOut,
          "the Wayland compositor at \(link.connection.socketPath) did not configure the preview in \(timeoutMilliseconds) ms"
        )
      }
      try link.connection.dispatch(waitingMilliseconds: Int32(clamping: (deadline - now) / 1_000_000 + 1))
    }
  }
}
