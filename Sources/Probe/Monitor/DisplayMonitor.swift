import Display
import LaunchContract
import LightBoard
import PhaseTrace
import Synchronization
import SystemCalls
import WaylandClient
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

/// The runner's display and probe: a frame source (`FrameSource`) and a `LiveFrameDetector` that
/// watches every frame it delivers, on the source's thread.
///
/// Three display paths share everything after the source: on shared memory, a `DisplaySurface`
/// for the app to present into and a `Compositor` that scans it out (`init(width:height:…)`); on
/// X11, the probe's own X client reading the app's window on every change
/// (`init(x11Display:…)`, then `watch(processID:)` once the app is spawned); on Wayland, the
/// probe's own client copying a wlroots compositor's output on every change
/// (`init(waylandSocket:…)`, then `watch(processID:)`).
public final class DisplayMonitor: Sendable {
  /// The surface's descriptor (a size-sealed memory file, close-on-exec): the app inherits it
  /// as descriptor N and is told `FIRSTFRAME_DISPLAY=fd:N`; -1 on X11 or once stopped.
  public var surfaceDescriptor: Int32 { (source as? SurfaceFrameSource)?.surface.descriptor ?? -1 }
  /// What the app is told to present into (`FIRSTFRAME_DISPLAY`).
  public let appDisplay: DisplayTarget
  /// Whether the source's thread (the compositor, or the X11 probe) got `SCHED_FIFO`.
  public var realtimeGranted: Bool { source.realtimeGranted }
  /// The refresh interval, ns (0 on X11: no refresh grid; on Wayland the output's).
  public var refreshIntervalNanoseconds: UInt64 { source.refreshIntervalNanoseconds ?? 0 }
  /// The surface's width in pixels (shared-memory path).
  public var width: Int { (source as? SurfaceFrameSource)?.surface.width ?? 0 }
  /// The surface's height in pixels (shared-memory path).
  public var height: Int { (source as? SurfaceFrameSource)?.surface.height ?? 0 }
  /// Why the display stopped delivering frames (the X server went away), or nil.
  public var failure: String? { source.failure }
  /// The display server the probe watches.
  public var server: DisplayServerKind { source.server }

  private let source: any FrameSource
  private let box: Box

  final class Box: Sendable {
    let state: PThreadMutex<State>
    init(_ state: State) { self.state = PThreadMutex(state) }
  }

  /// One frame the probe looked at, as calibration needs it afterwards.
  struct RecentFrame: Sendable {
    var time: UInt64
    var presented: PresentedFrameInfo?
    var image: (width: Int, height: Int, pixels: [UInt8])?
  }

  struct State: Sendable {
    var detector: LiveFrameDetector
    var onFirstLiveFrame: (@Sendable (FirstLiveFrame) -> Void)?
    var analysisNanoseconds: UInt64 = 0
    var scanouts: UInt64 = 0
    /// Ground truth of the scanout the first live frame was found on (calibration only).
    var firstLivePresented: PresentedFrameInfo?
    /// The last frames' times and ground truth (and, when kept, images), newest last: a change run
    /// is confirmed a few frames after its first one, which is the first live frame (calibration
    /// only).
    var recent: [RecentFrame] = []
    /// Whether to keep a copy of the first live image (calibration only).
    var keepsFirstLiveImage = false
    /// The first live image, when kept: width, height and packed pixels.
    var firstLiveImage: (width: Int, height: Int, pixels: [UInt8])?
    /// The source's missed deadlines at the last arm.
    var missedDeadlinesAtArm: UInt64 = 0
  }

