// swift-tools-version:6.0
//
// FirstFrame: camera launch-latency benchmarking for Linux.
// Layers (STYLE.md rule 1): bench → BenchKit → {BenchAnalysis, Display, Probe, CameraApp} →
// CaptureKit ← devices. BenchKit is the runner (conditions, processes, display, probe) and the
// CLI commands; BenchAnalysis is the analysis it hands results to (statistics, comparisons,
// gates, reports, the results schema), testable without processes.
// CaptureKit, LightBoard, PhaseTrace and BenchAnalysis are portable (no C module imports);
// platform code (V4L2, shared memory, process spawning) lives in its own modules.
import PackageDescription

// Warnings are errors in CI (STYLE.md rule 12): `.ci/run` builds with `-Xswiftc -warnings-as-errors`.
// No `.unsafeFlags` here, so that another package (a third-party camera app) can depend on the
// launch contract and the trace library.
let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
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
    .library(name: "BenchKit", targets: ["BenchKit"]),
    .executable(name: "camera-app", targets: ["camera-app"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  targets: [
    // The command-line option table and parser shared by camera-app and bench.
    .target(name: "CommandLineKit", dependencies: ["SystemCalls"], swiftSettings: strict),
    // Process-control calls Swift cannot import (prctl), prefixed CPlatformShims_.
    .target(name: "CPlatformShims"),
    // The POSIX seam: errno as a typed value, EINTR retried in one place, write-all, the
    // CLOCK_MONOTONIC clock and the absolute-deadline sleep.
    .target(
      name: "SystemCalls",
      dependencies: ["CPlatformShims"],
      swiftSettings: strict),
    // The launch contract between bench and any app under test: environment keys, endpoints,
    // control commands, configurations, camera selection, event names and their owners.
    .target(name: "LaunchContract", dependencies: ["SystemCalls"], swiftSettings: strict),
    // Phase events: the trace protocol's writer (any app) and reader (bench).
    .target(name: "PhaseTrace", dependencies: ["LaunchContract", "SystemCalls"], swiftSettings: strict),
    // The capture core: session graph, outputs, deferred start, hardware cost. Portable.
    .target(
      name: "CaptureKit", dependencies: ["PhaseTrace", "LaunchContract", "SystemCalls"], swiftSettings: strict
    ),
    // The light board: a moving bar plus blocks that encode capture time; renderer and decoder.
    .target(name: "LightBoard", swiftSettings: strict),
    // The embedded default camera: a simulated sensor with a cost profile.
    .target(
      name: "SyntheticCamera", dependencies: ["CaptureKit", "LightBoard", "LaunchContract", "SystemCalls"],
      swiftSettings: strict),
    // Real cameras through libv4l2.
    .systemLibrary(
      name: "CLibV4L2", pkgConfig: "libv4l2",
      providers: [.apt(["libv4l-dev"])]),
    .target(name: "CV4L2Shims", dependencies: ["CLibV4L2"]),
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
    // The probe: finds the first live frame from scanned-out pixels alone.
    .target(
      name: "Probe",
      dependencies: [
        "LightBoard", "Display", "PhaseTrace", "BenchAnalysis", "CaptureKit", "LaunchContract", "SystemCalls",
      ],
      swiftSettings: strict),
    // The reference camera app, as a library so that tests can drive it.
    .target(
      name: "CameraApp",
      dependencies: [
        "CaptureKit", "PhaseTrace", "SyntheticCamera", "V4L2Camera", "Display", "CommandLineKit",
        "LaunchContract",
        "SystemCalls",
      ],
      swiftSettings: strict),
    .executableTarget(name: "camera-app", dependencies: ["CameraApp"], swiftSettings: strict),
    // The runner (conditions, processes, display, probe) and the CLI commands.
    .target(
      name: "BenchKit",
      dependencies: [
        "BenchAnalysis", "PhaseTrace", "Display", "Probe", "V4L2Camera", "SyntheticCamera", "CommandLineKit",
        "LaunchContract", "SystemCalls",
      ],
      swiftSettings: strict),
    .executableTarget(name: "bench", dependencies: ["BenchKit"], swiftSettings: strict),
    // What bench's bookkeeping costs per run (a session over a runner that answers at once), and
    // big synthetic results files for timing the readers: Benchmarks/results-io runs it.
    .executableTarget(
      name: "results-benchmark",
      dependencies: [
        "BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "TestSupport", "CommandLineKit",
      ],
      path: "Benchmarks/results-benchmark", swiftSettings: strict),
    // Shared test helpers.
    .target(
      name: "TestSupport",
      dependencies: ["CaptureKit", "PhaseTrace", "BenchAnalysis", "LaunchContract", "SystemCalls"],
      path: "Sources/TestSupport", swiftSettings: strict),

    .testTarget(
      name: "CommandLineKitTests", dependencies: ["CommandLineKit", "BenchKit", "CameraApp"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: strict),
    .testTarget(
      name: "PhaseTraceTests", dependencies: ["PhaseTrace", "TestSupport", "SystemCalls"], swiftSettings: strict),
    .testTarget(
      name: "CaptureKitTests",
      dependencies: ["CaptureKit", "TestSupport", "LaunchContract", "PhaseTrace", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "LightBoardTests", dependencies: ["LightBoard", "BenchAnalysis"], swiftSettings: strict),
    .testTarget(
      name: "SyntheticCameraTests",
      dependencies: [
        "SyntheticCamera", "CaptureKit", "LightBoard", "TestSupport", "LaunchContract", "SystemCalls",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "V4L2CameraTests",
      dependencies: [
        "V4L2Camera", "CaptureKit", "PhaseTrace", "CV4L2Shims", "LaunchContract", "SystemCalls",
        "TestSupport",
      ], swiftSettings: strict),
    .testTarget(
      name: "DisplayTests", dependencies: ["Display", "CaptureKit", "TestSupport", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "ProbeTests",
      dependencies: [
        "Probe", "LightBoard", "Display", "CaptureKit", "BenchAnalysis", "TestSupport", "LaunchContract",
        "PhaseTrace", "SystemCalls",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "CameraAppTests",
      dependencies: [
        "CameraApp", "PhaseTrace", "TestSupport", "CaptureKit", "CommandLineKit", "LaunchContract",
      ], swiftSettings: strict),
    .testTarget(
      name: "BenchAnalysisTests",
      dependencies: ["BenchAnalysis", "PhaseTrace", "LaunchContract", "TestSupport"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(
      name: "BenchKitTests",
      dependencies: [
        "BenchKit", "BenchAnalysis", "CommandLineKit", "PhaseTrace", "LaunchContract", "TestSupport",
        "SystemCalls",
      ],
      exclude: ["Fixtures"], swiftSettings: strict),
    // End to end: bench against small hostile apps, killed and interrupted at random, on a full
    // disk; prints the suite's figures (cases, crashes, runs lost, processes left, peak memory).
    .testTarget(
      name: "FaultInjectionTests",
      dependencies: ["BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "TestSupport"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
