extension BenchResults {
  /// The display server of an X11 or Wayland benchmark.
  public struct DisplayServerInfo: Codable, Sendable, Hashable {
    /// The display name, `:N`.
    public var name: String
    /// The server's vendor string (`The X.Org Foundation`).
    public var vendor: String
    /// The vendor's release number (12101007 is X.Org 21.1.7).
    public var release: Int
    /// True when bench started it (a private Xvfb), false for an existing server (`x11:NAME`).
    public var started: Bool
    /// The screen bench gave its Xvfb, `W×H×depth`; absent for an existing server.
    public var screen: String?
    /// Whether bench's Xvfb got `SCHED_FIFO`; absent for an existing server (not bench's to change).
    public var realtime: Bool?
    /// Whether the probe's images crossed in shared memory (MIT-SHM) rather than the socket.
    public var sharedMemory: Bool
    /// What the probe read (`--x11-read`): `window` (the app's window contents) or `screen` (the
    /// screen where the window is, after any compositing window manager).
    public var probeReads: String?
    /// Xwayland's X display (`:1`) on `--display wayland+xwayland`, which the app gets as
    /// `DISPLAY`; absent elsewhere.
    public var xwayland: String?
    /// Creates the record.
    public init(
      name: String, vendor: String, release: Int, started: Bool, screen: String?, realtime: Bool?,
      sharedMemory: Bool
    ) {
      self.name = name
      self.vendor = vendor
      self.release = release
      self.started = started
      self.screen = screen
      self.realtime = realtime
      self.sharedMemory = sharedMemory
    }
  }
}
