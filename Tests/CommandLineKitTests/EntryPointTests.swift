import BenchCommands
import BenchKit
import CameraApp
import CommandLineKit
import Testing

/// Every entry point (bench, its subcommands, camera-app) turns bad input into one line,
/// "<command>: <what is wrong>", on stderr and exit status 2 — in-process, through the same
/// `Command` protocol the executables use. Huge numbers are refused with their bound, not trapped.
@Suite struct EntryPointTests {
  struct Outcome {
    var status: Int32
    var output: String
    var errors: String
  }

  func bench(_ arguments: [String]) -> Outcome {
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(arguments, output: &output, errors: &errors)
    return Outcome(status: status, output: output, errors: errors)
  }

  func cameraApp(_ arguments: [String]) -> Outcome {
    var output = ""
    var errors = ""
    let status = CameraAppCommand.run(arguments, output: &output, errors: &errors)
    return Outcome(status: status, output: output, errors: errors)
  }

  /// Checks the outcome is exactly `line` (after the command's name) on stderr and exit status 2.
  func expectUsageError(_ r: Outcome, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(r.status == 2, sourceLocation: sourceLocation)
    #expect(r.output.isEmpty, sourceLocation: sourceLocation)
    #expect(r.errors == line + "\n", sourceLocation: sourceLocation)
  }

  @Test(
    "huge numbers are refused with their bound: bench --runs, --warmup, --run-timeout, --lock-seconds, --refresh-hz"
  )
  func benchBounds() {
    expectUsageError(
      bench(["--runs", "999999999999"]), "bench: --runs must be at most 100000, not 999999999999")
    expectUsageError(
      bench(["--runs", "99999999999999999999999"]),
      "bench: --runs must be at most 100000, not 99999999999999999999999")
    expectUsageError(
      bench(["--warmup", "999999999999"]), "bench: --warmup must be at most 100000, not 999999999999")
    expectUsageError(bench(["--run-timeout", "1e12"]), "bench: --run-timeout must be at most 3600, not 1e12")
    expectUsageError(bench(["--run-timeout", "0"]), "bench: --run-timeout must be greater than 0, not 0")
    expectUsageError(bench(["--quit-grace", "0"]), "bench: --quit-grace must be greater than 0, not 0")
    expectUsageError(bench(["--quit-grace", "601"]), "bench: --quit-grace must be at most 600, not 601")
    expectUsageError(
      bench(["--lock-seconds", "1e300"]), "bench: --lock-seconds must be at most 3600, not 1e300")
    expectUsageError(bench(["--lock-seconds", "-1"]), "bench: --lock-seconds must be at least 0, not -1")
    expectUsageError(bench(["--refresh-hz", "1e9"]), "bench: --refresh-hz must be at most 1000, not 1e9")
    // The compositor wants at least 1 Hz; below that is a usage error, not a failed run.
    expectUsageError(bench(["--refresh-hz", "0.5"]), "bench: --refresh-hz must be at least 1, not 0.5")
  }

  @Test(
    "huge numbers are refused with their bound: compare --resamples, calibrate --trials and --refresh-hz, camera-app --duration"
  )
  func subcommandBounds() {
    expectUsageError(
      bench(["compare", "a.json", "b.json", "--resamples", "99999999999"]),
      "bench compare: --resamples must be at most 1000000, not 99999999999")
    expectUsageError(
      bench(["compare", "a.json", "b.json", "--resamples", "100"]),
      "bench compare: --resamples must be at least 2000, not 100")
    expectUsageError(
      bench(["calibrate", "--trials", "99999999999"]),
      "bench calibrate: --trials must be at most 10000, not 99999999999")
    expectUsageError(
      bench(["calibrate", "--refresh-hz", "5000"]),
      "bench calibrate: --refresh-hz must be at most 1000, not 5000")
    expectUsageError(
      cameraApp(["--duration", "1e12"]), "camera-app: --duration must be at most 86400, not 1e12")
    expectUsageError(cameraApp(["--duration", "0"]), "camera-app: --duration must be greater than 0, not 0")
  }

