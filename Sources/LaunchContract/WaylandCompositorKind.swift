/// The headless compositors bench starts for `--display wayland` (issue 36): sway by default, a
/// tiling compositor with an IPC that names each window's pid; cage for kiosk-style products
/// (one application full screen, no IPC). Both are wlroots compositors with wlr-screencopy.
public enum WaylandCompositorKind: String, Sendable, Hashable, CaseIterable {
  /// sway (`--display wayland`).
  case sway
  /// cage (`--display wayland-cage`).
  case cage

  /// The program's name on `PATH`, which is also its Debian package's name.
  public var program: String { rawValue }
}
