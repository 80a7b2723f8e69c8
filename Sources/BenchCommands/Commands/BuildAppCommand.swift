import AppBuilds
import BenchKit
import Foundation

/// `bench build-app`: builds camera-app exactly as bench runs it (``CameraAppLocator``: release,
/// static Swift and C++ runtimes, position-dependent) when its sources changed, and prints the
/// executable's path — for scripts that launch camera-app themselves (`Benchmarks/app-launch`,
/// `scripts/vivid-integration`), so that they measure the same binary bench does.
package enum BuildAppCommand: Command {
  /// build-app takes no options.
  package typealias Options = Void

  /// The option table (only `--help`).
  package static let spec = CommandLineSpec(
    command: "bench build-app", synopsis: "",
    summary: """
      Builds camera-app as bench runs it (release, static Swift and C++ runtimes, no PIE; only when
      its sources changed) and prints the executable's path. FIRSTFRAME_CAMERA_APP, when set, is
      checked and printed instead.
      """,
    options: [], epilogue: "exit status: 0 built (or up to date), 1 the build failed, 2 usage error")

  /// Checks the command line: no arguments.
  package static func options(from parsed: ParsedOptions) throws(UsageError) {
    try parsed.expectNoArguments()
  }

  /// Locates or builds camera-app; its path goes to `output`, progress and errors to `errors`.
  package static func execute(
    _ options: Void, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    let interrupted = InterruptFlag.install()
    do {
      let app = try CameraAppLocator.locate(interrupted: { interrupted.isSet }) {
        errors.write("bench build-app: \($0)\n")
      }
      output.write(app + "\n")
      return 0
    } catch {
      errors.write("bench build-app: \(error.message)\n")
      return error.code == .interrupted ? 130 : 1
    }
  }
}
