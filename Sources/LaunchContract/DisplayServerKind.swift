/// The display servers an app can present through, and what each offers the runner and the
/// probe. Callers ask for a capability (`mapsWindows`), never for a server by name, so that a
/// third server (Wayland) is one more case here and one more implementation on each side of the
/// display-server seam: the app's (camera-app's `PresentingDisplay`), bench's (BenchKit's
/// `DisplayServer`) and the probe's (Probe's `FrameSource`, calibrated by BenchCommands'
/// `DisplayServerCommands`).
public enum DisplayServerKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The shared-memory surface and the runner's own compositor (`--display shm`).
  case sharedMemory = "shm"
  /// An X server (`--display x11`, `x11:NAME`).
  case x11
  /// A Wayland compositor (`--display wayland`, `wayland:SOCKET`).
  case wayland

  /// Whether the app presents into a window of its own that the probe must find (by the pid
  /// that owns it) before it can watch it: the `window_mapped` phase and `--window-timeout`
  /// apply. False on shared memory, where the runner hands the app its surface.
  public var mapsWindows: Bool {
    switch self {
    case .sharedMemory: false
    case .x11, .wayland: true
    }
  }

  /// Whether the server is a process apart from bench (Xvfb, a desktop's server) that can go
  /// away in the middle of a benchmark, so that a run that fails waits briefly to name that as
  /// its cause. False on shared memory, whose compositor is bench's own thread.
  public var runsApart: Bool {
    switch self {
    case .sharedMemory: false
    case .x11, .wayland: true
    }
  }

  /// Whether the probe may read what the screen shows where the app's window is instead of the
  /// window's own contents (`--x11-read screen`: a compositing window manager's output).
  /// False on Wayland, where screencopy always reads the compositor's output.
  public var readsScreenOrWindow: Bool {
    switch self {
    case .sharedMemory, .wayland: false
    case .x11: true
    }
  }

  /// `shm`, `x11` or `wayland`, as `--display` spells the kind.
  public var description: String { rawValue }
}
