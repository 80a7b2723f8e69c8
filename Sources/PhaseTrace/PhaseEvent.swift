import LaunchContract

/// Whether an event opens an interval, closes one, or marks an instant.
public enum PhaseEventKind: String, Codable, Sendable, Hashable {
  /// Opens the interval named by the event.
  case begin
  /// Closes the most recent open interval of the same name (and the same `output` field, if any).
  case end
  /// An instant.
  case event
}

/// A field value of a phase event: the JSON scalar kinds only.
public enum PhaseFieldValue: Codable, Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral
{
  /// A JSON string.
  case string(String)
  /// A whole number.
  case int(Int64)
  /// A floating-point number. Decoding gives `.double` only for a number that is not whole or does
  /// not fit in `Int64`: a whole double written to a trace reads back as `.int` (`doubleValue`
  /// reads either).
  case double(Double)
  /// A JSON `true` or `false`.
  case bool(Bool)

  /// A string value: `["output": "photo"]`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer value: `["capture_time_ns": 123]`.
  public init(integerLiteral value: Int64) { self = .int(value) }
  /// A floating-point value: `["seconds": 0.3]`.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A boolean value: `["granted": true]`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }

  /// Decodes one JSON scalar, trying in order a boolean, a 64-bit integer, a double and a string;
  /// throws for anything else (an array, an object or `null`).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? c.decode(Int64.self) {
      self = .int(i)
    } else if let d = try? c.decode(Double.self) {
      self = .double(d)
    } else {
      self = .string(try c.decode(String.self))
    }
  }

  /// Encodes the value as the JSON scalar it holds.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .string(let s): try c.encode(s)
    case .int(let i): try c.encode(i)
    case .double(let d): try c.encode(d)
    case .bool(let b): try c.encode(b)
    }
  }

  /// The value as text, as it would be shown to a person.
  public var description: String {
    switch self {
    case .string(let s): s
    case .int(let i): String(i)
    case .double(let d): String(d)
    case .bool(let b): String(b)
    }
  }

  /// The value as a string, if it is one.
  public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
  /// The value as an integer, if it is one (a whole double counts).
  public var intValue: Int64? {
    switch self {
    case .int(let i): i
    case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: Int64(d)
    default: nil
    }
  }
  /// The value as a double, if it is numeric.
  public var doubleValue: Double? {
    switch self {
    case .int(let i): Double(i)
    case .double(let d): d
    default: nil
    }
  }
}

/// One line of the trace protocol (docs/any-app-and-trace-protocol.md, "The trace protocol"):
/// `{"ts": <CLOCK_MONOTONIC ns>, "name": "...", "kind": "begin|end|event", "pid": 1234, "fields": {...}}`.
public struct PhaseEvent: Codable, Sendable, Hashable {
  /// When it happened: `CLOCK_MONOTONIC`, nanoseconds.
  public var ts: UInt64
  /// The event name, for example `session.start_running` (docs/any-app-and-trace-protocol.md lists them).
  public var name: String
  /// Begin, end or instant.
  public var kind: PhaseEventKind
  /// The process that wrote it.
  public var pid: Int32
  /// Free-form details, for example `["output": "photo"]`.
  public var fields: [String: PhaseFieldValue]

  /// Creates an event.
  public init(
    ts: UInt64, name: String, kind: PhaseEventKind, pid: Int32,
    fields: [String: PhaseFieldValue] = [:]
  ) {
    self.ts = ts
    self.name = name
    self.kind = kind
    self.pid = pid
    self.fields = fields
  }

  /// Who may write this event (the trust boundary, docs/gates-and-ci.md).
  public var owner: EventOwner { EventOwner(eventName: name) }

  enum CodingKeys: String, CodingKey { case ts, name, kind, pid, fields }

  /// Decodes one trace line. `ts`, `name` and `kind` are required; a missing `pid` reads as 0
  /// and missing `fields` as none.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    ts = try c.decode(UInt64.self, forKey: .ts)
    name = try c.decode(String.self, forKey: .name)
    kind = try c.decode(PhaseEventKind.self, forKey: .kind)
    pid = try c.decodeIfPresent(Int32.self, forKey: .pid) ?? 0
    fields = try c.decodeIfPresent([String: PhaseFieldValue].self, forKey: .fields) ?? [:]
  }
}
