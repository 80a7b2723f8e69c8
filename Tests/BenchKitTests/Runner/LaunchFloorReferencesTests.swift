import AppBuilds
import Foundation
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// `Benchmarks/launch-floor`'s references are linked as camera-app is (issue 28, "fair floors"):
/// the goals compare camera-app with hellos that get its `-no-pie` and its linked-in C++ runtime,
/// and the compilers' plain builds stay as extra rows. Without a C compiler the suite is listed
/// as skipped, with the reason.
@Suite(
  .blocking, .serialized, .enabled(if: Prerequisites.cCompiler != nil, Prerequisites.noCCompiler),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct LaunchFloorReferencesTests {
  /// The ELF header's `e_type` of the file at `path`: 2 a position-dependent executable
  /// (`ET_EXEC`), 3 a position-independent one (`ET_DYN`).
  static func elfType(_ path: String) throws -> UInt16 {
    let file = try #require(FileHandle(forReadingAtPath: path), "cannot open \(path)")
    defer { try? file.close() }
    let header = [UInt8](try file.read(upToCount: 18) ?? Data())
    try #require(
      header.count == 18 && Array(header.prefix(4)) == [0x7F, 0x45, 0x4C, 0x46], "\(path) is not ELF")
    return UInt16(header[16]) | UInt16(header[17]) << 8
  }

  /// What the dynamic loader would load for `path` (`LD_TRACE_LOADED_OBJECTS`), one line each.
  static func loaded(_ path: String) throws -> String {
    let listing = temporaryFolder("launch-floor-ldd") + "/loaded.txt"
    defer { try? FileManager.default.removeItem(atPath: (listing as NSString).deletingLastPathComponent) }
    let loader = try ChildProcess.spawn(
      argv: [path], environment: ["LD_TRACE_LOADED_OBJECTS": "1"], logPath: listing)
    #expect(loader.wait(timeout: TestTime.seconds(30)) ?? loader.terminate() == .exited(0))
    return String(decoding: try FileSystem.contents(atPath: listing), as: UTF8.self)
  }

  @Test(
    "the C and Swift hellos the goals name are linked with camera-app's flags (position-dependent, the C++ runtime inside); the plain builds are extra rows"
  )
  func referencesLinkedAsCameraApp() throws {
    let root = try #require(CameraAppLocator.packageRoot())
    let folder = temporaryFolder("launch-floor-references")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = try TestProcess.run(
      root + "/Benchmarks/launch-floor", ["--references-only", folder],
      timeout: .seconds(TestTime.seconds(540)))
    try #require(script.terminationStatus == 0, "\(script.standardErrorText)")
    let listed = String(decoding: script.standardOutputData, as: UTF8.self).split(separator: "\n")
    var paths: [String: String] = [:]
    for line in listed {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { paths[parts[0]] = parts[1] }
    }
    for name in [
      "c-dynamic", "swift-static", "swift-essentials", "c-dynamic-plain", "swift-static-plain",
      "swift-essentials-plain",
    ] {
      #expect(paths[name] != nil, "\(name) missing from \(listed)")
    }
    // camera-app is position-dependent: so are the references the goals compare it with.
    #expect(CameraAppLocator.buildArguments.contains("-no-pie"))
    for name in ["c-dynamic", "swift-static", "swift-essentials"] {
      #expect(try Self.elfType(try #require(paths[name])) == 2, "\(name) is not position-dependent")
    }
    // camera-app links the C++ runtime in where the toolchain has its archive: so does the hello.
    let scratch = temporaryFolder("launch-floor-cxx")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    if CameraAppLocator.prepareStaticCxx(scratch: scratch, swift: CameraAppLocator.findSwift()) != nil {
      let fair = try Self.loaded(try #require(paths["swift-static"]))
      #expect(fair.contains("libc.so"), "the loader listed what it loads: \(fair)")
      #expect(!fair.contains("libstdc++") && !fair.contains("libgcc_s"), "\(fair)")
      let plain = try Self.loaded(try #require(paths["swift-static-plain"]))
      #expect(plain.contains("libstdc++"), "the plain build keeps the shared C++ runtime: \(plain)")
    }
  }
}
