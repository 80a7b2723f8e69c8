/// The fuzz targets: one per parser that reads bytes from outside bench — the app under test,
/// its files, the driver, or a file a person passes on the command line.
///
/// Each target reads one input and returns the problems it found (an empty list when the input
/// was handled as documented). Crashes are problems too: a trap, or an address-sanitizer report
/// when built with `-sanitize=fuzzer,address` (see `Fuzz/README.md` and `scripts/fuzz`).
/// `Fuzz/Corpus/<target>/` holds each target's seeds and every input that once failed; the
/// `FuzzCorpusTests` replay them in every `swift test`.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// Trace lines (`FIRSTFRAME_TRACE`): `TraceTail` against `TraceReader`, then phases and timeline.
  case trace
  /// The display surface's header, slot table and pixels, as the compositor latches them.
  case surface
  /// Control commands (`FIRSTFRAME_CONTROL`) through a `ControlChannel`.
  case control
  /// Cost profiles (`--profile`).
  case profile
  /// Results and baseline files, and every analysis and report of them.
  case results
  /// Gates files (`--gates`).
  case gates
  /// camera-app's last photo (PGM), read back for the thumbnail.
  case photo
  /// Light-board images and the live-frame detector.
  case lightboard
  /// V4L2 ioctl answers, through the fake kernel.
  case v4l2
  /// Scheduler trace text (`--thread-states`), whose thread names the app chooses.
  case sched

  /// The largest input worth trying, in bytes (what `scripts/fuzz` passes as `-max_len`).
  public var maxInputBytes: Int {
    switch self {
    case .trace, .control, .sched: 16_384
    case .results: 65_536
    case .surface, .profile, .gates, .photo, .v4l2: 4096
    case .lightboard: 8192
    }
  }

  /// Runs one input; returns the problems found (empty when it was handled as documented).
  public func run(_ input: [UInt8]) -> [String] {
    switch self {
    case .trace: TraceFuzzer.run(input)
    case .surface: SurfaceFuzzer.run(input)
    case .control: ControlFuzzer.run(input)
    case .profile: ProfileFuzzer.run(input)
    case .results: ResultsFuzzer.run(input)
    case .gates: GatesFuzzer.run(input)
    case .photo: PhotoFuzzer.run(input)
    case .lightboard: LightBoardFuzzer.run(input)
    case .v4l2: V4L2Fuzzer.run(input)
    case .sched: SchedFuzzer.run(input)
    }
  }

  /// The libFuzzer entry point's body: runs `input` and traps with the first problem, so that
  /// libFuzzer records the input as a crash.
  public func fuzzOne(_ input: UnsafeRawBufferPointer) {
    let problems = run(Array(input.prefix(maxInputBytes * 4)))
    if let first = problems.first { fatalError("fuzz target \(rawValue): \(first)") }
  }
}
