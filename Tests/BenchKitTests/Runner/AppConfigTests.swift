import BenchCommands
import BenchKit
import Foundation
import HostConditions
import LaunchContract
import ResultsSchema
import Subprocess
import TestSupport
import TestThreads
import Testing

/// `--app-config NAME=COMMAND`: user-named third-party apps as configurations.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct AppConfigTests {
  static func usage(_ args: [String]) -> (status: Int32, errors: String) {
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(
      args + ["--out", scratchFolder("ff-app-config")], output: &output,
      errors: &errors)
    return (status, errors)
  }

  @Test(
    "bad --app-config input is one line and exit status 2",
    arguments: [
      (["--app-config", "=/bin/true"], "empty name"),
      (["--app-config", "/bin/true"], "wants NAME=COMMAND"),
      (["--app-config", "a b=/bin/true"], "a name is letters"),
      (["--app-config", "x\ny=/bin/true"], "a name is letters"),
      (["--app-config", "gst\u{1B}[31m=/bin/true"], "a name is letters"),
      (["--app-config", "-gst=/bin/true"], "a name is letters"),
      (["--app-config", String(repeating: "a", count: 41) + "=/bin/true"], "at most 40 characters"),
      (["--app-config", "gst=/bin/true", "--app-config", "gst=/bin/false"], "the name is given twice"),
      (["--app-config", "deferred=/bin/true"], "built-in configuration's name"),
      (["--app-config", "gst="], "--app-config gst: empty command"),
      (["--app-config", "gst='unterminated\nline"], "unterminated quote"),
      (["--app-config", "gst=no-such-program-ff"], "cannot find an executable named 'no-such-program-ff'"),
      (["--app-config", "gst=/bin/cat {device}"], "--app-config gst: {device} needs a V4L2 camera"),
      (["--app", "/bin/cat {device}"], "--app: {device} needs a V4L2 camera"),
      (
        ["--app-config", "gst=/bin/cat {node}"],
        "--app-config gst: {node} needs a camera served through PipeWire"
      ),
      (["--app", "/bin/true", "--app-config", "x=/bin/true"], "--app runs in the built-in configurations"),
      (["--window-timeout", "2"], "--window-timeout applies to --display x11"),
      (["--app-config", "x=/bin/true", "--profile", "Benchmarks/profiles/fast.json"], "--profile applies"),
    ])
  func badInput(arguments: [String], message: String) {
    let (status, errors) = Self.usage(arguments)
    #expect(status == 2)
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    #expect(errors.contains(message), "\(errors)")
  }

  @Test("{device} and {node} each with the camera they name; {node} is the PipeWire node's name")
  func placeholders() {
    let pipewire = CameraSelection.pipewire(path: "/dev/video1")
    #expect(
      AppConfiguration.placeholderProblem(
        ["gst", "device={device}"], camera: pipewire, what: "--app-config g")?
        .contains("{device} is the V4L2 node an app opens itself; with --camera pipewire:/dev/video1") == true
    )
    #expect(
      AppConfiguration.placeholderProblem(["gst", "target-object={node}"], camera: pipewire, what: "x") == nil
    )
    #expect(
      AppConfiguration.placeholderProblem(["gst", "{node}"], camera: .v4l2(path: "/dev/video0"), what: "x")?
        .contains("{node} needs a camera served through PipeWire") == true)
    #expect(
      AppConfiguration.placeholderProblem(["gst", "{device}"], camera: .synthetic, what: "x")?
        .contains("{device} needs a V4L2 camera") == true)
    let app = AppConfiguration(name: "pw", command: "", argv: ["gst", "target-object={node}", "{device}"])
    #expect(
      app.argv(camera: pipewire, outputs: []) == ["gst", "target-object=firstframe.camera", "/dev/video1"])
    #expect(
      app.argv(camera: .v4l2(path: "/dev/video0"), outputs: []) == [
        "gst", "target-object={node}", "/dev/video0",
      ])
  }

  @Test("NAME=COMMAND: the name, the command as given, argv split without a shell; placeholders per run")
  func parsing() throws {
    let app = try AppConfiguration(parsing: #"gst=gst-launch-1.0 v4l2src "device={device}" ! 'x y' {config}"#)
    #expect(app.name == "gst")
    #expect(app.command == #"gst-launch-1.0 v4l2src "device={device}" ! 'x y' {config}"#)
    #expect(app.argv == ["gst-launch-1.0", "v4l2src", "device={device}", "!", "x y", "{config}"])
    #expect(app.usesDevice)
    let run = app.argv(camera: .v4l2(path: "/dev/video3"), outputs: [.preview])
    #expect(run == ["gst-launch-1.0", "v4l2src", "device=/dev/video3", "!", "x y", "gst"])
    #expect(try AppConfiguration(parsing: "a=b=c").argv == ["b=c"])
  }

  @Test("--app-config alone runs only the apps; with --configs, alongside the built-in ones; recorded")
  func selection() throws {
    let alone = try #require(
      try RunCommand.parse(
        ["--app-config", "one=/bin/true", "--app-config", "two=/bin/echo {config}", "--out", Self.out])?
        .prepare())
    #expect(alone.settings.configs.isEmpty)
    #expect(alone.settings.benchConfigurations.map(\.name) == ["one", "two"])
    #expect(alone.settings.appConfigs.map(\.argv) == [["/bin/true"], ["/bin/echo", "{config}"]])
    #expect(alone.settings.profileName == nil)
    let both = try #require(
      try RunCommand.parse(["--configs", "deferred", "--app-config", "one=/bin/true", "--out", Self.out])?
        .prepare())
    #expect(both.settings.benchConfigurations.map(\.name) == ["deferred", "one"])
    #expect(both.settings.notRunReason(for: .app(both.settings.appConfigs[0]), in: .relock) != nil)
    #expect(both.settings.notRunReason(for: .builtIn(.deferred), in: .relock) == nil)
    #expect(both.settings.notRunReason(for: .app(both.settings.appConfigs[0]), in: .cold) == nil)
  }

  static let out = scratchFolder("ff-app-config")

  /// An ELF header of class 1 (32-bit) in `dir`, executable: a program, but not one the 64-bit
  /// preload library loads into.
  static func thirtyTwoBitProgram(in dir: String) throws -> String {
    var header = [UInt8](repeating: 0, count: 64)
    header[0...4] = [0x7F, 0x45, 0x4C, 0x46, 1]
    let path = dir + "/app32"
    try Data(header).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o755) == 0)
    return path
  }

  @Test(
    "an app the preload library cannot reach (here a 32-bit program) has its device phases and process_launch not applicable, with the reason"
  )
  func preloadOutOfReach() throws {
    let dir = temporaryFolder("app-config-preload")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = try Self.thirtyTwoBitProgram(in: dir)
    let parsed = try #require(
      try RunCommand.parse(
        ["--app-config", "old=\(path)", "--app-config", "sh=/bin/sh -c true", "--out", Self.out])?.prepare())
    let s = parsed.settings
    #expect(s.preloadReasons["old"]?.contains("32-bit") == true, "\(s.preloadReasons)")
    #expect(s.preloadReasons["sh"] == nil)
    let reasons = s.inapplicablePhases(for: .app(s.appConfigs[0]), in: .warm)
    for phase in PhaseName.device + [PhaseName.processLaunch] {
      #expect(reasons[phase]?.contains("32-bit") == true, "\(phase): \(reasons)")
    }
    #expect(s.inapplicablePhases(for: .app(s.appConfigs[1]), in: .warm)[PhaseName.deviceOpen] == nil)
  }

  static let failingApp = """
    #!/bin/sh
    echo "starting" >&2
    printf 'progress 1\\rprogress 2\\r' >&2
    printf '\\033[31mERROR: no element "nosuchelement"\\033[0m\\n' >&2
    echo "this line is on stdout"
    exit 3
    """

  @Test(
    "an app that exits at once is a failed run with its exit status and last stderr line; relock is not run, with the reason; the table names the app"
  )
  func exitsAtOnce() throws {
    let dir = temporaryFolder("bench-app-config")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript(Self.failingApp, named: "bad-pipeline", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--app-config", "bad=\(app)", "--runs", "1", "--warmup", "0", "--conditions", "cold,relock",
        "--quiet",
        "--out", dir + "/results",
      ]))
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    #expect(results.settings.configs == ["bad"])
    #expect(results.settings.appConfigs == ["bad": app])
    #expect(results.settings.notRun?["relock/bad"]?.contains("cannot be told to lock") == true)
    #expect(results.cells.map { "\($0.condition)/\($0.config)" } == ["cold/bad"])
    let record = try #require(results.cells.first?.records.first)
    #expect(!record.ok)
    let error = record.error ?? ""
    #expect(error.contains("app exited with status 3"), "\(error)")
    #expect(error.hasSuffix(#"its last stderr line: ERROR: no element "nosuchelement""#), "\(error)")
    #expect(!error.contains("\u{1B}"))
    #expect(outcome.output.contains("cold/bad"), "\(outcome.output)")
    #expect(outcome.output.contains("not run: relock/bad: bad cannot be told to lock"), "\(outcome.output)")
  }

  @Test("the last stderr line: the file's end only, control characters and escapes gone, cut to length")
  func lastLine() throws {
    #expect(AppOutput.lastLine(of: Array("a\nb\n\n".utf8)) == "b")
    #expect(AppOutput.lastLine(of: Array("x\r  12% \r\u{1B}[2K done\u{07}\r\n".utf8)) == "done")
    #expect(AppOutput.lastLine(of: Array("\n\n".utf8)) == nil)
    let long = AppOutput.lastLine(of: Array((String(repeating: "z", count: 5000) + "\n").utf8)) ?? ""
    #expect(long.count == AppOutput.maxCharacters + 1 && long.hasSuffix("…"))
    let dir = temporaryFolder("app-output")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // 1 MiB of output, the error at its end: only the last 4 KiB are read.
    let big = String(repeating: "noise line\n", count: 100_000) + "ERROR: the end\n"
    try Data(big.utf8).write(to: URL(fileURLWithPath: dir + "/stderr.log"))
    #expect(AppOutput.lastLine(ofFile: dir + "/stderr.log") == "ERROR: the end")
    #expect(AppOutput.lastLine(ofFile: dir + "/missing.log") == nil)
    #expect(mkfifo(dir + "/fifo", 0o600) == 0)
    #expect(AppOutput.lastLine(ofFile: dir + "/fifo") == nil)
  }

  @Test("a cold launch's footprint: the executable's real path and the libraries the loader resolves")
  func footprint() throws {
    let files = AppFootprint.files(ofExecutable: "/bin/sh")
    let sh = try #require(realpath("/bin/sh", nil).map { String(cString: $0) })
    #expect(files.contains(sh))
    #expect(files.contains { $0.hasSuffix("/libc.so.6") }, "\(files)")
    #expect(files.allSatisfy { $0.hasPrefix("/") && !$0.contains(" (0x") })
    let listing = """
      \tlinux-vdso.so.1 (0x00007ffd)
      \tlibc.so.6 => /bin/sh (0x00007f12)
      \tlibmissing.so.1 => not found
      \t/lib64/ld-linux-x86-64.so.2 (0x00007f34)
      """
    #expect(AppFootprint.parseListing(listing).contains(sh))
    #expect(AppFootprint.parseListing(listing).count <= 2)
  }
}
