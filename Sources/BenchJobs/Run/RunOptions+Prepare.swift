import DisplayServers
import BenchKit
import CameraServices
import Foundation
import HostConditions
import LaunchContract
import SyntheticCamera
import ThreadTracing
import V4L2Camera
import Subprocess
import SyntheticCamera
import SystemCalls
import CommandLineKit
import V4L2Camera

extension RunOptions {
  /// Checks and opens what the options name, in the pipeline's first step: the display, the
  /// loaded condition's burners (planned once, from bench's own affinity and cgroup quota), the
  /// camera node, the light-board output node, the profile, the apps and the results folder
  /// (created here, so that an unwritable one is a usage error).
  package func prepare() throws(UsageError) -> RunJob {
    var s = settings
    try BenchDisplay.validate(s.display)
    // Planned once, from bench's own affinity and cgroup quota: recorded as run.
    if s.conditions.contains(.loaded) { s.burnerPlan = BurnerPlan.current(kind: s.load) }
    LowPowerCleanup.restoreLeftovers()
    if s.conditions.contains(.lowPower) {
      s.lowPowerPlan = LowPowerPlan.resolve(
        s.lowPower, cpufreq: CPUFrequencyCap(), cgroups: CgroupCPUController.detect())
    }
    try openCamera(into: &s)
    let syntheticProfile = try loadProfile(into: &s)
    try takeAppConfigs(into: &s)
    if s.camera.isServedByPipeWire && app == nil && !s.configs.isEmpty {
      throw UsageError(
        "--camera \(s.camera): camera-app opens V4L2 nodes itself; benchmark apps that take the camera from PipeWire with --app-config NAME=COMMAND ({node} is the node's name)"
      )
    }
    try takePreloadCameraApp(into: &s)
    if let app {
      try takeApp(app, into: &s)
    } else if s.configs.isEmpty {
      // Only third-party apps: no profile of ours describes them.
      guard s.profilePath == nil else {
        throw UsageError("--profile applies to camera-app only; it does not run without --configs")
      }
      s.profileName = nil
    } else if let syntheticProfile {
      s.profileHash = ProfileFingerprint.hash(syntheticProfile)
      try checkReachable(syntheticProfile, settings: s)
    }
    try takeAppUser(into: &s)
    s.outDir = try RunJob.prepareOutDir(out)
    try RunJob.checkKeepSchedTrace()
    let resources = try openResources(s)
    return RunJob(settings: s, resources: resources, format: format, quiet: quiet, overwrite: overwrite)
  }

  /// The benchmark's resources (``RunResources/open(_:)``), `--thread-states` among them:
  /// tracefs opened (bench's instance) or the fallback chosen. `on` where tracefs cannot be used
  /// is a usage error; `auto` falls back to `sampled` and says why.
  func openResources(_ s: RunSettings) throws(UsageError) -> RunResources {
    do {
      let (resources, fallback) = try RunResources.open(s)
      if let fallback, !quiet {
        try? FileDescriptorIO.writeAll(2, "bench: thread states sampled from /proc: \(fallback)\n")
      }
      return resources
    } catch {
      throw UsageError("--thread-states on: \(error.message)")
    }
  }

  /// `--camera v4l2:…` or `pipewire:…` (PipeWire's programs there) and `--feed-light-board NODE`:
  /// the nodes, opened and checked.
  func openCamera(into s: inout RunSettings) throws(UsageError) {
    if s.camera.isServedByPipeWire && PipeWireService.locate() == nil {
      throw UsageError(PipeWireService.missingMessage)
    }
    if let path = s.camera.devicePath {
      do {
        try V4L2Camera.validate(path: path)
      } catch {
        throw UsageError("--camera \(s.camera): \(error)")
      }
    }
    if let node = feedLightBoard {
      guard s.camera.devicePath != nil else {
        throw UsageError(
          "--feed-light-board applies to a V4L2 camera (--camera v4l2:/dev/videoN or pipewire:/dev/videoN) only"
        )
      }
      do {
        _ = try V4L2VideoOutput(path: node)
      } catch {
        throw UsageError("--feed-light-board \(node): \(error)")
      }
      s.feedLightBoard = node
    }
  }

