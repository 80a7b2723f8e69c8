// swift-tools-version:6.0
//
// FirstFrame: camera launch-latency benchmarking for Linux.
// Layers (STYLE.md rule 1): bench → BenchKit → {BenchAnalysis, Display, Probe, ProbeCalibration,
// CameraApp} → CaptureKit ← devices, and BenchAnalysis → ResultsSchema → {LaunchContract,
// PhaseTrace, Sampling, SystemCalls}. BenchKit is the runner (conditions, processes, display,
// probe) and the CLI commands; BenchAnalysis is the analysis it hands results to (statistics,
// comparisons, gates, reports), testable without processes; ResultsSchema is results.json's
// schema, count keys, reader and the run journal; Sampling the seeded generator and the percentile.
// No C module imports and no command line in Sampling, ResultsSchema, BenchAnalysis, CaptureKit
// and LightBoard (`scripts/check-layers` fails otherwise). PhaseTrace (TraceTail, Signposter) and
// LaunchContract (file, pipe and thread calls) still import Glibc, in the files that script lists;
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
    // CLOCK_MONOTONIC clock and the absolute-deadline sleep.
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
    .target(name: "LightBoard", dependencies: ["SystemCalls"], swiftSettings: strict),
    // The embedded default camera: a simulated sensor with a cost profile.
    .target(
      name: "SyntheticCamera",
      dependencies: [
        "CaptureKit", "JSONDecoding", "LightBoard", "LaunchContract", "SystemCalls", "Sampling",
      ],
      swiftSettings: strict),
    // Real cameras through libv4l2, loaded with dlopen when a V4L2 camera is opened (package
    // libv4l-0 at run time; nothing at build time: the shim declares the functions it calls).
    // `dl` for a C library older than glibc 2.34, where dlopen lives in libdl.
    .target(name: "CV4L2Shims", linkerSettings: [.linkedLibrary("dl")]),
    .target(
      name: "V4L2Camera",
      dependencies: ["CaptureKit", "PhaseTrace", "CV4L2Shims", "LaunchContract", "SystemCalls"],
      swiftSettings: strict),
    // The one seeded generator (SplitMix64) and the one percentile definition (type 7), for the
    // analysis, the probe's calibration and the synthetic camera's noise. Portable: no imports.
    .target(name: "Sampling", swiftSettings: strict),
    // The results schema, in one module: `results.json`'s types (every count key one enum), its
    // reader and atomic writer, the run journal, and their one error type (ResultsFileError).
    // File I/O through SystemCalls only; no C module imports, no command line.
    .target(
      name: "ResultsSchema", dependencies: ["PhaseTrace", "LaunchContract", "SystemCalls", "Sampling"],
      swiftSettings: strict),
    // The analysis of results: statistics, comparisons, gates, reports. Pure: no processes, no
    // I/O beyond reading and writing results, no C module imports, no command line.
    .target(
      name: "BenchAnalysis",
      dependencies: ["PhaseTrace", "LaunchContract", "ResultsSchema", "SystemCalls", "Sampling"],
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
        "LightBoard", "Display", "PhaseTrace", "CaptureKit", "LaunchContract", "SystemCalls",
        "X11Display",
      ],
      swiftSettings: strict),
    // The probe's calibration against ground truth (`bench calibrate`): a stand-in camera presents
    // known frames, and the detection lag's p50/p99 use Sampling's type-7 percentile, as the
    // results tables do.
    .target(
      name: "ProbeCalibration",
      dependencies: [
        "Probe", "CaptureKit", "Display", "LightBoard", "Sampling", "SystemCalls", "X11Display",
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
    // The runner (conditions, processes, display, probe) and the CLI commands.
    .target(
      name: "BenchKit",
      dependencies: [
        "BenchAnalysis", "PhaseTrace", "Display", "Probe", "V4L2Camera", "SyntheticCamera", "CommandLineKit",
        "LaunchContract", "SystemCalls", "X11Display", "LightBoard", "ResultsSchema", "ProbeCalibration",
      ],
      swiftSettings: strict),
    // The preload library (Preload/firstframe-preload.c) and its C companions, compiled by the
    // CompilePreload plugin into bench's resource folder next to its binary (Preload/README.md).
    .plugin(name: "CompilePreload", capability: .buildTool()),
    .executableTarget(
      name: "bench", dependencies: ["BenchKit"], swiftSettings: strict, plugins: ["CompilePreload"]),
    // What bench's bookkeeping costs per run (a session over a runner that answers at once), and
    // big synthetic results files for timing the readers: Benchmarks/results-io runs it.
    .executableTarget(
      name: "results-benchmark",
      dependencies: [
        "BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "TestSupport", "CommandLineKit",
        "Sampling",
        "ResultsSchema",
      ],
      path: "Benchmarks/results-benchmark", swiftSettings: strict),
    // Shared test helpers.
    .target(
      name: "TestSupport",
      dependencies: [
        "CaptureKit", "PhaseTrace", "BenchAnalysis", "LaunchContract", "SystemCalls", "Sampling",
        "ResultsSchema",
      ],
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
        "PhaseTrace", "BenchAnalysis", "ResultsSchema", "Display", "CaptureKit", "LaunchContract",
        "SystemCalls",
        "SyntheticCamera", "CameraApp", "LightBoard", "Probe", "V4L2Camera", "V4L2TestSupport", "TestSupport",
      ],
      swiftSettings: strict),

    .testTarget(
      name: "CommandLineKitTests", dependencies: ["CommandLineKit", "BenchKit", "CameraApp"],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    .testTarget(
      name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport", "TestThreads"],
      swiftSettings: strict),
    .testTarget(
      name: "JSONDecodingTests", dependencies: ["JSONDecoding", "PhaseTrace", "Sampling"],
      swiftSettings: strict),
    .testTarget(
      name: "PhaseTraceTests", dependencies: ["PhaseTrace", "TestSupport", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "CaptureKitTests",
      dependencies: ["CaptureKit", "TestSupport", "LaunchContract", "PhaseTrace", "SystemCalls"],
      swiftSettings: strict),
    .testTarget(
      name: "LightBoardTests", dependencies: ["LightBoard", "Sampling"], swiftSettings: strict),
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
        "Probe", "ProbeCalibration", "LightBoard", "Display", "CaptureKit", "TestSupport", "LaunchContract",
        "PhaseTrace", "SystemCalls", "Sampling",
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
      dependencies: [
        "BenchAnalysis", "PhaseTrace", "LaunchContract", "TestSupport", "CommandLineKit", "Sampling",
        "ResultsSchema",
      ],
      resources: [.copy("Fixtures")], swiftSettings: strict),
    // The results contract: fixtures from earlier issues decode and encode back unchanged.
    .testTarget(
      name: "ResultsSchemaTests", dependencies: ["ResultsSchema"], exclude: ["Fixtures"],
      swiftSettings: strict),
    .testTarget(
      name: "BenchKitTests",
      dependencies: [
        "BenchKit", "BenchAnalysis", "ResultsSchema", "CommandLineKit", "PhaseTrace", "LaunchContract",
        "SystemCalls",
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
        "X11Display", "Probe", "ProbeCalibration", "BenchKit", "BenchAnalysis", "ResultsSchema", "CaptureKit",
        "LaunchContract",
        "PhaseTrace",
        "SystemCalls", "TestSupport",
        "TestThreads",
      ], swiftSettings: strict),
    // End to end: bench against small hostile apps, killed and interrupted at random, on a full
    // disk; prints the suite's figures (cases, crashes, runs lost, processes left, peak memory).
    .testTarget(
      name: "FaultInjectionTests",
      dependencies: [
        "BenchKit", "BenchAnalysis", "LaunchContract", "SystemCalls", "TestSupport", "TestThreads",
        "Sampling",
        "ResultsSchema",
      ],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
