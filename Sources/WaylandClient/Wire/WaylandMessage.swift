/// One argument of a request, as the Wayland wire encodes it: 32-bit words in the host's byte
/// order; strings and arrays as a length word and their bytes padded to a word; descriptors
/// beside the bytes (`SCM_RIGHTS`), not in them.
public enum WaylandArgument: Sendable, Equatable {
  /// `int`.
  case int(Int32)
  /// `uint` (and enums).
  case uint(UInt32)
  /// `fixed`: 24.8 signed fixed point.
  case fixed(Double)
  /// `string`; nil is the null string (length 0).
  case string(String?)
  /// `object` (0 is null).
  case object(UInt32)
  /// `new_id` of a typed interface.
  case newID(UInt32)
  /// `array`.
  case array([UInt8])
  /// `fd`: travels as ancillary data.
  case fd(Int32)
}

/// Request encoding: a header of the object id, then the message size (bytes, header
/// included) in the high half and the opcode in the low half of the second word.
public enum WaylandMessage {
  /// The largest message the wire allows (libwayland's buffer: 4096 bytes).
  public static let maximumSize = 4096

  /// The bytes of request `opcode` on `object` with `arguments`, and the descriptors to send
  /// with them. Returns nil when the message would exceed ``maximumSize``.
  public static func encode(object: UInt32, opcode: UInt16, _ arguments: [WaylandArgument]) -> (
    bytes: [UInt8], descriptors: [Int32]
  )? {
    var body: [UInt8] = []
    var descriptors: [Int32] = []
    for argument in arguments {
      switch argument {
      case .int(let value): appendWord(&body, UInt32(bitPattern: value))
      case .uint(let value), .object(let value), .newID(let value): appendWord(&body, value)
      case .fixed(let value):
        appendWord(&body, UInt32(bitPattern: Int32(clamping: Int((value * 256).rounded()))))
      case .string(let value):
        guard let value else {
          appendWord(&body, 0)
          continue
        }
        let bytes = Array(value.utf8) + [0]
        appendWord(&body, UInt32(bytes.count))
        appendPadded(&body, bytes)
      case .array(let bytes):
        appendWord(&body, UInt32(bytes.count))
        appendPadded(&body, bytes)
      case .fd(let fd): descriptors.append(fd)
      }
    }
    let size = 8 + body.count
    guard size <= maximumSize else { return nil }
    var message: [UInt8] = []
    message.reserveCapacity(size)
    appendWord(&message, object)
    appendWord(&message, UInt32(size) << 16 | UInt32(opcode))
    message += body
    return (message, descriptors)
  }

  static func appendWord(_ bytes: inout [UInt8], _ word: UInt32) {
    withUnsafeBytes(of: word) { bytes += $0 }
  }

  static func appendPadded(_ bytes: inout [UInt8], _ payload: [UInt8]) {
    bytes += payload
    let padding = (4 - payload.count % 4) % 4
    bytes += [UInt8](repeating: 0, count: padding)
  }
}

/// One event as it came off the wire: its sender, its opcode and its argument bytes, with a
/// reader that takes the arguments in order. Every read is bounded by the message: a value the
/// message does not hold is a ``WaylandError`` (`.malformed`), never a read past it.
public struct WaylandEvent: Sendable {
  /// The object the event is from.
  public var sender: UInt32
  /// The event's opcode in the sender's interface.
  public var opcode: UInt16
  /// The argument bytes (the header excluded).
  public var body: [UInt8]
  /// How many argument bytes have been read. (An `fd` argument is not in the bytes: a handler
  /// takes it from the connection, ``WaylandConnection/takeDescriptor()``.)
  private var offset = 0

  /// Creates an event from its parts.
  public init(sender: UInt32, opcode: UInt16, body: [UInt8]) {
    self.sender = sender
    self.opcode = opcode
    self.body = body
  }

  /// Whether every argument byte has been read.
  public var atEnd: Bool { offset >= body.count }

  /// The next `uint`.
  public mutating func uint() throws(WaylandError) -> UInt32 {
    guard offset + 4 <= body.count else { throw truncated("uint") }
    let value = body.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    offset += 4
    return value
  }

  /// The next `int`.
  public mutating func int() throws(WaylandError) -> Int32 { Int32(bitPattern: try uint()) }

  /// The next `object` or `new_id` (a server-created object's id).
  public mutating func object() throws(WaylandError) -> UInt32 { try uint() }

  /// The next `fixed`, as a number.
  public mutating func fixed() throws(WaylandError) -> Double { Double(try int()) / 256 }

  /// The next `string` (nil for the null string). A string without its terminating NUL, or
  /// longer than the message, is malformed; bytes that are not UTF-8 are repaired.
  public mutating func string() throws(WaylandError) -> String? {
    let length = Int(try uint())
    if length == 0 { return nil }
    guard length <= body.count - offset else { throw truncated("string") }
    guard body[offset + length - 1] == 0 else {
      throw WaylandError(
        .malformed, "Wayland event \(opcode) from object \(sender): a string without its NUL")
    }
    let text = String(decoding: body[offset..<(offset + length - 1)], as: UTF8.self)
    offset += (length + 3) & ~3
    return text
  }

  /// The next `array`'s bytes.
  public mutating func array() throws(WaylandError) -> [UInt8] {
    let length = Int(try uint())
    guard length <= body.count - offset else { throw truncated("array") }
    let bytes = Array(body[offset..<(offset + length)])
    offset = min(body.count, offset + ((length + 3) & ~3))
    return bytes
  }

  private func truncated(_ what: String) -> WaylandError {
    WaylandError(.malformed, "Wayland event \(opcode) from object \(sender) ends before its \(what)")
  }
}
