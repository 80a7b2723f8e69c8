/// A bad command line or bad input: one line for stderr, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Equatable {
  /// The one line, without the program name.
  public var message: String
  /// Creates the error.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// One option of a command: the table that both the parser and `--help` read, so they cannot drift.
public struct OptionSpec: Sendable {
  /// `--runs`.
  public var name: String
  /// The value's placeholder (`N`, `FILE`), or nil for a flag.
  public var valueName: String?
  /// One line of help.
  public var help: String
  /// The default, as shown in help.
  public var defaultText: String?

  /// Creates an option that takes a value.
  public static func value(
    _ name: String, _ valueName: String, _ help: String, default defaultText: String? = nil
  )
    -> OptionSpec
  {
    OptionSpec(name: name, valueName: valueName, help: help, defaultText: defaultText)
  }

  /// Creates a flag.
  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help, defaultText: nil)
  }
}

/// A parsed command line: values by option name, flags, and positional arguments.
public struct ParsedOptions: Sendable {
  /// Values by option name (`--runs` → `"20"`); the last occurrence wins.
  public var values: [String: String] = [:]
  /// Flags present.
  public var flags: Set<String> = []
  /// Positional arguments, in order.
  public var positional: [String] = []

  /// The raw value of `name`, if given.
  public func value(_ name: String) -> String? { values[name] }
  /// Whether flag `name` was given.
  public func has(_ name: String) -> Bool { flags.contains(name) }

  /// `name` as an integer ≥ `minimum`, or `defaultValue` when absent.
  public func int(_ name: String, default defaultValue: Int, minimum: Int) throws(UsageError) -> Int {
    guard let raw = values[name] else { return defaultValue }
    guard let v = Int(raw) else { throw UsageError("\(name) wants a whole number, not '\(raw)'") }
    guard v >= minimum else { throw UsageError("\(name) must be at least \(minimum), not \(v)") }
    return v
  }

  /// `name` as a finite number > 0 (or ≥ 0 when `allowZero`), or `defaultValue` when absent.
  public func double(_ name: String, default defaultValue: Double, allowZero: Bool = false) throws(UsageError)
    -> Double
  {
    guard let raw = values[name] else { return defaultValue }
    guard let v = Double(raw), v.isFinite else { throw UsageError("\(name) wants a number, not '\(raw)'") }
    guard allowZero ? v >= 0 : v > 0 else {
      throw UsageError("\(name) must be \(allowZero ? "at least 0" : "greater than 0"), not '\(raw)'")
    }
    return v
  }

  /// `name` as a comma-separated list whose items must all be in `allowed`, or `defaultValue`.
  public func list(_ name: String, allowed: [String], default defaultValue: [String]) throws(UsageError)
    -> [String]
  {
    guard let raw = values[name] else { return defaultValue }
    let items = raw.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0).trimmingSpaces()
    }
    guard !items.isEmpty, !items.contains("") else {
      throw UsageError("\(name) wants a comma-separated list of \(allowed.joined(separator: ", "))")
    }
    for item in items where !allowed.contains(item) {
      var noun = String(name.drop(while: { $0 == "-" })).replacingDashes()
      if noun.hasSuffix("s") { noun.removeLast() }
      throw UsageError(
        "unknown \(noun) '\(item)' for \(name) (choose from \(allowed.joined(separator: ", ")))")
    }
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
  }

  /// `name` as a comma-separated list of `T`'s raw values (all of `allowed`, by default every
  /// case), duplicates dropped, or `defaultValue` when absent.
  public func list<T: RawRepresentable & CaseIterable>(
    _ type: T.Type, _ name: String, allowed: [T] = Array(T.allCases), default defaultValue: [T]
  ) throws(UsageError) -> [T] where T.RawValue == String {
    guard values[name] != nil else { return defaultValue }
    return try list(name, allowed: allowed.map(\.rawValue), default: []).compactMap(T.init(rawValue:))
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }

  fileprivate func replacingDashes() -> String {
    String(map { $0 == "-" ? " " : $0 })
  }
}

/// A command's option table and its parser.
public struct CommandLineSpec: Sendable {
  /// `bench compare`.
  public var command: String
  /// The usage line(s) after the command, e.g. `A.json B.json`.
  public var synopsis: String
  /// A paragraph about what the command does.
  public var summary: String
  /// The options (`--help` is implied).
  public var options: [OptionSpec]
  /// Lines printed after the options (exit codes, examples).
  public var epilogue: String

  /// Creates a spec.
  public init(
    command: String, synopsis: String, summary: String, options: [OptionSpec], epilogue: String = ""
  ) {
    self.command = command
    self.synopsis = synopsis
    self.summary = summary
    self.options = options
    self.epilogue = epilogue
  }

  /// Parses `arguments` (without the program and command names). `--name=value` and
  /// `--name value` both work; `--` ends options.
  /// - Throws: `UsageError` for an unknown option or a missing value. `--help` is returned as a flag.
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedOptions {
    var parsed = ParsedOptions()
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
        parsed.flags.insert("--help")
        continue
      }
      var name = arg
      var inlineValue: String?
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      }
      guard let spec = options.first(where: { $0.name == name }) else {
        throw UsageError("unknown option '\(name)' for \(command) (see \(command) --help)")
      }
      if spec.valueName == nil {
        guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
        parsed.flags.insert(name)
      } else if let inlineValue {
        parsed.values[name] = inlineValue
      } else {
        guard i < arguments.count else { throw UsageError("\(name) needs a value (\(spec.valueName!))") }
        parsed.values[name] = arguments[i]
        i += 1
      }
    }
    return parsed
  }

  /// The `--help` text, made from the table.
  public var help: String {
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
