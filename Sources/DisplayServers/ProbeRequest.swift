import X11Display

/// What a run's probe is asked for, from the benchmark's settings: the surface a shared-memory
/// probe creates (its size and refresh) and what an X11 probe reads (the app's window or the
/// screen). One per benchmark; ``DisplayServer/makeMonitor(_:detector:)`` takes it.
package struct ProbeRequest: Sendable, Equatable {
  /// The surface's width and height in pixels.
  package var width: Int
  package var height: Int
  /// The compositor's refresh rate, Hz (shared memory).
  package var refreshHz: Double
  /// What the X11 probe reads.
  package var x11Read: X11WindowCapture.Source

  package init(width: Int, height: Int, refreshHz: Double, x11Read: X11WindowCapture.Source = .window) {
    self.width = width
    self.height = height
    self.refreshHz = refreshHz
    self.x11Read = x11Read
  }
}
