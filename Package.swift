// swift-tools-version:6.2
//
// FirstFrame: camera launch-latency benchmarking for Linux.
// The graph, bottom up (STYLE.md rule 1; each target lists its own dependencies below):
//   C shims (CPlatformShims, CV4L2Shims, CXCBShims; CV4L2Shims and CXCBShims load their
//   libraries with dlopen) → SystemCalls, the POSIX seam → CommandLineKit, LaunchContract,
//   JSONDecoding, LightBoard → PhaseTrace → CaptureKit (the capture core) → the devices
//   (SyntheticCamera, V4L2Camera) and the display (Display, X11Display) → CameraApp → camera-app.
//   BenchAnalysis (statistics, comparisons, gates, reports, the results schema; no processes)
//   stands on PhaseTrace, LaunchContract, CommandLineKit and SystemCalls; Probe on BenchAnalysis,
//   LightBoard and the display.
//   The bench side: Subprocess (spawn, reap, output drain), AppBuilds (camera-app's builds) and
//   HostConditions (cache eviction, the burners and their plan, an app's footprint, the host
//   record; on Subprocess) →
//   BenchKit (the runner: runs, sessions, the feeder, the display server, the launch floor,
//   the results folder) → BenchCommands
//   (the command line, each command, the one pipeline of `bench` and `bench ab`) → bench.
// Between our own modules access is `package`; `public` is for the libraries a third party
// uses (the launch contract, the trace library, the capture core).
import PackageDescription

// Warnings are errors (STYLE.md rule 12) in every build of this package — `swift build`, `swift test`
// and CI alike, so CI's strict build and its test run are one build, not two. A warning-control
// setting, not `.unsafeFlags`: another package (a third-party camera app) can still depend on the
// launch contract and the trace library, and SwiftPM does not apply it to a dependency's build.
let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .treatAllWarnings(as: .error),
]

