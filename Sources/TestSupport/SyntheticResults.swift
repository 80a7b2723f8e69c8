import Foundation
import Gates
import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

/// Realistic, seeded synthetic results for tests of the analysis and the `bench` subcommands (and
/// for looking at the plot). The same seed always gives the same results.
package enum SyntheticResults {
  /// A skewed launch-time sample: median·exp(N(0, sigma)) plus, in 10 % of runs, an exponential
  /// tail spike (page faults, scheduler hiccups), ms.
  package static func launchTimes(_ n: Int, median: Double, sigma: Double = 0.07, rng: inout SplitMix64)
    -> [Double]
  {
    (0..<n).map { _ in
      var v = median * exp(sigma * rng.nextGaussian())
      if rng.nextUnit() < 0.1 { v += -log(1 - rng.nextUnit()) * median * 0.12 }
      return v
    }
  }

  /// Medians of first_frame_observed by config and condition, ms.
  package static let medians: [String: [String: Double]] = [
    "deferred": ["cold": 250, "warm": 150, "relock": 95, "loaded": 330, "low-power": 420, "hot": 170],
    "eager": ["cold": 520, "warm": 330, "relock": 210, "loaded": 690, "low-power": 900, "hot": 370],
    "preview-only": ["cold": 240, "warm": 145, "relock": 92, "loaded": 320, "low-power": 400, "hot": 165],
  ]

  /// 8 cells (deferred, eager × cold, warm, relock, loaded) × `runs` runs, with timelines.
  /// `scale` multiplies every median; `failEvery: k` makes every k-th run fail; `comparisons` fills
  /// in the within-run comparisons.
  package static func make(
    configs: [String] = ["deferred", "eager"], conditions: [String] = ["cold", "warm", "relock", "loaded"],
    seed: UInt64 = 42, runs: Int = 20, scale: Double = 1, camera: String = "synthetic",
    version: String = "0.1.0",
    failEvery: Int? = nil, comparisons: Bool = false
  ) -> BenchResults {
    var rng = SplitMix64(seed: seed)
    var cells: [BenchResults.Cell] = []
    for condition in conditions {
      for config in configs {
        let median = (medians[config]?[condition] ?? 300) * scale
        let ffo = launchTimes(runs, median: median, rng: &rng)
        var records: [BenchResults.RunRecord] = []
        for (i, total) in ffo.enumerated() {
          if let failEvery, (i + 1) % failEvery == 0 {
            records.append(
              BenchResults.RunRecord(
                run: i + 1, ok: false, error: "timeout after 10 s (last event session.start_running)",
                phases: [:], counts: [:]))
            continue
          }
          records.append(
            record(run: i + 1, config: config, condition: condition, firstFrame: total, rng: &rng))
        }
        var phases: [String: BenchResults.PhaseSummary] = [:]
        for phase in PhaseName.all {
          let s = records.filter(\.ok).compactMap { $0.phases[phase] }
          if !s.isEmpty { phases[phase] = Statistics.summarize(s) }
        }
        cells.append(
          BenchResults.Cell(
            config: config, condition: condition, camera: camera, runs: runs,
            failed: records.filter { !$0.ok }.count, burners: condition == "loaded" ? 2 : nil, phases: phases,
            records: records))
      }
    }
    let settings = BenchResults.BenchSettings(
      runs: runs, warmup: 1, conditions: conditions, configs: configs,
      outputs: ["preview", "photo", "movie"],
      camera: camera, profile: "Benchmarks/profiles/phone.json", profileName: "phone", app: nil,
      refreshHz: 60,
      tap: false, lockSeconds: 1, runTimeoutSeconds: 10, startedAt: "2026-11-29T12:00:00Z", wallSeconds: 321)
    let host = BenchResults.HostInfo(
      hostname: "ci-runner", kernel: "6.1.0", cpus: 2, realtimeCompositor: false, cacheEviction: "fadvise")
    var results = BenchResults(tool: .init(version: version), host: host, settings: settings, cells: cells)
    if comparisons { results.comparisons = Comparator.withinRunComparisons(cells) }
    return results
  }

  /// One run: phases that add up to `firstFrame` (ms), and the events that produced them.
  package static func record(
    run: Int, config: String, condition: String, firstFrame: Double, rng: inout SplitMix64
  )
    -> BenchResults.RunRecord
  {
    let relock = condition == "relock"
    let launch = relock ? 0 : firstFrame * (0.18 + 0.04 * rng.nextUnit())
    let ui = relock ? 0 : firstFrame * 0.06
    let configure = firstFrame * (config == "eager" ? 0.30 : 0.12)
    let vsyncWait = 8 + 8 * rng.nextUnit()
    let startRunning = firstFrame - launch - ui - configure - vsyncWait - 6
    var t = 0.0
    var events: [BenchResults.TimelineEvent] = []
    func ev(
      _ name: String, _ kind: String, _ at: Double, _ process: String, _ fields: [String: String]? = nil
    ) {
      events.append(
        .init(
          name: name, kind: kind, t_ms: at, pid: process == "app" ? 4242 : (process == "probe" ? 4100 : 4000),
          process: process, fields: fields))
    }
    ev(relock ? "relock.unlock" : "launch.spawn", "event", 0, "bench")
    t = launch
    if !relock { ev("app.main", "event", t, "app") }
    t += ui
    if !relock { ev("ui.ready", "event", t, "app") }
    ev("session.configure", "begin", t, "app")
    let outputs = config == "eager" ? ["preview", "photo", "movie"] : ["preview"]
    var ot = t + 2
    for output in outputs {
      let d = (configure - 4) / Double(outputs.count)
      ev("output.init", "begin", ot, "app", ["output": output])
      ev("output.init", "end", ot + d, "app", ["output": output])
      ot += d
    }
    t += configure
    ev("session.configure", "end", t, "app")
    ev("session.start_running", "begin", t, "app")
    t += startRunning
    ev("session.start_running", "end", t, "app")
    let presented = t + 6
    ev("preview.first_present", "event", presented, "app")
    ev("display.first_live_frame", "event", firstFrame, "probe")
    var phases: [String: Double] = [
      PhaseName.sessionConfigure: configure, PhaseName.startRunning: startRunning,
      PhaseName.firstFramePresented: presented, PhaseName.firstFrameObserved: firstFrame,
    ]
    if !relock {
      phases[PhaseName.processLaunch] = launch
      phases[PhaseName.uiReady] = launch + ui
    }
    if config == "deferred" {
      let will = firstFrame + 3
      let d = 150 + 40 * rng.nextUnit()
      ev("deferred_start.will", "event", will, "app")
      ev("output.init", "begin", will + 1, "app", ["output": "photo"])
      ev("output.init", "end", will + d * 0.5, "app", ["output": "photo"])
      ev("output.init", "begin", will + d * 0.5, "app", ["output": "movie"])
      ev("output.init", "end", will + d - 1, "app", ["output": "movie"])
      ev("deferred_start.did", "event", will + d, "app")
      phases[PhaseName.deferredStart] = d
      phases[PhaseName.firstFrameToDeferredDone] = will + d - firstFrame
    }
    return BenchResults.RunRecord(
      run: run, ok: true, error: nil, phases: phases, counts: ["stale_frames": 0, "dropped_frames": 0],
      wallMs: firstFrame + 400, timeline: events)
  }
}
