import Dispatch
import Sampling
import Synchronization
import SystemCalls

/// How late the host woke threads that asked to wake at a deadline, measured in the same trials
/// as the probe's lag (`HostWakeupSampler`): each sleep's overshoot past its deadline, ms.
///
/// The probe's lag contains at least one such wake-up (the compositor's, at each tick). A host
/// that wakes threads late — a shared VM whose virtual CPU is descheduled, an idle CPU's deep
/// sleep state — lengthens the lag by as much, whatever the probe does; the calibration states
/// its bound against this figure (`allowanceMilliseconds`) so that it fails on the probe and not
/// on the host.
package struct HostWakeupReport: Sendable, Codable, Hashable {
  /// Sleeps measured, on every CPU together.
  package var samples: Int
  /// CPUs sampled (one pinned thread each).
  package var cpus: Int
  /// Whether the samplers ran under `SCHED_FIFO` at the compositor's priority (as the compositor
  /// does where allowed); otherwise under the normal policy, competing with the burners as the
  /// compositor then does.
  package var realtime: Bool
  /// Overshoot past the deadline: median, 99th percentile (type 7), largest; ms.
  package var p50Milliseconds: Double
  package var p99Milliseconds: Double
  package var maxMilliseconds: Double
  /// The quantile the allowance is taken at: 1 − 0.01 / (trials × wake-ups on each trial's lag).
  package var allowanceQuantile: Double
  /// The overshoot at `allowanceQuantile` (type 7), ms: the host delay that every wake-up on
  /// every trial's lag stays under 99 % of the time. The lag p99 of a few dozen trials is in
  /// effect their largest lag, so this is what the host alone can add to it without failing by
  /// chance more than once in a hundred calibrations.
  package var allowanceMilliseconds: Double

  /// The report of the overshoots measured (ns) for a calibration of `trials` trials whose lag
  /// each holds `wakeupsPerLag` wake-ups (the presenter's and the compositor's on shared memory;
  /// the presenter's, the X server's and the probe's on X11).
  package init(
    overshootsNanoseconds: [UInt64], cpus: Int, realtime: Bool, trials: Int, wakeupsPerLag: Int = 1
  ) {
    let ms = overshootsNanoseconds.map { Double($0) / 1e6 }.sorted()
    samples = ms.count
    self.cpus = cpus
    self.realtime = realtime
    p50Milliseconds = Percentile.type7(sorted: ms, 0.5)
    p99Milliseconds = Percentile.type7(sorted: ms, 0.99)
    maxMilliseconds = ms.last ?? .nan
    allowanceQuantile = 1 - 0.01 / Double(max(1, trials) * max(1, wakeupsPerLag))
    allowanceMilliseconds = Percentile.type7(sorted: ms, allowanceQuantile)
  }
}

/// One thread per CPU bench may run on, pinned to it, each sleeping to absolute deadlines 1–2 ms
/// apart at the compositor's priority and recording how late each wake-up came, until `stop`.
/// Pinned, because a virtual CPU descheduled by its host delays only the threads on it. Their
/// own cost is a few microseconds of CPU per wake-up.
package final class HostWakeupSampler: Sendable {
  /// The compositor's `SCHED_FIFO` priority (the lowest + 10, `Compositor`): the samplers wake as
  /// the thread whose wake-up is in every lag.
  static let priority: Int32 = 11
  /// The most overshoots a thread keeps (about 1.7 h at 1.5 ms a sleep); past it each new one
  /// replaces a random one kept, so memory stays bounded.
  static let capacity = 1 << 22

  private let stopFlag = Atomic<Bool>(false)
  private let count = Atomic<Int>(0)
  private let threads: Int
  private let done = DispatchSemaphore(value: 0)
  private let collected = Mutex<(overshoots: [UInt64], realtime: Bool)>(([], true))
  private let result = Mutex<HostWakeupReport?>(nil)

  private init(threads: Int) { self.threads = threads }

  /// Starts one sampler thread per CPU this process may run on (one unpinned thread when the
  /// affinity cannot be read). A thread that cannot be started counts as done with no samples.
  package static func start() -> HostWakeupSampler {
    let cpus: [Int?] = ((try? CPUAffinity.get()) ?? []).map { $0 }
    let pins = cpus.isEmpty ? [nil] : cpus
    let sampler = HostWakeupSampler(threads: pins.count)
    for (i, cpu) in pins.enumerated() {
      do {
        try SystemThread.start(name: "firstframe.wake\(i)") { sampler.sample(on: cpu, seed: UInt64(i)) }
      } catch {
        sampler.done.signal()
      }
    }
    return sampler
  }

  /// Wake-ups measured so far, on every CPU.
  package var sampleCount: Int { count.load(ordering: .relaxed) }

  /// Stops the threads, waits for them, and returns what they measured, for a calibration of
  /// `trials` trials with `wakeupsPerLag` wake-ups on each lag (`HostWakeupReport.init`). Safe to
  /// call more than once (later calls return the first report).
  package func stop(trials: Int, wakeupsPerLag: Int = 1) -> HostWakeupReport {
    if !stopFlag.exchange(true, ordering: .acquiringAndReleasing) {
      for _ in 0..<threads { done.wait() }
      let c = collected.withLock { $0 }
      let report = HostWakeupReport(
        overshootsNanoseconds: c.overshoots, cpus: threads, realtime: c.realtime && !c.overshoots.isEmpty,
        trials: trials, wakeupsPerLag: wakeupsPerLag)
      result.withLock { $0 = report }
    }
    return result.withLock { $0 }
      ?? HostWakeupReport(overshootsNanoseconds: [], cpus: threads, realtime: false, trials: trials)
  }

  private func sample(on cpu: Int?, seed: UInt64) {
    if let cpu { try? CPUAffinity.set(cpus: [cpu]) }
    let realtime = SystemThread.requestRealtime(priority: Self.priority)
    var overshoots: [UInt64] = []
    overshoots.reserveCapacity(8192)
    var rng = SplitMix64(seed: 0x5eed &+ seed)
    while !stopFlag.load(ordering: .acquiring) {
      let deadline = MonotonicClock.now() &+ 1_000_000 &+ rng.next() % 1_000_000
      MonotonicClock.sleep(until: deadline)
      let late = MonotonicClock.now() &- deadline
      if overshoots.count < Self.capacity {
        overshoots.append(late)
      } else {
        overshoots[Int(rng.next() % UInt64(Self.capacity))] = late
      }
      count.add(1, ordering: .relaxed)
    }
    collected.withLock {
      $0.overshoots += overshoots
      $0.realtime = $0.realtime && realtime
    }
    done.signal()
  }
}
