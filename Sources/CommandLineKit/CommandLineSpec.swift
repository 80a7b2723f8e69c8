/// A command's option table, with what `--help` says around it. The parser and `--help` both
/// read the table, so they cannot drift apart.
package struct CommandLineSpec: Sendable {
  /// `bench compare`: the program and command, as error lines and `--help` begin.
  package var command: String
  /// The usage line(s) after the command, e.g. `A.json B.json`.
  package var synopsis: String
  /// A paragraph about what the command does.
  package var summary: String
  /// The options, in `--help` order (`--help` is implied).
  package var options: [any CommandLineOption]
  /// Lines printed after the options (exit codes, examples).
  package var epilogue: String

  /// Creates a spec.
  package init(
    command: String, synopsis: String, summary: String, options: [any CommandLineOption],
    epilogue: String = ""
  ) {
    self.command = command
    self.synopsis = synopsis
    self.summary = summary
    self.options = options
    self.epilogue = epilogue
  }

  /// Takes `arguments` (without the program and command names) apart. `--name=value` and
  /// `--name value` both work; `--` ends options; `--help` and `-h` set `helpRequested`.
  /// Values are not parsed here: ``ParsedOptions/value(_:)`` parses them with their option.
  /// - Throws: `UsageError` for an unknown option, a missing value, or a value given to a flag.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedOptions {
    var parsed = ParsedOptions(command: command)
    var i = 0
    var onlyPositional = false
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if onlyPositional || !arg.hasPrefix("-") || arg == "-" {
        parsed.positional.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositional = true
        continue
      }
      if arg == "--help" || arg == "-h" {
        parsed.helpRequested = true
        continue
      }
      var name = arg
      var inlineValue: String?
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      }
      guard let option = options.first(where: { $0.name == name }) else {
        throw UsageError("unknown option '\(name)' for \(command) (see \(command) --help)")
      }
      guard let valueName = option.valueName else {
        guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
        parsed.flags.insert(name)
        continue
      }
      let text: String
      if let inlineValue {
        text = inlineValue
      } else {
        guard i < arguments.count else { throw UsageError("\(name) needs a value (\(valueName))") }
        text = arguments[i]
        i += 1
      }
      parsed.values[name] = text
      parsed.occurrences[name, default: []].append(text)
    }
    return parsed
  }

  /// The `--help` text, made from the table: each option with its placeholder, help and default.
  package var help: String {
    var s = "usage: \(command) \(synopsis)\n\n\(summary)\n"
    if !options.isEmpty {
      s += "\noptions:\n"
      let rows = options.map { o -> (String, String) in
        let left = o.valueName.map { "\(o.name) \($0)" } ?? o.name
        let right = o.help + (o.defaultText.map { " (default: \($0))" } ?? "")
        return (left, right)
      }
      let width = min(30, rows.map(\.0.count).max() ?? 0)
      for (left, right) in rows {
        let pad =
          left.count < width
          ? String(repeating: " ", count: width - left.count)
          : "\n" + String(repeating: " ", count: width + 2)
        s += "  \(left)\(pad)  \(right)\n"
      }
      s += "  --help" + String(repeating: " ", count: max(0, width - 6)) + "  show this help\n"
    }
    if !epilogue.isEmpty { s += "\n\(epilogue)\n" }
    return s
  }
}
