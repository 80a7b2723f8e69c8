import AppBuilds
import BenchKit
import Foundation
import Subprocess
import TestSupport
import TestThreads
import Testing

/// `bench launch-floor`'s runner on a real reference program (Benchmarks/tools/hello.c, built
/// with the system's C compiler). Without a C compiler the suite is listed as skipped, with
/// the reason.
@Suite(
  .blocking, .serialized, .enabled(if: Prerequisites.cCompiler != nil, Prerequisites.noCCompiler),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct LaunchFloorTests {
  /// Builds hello.c with the C compiler into a fresh folder; returns the program's path.
  static func buildHello() throws -> String {
    let root = try #require(CameraAppLocator.packageRoot())
    let hello = temporaryFolder("launch-floor") + "/hello"
    let compiler = try TestProcess.run(
      try #require(Prerequisites.cCompiler), ["-O2", "-o", hello, root + "/Benchmarks/tools/hello.c"],
      timeout: .seconds(60))
    try #require(compiler.terminationStatus == 0, "cc could not build hello.c: \(compiler.standardErrorText)")
    return hello
  }

  @Test("a program started through a symbolic link is listed once among its mapped files, by its real path")
  func executableListedOnce() throws {
    let hello = try Self.buildHello()
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

  @Test(
    "as root, every program of the launch floor runs as the app user, as bench's runs run the app",
    .enabled(if: geteuid() == 0, "needs root: only a root bench runs programs as another user"))
  func runsAsAppUser() throws {
    let hello = try Self.buildHello()
    let folder = (hello as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let nobody = try AppUser.resolve(given: "nobody", cameraNode: nil, benchIsRoot: true, environment: [:])
      .get()
    let floor = LaunchFloor(
      launches: 1, conditions: [.warm], environment: ProcessInfo.processInfo.environment,
      user: nobody.identity)
    let reports = floor.run(
      [LaunchFloor.Program(name: "hello", argv: [hello])], progress: { _ in }, interrupted: { false })
    let report = try #require(reports.first)
    #expect(report.failures.isEmpty, "\(report.failures)")
    #expect(report.uid == nobody.identity.uid, "hello ran as uid \(report.uid.map(String.init) ?? "?")")
  }
}
