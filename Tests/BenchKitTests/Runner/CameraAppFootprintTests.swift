import AppBuilds
import BenchKit
import Foundation
import LaunchContract
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// camera-app as `bench` builds it (release, static Swift runtime: ``CameraAppLocator``; the first
/// run builds it, which takes minutes) carries no Foundation, and with the synthetic camera maps
/// no video library: launch stage one loads only what the synthetic camera needs (issue 14).
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(20)))) struct CameraAppFootprintTests {
  /// Swift's mangled names of Foundation's modules: any symbol or type reference of theirs in
  /// the binary contains one.
  static let foundationModules = [
    "10Foundation", "20FoundationEssentials", "31FoundationInternationalization",
  ]

  /// Whether `needle` occurs in `haystack` (Foundation's optimised search: a debug build's own
  /// loop over 15–75 MB takes minutes).
  static func contains(_ haystack: Data, _ needle: String) -> Bool {
    haystack.range(of: Data(needle.utf8)) != nil
  }

  @Test("camera-app as bench builds it links no Foundation and maps no libv4l2 with the synthetic camera")
  func noFoundationNoVideoLibraries() throws {
    let app = try CameraAppLocator.locate { _ in }
    let binary = Data(try FileSystem.contents(atPath: app, maxBytes: 1 << 30))
    for module in Self.foundationModules {
      #expect(!Self.contains(binary, module), "\(app) links \(module.drop { $0.isNumber })")
    }

    let state = FileManager.default.temporaryDirectory.path + "/footprint-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: state) }
    var environment = ProcessInfo.processInfo.environment
    for key in LaunchEnvironment.launchKeys { environment[key.rawValue] = nil }
    environment[LaunchEnvironment.Key.syntheticState.rawValue] = state + "/camera"
    environment[LaunchEnvironment.Key.appState.rawValue] = state + "/app"
    let floor = LaunchFloor(launches: 1, conditions: [.warm], environment: environment)
    // Read /proc/PID/maps of the running app once its synthetic camera delivered a frame.
    let mapped = try floor.inspect(
      .init(name: "camera-app", argv: [app, "--camera", "synthetic"], inspectAfter: .previewFirstPresent)
    ).get()
    let libraries = mapped.filter { $0 != app }.map { ($0 as NSString).lastPathComponent }
    #expect(!libraries.isEmpty, "the app's mappings were read")
    for library in libraries {
      #expect(!library.hasPrefix("libv4l"), "\(library) is mapped")
      #expect(!library.hasPrefix("libjpeg"), "\(library) is mapped")
      #expect(!library.hasPrefix("libFoundation"), "\(library) is mapped")
    }
    // With the C++ runtime's static archive at hand (the toolchain's own GCC installation has
    // it), the C++ runtime is linked in: the loader loads neither libstdc++ nor libgcc_s at launch
    // (asked as ldd asks: LD_TRACE_LOADED_OBJECTS=1 makes it list what it loads, then exit), and
    // libstdc++ is not mapped at all. (glibc itself may dlopen libgcc_s later, to unwind a thread
    // that exits: that is after launch.)
    let scratch = try #require(CameraAppLocator.packageRoot()) + "/.build/camera-app"
    if CameraAppLocator.prepareStaticCxx(scratch: scratch, swift: CameraAppLocator.findSwift()) != nil {
      #expect(!libraries.contains { $0.hasPrefix("libstdc++") }, "\(libraries)")
      let listing = state + "-loaded.txt"
      defer { unlink(listing) }
      let loader = try ChildProcess.spawn(
        argv: [app], environment: ["LD_TRACE_LOADED_OBJECTS": "1"], logPath: listing)
      #expect(loader.wait(timeout: TestTime.seconds(30)) ?? loader.terminate() == .exited(0))
      let loaded = String(decoding: try FileSystem.contents(atPath: listing), as: UTF8.self)
      #expect(loaded.contains("libc.so"), "the loader listed what it loads: \(loaded)")
      #expect(!loaded.contains("libstdc++"), "\(loaded)")
      #expect(!loaded.contains("libgcc_s"), "\(loaded)")
    } else {
      print(
        "CameraAppFootprintTests: no libstdc++.a for the toolchain's clang; the shared C++ runtime is allowed"
      )
    }
  }
}

/// The scripts that launch camera-app themselves get it from bench (`bench build-app`), so they
/// measure the binary bench runs; none builds it its own way.
@Suite(.blocking) struct CameraAppBuildArgumentsTests {
  @Test(
    "Benchmarks/app-launch, Benchmarks/peers and scripts/vivid-integration take camera-app from bench build-app"
  )
  func scriptsBuildAsBenchDoes() throws {
    let root = try #require(CameraAppLocator.packageRoot())
    for script in ["Benchmarks/app-launch", "Benchmarks/peers", "scripts/vivid-integration"] {
      let text = try String(contentsOfFile: root + "/" + script, encoding: .utf8)
      #expect(text.contains("build-app)"), "\(script) does not take camera-app from bench build-app")
      #expect(!text.contains("--product camera-app"), "\(script) builds camera-app its own way")
    }
  }

  @Test(
    "Benchmarks/peers measures camera-app with the preload library, as it measures gst, ffplay and the floor (one instrument)"
  )
  func peersPreloadCameraApp() throws {
    let root = try #require(CameraAppLocator.packageRoot())
    let text = try String(contentsOfFile: root + "/Benchmarks/peers", encoding: .utf8)
    let bench = try #require(text.range(of: "\"$BENCH\" --camera"), "the bench call")
    let call = text[bench.lowerBound...].prefix { $0 != ">" }
    #expect(call.contains("--preload-camera-app"), "\(call)")
    #expect(call.contains("--configs deferred,eager"), "\(call)")
  }
}
