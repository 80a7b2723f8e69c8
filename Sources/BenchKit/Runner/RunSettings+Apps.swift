import LaunchContract

extension RunSettings {
  /// The events a run of `configuration` waits for, after its first live frame, before it
  /// ends. A third-party app waits for none: it writes no trace of its own, so its run ends at
  /// the first live frame (the preload library's device events all come before that frame). A
  /// headless one (`--headless-app-config`) shows no frame: its run ends at `device.first_buffer`.
  package func awaitedEvents(for configuration: BenchConfiguration, in condition: LaunchCondition)
    -> [EventName]
  {
    switch configuration {
    case .builtIn(let c): expectations(for: c).awaitedEvents(in: condition)
    case .app(let app): app.headless ? [.deviceFirstBuffer] : []
    }
  }

  /// Whether the preload library is loaded into runs of `configuration`: a third-party app's
  /// when the loader can load it into the program (``preloadReasons`` says when not); camera-app's
  /// (or the `--app` program's) with `--preload-camera-app`. Such a run's device phases come from
  /// the library's events, after the kernel's (``BenchRunner/devicePriority(for:)``).
  package func preloadsLibrary(into configuration: BenchConfiguration) -> Bool {
    guard preloadLibrary != nil else { return false }
    switch configuration {
    case .builtIn: return preloadCameraApp
    case .app(let app): return preloadReasons[app.name] == nil
    }
  }

  /// Whether a run of `configuration` waits for a live frame on the display: not for a headless
  /// program (`--headless-app-config`), which shows none.
  package func expectsLiveFrame(for configuration: BenchConfiguration) -> Bool {
    configuration.appConfiguration?.headless != true
  }

  /// The phases that cannot occur in the cell of `configuration` and `condition`, each with
  /// its reason.
  package func inapplicablePhases(for configuration: BenchConfiguration, in condition: LaunchCondition)
    -> [String: String]
  {
    guard case .app(let app) = configuration else {
      return expectations(for: configuration.launchConfiguration ?? .deferred).inapplicablePhases(
        in: condition)
    }
    var reasons = condition.inapplicablePhases
    reasons[PhaseName.shutterToPhoto] = "\(app.name): a third-party app is not asked to take a photo"
    if !display.server.mapsWindows {
      reasons[PhaseName.windowMapped] = "shm: the app presents into a shared-memory surface, not a window"
    }
    if app.headless {
      let reason =
        "\(app.name) has no window (--headless-app-config): its runs end at its first dequeued buffer"
      for phase in [PhaseName.windowMapped, PhaseName.firstFrameObserved] { reasons[phase] = reason }
    }
    if let reason = preloadReasons[app.name] {
      for phase in PhaseName.device { reasons[phase] = reason }
      reasons[PhaseName.processLaunch] = reason
    }
    return reasons
  }

  /// Why `configuration` is not run at all in `condition`, or nil when it is: a third-party app
  /// cannot be told to lock, so relock does not apply to it; `low-power` does not run where
  /// neither cpufreq nor a cgroup's CPU quota is writable. Results list the reason under
  /// `settings.notRun` and the table prints it.
  package func notRunReason(for configuration: BenchConfiguration, in condition: LaunchCondition) -> String? {
    if condition == .lowPower, case .failure(let unavailable) = lowPowerPlan {
      return "low-power: \(unavailable.reason)"
    }
    guard case .app(let app) = configuration, condition == .relock else { return nil }
    return
      "\(app.name) cannot be told to lock: relock needs an app that reads lock and unlock from FIRSTFRAME_CONTROL, which a third-party app given with \(app.option) does not"
  }
}
