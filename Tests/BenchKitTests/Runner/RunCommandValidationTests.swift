import LaunchContract
import BenchKit
import Foundation
import Testing

@Suite struct RunCommandValidationTests {
  func message(_ args: [String]) -> String? {
    do {
      _ = try RunCommand.settings(
        from: args + ["--out", FileManager.default.temporaryDirectory.path + "/ff-validate"])
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
      _ = try RunCommand.settings(from: ["--out", "/proc/ff-results"])
      Issue.record("an unwritable --out was accepted")
    } catch {
      #expect(error.message.contains("/proc/ff-results"))
    }
  }

  @Test("defaults are the documented main job")
  func defaults() throws {
    let (s, format, quiet) = try #require(
      try RunCommand.settings(from: ["--out", FileManager.default.temporaryDirectory.path + "/ff-defaults"]))
    #expect(s.runs == 20 && s.warmup == 1)
    #expect(s.conditions.map(\.rawValue) == ["cold", "warm", "relock", "loaded"])
    #expect(s.configs == [.deferred, .eager])
    #expect(s.camera == .synthetic)
    #expect(format == "table" && !quiet && s.tap)
  }
}
