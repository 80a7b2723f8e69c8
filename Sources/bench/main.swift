import BenchKit
import Foundation

// `bench` dispatches to a command; every command returns its exit status (0 ok, 1 failed/regression,
// 2 bad usage or input).
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "compare": status = CompareCommand.main(Array(arguments.dropFirst()))
case "gate": status = GateCommand.main(Array(arguments.dropFirst()))
case "baseline": status = BaselineCommand.main(Array(arguments.dropFirst()))
case "report": status = ReportCommand.main(Array(arguments.dropFirst()))
case "calibrate": status = CalibrateCommand.main(Array(arguments.dropFirst()))
case "doctor": status = DoctorCommand.main(Array(arguments.dropFirst()))
case "run": status = RunCommand.main(Array(arguments.dropFirst()))
case "__burn":
  // A CPU burner of the loaded condition (internal; see CPUBurners).
  CPUBurners.burn(parent: Int32(arguments.dropFirst().first ?? "") ?? getppid())
default: status = RunCommand.main(arguments)
}
exit(status)
