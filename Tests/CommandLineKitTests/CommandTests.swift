import CommandLineKit
import Testing

/// A small command that exercises the shared protocol: help, parsing, the error line, exit 2.
enum GreetCommand: Command {
  struct Options {
    var name: String
    var times: Int
    var shout: Bool
  }

  static let times = Option("--times", "N", "how often", default: 1, parser: .integer(in: 1...10))
  static let shout = Flag("--shout", "in capitals")
  static let spec = CommandLineSpec(
    command: "greet", synopsis: "NAME [options]", summary: "Greets NAME.", options: [times, shout],
    epilogue: "exit status: 0 greeted, 2 bad usage")

  static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.count == 1 else { throw UsageError("wants one name") }
    return Options(name: parsed.positional[0], times: try parsed.value(times), shout: parsed.isSet(shout))
  }

  static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    guard options.name != "nobody" else { throw UsageError("cannot greet nobody") }
    let line = "hello \(options.name)\n"
    for _ in 0..<options.times { output.write(options.shout ? line.uppercased() : line) }
    return 0
  }
}

@Suite struct CommandTests {
  func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    var output = ""
    var errors = ""
    let status = GreetCommand.run(arguments, output: &output, errors: &errors)
    return (status, output, errors)
  }

  @Test("--help prints the table's help and exits 0 without running")
  func help() {
    for arguments in [["--help"], ["-h"], ["nobody", "--times", "99", "--help"]] {
      let r = run(arguments)
      #expect(r.status == 0 && r.errors.isEmpty)
      #expect(r.output == GreetCommand.help)
    }
    // The longest option (as wide as the column) gets its help on the next line, as always.
    #expect(
      GreetCommand.help == """
        usage: greet NAME [options]

        Greets NAME.

        options:
          --times N
                     how often (default: 1)
          --shout    in capitals
          --help     show this help

        exit status: 0 greeted, 2 bad usage

        """)
  }

  @Test("options parse as --name value, --name=value, flags, and -- ends them")
  func parsing() {
    #expect(run(["ann", "--times", "2"]).output == "hello ann\nhello ann\n")
    #expect(run(["--times=2", "--shout", "ann"]).output == "HELLO ANN\nHELLO ANN\n")
    #expect(run(["--", "--shout"]).output == "hello --shout\n")
    #expect(run(["ann", "--times", "5", "--times", "1"]).output == "hello ann\n")
  }

  @Test("every bad command line is one line on stderr, '<command>: …', and exit status 2")
  func usageErrors() {
    let cases: [([String], String)] = [
      (["ann", "--bogus"], "greet: unknown option '--bogus' for greet (see greet --help)"),
      (["ann", "--times"], "greet: --times needs a value (N)"),
      (["ann", "--shout=yes"], "greet: --shout takes no value"),
      (["ann", "--times", "0"], "greet: --times must be at least 1, not 0"),
      (
        ["ann", "--times", "99999999999999999999"],
        "greet: --times must be at most 10, not 99999999999999999999"
      ),
      ([], "greet: wants one name"),
      (["nobody"], "greet: cannot greet nobody"),
    ]
    for (arguments, line) in cases {
      let r = run(arguments)
      #expect(r.status == 2, "\(arguments)")
      #expect(r.output.isEmpty)
      #expect(r.errors == line + "\n")
    }
  }

  @Test("parse gives the typed options, or nil for --help")
  func parse() throws {
    let options = try #require(try GreetCommand.parse(["ann", "--times", "3"]))
    #expect(options.name == "ann" && options.times == 3 && !options.shout)
    #expect(try GreetCommand.parse(["--help"]) == nil)
    let parsed = try GreetCommand.spec.parse(["x", "--times", "3"])
    #expect(parsed.isGiven(GreetCommand.times) && !parsed.isGiven(GreetCommand.shout))
  }

  @Test("an option's default reads in --help from the same value the parser falls back to")
  func defaults() throws {
    let runs = Option("--runs", "N", "runs", default: 20, parser: .integer(in: 1...100))
    #expect(runs.defaultText == "20")
    #expect(
      try CommandLineSpec(command: "c", synopsis: "", summary: "", options: [runs]).parse([]).value(runs)
        == 20)
    let hz = Option(
      "--hz", "N", "rate", default: 60.0, parser: .number(in: NumberRange(atLeast: 1, atMost: 1000)))
    #expect(hz.defaultText == "60")
    let all = Option(
      "--all", "LIST", "items", default: ["a", "b"], shownAs: "both", parser: .list(of: ["a", "b"]))
    #expect(all.defaultText == "both")
    let file = Option<String?>("--file", "FILE", "a file", parser: .text)
    #expect(file.defaultText == nil && file.defaultValue == nil)
  }
}
