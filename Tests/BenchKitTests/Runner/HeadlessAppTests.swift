#if canImport(Glibc)
  import Glibc
#endif
import BenchCommands
import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// `--headless-app-config NAME=COMMAND`: a program with no window (the C floor, a pipeline into
/// fakesink), whose run ends at the first buffer the preload library sees.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct HeadlessAppTests {
  static let out = scratchFolder("ff-headless")

  @Test(
    "bad --headless-app-config input is one line and exit status 2, naming that option",
    arguments: [
      (["--headless-app-config", "/bin/true"], "--headless-app-config '/bin/true': wants NAME=COMMAND"),
      (["--headless-app-config", "=/bin/true"], "--headless-app-config: empty name"),
      (["--headless-app-config", "eager=/bin/true"], "--headless-app-config eager: that is a built-in"),
      (
        ["--app-config", "floor=/bin/true", "--headless-app-config", "floor=/bin/true"],
        "--headless-app-config floor: the name is given twice"
      ),
      (
        ["--headless-app-config", "f=no-such-program-ff"],
        "--headless-app-config f: cannot find an executable"
      ),
      (
        ["--headless-app-config", "f=/bin/cat {device}"],
        "--headless-app-config f: {device} needs a V4L2 camera"
      ),
    ])
  func badInput(arguments: [String], message: String) {
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(arguments + ["--out", Self.out], output: &output, errors: &errors)
    #expect(status == 2)
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(errors.contains(message), "\(errors)")
  }

  @Test(
    "a headless app runs after the apps with a window; its run awaits device.first_buffer, not a live frame; window and first frame are not applicable, with the reason"
  )
  func settings() throws {
    let parsed = try #require(
      try RunCommand.parse([
        "--headless-app-config", "floor=/bin/true", "--app-config", "gst=/bin/true", "--out", Self.out,
      ])?.prepare())
    let s = parsed.settings
    #expect(s.benchConfigurations.map(\.name) == ["gst", "floor"])
    let floor = BenchConfiguration.app(s.appConfigs[1])
    let gst = BenchConfiguration.app(s.appConfigs[0])
    #expect(s.appConfigs.map(\.headless) == [false, true])
    #expect(s.awaitedEvents(for: floor, in: .warm) == [.deviceFirstBuffer])
    #expect(s.awaitedEvents(for: gst, in: .warm) == [])
    #expect(!s.expectsLiveFrame(for: floor) && s.expectsLiveFrame(for: gst))
    let reasons = s.inapplicablePhases(for: floor, in: .cold)
    for phase in [PhaseName.windowMapped, PhaseName.firstFrameObserved] {
      #expect(reasons[phase]?.contains("floor has no window (--headless-app-config)") == true, "\(reasons)")
    }
    #expect(reasons[PhaseName.deviceFirstBuffer] == nil)
    #expect(s.inapplicablePhases(for: gst, in: .cold)[PhaseName.firstFrameObserved] == nil)
    #expect(s.notRunReason(for: floor, in: .relock)?.contains("given with --headless-app-config") == true)
  }

  @Test("a headless program the preload library cannot see is refused: its runs could only time out")
  func preloadOutOfReach() throws {
    let dir = temporaryFolder("headless-preload")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try AppConfigTests.thirtyTwoBitProgram(in: dir)
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(
      ["--headless-app-config", "old=\(path)", "--out", Self.out], output: &output, errors: &errors)
    #expect(status == 2)
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(
      errors.contains("--headless-app-config old: its run ends at the first buffer the preload library sees"))
    #expect(errors.contains("32-bit"), "\(errors)")
  }

  @Test(
    "the C floor as a headless app, on the fake driver under the preload library: every run ok with its five device phases and no first frame; results name it headless"
  )
  func clientOnTheFakeDriver() throws {
    let dir = temporaryFolder("headless-client")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let client = try PreloadLibrary.locate(PreloadLibrary.clientFileName)
    let fake = try PreloadLibrary.locate(PreloadLibrary.fakeDriverFileName)
    let device = dir + "/fake-video0"
    // Open to the app, which runs as nobody when the tests run as root (--app-user), as a real
    // node is through its group.
    _ = FileManager.default.createFile(
      atPath: device, contents: Data(), attributes: [.posixPermissions: 0o666])
    // bench keeps what its environment preloads after the library: the fake driver answers the
    // client's calls on the stand-in device, behind the library as a kernel would.
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--headless-app-config", "floor=\(client) --api ioctl \(device)", "--runs", "2", "--warmup", "1",
          "--conditions", "cold,warm", "--quiet", "--out", dir + "/results",
        ],
        environment: [
          "LD_PRELOAD": fake,
          LaunchEnvironment.Key.fakeV4L2Prefix.rawValue: dir + "/fake-video",
          LaunchEnvironment.Key.preloadDevicePrefix.rawValue: dir + "/fake-video",
        ]), "bench did not finish")
    #expect(outcome.status == 0, "\(outcome.output)")
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    #expect(results.settings.headlessAppConfigs == ["floor"])
    #expect(results.cells.map { "\($0.condition)/\($0.config)" } == ["cold/floor", "warm/floor"])
    for cell in results.cells {
      #expect(cell.records.count == 2)
      #expect(cell.notApplicable?[PhaseName.firstFrameObserved] != nil)
      for record in cell.records {
        #expect(record.ok, "\(record.error ?? "")")
        for phase in PhaseName.device + [PhaseName.processLaunch] {
          #expect(record.phases[phase] != nil, "\(phase) missing: \(record.phases)")
        }
        #expect(record.phases[PhaseName.firstFrameObserved] == nil)
      }
    }
  }

  static let exitsQuietly = "#!/bin/sh\necho 'opening the camera' >&2\nexit 0\n"
  static let exitsWithError = "#!/bin/sh\necho 'ERROR: cannot open /dev/video9' >&2\nexit 4\n"
  static let neverStreams = "#!/bin/sh\nexec sleep 600\n"

  @Test(
    "a headless program that ends before its first buffer, fails, or never streams: a failed run each, saying which"
  )
  func failures() throws {
    let dir = temporaryFolder("headless-failures")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let quiet = try BenchInvocation.writeScript(Self.exitsQuietly, named: "quiet", in: dir)
    let failing = try BenchInvocation.writeScript(Self.exitsWithError, named: "failing", in: dir)
    let stuck = try BenchInvocation.writeScript(Self.neverStreams, named: "stuck", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--headless-app-config", "quiet=\(quiet)", "--headless-app-config", "failing=\(failing)",
        "--headless-app-config", "stuck=\(stuck)", "--runs", "1", "--warmup", "0", "--conditions", "warm",
        "--run-timeout", "1", "--quiet", "--out", dir + "/results",
      ]), "bench did not finish")
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    func error(_ config: String) -> String {
      results.cells.first { $0.config == config }?.records.first?.error ?? "no record"
    }
    #expect(
      error("quiet").contains("app exited with status 0 before device.first_buffer"), "\(error("quiet"))")
    #expect(error("failing").contains("app exited with status 4"), "\(error("failing"))")
    #expect(
      error("failing").hasSuffix("its last stderr line: ERROR: cannot open /dev/video9"),
      "\(error("failing"))")
    #expect(error("stuck").contains("no device.first_buffer within 1 s"), "\(error("stuck"))")
  }
}
