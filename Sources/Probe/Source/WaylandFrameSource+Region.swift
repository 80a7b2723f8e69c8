import LaunchContract
import PhaseTrace
import WaylandClient

#if canImport(Glibc)
  import Glibc
#endif

/// The region of the output the Wayland probe analyses (issue 36). Once the app's window is known
/// and the watcher said where its pixels are on the output (a region wholly inside it), each
/// frame is converted from that region only, at the reduced scale of the region's size, as X11
/// reads the app's window: on an output larger than the window (a desktop, `--display
/// wayland:SOCKET`) the light board is then read at the size the app drew it. Before that (and
/// without a watcher, or with a region outside the output) the whole output is read. The first
/// frame's region, and each change of it or of the app's window, is a `display.probe_region`
/// event (`window` empty before the app's window is known), so a run's results say what the probe
/// watched; the detector takes an image of a new size as a baseline, never a change.
extension WaylandFrameSource {
  /// The app's window's region of `frame`'s output, when the watcher said where it is and it lies
  /// wholly inside the output and is smaller than it; nil (the whole output) otherwise.
  static func region(of window: WaylandWindow, in frame: WaylandScreencopy.Frame) -> WaylandRegion? {
    let region = WaylandRegion(x: window.x, y: window.y, width: window.width, height: window.height)
    guard region.isInside(width: frame.width, height: frame.height),
      region.width < frame.width || region.height < frame.height
    else { return nil }
    return region
  }

  /// `display.probe_region`: the probe analyses `area` of `frame`'s output at 1/`scale` from
  /// this frame on; `window` is the app's window's identifier, empty while it is not known.
  static func regionEvent(_ area: WaylandRegion, window: String, frame: WaylandScreencopy.Frame, scale: Int)
    -> PhaseEvent
  {
    PhaseEvent(
      ts: frame.presentedNanoseconds, name: EventName.displayProbeRegion.rawValue, kind: .event,
      pid: getpid(),
      fields: [
        "window": .string(window), "x": .int(Int64(area.x)), "y": .int(Int64(area.y)),
        "width": .int(Int64(area.width)), "height": .int(Int64(area.height)),
        "output_width": .int(Int64(frame.width)), "output_height": .int(Int64(frame.height)),
        "read_scale": .int(Int64(scale)),
      ])
  }
}