  /// Creates the surface (`width`×`height`, `slots` slots; sealed, so that the app cannot shrink
  /// it under the compositor), starts the compositor at
  /// `refreshHz` and the detector (with `configuration`; its pid and refresh interval are filled in).
  public init(
    width: Int = 640, height: Int = 480, refreshHz: Double = 60, slots: Int = 3,
    configuration: DetectorConfiguration = DetectorConfiguration(), realtime: Bool = true
  ) throws(DisplayError) {
    var config = configuration
    config.pid = getpid()
    let box = Box(State(detector: LiveFrameDetector(configuration: config)))
    let source = try SurfaceFrameSource(
      width: width, height: height, refreshHz: refreshHz, slots: slots, realtime: realtime
    ) { frame in DisplayMonitor.analyse(frame, box: box) }
    if config.refreshIntervalNanoseconds == nil {
      config.refreshIntervalNanoseconds = source.refreshIntervalNanoseconds
      box.state.withLock { $0.detector = LiveFrameDetector(configuration: config) }
    }
    self.source = source
    self.box = box
    self.appDisplay = .sharedMemory(name: source.surface.name)
    try? source.start()  // the compositor's start cannot fail
  }

  /// Connects the probe to the X server `x11Display` (nil: `$DISPLAY`) and starts watching for
  /// the app's window; call `watch(processID:)` once the app is spawned. With no refresh grid,
  /// the detector's refresh interval is `X11FrameSource.cadenceAllowanceNanoseconds` unless
  /// `configuration` gives one. `resolution` says whether a large window is read at half size
  /// (`X11WindowCapture.Resolution`).
  /// - Throws: `X11Error` — the XCB libraries, the server or its DAMAGE extension missing.
  package init(
    x11Display: String?, authorization: X11Authorization? = nil,
    source capture: X11WindowCapture.Source = .window, resolution: X11WindowCapture.Resolution = .reduced,
    configuration: DetectorConfiguration = DetectorConfiguration(), realtime: Bool = true
  ) throws(X11Error) {
    var config = configuration
    config.pid = getpid()
    if config.refreshIntervalNanoseconds == nil {
      config.refreshIntervalNanoseconds = X11FrameSource.cadenceAllowanceNanoseconds
    }
    let box = Box(State(detector: LiveFrameDetector(configuration: config)))
    let source = try X11FrameSource(
      display: x11Display, authorization: authorization, source: capture, resolution: resolution,
      realtime: realtime,
      searching: { box.state.withLock { $0.detector.mode != nil && $0.detector.firstLiveFrame == nil } }
    ) { frame in DisplayMonitor.analyse(frame, box: box) }
    do {
      try source.start()
    } catch {
      source.stop()
      throw X11Error(.systemCallFailed, error.message)
    }
    self.source = source
    self.box = box
    self.appDisplay = .x11(display: source.capture.connection.displayName)
  }

  /// Connects the probe to the wlroots compositor at `waylandSocket` (an absolute path, or a
  /// socket name in `environment`'s `XDG_RUNTIME_DIR`) and starts copying its output on every
  /// change (wlr-screencopy with damage); call `watch(processID:)` once the app is spawned.
  /// `windows` (sway's IPC) reports the windows mapped with their owners' pids: the first one of
  /// the app's becomes `display.window_mapped`; without it there is no such event. The detector's
  /// refresh interval is the output's (`wl_output`'s current mode), else
  /// `X11FrameSource.cadenceAllowanceNanoseconds`, unless `configuration` gives one. `reduced`:
  /// an output of 640×360 or more is analysed at 1/2 size or less, as X11 reads a large window.
  /// - Throws: `WaylandError` — no compositor at the socket, no `zwlr_screencopy_manager_v1`
  ///   (version 2 or later), the window watcher or the probe thread not starting.
  package init(
    waylandSocket: String, environment: [String: String] = [:], windows: (any WaylandWindowWatcher)? = nil,
    reduced: Bool = true, configuration: DetectorConfiguration = DetectorConfiguration(),
    realtime: Bool = true
  ) throws(WaylandError) {
    var config = configuration
    config.pid = getpid()
    let box = Box(State(detector: LiveFrameDetector(configuration: config)))
    let source = try WaylandFrameSource(
      socket: waylandSocket, environment: environment, watcher: windows, reduced: reduced, realtime: realtime,
      searching: { box.state.withLock { $0.detector.mode != nil && $0.detector.firstLiveFrame == nil } }
    ) { frame in DisplayMonitor.analyse(frame, box: box) }
    if config.refreshIntervalNanoseconds == nil {
      config.refreshIntervalNanoseconds =
        source.outputRefreshNanoseconds ?? X11FrameSource.cadenceAllowanceNanoseconds
    }
    box.state.withLock { $0.detector = LiveFrameDetector(configuration: config) }
    do {
      try source.start()
    } catch {
      source.stop()
      throw WaylandError(.cannotConnect, error.message)
    }
    self.source = source
    self.box = box
    self.appDisplay = .wayland(socket: source.connection.socketPath)
  }