let package = Package(
  name: "FirstFrame",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CaptureKit", targets: ["CaptureKit"]),
    .library(name: "LaunchContract", targets: ["LaunchContract"]),
    .library(name: "PhaseTrace", targets: ["PhaseTrace"]),
    .library(name: "LightBoard", targets: ["LightBoard"]),
    .library(name: "SyntheticCamera", targets: ["SyntheticCamera"]),
    .library(name: "V4L2Camera", targets: ["V4L2Camera"]),
    .library(name: "Display", targets: ["Display"]),
    .library(name: "Probe", targets: ["Probe"]),
    .library(name: "BenchAnalysis", targets: ["BenchAnalysis"]),
    // The fuzz targets, for the libFuzzer package in Fuzz/ (scripts/fuzz).
    .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    .executable(name: "camera-app", targets: ["camera-app"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  targets: [
    // The command-line option table and parser shared by camera-app and bench.
    .target(name: "CommandLineKit", dependencies: ["SystemCalls"], swiftSettings: strict),
    // Process-control calls Swift cannot import (prctl), prefixed CPlatformShims_.
    .target(name: "CPlatformShims"),
    // The POSIX seam: errno as a typed value, EINTR retried in one place, write-all, the
    // CLOCK_MONOTONIC clock and the absolute-deadline sleep, the one spawn and wait, the one
    // atomic replace, reads with a deadline (scripts/check-seam keeps these calls here).
    .target(
      name: "SystemCalls",
      dependencies: ["CPlatformShims"],
      swiftSettings: strict),
    // The launch contract between bench and any app under test: environment keys, endpoints,
    // control commands, configurations, camera selection, event names and their owners.
    .target(name: "LaunchContract", dependencies: ["SystemCalls"], swiftSettings: strict),
    // JSON without Foundation: a parser and a Decoder for Codable types (profiles, trace lines), so
    // that nothing camera-app links needs Foundation.
    .target(name: "JSONDecoding", swiftSettings: strict),
    // Phase events: the trace protocol's writer (any app) and reader (bench).
    .target(
      name: "PhaseTrace", dependencies: ["JSONDecoding", "LaunchContract", "SystemCalls"],
      swiftSettings: strict),
    // The capture core: session graph, outputs, deferred start, hardware cost. Portable.
    .target(
      name: "CaptureKit", dependencies: ["PhaseTrace", "LaunchContract", "SystemCalls"], swiftSettings: strict
    ),
    // The light board: a moving bar plus blocks that encode capture time; renderer and decoder.
    .target(name: "LightBoard", swiftSettings: strict),
    // The embedded default camera: a simulated sensor with a cost profile.
    .target(
      name: "SyntheticCamera",
      dependencies: ["CaptureKit", "JSONDecoding", "LightBoard", "LaunchContract", "SystemCalls"],
      swiftSettings: strict),
    // Real cameras through libv4l2, loaded with dlopen when a V4L2 camera is opened (package
    // libv4l-0 at run time; nothing at build time: the shim declares the functions it calls).
    // `dl` for a C library older than glibc 2.34, where dlopen lives in libdl.
    .target(name: "CV4L2Shims", linkerSettings: [.linkedLibrary("dl")]),
    .target(
      name: "V4L2Camera",
      dependencies: ["CaptureKit", "PhaseTrace", "CV4L2Shims", "LaunchContract", "SystemCalls"],
      swiftSettings: strict),
    // The analysis of results: statistics, comparisons, gates, reports, the results schema and
    // the one seeded generator (SplitMix64). Portable: no processes, no C module imports.
    .target(
      name: "BenchAnalysis", dependencies: ["PhaseTrace", "LaunchContract", "CommandLineKit", "SystemCalls"],
      swiftSettings: strict),
    // The display surface (shared memory) and the compositor that scans it out.
    .target(name: "Display", dependencies: ["CaptureKit", "SystemCalls"], swiftSettings: strict),
    // The XCB calls of the X11 display path, declared here and loaded with dlopen at run time
    // (libxcb1, libxcb-shm0, libxcb-damage0, libxcb-render0), so the default build needs no X package.
    .target(name: "CXCBShims"),
    // The X11 display path's client: an app's preview window (presenting) and the probe's
    // window capture (DAMAGE + MIT-SHM). No Foundation: camera-app links it.
    .target(
      name: "X11Display", dependencies: ["CXCBShims", "CaptureKit", "Display", "SystemCalls"],
      swiftSettings: strict),
    // The probe: finds the first live frame from scanned-out pixels alone.
    .target(
      name: "Probe",
      dependencies: [
        "LightBoard", "Display", "PhaseTrace", "BenchAnalysis", "CaptureKit", "LaunchContract", "SystemCalls",
        "X11Display",
      ],
      swiftSettings: strict),
    // The reference camera app, as a library so that tests can drive it.
    .target(
      name: "CameraApp",
      dependencies: [
        "CaptureKit", "PhaseTrace", "SyntheticCamera", "V4L2Camera", "Display", "CommandLineKit",
        "LaunchContract",
        "SystemCalls", "X11Display",
      ],
      swiftSettings: strict),
    .executableTarget(name: "camera-app", dependencies: ["CameraApp"], swiftSettings: strict),
    // Child processes on the POSIX seam: the spawn with its process group and guard (ProcessGuard),
    // reaping, the app's output drain and last line, a process tree, command splitting, finding a
    // program on PATH, a pipe read as lines until a deadline, and the runner's error (a bad
    // command is a UsageError).
    .target(name: "Subprocess", dependencies: ["CommandLineKit", "SystemCalls"], swiftSettings: strict),
    // Building and finding camera-app: the locator (the package's own build, its static C++
    // library link), the revision builder of `bench ab` (worktrees, a build cache per commit) and
    // the build guard that stops a build when bench dies.
    .target(
      name: "AppBuilds", dependencies: ["CommandLineKit", "LaunchContract", "Subprocess", "SystemCalls"],
      swiftSettings: strict),
    // The host conditions a benchmark controls or records: the page-cache evictor of the cold
    // condition and the files an app's cold launch reads (AppFootprint), the loaded condition's
    // burners and their plan (affinity, cgroup quota, last-level cache), and the host record
    // results.json carries.
    .target(
      name: "HostConditions", dependencies: ["BenchAnalysis", "Subprocess", "SystemCalls"],
      swiftSettings: strict),
    // The runner: runs, sessions (one per results folder; `bench ab`'s interleaved pair), the
    // light-board feeder, the display (shared memory or Xvfb), the launch floor, the preload
    // library, the results folder and journal.
    .target(
      name: "BenchKit",
      dependencies: [
        "BenchAnalysis", "HostConditions", "PhaseTrace", "Display", "Probe", "V4L2Camera", "SyntheticCamera",
        "CommandLineKit", "LaunchContract", "SystemCalls", "Subprocess", "AppBuilds", "X11Display",
        "LightBoard",
      ],
      swiftSettings: strict),
    // The thin commands layer: `bench`'s command line (one option table per command), each
    // command, and the one pipeline `bench` and `bench ab` run (prepare, run, write, report).
    .target(
      name: "BenchCommands",
      dependencies: [
        "BenchKit", "HostConditions", "BenchAnalysis", "CommandLineKit", "Display", "LaunchContract", "Probe",
        "SyntheticCamera", "SystemCalls", "V4L2Camera", "X11Display", "Subprocess", "AppBuilds",
      ],
      swiftSettings: strict),
    // The preload library (Preload/firstframe-preload.c) and its C companions, compiled by the
    // CompilePreload plugin into bench's resource folder next to its binary (Preload/README.md).
    .plugin(name: "CompilePreload", capability: .buildTool()),
    .executableTarget(
      name: "bench",
      dependencies: ["BenchCommands", "BenchKit", "HostConditions", "Subprocess", "AppBuilds"],
      swiftSettings: strict,
      plugins: ["CompilePreload"]),
    // What bench's bookkeeping costs per run (a session over a runner that answers at once), and
    // big synthetic results files for timing the readers: Benchmarks/results-io runs it.
    .executableTarget(
      name: "results-benchmark",
      dependencies: [
        "BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "Subprocess", "TestSupport",
        "CommandLineKit",
      ],
      path: "Benchmarks/results-benchmark", swiftSettings: strict),
    // Shared test helpers.
    .target(
      name: "TestSupport",
      dependencies: ["CaptureKit", "PhaseTrace", "BenchAnalysis", "LaunchContract", "SystemCalls"],
      path: "Sources/TestSupport", swiftSettings: strict),

    // The `.blocking` test trait: a blocking test's body off Swift's cooperative pool (tests only;
    // it imports Testing, which nothing else links).
    .target(name: "TestThreads", path: "Sources/TestThreads", swiftSettings: strict),

    // The fake V4L2 kernel, shared by the V4L2 tests and the V4L2 fuzz target.
    .target(
      name: "V4L2TestSupport", dependencies: ["V4L2Camera", "CV4L2Shims", "SystemCalls"],
      swiftSettings: strict),
    // One fuzz target per parser of outside bytes (Fuzz/README.md); libFuzzer drives them from
    // Fuzz/Package.swift, and FuzzCorpusTests replays the committed corpus through them.
    .target(
      name: "FuzzTargets",
      dependencies: [
        "PhaseTrace", "BenchAnalysis", "Display", "CaptureKit", "LaunchContract", "SystemCalls",
        "SyntheticCamera", "CameraApp", "LightBoard", "Probe", "V4L2Camera", "V4L2TestSupport", "TestSupport",
      ],
      swiftSettings: strict),

    .testTarget(
      name: "CommandLineKitTests",
      dependencies: ["CommandLineKit", "BenchCommands", "BenchKit", "CameraApp"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(
      name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport", "TestThreads"],
      swiftSettings: strict),
    .testTarget(
      name: "SubprocessTests", dependencies: ["Subprocess", "SystemCalls", "TestSupport", "TestThreads"],
      swiftSettings: strict),
    .testTarget(
      name: "JSONDecodingTests", dependencies: ["JSONDecoding", "PhaseTrace", "BenchAnalysis"],
      swiftSettings: strict),
    .testTarget(
      name: "PhaseTraceTests", dependencies: ["PhaseTrace", "TestSupport", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "CaptureKitTests",
      dependencies: ["CaptureKit", "TestSupport", "LaunchContract", "PhaseTrace", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "LightBoardTests", dependencies: ["LightBoard", "BenchAnalysis", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "SyntheticCameraTests",
      dependencies: [
        "SyntheticCamera", "CaptureKit", "LightBoard", "TestSupport", "LaunchContract", "PhaseTrace",
        "SystemCalls", "TestThreads",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "V4L2CameraTests",
      dependencies: [
        "V4L2Camera", "CaptureKit", "PhaseTrace", "CV4L2Shims", "LaunchContract", "SystemCalls",
        "TestSupport", "V4L2TestSupport",
      ], swiftSettings: strict),
    .testTarget(
      name: "DisplayTests",
      dependencies: ["Display", "CaptureKit", "TestSupport", "SystemCalls", "TestThreads"],
      swiftSettings: strict),
    .testTarget(
      name: "ProbeTests",
      dependencies: [
        "Probe", "LightBoard", "Display", "CaptureKit", "BenchAnalysis", "TestSupport", "LaunchContract",
        "PhaseTrace", "SystemCalls",
        "TestThreads",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "CameraAppTests",
      dependencies: [
        "CameraApp", "PhaseTrace", "TestSupport", "CaptureKit", "CommandLineKit", "LaunchContract",
        "SystemCalls", "TestThreads",
      ], swiftSettings: strict),
    .testTarget(
      name: "BenchAnalysisTests",
      dependencies: ["BenchAnalysis", "PhaseTrace", "LaunchContract", "TestSupport", "CommandLineKit"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(
      name: "BenchKitTests",
      dependencies: [
        "BenchKit", "BenchCommands", "HostConditions", "BenchAnalysis", "CommandLineKit", "PhaseTrace",
        "LaunchContract", "SystemCalls", "Subprocess", "AppBuilds",
        "TestSupport", "TestThreads", "V4L2Camera", "V4L2TestSupport", "CV4L2Shims", "LightBoard",
        "CaptureKit",
      ],
      exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "TestSupport"], swiftSettings: strict),
    // The X11 display path against a real Xvfb (skipped, and saying so, where Xvfb is missing).
    .testTarget(
      name: "X11Tests",
      dependencies: [
        "X11Display", "Probe", "BenchCommands", "BenchKit", "BenchAnalysis", "CaptureKit", "LaunchContract",
        "PhaseTrace",
        "SystemCalls", "TestSupport",
        "TestThreads",
      ], swiftSettings: strict),
    // End to end: bench against small hostile apps, killed and interrupted at random, on a full
    // disk; prints the suite's figures (cases, crashes, runs lost, processes left, peak memory).
    .testTarget(
      name: "FaultInjectionTests",
      dependencies: [
        "BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "Subprocess", "TestSupport",
        "TestThreads",
      ],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
