import Display
import LaunchContract
import LightBoard
import PhaseTrace

/// The shared-memory path's frames: every scanout of a `DisplaySurface` by its `Compositor`.
final class SurfaceFrameSource: FrameSource {
  let surface: DisplaySurface
  private let compositor: Compositor

  /// Creates the surface (`width`×`height`, `slots` slots) and a compositor for it at `refreshHz`.
  init(
    width: Int, height: Int, refreshHz: Double, slots: Int, realtime: Bool,
    deliver: @escaping @Sendable (ProbeFrame) -> Void
  ) throws(DisplayError) {
    let surface = try DisplaySurface.createSealed(width: width, height: height, slots: slots)
    do {
      compositor = try Compositor(surface: surface, refreshHz: refreshHz, realtime: realtime) { scanout in
        scanout.pixels.withUnsafeBufferPointer { p in
          let image = LumaImage(
            base: p.baseAddress!, width: scanout.width, height: scanout.height, bytesPerRow: scanout.width)
          deliver(ProbeFrame(image: image, time: scanout.time, presented: scanout.presented))
        }
      }
    } catch {
      surface.close()
      throw error
    }
    self.surface = surface
  }

  var server: DisplayServerKind { .sharedMemory }

  func watch(processID pid: Int32) {}  // the app presents into the surface it was handed

  func start() throws(ProbeSourceError) {
    compositor.start()
  }

  func armed() {}  // every scanout is delivered anyway

  func stop() {
    compositor.stop()
    surface.close()
  }

  var realtimeGranted: Bool { compositor.realtimeGranted }
  var refreshIntervalNanoseconds: UInt64? { compositor.refreshIntervalNanoseconds }
  var faults: FrameSourceFaults {
    FrameSourceFaults(corruptReads: compositor.corruptReads, tornReads: compositor.tornReads)
  }
  var events: [PhaseEvent] { [] }
  var failure: String? { nil }
  var missedDeadlines: UInt64? { compositor.missedDeadlines }
}
