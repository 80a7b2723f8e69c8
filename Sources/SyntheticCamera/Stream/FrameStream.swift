import CaptureKit
import Dispatch
import Glibc
import Synchronization
import SystemCalls

/// The frame thread of one stream: a dedicated pthread that tries `SCHED_FIFO` and sleeps on an
/// absolute `CLOCK_MONOTONIC` schedule.
///
/// Frame `n` is due at `t0 + n × interval`, where `t0` is the end of the first-frame latency
/// (so there is no drift). A frame whose slot has passed by a whole interval is skipped, as a
/// sensor drops frames: `sequence` is the slot number, so a skip shows as a gap (and as a bar
/// jump on the light board). The capture time is the actual `CLOCK_MONOTONIC` time at render.
final class FrameStream: Sendable {
  /// The real-time priority asked for: low, above normal threads, below audio/IRQ threads.
  static let realtimePriority: Int32 = 5

  let width: Int
  let height: Int
  let intervalNs: UInt64
  let firstFrameLatency: CostProfile.Cost
  let noise: SensorNoise?
  let deliver: @Sendable (VideoFrame) -> Void
  /// Counts a delivery after `stopStream()` returned (none, as the stop joins this thread).
  let afterStop: DeliveryAfterStopCounter.Gate
  let stopRequested = Atomic<Bool>(false)
  /// -1 not yet known, 0 refused, 1 granted.
  let priority = Atomic<Int8>(-1)
  let started = DispatchSemaphore(value: 0)

  init(
    width: Int, height: Int, intervalNs: UInt64, firstFrameLatency: CostProfile.Cost, noise: SensorNoise?,
    afterStop: DeliveryAfterStopCounter.Gate, deliver: @escaping @Sendable (VideoFrame) -> Void
  ) {
    self.width = width
    self.height = height
    self.intervalNs = max(1, intervalNs)
    self.firstFrameLatency = firstFrameLatency
    self.noise = noise
    self.afterStop = afterStop
    self.deliver = deliver
  }

  /// Starts the thread and waits until it has tried for real-time priority. The corresponding
  /// call is `pthread_create`.
  func start() throws(SyntheticCameraError) -> pthread_t {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let rc = pthread_create(
      &thread, nil,
      { raw in
        let stream = Unmanaged<FrameStream>.fromOpaque(raw!).takeRetainedValue()
        stream.run()
        return nil
      }, context)
    guard rc == 0 else {
      Unmanaged<FrameStream>.fromOpaque(context).release()
      throw SyntheticCameraError(
        .threadCreationFailed, "cannot start the synthetic camera's frame thread", errno: Errno(rawValue: rc))
    }
    started.wait()
    return thread
  }

  /// Whether `SCHED_FIFO` was granted (nil before the thread tried).
  var realtimePriorityGranted: Bool? {
    switch priority.load(ordering: .acquiring) {
    case 1: true
    case 0: false
    default: nil
    }
  }

  func requestStop() { stopRequested.store(true, ordering: .releasing) }

  private var shouldStop: Bool { stopRequested.load(ordering: .acquiring) }

  private func run() {
    var param = sched_param()
    param.sched_priority = max(sched_get_priority_min(SCHED_FIFO), Self.realtimePriority)
    let granted = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0
    priority.store(granted ? 1 : 0, ordering: .releasing)
    started.signal()

    let begin = MonotonicClock.now()
    let t0: UInt64
    switch firstFrameLatency.kind {
    case .hardware:
      t0 = begin + UInt64(max(0, firstFrameLatency.ms) * 1_000_000)
    case .software:
      SoftwareWork.run(milliseconds: firstFrameLatency.ms, plan: .device(width: width, height: height))
        .digestSink()
      t0 = MonotonicClock.now()
    }
    var slot: UInt64 = 0
    while true {
      let due = t0 + slot * intervalNs
      guard MonotonicClock.sleep(until: due, shouldStop: { shouldStop }) else { return }
      let now = MonotonicClock.now()
      if now >= due + intervalNs { slot = (now - t0) / intervalNs }
      let frame = FrameRenderer.frame(
        width: width, height: height, captureTime: MonotonicClock.now(), sequence: slot, noise: noise)
      if shouldStop { return }
      afterStop.deliver(frame, deliver)
      slot += 1
    }
  }
}
