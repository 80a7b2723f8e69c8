import BenchKit
import Foundation

// `bench` dispatches to a command (BenchCommandLine); every command returns its exit status
// (0 ok, 1 failed/regression, 2 bad usage or input).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "__burn" {
  // A CPU burner of the loaded condition (internal; see CPUBurners).
  CPUBurners.burn(parent: Int32(arguments.dropFirst().first ?? "") ?? getppid())
}
if arguments.first == BuildGuard.argument {
  // A child that dies with bench (internal; see BuildGuard): bench ab's swift build.
  BuildGuard.exec(Array(arguments.dropFirst()))
}
exit(BenchCommandLine.main(arguments))
