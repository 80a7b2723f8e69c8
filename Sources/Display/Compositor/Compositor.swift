import Dispatch
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The screen: a thread that latches the newest presented slot of a `DisplaySurface` at a fixed
/// refresh rate and hands each scanout (a copy of the latched image, black until something is
/// presented, plus the scanout time, read after the latch) to `onScanout`, on the compositor
/// thread.
///
/// The thread sleeps to absolute deadlines on a fixed grid (`clock_nanosleep(CLOCK_MONOTONIC,
/// TIMER_ABSTIME)`) and asks for `SCHED_FIFO` (`pthread_setschedparam`); where that is not
/// permitted it quietly runs at normal priority and `realtimeGranted` is false. Missed deadlines
/// are skipped, never bunched up, and counted (`missedDeadlines`, defined by `DeadlineAccount`).
public final class Compositor: Sendable {
  /// The refresh interval in nanoseconds.
  public let refreshIntervalNanoseconds: UInt64
  private let surface: DisplaySurface
  private let wantsRealtime: Bool
  private let onScanout: @Sendable (Scanout) -> Void
  private let running = Atomic<Bool>(false)
  private let stopRequested = Atomic<Bool>(false)
  private let granted = Atomic<Bool>(false)
  private let scanouts = Atomic<UInt64>(0)
  private let corrupt = Atomic<UInt64>(0)
  private let torn = Atomic<UInt64>(0)
  private let missed = Atomic<UInt64>(0)
  private let exited = DispatchSemaphore(value: 0)

  /// Creates a compositor for `surface` at `refreshHz` (1…1000 Hz). `realtime: false` skips the
  /// `SCHED_FIFO` request. Call `start()` to begin scanning out.
  public init(
    surface: DisplaySurface, refreshHz: Double = 60, realtime: Bool = true,
    onScanout: @escaping @Sendable (Scanout) -> Void
  ) throws(DisplayError) {
    guard refreshHz.isFinite, refreshHz >= 1, refreshHz <= 1000 else {
      throw DisplayError(.invalidArgument, "the refresh rate must be 1…1000 Hz, not \(refreshHz)")
    }
    self.surface = surface
    self.refreshIntervalNanoseconds = UInt64((1e9 / refreshHz).rounded())
    self.wantsRealtime = realtime
    self.onScanout = onScanout
  }

  /// Whether the compositor thread got `SCHED_FIFO` (known once `start()` returns).
  public var realtimeGranted: Bool { granted.load(ordering: .acquiring) }
  /// Scanouts so far.
  public var scanoutCount: UInt64 { scanouts.load(ordering: .relaxed) }
  /// Latches refused because the header failed validation (an app wrote garbage).
  public var corruptReads: UInt64 { corrupt.load(ordering: .relaxed) }
  /// Latches given up because the slot was being written on every bounded retry.
  public var tornReads: UInt64 { torn.load(ordering: .relaxed) }
  /// Refresh deadlines missed so far: scanouts latched half an interval or more after their tick,
  /// plus ticks skipped altogether (`DeadlineAccount`).
  public var missedDeadlines: UInt64 { missed.load(ordering: .relaxed) }

  /// Starts the compositor thread; returns once it runs (and `realtimeGranted` is known).
  /// Calling it twice does nothing.
  public func start() {
    guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    else { return }
    let started = DispatchSemaphore(value: 0)
    do {
      try SystemThread.start(name: "compositor") { [self] in
        granted.store(requestRealtime(), ordering: .releasing)
        started.signal()
        run()
        exited.signal()
      }
    } catch {
      // Out of threads (EAGAIN): there is no display without this thread.
      fatalError("cannot start the compositor thread: \(error.message)")
    }
    started.wait()
  }

  /// Stops the thread and waits for it to finish its current scanout. Safe to call more than once.
  public func stop() {
    guard running.load(ordering: .acquiring) else { return }
    guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
    exited.wait()
  }

  deinit { stop() }

  private func requestRealtime() -> Bool {
    guard wantsRealtime else { return false }
    var param = sched_param()
    param.sched_priority = min(sched_get_priority_min(SCHED_FIFO) + 10, sched_get_priority_max(SCHED_FIFO))
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0
  }

  /// One scanout step: latches the newest presented slot of `surface` into `buffer`, **then**
  /// reads the scanout time from `clock`. Returns nil when the surface was closed.
  ///
  /// The order is what bounds the probe's error from below: a slot's present time is read before
  /// the slot becomes visible (`SharedMemoryDisplay`), and the scanout time after the latch, so
  /// present ≤ visible ≤ latch ≤ scanout time for every frame. Stamping first would let a frame
  /// published between the stamp and the latch be seen "before" it was presented.
  static func scan(
    _ surface: DisplaySurface, latch: inout SurfaceLatch, into buffer: UnsafeMutablePointer<UInt8>,
    clock: () -> UInt64
  ) -> (outcome: SurfaceLatch.Outcome, time: UInt64)? {
    guard let outcome = surface.withMemory({ m in latch.latch(m, into: buffer) }) else { return nil }
    return (outcome, clock())
  }

  private func run() {
    let g = surface.geometry
    var latch = SurfaceLatch(geometry: g)
    var pixels = [UInt8](repeating: 0, count: g.width * g.height)
    var presented: PresentedFrameInfo?
    let period = refreshIntervalNanoseconds
    var deadline = MonotonicClock.now() &+ period
    var account = DeadlineAccount(periodNanoseconds: period)
    var index: UInt64 = 0
    while !stopRequested.load(ordering: .acquiring) {
      MonotonicClock.sleep(until: deadline)
      let step = pixels.withUnsafeMutableBufferPointer { buffer in
        Self.scan(surface, latch: &latch, into: buffer.baseAddress!, clock: MonotonicClock.now)
      }
      guard let (outcome, t) = step else { break }  // the surface was closed
      account.scanned(deadline: deadline, latchedAt: t)
      switch outcome {
      case .latched(let info): presented = info
      case .corrupt: corrupt.add(1, ordering: .relaxed)
      case .torn: torn.add(1, ordering: .relaxed)
      case .nothingPresented, .unchanged: break
      }
      onScanout(
        Scanout(index: index, time: t, width: g.width, height: g.height, pixels: pixels, presented: presented)
      )
      index &+= 1
      scanouts.store(index, ordering: .relaxed)
      // Fell behind: skip to the next tick on the grid ahead, counting the ticks passed over.
      deadline = account.nextDeadline(after: deadline, now: MonotonicClock.now())
      missed.store(account.missed, ordering: .relaxed)
    }
  }
}
