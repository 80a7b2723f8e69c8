import BenchCommands
import Gates
import ResultsSchema
import TestSupport
import Testing

/// A baseline that differs from the results only in what bench did around each launch — the
/// warm-ups, the thread-states instrument, the preload library, the headless apps, the quit
/// grace, the X11 window timeout, the loaded condition's burners — or in the display server
/// the frames were read from (its release, its screen, whether the probe's images crossed in
/// shared memory) is refused (issue 37 item 4);
/// with `GateCommandTests`' folder and helpers.
extension GateCommandTests {
  /// One setting that changes what is measured: how the baseline and the results differ in it,
  /// and the difference `bench gate` must name.
  struct MeasurementSetting: Sendable, CustomTestStringConvertible {
    var name: String
    var named: String
    var baseline: @Sendable (inout BenchResults.BenchSettings) -> Void = { _ in }
    var results: @Sendable (inout BenchResults.BenchSettings) -> Void
    var testDescription: String { name }
  }

  static let x11Server = BenchResults.DisplayServerInfo(
    name: ":9", vendor: "The X.Org Foundation", release: 12_101_007, started: true, screen: "640x480x24",
    realtime: false, sharedMemory: true)

  static let loadInfo = BenchResults.LoadInfo(
    kind: "cpu", burners: 2, cpus: [0, 1], cpuQuota: nil, bufferBytes: nil, lastLevelCacheBytes: nil)

  static let measurementSettings: [MeasurementSetting] = [
    .init(name: "--warmup", named: "warm-ups 1 vs 3", results: { $0.warmup = 3 }),
    .init(
      name: "--thread-states", named: "thread states tracefs vs sampled",
      baseline: { $0.threadStates = "tracefs" }, results: { $0.threadStates = "sampled" }),
    .init(
      name: "--preload-camera-app", named: "camera-app not preloaded vs preloaded (--preload-camera-app)",
      results: { $0.preloadCameraApp = true }),
    .init(
      name: "--headless-app-config", named: "headless app-configs none vs cheese",
      baseline: { $0.appConfigs = ["cheese": "cheese --device {device}"] },
      results: {
        $0.appConfigs = ["cheese": "cheese --device {device}"]
        $0.headlessAppConfigs = ["cheese"]
      }),
    .init(name: "--quit-grace", named: "quit grace s 3 vs 10", results: { $0.quitGraceSeconds = 10 }),
    .init(
      name: "--window-timeout", named: "window timeout s 10 vs 1.5",
      baseline: {
        $0.displayServer = GateCommandTests.x11Server
        $0.windowTimeoutSeconds = 10
      },
      results: {
        $0.displayServer = GateCommandTests.x11Server
        $0.windowTimeoutSeconds = 1.5
      }),
    .init(
      name: "the X server's release",
      named: "display server The X.Org Foundation 12101007 vs The X.Org Foundation 12201001",
      baseline: { $0.displayServer = GateCommandTests.x11Server },
      results: {
        $0.displayServer = GateCommandTests.x11Server
        $0.displayServer?.release = 12_201_001
      }),
    .init(
      name: "the compositor's version", named: "display server sway 1.9 vs sway 1.10",
      baseline: {
        $0.displayServer = GateCommandTests.x11Server
        $0.displayServer?.vendor = "sway 1.9"
        $0.displayServer?.release = 0
      },
      results: {
        $0.displayServer = GateCommandTests.x11Server
        $0.displayServer?.vendor = "sway 1.10"
        $0.displayServer?.release = 0
      }),
    .init(
      name: "the private display's screen", named: "display screen 640x480x24 vs 1920x1080x24",
      baseline: { $0.displayServer = GateCommandTests.x11Server },
      results: {
        $0.displayServer = GateCommandTests.x11Server
        $0.displayServer?.screen = "1920x1080x24"
      }),
    .init(
      name: "MIT-SHM", named: "probe images shared memory vs socket",
      baseline: { $0.displayServer = GateCommandTests.x11Server },
      results: {
        $0.displayServer = GateCommandTests.x11Server
        $0.displayServer?.sharedMemory = false
      }),
    .init(
      name: "the loaded condition's burners", named: "load burners 2 vs 4",
      baseline: { $0.load = GateCommandTests.loadInfo },
      results: {
        $0.load = GateCommandTests.loadInfo
        $0.load?.burners = 4
        $0.load?.cpus = [0, 1, 2, 3]
      }),
  ]

  @Test(
    "a baseline that differs only in a setting that changes what is measured is refused, naming it",
    arguments: measurementSettings)
  func measurementSettingRefused(_ setting: MeasurementSetting) throws {
    var baseline = SyntheticResults.make(seed: 1)
    setting.baseline(&baseline.settings)
    var results = baseline
    setting.results(&results.settings)
    let base = try save(baseline, "base.json")
    let res = try save(results, "res.json")
    let (code, _, err) = gate(["--baseline", base, res])
    #expect(code == 2, "\(err)")
    #expect(err.split(separator: "\n").count == 1, "\(err)")
    #expect(err.contains(setting.named), "\(setting.named) not named in: \(err)")
    #expect(Gate.incompatibilities(baseline: baseline, results: results) == [setting.named])
  }

  @Test(
    "older results lacking the thread states, the preload, the headless apps, the quit grace or the window timeout match their defaults"
  )
  func olderResultsMatchMeasurementDefaults() {
    var baseline = SyntheticResults.make(seed: 1)
    baseline.settings.displayServer = Self.x11Server
    baseline.settings.appConfigs = ["cheese": "cheese --device {device}"]
    baseline.settings.load = Self.loadInfo
    var results = baseline
    results.settings.threadStates = "off"
    results.settings.preloadCameraApp = false
    results.settings.headlessAppConfigs = []
    results.settings.quitGraceSeconds = 3
    results.settings.windowTimeoutSeconds = 10
    // Load recorded on one side only: the side without it ran no loaded condition.
    var unloaded = results
    unloaded.settings.load = nil
    #expect(Gate.incompatibilities(baseline: baseline, results: results).isEmpty)
    #expect(Gate.incompatibilities(baseline: results, results: baseline).isEmpty)
    #expect(Gate.incompatibilities(baseline: baseline, results: unloaded).isEmpty)
  }
}
