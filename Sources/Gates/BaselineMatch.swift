import ResultsSchema

/// Whether a baseline was made the same way as the results it gates, on the same machine.
///
/// Compared: the tool version; how the launches were made (camera, cost profile name and
/// contents hash, app command, outputs, refresh rate, tap, lock seconds, injected delay, the
/// loaded condition's load kind, the low-power cap and the hot soak where both sides ran them,
/// the run timeout, each `--app-config` command by name and which of them ran headless); what
/// else bench did around each launch (the warm-ups, the thread-states method, whether
/// camera-app ran under the preload library, the quit grace, the X11 window timeout, the loaded
/// condition's burner count); how the
/// first frame was found (the display path, whether the light board was read or ignored with
/// `--no-board`, what the X11 probe read with `--x11-read`, the display server's vendor and
/// release, its screen and whether the probe's images crossed in shared memory, where both sides
/// ran one; the `--feed-light-board` feeder's
/// output node, capture node and formats); what
/// the machine allowed (real-time priority of the compositor and of the camera thread, the
/// cache-eviction method); and the machine itself (machine id, kernel, CPU model and count). A
/// value recorded on one side only is a difference: it cannot be shown to match. A field older
/// results lack is read as the default the documentation gives it (the display `shm`, the load
/// `cpu`, the board read, the X11 probe reading the `window`, thread states `off`, camera-app not
/// preloaded, no headless apps, a 3 s quit grace, a 10 s window timeout), not as a difference.
public enum BaselineMatch {
  /// Each difference as `what baseline vs results`, in a fixed order; empty when they match.
  public static func differences(baseline: BenchResults, results: BenchResults) -> [String] {
    let (b, r) = (baseline, results)
    var out: [String] = []
    func compare(_ what: String, _ x: String?, _ y: String?) {
      if x != y { out.append("\(what) \(x ?? "(not recorded)") vs \(y ?? "(not recorded)")") }
    }
    func text(_ v: Bool?) -> String? { v.map { $0 ? "granted" : "not granted" } }
    func number(_ v: Double) -> String { v.rounded() == v ? String(Int(v)) : String(v) }
    compare("tool version", b.tool.version, r.tool.version)
    compare("camera", b.settings.camera, r.settings.camera)
    compare("profile", b.settings.profileName, r.settings.profileName)
    compare("profile contents", b.settings.profileHash, r.settings.profileHash)
    compare("app", b.settings.app, r.settings.app)
    compare(
      "outputs", b.settings.outputs.joined(separator: ","), r.settings.outputs.joined(separator: ","))
    compare("refresh Hz", number(b.settings.refreshHz), number(r.settings.refreshHz))
    compare("tap", String(b.settings.tap), String(r.settings.tap))
    compare("lock seconds", number(b.settings.lockSeconds), number(r.settings.lockSeconds))
    compare(
      "injected delay ms", b.settings.injectDelayMs.map(String.init) ?? "none",
      r.settings.injectDelayMs.map(String.init) ?? "none")
    // Results from before --load all loaded the CPU only.
    compare("load", b.settings.load?.kind ?? "cpu", r.settings.load?.kind ?? "cpu")
    compare("real-time compositor", text(b.host.realtimeCompositor), text(r.host.realtimeCompositor))
    compare("real-time camera", text(b.host.realtimeCamera), text(r.host.realtimeCamera))
    // Results from before the X11 path were all made on the shared-memory surface.
    compare("display", b.settings.display ?? "shm", r.settings.display ?? "shm")
    out += firstFrameDifferences(b.settings, r.settings)
    out += measurementDifferences(b.settings, r.settings)
    compare("cache eviction", b.host.cacheEviction, r.host.cacheEviction)
    compare("machine id", b.host.machineId, r.host.machineId)
    compare("kernel", b.host.kernel, r.host.kernel)
    compare("CPU model", b.host.cpuModel, r.host.cpuModel)
    compare("CPUs", String(b.host.cpus), String(r.host.cpus))
    return out
  }

  /// How the first frame was found and when a run gave up, and the third-party apps: each
  /// difference as `what baseline vs results`.
  static func firstFrameDifferences(
    _ b: BenchResults.BenchSettings, _ r: BenchResults.BenchSettings
  ) -> [String] {
    var out: [String] = []
    func compare(_ what: String, _ x: String, _ y: String) {
      if x != y { out.append("\(what) \(x) vs \(y)") }
    }
    // `lightBoard` is recorded only as false (--no-board); absent, the probe read the board.
    func board(_ s: BenchResults.BenchSettings) -> String {
      s.lightBoard == false ? "ignored (--no-board)" : "read"
    }
    compare("light board", board(b), board(r))
    // Only the X11 paths have a probe read; results from before --x11-read read the window.
    if let bs = b.displayServer, let rs = r.displayServer {
      compare("x11 read", bs.probeReads ?? "window", rs.probeReads ?? "window")
      // What the frames were read from: the server and its release (a compositor's version is in
      // its vendor, its release 0), the screen bench gave it, how the probe's images crossed.
      func server(_ s: BenchResults.DisplayServerInfo) -> String {
        s.release == 0 ? s.vendor : "\(s.vendor) \(s.release)"
      }
      compare("display server", server(bs), server(rs))
      compare("display screen", bs.screen ?? "(not bench's)", rs.screen ?? "(not bench's)")
      func images(_ s: BenchResults.DisplayServerInfo) -> String {
        s.sharedMemory ? "shared memory" : "socket"
      }
      compare("probe images", images(bs), images(rs))
    }
    func seconds(_ v: Double) -> String { v.rounded() == v ? String(Int(v)) : String(v) }
    compare("run timeout s", seconds(b.runTimeoutSeconds), seconds(r.runTimeoutSeconds))
    // What the feeder wrote where, not what it counted while doing so.
    func feed(_ s: BenchResults.BenchSettings) -> String {
      s.lightBoardFeed.map {
        "\($0.output) into \($0.capture) (\($0.formats.sorted().joined(separator: ", ")))"
      }
        ?? "none"
    }
    compare("light-board feed", feed(b), feed(r))
    // The low-power cap and the hot soak, where both sides ran the condition: a side without it
    // has no such cells to compare.
    if let x = b.lowPower, let y = r.lowPower { compare("low-power cap", x, y) }
    if let x = b.soakSeconds, let y = r.soakSeconds { compare("hot soak s", seconds(x), seconds(y)) }
    let (bApps, rApps) = (b.appConfigs ?? [:], r.appConfigs ?? [:])
    for name in Set(bApps.keys).union(rApps.keys).sorted() {
      compare("app-config \(name)", bApps[name] ?? "(none)", rApps[name] ?? "(none)")
    }
    return out
  }
}