  /// The app's pid, whose window the probe watches on a server that maps windows (X11: the
  /// window that pid's client owns). Does nothing on shared memory.
  public func watch(processID pid: Int32) {
    source.watch(processID: pid)
  }

  private static func analyse(_ frame: ProbeFrame, box: Box) {
    let notify = box.state.withLock { s -> (FirstLiveFrame, @Sendable (FirstLiveFrame) -> Void)? in
      let hadFirst = s.detector.firstLiveFrame != nil
      let cpu0 = MonotonicClock.threadCPUTime()
      s.detector.observe(frame.image, at: frame.time, seenLate: frame.seenLate)
      s.analysisNanoseconds &+= MonotonicClock.threadCPUTime() &- cpu0
      s.scanouts &+= 1
      if s.recent.count >= (s.keepsFirstLiveImage ? 8 : 32) { s.recent.removeFirst() }
      s.recent.append(
        RecentFrame(
          time: frame.time, presented: frame.presented, image: s.keepsFirstLiveImage ? copy(frame.image) : nil
        ))
      guard !hadFirst, let first = s.detector.firstLiveFrame else { return nil }
      let found = s.recent.last { $0.time == first.scanoutTime }
      s.firstLivePresented = found?.presented
      if s.keepsFirstLiveImage { s.firstLiveImage = found?.image }
      guard let callback = s.onFirstLiveFrame else { return nil }
      s.onFirstLiveFrame = nil
      return (first, callback)
    }
    if let (first, callback) = notify { callback(first) }
  }

  private static func copy(_ image: LumaImage) -> (width: Int, height: Int, pixels: [UInt8]) {
    var pixels = [UInt8](repeating: 0, count: image.width * image.height)
    pixels.withUnsafeMutableBufferPointer { out in
      for y in 0..<image.height {
        (out.baseAddress! + y * image.width).update(
          from: image.base + y * image.bytesPerRow, count: image.width)
      }
    }
    return (image.width, image.height, pixels)
  }

  /// Arms the probe for `mode` (clears the previous measurement). `onFirstLiveFrame` runs once,
  /// on the source's thread, as soon as the first live frame is seen — keep it short (the
  /// runner sends the shutter `tap` from it). Arm before spawning or unlocking: on X11, once a
  /// window is watched, `arm` returns only when the probe has the window's pixels at the arm time
  /// in hand (at most 1 s), so an unlock sent after it cannot replace the frozen image unseen.
  /// Never call it from `onFirstLiveFrame` (the probe's own thread).
  public func arm(_ mode: ArmMode, onFirstLiveFrame: @escaping @Sendable (FirstLiveFrame) -> Void = { _ in })
  {
    let missed = source.missedDeadlines ?? 0
    box.state.withLock { s in
      s.missedDeadlinesAtArm = missed
      s.detector.arm(mode)
      s.onFirstLiveFrame = onFirstLiveFrame
      s.firstLivePresented = nil
      s.firstLiveImage = nil
    }
    source.armed()
  }

