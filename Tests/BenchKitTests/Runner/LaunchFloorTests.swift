import AppBuilds
import BenchKit
import Foundation
import Subprocess
import TestSupport
import TestThreads
import Testing

/// `bench launch-floor`'s runner on a real reference program (Benchmarks/tools/hello.c, built
/// with the system's C compiler).
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct LaunchFloorTests {
  /// Builds hello.c into a fresh folder; nil (with the reason printed) without a C compiler.
  static func buildHello() throws -> String? {
    let root = try #require(CameraAppLocator.packageRoot())
    let folder = FileManager.default.temporaryDirectory.path + "/launch-floor-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let hello = folder + "/hello"
    let compiler = try ChildProcess.spawn(
      argv: ["/usr/bin/env", "cc", "-O2", "-o", hello, root + "/Benchmarks/tools/hello.c"],
      environment: ProcessInfo.processInfo.environment)
    guard compiler.wait(timeout: 60) == .exited(0) else {
      _ = compiler.terminate()
      print("LaunchFloorTests: skipped, no C compiler (cc) could build hello.c")
      return nil
    }
    return hello
  }

  @Test("a program started through a symbolic link is listed once among its mapped files, by its real path")
  func executableListedOnce() throws {
    guard let hello = try Self.buildHello() else { return }
    let folder = (hello as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let link = folder + "/hello-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: hello)
    let floor = LaunchFloor(
      launches: 2, conditions: [.warm], environment: ProcessInfo.processInfo.environment)
    let reports = floor.run(
      [LaunchFloor.Program(name: "hello", argv: [link])], progress: { _ in }, interrupted: { false })
    let report = try #require(reports.first)
    #expect(report.failures.isEmpty, "\(report.failures)")
    #expect(report.samples[.warm]?.count == 2)
    let executables = report.mappedFiles.keys.filter { $0.hasSuffix("/hello") || $0.hasSuffix("/hello-link") }
    #expect(executables == [hello], "\(report.mappedFiles.keys.sorted())")
  }
}
