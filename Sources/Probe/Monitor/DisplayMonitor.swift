import Display
import LightBoard
import PhaseTrace
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The runner's display: a `DisplaySurface` for the app to present into, a `Compositor` that
/// scans it out, and a `LiveFrameDetector` that watches every scanout on the compositor thread.
public final class DisplayMonitor: Sendable {
  /// The surface's descriptor (a size-sealed memory file, close-on-exec): the app inherits it
  /// as descriptor N and is told `FIRSTFRAME_DISPLAY=fd:N`; -1 once stopped.
  public var surfaceDescriptor: Int32 { surface.descriptor ?? -1 }
  /// Whether the compositor thread got `SCHED_FIFO`.
  public var realtimeGranted: Bool { compositor.realtimeGranted }
  /// The refresh interval, ns.
  public var refreshIntervalNanoseconds: UInt64 { compositor.refreshIntervalNanoseconds }
  /// The surface's width in pixels.
  public var width: Int { surface.width }
  /// The surface's height in pixels.
  public var height: Int { surface.height }

  private let surface: DisplaySurface
  private let compositor: Compositor
  private let box: Box

  final class Box: Sendable {
    let state: Mutex<State>
    init(_ state: State) { self.state = Mutex(state) }
  }

  struct State: Sendable {
    var detector: LiveFrameDetector
    var onFirstLiveFrame: (@Sendable (FirstLiveFrame) -> Void)?
    var analysisNanoseconds: UInt64 = 0
    var scanouts: UInt64 = 0
    /// Ground truth of the scanout the first live frame was found on (calibration only).
    var firstLivePresented: PresentedFrameInfo?
  }

  /// Creates the surface (`width`×`height`, `slots` slots; sealed, so that the app cannot shrink
  /// it under the compositor), starts the compositor at
  /// `refreshHz` and the detector (with `configuration`; its pid and refresh interval are filled in).
  public init(
    width: Int = 640, height: Int = 480, refreshHz: Double = 60, slots: Int = 3,
    configuration: DetectorConfiguration = DetectorConfiguration(), realtime: Bool = true
  ) throws(DisplayError) {
    let surface = try DisplaySurface.createSealed(width: width, height: height, slots: slots)
    var config = configuration
    config.pid = getpid()
    let box = Box(State(detector: LiveFrameDetector(configuration: config)))
    let compositor: Compositor
    do {
      compositor = try Compositor(surface: surface, refreshHz: refreshHz, realtime: realtime) { scanout in
        DisplayMonitor.analyse(scanout, box: box)
      }
    } catch {
      surface.close()
      throw error
    }
    if config.refreshIntervalNanoseconds == nil {
      config.refreshIntervalNanoseconds = compositor.refreshIntervalNanoseconds
      box.state.withLock { $0.detector = LiveFrameDetector(configuration: config) }
    }
    self.surface = surface
    self.compositor = compositor
    self.box = box
    compositor.start()
  }

  private static func analyse(_ scanout: Scanout, box: Box) {
    let notify = box.state.withLock { s -> (FirstLiveFrame, @Sendable (FirstLiveFrame) -> Void)? in
      let hadFirst = s.detector.firstLiveFrame != nil
      let cpu0 = MonotonicClock.threadCPUTime()
      scanout.pixels.withUnsafeBufferPointer { p in
        let image = LumaImage(
          base: p.baseAddress!, width: scanout.width, height: scanout.height, bytesPerRow: scanout.width)
        s.detector.observe(image, at: scanout.time)
      }
      s.analysisNanoseconds &+= MonotonicClock.threadCPUTime() &- cpu0
      s.scanouts &+= 1
      guard !hadFirst, let first = s.detector.firstLiveFrame else { return nil }
      s.firstLivePresented = scanout.presented
      guard let callback = s.onFirstLiveFrame else { return nil }
      s.onFirstLiveFrame = nil
      return (first, callback)
    }
    if let (first, callback) = notify { callback(first) }
  }

  /// Arms the probe for `mode` (clears the previous measurement). `onFirstLiveFrame` runs once,
  /// on the compositor thread, as soon as the first live frame is scanned out — keep it short
  /// (the runner sends the shutter `tap` from it). Arm before spawning or unlocking.
  public func arm(_ mode: ArmMode, onFirstLiveFrame: @escaping @Sendable (FirstLiveFrame) -> Void = { _ in })
  {
    box.state.withLock { s in
      s.detector.arm(mode)
      s.onFirstLiveFrame = onFirstLiveFrame
      s.firstLivePresented = nil
    }
  }

  /// What the probe saw since the last `arm`.
  public func snapshot() -> ProbeReport {
    let (d, cpu, n) = box.state.withLock { s in (s.detector, s.analysisNanoseconds, s.scanouts) }
    return ProbeReport(
      mode: d.mode, firstLiveFrame: d.firstLiveFrame, staleFrames: d.staleFrames,
      droppedFrames: d.droppedFrames,
      scanoutsSinceArm: d.scanoutsSinceArm, refreshIntervalNanoseconds: compositor.refreshIntervalNanoseconds,
      realtimeGranted: compositor.realtimeGranted, corruptReads: compositor.corruptReads,
      tornReads: compositor.tornReads,
      analysisMicrosecondsPerScanout: n == 0 ? 0 : Double(cpu) / Double(n) / 1000, events: d.events)
  }

  /// Ground truth of the scanout the first live frame was found on (calibration only).
  package var firstLiveGroundTruth: PresentedFrameInfo? { box.state.withLock { $0.firstLivePresented } }

  /// Stops the compositor and removes the surface. Safe to call more than once.
  public func stop() {
    compositor.stop()
    surface.close()
  }

  deinit { stop() }
}
