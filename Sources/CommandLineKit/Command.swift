/// An entry point of FirstFrame (`bench`, each `bench` subcommand, `camera-app`): its option
/// table, how the parsed command line becomes a typed `Options` value, and the work. The rest is
/// shared and lives here once: `--help` prints the table's help, and a bad command line or bad
/// input is one line on stderr, "<command>: <what is wrong>", and exit status 2.
package protocol Command {
  /// The typed command line.
  associatedtype Options
  /// The option table: the parser and `--help` read it.
  static var spec: CommandLineSpec { get }
  /// Turns the parsed command line into `Options` (`--help` is already handled): the options'
  /// values, checked positional arguments, and anything else that makes a usage error.
  static func options(from parsed: ParsedOptions) throws(UsageError) -> Options
  /// Does the work, writing results to `output` and problems that are not usage errors (exit
  /// status 1) to `errors`. Returns the exit status.
  /// - Throws: `UsageError` for bad input found while working (an unreadable file): exit status 2.
  static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32
}

extension Command {
  /// The `--help` text.
  package static var help: String { spec.help }

  /// Parses `arguments` (without the program and command names) into `Options`; nil when
  /// `--help` was asked for.
  /// - Throws: `UsageError` for a bad command line.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Options? {
    let parsed = try spec.parse(arguments)
    return parsed.helpRequested ? nil : try options(from: parsed)
  }

  /// Runs the command on standard output and standard error; `arguments` exclude the program and
  /// command names. Returns the exit status.
  package static func main(_ arguments: [String]) -> Int32 {
    var output = StandardStream.output
    var errors = StandardStream.error
    return run(arguments, output: &output, errors: &errors)
  }

  /// Runs the command with its output and error streams given (for tests): `--help` prints the
  /// help and returns 0; a `UsageError` is one line on `errors` and exit status 2.
  package static func run(
    _ arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    do throws(UsageError) {
      guard let options = try parse(arguments) else {
        output.write(help)
        return 0
      }
      return try execute(options, output: &output, errors: &errors)
    } catch {
      errors.write("\(spec.command): \(error.message)\n")
      return 2
    }
  }
}