  @Test(
    "every entry point's bad input is one line and exit status 2",
    arguments: [
      ["--frobnicate"], ["frob"], ["--runs"], ["--no-tap=yes"], ["--conditions", "cold,tepid"],
      ["compare", "a.json"], ["compare", "--alpha", "2", "a.json", "b.json"],
      ["compare", "--format", "yaml", "a", "b"],
      ["compare", "--seed", "-1", "a", "b"], ["gate", "r.json"],
      ["gate", "--baseline", "b", "--threshold", "x=1", "r"],
      ["gate", "--bogus"], ["baseline", "load"], ["baseline", "save", "a.json"], ["report"],
      ["report", "a", "b"],
      ["calibrate", "extra"], ["calibrate", "--format", "yaml"], ["doctor", "extra"], ["doctor", "--bogus"],
      ["launch-floor", "--launches", "0"], ["launch-floor", "hello"], ["launch-floor", "x=/nonexistent"],
      ["launch-floor", "--conditions", "relock"], ["build-app", "extra"], ["build-app", "--bogus"],
      ["run", "--runs", "0"],
    ])
  func benchBadInput(arguments: [String]) {
    let r = bench(arguments)
    let command =
      ["compare", "gate", "baseline", "report", "calibrate", "doctor", "launch-floor", "build-app"]
        .contains(arguments[0])
      ? "bench \(arguments[0]): " : "bench: "
    #expect(r.status == 2)
    #expect(r.output.isEmpty)
    #expect(r.errors.hasPrefix(command), "\(r.errors)")
    #expect(r.errors.split(separator: "\n").count == 1 && r.errors.hasSuffix("\n"), "\(r.errors)")
  }

  @Test(
    "camera-app's bad input is one line and exit status 2",
    arguments: [
      ["--bogus"], ["--config", "turbo"], ["--outputs", "preview,x"], ["--camera", "usb"],
      ["--duration", "soon"],
      ["--duration"], ["extra"],
    ])
  func cameraAppBadInput(arguments: [String]) {
    let r = cameraApp(arguments)
    #expect(r.status == 2)
    #expect(r.output.isEmpty)
    #expect(r.errors.hasPrefix("camera-app: "), "\(r.errors)")
    #expect(r.errors.split(separator: "\n").count == 1 && r.errors.hasSuffix("\n"), "\(r.errors)")
  }

  // (`bench --out ""` is checked with `RunCommand.parse` in RunCommandValidationTests: run here,
  // a command line that parsed would start a benchmark in this process.)
  @Test(
    "an empty file name is refused where it is parsed, naming the option",
    arguments: [
      (["--profile", ""], "bench: --profile wants a file name, not an empty one"),
      (["report", "r.json", "--svg", ""], "bench report: --svg wants a file name, not an empty one"),
      (
        ["report", "r.json", "--markdown", ""], "bench report: --markdown wants a file name, not an empty one"
      ),
      (["gate", "--baseline", "", "r.json"], "bench gate: --baseline wants a file name, not an empty one"),
      (
        ["gate", "--baseline", "b", "--junit", "", "r.json"],
        "bench gate: --junit wants a file name, not an empty one"
      ),
      (["baseline", "save", "r.json", ""], "bench baseline: wants a file name to save to, not an empty one"),
      (["compare", "", "b.json"], "bench compare: wants two results files, not an empty name"),
    ])
  func emptyNames(arguments: [String], line: String) {
    expectUsageError(bench(arguments), line)
  }

  @Test("camera-app: an empty --record or --profile is refused where it is parsed")
  func cameraAppEmptyNames() {
    // `parse`, not `run`: a command line that parsed would launch the app in this process.
    #expect(throws: UsageError("--record wants a file name, not an empty one")) {
      _ = try CameraAppCommand.parse(["--record", ""])
    }
    #expect(throws: UsageError("--profile wants a file name, not an empty one")) {
      _ = try CameraAppCommand.parse(["--profile", ""])
    }
  }
}
