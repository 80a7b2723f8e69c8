import SystemCalls

/// Every `FIRSTFRAME_*` environment variable, typed: what the runner puts in the app's
/// environment (the write side, ``variables``) and what the app reads back (``current()``).
///
/// This is the one place the keys are spelled (docs/any-app-and-trace-protocol.md, "The trace protocol").
public struct LaunchEnvironment: Sendable, Hashable {
  /// The environment variables of the contract, and a few that bench and its tests read.
  public enum Key: String, Sendable, CaseIterable {
    /// Where the app appends its trace: a path or `fd:N` (runner → app).
    case trace = "FIRSTFRAME_TRACE"
    /// The display the app presents preview into (runner → app).
    case display = "FIRSTFRAME_DISPLAY"
    /// Where the app reads control commands: a path or `fd:N` (runner → app).
    case control = "FIRSTFRAME_CONTROL"
    /// The run id, copied into `app.main` (runner → app).
    case run = "FIRSTFRAME_RUN"
    /// The configuration's name, for apps that take it from the environment (runner → app).
    case config = "FIRSTFRAME_CONFIG"
    /// The synthetic camera's power-state folder (runner → app).
    case syntheticState = "FIRSTFRAME_SYNTHETIC_STATE"
    /// The app's own state folder, where its photo library lives (runner → app).
    case appState = "FIRSTFRAME_APP_STATE"
    /// Delay the start of preview by this many ms: a documented regression hook (→ app).
    case injectDelayMilliseconds = "FIRSTFRAME_INJECT_DELAY_MS"
    /// The camera-app bench launches, instead of building one (user or test → bench).
    case cameraApp = "FIRSTFRAME_CAMERA_APP"
    /// A V4L2 device node for the device tests (CI's VM → tests).
    case v4l2TestDevice = "FIRSTFRAME_V4L2_DEVICE"
    /// Paths the preload library treats as V4L2 nodes whatever they are: a stand-in device for
    /// its tests, where the kernel has no V4L2 (tests → `libfirstframe-preload.so`).
    case preloadDevicePrefix = "FIRSTFRAME_PRELOAD_DEVICE_PREFIX"
    /// Paths the fake V4L2 driver answers for (tests → `libfirstframe-fake-v4l2.so`).
    case fakeV4L2Prefix = "FIRSTFRAME_FAKE_V4L2_PREFIX"
    /// Where the report tests also write their plot, to look at it (developer → tests).
    case plotOutput = "FIRSTFRAME_PLOT_OUT"
  }

  /// `FIRSTFRAME_TRACE`: where to append phase events.
  public var trace: Endpoint?
  /// `FIRSTFRAME_DISPLAY`: the display to present into.
  public var display: DisplayTarget?
  /// `FIRSTFRAME_CONTROL`: where to read control commands.
  public var control: Endpoint?
  /// `FIRSTFRAME_RUN`: the run id.
  public var runID: String?
  /// `FIRSTFRAME_CONFIG`: the configuration's name.
  public var configuration: String?
  /// `FIRSTFRAME_SYNTHETIC_STATE`: the synthetic camera's power-state folder.
  public var syntheticState: String?
  /// `FIRSTFRAME_APP_STATE`: the app's state folder.
  public var appState: String?
  /// `FIRSTFRAME_INJECT_DELAY_MS`: a delay before preview starts, in ms (> 0), or nil.
  public var injectDelayMilliseconds: Int?

  /// An empty environment (nothing set).
  public init() {}

  /// Reads the contract's variables from `variables`. An unset or empty variable is nil.
  /// - Throws: `LaunchContractError` naming the variable whose value does not parse.
  public init(_ variables: [String: String]) throws(LaunchContractError) {
    try self.init { variables[$0.rawValue] }
  }

  /// The contract's variables of this process (`getenv`, no Foundation).
  /// - Throws: `LaunchContractError` naming the variable whose value does not parse.
  public static func current() throws(LaunchContractError) -> LaunchEnvironment {
    try LaunchEnvironment { Self.value(of: $0) }
  }

  /// The raw value of `key` in this process's environment, or nil when unset or empty.
  public static func value(of key: Key) -> String? {
    ProcessControl.environmentValue(key.rawValue)
  }

  private init(lookup: (Key) -> String?) throws(LaunchContractError) {
    func text(_ key: Key) -> String? {
      guard let v = lookup(key), !v.isEmpty else { return nil }
      return v
    }
    func endpoint(_ key: Key) throws(LaunchContractError) -> Endpoint? {
      guard let raw = text(key) else { return nil }
      do {
        return try Endpoint(parsing: raw)
      } catch {
        throw LaunchContractError("\(key.rawValue): \(error.message)")
      }
    }
    trace = try endpoint(.trace)
    control = try endpoint(.control)
    if let raw = text(.display) {
      do {
        display = try DisplayTarget(parsing: raw)
      } catch {
        throw LaunchContractError("\(Key.display.rawValue): \(error.message)")
      }
    }
    runID = text(.run)
    configuration = text(.config)
    syntheticState = text(.syntheticState)
    appState = text(.appState)
    injectDelayMilliseconds = text(.injectDelayMilliseconds).flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
  }

  /// The variables this value sets, by key (the write side: the runner merges them into the
  /// app's environment). Nil fields are left out.
  public var variables: [String: String] {
    var out: [Key: String?] = [:]
    out[.trace] = trace?.description
    out[.display] = display?.description
    out[.control] = control?.description
    out[.run] = runID
    out[.config] = configuration
    out[.syntheticState] = syntheticState
    out[.appState] = appState
    out[.injectDelayMilliseconds] = injectDelayMilliseconds.map { String($0) }
    var result: [String: String] = [:]
    for (key, value) in out { if let value { result[key.rawValue] = value } }
    return result
  }

  /// `base` with this value's variables set over it.
  public func applied(to base: [String: String]) -> [String: String] {
    base.merging(variables) { _, new in new }
  }

  /// The keys the runner sets for every launch (the rest are read by bench or its tests).
  public static let launchKeys: [Key] = [
    .trace, .display, .control, .run, .config, .syntheticState, .appState, .injectDelayMilliseconds,
  ]
}
