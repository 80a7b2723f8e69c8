/// `bench`'s command line: the first argument names a subcommand (`bench compare …`); anything
/// else is the main job's command line (`RunCommand`). Every command answers `--help` and reports
/// bad input the same way (``Command``).
package enum BenchCommandLine {
  /// The subcommands, by the name that selects them, in `--help` order.
  package static var subcommands: [(name: String, command: any Command.Type)] {
    [
      ("compare", CompareCommand.self), ("gate", GateCommand.self), ("baseline", BaselineCommand.self),
      ("report", ReportCommand.self), ("calibrate", CalibrateCommand.self), ("doctor", DoctorCommand.self),
      ("launch-floor", LaunchFloorCommand.self), ("power", PowerCommand.self),
      ("history", HistoryCommand.self),
      ("build-app", BuildAppCommand.self), ("ab", ABCommand.self), ("bisect", BisectCommand.self),
      ("run", RunCommand.self),
    ]
  }

  /// The command that `arguments` select, and the arguments it gets (without its name).
  package static func command(for arguments: [String]) -> (command: any Command.Type, arguments: [String]) {
    if let name = arguments.first, let match = subcommands.first(where: { $0.name == name }) {
      return (match.command, Array(arguments.dropFirst()))
    }
    return (RunCommand.self, arguments)
  }

  /// Runs the selected command on standard output and standard error; `arguments` exclude
  /// `bench`. Returns the exit status.
  package static func main(_ arguments: [String]) -> Int32 {
    let (command, rest) = command(for: arguments)
    return command.main(rest)
  }

  /// Runs the selected command with its output and error streams given (for tests).
  package static func run(
    _ arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    let (command, rest) = command(for: arguments)
    return command.run(rest, output: &output, errors: &errors)
  }
}
