/// A `bench` subcommand that reads its arguments and writes a report: `compare`, `gate`,
/// `baseline`, `report`. Conformers give the option table and `execute`; `main` and `run`
/// (the error line and exit status 2 for bad input) are shared.
public protocol BenchSubcommand {
  /// The option table: the parser and `--help` read it.
  static var spec: CommandLineSpec { get }
  /// Does the work with the parsed command line (`--help` is already handled); throws
  /// `UsageError` for bad usage or input. Returns the exit status.
  static func execute(_ options: ParsedOptions, output: inout some TextOutputStream) throws(UsageError)
    -> Int32
}

extension BenchSubcommand {
  /// Runs the command; `arguments` exclude `bench` and the subcommand's name. Returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    var out = ConsoleStream.standardOutput
    var err = ConsoleStream.standardError
    return run(arguments, output: &out, errors: &err)
  }

  /// Runs the command with its output and error streams given (for tests): bad input is one line
  /// on `errors` and exit status 2.
  public static func run(
    _ arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    do {
      let options = try spec.parse(arguments)
      if options.has("--help") {
        output.write(spec.help)
        return 0
      }
      return try execute(options, output: &output)
    } catch {
      errors.write("\(spec.command): \(error.message)\n")
      return 2
    }
  }
}
