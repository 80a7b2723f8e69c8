import KernelDevicePhases
import LaunchContract
import PhaseTrace
import ResultsSchema
import RunAnalysis
import SystemCalls
import ThreadTracing

/// One run's device phases from the kernel (docs/kernel-device-phases.md): the events, the
/// driver's first completed buffer, and why there are none when there are none.
struct KernelDeviceRun {
  var events: [PhaseEvent] = []
  var driverFirstBuffer: UInt64?
  var absent: String?
  var lostEvents: Int?
}

extension BenchRunner {
  /// The order in which a run of `config` takes each device phase's source: the kernel's trace,
  /// then the preload library's events when it is loaded into the app, else the app's own.
  func devicePriority(for config: BenchConfiguration) -> [String] {
    [PhaseExtractor.kernelSource]
      + [settings.preloadsLibrary(into: config) ? PreloadLibrary.eventSource : PhaseExtractor.appSource]
  }

  /// The device phases the kernel's trace of the run that started at `start` shows, for the
  /// camera's node (any node when the camera is not a V4L2 one), bench's own process left out
  /// (its light-board feeder streams the looped output node).
  func kernelDevice(_ states: ThreadStatesRecorder?, start: UInt64) -> KernelDeviceRun {
    guard let trace = states?.deviceTrace() else {
      return KernelDeviceRun(
        absent: resources.threadStates.deviceTraceAbsence ?? "the run has no device trace")
    }
    let parsed = KernelDeviceTraceParser.parse(trace.text)
    let result = KernelDevicePhases.phases(
      from: parsed.events, minor: Self.minor(of: settings.camera), start: start, excluding: [Int(pid)])
    return KernelDeviceRun(
      events: result.events, driverFirstBuffer: result.driverFirstBuffer, absent: result.absent,
      lostEvents: trace.lostEvents)
  }

  /// The char-device minor of a V4L2 camera's node (`v4l2:` or `pipewire:`), from sysfs (`/sys/class/video4linux/videoN/dev`
  /// holds `81:N`); nil for another camera or a node sysfs does not list.
  static func minor(of camera: CameraSelection) -> Int? {
    guard let path = camera.devicePath else { return nil }
    let resolved = FileSystem.realPath(path) ?? path
    let name = resolved.split(separator: "/").last.map(String.init) ?? resolved
    guard let text = FileSystem.readText(atPath: "/sys/class/video4linux/\(name)/dev", maxBytes: 64),
      let minor = text.split(separator: ":").last.flatMap({ Int($0.filter(\.isNumber)) })
    else { return nil }
    return minor
  }

  /// The run's `device_phases`: each device phase's source and process, every source's phases,
  /// and the kernel's first completed buffer; nil when no source had a device phase and there
  /// was no kernel trace to say why.
  func devicePhasesRecord(
    events: [PhaseEvent], start: UInt64, relock: Bool, sources: [String: String], kernel: KernelDeviceRun
  ) -> BenchResults.DevicePhasesRecord? {
    var bySource: [String: [String: Double]] = [:]
    for source in [PhaseExtractor.kernelSource, PreloadLibrary.eventSource, PhaseExtractor.appSource] {
      let phases = PhaseExtractor.phases(from: events, start: start, relock: relock, deviceSource: source)
        .filter { PhaseName.device.contains($0.key) }
      if !phases.isEmpty { bySource[source] = phases }
    }
    var owners: [String: BenchResults.DevicePhasesRecord.Source] = [:]
    for (phase, source) in sources {
      let name = phase == PhaseName.deviceFirstBuffer ? EventName.deviceFirstBuffer : Self.deviceEvent[phase]
      let event = events.first {
        $0.name == name?.rawValue && $0.ts >= start
          && ($0.fields[PhaseExtractor.sourceField]?.stringValue ?? PhaseExtractor.appSource) == source
      }
      owners[phase] = .init(
        source: source, pid: Int(event?.pid ?? 0), process: event?.fields["process"]?.stringValue,
        comm: event?.fields["comm"]?.stringValue)
    }
    // A run with a kernel trace keeps the record even without phases: it says why there were none.
    guard !owners.isEmpty || kernel.lostEvents != nil else { return nil }
    return .init(
      sources: owners, bySource: bySource,
      driverFirstBufferMs: kernel.driverFirstBuffer.map { Double(Int64($0) - Int64(start)) / 1e6 },
      kernelAbsent: kernel.absent, kernelLostEvents: kernel.lostEvents)
  }

  /// The event each interval device phase begins with.
  static let deviceEvent: [String: EventName] = [
    PhaseName.deviceOpen: .deviceOpen, PhaseName.deviceFormat: .deviceFormat,
    PhaseName.deviceBuffers: .deviceBuffers, PhaseName.deviceStreamOn: .deviceStreamOn,
  ]
}
