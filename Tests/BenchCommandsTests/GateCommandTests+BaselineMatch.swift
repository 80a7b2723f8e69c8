import BenchCommands
import BenchKit
import Foundation
import Gates
import ResultsSchema
import TestSupport
import Testing

/// A baseline is compared only with results made the same way, on the same machine (issue 11
/// item 3); with `GateCommandTests`' folder and helpers.
extension GateCommandTests {
  @Test(
    "a baseline from other outputs on another machine is refused naming each difference, accepted with --force"
  )
  func otherOutputsAndMachine() throws {
    var baseline = SyntheticResults.make(seed: 1)
    baseline.settings.outputs = ["preview", "photo"]
    baseline.host.machineId = "0123456789abcdef"
    baseline.host.cpuModel = "Other CPU @ 2.0GHz"
    var results = SyntheticResults.make(seed: 2)
    results.settings.outputs = ["preview", "photo", "movie", "analysis"]
    results.host.machineId = "fedcba9876543210"
    results.host.cpuModel = "This CPU @ 3.0GHz"
    let base = try save(baseline, "base.json")
    let res = try save(results, "res.json")
    let (code, _, err) = gate(["--baseline", base, res])
    #expect(code == 2)
    #expect(err.split(separator: "\n").count == 1)
    #expect(err.contains("outputs preview,photo vs preview,photo,movie,analysis"), "\(err)")
    #expect(err.contains("machine id 0123456789abcdef vs fedcba9876543210"), "\(err)")
    #expect(err.contains("CPU model Other CPU @ 2.0GHz vs This CPU @ 3.0GHz"), "\(err)")
    // Accepted: the checks run (an A/A cell may be inconclusive, which is not this test's subject).
    let (forced, out, _) = gate(["--baseline", base, res, "--force", "--inconclusive", "pass"])
    #expect(forced == 0, "\(out)")
    #expect(out.contains("warning: comparing against a foreign baseline") && out.contains("outputs"))
  }

  @Test(
    "every setting that changes a launch is compared: profile contents, app, refresh, tap, lock, priority, eviction, CPUs"
  )
  func everySetting() {
    let baseline = SyntheticResults.make(seed: 1)
    #expect(Gate.incompatibilities(baseline: baseline, results: baseline).isEmpty)
    var results = baseline
    results.settings.profileHash = "fnv1a64:0000000000000001"
    results.settings.app = "/usr/bin/other-app --config {config}"
    results.settings.refreshHz = 120
    results.settings.tap = !baseline.settings.tap
    results.settings.lockSeconds = 3
    results.host.realtimeCompositor = !baseline.host.realtimeCompositor
    results.host.realtimeCamera = true
    results.host.cacheEviction = "fadvise+drop_caches+other"
    results.host.cpus = baseline.host.cpus + 2
    results.host.kernel = "9.9.9-other"
    results.settings.injectDelayMs = 30
    let named = Gate.incompatibilities(baseline: baseline, results: results).joined(separator: "; ")
    for word in [
      "profile contents", "app", "refresh", "tap", "lock seconds", "real-time compositor", "real-time camera",
      "cache eviction", "CPUs", "kernel", "injected delay",
    ] {
      #expect(named.contains(word), "\(word) not named in: \(named)")
    }
  }

  @Test("an --app run carries no cost profile: not the name \"default\", no contents hash")
  func appRunHasNoProfile() throws {
    let options = try #require(
      try RunCommand.parse([
        "--app", "/bin/true", "--out", scratchFolder("ff-baseline-match"),
      ])?.prepare())
    #expect(options.settings.profileName == nil)
    #expect(options.settings.profileHash == nil)
    let builtIn = try #require(
      try RunCommand.parse(["--out", scratchFolder("ff-baseline-match")])?
        .prepare())
    #expect(builtIn.settings.profileName == "default")
    #expect(builtIn.settings.profileHash?.hasPrefix("fnv1a64:") == true)
  }
}

/// The fingerprint adds how the first frame was found, when a run gave up, and the apps (issue
/// 25 item 3).
extension GateCommandTests {
  @Test("--no-board, --x11-read, --run-timeout, the feeder and each --app-config are named as differences")
  func firstFrameSettings() {
    var baseline = SyntheticResults.make(seed: 1)
    let server = BenchResults.DisplayServerInfo(
      name: ":9", vendor: "The X.Org Foundation", release: 12_101_007, started: true, screen: "640x480x24",
      realtime: false, sharedMemory: true)
    baseline.settings.displayServer = server
    baseline.settings.lightBoardFeed = BenchResults.LightBoardFeedInfo(
      output: "/dev/video2", capture: "/dev/video0", loopVideo: true, framesSent: 900, framesSkipped: 0,
      deadlinesMissed: 0, framesPerSecond: 30, formats: ["640x480 YUYV"], unsupportedFormat: nil,
      realtime: true, failure: nil)
    baseline.settings.appConfigs = ["cheese": "cheese --device {device}", "guvc": "guvcview -d {device}"]
    var results = baseline
    results.settings.lightBoard = false
    results.settings.displayServer?.probeReads = "screen"
    results.settings.runTimeoutSeconds = 30
    results.settings.lightBoardFeed?.output = "/dev/video3"
    results.settings.appConfigs = [
      "cheese": "cheese --device {device} --fullscreen", "qcam": "qcam {device}",
    ]
    let named = Gate.incompatibilities(baseline: baseline, results: results)
    for difference in [
      "light board read vs ignored (--no-board)", "x11 read window vs screen", "run timeout s 10 vs 30",
      "light-board feed /dev/video2 into /dev/video0 (640x480 YUYV) vs /dev/video3 into /dev/video0",
      "app-config cheese cheese --device {device} vs cheese --device {device} --fullscreen",
      "app-config guvc guvcview -d {device} vs (none)", "app-config qcam (none) vs qcam {device}",
    ] {
      #expect(named.contains { $0.hasPrefix(difference) }, "\(difference) not named in: \(named)")
    }
  }

  @Test("older results lacking the board, the X11 read or the feeder's later counters match their defaults")
  func olderResultsMatchDefaults() {
    var baseline = SyntheticResults.make(seed: 1)
    baseline.settings.displayServer = BenchResults.DisplayServerInfo(
      name: ":9", vendor: "The X.Org Foundation", release: 12_101_007, started: true, screen: "640x480x24",
      realtime: false, sharedMemory: true)
    baseline.settings.lightBoardFeed = BenchResults.LightBoardFeedInfo(
      output: "/dev/video2", capture: "/dev/video0", loopVideo: true, framesSent: 900, framesSkipped: 0,
      deadlinesMissed: 0, framesPerSecond: 30, formats: ["640x480 YUYV"], unsupportedFormat: nil,
      realtime: true, failure: nil)
    var results = baseline
    results.settings.displayServer?.probeReads = "window"
    results.settings.lightBoardFeed?.framesSent = 1200
    results.settings.lightBoardFeed?.cpuShare = 0.02
    #expect(Gate.incompatibilities(baseline: baseline, results: results).isEmpty)
  }
}
