#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

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
  private let lock = Mutex(())

  /// The environment variable that names the destination.
  public static let environmentKey = "FIRSTFRAME_TRACE"

  /// Opens `destination`: a file path (created with mode 0600 if missing, appended to) or `fd:N`.
  /// - Throws: `TraceWriterError` naming the destination and errno.
  public init(destination: String) throws(TraceWriterError) {
    if destination.hasPrefix("fd:") {
      guard let n = Int32(destination.dropFirst(3)), n >= 0, fcntl(n, F_GETFD) != -1 else {
        throw TraceWriterError(destination: destination, errno: EBADF)
      }
      fd = n
      ownsDescriptor = false
    } else {
      let opened = open(destination, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard opened >= 0 else { throw TraceWriterError(destination: destination, errno: errno) }
      fd = opened
      ownsDescriptor = true
    }
  }

  /// The writer named by `FIRSTFRAME_TRACE`, or `nil` when the variable is unset or empty.
  public static func fromEnvironment() throws(TraceWriterError) -> TraceWriter? {
    guard let raw = getenv(environmentKey), raw.pointee != 0 else { return nil }
    return try TraceWriter(destination: String(cString: raw))
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// Appends `event` as one line. Errors (a full disk) are dropped: tracing must never stop the app.
  public func record(_ event: PhaseEvent) {
    var line = TraceLineEncoder.encode(event)
    line.append("\n")
    lock.withLock { _ in
      line.withUTF8 { buf in
        var offset = 0
        while offset < buf.count {
          let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
          if n < 0 {
            if errno == EINTR { continue }
            return
          }
          offset += n
        }
      }
    }
  }
}

/// The trace destination could not be opened.
public struct TraceWriterError: Error, CustomStringConvertible {
  /// The path or `fd:N` that failed.
  public var destination: String
  /// The errno value.
  public var errno: Int32
  /// One line a person can act on.
  public var description: String {
    "cannot open trace destination '\(destination)': \(String(cString: strerror(errno)))"
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
