import BenchCommands
import BenchKit
import Foundation
import LaunchContract
import TestSupport
import TestThreads
import Testing

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct RunCommandValidationTests {
  func message(_ args: [String]) -> String? {
    do {
      _ = try RunCommand.parse(
        args + ["--out", scratchFolder("ff-validate")])?.prepare()
      return nil
    } catch {
      return error.message
    }
  }

  @Test("bad run counts are usage errors")
  func runs() {
    #expect(message(["--runs", "0"])?.contains("at least 1") == true)
    #expect(message(["--runs", "-1"])?.contains("at least 1") == true)
    #expect(message(["--runs", "abc"])?.contains("whole number") == true)
  }

  @Test("huge numbers are refused with their bound instead of trapping later")
  func bounds() {
    #expect(message(["--runs", "999999999999"]) == "--runs must be at most 100000, not 999999999999")
    #expect(
      message(["--runs", "99999999999999999999999"])
        == "--runs must be at most 100000, not 99999999999999999999999")
    #expect(message(["--warmup", "999999999999"]) == "--warmup must be at most 100000, not 999999999999")
    // The runner turns these into nanoseconds (UInt64) and adds them to the monotonic clock.
    #expect(message(["--run-timeout", "1e11"]) == "--run-timeout must be at most 3600, not 1e11")
    #expect(message(["--lock-seconds", "1e11"]) == "--lock-seconds must be at most 3600, not 1e11")
    // The compositor accepts 1…1000 Hz.
    #expect(message(["--refresh-hz", "1e6"]) == "--refresh-hz must be at most 1000, not 1e6")
    #expect(message(["--refresh-hz", "0.5"]) == "--refresh-hz must be at least 1, not 0.5")
    #expect(
      message(["--runs", "100000", "--warmup", "100000", "--run-timeout", "3600", "--lock-seconds", "3600"])
        == nil)
  }

  @Test("unknown conditions, configurations, formats and options are named")
  func names() {
    #expect(message(["--conditions", "cold,tepid"])?.contains("unknown condition 'tepid'") == true)
    #expect(message(["--configs", "deferred,lazy"])?.contains("unknown config 'lazy'") == true)
    #expect(message(["--format", "yaml"])?.contains("unknown format 'yaml'") == true)
    #expect(message(["--frobnicate"])?.contains("unknown option '--frobnicate'") == true)
    #expect(message(["--camera", "usb0"])?.contains("unknown camera") == true)
  }

  @Test("an app that does not exist and an unwritable --out are usage errors")
  func paths() {
    #expect(message(["--app", "/nonexistent/camera --fast"])?.contains("/nonexistent/camera") == true)
    #expect(message(["--app", "no-such-program-ff"])?.contains("no-such-program-ff") == true)
    do {
      _ = try RunCommand.parse(["--out", "/proc/ff-results"])?.prepare()
      Issue.record("an unwritable --out was accepted")
    } catch {
      #expect(error.message.contains("/proc/ff-results"))
    }
  }

  @Test("an empty --out is refused instead of writing the results into the working folder")
  func emptyOut() {
    #expect(throws: UsageError("--out wants a folder name, not an empty one")) {
      _ = try RunCommand.parse(["--out", ""])?.prepare()
    }
    #expect(throws: UsageError("--profile wants a file name, not an empty one")) {
      _ = try RunCommand.parse(["--profile", ""])?.prepare()
    }
  }

  @Test("an --out inside a file is a usage error")
  func outInsideAFile() {
    do {
      _ = try RunCommand.parse(["--out", "/etc/passwd/results"])?.prepare()
      Issue.record("an --out inside a file was accepted")
    } catch {
      #expect(
        error.message.hasPrefix("--out /etc/passwd/results: cannot create the folder"), "\(error.message)")
    }
  }

  @Test(
    "an --app that is executable but no program (neither ELF nor #!) is refused up front, not at every run")
  func appThatIsNoProgram() throws {
    let dir = temporaryFolder("ff-app")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/not-a-program"
    try Data("just text\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o755) == 0)
    let error = message(["--app", path])
    #expect(error?.contains("not a program") == true, "\(error ?? "accepted")")
    let script = dir + "/script"
    try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: script))
    #expect(chmod(script, 0o755) == 0)
    #expect(message(["--app", script]) == nil)
    #expect(message(["--app", "/bin/true"]) == nil)
  }

  /// The shipped default profile (`Benchmarks/profiles/default.json`) with `costs.<cost>.ms`
  /// set to `ms`, in a file.
  func profile(_ cost: String, ms: Double) throws -> String {
    let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Benchmarks/profiles/default.json")
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as! [String: Any]
    var costs = object["costs"] as! [String: Any]
    costs[cost] = ["kind": "hardware", "ms": ms]
    object["costs"] = costs
    let path = scratchFolder("ff-profile-\(UUID().uuidString)") + "/profile.json"
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "a profile the camera cannot carry out is refused up front with its field and bound, not at every run")
  func hugeProfile() throws {
    let error = message(["--profile", try profile("power_up_cold", ms: 1e300)])
    #expect(
      error?.contains("field costs.power_up_cold.ms must be a number from 0 to 3600000") == true,
      "\(error ?? "accepted")")
  }

  @Test(
    "a profile whose nominal time to the first frame exceeds --run-timeout is refused: every run would time out"
  )
  func profileBeyondTimeout() throws {
    let path = try profile("first_frame_latency", ms: 20_000)
    let error = message(["--profile", path])
    #expect(error?.contains("--run-timeout") == true, "\(error ?? "accepted")")
    #expect(message(["--profile", path, "--run-timeout", "30"]) == nil)
  }

  @Test("defaults are the documented main job")
  func defaults() throws {
    let options = try #require(
      try RunCommand.parse(["--out", scratchFolder("ff-defaults")])?.prepare()
    )
    let s = options.settings
    #expect(s.runs == 20 && s.warmup == 1)
    #expect(s.conditions.map(\.rawValue) == ["cold", "warm", "relock", "loaded"])
    #expect(s.configs == [.deferred, .eager])
    #expect(s.camera == .synthetic)
    #expect(s.refreshHz == 60 && s.lockSeconds == 1 && s.runTimeoutSeconds == 10)
    #expect(options.format == .table && !options.quiet && s.tap)
  }

  @Test(
    "the bench executable: each entry point's bad input is one line on stderr and exit status 2",
    arguments: [
      ["--runs", "999999999999"], ["--frobnicate"], ["compare", "a.json"], ["gate", "r.json"],
      ["baseline", "load"],
      ["report"], ["calibrate", "--trials", "99999999999"], ["doctor", "extra"],
      // A character device that is no camera: libv4l2, asked about it, prints lines of its own.
      ["--camera", "v4l2:/dev/null"], ["--camera", "pipewire:/dev/null"], ["--camera", "pipewire:"],
    ])
  func executable(arguments: [String]) throws {
    let bench = try #require(try BenchInvocation.run(arguments, timeout: .seconds(60)), "bench did not end")
    let errors = bench.errors
    let output = bench.output
    #expect(bench.status == 2)
    #expect(output.isEmpty)
    #expect(errors.hasPrefix("bench"), "\(errors)")
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
  }
}
