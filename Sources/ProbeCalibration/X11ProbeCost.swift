import CaptureKit
import Foundation
import Probe
import SystemCalls
import X11Display

/// What the X11 probe costs at one window size, from `X11ProbeCost.run`.
package struct X11ProbeCostReport: Sendable, Codable, Hashable {
  /// Width in pixels.
  package var width: Int
  /// Height in pixels.
  package var height: Int
  /// How the probe read the window: `reduced` (half size from 640×360 up, the default) or
  /// `full` (every pixel, as before the server scaled windows down).
  package var resolution: String
  /// How many times smaller than the window, in each dimension, the images the probe analysed
  /// were (1 or 2).
  package var readScale: Int
  /// Frames presented (at `framesPerSecond`) while the probe watched.
  package var framesPresented: Int
  /// Frames the probe read (one per DAMAGE batch; fewer than presented when it fell behind).
  package var framesObserved: Int
  /// The presenter's rate, frames per second.
  package var framesPerSecond: Double
  /// The probe thread's CPU time per observed frame, microseconds (`CLOCK_THREAD_CPUTIME_ID`:
  /// waking on the event, the server's scaling and `ShmGetImage` requests and their replies,
  /// converting to luma, the live-frame detector).
  package var probeMicrosecondsPerFrame: Double
  /// The probe's share of one core at `framesPerSecond`, percent (goal ≤ 3 % at 60 frames/s).
  package var probePercentOfCore: Double
  /// Of `probeMicrosecondsPerFrame`, the live-frame detector's part (the rest is waking,
  /// reading the pixels and converting them), microseconds.
  package var detectorMicrosecondsPerFrame: Double
  /// The X server's CPU time per presented frame while the probe watched, microseconds, when
  /// its pid was given: putting each image (the presenter's part) and scaling and copying it
  /// for the probe (the probe's part).
  package var serverMicrosecondsPerFrame: Double?
  /// The X server's CPU time per presented frame over as many frames presented just before,
  /// while the probe did not watch the window yet (the presenter's part alone), microseconds.
  package var serverPresentOnlyMicrosecondsPerFrame: Double?

  /// What the probe's reads add to the X server's CPU per frame: `serverMicrosecondsPerFrame`
  /// minus `serverPresentOnlyMicrosecondsPerFrame`, microseconds.
  package var serverAddedMicrosecondsPerFrame: Double? {
    guard let with = serverMicrosecondsPerFrame, let without = serverPresentOnlyMicrosecondsPerFrame else {
      return nil
    }
    return with - without
  }
}

/// Measures the X11 probe's cost: a real X client of this process presents a light board that
/// changes every frame at `framesPerSecond` into a `width`×`height` window, for `seconds`
/// with the probe (`DisplayMonitor(x11Display:)`) not yet watching it, then for `seconds` while
/// the probe reads every change. The X server's CPU time over each half shows what the
/// probe's reads cost the server.
package enum X11ProbeCost {
  /// Runs the measurement on the X server `display`, the probe reading at `resolution`.
  /// `serverPID` (the Xvfb bench started) adds the server's CPU time.
  /// - Throws: `X11Error` when the libraries, the server or DAMAGE are missing, or the window
  ///   never appears.
  package static func run(
    width: Int, height: Int, display: String?, authorization: X11Authorization? = nil,
    serverPID: Int32? = nil, resolution: X11WindowCapture.Resolution = .reduced,
    framesPerSecond: Double = 60, seconds: Double = 3
  ) throws(X11Error) -> X11ProbeCostReport {
    let monitor = try DisplayMonitor(
      x11Display: display, authorization: authorization, resolution: resolution)
    defer { monitor.stop() }
    let presenter = try X11Presenter(
      display: display, authorization: authorization, width: width, height: height,
      title: "FirstFrame probe cost \(width)×\(height)", pid: getpid())
    defer { presenter.close() }
    var scene = CalibrationScene(width: width, height: height, kind: .board, noiseSigma: 8, seed: 7)
    var pixels = [UInt8](repeating: 0, count: width * height)
    let interval = UInt64(1e9 / framesPerSecond)
    let count = Int(seconds * framesPerSecond)
    var sequence: UInt64 = 0
    func present(_ frames: Int) {
      let start = MonotonicClock.now()
      for k in 0..<frames {
        let now = MonotonicClock.now()
        pixels.withUnsafeMutableBufferPointer {
          scene.render(captureTime: now, sequence: sequence, into: $0.baseAddress!)
        }
        presenter.publish(
          VideoFrame(width: width, height: height, pixels: pixels, sequence: sequence, captureTime: now))
        sequence += 1
        MonotonicClock.sleep(until: start &+ UInt64(k + 1) &* interval)
      }
      MonotonicClock.sleep(nanoseconds: 50_000_000)  // the last reads
    }

    // The presenter alone: the window is mapped, but the probe is not told whose it is yet.
    present(6)
    let alone0 = serverPID.flatMap(processCPUNanoseconds)
    present(count)
    let alone1 = serverPID.flatMap(processCPUNanoseconds)

    monitor.watch(processID: getpid())
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
    present(6)  // settle, then measure from here
    let (cpu0, frames0) = monitor.x11ProbeThreadCost ?? (0, 0)
    let analysis0 = monitor.analysisCost
    let server0 = serverPID.flatMap(processCPUNanoseconds)
    present(count)
    let (cpu1, frames1) = monitor.x11ProbeThreadCost ?? (0, 0)
    let analysis1 = monitor.analysisCost
    let server1 = serverPID.flatMap(processCPUNanoseconds)

    let observed = Int(frames1 - frames0)
    let perFrame = observed == 0 ? Double.nan : Double(cpu1 - cpu0) / Double(observed) / 1000
    func perPresented(_ a: UInt64?, _ b: UInt64?) -> Double? {
      guard let a, let b, b >= a else { return nil }
      return Double(b - a) / Double(count) / 1000
    }
    return X11ProbeCostReport(
      width: width, height: height, resolution: resolution.rawValue, readScale: monitor.x11ReadScale ?? 1,
      framesPresented: count, framesObserved: observed,
      framesPerSecond: framesPerSecond, probeMicrosecondsPerFrame: perFrame,
      probePercentOfCore: perFrame * framesPerSecond / 1e6 * 100,
      detectorMicrosecondsPerFrame: Double(analysis1.nanoseconds - analysis0.nanoseconds)
        / Double(max(1, analysis1.frames - analysis0.frames)) / 1000,
      serverMicrosecondsPerFrame: perPresented(server0, server1),
      serverPresentOnlyMicrosecondsPerFrame: perPresented(alone0, alone1))
  }

  /// The CPU time process `pid` has used, ns: the sum over its threads of the run time in
  /// `/proc/PID/task/TID/schedstat` (ns), or, where that is missing, `utime + stime` from
  /// `/proc/PID/stat` (clock ticks, 10 ms apart).
  static func processCPUNanoseconds(_ pid: Int32) -> UInt64? {
    // A process or thread that is gone (or a kernel without schedstat) falls back, or gives nil.
    if let tasks = try? FileSystem.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
      var total: UInt64 = 0
      var read = 0
      for task in tasks {
        guard let text = FileSystem.readText(atPath: "/proc/\(pid)/task/\(task)/schedstat"),
          let first = text.split(separator: " ").first, let ns = UInt64(first)
        else { continue }
        total += ns
        read += 1
      }
      if read > 0 { return total }
    }
    guard let text = FileSystem.readText(atPath: "/proc/\(pid)/stat"),
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