  /// What the probe saw since the last `arm`; the gaps still waiting for the camera's cadence are
  /// judged in the report (`LiveFrameDetector.judgePendingGaps`), not in the probe's own state.
  public func snapshot() -> ProbeReport {
    let (detector, cpu, n, missedAtArm) = box.state.withLock { s in
      (s.detector, s.analysisNanoseconds, s.scanouts, s.missedDeadlinesAtArm)
    }
    var d = detector
    d.judgePendingGaps()  // on the copy: a run that ends before the cadence is known has its gaps judged
    let faults = source.faults
    return ProbeReport(
      mode: d.mode, firstLiveFrame: d.firstLiveFrame, unconfirmedBoard: d.unconfirmedBoard,
      forgedBoards: d.forgedBoards, staleFrames: d.staleFrames,
      droppedFrames: d.droppedFrames,
      scanoutsSinceArm: d.scanoutsSinceArm, refreshIntervalNanoseconds: refreshIntervalNanoseconds,
      realtimeGranted: source.realtimeGranted, corruptReads: faults.corruptReads,
      tornReads: faults.tornReads,
      missedDeadlines: source.missedDeadlines.map { $0 &- min($0, missedAtArm) },
      analysisMicrosecondsPerScanout: n == 0 ? 0 : Double(cpu) / Double(n) / 1000,
      events: source.events + d.events, presentationLag: (source as? WaylandFrameSource)?.lag,
      watch: d.watch)
  }

  /// Ground truth of the scanout the first live frame was found on (shared memory, calibration only).
  package var firstLiveGroundTruth: PresentedFrameInfo? { box.state.withLock { $0.firstLivePresented } }

  /// Keeps a copy of each arm's first live image (calibration, where no ground truth comes with
  /// the frame: the image is matched against what was presented).
  package func keepFirstLiveImages() { box.state.withLock { $0.keepsFirstLiveImage = true } }

  /// The first live image since the last arm, when kept: width, height and packed pixels.
  package var firstLiveImage: (width: Int, height: Int, pixels: [UInt8])? {
    box.state.withLock { $0.firstLiveImage }
  }

  /// The analysis' total thread CPU time and the frames analysed, since the monitor started.
  package var analysisCost: (nanoseconds: UInt64, frames: UInt64) {
    box.state.withLock { ($0.analysisNanoseconds, $0.scanouts) }
  }

  /// X11: the probe thread's CPU time so far (ns, everything: waiting for events, reading
  /// pixels, converting, detecting) and the frames it read; nil on shared memory.
  package var x11ProbeThreadCost: (cpuNanoseconds: UInt64, frames: UInt64)? {
    (source as? X11FrameSource)?.threadCost
  }

  /// Wayland: the probe thread's CPU time so far (ns, everything: waiting, copying, converting,
  /// detecting) and the frames it delivered; nil on the other paths.
  package var waylandProbeThreadCost: (cpuNanoseconds: UInt64, frames: UInt64)? {
    (source as? WaylandFrameSource)?.threadCost
  }

  /// Wayland: how long after the compositor presented each frame since the last arm the probe
  /// had it in hand (the `ready` event read minus its presentation time); nil on the other
  /// paths or before a frame.
  package var waylandProbeLag: ProbeLag? { (source as? WaylandFrameSource)?.lag }

  /// Wayland: the frames delivered late so far (`WaylandFrameSource.lateCopies`: copied a
  /// commit or more after their change, while the probe was busy); nil on the other paths.
  package var waylandLateFrames: UInt64? { (source as? WaylandFrameSource)?.lateCopies }

  /// Wayland: how many times smaller than the output, in each dimension, the images the probe
  /// analyses are (1 before the first frame); nil on the other paths.
  package var waylandReadScale: Int? { (source as? WaylandFrameSource)?.readScale }

  /// X11: how many times smaller than the app's window, in each dimension, the images the probe
  /// analyses are (1 or 2; 1 before the window is found); nil on shared memory.
  package var x11ReadScale: Int? { (source as? X11FrameSource)?.readScale }

  /// Stops the source (the compositor and its surface, or the X11 or Wayland probe and its
  /// connection).
  /// Safe to call more than once.
  public func stop() { source.stop() }

  deinit { stop() }
}
