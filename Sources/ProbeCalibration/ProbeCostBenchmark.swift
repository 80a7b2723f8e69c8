import LightBoard
import Probe
import SystemCalls

/// The probe's analysis cost at one image size.
package struct ProbeCostReport: Sendable, Codable, Hashable {
  /// Width in pixels.
  package var width: Int
  /// Height in pixels.
  package var height: Int
  /// Scanouts analysed.
  package var scanouts: Int
  /// Thread CPU time per scanout, microseconds (`CLOCK_THREAD_CPUTIME_ID`).
  package var microsecondsPerScanout: Double
  /// The share of one core the analysis takes at 120 scanouts per second, percent.
  package var percentOfCoreAt120Hz: Double
}

/// Measures `LiveFrameDetector.observe` on a realistic stream: a 30 fps camera (light board,
/// noise sigma 8) on a 120 Hz display, so one scanout in four shows a new image.
package enum ProbeCostBenchmark {
  /// Runs `scanouts` scanouts of `width`×`height` and reports the CPU time per scanout.
  package static func run(width: Int, height: Int, scanouts: Int = 1200) -> ProbeCostReport {
    var scene = CalibrationScene(width: width, height: height, kind: .board, noiseSigma: 8, seed: 42)
    let frameCount = 8
    var frames = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * height), count: frameCount)
    let t0: UInt64 = 5_000_000_000
    for i in 0..<frameCount {
      frames[i].withUnsafeMutableBufferPointer { p in
        scene.render(captureTime: t0 + UInt64(i) * 33_333_333, sequence: UInt64(i), into: p.baseAddress!)
      }
    }
    var detector = LiveFrameDetector(
      configuration: DetectorConfiguration(
        cameraFrameIntervalNanoseconds: 33_333_333, refreshIntervalNanoseconds: 8_333_333))
    detector.arm(.launch(since: t0))
    let start = MonotonicClock.threadCPUTime()
    for s in 0..<scanouts {
      let frame = (s / 4) % frameCount
      frames[frame].withUnsafeBufferPointer { p in
        let image = LumaImage(base: p.baseAddress!, width: width, height: height, bytesPerRow: width)
        detector.observe(image, at: t0 + UInt64(s) * 8_333_333)
      }
    }
    let cpu = Double(MonotonicClock.threadCPUTime() - start)
    let perScanout = cpu / Double(max(scanouts, 1)) / 1000
    return ProbeCostReport(
      width: width, height: height, scanouts: scanouts, microsecondsPerScanout: perScanout,
      percentOfCoreAt120Hz: perScanout * 120 / 1e6 * 100)
  }
}
