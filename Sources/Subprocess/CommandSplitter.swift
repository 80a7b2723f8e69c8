import CommandLineKit
/// Splits `--app "COMMAND ARGS"` into argv the way a shell would split words, without a shell:
/// whitespace separates, single quotes keep everything, double quotes keep all but `\"` and `\\`,
/// a backslash outside quotes escapes the next character. No globbing, no variables.
/// `--app-config NAME=COMMAND` splits its command the same way.
package enum CommandSplitter {
  /// The words of `command`; `option` names the option in error lines.
  /// - Throws: `UsageError` for an unterminated quote or an empty command.
  package static func split(_ command: String, for option: String = "--app") throws(UsageError) -> [String] {
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
      throw UsageError("\(option): unterminated quote or escape in \(quoted(command))")
    }
    if inWord { words.append(current) }
    guard !words.isEmpty else { throw UsageError("\(option): empty command") }
    return words
  }

  /// `text` in single quotes, with control characters (a newline included) shown as `\u{…}`
  /// escapes, so that an error line that quotes it stays one line.
  package static func quoted(_ text: String) -> String {
    "'"
      + text.unicodeScalars.map {
        $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0)
      }.joined() + "'"
  }
}
