extension X11WindowCapture {
  /// How the probe knows which process owns a window: the method a `display.window_mapped`
  /// event names.
  package enum Ownership: String, Sendable {
    /// The X server's own record of the client's process (X-Resource 1.2 `QueryClientIds`,
    /// from the client's socket): it needs nothing from the app and no other client can forge it.
    case clientPID = "client_pid"
    /// The window's `_NET_WM_PID` property, on a server without X-Resource: what the app (or
    /// any client) wrote there.
    case netWMPid = "net_wm_pid"
  }

  /// How this capture knows a window's owner: ``Ownership/clientPID`` where the server speaks
  /// X-Resource 1.2 (Xvfb, Xorg and Xwayland do), ``Ownership/netWMPid`` otherwise.
  package var ownership: Ownership { knowsClientProcesses ? .clientPID : .netWMPid }

  /// The process that owns `window`, as ``ownership`` knows it: the client's process id from
  /// X-Resource, else the window's `_NET_WM_PID`. Nil when neither says.
  package func ownerProcessID(of window: UInt32) -> Int32? {
    knowsClientProcesses
      ? connection.clientProcessID(of: window) : connection.processID(of: window, netWMPid: netWMPid)
  }

  /// The process id that `window`'s `_NET_WM_PID` property names, looking one level down when a
  /// window manager framed it; nil when none is set. What a client wrote, not what the server
  /// knows (``ownerProcessID(of:)``).
  package func processID(of window: UInt32) -> Int32? {
    if let pid = connection.processID(of: window, netWMPid: netWMPid) { return pid }
    for child in connection.children(of: window) {
      if let pid = connection.processID(of: child, netWMPid: netWMPid) { return pid }
    }
    return nil
  }

  /// The app's window in the top-level window `window`, with its owner: `window` itself when its
  /// owner (``ownerProcessID(of:)``) is one `isApp` accepts, else the first child of it whose
  /// owner is (the client inside a window manager's frame); nil when neither is the app's. Never
  /// a window by the order it was mapped in.
  package func appWindow(_ window: UInt32, isApp: (Int32) -> Bool) -> (window: UInt32, owner: Int32)? {
    for candidate in [window] + connection.children(of: window) {
      if let owner = ownerProcessID(of: candidate), isApp(owner) { return (candidate, owner) }
    }
    return nil
  }

  /// The size of `window` (any window, watched or not), or nil when the server no longer has it.
  package func size(of window: UInt32) -> (width: Int, height: Int)? {
    (try? connection.geometry(of: window)).map { ($0.width, $0.height) }
  }
}
