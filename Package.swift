// swift-tools-version:6.0
//
// FirstFrame: camera launch-latency benchmarking for Linux.
// Layers (STYLE.md rule 1): bench → BenchKit → {Display, Probe, CameraApp} → CaptureKit ← devices.
// CaptureKit, LightBoard and PhaseTrace are portable (no C module imports); platform code
// (V4L2, shared memory, process spawning) lives in its own modules.
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
    .target(name: "SystemCalls", dependencies: ["CPlatformShims"], swiftSettings: strict),
    // The launch contract between bench and any app under test: environment keys, endpoints,
    // control commands, configurations, camera selection, event names and their owners.
    .target(name: "LaunchContract", dependencies: ["SystemCalls"], swiftSettings: strict),
    // Phase events: the trace protocol's writer (any app) and reader (bench).
    .target(name: "PhaseTrace", dependencies: ["LaunchContract", "SystemCalls"], swiftSettings: strict),
    // The capture core: session graph, outputs, deferred start, hardware cost. Portable.
    .target(name: "CaptureKit", dependencies: ["PhaseTrace", "LaunchContract", "SystemCalls"], swiftSettings: strict),
    // The light board: a moving bar plus blocks that encode capture time; renderer and decoder.
    .target(name: "LightBoard", swiftSettings: strict),
    // The embedded default camera: a simulated sensor with a cost profile.
    .target(name: "SyntheticCamera", dependencies: ["CaptureKit", "LightBoard", "LaunchContract", "SystemCalls"], swiftSettings: strict),
    // Real cameras through libv4l2.
    .systemLibrary(
      name: "CLibV4L2", pkgConfig: "libv4l2",
      providers: [.apt(["libv4l-dev"])]),
    .target(name: "CV4L2Shims", dependencies: ["CLibV4L2"]),
    .target(name: "V4L2Camera", dependencies: ["CaptureKit", "PhaseTrace", "CV4L2Shims"], swiftSettings: strict),
    // The display surface (shared memory) and the compositor that scans it out.
    .target(name: "Display", dependencies: ["CaptureKit"], swiftSettings: strict),
    // The probe: finds the first live frame from scanned-out pixels alone.
    .target(name: "Probe", dependencies: ["LightBoard", "Display", "PhaseTrace"], swiftSettings: strict),
    // The reference camera app, as a library so that tests can drive it.
    .target(
      name: "CameraApp",
      dependencies: [
        "CaptureKit", "PhaseTrace", "SyntheticCamera", "V4L2Camera", "Display", "CommandLineKit", "LaunchContract",
        "SystemCalls",
      ],
      swiftSettings: strict),
    .executableTarget(name: "camera-app", dependencies: ["CameraApp"], swiftSettings: strict),
    // The runner, statistics, results, gates and reports.
    .target(
      name: "BenchKit",
      dependencies: [
        "PhaseTrace", "Display", "Probe", "LightBoard", "V4L2Camera", "CaptureKit", "SyntheticCamera",
        "CommandLineKit", "CPlatformShims", "LaunchContract", "SystemCalls",
      ],
      swiftSettings: strict),
    .executableTarget(name: "bench", dependencies: ["BenchKit"], swiftSettings: strict),
    // Shared test helpers.
    .target(name: "TestSupport", dependencies: ["CaptureKit", "PhaseTrace"], path: "Sources/TestSupport", swiftSettings: strict),

    .testTarget(name: "PhaseTraceTests", dependencies: ["PhaseTrace", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "CaptureKitTests", dependencies: ["CaptureKit", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "LightBoardTests", dependencies: ["LightBoard"], swiftSettings: strict),
    .testTarget(name: "SyntheticCameraTests", dependencies: ["SyntheticCamera", "CaptureKit", "LightBoard", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "V4L2CameraTests", dependencies: ["V4L2Camera", "CaptureKit", "PhaseTrace", "CV4L2Shims"], swiftSettings: strict),
    .testTarget(name: "DisplayTests", dependencies: ["Display", "CaptureKit", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "ProbeTests", dependencies: ["Probe", "LightBoard", "Display", "CaptureKit", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "CameraAppTests", dependencies: ["CameraApp", "PhaseTrace", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "CommandLineKitTests", dependencies: ["CommandLineKit", "BenchKit", "CameraApp"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(name: "BenchKitTests", dependencies: ["BenchKit", "PhaseTrace", "TestSupport"], resources: [.copy("Fixtures")], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
