import BenchCommands
import BenchKit
import CameraApp
import CommandLineKit
import Foundation
import Testing

/// The `--help` texts are a contract (docs/options.md): each must stay byte-identical
/// to its committed copy in Fixtures/ (taken before the option tables became typed).
@Suite struct HelpTextTests {
  /// The text of Fixtures/`name`, from the bundle or beside this source file.
  static func fixture(_ name: String) throws -> String {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    if let base = Bundle.module.resourceURL?.appendingPathComponent("Fixtures"),
      FileManager.default.fileExists(atPath: base.path)
    {
      url = base
    }
    return try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
  }

  @Test(
    "bench's and each subcommand's --help is byte-identical to its committed copy",
    arguments: [
      "", "compare", "gate", "baseline", "report", "calibrate", "doctor", "launch-floor", "power",
      "build-app", "ab", "history", "bisect",
    ])
  func bench(subcommand: String) throws {
    let expected = try Self.fixture(subcommand.isEmpty ? "help-bench.txt" : "help-bench-\(subcommand).txt")
    var output = ""
    var errors = ""
    let status = BenchCommandLine.run(
      (subcommand.isEmpty ? [] : [subcommand]) + ["--help"], output: &output, errors: &errors)
    #expect(status == 0 && errors.isEmpty)
    #expect(output == expected)
  }

  @Test("camera-app's --help is byte-identical to its committed copy")
  func cameraApp() throws {
    var output = ""
    var errors = ""
    #expect(CameraAppCommand.run(["--help"], output: &output, errors: &errors) == 0)
    #expect(errors.isEmpty)
    #expect(output == (try Self.fixture("help-camera-app.txt")))
  }

  @Test("every subcommand has its own help, and `bench run --help` is bench's")
  func everySubcommand() throws {
    for (name, command) in BenchCommandLine.subcommands {
      let expected = try Self.fixture(name == "run" ? "help-bench.txt" : "help-bench-\(name).txt")
      #expect(command.help == expected, "\(name)")
    }
  }
}
