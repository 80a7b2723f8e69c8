import ResultsSchema

extension BaselineMatch {
  /// What bench did around each launch that changes what a run measures, or when it fails: the
  /// warm-ups before each condition, the thread-states instrument, the preload library in
  /// camera-app, the headless apps, the quit grace, the X11 window timeout and the loaded
  /// condition's burners. Each difference as `what baseline vs results`.
  static func measurementDifferences(
    _ b: BenchResults.BenchSettings, _ r: BenchResults.BenchSettings
  ) -> [String] {
    // Uncounted runs before each condition: what state the first counted run found.
    var out = difference("warm-ups", String(b.warmup), String(r.warmup))
    // tracefs and /proc sampling run beside the launch; results from before issue 27 had neither.
    out += difference("thread states", b.threadStates ?? "off", r.threadStates ?? "off")
    // Preloaded, camera-app's device phases come from the library's events, not its own trace.
    out += difference("camera-app", preload(b), preload(r))
    // A headless app's run ends at its first dequeued buffer, not at a frame on the display.
    out += difference("headless app-configs", headless(b), headless(r))
    // Absent at the default, and in results from before --quit-grace, which all gave the default.
    let grace = BenchResults.BenchSettings.defaultQuitGraceSeconds
    out += difference(
      "quit grace s", seconds(b.quitGraceSeconds ?? grace), seconds(r.quitGraceSeconds ?? grace))
    // Only the X11 paths wait for a window; results from before it was recorded waited 10 s.
    if b.displayServer != nil, r.displayServer != nil {
      out += difference(
        "window timeout s", seconds(b.windowTimeoutSeconds ?? 10), seconds(r.windowTimeoutSeconds ?? 10))
    }
    // The burners that load the loaded (and soak the hot) launches, where both sides planned them.
    if let x = b.load, let y = r.load {
      out += difference("load burners", String(x.burners), String(y.burners))
    }
    return out
  }

  /// `what x vs y` when they differ; nothing when they match.
  private static func difference(_ what: String, _ x: String, _ y: String) -> [String] {
    x == y ? [] : ["\(what) \(x) vs \(y)"]
  }

  /// Seconds as the differences show them: whole seconds without a decimal point.
  private static func seconds(_ v: Double) -> String { v.rounded() == v ? String(Int(v)) : String(v) }

  /// Whether camera-app ran under the preload library.
  private static func preload(_ s: BenchResults.BenchSettings) -> String {
    s.preloadCameraApp == true ? "preloaded (--preload-camera-app)" : "not preloaded"
  }

  /// The app configs that ran headless, sorted, or `none`.
  private static func headless(_ s: BenchResults.BenchSettings) -> String {
    let names = (s.headlessAppConfigs ?? []).sorted()
    return names.isEmpty ? "none" : names.joined(separator: ",")
  }
}
