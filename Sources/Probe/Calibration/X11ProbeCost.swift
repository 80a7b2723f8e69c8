import CaptureKit
import Foundation
import SystemCalls
import X11Display

/// What the X11 probe costs at one window size, from `X11ProbeCost.run`.
public struct X11ProbeCostReport: Sendable, Codable, Hashable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Frames presented (at `framesPerSecond`).
  public var framesPresented: Int
  /// Frames the probe read (one per DAMAGE batch; fewer than presented when it fell behind).
  public var framesObserved: Int
  /// The presenter's rate, frames per second.
  public var framesPerSecond: Double
  /// The probe thread's CPU time per observed frame, microseconds (`CLOCK_THREAD_CPUTIME_ID`:
  /// waking on the event, `ShmGetImage`, converting to luma, the live-frame detector).
  public var probeMicrosecondsPerFrame: Double
  /// The probe's share of one core at `framesPerSecond`, percent (goal ≤ 3 % at 60 frames/s).
  public var probePercentOfCore: Double
  /// Of `probeMicrosecondsPerFrame`, the live-frame detector's part (the rest is waking,
  /// reading the pixels and converting them), microseconds.
  public var detectorMicrosecondsPerFrame: Double
  /// The X server's CPU time per presented frame, microseconds (its `utime + stime` in
  /// `/proc/PID/stat`), when its pid was given: the server's side of putting and reading images.
  public var serverMicrosecondsPerFrame: Double?
}

/// Measures the X11 probe's cost: a real X client of this process presents a light board that
/// changes every frame at `framesPerSecond` into a `width`×`height` window, and the probe
/// (`DisplayMonitor(x11Display:)`) reads every change, for `seconds`.
public enum X11ProbeCost {
  /// Runs the measurement on the X server `display`. `serverPID` (the Xvfb bench started) adds
  /// the server's CPU time.
  /// - Throws: `X11Error` when the libraries, the server or DAMAGE are missing, or the window
  ///   never appears.
  public static func run(
    width: Int, height: Int, display: String?, authorization: X11Authorization? = nil,
    serverPID: Int32? = nil,
    framesPerSecond: Double = 60, seconds: Double = 3
  ) throws(X11Error) -> X11ProbeCostReport {
    let monitor = try DisplayMonitor(x11Display: display, authorization: authorization)
    defer { monitor.stop() }
    monitor.watch(processID: getpid())
    let presenter = try X11Presenter(
      display: display, authorization: authorization, width: width, height: height,
      title: "FirstFrame probe cost \(width)×\(height)", pid: getpid())
    defer { presenter.close() }
    guard
      MonotonicClock.sleep(
        until: MonotonicClock.now() &+ 5_000_000_000, slice: 1_000_000,
        shouldStop: {
          monitor.x11ProbeThreadCost.map { $0.frames > 0 } ?? false
        }) == false
    else {
      throw X11Error(.requestFailed, "the probe did not find the cost benchmark's window")
    }
    monitor.arm(.launch(since: MonotonicClock.now()))
    var scene = CalibrationScene(width: width, height: height, kind: .board, noiseSigma: 8, seed: 7)
    var pixels = [UInt8](repeating: 0, count: width * height)
    let interval = UInt64(1e9 / framesPerSecond)
    let count = Int(seconds * framesPerSecond)
    // Settle, then measure from here.
    let (cpu0, frames0) = monitor.x11ProbeThreadCost ?? (0, 0)
    let analysis0 = monitor.analysisCost
    let server0 = serverPID.flatMap(processCPUNanoseconds)
    let start = MonotonicClock.now()
    for k in 0..<count {
      let now = MonotonicClock.now()
      pixels.withUnsafeMutableBufferPointer {
        scene.render(captureTime: now, sequence: UInt64(k), into: $0.baseAddress!)
      }
      presenter.publish(
        VideoFrame(width: width, height: height, pixels: pixels, sequence: UInt64(k), captureTime: now))
      MonotonicClock.sleep(until: start &+ UInt64(k + 1) &* interval)
    }
    MonotonicClock.sleep(nanoseconds: 50_000_000)  // the last reads
    let (cpu1, frames1) = monitor.x11ProbeThreadCost ?? (0, 0)
    let analysis1 = monitor.analysisCost
    let server1 = serverPID.flatMap(processCPUNanoseconds)
    let observed = Int(frames1 - frames0)
    let perFrame = observed == 0 ? Double.nan : Double(cpu1 - cpu0) / Double(observed) / 1000
    let serverPerFrame =
      (server0 != nil && server1 != nil) ? Double(server1! - server0!) / Double(count) / 1000 : nil
    return X11ProbeCostReport(
      width: width, height: height, framesPresented: count, framesObserved: observed,
      framesPerSecond: framesPerSecond, probeMicrosecondsPerFrame: perFrame,
      probePercentOfCore: perFrame * framesPerSecond / 1e6 * 100,
      detectorMicrosecondsPerFrame: Double(analysis1.nanoseconds - analysis0.nanoseconds)
        / Double(max(1, analysis1.frames - analysis0.frames)) / 1000,
      serverMicrosecondsPerFrame: serverPerFrame)
  }

  /// `utime + stime` of process `pid` in ns, from `/proc/PID/stat` (in clock ticks).
  static func processCPUNanoseconds(_ pid: Int32) -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After "pid (comm)": state is field 3, utime 14 and stime 15 (1-based) → 11 and 12 here.
    guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
      return nil
    }
    let ticks = UInt64(sysconf(Int32(_SC_CLK_TCK)))
    return (user + system) * 1_000_000_000 / max(ticks, 1)
  }
}
