/// Splits `--app "COMMAND ARGS"` into argv the way a shell would split words, without a shell:
/// whitespace separates, single quotes keep everything, double quotes keep all but `\"` and `\\`,
/// a backslash outside quotes escapes the next character. No globbing, no variables.
public enum CommandSplitter {
  /// The words of `command`.
  /// - Throws: `UsageError` for an unterminated quote or an empty command.
  public static func split(_ command: String) throws(UsageError) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaping = false
    for ch in command {
      if escaping {
        current.append(ch)
        escaping = false
        inWord = true
        continue
      }
      switch (quote, ch) {
      case (nil, "\\"), ("\"", "\\"):
        escaping = true
      case (nil, "'"), (nil, "\""):
        quote = ch
        inWord = true
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case (nil, " "), (nil, "\t"), (nil, "\n"):
        if inWord { words.append(current) }
        current = ""
        inWord = false
      default:
        current.append(ch)
        inWord = true
      }
    }
    guard quote == nil, !escaping else {
      throw UsageError("--app: unterminated quote or escape in '\(command)'")
    }
    if inWord { words.append(current) }
    guard !words.isEmpty else { throw UsageError("--app: empty command") }
    return words
  }
}