  /// `--profile FILE`, loaded (the built-in profile for the synthetic camera without it); nil for
  /// a camera that is not the synthetic one.
  func loadProfile(into s: inout RunSettings) throws(UsageError) -> CostProfile? {
    guard let profile else {
      guard s.camera == .synthetic else { return nil }
      s.profileName = CostProfile.default.name
      return .default
    }
    guard s.camera == .synthetic else {
      throw UsageError("--profile applies to the synthetic camera only")
    }
    let loaded: CostProfile
    do {
      loaded = try CostProfile.load(path: profile)
      s.profileName = loaded.name
    } catch {
      throw UsageError("\(error)")
    }
    s.profilePath =
      (profile as NSString).isAbsolutePath
      ? profile : RunJob.currentDirectory + "/" + profile
    return loaded
  }

  /// `--app-user USER` (or its default): who the app runs as (``AppUser``), checked against the
  /// camera node, the programs that run as the app (camera-app beside bench, `--app`,
  /// `--app-config`, the preload library) and the folder the app's trace goes in: a user that
  /// could not reach one of them is a usage error naming the path in the way.
  func takeAppUser(into s: inout RunSettings) throws(UsageError) {
    let user: AppUser
    switch AppUser.resolve(
      given: s.appUserName, cameraNode: s.camera.devicePath, environment: ProcessInfo.processInfo.environment)
    {
    case .success(let resolved): user = resolved
    case .failure(let error): throw UsageError(error.description)
    }
    var programs = (s.appCommand.map { [$0[0]] } ?? []) + s.appConfigs.map { $0.argv[0] }
    if s.appCommand == nil && !s.configs.isEmpty,
      let exe = try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/exe")
    {
      let sibling = (exe as NSString).deletingLastPathComponent + "/camera-app"
      if FileSystem.isExecutable(atPath: sibling) { programs.append(sibling) }
    }
    for program in programs {
      if let why = user.cannotRun(program) { throw UsageError(why) }
    }
    if user.dropsPrivileges {
      if let library = s.preloadLibrary, let why = user.identity.cannotReach(library, access: R_OK) {
        throw UsageError(
          "the app user \(user.identity.name) cannot load the preload library: \(why); use --app-user root")
      }
      let tmp = PrivateDirectory.temporaryRoot()
      if let why = user.identity.cannotReach(tmp, access: X_OK) {
        throw UsageError(
          "the app user \(user.identity.name) cannot reach its trace folder in \(tmp): \(why); use --app-user root"
        )
      }
    }
    s.appUser = user
  }

  /// `--app "COMMAND ARGS"`: split into argv, its program found on PATH and checked.
  func takeApp(_ app: String, into s: inout RunSettings) throws(UsageError) {
    guard !s.configs.isEmpty else {
      throw UsageError(
        "--app runs in the built-in configurations: with --app-config, name them with --configs (or give the app as --app-config NAME=COMMAND)"
      )
    }
    var argv = try CommandSplitter.split(app)
    if let problem = AppConfiguration.placeholderProblem(argv, camera: s.camera, what: "--app") {
      throw UsageError(problem)
    }
    guard let resolved = ExecutableLookup.resolve(argv[0]) else {
      throw UsageError("--app: cannot find an executable named '\(argv[0])'")
    }
    guard ExecutableLookup.isProgram(resolved) else {
      throw UsageError("--app: \(resolved) is not a program (neither an ELF executable nor a #! script)")
    }
    argv[0] = resolved
    s.appCommand = argv
    // The app command names its own camera and costs: no profile of ours describes it.
    guard s.profilePath == nil else {
      throw UsageError(
        "--profile applies to camera-app only; with --app, give the profile in the app's command")
    }
    s.profileName = nil
  }

