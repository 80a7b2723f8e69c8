import BenchKit
import Foundation
import LaunchContract
import SystemCalls
import Testing

/// camera-app as `bench` builds it (release, static Swift runtime: ``CameraAppLocator``; the first
/// run builds it, which takes minutes) carries no Foundation, and with the synthetic camera maps
/// no video library: launch stage one loads only what the synthetic camera needs (issue 14).
@Suite(.serialized, .timeLimit(.minutes(20))) struct CameraAppFootprintTests {
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
  }
}

/// The scripts that build camera-app themselves build it as bench does.
@Suite struct CameraAppBuildArgumentsTests {
  @Test("Benchmarks/app-launch and scripts/vivid-integration build camera-app with bench's arguments")
  func scriptsBuildAsBenchDoes() throws {
    let root = try #require(CameraAppLocator.packageRoot())
    let command = "swift build " + CameraAppLocator.buildArguments.joined(separator: " ")
    for script in ["Benchmarks/app-launch", "scripts/vivid-integration"] {
      let text = try String(contentsOfFile: root + "/" + script, encoding: .utf8)
      #expect(text.contains(command), "\(script) does not run: \(command)")
    }
  }
}
