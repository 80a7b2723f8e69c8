import BenchKit
import Foundation
import LaunchContract
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct RunCommandValidationTests {
  func message(_ args: [String]) -> String? {
    do {
      _ = try RunCommand.parse(
        args + ["--out", FileManager.default.temporaryDirectory.path + "/ff-validate"])
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
      _ = try RunCommand.parse(["--out", "/proc/ff-results"])
      Issue.record("an unwritable --out was accepted")
    } catch {
      #expect(error.message.contains("/proc/ff-results"))
    }
  }

  @Test("defaults are the documented main job")
  func defaults() throws {
    let options = try #require(
      try RunCommand.parse(["--out", FileManager.default.temporaryDirectory.path + "/ff-defaults"]))
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
    ])
  func executable(arguments: [String]) throws {
    let p = try TestProcess.run(BuiltProducts.path("bench"), arguments, timeout: .seconds(60))
    let errors = p.standardErrorText
    let output = p.standardOutputData
    #expect(p.terminationStatus == 2)
    #expect(output.isEmpty)
    #expect(errors.hasPrefix("bench"), "\(errors)")
    #expect(errors.split(separator: "\n").count == 1, "\(errors)")
  }
}
