import BenchCommands
import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// `--preload-camera-app`: the preload library loaded into camera-app's runs too, so that one
/// instrument measures the device phases of every app in a table (issue 28 item 2).
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct PreloadCameraAppTests {
  static let out = scratchFolder("ff-preload-camera-app")

  @Test(
    "with --preload-camera-app camera-app's configurations get the preload library and take their device phases from it; without it they do not"
  )
  func settings() throws {
    let given = try #require(
      try RunCommand.parse(["--preload-camera-app", "--configs", "deferred,eager", "--out", Self.out])?
        .prepare())
    #expect(given.settings.preloadCameraApp)
    #expect(given.settings.preloadLibrary != nil)
    #expect(given.settings.preloadsLibrary(into: .builtIn(.deferred)))
    #expect(given.settings.preloadsLibrary(into: .builtIn(.eager)))
    let plain = try #require(try RunCommand.parse(["--configs", "deferred", "--out", Self.out])?.prepare())
    #expect(!plain.settings.preloadsLibrary(into: .builtIn(.deferred)))
  }

  @Test("--preload-camera-app without camera-app in the run is one line and exit status 2")
  func withoutCameraApp() {
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(
      ["--preload-camera-app", "--app-config", "gst=/bin/true", "--out", Self.out], output: &output,
      errors: &errors)
    #expect(status == 2)
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(errors.contains("--preload-camera-app: camera-app does not run"), "\(errors)")
  }

  @Test(
    "a bench with --preload-camera-app runs camera-app with the library in it: its timeline has the library's app.main beside camera-app's own, and results say so"
  )
  func libraryInCameraApp() throws {
    let dir = temporaryFolder("preload-camera-app")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--preload-camera-app", "--configs", "deferred", "--conditions", "warm", "--runs", "1",
          "--warmup", "0", "--no-tap", "--run-timeout", "60", "--quiet", "--out", dir + "/results",
        ], timeout: .seconds(TestTime.seconds(600))), "bench did not finish")
    // What is checked is the app's environment, which its timeline shows whether or not a heavily
    // loaded machine let the run finish in time (exit status 1); 2 would be a usage error.
    #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.output)\(outcome.errors)")
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    #expect(results.settings.preloadCameraApp == true)
    let record = try #require(results.cells.first?.records.first)
    let mains = (record.timeline ?? []).filter { $0.name == EventName.appMain.rawValue }
    #expect(
      mains.contains { $0.fields?["source"] == PreloadLibrary.eventSource },
      "the library's app.main: \(mains)")
    #expect(mains.contains { $0.fields?["source"] == nil }, "camera-app's own app.main: \(mains)")
  }
}
