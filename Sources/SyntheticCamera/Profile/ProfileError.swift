/// A cost profile that cannot be used: the file, the field and what is wrong, in one line, e.g.
/// `profile default.json: field costs.photo_init.ms must be a number ≥ 0`.
public struct ProfileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Hashable {
    /// The file could not be read.
    case unreadable
    /// The file is not JSON.
    case invalidJSON
    /// A required field is absent.
    case missingField
    /// A field has the wrong type (a string where a number belongs, …).
    case wrongType
    /// A field's value is out of range (negative cost, zero width, …).
    case outOfRange
  }

  /// What went wrong.
  public var code: Code
  /// The profile's file as given (or `default.json` for the embedded default).
  public var source: String
  /// The field, dotted (`costs.photo_init.ms`, `sensor.binned[0].width`), when one is at fault.
  public var field: String?
  /// The whole one-line message.
  public var message: String
  /// The underlying error (errno text, decoder message), if any.
  public var cause: String?

  /// Creates an error; `message` should be the complete one-line text.
  public init(code: Code, source: String, field: String?, message: String, cause: String? = nil) {
    self.code = code
    self.source = source
    self.field = field
    self.message = message
    self.cause = cause
  }

  /// The one-line message.
  public var description: String { message }
}
