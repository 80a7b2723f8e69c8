import SystemCalls

/// A results-side file that cannot be read or written — `results.json`, a baseline, a gates file,
/// the run journal: a code, a message a person can act on, the path and the cause. The results
/// module's one error type; the commands print its ``description`` as a usage error (exit
/// status 2) when a file they were given cannot be read.
public struct ResultsFileError: Error, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable {
    /// The file does not exist.
    case missing
    /// The file exists but cannot be read.
    case unreadable
    /// The file holds nothing but white space.
    case empty
    /// The file is not a results file: truncated, not JSON, not an object, or without a schema.
    case notResults
    /// The file names another schema than the one this bench reads.
    case foreignSchema
    /// The file has the schema but a field does not match it.
    case mismatch
    /// The file decodes but disagrees with itself (a count against its samples, a negative sample).
    case inconsistent
    /// A gates file that is not valid (`bench gate --gates`).
    case invalidGates
    /// A run journal that does not begin with its header line.
    case notJournal
    /// The results could not be turned into JSON (a NaN, for example).
    case encodingFailed
    /// The file or its folder could not be written.
    case writeFailed
  }
  /// What went wrong.
  public var code: Code
  /// The file.
  public var path: String
  /// For people. A reading error's message is its whole line, names the file itself, and has
  /// its control characters escaped (whatever the file held, it stays one line).
  public var message: String
  /// The underlying error, when any: an `Errno` for a failed system call, a `DecodingError`.
  public var cause: (any Error)?

  /// Creates the error.
  public init(code: Code, path: String, message: String, cause: (any Error)?) {
    self.code = code
    self.path = path
    self.message = message
    self.cause = cause
  }

  /// A file that cannot be read as what it should be: `line` is the whole one-line message and
  /// names the file.
  package init(reading code: Code, path: String, _ line: String, cause: (any Error)? = nil) {
    self.init(code: code, path: path, message: line.escapedAsOneLine, cause: cause)
  }

  /// Whether the file could not be read as what it should be (as against written).
  public var isReading: Bool { code != .encodingFailed && code != .writeFailed }

  /// The `errno` of the system call that failed, when that is the cause.
  public var errno: Errno? { cause as? Errno }

  /// One line. Reading: the message, e.g. `Results/base.json does not exist`. Writing:
  /// `Results/x/results.json: cannot write … (ENOSPC: No space left on device)`.
  public var description: String {
    if isReading { return message }
    let reason: String? =
      if let errno { "\(errno.name): \(errno.message)" } else { cause.map { "\($0)" } }
    return "\(path): \(message)" + (reason.map { " (\($0))" } ?? "")
  }
}
