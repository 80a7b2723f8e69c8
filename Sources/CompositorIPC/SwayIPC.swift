import JSONDecoding
import SystemCalls

/// One connection to sway's IPC socket (`SWAYSOCK`, `sway-ipc.<uid>.<pid>.sock` in the
/// compositor's runtime folder): the i3 protocol, each message `i3-ipc`, a 32-bit payload length
/// and a 32-bit type (both in the host's byte order), then a JSON payload. Requests and replies
/// go one at a time under a lock; every read has a deadline and a bound on its size (the
/// compositor is bench's, but the app's windows name themselves).
public final class SwayIPC: Sendable {
  /// The message types bench asks for.
  public enum MessageType: UInt32, Sendable {
    /// `SUBSCRIBE`: a JSON array of event names (`["window"]`).
    case subscribe = 2
    /// `GET_OUTPUTS`: the outputs with their current mode.
    case getOutputs = 3
    /// `GET_TREE`: the layout tree, windows with their pid.
    case getTree = 4
    /// `GET_VERSION`: the compositor's version.
    case getVersion = 7
  }

  /// The magic string each message begins with.
  static let magic = Array("i3-ipc".utf8)
  /// The largest payload read (a tree of a busy desktop is a few hundred kB).
  public static let maximumPayload = 16 << 20
  /// The bit sway sets in an event's type.
  static let eventBit: UInt32 = 0x8000_0000

  /// The socket's path.
  public let path: String
  private let descriptor: Int32
  /// The bytes read but not yet taken as a message: a deadline that passes in the middle of
  /// a message leaves its first part here for the next read, so the stream stays in step.
  private let lock = PThreadMutex([UInt8]())
  private let closed = PThreadMutex(false)

  /// Connects to sway's IPC socket at `path`.
  /// - Throws: ``SwayIPCError`` `.connect` with the ``Errno`` (`ENOENT`, `ECONNREFUSED`).
  public init(path: String) throws(SwayIPCError) {
    self.path = path
    do {
      descriptor = try UnixSocket.connect(path: path)
    } catch {
      throw SwayIPCError(.connect, "cannot connect to sway's IPC socket \(path): \(error.message)")
    }
  }

  deinit { close() }

  /// Closes the connection. Safe to call more than once.
  public func close() {
    let wasClosed = closed.withLock { c -> Bool in
      defer { c = true }
      return c
    }
    if !wasClosed { FileDescriptorIO.close(descriptor) }
  }

  /// The descriptor, readable when an event (or a reply) arrived: for a caller's `poll`.
  public var readableDescriptor: Int32 { descriptor }

  /// Sends `type` with `payload` and returns the reply's JSON, read by `deadline`
  /// (`CLOCK_MONOTONIC`, ns). Events that arrive first (on a subscribed connection) are skipped.
  /// - Throws: ``SwayIPCError``: the socket failed or closed, the deadline passed, the reply is
  ///   not i3-ipc or not JSON.
  public func request(_ type: MessageType, payload: String = "", until deadline: UInt64) throws(SwayIPCError)
    -> JSONValue
  {
    try lock.withLock { (pending: inout [UInt8]) throws(SwayIPCError) -> JSONValue in
      try send(type, payload: payload)
      while true {
        let message = try receive(into: &pending, until: deadline)
        if message.type & Self.eventBit == 0 { return try Self.parse(message.payload, type: type.rawValue) }
      }
    }
  }

  /// The next message on the socket, by `deadline`, or nil at the deadline.
  /// - Throws: ``SwayIPCError`` as ``request(_:payload:until:)``.
  func nextMessage(until deadline: UInt64) throws(SwayIPCError) -> (type: UInt32, payload: [UInt8])? {
    try lock.withLock { (pending: inout [UInt8]) throws(SwayIPCError) -> (type: UInt32, payload: [UInt8])? in
      do throws(SwayIPCError) {
        return try receive(into: &pending, until: deadline)
      } catch {
        if error.kind == .timedOut { return nil }
        throw error
      }
    }
  }

  private func send(_ type: MessageType, payload: String) throws(SwayIPCError) {
    var bytes = Self.magic
    let body = Array(payload.utf8)
    withUnsafeBytes(of: UInt32(body.count)) { bytes += $0 }
    withUnsafeBytes(of: type.rawValue) { bytes += $0 }
    bytes += body
    let sent = bytes.withUnsafeBytes { raw in
      Result { () throws(Errno) in try UnixSocket.send(descriptor, raw, descriptors: []) }
    }
    if case .failure(let error) = sent {
      throw SwayIPCError(.closed, "sway's IPC socket \(path): \(error.message)")
    }
  }

  /// Reads one message: the 14-byte header, then its payload. What arrived of a message not
  /// whole by `deadline` stays in `pending` for the next call.
  private func receive(into pending: inout [UInt8], until deadline: UInt64) throws(SwayIPCError)
    -> (type: UInt32, payload: [UInt8])
  {
    try fill(&pending, to: 14, until: deadline)
    guard Array(pending[0..<6]) == Self.magic else {
      throw SwayIPCError(.protocolError, "sway's IPC socket \(path) did not answer as i3-ipc")
    }
    let length = pending[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    let type = pending[10..<14].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    guard Int(length) <= Self.maximumPayload else {
      throw SwayIPCError(.protocolError, "sway's IPC reply of \(length) bytes is larger than bench reads")
    }
    try fill(&pending, to: 14 + Int(length), until: deadline)
    let payload = Array(pending[14..<(14 + Int(length))])
    pending.removeFirst(14 + Int(length))
    return (type, payload)
  }

  /// Reads into `pending` until it holds at least `count` bytes, by `deadline` (a read may
  /// bring the start of the next message too: it stays in `pending`).
  private func fill(_ pending: inout [UInt8], to count: Int, until deadline: UInt64) throws(SwayIPCError) {
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while pending.count < count {
      let wanted = min(chunk.count, max(count - pending.count, 4096))
      let read = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(Errno) -> Int? in
          try FileDescriptorIO.read(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted]), until: deadline)
        }
      }
      let n: Int?
      switch read {
      case .success(let count): n = count
      case .failure(let error): throw SwayIPCError(.closed, "sway's IPC socket \(path): \(error.message)")
      }
      guard let n else { throw SwayIPCError(.timedOut, "sway's IPC socket \(path) did not answer in time") }
      guard n > 0 else { throw SwayIPCError(.closed, "sway closed its IPC socket \(path)") }
      pending += chunk[..<n]
    }
  }

  static func parse(_ payload: [UInt8], type: UInt32) throws(SwayIPCError) -> JSONValue {
    do {
      return try JSONValue(parsing: payload)
    } catch {
      throw SwayIPCError(.protocolError, "sway's IPC reply (type \(type)) is not JSON: \(error)")
    }
  }
}

/// What went wrong on sway's IPC socket, with one line for a person.
public struct SwayIPCError: Error, Sendable, Equatable {
  /// The kinds of failure.
  public enum Kind: Sendable, Equatable {
    /// The socket could not be reached.
    case connect
    /// The compositor closed the socket, or a send or read failed.
    case closed
    /// No (complete) reply by the deadline.
    case timedOut
    /// Not i3-ipc, not JSON, too large, or not the shape asked for.
    case protocolError
  }

  /// The kind.
  public var kind: Kind
  /// One line.
  public var message: String

  /// An error of `kind` saying `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }
}