  /// `--app-config NAME=COMMAND …`: the apps, their executables resolved on PATH, `{device}`
  /// checked against the camera, the preload library found and its reach judged per app. Without
  /// `--configs`, only the apps run.
  func takeAppConfigs(into s: inout RunSettings) throws(UsageError) {
    var apps = appConfigs
    guard !apps.isEmpty else { return }
    try AppConfiguration.validate(apps)
    if !configsGiven { s.configs = [] }
    for i in apps.indices {
      let name = "\(apps[i].option) \(apps[i].name)"
      if let problem = AppConfiguration.placeholderProblem(apps[i].argv, camera: s.camera, what: name) {
        throw UsageError(problem)
      }
      guard let resolved = ExecutableLookup.resolve(apps[i].argv[0]) else {
        throw UsageError(
          "\(name): cannot find an executable named \(CommandSplitter.quoted(apps[i].argv[0]))")
      }
      guard ExecutableLookup.isProgram(resolved) else {
        throw UsageError(
          "\(name): \(resolved) is not a program (neither an ELF executable nor a #! script)")
      }
      apps[i].argv[0] = resolved
    }
    s.appConfigs = apps
    do {
      s.preloadLibrary = try PreloadLibrary.locate()
    } catch {
      for app in apps {
        s.preloadReasons[app.name] = "the preload library is not available: \(error.message)"
      }
    }
    for app in apps where s.preloadLibrary != nil {
      if let reason = PreloadLibrary.coverage(ofExecutable: app.argv[0]).reason {
        s.preloadReasons[app.name] = "the preload library cannot see the app: \(reason)"
      }
    }
    // A headless run ends at the first buffer the preload library sees: without the library in
    // the program, no run could end but by its timeout.
    for app in apps where app.headless {
      if let reason = s.preloadReasons[app.name] {
        throw UsageError(
          "--headless-app-config \(app.name): its run ends at the first buffer the preload library sees, and \(reason)"
        )
      }
    }
  }

  /// `--preload-camera-app`: the preload library, found next to bench, or a usage error saying
  /// where it was looked for (without it camera-app's device phases would silently come from its
  /// own trace again).
  func takePreloadCameraApp(into s: inout RunSettings) throws(UsageError) {
    guard s.preloadCameraApp else { return }
    if s.configs.isEmpty {
      throw UsageError("--preload-camera-app: camera-app does not run (name it with --configs)")
    }
    if s.preloadLibrary == nil {
      do {
        s.preloadLibrary = try PreloadLibrary.locate()
      } catch {
        throw UsageError("--preload-camera-app: \(error.message)")
      }
    }
  }

  /// Refuses a synthetic camera profile with which every run of some configuration would time
  /// out: its nominal time to the first frame (the cheaper power-up, format, the outputs that
  /// configuration initialises before the stream, first-frame latency) is already beyond
  /// `--run-timeout`, before the app has even started. A loaded CPU only adds to it.
  func checkReachable(_ profile: CostProfile, settings s: RunSettings) throws(UsageError) {
    for config in s.configs {
      let beforeStream: [CaptureOutputKind] =
        switch config {
        case .eager: config.outputs(from: s.outputs)
        case .manual: [.videoData]
        default: [.preview]
        }
      let ms = min(
        profile.nominalOpenToFirstFrameMs(initializing: beforeStream, warm: true),
        profile.nominalOpenToFirstFrameMs(initializing: beforeStream, warm: false))
      if ms >= s.runTimeoutSeconds * 1000 {
        let timeout = s.runTimeoutSeconds
        let seconds = timeout.rounded() == timeout ? String(Int(timeout)) : String(timeout)
        throw UsageError(
          "profile \(profile.name): \(config) needs at least \(Int(ms.rounded(.up))) ms to its first frame (power-up, format, \(beforeStream.map(\.rawValue).joined(separator: ", ")), first-frame latency), not within --run-timeout \(seconds) s: every run would time out; raise --run-timeout or lower the profile's costs"
        )
      }
    }
  }
}

extension RunJob {
  /// `FIRSTFRAME_KEEP_SCHED_TRACE=DIR`, when set, names a folder that is there: otherwise every
  /// traced run's raw trace would be dropped without a word.
  static func checkKeepSchedTrace() throws(UsageError) {
    guard let folder = HarnessVariable.keepSchedTrace.value else { return }
    let kind: FileSystem.EntryKind?
    do {
      kind = try FileSystem.kind(atPath: folder)
    } catch {
      throw UsageError("\(HarnessVariable.keepSchedTrace.rawValue)=\(folder): \(error)")
    }
    guard kind == .directory || kind == .symbolicLink else {
      throw UsageError(
        "\(HarnessVariable.keepSchedTrace.rawValue)=\(folder): "
          + (kind == nil ? "no such folder" : "not a folder"))
    }
  }
}
