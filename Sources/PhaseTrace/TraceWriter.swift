import LaunchContract
import Synchronization
import SystemCalls

/// Appends phase events as JSON lines to a file or an inherited file descriptor.
///
/// This is the app side of the trace protocol: the runner passes `FIRSTFRAME_TRACE` (a path, or
/// `fd:N`), and the app appends one JSON object per line. Each line is written with a single
/// `write(2)` on a descriptor opened with `O_APPEND`, so lines from several processes never
/// interleave. It uses no Foundation, so it adds nothing to an app's launch.
public final class TraceWriter: PhaseEventSink {
  private let fd: Int32
  private let ownsDescriptor: Bool
  /// Serialises writers inside this process.
  private let lock = PThreadMutex(())

  /// Opens `endpoint`: a file path (created with mode 0600 if missing, appended to) or `fd:N`.
  /// - Throws: `TraceWriterError` naming the endpoint and errno.
  public init(endpoint: Endpoint) throws(TraceWriterError) {
    do {
      let opened = try endpoint.openForAppending()
      fd = opened.fd
      ownsDescriptor = opened.ownsDescriptor
    } catch {
      throw TraceWriterError(destination: endpoint.description, errno: error)
    }
  }

  /// Opens `destination`, an endpoint as the environment spells it (`fd:N` or a path).
  /// - Throws: `TraceWriterError` naming the destination and errno (`EBADF` when it is not an
  ///   endpoint at all).
  public convenience init(destination: String) throws(TraceWriterError) {
    guard let endpoint = try? Endpoint(parsing: destination) else {
      throw TraceWriterError(destination: destination, errno: .badFileDescriptor)
    }
    try self.init(endpoint: endpoint)
  }

  /// The writer `environment` names (`FIRSTFRAME_TRACE`), or `nil` when it names none.
  public static func from(_ environment: LaunchEnvironment) throws(TraceWriterError) -> TraceWriter? {
    guard let endpoint = environment.trace else { return nil }
    return try TraceWriter(endpoint: endpoint)
  }

  deinit {
    if ownsDescriptor { FileDescriptorIO.close(fd) }
  }

  /// Appends `event` as one line, with one `write(2)` where the kernel allows. Errors (a full
  /// disk) are dropped: tracing must never stop the app.
  public func record(_ event: PhaseEvent) {
    var line = TraceLineEncoder.encode(event)
    line.append("\n")
    lock.withLock { _ in try? FileDescriptorIO.writeAll(fd, line) }
  }
}

/// The trace destination could not be opened.
public struct TraceWriterError: Error, CustomStringConvertible {
  /// The path or `fd:N` that failed.
  public var destination: String
  /// Why.
  public var errno: Errno
  /// One line a person can act on.
  public var description: String {
    "cannot open trace destination '\(destination)': \(errno.message)"
  }
}

/// Encodes events as compact JSON without Foundation.
public enum TraceLineEncoder {
  /// One JSON object for `event`, without the newline. Keys in a stable order.
  public static func encode(_ event: PhaseEvent) -> String {
    var s = "{\"ts\":\(event.ts),\"name\":"
    appendString(event.name, to: &s)
    s += ",\"kind\":\"\(event.kind.rawValue)\",\"pid\":\(event.pid),\"fields\":{"
    var first = true
    for key in event.fields.keys.sorted() {
      if !first { s += "," }
      first = false
      appendString(key, to: &s)
      s += ":"
      switch event.fields[key]! {
      case .string(let v): appendString(v, to: &s)
      case .int(let v): s += String(v)
      case .double(let v): s += v.isFinite ? String(v) : "null"
      case .bool(let v): s += v ? "true" : "false"
      }
    }
    s += "}}"
    return s
  }

  /// Appends `value` as a JSON string literal.
  public static func appendString(_ value: String, to s: inout String) {
    s += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": s += "\\\""
      case "\\": s += "\\\\"
      case "\n": s += "\\n"
      case "\r": s += "\\r"
      case "\t": s += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: s.unicodeScalars.append(scalar)
      }
    }
    s += "\""
  }
}
